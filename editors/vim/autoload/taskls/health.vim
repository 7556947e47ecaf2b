vim9script
# :TasksHealth — what a user checks when the pane does not work: Vim, the server binary and
# its version, the store it will use, the time zone, whether the server runs.

import autoload 'taskls/client.vim'
import autoload 'taskls/config.vim'

# The store the server will use, and where that choice comes from: `--store` in g:taskls_cmd,
# else $TASKLS_STORE, else g:taskls_store, else $XDG_DATA_HOME/taskls (~/.local/share/taskls).
export def Store(): list<string>
  var cmd: list<string> = config.Get('cmd')
  var i = index(cmd, '--store')
  if i >= 0 && i + 1 < len(cmd)
    return [cmd[i + 1], '--store in g:taskls_cmd']
  endif
  if $TASKLS_STORE != ''
    return [$TASKLS_STORE, '$TASKLS_STORE']
  endif
  if config.Get('store') != ''
    return [expand(config.Get('store')), 'g:taskls_store']
  endif
  var data = $XDG_DATA_HOME != '' ? $XDG_DATA_HOME : expand('~/.local/share')
  return [data .. '/taskls', 'the default']
enddef

# The report, one line each: `OK`, `INFO` or `ERROR` first.
export def Lines(): list<string>
  var lines = [printf('INFO Vim %d.%d, patch %d; vim9script and LSP channels: %s', v:version / 100, v:version % 100,
    PatchLevel(), has('vim9script') && has('channel') ? 'yes' : 'NO')]
  var cmd: list<string> = config.Get('cmd')
  var path = empty(cmd) ? '' : exepath(cmd[0])
  if path == ''
    add(lines, printf('ERROR the server `%s` is not executable: build it (swift build -c release) and put it on $PATH, or set g:taskls_cmd', empty(cmd) ? '' : cmd[0]))
  else
    var version = trim(system(shellescape(path) .. ' --version'))
    if v:shell_error != 0
      add(lines, printf('ERROR `%s --version` failed: %s', path, version))
    else
      add(lines, printf('OK server: %s (%s)', version, path))
    endif
  endif
  var [store, source] = Store()
  if isdirectory(store)
    add(lines, printf('OK store: %s (%s)', store, source))
    if filewritable(store) != 2
      add(lines, 'ERROR the store is not writable: ' .. store)
    endif
  elseif filereadable(store) || getftype(store) != ''
    add(lines, printf('ERROR store: %s (%s) is not a directory', store, source))
  else
    add(lines, printf('INFO store: %s (%s; created on first use)', store, source))
  endif
  var zone = config.Get('time_zone')
  add(lines, 'INFO time zone: ' .. (zone != '' ? zone : 'the server''s local zone'))
  if client.Running()
    var info = client.state.server_info
    add(lines, printf('OK the server runs (%s %s)', get(info, 'name', '?'), get(info, 'version', '?')))
  else
    add(lines, 'INFO the server is not running (it starts with :Tasks)')
  endif
  return lines
enddef

def PatchLevel(): number
  var patch = 0
  for step in [1000, 100, 10, 1]
    while has('patch-' .. (v:version / 100) .. '.' .. (v:version % 100) .. '.' .. (patch + step))
      patch += step
    endwhile
  endfor
  return patch
enddef

# Shows the report.
export def Show()
  for line in Lines()
    if line =~ '^ERROR'
      echohl ErrorMsg
    elseif line =~ '^OK'
      echohl MoreMsg
    endif
    echomsg 'taskls: ' .. line
    echohl None
  endfor
enddef

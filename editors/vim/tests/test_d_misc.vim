vim9script
# The help, :TasksHealth, key options, completion, and quitting Vim with panes open.

import './helpers.vim' as h
import autoload 'taskls/client.vim'
import autoload 'taskls/config.vim'
import autoload 'taskls/health.vim'
import autoload 'taskls/pane.vim'

const root = fnamemodify(expand('<sfile>:p:h'), ':h')

def g:Test_d1_help_tags_are_current_and_document_every_command_key_and_option()
  var doc = root .. '/doc'
  var shipped = readfile(doc .. '/tags')
  var fresh = tempname()
  mkdir(fresh, 'p')
  writefile(readfile(doc .. '/taskls.txt'), fresh .. '/taskls.txt')
  execute 'helptags' fnameescape(fresh)
  assert_equal(readfile(fresh .. '/tags'), shipped, 'doc/tags is what :helptags writes')
  help taskls
  assert_equal('help', &buftype)
  assert_match('taskls.txt', bufname())
  helpclose
  var text = join(readfile(doc .. '/taskls.txt'), "\n")
  for command in ['Tasks', 'TasksUndo', 'TasksRedo', 'TasksRestart', 'TasksStop', 'TasksHealth', 'TasksReminders',
      'TasksSnooze', 'TasksDismiss', 'TasksSaveFilter']
    assert_match('\*:' .. command .. '\*', text, 'the command :' .. command)
    assert_equal(2, exists(':' .. command), 'the command exists: ' .. command)
  endfor
  for [action, key] in items(config.default_keys)
    assert_match('\<' .. action .. '\>', text, 'the action ' .. action)
  endfor
  for plug in split(execute('nmap <Plug>(taskls-'), "\n")
    var name = matchstr(plug, '<Plug>(taskls-[a-z-]\+)')
    if name != ''
      assert_true(stridx(text, name) >= 0, 'the map ' .. name)
    endif
  endfor
  for name in keys(config.defaults)
    assert_match('\*g:taskls_' .. name .. '\*', text, 'the option g:taskls_' .. name)
  endfor
enddef

def g:Test_d2_health_reports_binary_version_store_and_server()
  var lines = health.Lines()
  assert_match('^INFO Vim 9\.\d', lines[0])
  assert_match('^OK server: taskls \S\+ (' .. escape(h.bin, '.\') .. ')$', lines[1])
  assert_match('^INFO store: ' .. escape(h.store, '.\') .. ' (--store in g:taskls_cmd; created on first use)$', lines[2])
  assert_match('^INFO the server is not running', lines[-1])
  h.Seed('Inbox', [])
  lines = health.Lines()
  assert_match('^OK store: ' .. escape(h.store, '.\') .. ' (--store in g:taskls_cmd)$', lines[2])
  assert_match('^OK the server runs (taskls ', lines[-1])
  g:taskls_cmd = ['/nonexistent/taskls']
  lines = health.Lines()
  assert_match('^ERROR the server `/nonexistent/taskls` is not executable', lines[1])
  TasksHealth
  assert_match('taskls: ERROR the server', execute('messages'))
enddef

def g:Test_d3_keys_can_be_changed_unmapped_or_all_turned_off()
  g:taskls_keys = {filter: '<LocalLeader>f', toggle: ''}
  var p = h.PaneOn(['A'])
  assert_equal('<Plug>(taskls-filter)', maparg('<LocalLeader>f', 'n'))
  assert_equal('', maparg('F', 'n'))
  assert_equal('', maparg('x', 'n'))
  assert_equal('<Plug>(taskls-delete)', maparg('dd', 'n'))
  h.Keys("\\f\<C-u>nothing\<CR>")
  h.Wait(() => p.count == 0, 'no matches')
  assert_equal(['No matches — clear the filter with <LocalLeader>f'], h.Lines(p.buf))
  h.AfterEach()
  g:taskls_no_maps = 1
  g:taskls_keys = {}
  p = h.PaneOn(['A'], 'Other')
  assert_equal('', maparg('dd', 'n'))
  assert_equal('', maparg('a', 'n'))
  # The <Plug> maps still work.
  nmap <buffer> X <Plug>(taskls-toggle)
  var v = p.version
  h.Keys('X')
  h.WaitVersion(p, v + 1, 'the toggle through <Plug>')
  assert_true(p.rows[0].done)
enddef

def g:Test_d4_completion_names_groups_and_lists()
  h.Seed('Groceries', [])
  h.Wait(() => !empty(client.state.lists), 'the lists known')
  assert_equal(['Groceries'], getcompletion('Tasks Gro', 'cmdline'))
  assert_equal(['today'], getcompletion('Tasks tod', 'cmdline'))
  Tasks Groceries
  h.Wait(() => get(pane.Get(), 'state', '') == 'ready', 'the pane by name')
  var p = pane.Get()
  assert_equal(['No tasks — press a to add one'], h.Lines(p.buf))
  Tasks today
  h.Wait(() => pane.Get().state == 'ready', 'the Today group')
  assert_match('^taskls://Today #', bufname())
enddef

def g:Test_d5_quitting_vim_with_panes_open_prints_nothing_and_stops_the_server()
  var store = h.NewStore()
  var out = tempname()
  var script = tempname() .. '.vim'
  writefile([
    'vim9script',
    'set runtimepath^=' .. root,
    'runtime plugin/taskls.vim',
    'g:taskls_cmd = [' .. string(h.bin) .. ', "serve", "--store", ' .. string(store) .. ']',
    'import autoload "taskls/client.vim"',
    'Tasks',
    'for i in range(500)',
    '  if getline(1) == "Smart groups" | break | endif',
    '  sleep 10m',
    'endfor',
    'feedkeys("aInbox\<CR>", "xt")',
    'for i in range(500)',
    '  if getline("$") =~ "Inbox" | break | endif',
    '  sleep 10m',
    'endfor',
    'normal! G',
    'feedkeys("\<CR>", "xt")',
    'for i in range(500)',
    '  if getline(1) =~ "No tasks" | break | endif',
    '  sleep 10m',
    'endfor',
    'g:job = client.state.job',
    'autocmd VimLeave * writefile([getline(1), v:errmsg, job_status(g:job)] + split(execute("messages"), "\n"), ' .. string(out) .. ')',
    'qall',
  ], script)
  var output = system(printf('timeout 20 vim -Nu NONE -U NONE -i NONE --not-a-term -S %s </dev/null 2>&1 >/dev/null', shellescape(script)))
  assert_equal(0, v:shell_error, 'Vim exits 0: ' .. output)
  var seen = readfile(out)
  assert_equal('No tasks — press a to add one', seen[0])
  assert_equal('', seen[1], 'no error')
  assert_equal('dead', seen[2], 'the server stopped with Vim')
  for line in seen[3 :]
    assert_notmatch('taskls\|E\d\+', line)
  endfor
enddef

def g:Test_d6_the_pane_buffer_is_a_taskls_filetype_without_vim_undo()
  var p = h.PaneOn(['A'])
  assert_equal('taskls', &filetype)
  assert_equal('nofile', &buftype)
  assert_false(&swapfile)
  assert_fails('normal! ix', 'E21:')
  assert_equal('  [ ] A', getline(1), 'the text cannot be typed into')
enddef

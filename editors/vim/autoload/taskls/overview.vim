vim9script
# The overview: the smart groups, the smart lists and the lists with live counts (`lists/list`
# with watch, then `lists/changed`); <CR> opens the one under the cursor in a list pane.

import autoload 'taskls/client.vim'
import autoload 'taskls/config.vim'
import autoload 'taskls/pane.vim'
import autoload 'taskls/render.vim'
import autoload 'taskls/smartlists.vim'

# The overview's buffer (0: none), its entries by line (1-based), the last overview received.
export var state: dict<any> = {buf: 0, entries: {}, data: {}}

# The overview's lines, entries and highlight groups (by line).
export def Lines(data: dict<any>): list<any>
  var lines: list<string> = []
  var entries: dict<any> = {}
  var marks: dict<string> = {}
  var store = get(data, 'store', null)
  if type(store) == v:t_dict && get(store, 'state', '') == 'loading'
    var progress = get(store, 'progress', 0)
    add(lines, 'Loading… ' .. float2nr(round(progress * 100.0)) .. '%')
    marks[len(lines)] = 'TasklsState'
  elseif type(store) == v:t_dict && get(store, 'state', '') == 'error'
    var message = get(store, 'message', 'the store cannot be opened')
    add(lines, 'Error: ' .. render.Displayed(type(message) == v:t_string ? message : string(message))
      .. ' — press ' .. render.KeyName('retry', ':Tasks') .. ' to retry')
    marks[len(lines)] = 'TasklsError'
  endif
  add(lines, 'Smart groups')
  marks[len(lines)] = 'TasklsHeader'
  for group in get(data, 'groups', [])
    add(lines, printf('  %-24s %6d', group.name, group.count))
    entries[len(lines)] = {group: group.id, name: group.name}
  endfor
  add(lines, '')
  # The smart lists, in their order (none while the store loads or has failed).
  if type(store) != v:t_dict
    add(lines, 'Smart lists')
    marks[len(lines)] = 'TasklsHeader'
    var smart_lists = get(data, 'smartLists', [])
    smart_lists = type(smart_lists) == v:t_list ? smart_lists : []
    for smart in smart_lists
      var [name, cells] = render.Truncate(render.Displayed(smart.name), 24)
      var count = get(smart, 'count', 0)
      add(lines, '  ' .. name .. repeat(' ', 24 - cells) .. printf(' %6d', type(count) == v:t_number ? count : 0))
      entries[len(lines)] = {smartList: smart.id, name: smart.name}
    endfor
    if empty(smart_lists)
      add(lines, printf('  None — in a pane, %s filters and %s saves the filter as one', render.KeyName('filter', ':Tasks'),
        render.KeyName('save_filter', ':TasksSaveFilter')))
      marks[len(lines)] = 'TasklsState'
    endif
    add(lines, '')
  endif
  add(lines, 'Lists')
  marks[len(lines)] = 'TasklsHeader'
  var lists = get(data, 'lists', [])
  var syncs: dict<any> = {}
  var sync_states = get(data, 'sync', [])
  for sync_state in type(sync_states) == v:t_list ? sync_states : []
    if type(sync_state) == v:t_dict && type(get(sync_state, 'list', null)) == v:t_string
      syncs[sync_state.list] = sync_state
    endif
  endfor
  for list in lists
    var [name, cells] = render.Truncate(render.Displayed(list.name), 24)
    var sync_state = get(syncs, list.id, {})
    var [words, group] = SyncWords(sync_state)
    add(lines, '  ' .. name .. repeat(' ', 24 - cells) .. printf(' %6s', list.open .. '/' .. list.total)
      .. (words != '' ? '  ' .. words : ''))
    entries[len(lines)] = {list: list.id, name: list.name}
    if group != ''
      marks[len(lines)] = group
    endif
    # Why it is offline, in error or waiting for :TasksSync!, then what the last sync reported.
    var message = get(sync_state, 'message', null)
    if type(message) == v:t_string && message != '' && index(['synced', 'syncing'], get(sync_state, 'state', '')) < 0
      add(lines, '    ' .. render.Displayed(message))
      marks[len(lines)] = group
    endif
    var notices = get(sync_state, 'notices', [])
    for notice in type(notices) == v:t_list ? notices : []
      add(lines, '    ' .. render.Displayed(client.Text(notice)))
      marks[len(lines)] = 'TasklsState'
    endfor
  endfor
  if empty(lists) && type(store) != v:t_dict
    add(lines, '  No lists — press ' .. render.KeyName('add', ':Tasks') .. ' to create one')
    marks[len(lines)] = 'TasklsState'
  endif
  return [lines, entries, marks]
enddef

# A list's sync state (a ListSyncState, {} for a list not shared) in the words of the REPL and the
# Neovim pane, with its highlight group: `synced 2026-11-26 10:04 UTC`, `syncing…`,
# `offline, 3 waiting`, `sync error`, `sync waits for :TasksSync!`; ['', ''] for a list not shared.
export def SyncWords(sync_state: dict<any>): list<string>
  if empty(sync_state)
    return ['', '']
  endif
  var kind = get(sync_state, 'state', '')
  if kind == 'synced'
    var at = get(sync_state, 'syncedAt', null)
    return ['synced' .. (type(at) == v:t_string && at != '' ? ' ' .. substitute(at[: 15], 'T', ' ', '') .. ' UTC' : ''),
      'TasklsState']
  elseif kind == 'syncing'
    var progress = get(sync_state, 'progress', null)
    if type(progress) == v:t_dict && type(get(progress, 'total', null)) == v:t_number
      var sent = get(progress, 'sent', 0)
      return [printf('syncing, %d of %d sent', type(sent) == v:t_number ? sent : 0, progress.total), 'TasklsState']
    endif
    return ['syncing…', 'TasklsState']
  elseif kind == 'offline'
    var waiting = get(sync_state, 'waiting', 0)
    return [printf('offline, %d waiting', type(waiting) == v:t_number ? waiting : 0), 'TasklsWarning']
  elseif kind == 'confirm'
    return ['sync waits for :TasksSync!', 'TasklsWarning']
  endif
  return ['sync error', 'TasklsError']
enddef

# Syncs the lists shared with CalDAV calendars now (`sync/now`; `confirmed` mirrors a side that looks
# suddenly empty), and says how each went; a refusal is said with the server's message.
export def Sync(confirmed = false)
  client.Notify(confirmed ? 'syncing (confirmed)…' : 'syncing…')
  client.Request('sync/now', confirmed ? {confirm: true} : {}, (result) => client.Notify(Told(result, state.data)))
enddef

# How each list of `result` (a `sync/now` answer) went, on one line, named as in `overview`:
# `Groceries: synced 2026-11-26 10:04 UTC (2 sent, 1 received); Work: offline, 3 waiting`.
export def Told(result: any, overview: dict<any>): string
  var names: dict<string> = {}
  for list in get(overview, 'lists', [])
    names[list.id] = list.name
  endfor
  var said: list<string> = []
  var synced_lists = type(result) == v:t_dict ? get(result, 'lists', []) : []
  for synced in type(synced_lists) == v:t_list ? synced_lists : []
    var sync_state = get(synced, 'sync', {})
    var line = get(names, get(sync_state, 'list', ''), client.Text(get(sync_state, 'list', '?'))) .. ': '
      .. SyncWords(sync_state)[0]
    if get(sync_state, 'state', '') == 'synced'
      line ..= printf(' (%d sent, %d received)', get(synced, 'sent', 0), get(synced, 'received', 0))
    endif
    add(said, line)
  endfor
  return empty(said) ? 'no list is shared' : join(said, '; ')
enddef

# Writes only the lines that differ from what the buffer shows.
def Render(data: dict<any>)
  var buf = state.buf
  if buf == 0 || !bufloaded(buf) || client.state.exiting
    return
  endif
  state.data = data
  var [lines, entries, marks] = Lines(data)
  state.entries = entries
  var old = getbufline(buf, 1, '$')
  setbufvar(buf, '&modifiable', 1)
  if len(old) != len(lines)
    setbufline(buf, 1, lines)
    if len(old) > len(lines)
      silent deletebufline(buf, len(lines) + 1, len(old))
    endif
  else
    for i in range(len(lines))
      if old[i] != lines[i]
        setbufline(buf, i + 1, lines[i])
      endif
    endfor
  endif
  setbufvar(buf, '&modifiable', 0)
  setbufvar(buf, '&modified', 0)
  prop_clear(1, len(lines), {bufnr: buf})
  for [line, group] in items(marks)
    var text = lines[str2nr(line) - 1]
    if text != ''
      prop_add(str2nr(line), 1, {bufnr: buf, type: group, length: len(text)})
    endif
  endfor
enddef

# Asks for the overview (and to be told of its changes).
export def Refresh()
  client.Request('lists/list', {watch: true}, (data) => {
    client.RememberLists(data)
    Render(data)
  })
enddef

# The entry under the cursor ({list, name}, {group, name} or {smartList, name}), or {}.
export def Entry(): dict<any>
  return bufnr() == state.buf ? get(state.entries, line('.'), {}) : {}
enddef

# Opens the entry under the cursor in a list pane.
export def OpenEntry(new = false): dict<any>
  var entry = Entry()
  if empty(entry)
    return {}
  endif
  return pane.Open(copy(entry), {new: new})
enddef

# Creates a list named `name` (asked when not given).
export def AddList(name = '')
  var text = name != '' ? name : input('New list: ')
  if text =~ '^\s*$'
    return
  endif
  client.Request('lists/create', {name: text})
enddef

# Renames the list or smart list under the cursor.
export def RenameList(name = '')
  var entry = Entry()
  if has_key(entry, 'smartList')
    smartlists.Rename(entry, name)
    return
  endif
  if !has_key(entry, 'list')
    return
  endif
  var text = name != '' ? name : input('Name: ', entry.name)
  if text =~ '^\s*$' || text == entry.name
    return
  endif
  client.Request('lists/update', {id: entry.list, name: text})
enddef

# Deletes the list (and its tasks) or the smart list (never a task) under the cursor, after
# asking (`confirmed` skips the question).
export def DeleteList(confirmed = false)
  var entry = Entry()
  if has_key(entry, 'smartList')
    smartlists.Delete(entry, confirmed)
    return
  endif
  if !has_key(entry, 'list')
    return
  endif
  if !confirmed && confirm('Delete "' .. render.Displayed(entry.name) .. '" and its tasks?', "&Delete\n&Cancel", 2) != 1
    return
  endif
  client.Request('lists/delete', {id: entry.list})
enddef

# Retries the store, then asks for the overview again.
export def Retry()
  client.Request('store/retry', null, (result) => Refresh())
enddef

# Shows the overview in the current window (one overview buffer per Vim).
export def Open(): number
  var buf = state.buf
  var open = config.Get('open')
  if open != 'edit' && open != ''
    execute open
  endif
  if buf == 0 || !bufexists(buf)
    buf = bufadd('taskls://overview')
    setbufvar(buf, '&buftype', 'nofile')
    bufload(buf)
    state.buf = buf
    for [key, value] in items({buftype: 'nofile', bufhidden: 'hide', swapfile: 0, undolevels: -1, modeline: 0})
      setbufvar(buf, '&' .. key, value)
    endfor
    for type in keys(render.groups)
      prop_type_add(type, {bufnr: buf, highlight: type})
    endfor
    execute 'silent keepalt buffer' buf
    setlocal nowrap nolist nospell nonumber norelativenumber
    setbufvar(buf, '&filetype', 'taskls')
    setbufvar(buf, '&modifiable', 0)
    client.state.overview.overview = (data) => Render(data)
    augroup taskls_overview
      autocmd!
      execute printf('autocmd BufWipeout <buffer=%d> Wiped()', buf)
    augroup END
    if !config.Get('no_maps')
      Map('open', '<Plug>(taskls-open)')
      Map('add', '<Plug>(taskls-list-add)')
      Map('edit', '<Plug>(taskls-list-rename)')
      Map('edit_alt', '<Plug>(taskls-list-rename)')
      Map('delete', '<Plug>(taskls-list-delete)')
      Map('undo', '<Plug>(taskls-undo)')
      Map('redo', '<Plug>(taskls-redo)')
      Map('retry', '<Plug>(taskls-list-retry)')
      Map('refresh', '<Plug>(taskls-list-refresh)')
      Map('sync', '<Plug>(taskls-sync)')
      Map('close', '<Plug>(taskls-close)')
      Map('help', '<Plug>(taskls-help)')
    endif
  else
    execute 'silent keepalt buffer' buf
  endif
  Refresh()
  return buf
enddef

def Map(action: string, plug: string)
  var key = config.Key(action)
  if key != ''
    execute 'nmap <buffer><nowait><silent>' key plug
  endif
enddef

def Wiped()
  if has_key(client.state.overview, 'overview')
    remove(client.state.overview, 'overview')
  endif
  state.buf = 0
enddef

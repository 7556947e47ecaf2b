vim9script
# What the keys of a list pane do: each action reads the rows under the cursor (with a count, or
# a visual range), sends one request, and lets the view's notifications update the buffer. What
# the user types is read by the server (`text/parseItem`, `text/parseFilter`).

import autoload 'taskls/client.vim'
import autoload 'taskls/pane.vim'
import autoload 'taskls/buffer.vim'
import autoload 'taskls/render.vim'
import autoload 'taskls/prompt.vim'
import autoload 'taskls/details.vim'

# The current buffer's pane; says so and gives {} when there is none.
export def Current(): dict<any>
  var p = pane.Get()
  if empty(p)
    client.Notify('not a task pane', 'warn')
  endif
  return p
enddef

# Escapes the words of a stored title that the grammar would read as fields, so a title offered
# as a prompt's default reads back as the same title (`#42` becomes `\#42`).
export def Escape(title: string): string
  return substitute(title, '\S\+', (m) => m[0] =~ '^[#!@^\\/]' || m[0] =~? '^due:' ? '\' .. m[0] : m[0], 'g')
enddef

# The lines an action takes (1-based, inclusive): the last visual selection,
# else the cursor's line and the `count` - 1 after it, never past the end.
export def Range(visual: bool, count = 1): list<number>
  if !visual
    var first = line('.')
    return [first, min([first + max([count, 1]) - 1, line('$')])]
  endif
  # Visual maps leave Visual mode first (<Esc>), so the selection is the marks '< and '>.
  return [line("'<"), line("'>")]
enddef

# The item rows of lines first..last.
export def ItemsIn(p: dict<any>, first: number, last: number): list<dict<any>>
  var rows: list<dict<any>> = []
  for line in range(first, last)
    var row = buffer.RowAt(p, line)
    if get(row, 'kind', '') == 'item'
      add(rows, row)
    endif
  endfor
  return rows
enddef

export def Ids(rows: list<dict<any>>): list<string>
  return mapnew(rows, (_, r) => r.id)
enddef

# The list a new item goes to: the pane's list, else the row's, else the first list ('' if none).
def TargetList(p: dict<any>, row: dict<any>): string
  if has_key(p.source, 'list')
    return p.source.list
  endif
  if type(get(row, 'list', 0)) == v:t_string
    return row.list
  endif
  return empty(client.state.lists) ? '' : client.state.lists[0].id
enddef

# Reads `text` with text/parseItem in `list`: `OnFields(fields)` when the server read all of it,
# else `OnProblem(problem)` (after the callback) with its warnings, or the refusal. As in the REPL,
# a line with a warning is never taken as the server read it, even when it is submitted again
# unchanged: the user edits it, escapes the word with `\`, or cancels.
def ParseItem(text: string, list: string, OnFields: func(dict<any>), OnProblem: func(string))
  var params: dict<any> = {text: text}
  if list != ''
    params.list = list
  endif
  client.Request('text/parseItem', params, (answer) => {
    var problem = prompt.Problem(answer)
    if problem != ''
      prompt.Later(() => OnProblem(problem))
      return
    endif
    OnFields(answer.fields)
  }, (error) => {
    var message = client.Text(get(error, 'message', 'text/parseItem failed'))
    prompt.Later(() => OnProblem(message))
    return false
  })
enddef

# Adding ------------------------------------------------------------------------------------

# Adds a task: `where` is 'end' (a), 'below' (o) or 'above' (O) the cursor's row. `text` is the
# line (asked when empty, the prompt starting with `default`). On a warning or a refusal nothing
# is stored and the prompt opens again with what was typed, saying why in the prompt itself
# (`New task (no list named Nolist; \ keeps a word as text): `), so nothing typed is lost.
export def Add(where: string, text = '', default = '', problem = '')
  var p = Current()
  if empty(p)
    return
  endif
  var line = line('.')
  var typed = text != '' ? text : prompt.Ask(prompt.Text('New task', '', problem), default)
  if typed =~ '^\s*$'
    return
  endif
  var row = buffer.RowAt(p, line)
  var list = TargetList(p, row)
  if list == ''
    client.Notify('there is no list yet: create one in the overview (:Tasks, then a)', 'warn')
    return
  endif
  var buf = p.buf
  var Again = (why: string) => {
    if bufnr() == buf
      Add(where, '', typed, why)
    endif
  }
  ParseItem(typed, list, (fields) => {
    if type(get(fields, 'list', 0)) != v:t_string
      fields.list = list
    endif
    if !has_key(fields, 'title')
      prompt.Later(() => Again('a task needs a title'))
      return
    endif
    var before: any = null
    if where == 'above' && get(row, 'kind', '') == 'item' && row.list == fields.list
      before = row.id
    elseif where == 'below'
      var next = buffer.RowAt(p, line + 1)
      if get(next, 'kind', '') == 'item' && next.list == fields.list
        before = next.id
      endif
    endif
    if type(before) == v:t_string
      fields.before = before
    endif
    var Create = () => {
      client.Request('items/create', fields, (result) => {
        var q = pane.Get(buf)
        if !empty(q)
          buffer.MoveCursorTo(q, result.item.id)
        endif
      }, (error) => {
        var message = client.Text(get(error, 'message', 'items/create failed'))
        prompt.Later(() => Again(message))
        return false
      })
    }
    # In the Today group a task without a due is due today: the server's today.
    if get(p.source, 'group', '') == 'today' && !has_key(fields, 'due')
      client.Request('text/parseItem', {text: '^today'}, (answer) => {
        fields.due = answer.fields.due
        Create()
      })
    else
      Create()
    endif
  }, Again)
enddef

# Toggling and deleting ----------------------------------------------------------------------

# Toggles done on the range's tasks: all done when any is not, else all not done.
export def Toggle(visual: bool, count = 1)
  var p = Current()
  if empty(p)
    return
  endif
  var [first, last] = Range(visual, count)
  var rows = ItemsIn(p, first, last)
  if empty(rows)
    return
  endif
  var done = !empty(filter(copy(rows), (_, r) => !client.IsTrue(r.done)))
  client.Request('items/update', {ids: Ids(rows), done: done})
enddef

# Deletes the range's tasks (`3dd`: three, from the cursor), one undo step.
export def Delete(visual: bool, count = 1)
  var p = Current()
  if empty(p)
    return
  endif
  var [first, last] = Range(visual, count)
  var rows = ItemsIn(p, first, last)
  if empty(rows)
    return
  endif
  client.Request('items/delete', {ids: Ids(rows)})
enddef

# Editing -----------------------------------------------------------------------------------

# Edits the task under the cursor with the quick-entry line: the prompt starts with its title
# (escaped, so it reads back as itself); `Call Ann ^fri !high #work // notes` sets those fields,
# `@List` moves it there. On a warning or a refusal nothing is stored and the prompt opens again
# with the text, saying why.
export def Edit(text = '', default = '', problem = '')
  var p = Current()
  if empty(p)
    return
  endif
  var row = buffer.RowAt(p, line('.'))
  if get(row, 'kind', '') != 'item'
    return
  endif
  var original = Escape(row.title)
  var typed = text != '' ? text : prompt.Ask(prompt.Text('Edit', '', problem), default != '' ? default : original)
  if typed =~ '^\s*$' || typed == original
    return
  endif
  var buf = p.buf
  var Again = (why: string) => {
    if bufnr() == buf
      Edit('', typed, why)
    endif
  }
  var Refused = (error: dict<any>): bool => {
    var message = client.Text(get(error, 'message', 'the edit was refused'))
    prompt.Later(() => Again(message))
    return false
  }
  ParseItem(typed, row.list, (fields) => {
    var update: dict<any> = {id: row.id}
    for name in ['title', 'notes', 'due', 'priority', 'tags']
      if has_key(fields, name)
        update[name] = fields[name]
      endif
    endfor
    var list = get(fields, 'list', row.list)
    var MoveToList = () => {
      if type(list) == v:t_string && list != row.list
        client.Request('items/move', {ids: [row.id], before: null, list: list}, null, Refused)
      endif
    }
    if len(update) == 1
      MoveToList()
      return
    endif
    client.Request('items/update', update, (r) => MoveToList(), Refused)
  }, Again)
enddef

# Moving ------------------------------------------------------------------------------------

# Moves the range's rows (the selection, or the cursor's row) by `delta` rows (`2J`: 2 down),
# in manual order only; a move past either end stops there.
export def Move(delta: number, visual = false)
  var p = Current()
  if empty(p)
    return
  endif
  var sort = type(p.sort) == v:t_dict ? p.sort : {}
  var by = get(sort, 'by', 'manual')
  var descending = get(sort, 'direction', 'ascending') == 'descending'
  var [first, last] = Range(visual)
  if by != 'manual' || descending
    client.Notify(printf('this pane is sorted by %s%s: %s and %s reorder only in manual order (press %s to sort manually)',
      by, descending ? ' (descending)' : '', render.KeyName('move_down', 'J'), render.KeyName('move_up', 'K'),
      render.KeyName('sort', 's')), 'warn')
    return
  endif
  if p.mode != 'rows'
    return
  endif
  var from = first - 1
  var count = last - first + 1
  var to = max([0, min([from + delta, p.count - count])])
  if to == from
    return
  endif
  var buf = p.buf
  client.Request('items/move', {view: p.view, version: p.version, from: from, count: count, to: to}, null, (error) => {
    if get(error, 'code', 0) == -32801
      var q = pane.Get(buf)
      if !empty(q)
        pane.Resync(q)
      endif
      client.Notify('the list changed meanwhile: nothing moved, try again', 'warn')
      return true
    endif
    return false
  })
enddef

# Undo, redo, retry ------------------------------------------------------------------------

# Undoes your latest change, through the server (each Vim has its own history), and says what it
# undid in words: `undid: delete 3 tasks` (the result's `description`).
export def Undo()
  client.Request('undo', null, (result) => client.Notify('undid: ' .. Described(result)))
enddef

# Redoes the latest undone change and says what it redid: `redid: delete 3 tasks`.
export def Redo()
  client.Request('redo', null, (result) => client.Notify('redid: ' .. Described(result)))
enddef

# The words of an undo or redo result (its `description`); 'a change' from a server without them.
def Described(result: any): string
  var words = type(result) == v:t_dict ? get(result, 'description', null) : null
  return type(words) == v:t_string && words != '' ? words : 'a change'
enddef

# Retries the store (a view in error), or restarts a stopped server and reopens the pane.
export def Retry()
  var p = Current()
  if empty(p)
    return
  endif
  if p.stopped || !client.Running()
    pane.OpenView(p)
    return
  endif
  var buf = p.buf
  client.Request('store/retry', null, (result) => {
    var q = pane.Get(buf)
    if !empty(q) && type(result.retried) == v:t_bool && !result.retried
      pane.Resync(q)
    endif
  })
enddef

export def Refresh()
  var p = Current()
  if !empty(p)
    pane.Resync(p)
  endif
enddef

# Closes the details popup when it is open (a key typed right after a popup opened from a
# callback may reach the buffer's maps before the popup's filter), else the pane.
export def Close()
  if details.last_popup != 0 && !empty(popup_getpos(details.last_popup))
    popup_close(details.last_popup)
    redraw
    return
  endif
  var p = pane.Get()
  if !empty(p)
    pane.Close(p)
  elseif &filetype == 'taskls'
    execute 'silent! bwipeout!' bufnr()
  endif
enddef

# Opens the help on the keys.
export def Help()
  help taskls-keys
enddef

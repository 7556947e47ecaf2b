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
import autoload 'taskls/reminders.vim'

# The current buffer's pane; says so and gives {} when there is none.
export def Current(): dict<any>
  var p = pane.Get()
  if empty(p)
    client.Notify('not a task pane', 'warn')
  endif
  return p
enddef

# Escapes the words of a stored title that the grammar would read as fields, so a title offered
# as a prompt's default reads back as the same title (`#42` becomes `\#42`, `every` `\every`, `remind`
# `\remind`, a repeater cookie such as `+1w` `\+1w`).
export def Escape(title: string): string
  return substitute(title, '\S\+', (m) => m[0] =~ '^[#!@^\\/]' || m[0] =~? '^due:' || m[0] =~? '^\%(every\|remind\)$'
    || m[0] =~? '^\%(+\|++\|\.+\)\d\{1,4}[dwmy]$' ? '\' .. m[0] : m[0], 'g')
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

# Reads `text` with text/parseItem in `list`: `OnFields(fields, answer)` when the server read all of it,
# else `OnProblem(problem)` (after the callback) with its warnings, or the refusal. As in the REPL,
# a line with a warning is never taken as the server read it, even when it is submitted again
# unchanged: the user edits it, escapes the word with `\`, or cancels.
def ParseItem(text: string, list: string, OnFields: func(dict<any>, dict<any>), OnProblem: func(string))
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
    OnFields(answer.fields, answer)
  }, (error) => {
    var message = client.Text(get(error, 'message', 'text/parseItem failed'))
    prompt.Later(() => OnProblem(message))
    return false
  })
enddef

# Adding ------------------------------------------------------------------------------------

# The parent of an item row, '' at the top level.
export def ParentOf(row: dict<any>): string
  var parent = get(row, 'parent', null)
  return type(parent) == v:t_string ? parent : ''
enddef

# The depth of an item row (0 at the top level).
export def DepthOf(row: dict<any>): number
  var depth = get(row, 'depth', 0)
  return type(depth) == v:t_number ? depth : 0
enddef

# Where a new item goes, as `items/create` params (`parent`, `before`), for `where`: 'above' (O)
# the row, as its sibling; 'below' (o) the row, so that it is the row right below: the first
# subtask of a row whose subtasks are shown, else the row's next sibling (the last of its
# parent's subtasks when none follows); 'subtask' (go): the first subtask of the row. `row` is
# the row as it is now, at buffer line `line`; for another list than the row's, only a subtask's
# `parent` is set (which the server refuses: a subtask is in its parent's list).
def Placement(p: dict<any>, where: string, row: dict<any>, line: number, list: string): dict<any>
  var place: dict<any> = {}
  if get(row, 'kind', '') != 'item'
    return place
  endif
  if get(row, 'list', '') != list
    if where == 'subtask'
      place.parent = row.id
    endif
    return place
  endif
  var next = buffer.RowAt(p, line + 1)
  if get(next, 'kind', '') != 'item'
    next = {}
  endif
  var first_child = !empty(next) && ParentOf(next) == row.id
  if where == 'above'
    place.before = row.id
  elseif where == 'subtask' || where == 'below' && first_child
    place.parent = row.id
    if first_child
      place.before = next.id
    endif
  elseif where == 'below'
    place.parent = ParentOf(row) == '' ? null : ParentOf(row)
    if !empty(next) && ParentOf(next) == ParentOf(row) && get(next, 'list', '') == list
      place.before = next.id
    endif
  endif
  return place
enddef

# Adds a task: `where` is 'end' (a), 'below' (o) or 'above' (O) the cursor's row, or 'subtask'
# (go: the first subtask of the row, expanded first when it is collapsed, so the new task is
# seen). `text` is the line (asked when empty, the prompt starting with `default`). On a warning
# or a refusal nothing is stored and the prompt opens again with what was typed, saying why in
# the prompt itself (`New task (no list named Nolist; \ keeps a word as text): `), so nothing
# typed is lost.
export def Add(where: string, text = '', default = '', problem = '')
  var p = Current()
  if empty(p)
    return
  endif
  var line = line('.')
  var row = buffer.RowAt(p, line)
  if where == 'subtask' && get(row, 'kind', '') != 'item'
    client.Notify('no task here to add a subtask to', 'warn')
    return
  endif
  var typed = text != '' ? text : prompt.Ask(prompt.Text(where == 'subtask' ? 'New subtask' : 'New task', '', problem), default)
  if typed =~ '^\s*$'
    return
  endif
  var list = where == 'subtask' ? row.list : TargetList(p, row)
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
  ParseItem(typed, list, (fields, _) => {
    if type(get(fields, 'list', 0)) != v:t_string
      fields.list = list
    endif
    if !has_key(fields, 'title')
      prompt.Later(() => Again('a task needs a title'))
      return
    endif
    # In the Today group a task without a due is due today: the server's today.
    if get(p.source, 'group', '') == 'today' && !has_key(fields, 'due')
      client.Request('text/parseItem', {text: '^today'}, (answer) => {
        fields.due = answer.fields.due
        Create(buf, where, row, fields, false, Again)
      })
    else
      Create(buf, where, row, fields, false, Again)
    endif
  }, Again)
enddef

# Sends the `items/create` of Add, placed by the rows as they are now (the prompt and the parse
# took time: rows may have moved); a subtask of a collapsed row expands it first (`expanded`:
# done). The cursor goes to the new task; a refusal reopens the prompt (`Again`).
def Create(buf: number, where: string, row: dict<any>, fields: dict<any>, expanded: bool, Again: func(string))
  var p = pane.Get(buf)
  if empty(p)
    return
  endif
  var line = has_key(row, 'id') ? buffer.LineOf(p, row.id) : 0
  var current = line > 0 ? buffer.RowAt(p, line) : row
  if where == 'subtask' && client.IsTrue(get(current, 'collapsed', false)) && !expanded
    client.Request('view/expand', {view: p.view, ids: [row.id]}, (result) => {
      Create(buf, where, row, fields, true, Again)
    })
    return
  endif
  if where == 'subtask' && line == 0
    fields.parent = row.id
  elseif line > 0
    extend(fields, Placement(p, where, current, line, fields.list))
  endif
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
  # A repeating task moves on to its next due instead of becoming done: said in one line each.
  client.Request('items/update', {ids: Ids(rows), done: done}, (result) => {
    for line in reminders.AdvancedLines(result)
      client.Notify(line)
    endfor
  })
enddef

# Whether the parse `answer` has a due phrase of the typed line (not the due a repeat phrase
# implies when the line has none).
def HasDuePhrase(answer: dict<any>): bool
  var spans = get(answer, 'spans', [])
  return type(spans) == v:t_list && !empty(filter(copy(spans), (_, s) => type(s) == v:t_dict && get(s, 'kind', '') == 'due'))
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
# `every week` its repeat (keeping its due, if it has one), `@List` moves it there. On a warning or a refusal nothing is stored and the prompt opens again
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
  ParseItem(typed, row.list, (fields, answer) => {
    var update: dict<any> = {id: row.id}
    for name in ['title', 'notes', 'due', 'priority', 'tags', 'repeat', 'alerts']
      if has_key(fields, name)
        update[name] = fields[name]
      endif
    endfor
    # `every …` without a due phrase: the parse's due is the rule's first day, which a task that
    # has a due does not take (its repeat starts from its own due).
    if has_key(update, 'repeat') && has_key(update, 'due') && type(get(row, 'due', null)) == v:t_string
        && !HasDuePhrase(answer)
      remove(update, 'due')
    endif
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

# The block a move by index takes (protocol.md "Moving in the tree"): window indexes `first` to
# `last` (0-based), plus the rows right after them deeper than the least depth among them (their
# shown subtrees). [the block's last window index, that least depth], or [] when the block may
# run on past the fetched rows.
def BlockOf(p: dict<any>, first: number, last: number): list<number>
  var least = -1
  for i in range(first, last)
    if i < 0 || i >= len(p.rows)
      return []
    endif
    if get(p.rows[i], 'kind', '') == 'item'
      least = least < 0 ? DepthOf(p.rows[i]) : min([least, DepthOf(p.rows[i])])
    endif
  endfor
  least = max([least, 0])
  var j = last
  while true
    if j + 1 >= len(p.rows)
      if p.window.start + j + 1 < p.count
        return []
      endif
      break
    endif
    var after = p.rows[j + 1]
    if get(after, 'kind', '') != 'item' || DepthOf(after) <= least
      break
    endif
    j += 1
  endwhile
  return [j, least]
enddef

# The depth a block of tops at `depth` keeps when it lands at `to` (0-based, counted in the view
# without the block of `size` rows at `from`): its own depth when the rows around `to` allow it,
# else the nearest they allow (protocol.md "Allowed depths"), so J and K walk a task one row at a
# time through the tree and keep it at its level where they can. -1 when a row around `to` is
# not fetched (the server then takes its default).
def LandingDepth(p: dict<any>, from: number, size: number, to: number, depth: number): number
  var Without = (index: number): dict<any> => {
    var i = (index < from ? index : index + size) - p.window.start
    return i >= 0 && i < len(p.rows) ? p.rows[i] : {}
  }
  var prev: dict<any> = {}
  var next: dict<any> = {}
  if to > 0
    prev = Without(to - 1)
    if empty(prev)
      return -1
    endif
  endif
  if to < p.count - size
    next = Without(to)
    if empty(next)
      return -1
    endif
  endif
  var low = get(next, 'kind', '') == 'item' ? DepthOf(next) : 0
  var high = 0
  if get(prev, 'kind', '') == 'item'
    high = DepthOf(prev) + (client.IsTrue(get(prev, 'collapsed', false)) ? 0 : 1)
  endif
  return max([low, min([depth, high])])
enddef

# Moves the range's rows (the selection, or the cursor's row) by `delta` rows (`2J`: 2 down),
# in manual order only, each with its subtree (the server takes the rows of the subtrees shown
# below them along); a move past either end stops there. The tasks keep their depth where the
# rows they land between allow it (LandingDepth); the cursor stays on its task.
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
  var params: dict<any> = {view: p.view, version: p.version, from: from, count: count}
  var block = BlockOf(p, from - p.window.start, last - 1 - p.window.start)
  var size = empty(block) ? count : block[0] - (from - p.window.start) + 1
  var to = max([0, min([from + delta, p.count - size])])
  if to == from
    return
  endif
  params.to = to
  if !empty(block)
    var depth = LandingDepth(p, from, size, to, block[1])
    if depth >= 0
      params.depth = depth
    endif
  endif
  var buf = p.buf
  client.Request('items/move', params, null, (error) => {
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

# The tree: folding, indenting -------------------------------------------------------------

# Collapses, expands or toggles (`how`: 'close', 'open', 'toggle') the rows of the range (the
# selection, or `count` rows from the cursor), as zc, zo and za do folds: on rows with subtasks
# shown or hidden below them (`hasChildren`); za collapses them all when any is expanded, else
# expands them. zc and za on rows without any (a leaf), and zc on collapsed rows, act on the fold
# they are in: they collapse the rows' parents, and the cursor goes to the parent's row, as it
# goes to a closed fold in Vim. The server hides the rows (`view/collapse`, `view/expand`), not
# Vim; the cursor keeps its task (pane.FollowCursor).
export def Fold(how: string, visual: bool, count = 1)
  var p = Current()
  if empty(p) || p.view == '' || p.mode != 'rows'
    return
  endif
  var [first, last] = Range(visual, count)
  var rows = ItemsIn(p, first, last)
  var open: list<string> = []
  var closed: list<string> = []
  for row in rows
    if client.IsTrue(get(row, 'hasChildren', false))
      add(client.IsTrue(get(row, 'collapsed', false)) ? closed : open, row.id)
    endif
  endfor
  var method = 'view/collapse'
  var targets: list<string> = []
  if how == 'open'
    method = 'view/expand'
    targets = closed
  elseif !empty(open)
    targets = open
  elseif how == 'toggle' && !empty(closed)
    method = 'view/expand'
    targets = closed
  else
    # Leaves, or zc on collapsed rows: the fold they are in is their parent's.
    for row in rows
      var parent = ParentOf(row)
      if parent != '' && index(targets, parent) < 0
        add(targets, parent)
      endif
    endfor
  endif
  if empty(targets)
    return
  endif
  SendFold(p, method, {view: p.view, ids: targets})
enddef

# Collapses (zM) or expands (zR) every row of the pane's view; the cursor keeps its task.
export def FoldAll(collapse: bool)
  var p = Current()
  if empty(p) || p.view == '' || p.mode != 'rows'
    return
  endif
  SendFold(p, collapse ? 'view/collapse' : 'view/expand', {view: p.view, all: true})
enddef

def SendFold(p: dict<any>, method: string, params: dict<any>)
  var saved = buffer.SaveCursors(p)
  var buf = p.buf
  client.Request(method, params, (result) => {
    var q = pane.Get(buf)
    if !empty(q)
      pane.FollowCursor(q, saved)
    endif
  })
enddef

# A refusal of `items/indent` or `items/outdent` in words, naming the task.
def IndentRefusal(error: dict<any>, rows: list<dict<any>>, outdent: bool): string
  var title = '"' .. client.Text(get(rows[0], 'title', '')) .. '"'
  var verb = outdent ? 'outdent' : 'indent'
  if error.reason == 'noPreviousSibling'
    return printf('cannot indent %s: no task above it at its level to become a subtask of', title)
  elseif error.reason == 'topLevel'
    return printf('cannot outdent %s: it is already at the top level', title)
  elseif error.reason == 'notSiblings'
    return printf('cannot %s these tasks together: they are not subtasks of the same task', verb)
  elseif error.reason == 'tooDeep'
    return printf('cannot indent %s: subtasks go at most 15 levels deep', title)
  endif
  return printf('cannot %s: %s', verb, client.Text(get(error, 'message', 'refused')))
enddef

# Indents (>>: subtasks of the task above at their level) or outdents (<<: siblings of their
# parent, right after it) the tasks of the range (the selection, or `count` rows from the
# cursor), each with its subtree; a refusal is one warning in words. The cursor stays on its
# task.
export def Indent(outdent: bool, visual: bool, count = 1)
  var p = Current()
  if empty(p)
    return
  endif
  var [first, last] = Range(visual, count)
  var rows = ItemsIn(p, first, last)
  if empty(rows)
    return
  endif
  client.Request(outdent ? 'items/outdent' : 'items/indent', {ids: Ids(rows)}, null, (error) => {
    if get(error, 'code', 0) != -32803
      return false
    endif
    client.Notify(IndentRefusal(error, rows, outdent), 'warn')
    return true
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

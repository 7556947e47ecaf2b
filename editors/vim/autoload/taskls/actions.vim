vim9script
# What the keys of a list pane do: each action reads the rows under the cursor (with a count, or
# a visual range), sends one request, and lets the view's notifications update the buffer. What
# the user types is read by the server (`text/parseItem`, `text/parseFilter`).

import autoload 'taskls/client.vim'
import autoload 'taskls/config.vim'
import autoload 'taskls/pane.vim'
import autoload 'taskls/buffer.vim'
import autoload 'taskls/render.vim'
import autoload 'taskls/form.vim'

# The prompts opened, newest last ({prompt, default}): what a user was asked, for tests.
export var prompts: list<dict<any>> = []

# The popup of the last Details (0: none).
export var last_popup = 0

# What Ask gives for <Esc> when the caller must tell it from an empty answer.
const cancelled = "\x01cancelled"

# Asks on the command line, keeping what was asked in `prompts`. <Esc> gives `cancel`.
export def Ask(prompt: string, default = '', cancel = ''): string
  add(prompts, {prompt: prompt, default: default})
  if len(prompts) > 50
    remove(prompts, 0, 24)
  endif
  var answer = inputdialog(prompt, default, cancel)
  prompts[-1].answer = answer
  redraw
  return answer
enddef

# Runs `Fn` once Vim is back at the top level (after the current callback).
def Later(Fn: func())
  timer_start(0, (_) => client.Guard(Fn, []))
enddef

# The current buffer's pane; says so and gives {} when there is none.
def Current(): dict<any>
  var p = pane.Get()
  if empty(p)
    client.Notify('not a task pane', 'warn')
  endif
  return p
enddef

# The warnings of a parse answer, said one line each; true when there were any.
def Warn(answer: dict<any>): bool
  var warnings = get(answer, 'warnings', [])
  if type(warnings) != v:t_list || empty(warnings)
    return false
  endif
  for w in warnings
    client.Notify(client.Text(get(w, 'message', get(w, 'reason', 'warning'))), 'warn')
  endfor
  return true
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
def ItemsIn(p: dict<any>, first: number, last: number): list<dict<any>>
  var rows: list<dict<any>> = []
  for line in range(first, last)
    var row = buffer.RowAt(p, line)
    if get(row, 'kind', '') == 'item'
      add(rows, row)
    endif
  endfor
  return rows
enddef

def Ids(rows: list<dict<any>>): list<string>
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

# Reads `text` with text/parseItem in `list`: `OnFields(fields)` when it gave no warning, or when
# it is `accepted` (the same text submitted again after its warnings were shown); else the
# warnings are said and `OnWarned()` runs (it asks again with the text).
def ParseItem(text: string, list: string, accepted: string, OnFields: func(dict<any>), OnWarned: func())
  var params: dict<any> = {text: text}
  if list != ''
    params.list = list
  endif
  client.Request('text/parseItem', params, (answer) => {
    if Warn(answer) && text != accepted
      Later(OnWarned)
      return
    endif
    OnFields(answer.fields)
  }, (error) => {
    Later(OnWarned)
    return false
  })
enddef

# Adding ------------------------------------------------------------------------------------

# Adds a task: `where` is 'end' (a), 'below' (o) or 'above' (O) the cursor's row. `text` is the
# line (asked when empty); on a warning or a refusal the prompt opens again with what was typed,
# so nothing typed is lost.
export def Add(where: string, text = '', accepted = '')
  var p = Current()
  if empty(p)
    return
  endif
  var line = line('.')
  var typed = text != '' ? text : Ask('New task: ', accepted)
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
  var Again = () => {
    if bufnr() == buf
      Add(where, '', typed)
    endif
  }
  ParseItem(typed, list, accepted, (fields) => {
    if type(get(fields, 'list', 0)) != v:t_string
      fields.list = list
    endif
    if !has_key(fields, 'title')
      client.Notify('a task needs a title: ' .. typed, 'warn')
      Later(Again)
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
        Later(Again)
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
# `@List` moves it there. On a warning or a refusal the prompt opens again with the text.
export def Edit(text = '', accepted = '')
  var p = Current()
  if empty(p)
    return
  endif
  var row = buffer.RowAt(p, line('.'))
  if get(row, 'kind', '') != 'item'
    return
  endif
  var original = Escape(row.title)
  var typed = text != '' ? text : Ask('Edit: ', accepted != '' ? accepted : original)
  if typed =~ '^\s*$' || typed == original
    return
  endif
  var buf = p.buf
  var Again = () => {
    if bufnr() == buf
      Edit('', typed)
    endif
  }
  ParseItem(typed, row.list, accepted, (fields) => {
    var update: dict<any> = {id: row.id}
    for name in ['title', 'notes', 'due', 'priority', 'tags']
      if has_key(fields, name)
        update[name] = fields[name]
      endif
    endfor
    var list = get(fields, 'list', row.list)
    var MoveToList = () => {
      if type(list) == v:t_string && list != row.list
        client.Request('items/move', {ids: [row.id], before: null, list: list}, null, (e) => {
          Later(Again)
          return false
        })
      endif
    }
    if len(update) == 1
      MoveToList()
      return
    endif
    client.Request('items/update', update, (r) => MoveToList(), (e) => {
      Later(Again)
      return false
    })
  }, Again)
enddef

# Sets `fields` on every row: one items/update, one undo step.
def UpdateRows(rows: list<dict<any>>, fields: dict<any>)
  var params = copy(fields)
  if len(rows) == 1
    params.id = rows[0].id
  else
    params.ids = Ids(rows)
  endif
  client.Request('items/update', params)
enddef

def Targets(visual: bool, count: number): list<dict<any>>
  var p = Current()
  if empty(p)
    return []
  endif
  var [first, last] = Range(visual, count)
  var rows = ItemsIn(p, first, last)
  if empty(rows)
    client.Notify('no task here', 'warn')
  endif
  return rows
enddef

# Reads a due phrase with the server's grammar (`^PHRASE` through text/parseItem, so `fri`,
# `tomorrow 9:30`, `+3` and `none` mean what they mean everywhere): `OnDue(due)` gets the due
# (null for `none`), or `OnError(message)` what is wrong.
export def ReadDue(phrase: string, OnDue: func(any), OnError: func(string))
  client.Request('text/parseItem', {text: '^' .. phrase}, (answer) => {
    var warnings = get(answer, 'warnings', [])
    if !empty(warnings)
      OnError(client.Text(get(warnings[0], 'message', warnings[0].reason)))
    elseif !has_key(answer.fields, 'due')
      OnError(phrase .. ' is not a date')
    elseif has_key(answer.fields, 'title')
      OnError('not a date: ' .. answer.fields.title)
    else
      OnDue(answer.fields.due)
    endif
  }, (error) => {
    OnError(client.Text(get(error, 'message', 'text/parseItem failed')))
    return true
  })
enddef

# Sets the due of the range's tasks (`fri`, `tomorrow 9:30`, `+3`; `none` clears it). An
# unreadable phrase is said and the prompt opens again with it.
export def SetDue(visual: bool, count = 1, text = '')
  var rows = Targets(visual, count)
  if empty(rows)
    return
  endif
  DueFor(rows, text)
enddef

def DueFor(rows: list<dict<any>>, text: string, again = '')
  var default = len(rows) == 1 && type(get(rows[0], 'due', null)) == v:t_string ? rows[0].due : ''
  var typed = text != '' ? text : Ask('Due (fri, tomorrow 9:30, +3, none): ', again != '' ? again : default)
  if typed =~ '^\s*$'
    return
  endif
  ReadDue(trim(typed), (due) => UpdateRows(rows, {due: due}), (message) => {
    client.Notify(message, 'warn')
    Later(() => DueFor(rows, '', typed))
  })
enddef

export const priorities = ['none', 'low', 'medium', 'high']
const priority_words = {none: 'none', n: 'none', '-': 'none', '': 'none', low: 'low', l: 'low', '!': 'low',
  medium: 'medium', med: 'medium', m: 'medium', '!!': 'medium', high: 'high', h: 'high', '!!!': 'high'}

# The priority a word names (`high`, `h`, `!!!`, `!high`, ...), or ''.
export def PriorityOf(word: string): string
  var key = tolower(trim(word))
  key = key =~ '^!\a' ? key[1 :] : key
  return get(priority_words, key, '')
enddef

# Sets the priority of the range's tasks, chosen from a menu (or `choice`: a priority word).
export def SetPriority(visual: bool, count = 1, choice = '')
  var rows = Targets(visual, count)
  if empty(rows)
    return
  endif
  if choice != ''
    var priority = PriorityOf(choice)
    if priority == ''
      client.Notify(choice .. ' is not a priority (none, low, medium, high)', 'warn')
      return
    endif
    UpdateRows(rows, {priority: priority})
    return
  endif
  Menu('Priority', ['None', 'Low (!)', 'Medium (!!)', 'High (!!!)'], (index) => UpdateRows(rows, {priority: priorities[index]}))
enddef

# The tags of `text`: words with or without their `#`; `-` or `none` alone: no tags.
export def ReadTags(text: string): list<string>
  var words = trim(text)
  if words == '-' || words ==? 'none'
    return []
  endif
  return filter(mapnew(split(words), (_, w) => substitute(w, '^#', '', '')), (_, w) => w != '')
enddef

# Sets the tags of the range's tasks (`#home #work`; `-` removes them all).
export def SetTags(visual: bool, count = 1, text = '')
  var rows = Targets(visual, count)
  if empty(rows)
    return
  endif
  var typed = text != '' ? text : Ask('Tags (#home #work; - for none): ', render.TagsText(get(rows[0], 'tags', [])))
  if typed =~ '^\s*$'
    return
  endif
  UpdateRows(rows, {tags: ReadTags(typed)})
enddef

# Opens the form of the task under the cursor: every field, `:w` saves.
export def Form()
  var p = Current()
  if empty(p)
    return
  endif
  var row = buffer.RowAt(p, line('.'))
  if get(row, 'kind', '') == 'item'
    form.Open(row.id)
  endif
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

# Sort, filter, sections -------------------------------------------------------------------

export const sorts = [
  {by: 'manual', direction: 'ascending', label: 'Manual order'},
  {by: 'title', direction: 'ascending', label: 'Title'},
  {by: 'due', direction: 'ascending', label: 'Due date'},
  {by: 'priority', direction: 'descending', label: 'Priority (high first)'},
  {by: 'created', direction: 'descending', label: 'Newest first'},
  {by: 'modified', direction: 'descending', label: 'Recently modified'},
]

# A menu in a popup (j/k, <CR>, <Esc>; or the item's number): `OnChoice(index)` (0-based).
export def Menu(title: string, labels: list<string>, OnChoice: func(number))
  var numbered = mapnew(labels, (i, l) => (i + 1) .. '. ' .. l)
  var count = len(labels)
  var options: dict<any> = {title: ' ' .. title .. ' '}
  options.filter = (id, key) => MenuKey(id, key, count)
  options.callback = (id, result) => MenuChosen(result, OnChoice)
  popup_menu(numbered, options)
  redraw
enddef

def MenuKey(id: number, key: string, count: number): bool
  var n = str2nr(key)
  if key =~ '^\d$' && n >= 1 && n <= count
    popup_close(id, n)
    return true
  endif
  return popup_filter_menu(id, key)
enddef

def MenuChosen(result: number, OnChoice: func(number))
  if result >= 1
    client.Guard(OnChoice, [result - 1])
  endif
enddef

# Sorts the pane (`sort`: {by, direction}).
export def SetSort(p: dict<any>, sort: dict<any>)
  var buf = p.buf
  var wanted = {by: sort.by, direction: get(sort, 'direction', 'ascending')}
  client.Request('view/sort', {view: p.view, sort: wanted}, (result) => {
    var q = pane.Get(buf)
    if !empty(q)
      q.sort = wanted
      pane.UpdateName(q)
    endif
  })
enddef

export def Sort()
  var p = Current()
  if !empty(p)
    Menu('Sort by', mapnew(sorts, (_, s) => s.label), (i) => SetSort(p, sorts[i]))
  endif
enddef

# Filters the pane by what `text` says (text/parseFilter: `#home !high+ due<fri open milk`);
# blank text clears the filter. Warnings are said and the rest of the filter applies.
export def SetFilter(p: dict<any>, text: string)
  var buf = p.buf
  var Apply = (filter: dict<any>, typed: string) => {
    client.Request('view/filter', {view: p.view, filter: filter}, (result) => {
      var q = pane.Get(buf)
      if !empty(q)
        q.filter = filter
        q.filter_text = typed
        pane.UpdateName(q)
      endif
    })
  }
  if text =~ '^\s*$'
    Apply({}, '')
    return
  endif
  client.Request('text/parseFilter', {text: text}, (answer) => {
    Warn(answer)
    var filter = get(answer, 'filter', {})
    Apply(type(filter) == v:t_dict ? filter : {}, text)
  })
enddef

# The filter prompt; an empty answer clears the filter, <Esc> leaves it as it is.
export def Filter()
  var p = Current()
  if empty(p)
    return
  endif
  var current = p.filter_text
  if current == '' && type(p.filter) == v:t_dict && type(get(p.filter, 'text', 0)) == v:t_string
    current = p.filter.text
  endif
  # <Esc> cancels (the filter stays); an empty answer clears it.
  var text = Ask('Filter (empty: all): ', current, cancelled)
  if text == cancelled
    return
  endif
  SetFilter(p, text)
enddef

export const groupings = [
  {id: 'none', label: 'No sections'},
  {id: 'dueBucket', label: 'Due date (Overdue, Today, Tomorrow, ...)'},
  {id: 'priority', label: 'Priority'},
  {id: 'list', label: 'List'},
  {id: 'done', label: 'Done'},
]

export def SetSections(p: dict<any>, sections: string)
  var buf = p.buf
  client.Request('view/sections', {view: p.view, sections: sections}, (result) => {
    var q = pane.Get(buf)
    if !empty(q)
      q.sections = sections
      pane.UpdateName(q)
    endif
  })
enddef

export def Group()
  var p = Current()
  if !empty(p)
    Menu('Sections', mapnew(groupings, (_, g) => g.label), (i) => SetSections(p, groupings[i].id))
  endif
enddef

# Undo, redo, retry ------------------------------------------------------------------------

# Undoes your latest change, through the server (each Vim has its own history).
export def Undo()
  client.Request('undo', null, (result) => client.Notify('undid ' .. result.undone))
enddef

export def Redo()
  client.Request('redo', null, (result) => client.Notify('redid ' .. result.redone))
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
  if last_popup != 0 && !empty(popup_getpos(last_popup))
    popup_close(last_popup)
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

# Details ----------------------------------------------------------------------------------

# The lines of an item in full: its title, its fields, then its notes; stored text escaped.
export def ItemLines(item: dict<any>): list<string>
  var lines = [render.Displayed(item.title), '']
  var Field = (name: string, value: any) => {
    if type(value) == v:t_string && value != ''
      add(lines, printf('%-10s %s', name, value))
    endif
  }
  Field('List', render.Displayed(get(client.state.list_names, item.list, item.list)))
  Field('Done', client.IsTrue(item.done) ? (type(item.completed) == v:t_string ? item.completed : 'yes') : '')
  if type(item.due) == v:t_string
    Field('Due', render.Due(item.due, client.IsTrue(item.done))[0] .. ' (' .. item.due .. ')')
  endif
  Field('Priority', item.priority != 'none' ? item.priority : '')
  Field('Tags', render.Displayed(render.TagsText(item.tags)))
  Field('Created', item.created)
  Field('Modified', item.modified)
  if type(item.notes) == v:t_string && item.notes != ''
    add(lines, '')
    lines += mapnew(split(item.notes, "\n", true), (_, l) => render.Displayed(l))
  endif
  return lines
enddef

# Shows the task under the cursor in full in a popup at the cursor (q or <Esc> closes it).
export def Details()
  var p = Current()
  if empty(p)
    return
  endif
  var row = buffer.RowAt(p, line('.'))
  if get(row, 'kind', '') != 'item'
    return
  endif
  client.Request('items/get', {id: row.id}, (item) => ShowItem(item))
enddef

# Shows `item` in a popup at the cursor; q or <Esc> closes it.
export def ShowItem(item: dict<any>)
  var options: dict<any> = {border: [], padding: [0, 1, 0, 1], moved: 'any', mapping: false,
    maxwidth: max([20, &columns - 4])}
  options.filter = (id, key) => PopupKey(id, key)
  last_popup = popup_atcursor(ItemLines(item), options)
enddef

def PopupKey(id: number, key: string): bool
  if key == 'q' || key == "\<Esc>"
    popup_close(id)
    return true
  endif
  return false
enddef

# Opens the help on the keys.
export def Help()
  help taskls-keys
enddef

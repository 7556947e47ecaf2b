vim9script
# Setting one field of the tasks under the cursor ([count] or a visual range): the due (read with
# the server's grammar), the priority (a menu), the tags; and the form with every field.

import autoload 'taskls/client.vim'
import autoload 'taskls/render.vim'
import autoload 'taskls/buffer.vim'
import autoload 'taskls/actions.vim'
import autoload 'taskls/prompt.vim'
import autoload 'taskls/form.vim'

# Sets `fields` on every row: one items/update, one undo step.
export def UpdateRows(rows: list<dict<any>>, fields: dict<any>)
  var params = copy(fields)
  if len(rows) == 1
    params.id = rows[0].id
  else
    params.ids = actions.Ids(rows)
  endif
  client.Request('items/update', params)
enddef

export def Targets(visual: bool, count: number): list<dict<any>>
  var p = actions.Current()
  if empty(p)
    return []
  endif
  var [first, last] = actions.Range(visual, count)
  var rows = actions.ItemsIn(p, first, last)
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

# Sets the due of the range's tasks (`fri`, `tomorrow 9:30`, `+3`; `none` clears it). The prompt
# starts with the due of a single task in words the grammar reads back (`2026-11-27 17:30`, the
# client's wall clock). An unreadable phrase is said in the prompt, which opens again with it.
export def SetDue(visual: bool, count = 1, text = '')
  var rows = Targets(visual, count)
  if empty(rows)
    return
  endif
  DueFor(rows, text)
enddef

export def DueFor(rows: list<dict<any>>, text: string, again = '', problem = '')
  var default = len(rows) == 1 ? render.DuePhrase(get(rows[0], 'due', null), get(rows[0], 'dueLocal', null)) : ''
  var typed = text != '' ? text : prompt.Ask(prompt.Text('Due', 'fri, tomorrow 9:30, +3, none', problem), again != '' ? again : default)
  if typed =~ '^\s*$'
    return
  endif
  ReadDue(trim(typed), (due) => UpdateRows(rows, {due: due}), (message) => {
    prompt.Later(() => DueFor(rows, '', typed, message))
  })
enddef

export const priorities = ['none', 'low', 'medium', 'high']

export const priority_words = {none: 'none', n: 'none', '-': 'none', '': 'none', low: 'low', l: 'low', '!': 'low',
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
  prompt.Menu('Priority', ['None', 'Low (!)', 'Medium (!!)', 'High (!!!)'], (index) => UpdateRows(rows, {priority: priorities[index]}))
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
  var typed = text != '' ? text : prompt.Ask('Tags (#home #work; - for none): ', render.TagsText(get(rows[0], 'tags', [])))
  if typed =~ '^\s*$'
    return
  endif
  UpdateRows(rows, {tags: ReadTags(typed)})
enddef

# Opens the form of the task under the cursor: every field, `:w` saves.
export def Form()
  var p = actions.Current()
  if empty(p)
    return
  endif
  var row = buffer.RowAt(p, line('.'))
  if get(row, 'kind', '') == 'item'
    form.Open(row.id)
  endif
enddef

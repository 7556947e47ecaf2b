vim9script
# A task in full, in a popup at the cursor: its fields, then its notes, every stored text escaped.

import autoload 'taskls/client.vim'
import autoload 'taskls/render.vim'
import autoload 'taskls/buffer.vim'
import autoload 'taskls/actions.vim'
import autoload 'taskls/reminders.vim'
import autoload 'taskls/repeating.vim'

# The popup of the last Details (0: none).
export var last_popup = 0

# The lines of an item in full: its title, its fields (its repeat and history, its alerts), then
# its notes; stored text escaped.
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
    # The due in the pane's words, then as the grammar reads it back (the client's wall clock).
    var due_local = get(item, 'dueLocal', null)
    Field('Due', render.Due(item.due, client.IsTrue(item.done), due_local)[0] .. ' (' .. render.DuePhrase(item.due, due_local) .. ')')
  endif
  # The repeat in the server's words, as they are, and its history.
  Field('Repeats', render.Displayed(reminders.RepeatText(item)))
  Field('History', render.Displayed(repeating.History(item)))
  Field('Alerts', render.Displayed(reminders.AlertsWords(item)))
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
  var p = actions.Current()
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

export def PopupKey(id: number, key: string): bool
  if key == 'q' || key == "\<Esc>"
    popup_close(id)
    return true
  endif
  return false
enddef

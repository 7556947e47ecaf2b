vim9script
# Smart lists: filters saved with a name, over every list or some (`smartLists/*`). The overview
# shows them with live counts and opens, renames and deletes them; a pane saves its own filter as
# one (`gF`, :TasksSaveFilter).

import autoload 'taskls/client.vim'
import autoload 'taskls/render.vim'
import autoload 'taskls/prompt.vim'
import autoload 'taskls/pane.vim'

def Quoted(name: any): string
  return '"' .. client.Text(name) .. '"'
enddef

# The smart lists of the last overview named `name` (ignoring case), or with that id.
export def Named(name: string): list<dict<any>>
  return filter(copy(client.state.smart_lists), (_, s) => s.id == name || tolower(client.Text(s.name)) == tolower(name))
enddef

# What `smartLists/create` takes to save the filter of pane `p`: its view's filter with `done:
# "notDone"` added unless the filter says (the Completed group's: `"done"`), and `lists`: the pane's
# list for a list's pane, null (every list) for the All and Completed groups. {problem} when it
# cannot be saved: Today, Scheduled and Overdue change with the day (a smart list's dates are
# fixed), and a smart list's pane is a smart list already.
export def ParamsFor(p: dict<any>): dict<any>
  var filter = type(p.filter) == v:t_dict ? copy(p.filter) : {}
  var lists: any = null
  if has_key(p.source, 'list')
    lists = [p.source.list]
  elseif has_key(p.source, 'smartList')
    return {problem: 'this is a smart list already; to change what it holds, delete it and save another from a list or All'}
  elseif get(p.source, 'group', '') == 'completed'
    filter.done = 'done'
  elseif get(p.source, 'group', '') != 'all'
    return {problem: printf('%s changes with the day, and a smart list''s dates are fixed; open All or a list, filter it, then save',
      get(p, 'name', get(p.source, 'group', '')))}
  endif
  if get(filter, 'done', 'any') == 'any'
    filter.done = 'notDone'
  endif
  return {filter: filter, lists: lists}
enddef

# Saves the filter of pane `p` as a smart list named `name` (asked for when ''; a name a smart list
# has already asks again, saying so); one line says what was saved.
export def Save(p: dict<any>, name = '', problem = '')
  var params = ParamsFor(p)
  if has_key(params, 'problem')
    client.Notify(params.problem, 'warn')
    return
  endif
  var typed = name != '' ? name : prompt.Ask(prompt.Text('Save the filter as the smart list', '', problem), '')
  if typed =~ '^\s*$'
    return
  endif
  if !empty(Named(typed))
    var why = printf('there is already a smart list named %s; pick another name', typed)
    if name != ''
      client.Notify(why, 'warn')
    else
      prompt.Later(() => Save(p, '', why))
    endif
    return
  endif
  params.name = typed
  client.Request('smartLists/create', params, (result) => {
    var smart = result.smartList
    var count = get(smart, 'count', 0)
    client.Notify(printf('saved the smart list %s (%d %s): open it from the overview (%s)', Quoted(smart.name),
      count, count == 1 ? 'task' : 'tasks', render.KeyName('overview', ':Tasks')))
  })
enddef

# gF, :TasksSaveFilter [name]: saves the filter of the current pane as a smart list.
export def SaveCurrent(name = '')
  var p = pane.Get()
  if empty(p)
    client.Notify(':TasksSaveFilter saves the filter of a list pane: run it in one', 'warn')
    return
  endif
  Save(p, name)
enddef

# Renames the smart list of overview entry `entry` to `name` (asked for when '').
export def Rename(entry: dict<any>, name = '')
  var text = name != '' ? name : prompt.Ask('Name: ', entry.name)
  if text =~ '^\s*$' || text == entry.name
    return
  endif
  client.Request('smartLists/update', {id: entry.smartList, name: text})
enddef

# Deletes the smart list of overview entry `entry` after asking (`confirmed` skips the question);
# its tasks stay where they are, and a pane on it closes.
export def Delete(entry: dict<any>, confirmed = false)
  if !confirmed && confirm('Delete the smart list "' .. render.Displayed(entry.name) .. '"? Its tasks stay.', "&Delete\n&Cancel", 2) != 1
    return
  endif
  client.Request('smartLists/delete', {id: entry.smartList})
enddef

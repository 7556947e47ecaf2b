vim9script
# The :Tasks commands: the overview, a pane by name, stopping and restarting the server.

import autoload 'taskls/client.vim'
import autoload 'taskls/overview.vim'
import autoload 'taskls/pane.vim'
import autoload 'taskls/render.vim'

# The smart groups by id, with their names.
export const groups = {today: 'Today', scheduled: 'Scheduled', overdue: 'Overdue', all: 'All', completed: 'Completed'}

# `:Tasks[!] [name]`: the overview, or a pane on the list, smart group or smart list called
# `name` (a second pane with `!`).
export def Command(name: string, bang: bool)
  render.DefineHighlights()
  if name == ''
    overview.Open()
  else
    OpenNamed(name, bang)
  endif
enddef

# Opens a pane on the smart group, smart list or list called `name` (or with that id).
export def OpenNamed(name: string, new = false)
  for [id, title] in items(groups)
    if name ==? id || name == title
      pane.Open({group: id, name: title}, {new: new})
      return
    endif
  endfor
  for smart in client.state.smart_lists
    if smart.name == name || smart.id == name
      pane.Open({smartList: smart.id, name: smart.name}, {new: new})
      return
    endif
  endfor
  for list in client.state.lists
    if list.name == name || list.id == name
      pane.Open({list: list.id, name: list.name}, {new: new})
      return
    endif
  endfor
  client.Request('lists/list', {}, (data) => {
    client.RememberLists(data)
    for smart in get(data, 'smartLists', [])
      if smart.name == name || smart.id == name
        pane.Open({smartList: smart.id, name: smart.name}, {new: new})
        return
      endif
    endfor
    for list in data.lists
      if list.name == name || list.id == name
        pane.Open({list: list.id, name: list.name}, {new: new})
        return
      endif
    endfor
    client.Notify('no list named "' .. name .. '"', 'warn')
  })
enddef

# Names for :Tasks completion: the smart groups, and the smart lists and lists seen so far.
export def Complete(lead: string, line: string, position: number): list<string>
  var names = keys(groups) + mapnew(copy(client.state.smart_lists), (_, s) => s.name)
    + mapnew(copy(client.state.lists), (_, l) => l.name)
  return sort(filter(names, (_, n) => stridx(n, lead) == 0))
enddef

# Stops the server; panes say so (r starts it again).
export def Stop()
  client.Stop()
enddef

# Stops the server and reopens every pane and the overview on a new one.
export def Restart()
  client.Stop(true)
  for p in values(pane.panes)
    p.stopped = true
  endfor
  pane.ReopenAll()
  if overview.state.buf != 0
    overview.Refresh()
  endif
enddef

vim9script
# Changing what a pane's view shows: its sort and sections (menus) and its filter (read with the
# server's grammar, text/parseFilter).

import autoload 'taskls/client.vim'
import autoload 'taskls/pane.vim'
import autoload 'taskls/actions.vim'
import autoload 'taskls/prompt.vim'

export const sorts = [
  {by: 'manual', direction: 'ascending', label: 'Manual order'},
  {by: 'title', direction: 'ascending', label: 'Title'},
  {by: 'due', direction: 'ascending', label: 'Due date'},
  {by: 'priority', direction: 'descending', label: 'Priority (high first)'},
  {by: 'created', direction: 'descending', label: 'Newest first'},
  {by: 'modified', direction: 'descending', label: 'Recently modified'},
]

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
  var p = actions.Current()
  if !empty(p)
    prompt.Menu('Sort by', mapnew(sorts, (_, s) => s.label), (i) => SetSort(p, sorts[i]))
  endif
enddef

# Filters the pane by what `text` says (text/parseFilter: `#home !high+ due<fri open milk`);
# blank text clears the filter. A text with a warning changes nothing: `OnProblem(problem)` gets
# its warnings after the callback (as in the REPL); without it they are only said.
export def SetFilter(p: dict<any>, text: string, OnProblem: any = null)
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
  var Refuse = (problem: string) => {
    if type(OnProblem) == v:t_func
      prompt.Later(() => {
        OnProblem(problem)
      })
    endif
  }
  client.Request('text/parseFilter', {text: text}, (answer) => {
    var problem = prompt.Problem(answer)
    if problem != ''
      Refuse(problem)
      return
    endif
    var filter = get(answer, 'filter', {})
    Apply(type(filter) == v:t_dict ? filter : {}, text)
  }, (error) => {
    Refuse(client.Text(get(error, 'message', 'text/parseFilter failed')))
    return false
  })
enddef

# The filter prompt; an empty answer clears the filter, <Esc> leaves it as it is. A text with a
# warning is not applied: the prompt opens again with it, saying why.
export def Filter(default: any = null, problem = '')
  var p = actions.Current()
  if empty(p)
    return
  endif
  var current = p.filter_text
  if current == '' && type(p.filter) == v:t_dict && type(get(p.filter, 'text', 0)) == v:t_string
    current = p.filter.text
  endif
  if type(default) == v:t_string
    current = default
  endif
  # <Esc> cancels (the filter stays); an empty answer clears it.
  var text = prompt.Ask(prompt.Text('Filter', 'empty: all', problem), current, prompt.cancelled)
  if text == prompt.cancelled
    return
  endif
  var buf = p.buf
  SetFilter(p, text, (why) => {
    if bufnr() == buf
      Filter(text, why)
    endif
  })
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
  var p = actions.Current()
  if !empty(p)
    prompt.Menu('Sections', mapnew(groupings, (_, g) => g.label), (i) => SetSections(p, groupings[i].id))
  endif
enddef

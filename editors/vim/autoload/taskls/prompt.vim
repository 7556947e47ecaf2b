vim9script
# Asking the user: a prompt on the command line (what was asked is kept, for tests), a menu in
# a popup, the server's warnings as the problem a prompt shows, and running something after a
# callback.

import autoload 'taskls/client.vim'
import autoload 'taskls/render.vim'

# The prompts opened, newest last ({prompt, default}): what a user was asked, for tests.
export var prompts: list<dict<any>> = []

# What Ask gives for <Esc> when the caller must tell it from an empty answer.
export const cancelled = "\x01cancelled"

# Asks on the command line, keeping what was asked in `prompts`. With `cancel`, <Esc> gives it
# (inputdialog(), a dialog in the GUI); without, <Esc> gives '' (input()).
export def Ask(prompt: string, default = '', cancel = ''): string
  add(prompts, {prompt: prompt, default: default})
  if len(prompts) > 50
    remove(prompts, 0, 24)
  endif
  var answer = cancel == '' ? input(prompt, default) : inputdialog(prompt, default, cancel)
  prompts[-1].answer = answer
  redraw
  return answer
enddef

# Runs `Fn` once Vim is back at the top level (after the current callback).
export def Later(Fn: func())
  timer_start(0, (_) => client.Guard(Fn, []))
enddef

# The text of a prompt: `New task: `, or with a hint `Filter (empty: all): `. After a line that was
# not taken, the problem stands in the hint's place (`New task (no list named Nowhere; \ keeps a
# word as text): `), so it is seen where the user types. The problem quotes what was typed and
# stored names: it is shown through render.Displayed.
export def Text(label: string, hint = '', problem = ''): string
  var note = problem != '' ? render.Displayed(problem) : hint
  return note == '' ? label .. ': ' : printf('%s (%s): ', label, note)
enddef

# The warnings of a parse answer as one problem ("no list named Nowhere; \ keeps a word as
# text"), '' when there were none. The prompt that opens again shows it (not a message line: a
# few of those before a prompt would stop at "Press ENTER").
export def Problem(answer: any): string
  var warnings = type(answer) == v:t_dict ? get(answer, 'warnings', []) : []
  if type(warnings) != v:t_list || empty(warnings)
    return ''
  endif
  var messages: list<string> = []
  for w in warnings
    var message = type(w) == v:t_dict ? client.Text(get(w, 'message', get(w, 'reason', 'warning'))) : client.Text(w)
    add(messages, message)
  endfor
  add(messages, '\ keeps a word as text')
  return join(messages, '; ')
enddef

# The menus opened, newest last ({title, labels, popup}): what a user was offered, for tests.
export var menus: list<dict<any>> = []

# A menu in a popup (j/k, <CR>, <Esc>; or the item's number): `OnChoice(index)` (0-based).
export def Menu(title: string, labels: list<string>, OnChoice: func(number))
  var numbered = mapnew(labels, (i, l) => (i + 1) .. '. ' .. l)
  var count = len(labels)
  var options: dict<any> = {title: ' ' .. title .. ' '}
  options.filter = (id, key) => MenuKey(id, key, count)
  options.callback = (id, result) => MenuChosen(result, OnChoice)
  var popup = popup_menu(numbered, options)
  add(menus, {title: title, labels: labels, popup: popup})
  if len(menus) > 50
    remove(menus, 0, 24)
  endif
  redraw
enddef

export def MenuKey(id: number, key: string, count: number): bool
  var n = str2nr(key)
  if key =~ '^\d$' && n >= 1 && n <= count
    popup_close(id, n)
    return true
  endif
  return popup_filter_menu(id, key)
enddef

export def MenuChosen(result: number, OnChoice: func(number))
  if result >= 1
    client.Guard(OnChoice, [result - 1])
  endif
enddef

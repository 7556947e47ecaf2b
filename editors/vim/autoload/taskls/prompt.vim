vim9script
# Asking the user: a prompt on the command line (what was asked is kept, for tests), a menu in
# a popup, the server's warnings said one line each, and running something after a callback.

import autoload 'taskls/client.vim'

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

# The warnings of a parse answer, said one line each; true when there were any.
export def Warn(answer: dict<any>): bool
  var warnings = get(answer, 'warnings', [])
  if type(warnings) != v:t_list || empty(warnings)
    return false
  endif
  for w in warnings
    client.Notify(client.Text(get(w, 'message', get(w, 'reason', 'warning'))), 'warn')
  endfor
  return true
enddef

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

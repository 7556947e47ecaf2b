vim9script
# The default keys of list panes: each a buffer-local map to its <Plug>(taskls-…) map (defined
# in plugin/taskls.vim), as g:taskls_keys says (`:help taskls-keys`).

import autoload 'taskls/config.vim'

# The keys of a list pane, in the current buffer: each maps to its <Plug>(taskls-…).
export def MapKeys()
  for [action, plug, modes] in [
      ['details', 'details', 'n'], ['add', 'add', 'n'], ['add_below', 'add-below', 'n'],
      ['add_above', 'add-above', 'n'], ['add_subtask', 'add-subtask', 'n'], ['toggle', 'toggle', 'nx'], ['delete', 'delete', 'n'],
      ['delete_visual', 'delete', 'x'], ['edit', 'edit', 'n'], ['edit_alt', 'edit', 'n'], ['form', 'form', 'n'],
      ['set_due', 'set-due', 'nx'], ['set_priority', 'set-priority', 'nx'], ['set_tags', 'set-tags', 'nx'],
      ['set_repeat', 'set-repeat', 'nx'], ['skip', 'skip', 'nx'], ['save_filter', 'save-filter', 'n'],
      ['move_down', 'move-down', 'nx'], ['move_up', 'move-up', 'nx'],
      ['indent', 'indent', 'n'], ['outdent', 'outdent', 'n'], ['indent_visual', 'indent', 'x'],
      ['outdent_visual', 'outdent', 'x'], ['fold_toggle', 'fold-toggle', 'nx'], ['fold_open', 'fold-open', 'nx'],
      ['fold_close', 'fold-close', 'nx'], ['fold_open_all', 'fold-open-all', 'n'],
      ['fold_close_all', 'fold-close-all', 'n'], ['sort', 'sort', 'n'],
      ['filter', 'filter', 'n'], ['group', 'group', 'n'], ['undo', 'undo', 'n'], ['redo', 'redo', 'n'],
      ['retry', 'retry', 'n'], ['refresh', 'refresh', 'n'], ['overview', 'overview', 'n'],
      ['close', 'close', 'n'], ['help', 'help', 'n']]
    var key = config.Key(action)
    if key == ''
      continue
    endif
    for mode in split(modes, '\zs')
      execute mode .. 'map <buffer><nowait><silent>' key '<Plug>(taskls-' .. plug .. ')'
    endfor
  endfor
enddef

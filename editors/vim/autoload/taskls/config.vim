vim9script
# taskls options: each is a g:taskls_NAME variable read when used, over the defaults below
# (`:help taskls-options`).

# The defaults of every option, by name (without the g:taskls_ prefix).
export const defaults: dict<any> = {
  cmd: ['taskls'],
  store: '',
  time_zone: '',
  reminders: 1,
  margin: 100,
  open: 'edit',
  title_width: 0,
  icons: {todo: '[ ]', done: '[x]', notes: '+', placeholder: '~', collapsed: '▸', expanded: '▾', repeat: '↻'},
  no_maps: 0,
  keys: {},
}

# The keys of list panes and of the overview, by action; `g:taskls_keys` maps an action to
# another key, or to '' to leave it unmapped.
export const default_keys: dict<string> = {
  open: '<CR>',
  details: '<CR>',
  add: 'a',
  add_below: 'o',
  add_above: 'O',
  add_subtask: 'go',
  toggle: 'x',
  delete: 'dd',
  delete_visual: 'd',
  edit: 'cc',
  edit_alt: 'i',
  form: 'e',
  set_due: 'cd',
  set_priority: 'cp',
  set_tags: 'ct',
  set_repeat: 'cr',
  skip: 'X',
  save_filter: 'gF',
  move_down: 'J',
  move_up: 'K',
  indent: '>>',
  outdent: '<<',
  indent_visual: '>',
  outdent_visual: '<',
  fold_toggle: 'za',
  fold_open: 'zo',
  fold_close: 'zc',
  fold_open_all: 'zR',
  fold_close_all: 'zM',
  sort: 's',
  filter: 'F',
  group: 'S',
  undo: 'u',
  redo: '<C-r>',
  retry: 'r',
  refresh: 'R',
  sync: 'S',
  overview: '-',
  close: 'q',
  help: 'g?',
}

# The value of option `name`: g:taskls_{name} when set, else its default.
export def Get(name: string): any
  var value = get(g:, 'taskls_' .. name, defaults[name])
  if name == 'cmd' && type(value) == v:t_string
    return [value]
  endif
  if name == 'icons' && type(value) == v:t_dict
    return extend(copy(defaults.icons), value)
  endif
  return value
enddef

# The key of `action` ('' when unmapped).
export def Key(action: string): string
  var keys = Get('keys')
  if type(keys) == v:t_dict && has_key(keys, action)
    return type(keys[action]) == v:t_string ? keys[action] : ''
  endif
  return get(default_keys, action, '')
enddef

-- The options: defaults, and `setup()`'s merge of the user's choices over them.
local M = {}

M.defaults = {
  -- The server's command line; `taskls` on $PATH by default.
  cmd = { 'taskls' },
  -- The store directory (initializationOptions.store); nil: the server's own default.
  store = nil,
  -- An IANA time zone for "today" (initializationOptions.timeZone); nil: the server's local zone.
  time_zone = nil,
  -- Show the reminders the server fires (reminders/watch): a task's alerts, as vim.notify lines.
  reminders = true,
  -- Rows fetched beyond what the window shows, above and below.
  margin = 100,
  -- How to show a pane: a command run before the buffer is shown ('edit' keeps the window).
  open = 'edit',
  -- Rendering.
  icons = { todo = '[ ]', done = '[x]', notes = '+', placeholder = '~', collapsed = '▸', expanded = '▾' },
  -- Keys of list panes and of the overview; set one to false to leave it unmapped.
  keymaps = {
    open = '<CR>', -- overview: open the list or smart group under the cursor
    details = '<CR>', -- list pane: the item in full, in a float
    add = 'a',
    add_below = 'o',
    add_above = 'O',
    add_subtask = 'go', -- a subtask of the row under the cursor, right below it
    toggle = 'x',
    delete = 'dd',
    delete_visual = 'd',
    edit = 'cc', -- the quick-entry line: title and any fields it names
    edit_alt = 'i',
    form = 'e', -- every field in a form buffer (:w saves, q closes)
    set_due = 'cd', -- also in visual mode and with a count: on every selected task
    set_priority = 'cp',
    set_tags = 'ct',
    set_repeat = 'cr', -- every week, every mon,wed, every 3 days after done; off stops it
    skip = 'X', -- a repeating task moves on to its next due without being done
    save_filter = 'gF', -- save the pane's filter as a smart list (prompts for its name)
    move_down = 'J',
    move_up = 'K',
    indent = '>>', -- a subtask of the task above ([count] tasks)
    outdent = '<<', -- a sibling of its parent
    indent_visual = '>',
    outdent_visual = '<',
    fold_toggle = 'za', -- collapse or expand the subtasks (the server hides them, not Vim folds)
    fold_open = 'zo',
    fold_close = 'zc',
    fold_open_all = 'zR',
    fold_close_all = 'zM',
    sort = 's',
    filter = 'F', -- not / : search stays search
    group = 'S',
    undo = 'u',
    redo = '<C-r>',
    retry = 'r',
    refresh = 'R',
    sync = 'S', -- overview: sync the lists shared with CalDAV calendars now
    overview = '-',
    close = 'q',
  },
}

M.options = vim.deepcopy(M.defaults)

--- Merges `user` over the defaults (nested tables key by key).
function M.set(user)
  M.options = vim.tbl_deep_extend('force', vim.deepcopy(M.defaults), user or {})
  if type(M.options.cmd) == 'string' then M.options.cmd = { M.options.cmd } end
  return M.options
end

return M

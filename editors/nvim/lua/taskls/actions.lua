-- What the keys of a list pane do: each action reads the rows under the cursor (or a visual
-- range), sends one request, and lets the view's notifications update the buffer.
local client = require('taskls.client')
local compat = require('taskls.compat')
local config = require('taskls.config')
local render = require('taskls.render')

local api = vim.api
local levels = vim.log.levels
local value = client.value

local M = {}

-- Quick entry ------------------------------------------------------------------------------------
-- What the user types is read by the server (`text/parseItem`, `text/parseFilter`), so every
-- editor understands the same words; the plugin only sends the answer's fields on.

--- The text of a prompt: `Add: `, or with a hint `Filter (empty: all): `. After a line that was
--- not taken, the problem stands in the hint's place (`Add (no list named Nowhere; \ keeps a
--- word as text): `), so it is seen where the user looks, with no message to dismiss first. The
--- problem quotes what was typed and stored names: it is shown through `render.displayed`.
function M.prompt_text(label, hint, problem)
  local note = hint
  if problem ~= nil then note = render.displayed(problem) end
  if note == nil then return label .. ': ' end
  return ('%s (%s): '):format(label, note)
end

--- The warnings of a parse answer as one problem ("no list named Nowhere; \ keeps a word as
--- text"), or nil when there were none.
local function warned(answer)
  local warnings = value(answer.warnings)
  if type(warnings) ~= 'table' or #warnings == 0 then return nil end
  local messages = {}
  for _, w in ipairs(warnings) do table.insert(messages, tostring(value(w.message) or w.reason)) end
  table.insert(messages, '\\ keeps a word as text')
  return table.concat(messages, '; ')
end

--- Escapes the words of a stored title that the grammar would read as fields, so a title shown as a
--- prompt's default reads back as the same title (`#42` becomes `\#42`, `every` `\every`, `remind`
--- `\remind`, a repeater cookie such as `+1w` `\+1w`).
function M.escape(title)
  return (title:gsub('%S+', function(word)
    local first, lower = word:sub(1, 1), word:lower()
    if first:match('[#!@%^\\/]') or lower:match('^due:') or lower == 'every' or lower == 'remind'
      or word:match('^%+%d%d?%d?%d?[dwmyDWMY]$') or word:match('^%+%+%d%d?%d?%d?[dwmyDWMY]$')
      or word:match('^%.%+%d%d?%d?%d?[dwmyDWMY]$') then
      return '\\' .. word
    end
    return word
  end))
end

--- Reads `text` with `text/parseItem` in `list`: `on_fields(fields)` when the server read all of
--- it, else `on_problem(problem)` (scheduled) with its warnings, or the refusal. As in the REPL,
--- a line with a warning is never taken as the server read it: the user edits it, escapes the
--- word with `\`, or cancels.
local function parse_item(text, list, on_fields, on_problem)
  local params = { text = text }
  if list ~= nil then params.list = list end
  client.request('text/parseItem', params, function(err, answer)
    if err ~= nil then
      vim.schedule(function() on_problem(tostring(value(err.message))) end)
      return true
    end
    local problem = warned(answer)
    if problem ~= nil then return vim.schedule(function() on_problem(problem) end) end
    on_fields(answer.fields, answer)
  end)
end
M.parse_item = parse_item

--- Whether a parse answer has a span of `kind` (`due`: the line gave a due phrase, rather than the
--- first day of a repeat, which `text/parseItem` supplies when a repeat comes without one).
function M.has_span(answer, kind)
  for _, span in ipairs(value(answer and answer.spans) or {}) do
    if span.kind == kind then return true end
  end
  return false
end

-- The rows of lines `first`..`last` (1-based, inclusive) that are items.
local function items_in(pane, first, last)
  local rows = {}
  for line = first, last do
    local row = pane:row_at_line(line)
    if row ~= nil and row.kind == 'item' then table.insert(rows, row) end
  end
  return rows
end

local function cursor_line() return api.nvim_win_get_cursor(0)[1] end

--- The lines an action takes (1-based, inclusive): the visual selection, else the cursor's line
--- and the `count` - 1 after it (`3dd`: three rows, as Vim users expect), never past the end.
local function range(visual, count)
  if not visual then
    local first = cursor_line()
    local last = math.min(first + math.max(count or 1, 1) - 1, api.nvim_buf_line_count(0))
    return first, last
  end
  local a, b = vim.fn.line('v'), vim.fn.line('.')
  api.nvim_feedkeys(api.nvim_replace_termcodes('<Esc>', true, false, true), 'nx', false)
  if a > b then a, b = b, a end
  return a, b
end
M.range = range

local function ids(rows)
  local list = {}
  for i, row in ipairs(rows) do list[i] = row.id end
  return list
end

-- The list a new item goes to: the pane's list, else that of the row under the cursor, else (a
-- smart list over some lists) its first list, else the first list.
local function target_list(pane, row)
  if pane.source.list ~= nil then return pane.source.list end
  if row ~= nil and row.list ~= nil then return row.list end
  if pane.source.smartList ~= nil then
    local smart = require('taskls.smartlists').find(pane.source.smartList)
    local lists = smart and value(smart.lists)
    if type(lists) == 'table' and lists[1] ~= nil then return lists[1] end
  end
  local first = client.state.lists[1]
  return first and first.id
end

--- Where a new item goes, as `items/create` params (`parent`, `before`), for `where`: 'above'
--- (O) the row, as its sibling; 'below' (o) the row, so that it is the row right below: the
--- first subtask of a row whose subtasks are shown, else the row's next sibling (the last of its
--- parent's subtasks when none follows); 'subtask' (go): the first subtask of the row. `row` is the
--- row as it is now, at `line`; for another list than the row's, only a subtask's `parent` is set
--- (which the server refuses: a subtask is in its parent's list).
local function placement(pane, where, row, line, list)
  local place = {}
  if row == nil or row.kind ~= 'item' then return place end
  if row.list ~= list then
    if where == 'subtask' then place.parent = row.id end
    return place
  end
  local next_row = pane:row_at_line(line + 1)
  if next_row ~= nil and next_row.kind ~= 'item' then next_row = nil end
  local first_child = next_row ~= nil and value(next_row.parent) == row.id and next_row or nil
  if where == 'above' then
    place.before = row.id
  elseif where == 'subtask' or (where == 'below' and first_child ~= nil) then
    place.parent = row.id
    if first_child ~= nil then place.before = first_child.id end
  elseif where == 'below' then
    place.parent = value(row.parent) or vim.NIL
    if next_row ~= nil and value(next_row.parent) == value(row.parent) and next_row.list == list then
      place.before = next_row.id
    end
  end
  return place
end

--- Adds an item: `where` is 'end' (a), 'below' (o), 'above' (O) the cursor's row, or 'subtask'
--- (go: the first subtask of the row, expanded first when it is collapsed, so the new task is
--- seen). The text is read by the server (`text/parseItem` in the pane's list); on a warning or
--- a refusal nothing is stored and the prompt opens again with the typed text, saying why.
function M.add(pane, where, title)
  local row = pane:row_at_line(cursor_line())
  if where == 'subtask' and (row == nil or row.kind ~= 'item') then
    client.notify('no task here to add a subtask to', levels.WARN)
    return
  end
  local list = target_list(pane, row)
  if where == 'subtask' then list = row.list end
  local ask
  local function create(text)
    if text == nil or text:match('^%s*$') then return end
    if list == nil then
      client.notify('there is no list yet: create one in the overview (:Tasks, then a)', levels.WARN)
      return
    end
    local function again(problem) vim.schedule(function() ask(text, problem) end) end
    parse_item(text, list, function(fields)
      fields.list = value(fields.list) or list
      if fields.title == nil then return again('a task needs a title') end
      local expanded = false
      local function send()
        -- The row as it is now: the prompt and the parse took time, rows may have moved.
        local line = row ~= nil and pane:line_of(row.id) or nil
        local current = line ~= nil and pane:row_at_line(line) or row
        if where == 'subtask' and current.collapsed == true and not expanded then
          expanded = true
          client.request('view/expand', { view = pane.view, ids = { row.id } }, function(err)
            if err ~= nil then return false end
            send()
          end)
          return
        end
        if where == 'subtask' and line == nil then
          fields.parent = row.id
        elseif line ~= nil then
          for key, v in pairs(placement(pane, where, current, line, fields.list)) do fields[key] = v end
        end
        client.request('items/create', fields, function(err, result)
          if err ~= nil then
            again(tostring(value(err.message)))
            return true
          end
          local new_line = pane:line_of(result.item.id)
          if new_line ~= nil then
            for _, win in ipairs(pane:windows()) do pcall(api.nvim_win_set_cursor, win, { new_line, 0 }) end
          end
        end)
      end
      -- In the Today group a task without a due is due today: the server's today (its clock, the
      -- zone `initialize` gave), never this machine's.
      if pane.source.group == 'today' and fields.due == nil then
        client.request('text/parseItem', { text = '^today' }, function(err, answer)
          if err ~= nil then
            again(tostring(value(err.message)))
            return true
          end
          fields.due = answer.fields.due
          send()
        end)
      else
        send()
      end
    end, function(problem) ask(text, problem) end)
  end
  --- Opens the prompt with `default`, and the problem of the last try when there was one.
  ask = function(default, problem)
    vim.ui.input({ prompt = M.prompt_text('Add', nil, problem), default = default }, create)
  end
  if title ~= nil then return create(title) end
  ask(nil, nil)
end

--- Toggles done on the rows of the range (the selection, or `count` rows from the cursor): all
--- done when any is not, else all not done.
function M.toggle(pane, visual, count)
  local rows = items_in(pane, range(visual, count))
  if #rows == 0 then return end
  local done = false
  for _, row in ipairs(rows) do if not row.done then done = true end end
  client.request('items/update', { ids = ids(rows), done = done }, function(err, result)
    if err ~= nil then return false end
    require('taskls.repeating').say_advanced(result)
  end)
end

--- Deletes the tasks of the range (the selection, or `count` rows from the cursor: `3dd`).
function M.delete(pane, visual, count)
  local rows = items_in(pane, range(visual, count))
  if #rows == 0 then return end
  client.request('items/delete', { ids = ids(rows) })
end

--- Edits the item under the cursor: the prompt starts with its title (escaped, so it reads back as
--- itself); the text is read by `text/parseItem` in the item's list, so `Call Ann ^fri !high` sets
--- the title, due and priority, `every week` the repeat, and `@List` moves the item there. A repeat
--- typed without a due keeps the task's due (the parse's first day of the rule is taken only when
--- the task has none). On a warning or a refusal nothing is stored and the prompt opens again with
--- the typed text, saying why.
function M.edit(pane)
  local row = pane:row_at_line(cursor_line())
  if row == nil or row.kind ~= 'item' then return end
  local original = M.escape(row.title)
  local ask
  local function apply(text)
    if text == nil or text:match('^%s*$') or text == original then return end
    parse_item(text, row.list, function(fields, answer)
      local list = value(fields.list)
      local update = { id = row.id }
      local any = false
      if fields['repeat'] ~= nil and not M.has_span(answer, 'due') and value(row.due) ~= nil then fields.due = nil end
      for _, name in ipairs({ 'title', 'notes', 'due', 'priority', 'tags', 'repeat', 'alerts' }) do
        if fields[name] ~= nil then update[name], any = fields[name], true end
      end
      local function again(err)
        vim.schedule(function() ask(text, tostring(value(err.message))) end)
        return true
      end
      local function move()
        if list == nil or list == row.list then return end
        client.request('items/move', { ids = { row.id }, before = vim.NIL, list = list }, function(err)
          if err ~= nil then return again(err) end
        end)
      end
      if not any then return move() end
      client.request('items/update', update, function(err)
        if err ~= nil then return again(err) end
        move()
      end)
    end, function(problem) ask(text, problem) end)
  end
  ask = function(default, problem)
    vim.ui.input({ prompt = M.prompt_text('Edit', nil, problem), default = default }, apply)
  end
  ask(original, nil)
end

-- The block a move by index takes (protocol.md "Moving in the tree"): window indexes `first` to
-- `last` (1-based), plus the rows right after them deeper than the least depth among them (their
-- shown subtrees). Returns the block's last window index and that least depth, or nil when the
-- block may run on past the fetched rows.
local function block_of(pane, first, last)
  local least = math.huge
  for i = first, last do
    local row = pane.rows[i]
    if row == nil then return nil end
    if row.kind == 'item' then least = math.min(least, tonumber(row.depth) or 0) end
  end
  if least == math.huge then least = 0 end
  local j = last
  while true do
    local after = pane.rows[j + 1]
    if after == nil then
      if pane.window.start + j < pane.count then return nil end
      break
    end
    if after.kind ~= 'item' or (tonumber(after.depth) or 0) <= least then break end
    j = j + 1
  end
  return j, least
end

--- The depth a block of tops at depth `depth` keeps when it lands at `to` (0-based, counted in
--- the view without the block of `size` rows at `from`): its own depth when the rows around `to`
--- allow it, else the nearest they allow (protocol.md "Allowed depths"), so `J` and `K` walk a
--- task one row at a time through the tree and keep it at its level where they can. Nil when a
--- row around `to` is not fetched (the server then takes its default).
local function landing_depth(pane, from, size, to, depth)
  local function without(index)
    local at = index < from and index or index + size
    return pane.rows[at - pane.window.start + 1]
  end
  local prev, next_row = nil, nil
  if to > 0 then
    prev = without(to - 1)
    if prev == nil then return nil end
  end
  if to < pane.count - size then
    next_row = without(to)
    if next_row == nil then return nil end
  end
  local low = 0
  if next_row ~= nil and next_row.kind == 'item' then low = tonumber(next_row.depth) or 0 end
  local high = 0
  if prev ~= nil and prev.kind == 'item' then
    high = (tonumber(prev.depth) or 0) + (prev.collapsed == true and 0 or 1)
  end
  return math.max(low, math.min(depth, high))
end

--- Moves the rows of the range (the selection, or the cursor's row) by `delta` rows (`2J`: 2
--- down, `K`: 1 up), in manual order only, each with its subtree (the server takes the rows of
--- the subtrees shown below them along); a move past either end stops at it. The tasks keep their
--- depth where the rows they land between allow it (`landing_depth`); the cursor stays on its task.
function M.move(pane, delta, visual)
  local sort = pane.sort or {}
  if sort.by ~= 'manual' or sort.direction == 'descending' then
    client.notify(('this pane is sorted by %s%s: J and K reorder only in manual order (press %s to sort manually)')
      :format(sort.by or '?', sort.direction == 'descending' and ' (descending)' or '', config.options.keymaps.sort or 's'), levels.WARN)
    return
  end
  local first, last = range(visual)
  if pane.mode ~= 'rows' then return end
  local from, count = first - 1, last - first + 1
  local params = { view = pane.view, version = pane.version, from = from, count = count }
  local block_end, least = block_of(pane, first - pane.window.start, last - pane.window.start)
  local size = block_end and (block_end - (first - pane.window.start) + 1) or count
  local to = math.max(0, math.min(from + delta, pane.count - size))
  if to == from then return end
  params.to = to
  if block_end ~= nil then params.depth = landing_depth(pane, from, size, to, least) end
  client.request('items/move', params, function(err)
    if err == nil then return end
    if err.code == -32801 then
      pane:resync()
      client.notify('the list changed meanwhile: nothing moved, try again', levels.WARN)
      return true
    end
    return false
  end)
end

-- The tree: folding, indenting ------------------------------------------------------------------

--- Collapses, expands or toggles (`how`: 'close', 'open', 'toggle') the rows of the range (the
--- selection, or `count` rows from the cursor), as `zc`, `zo` and `za` do folds: on rows with
--- subtasks shown or hidden below them (`hasChildren`); `za` collapses them all when any is
--- expanded, else expands them. `zc` and `za` on rows without any (a leaf), and `zc` on collapsed
--- rows, act on the fold they are in: they collapse the rows' parents, and the cursor goes to the
--- parent's row, as it goes to a closed fold in Vim. The server hides the rows (`view/collapse`, `view/expand`), not Vim.
function M.fold(pane, how, visual, count)
  local rows = items_in(pane, range(visual, count))
  if #rows == 0 or pane.view == nil then return end
  local open, closed = {}, {}
  for _, row in ipairs(rows) do
    if row.hasChildren == true then
      table.insert(row.collapsed == true and closed or open, row.id)
    end
  end
  local method, targets = nil, nil
  if how == 'open' then
    method, targets = 'view/expand', closed
  elseif #open > 0 then
    method, targets = 'view/collapse', open
  elseif how == 'toggle' and #closed > 0 then
    method, targets = 'view/expand', closed
  else
    -- Leaves, or `zc` on collapsed rows: the fold they are in is their parent's.
    method, targets = 'view/collapse', {}
    local seen = {}
    for _, row in ipairs(rows) do
      local parent = value(row.parent)
      if parent ~= nil and not seen[parent] then
        seen[parent] = true
        table.insert(targets, parent)
      end
    end
  end
  if method == nil or #targets == 0 then return end
  local saved = pane:save_cursors()
  client.request(method, { view = pane.view, ids = targets }, function(err)
    if err ~= nil then return false end
    pane:follow_cursor(saved)
  end)
end

--- Collapses (`zM`) or expands (`zR`) every row of the pane's view; the cursor keeps its task,
--- wherever it went (`Pane:follow_cursor`).
function M.fold_all(pane, collapse)
  if pane.view == nil or pane.mode ~= 'rows' then return end
  local saved = pane:save_cursors()
  client.request(collapse and 'view/collapse' or 'view/expand', { view = pane.view, all = true }, function(err)
    if err ~= nil then return false end
    pane:follow_cursor(saved)
  end)
end

--- A refusal of `items/indent` or `items/outdent` in words, naming the task.
local function indent_refusal(err, rows, outdent)
  local title = '"' .. tostring(rows[1].title) .. '"'
  local verb = outdent and 'outdent' or 'indent'
  if err.reason == 'noPreviousSibling' then
    return ('cannot indent %s: no task above it at its level to become a subtask of'):format(title)
  elseif err.reason == 'topLevel' then
    return ('cannot outdent %s: it is already at the top level'):format(title)
  elseif err.reason == 'notSiblings' then
    return ('cannot %s these tasks together: they are not subtasks of the same task'):format(verb)
  elseif err.reason == 'tooDeep' then
    return ('cannot indent %s: subtasks go at most 15 levels deep'):format(title)
  end
  return ('cannot %s: %s'):format(verb, tostring(value(err.message)))
end

--- Indents (`>>`: subtasks of the task above at their level) or outdents (`<<`: siblings of their
--- parent, right after it) the tasks of the range (the selection, or `count` rows from the
--- cursor), each with its subtree; a refusal is one warning in words. The cursor stays on its task.
function M.indent(pane, outdent, visual, count)
  local rows = items_in(pane, range(visual, count))
  if #rows == 0 then return end
  client.request(outdent and 'items/outdent' or 'items/indent', { ids = ids(rows) }, function(err)
    if err == nil then return end
    if err.code ~= -32803 then return false end
    client.notify(indent_refusal(err, rows, outdent), levels.WARN)
    return true
  end)
end

-- Setting one field ---------------------------------------------------------------------------

--- The items of the range (the selection, or `count` rows from the cursor).
local function targets(pane, visual, count)
  local rows = items_in(pane, range(visual, count))
  if #rows == 0 then client.notify('no task here', levels.WARN) end
  return rows
end

--- Sets `fields` on every row (one `items/update`, one undo step).
local function update_rows(rows, fields, on_done)
  local params = {}
  for key, v in pairs(fields) do params[key] = v end -- (vim.deepcopy refuses vim.NIL on 0.7)
  if #rows == 1 then params.id = rows[1].id else params.ids = ids(rows) end
  client.request('items/update', params, function(err)
    if err ~= nil then return false end
    if on_done then on_done() end
  end)
end

--- The due words to suggest after a phrase the grammar could not read.
M.due_examples = 'try fri, tomorrow 9:30, dec 1 or none'

--- Reads a due phrase with the server's grammar (`^PHRASE` through `text/parseItem`, so `fri`,
--- `tomorrow 9:30`, `+3`, `none` mean what they mean everywhere): `on_due(due)` gets the due
--- (vim.NIL for `none`), or `on_error(message)` what was wrong, ending in words to try.
function M.read_due(phrase, on_due, on_error)
  client.request('text/parseItem', { text = '^' .. phrase }, function(err, answer)
    if err ~= nil then
      on_error(tostring(value(err.message)))
      return true
    end
    local warnings = value(answer.warnings) or {}
    local problem
    if #warnings > 0 then
      local messages = {}
      for _, w in ipairs(warnings) do table.insert(messages, tostring(value(w.message) or w.reason)) end
      problem = table.concat(messages, '; ')
    elseif answer.fields.title ~= nil then
      problem = 'not a date: ' .. answer.fields.title
    end
    if problem ~= nil then return on_error(problem .. ' — ' .. M.due_examples) end
    -- No warning and no due: the phrase was `none` (a JSON null, which arrives as nil).
    on_due(value(answer.fields.due) or vim.NIL)
  end)
end

--- Sets the due of the range's tasks from a prompt (`fri`, `tomorrow 9:30`, `none` clears it).
--- The prompt starts empty (what is typed is the whole phrase) and names the current due of a
--- single task in grammar words; an unreadable phrase opens it again with the text, saying why.
function M.set_due(pane, visual, count)
  local rows = targets(pane, visual, count)
  if #rows == 0 then return end
  local hint = 'fri, tomorrow 9:30, +3, none'
  local current = #rows == 1 and render.due_phrase(rows[1].due, rows[1].dueLocal) or ''
  if current ~= '' then hint = 'now ' .. current .. '; ' .. hint end
  local ask
  ask = function(default, problem)
    vim.ui.input({ prompt = M.prompt_text('Due', hint, problem), default = default }, function(text)
      if text == nil or text:match('^%s*$') then return end
      M.read_due(vim.trim(text), function(due) update_rows(rows, { due = due }) end, function(message)
        vim.schedule(function() ask(text, message) end)
      end)
    end)
  end
  ask(nil, nil)
end

M.priorities = {
  { id = 'none', label = 'None' },
  { id = 'low', label = 'Low (!)' },
  { id = 'medium', label = 'Medium (!!)' },
  { id = 'high', label = 'High (!!!)' },
}

--- Sets the priority of the range's tasks, chosen from a menu.
function M.set_priority(pane, visual, count)
  local rows = targets(pane, visual, count)
  if #rows == 0 then return end
  vim.ui.select(M.priorities, { prompt = 'Priority', format_item = function(p) return p.label end }, function(choice)
    if choice ~= nil then update_rows(rows, { priority = choice.id }) end
  end)
end

--- Tags as the form and the tag prompt write them: `#home #work`.
function M.tags_text(tags)
  local words = {}
  for _, tag in ipairs(value(tags) or {}) do table.insert(words, '#' .. tag) end
  return table.concat(words, ' ')
end

--- The tags of `text`: words, each with or without its `#`; `-` or `none` alone: no tags.
function M.read_tags(text)
  local tags = {}
  text = vim.trim(text)
  if text == '-' or text:lower() == 'none' then return tags end
  for word in text:gmatch('%S+') do
    word = word:gsub('^#', '')
    if word ~= '' then table.insert(tags, word) end
  end
  return tags
end

--- Sets the tags of the range's tasks from a prompt (`#home #work`; `-` removes them all).
function M.set_tags(pane, visual, count)
  local rows = targets(pane, visual, count)
  if #rows == 0 then return end
  vim.ui.input({ prompt = 'Tags (#home #work; - for none): ', default = M.tags_text(rows[1].tags) }, function(text)
    if text == nil or text:match('^%s*$') then return end
    update_rows(rows, { tags = M.read_tags(text) })
  end)
end

--- Opens the form of the task under the cursor (every field; `:w` saves).
function M.form(pane)
  local row = pane:row_at_line(cursor_line())
  if row == nil or row.kind ~= 'item' then return end
  require('taskls.form').open(row.id)
end

M.sorts = {
  { by = 'manual', label = 'Manual order' },
  { by = 'title', label = 'Title' },
  { by = 'due', label = 'Due date' },
  { by = 'priority', direction = 'descending', label = 'Priority (high first)' },
  { by = 'created', direction = 'descending', label = 'Newest first' },
  { by = 'modified', direction = 'descending', label = 'Recently modified' },
}

function M.set_sort(pane, sort)
  client.request('view/sort', { view = pane.view, sort = sort }, function(err)
    if err ~= nil then return false end
    pane.sort = { by = sort.by, direction = sort.direction or 'ascending' }
    pane:update_name()
  end)
end

function M.sort(pane)
  vim.ui.select(M.sorts, { prompt = 'Sort by', format_item = function(s) return s.label end }, function(choice)
    if choice ~= nil then M.set_sort(pane, { by = choice.by, direction = choice.direction or 'ascending' }) end
  end)
end

--- Filters the pane by what `text` says (`text/parseFilter`: `#home !high+ due<fri open milk`);
--- nil or blank text clears the filter. A text with a warning changes nothing: `on_problem(problem)`
--- gets its warnings (as in the REPL).
function M.set_filter(pane, text, on_problem)
  local function apply(filter, typed)
    client.request('view/filter', { view = pane.view, filter = filter }, function(err)
      if err ~= nil then return false end
      pane.filter, pane.filter_text = filter, typed
      pane:update_name()
    end)
  end
  if text == nil or text:match('^%s*$') then return apply(vim.empty_dict(), nil) end
  client.request('text/parseFilter', { text = text }, function(err, answer)
    if err ~= nil then
      vim.schedule(function() on_problem(tostring(value(err.message))) end)
      return true
    end
    local problem = warned(answer)
    if problem ~= nil then return vim.schedule(function() on_problem(problem) end) end
    local filter = answer.filter
    if type(filter) ~= 'table' or next(filter) == nil then filter = vim.empty_dict() end
    apply(filter, text)
  end)
end

--- The filter prompt: an empty answer clears the filter; Esc leaves it as it is where
--- `vim.ui.input` tells Esc from an empty answer (Neovim 0.9+), and clears it on 0.7 and 0.8,
--- whose prompt answers nil for both. A text with a warning opens the prompt again with it.
function M.filter(pane)
  local current = pane.filter_text
  if current == nil and type(pane.filter) == 'table' then current = pane.filter.text end
  local ask
  ask = function(default, problem)
    vim.ui.input({ prompt = M.prompt_text('Filter', 'empty: all', problem), default = default or '' }, function(text)
      if text == nil and compat.input_tells_cancel then return end
      M.set_filter(pane, text, function(message) ask(text, message) end)
    end)
  end
  ask(current, nil)
end

M.groupings = {
  { id = 'none', label = 'No sections' },
  { id = 'dueBucket', label = 'Due date (Overdue, Today, Tomorrow, ...)' },
  { id = 'priority', label = 'Priority' },
  { id = 'list', label = 'List' },
  { id = 'done', label = 'Done' },
}

function M.set_sections(pane, sections)
  client.request('view/sections', { view = pane.view, sections = sections }, function(err)
    if err ~= nil then return false end
    pane.sections = sections
    pane:update_name()
  end)
end

function M.group(pane)
  vim.ui.select(M.groupings, { prompt = 'Sections', format_item = function(g) return g.label end }, function(choice)
    if choice ~= nil then M.set_sections(pane, choice.id) end
  end)
end

--- Undoes the latest change; says what it undid in words (`undid: delete 3 tasks`, the result's
--- `description`).
function M.undo()
  client.request('undo', vim.NIL, function(err, result)
    if err ~= nil then return false end
    client.notify('undid: ' .. tostring(value(result.description)), levels.INFO)
  end)
end

--- Redoes the latest undone change; says what it redid (`redid: delete 3 tasks`).
function M.redo()
  client.request('redo', vim.NIL, function(err, result)
    if err ~= nil then return false end
    client.notify('redid: ' .. tostring(value(result.description)), levels.INFO)
  end)
end

--- Retries the store (a view in error), or restarts a stopped server and reopens the pane.
function M.retry(pane)
  if pane.stopped or not client.running() then
    pane:open_view()
    return
  end
  client.request('store/retry', vim.NIL, function(err, result)
    if err ~= nil then return false end
    if result.retried == false then pane:resync() end
  end)
end

--- Shows the item under the cursor in full, in a float.
function M.details(pane)
  local row = pane:row_at_line(cursor_line())
  if row == nil or row.kind ~= 'item' then return end
  client.request('items/get', { id = row.id }, function(err, item)
    if err ~= nil then return false end
    M.show_item(item)
  end)
end

--- The item in a float: its fields, then its notes; every stored text through `displayed`, so no
--- control character reaches the screen raw.
function M.show_item(item)
  local shown = render.displayed
  local lines = { shown(item.title), '' }
  local function field(name, v)
    v = value(v)
    if v ~= nil and v ~= '' then table.insert(lines, ('%-10s %s'):format(name, tostring(v))) end
  end
  local list_name = client.state.list_names[item.list]
  field('List', shown(list_name or item.list))
  field('Done', item.done and (value(item.completed) or 'yes') or nil)
  -- The due in the pane's words, then as the grammar reads it back (the client's wall clock).
  field('Due', value(item.due) and (render.due(item.due, item.done, value(item.dueLocal)) .. ' ('
    .. render.due_phrase(item.due, item.dueLocal) .. ')'))
  local repeating = require('taskls.repeating')
  local repeat_text = repeating.text(item)
  if repeat_text ~= '' then field('Repeats', shown(repeat_text)) end
  local history = repeating.history(item)
  if history ~= nil then field('History', shown(history)) end
  local alerts = require('taskls.reminders').alerts_words(item)
  if alerts ~= nil then field('Alerts', shown(alerts)) end
  field('Priority', item.priority ~= 'none' and item.priority or nil)
  local tags = value(item.tags)
  if type(tags) == 'table' and #tags > 0 then field('Tags', shown(M.tags_text(tags))) end
  field('Created', item.created)
  field('Modified', item.modified)
  local notes = value(item.notes)
  if notes ~= nil and notes ~= '' then
    table.insert(lines, '')
    for line in (notes .. '\n'):gmatch('(.-)\n') do table.insert(lines, shown(line)) end
  end
  local width = 20
  for _, line in ipairs(lines) do width = math.max(width, vim.fn.strdisplaywidth(line)) end
  local buf = api.nvim_create_buf(false, true)
  api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
  vim.bo[buf].bufhidden = 'wipe'
  local win = api.nvim_open_win(buf, true, {
    relative = 'cursor', row = 1, col = 0, style = 'minimal', border = 'rounded',
    width = math.min(width + 1, math.max(20, vim.o.columns - 4)), height = math.min(#lines, math.max(3, vim.o.lines - 4)),
  })
  api.nvim_buf_set_extmark(buf, api.nvim_create_namespace('taskls_float'), 0, 0,
    { end_col = #lines[1], hl_group = 'Title' })
  for _, key in ipairs({ 'q', '<Esc>' }) do
    vim.keymap.set('n', key, function() pcall(api.nvim_win_close, win, true) end, { buffer = buf, nowait = true })
  end
  M.last_float = { win = win, buf = buf, lines = lines }
  return win
end

--- Maps the configured keys in a pane's buffer and watches scrolling.
function M.attach(pane)
  local keys = config.options.keymaps
  local buf = pane.buf
  local function map(mode, name, fn, desc)
    local lhs = keys[name]
    if lhs == nil or lhs == false then return end
    vim.keymap.set(mode, lhs, function() client.guard(fn) end, { buffer = buf, nowait = true, silent = true, desc = 'taskls: ' .. desc })
  end
  local function count() return vim.v.count1 end
  map('n', 'details', function() M.details(pane) end, 'show the item in full')
  map('n', 'add', function() M.add(pane, 'end') end, 'add a task at the end')
  map('n', 'add_below', function() M.add(pane, 'below') end, 'add a task below')
  map('n', 'add_above', function() M.add(pane, 'above') end, 'add a task above')
  map('n', 'add_subtask', function() M.add(pane, 'subtask') end, 'add a subtask below')
  map('n', 'toggle', function() M.toggle(pane, false, count()) end, 'toggle done ([count] tasks)')
  map('x', 'toggle', function() M.toggle(pane, true) end, 'toggle done')
  map('n', 'delete', function() M.delete(pane, false, count()) end, 'delete ([count] tasks)')
  map('x', 'delete_visual', function() M.delete(pane, true) end, 'delete the selected tasks')
  map('n', 'edit', function() M.edit(pane) end, 'edit with the quick-entry line')
  map('n', 'edit_alt', function() M.edit(pane) end, 'edit with the quick-entry line')
  map('n', 'form', function() M.form(pane) end, 'edit every field in a form')
  map('n', 'set_due', function() M.set_due(pane, false, count()) end, 'set the due ([count] tasks)')
  map('x', 'set_due', function() M.set_due(pane, true) end, 'set the due of the selected tasks')
  map('n', 'set_priority', function() M.set_priority(pane, false, count()) end, 'set the priority ([count] tasks)')
  map('x', 'set_priority', function() M.set_priority(pane, true) end, 'set the priority of the selected tasks')
  map('n', 'set_tags', function() M.set_tags(pane, false, count()) end, 'set the tags ([count] tasks)')
  map('x', 'set_tags', function() M.set_tags(pane, true) end, 'set the tags of the selected tasks')
  local repeating = require('taskls.repeating')
  map('n', 'set_repeat', function() repeating.prompt(targets(pane, false, count())) end, 'set or stop the repeat ([count] tasks)')
  map('x', 'set_repeat', function() repeating.prompt(targets(pane, true)) end, 'set or stop the repeat of the selected tasks')
  map('n', 'skip', function() repeating.skip(targets(pane, false, count())) end, 'skip to the next due ([count] tasks)')
  map('x', 'skip', function() repeating.skip(targets(pane, true)) end, 'skip the selected tasks to their next due')
  map('n', 'save_filter', function() require('taskls.smartlists').save(pane) end, 'save the filter as a smart list')
  map('n', 'move_down', function() M.move(pane, count(), false) end, 'move down [count] rows')
  map('n', 'move_up', function() M.move(pane, -count(), false) end, 'move up [count] rows')
  map('x', 'move_down', function() M.move(pane, count(), true) end, 'move the selection down')
  map('x', 'move_up', function() M.move(pane, -count(), true) end, 'move the selection up')
  map('n', 'indent', function() M.indent(pane, false, false, count()) end, 'indent ([count] tasks)')
  map('n', 'outdent', function() M.indent(pane, true, false, count()) end, 'outdent ([count] tasks)')
  map('x', 'indent_visual', function() M.indent(pane, false, true) end, 'indent the selected tasks')
  map('x', 'outdent_visual', function() M.indent(pane, true, true) end, 'outdent the selected tasks')
  for name, how in pairs({ fold_toggle = 'toggle', fold_open = 'open', fold_close = 'close' }) do
    map('n', name, function() M.fold(pane, how, false, count()) end, how .. ' the subtasks ([count] tasks)')
    map('x', name, function() M.fold(pane, how, true) end, how .. ' the subtasks of the selected tasks')
  end
  map('n', 'fold_open_all', function() M.fold_all(pane, false) end, 'expand every task')
  map('n', 'fold_close_all', function() M.fold_all(pane, true) end, 'collapse every task')
  map('n', 'sort', function() M.sort(pane) end, 'sort')
  map('n', 'filter', function() M.filter(pane) end, 'filter')
  map('n', 'group', function() M.group(pane) end, 'group into sections')
  map('n', 'undo', M.undo, 'undo')
  map('n', 'redo', M.redo, 'redo')
  map('n', 'retry', function() M.retry(pane) end, 'retry the store or restart the server')
  map('n', 'refresh', function() pane:resync() end, 'fetch the window again')
  map('n', 'overview', function() require('taskls').overview() end, 'the overview')
  map('n', 'close', function() pane:close() end, 'close the pane')
  local group = api.nvim_create_augroup('taskls_pane_' .. buf, { clear = true })
  local events = { 'CursorMoved', 'BufWinEnter', 'WinEnter', 'VimResized' }
  if require('taskls.compat').has_winscrolled then table.insert(events, 'WinScrolled') end
  api.nvim_create_autocmd(events, {
    group = group,
    callback = function()
      if not api.nvim_buf_is_valid(buf) or #vim.fn.win_findbuf(buf) == 0 then return end
      -- A window of another width: titles take another number of cells, so draw the rows again.
      if pane.mode == 'rows' and pane.width ~= nil and pane:title_width() ~= pane.width then
        local saved = pane:save_cursors()
        pane:redraw_rows()
        pane:restore_cursors(saved)
      end
      pane:schedule_window_check()
    end,
  })
  api.nvim_create_autocmd('BufWipeout', {
    group = group,
    buffer = buf,
    callback = function()
      if not pane.closed then pane:close(true) end
      pcall(api.nvim_del_augroup_by_id, group)
    end,
  })
end

return M

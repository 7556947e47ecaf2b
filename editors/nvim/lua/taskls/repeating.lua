-- Repeating tasks in a pane: what completing one says (it moved on to its next due), skipping
-- occurrences (`items/skip`), setting or stopping a repeat from a prompt, and the repeat and its
-- history in words for the task's float. The repeat's words are the server's (`repeat.text`).
local client = require('taskls.client')
local render = require('taskls.render')

local levels = vim.log.levels
local value = client.value

local M = {}

-- A stored name in quotes, as it is: `client.notify` shows its message escaped (`render.displayed`).
local function quoted(title)
  return '"' .. tostring(value(title) or '') .. '"'
end

--- An item's repeat in the server's words (`every month on the 1st`), as they are; '' when none.
function M.text(item)
  local rule = value(item['repeat'])
  if type(rule) ~= 'table' then return '' end
  return tostring(value(rule.text) or value(rule.rule) or '')
end

--- An item's due in the pane's words ("tomorrow", "in 3 days 09:00", "2026-12-01").
function M.due_words(item)
  local due = value(item.due)
  if type(due) ~= 'string' then return 'none' end
  return (render.due(due, false, value(item.dueLocal)))
end

--- The line that says a task moved on instead of becoming done:
--- `"Pay rent" repeats (every month on the 1st): next due 2026-12-01`.
function M.advanced_line(item)
  return ('%s repeats (%s): next due %s'):format(quoted(item.title), M.text(item), M.due_words(item))
end

--- Says, one line each, which tasks of an `items/update` result moved on to their next due
--- (`advanced`) rather than becoming done.
function M.say_advanced(result)
  if type(result) ~= 'table' then return end
  local advanced = {}
  for _, id in ipairs(value(result.advanced) or {}) do advanced[id] = true end
  for _, item in ipairs(value(result.items) or {}) do
    if advanced[item.id] then client.notify(M.advanced_line(item), levels.INFO) end
  end
end

--- The names of tasks for a message: `"A"`, or `"A", "B"`.
local function named(rows)
  local names = {}
  for i, row in ipairs(rows) do names[i] = quoted(row.title) end
  return table.concat(names, ', ')
end

--- A refusal of skip or of a repeat in words (`notRepeating`, `repeatEnded`, `repeatWithoutDue`),
--- naming the tasks the server named (`data.ids`), else all of `rows`; nil for another refusal.
function M.refusal(err, rows)
  local data = type(err.data) == 'table' and err.data or {}
  local wanted = {}
  for _, id in ipairs(value(data.ids) or {}) do wanted[id] = true end
  local which = {}
  for _, row in ipairs(rows) do if wanted[row.id] then table.insert(which, row) end end
  if #which == 0 then which = rows end
  local one = #which == 1
  if err.reason == 'notRepeating' then
    return named(which) .. (one and ' does not repeat' or ' do not repeat')
      .. ': give a repeat first (cr, then every week)'
  elseif err.reason == 'repeatEnded' then
    return 'the repeat of ' .. named(which) .. ' has ended: there is no next due to skip to; x marks it done'
  elseif err.reason == 'repeatWithoutDue' then
    return 'a repeating task needs a due: give ' .. named(which) .. ' one first (cd), or both at once (cc, then ^mon every week)'
  end
  return nil
end

--- Skips the current occurrence of `rows` (`items/skip`): each moves on to its next due without
--- being done, and one line says where to (`skipped "Water plants": next due in 3 days`). A
--- refusal is one warning in words; nothing changes.
function M.skip(rows)
  if #rows == 0 then return end
  local ids = {}
  for i, row in ipairs(rows) do ids[i] = row.id end
  client.request('items/skip', { ids = ids }, function(err, result)
    if err ~= nil then
      local words = err.code == -32803 and M.refusal(err, rows) or nil
      if words == nil then return false end
      client.notify(words, levels.WARN)
      return true
    end
    for _, item in ipairs(value(result.items) or {}) do
      client.notify(('skipped %s: next due %s'):format(quoted(item.title), M.due_words(item)), levels.INFO)
    end
  end)
end

--- Whether `text` asks to stop repeating: `off`, `none`, `never` or `-`.
function M.is_off(text)
  local word = vim.trim(text):lower()
  return word == 'off' or word == 'none' or word == 'never' or word == '-'
end

--- Sends `items/update` with `fields` for `rows`; `on_refused(words)` gets a refusal in words.
local function update(rows, fields, on_done, on_refused)
  local params = {}
  for key, v in pairs(fields) do params[key] = v end
  if #rows == 1 then
    params.id = rows[1].id
  else
    params.ids = {}
    for i, row in ipairs(rows) do params.ids[i] = row.id end
  end
  client.request('items/update', params, function(err, result)
    if err ~= nil then
      local words = err.code == -32803 and M.refusal(err, rows) or nil
      if words == nil then
        on_refused(tostring(value(err.message)))
      else
        on_refused(words)
      end
      return true
    end
    on_done(result)
  end)
end

--- Sets the repeat of `rows` from `text` (`every week`, `every month on the last fri`, `every 3
--- days after done`, `+1w`: read by `text/parseItem`), or stops it (`off`: `repeat: null`, the
--- history stays). A task without a due gets the rule's first day as its due (the parse's), so
--- `every mon` on an undated task is due next Monday. `on_problem(problem)` gets what was wrong
--- (a warning, words that are no repeat, a refusal); one line says what changed.
function M.set(rows, text, on_problem)
  if #rows == 0 then return end
  if M.is_off(text) then
    return update(rows, { ['repeat'] = vim.NIL }, function()
      client.notify('no longer repeating: ' .. named(rows), levels.INFO)
    end, function(words) vim.schedule(function() on_problem(words) end) end)
  end
  require('taskls.actions').parse_item(text, nil, function(fields)
    local rule = value(fields['repeat'])
    if type(rule) ~= 'table' or fields.title ~= nil then
      return vim.schedule(function()
        on_problem(('%s is not a repeat: try every week, every mon,wed, every month on the last fri, every 3 days after done, or off')
          :format(vim.trim(text)))
      end)
    end
    local dated, undated = {}, {}
    for _, row in ipairs(rows) do table.insert(value(row.due) ~= nil and dated or undated, row) end
    local function said(result)
      local first = value(result.items) and result.items[1]
      client.notify(('repeats %s: %s'):format(first and M.text(first) or '', named(rows)), levels.INFO)
    end
    local function problem(words) vim.schedule(function() on_problem(words) end) end
    -- Tasks that have a due keep it; those without one take the rule's first day (one request
    -- each way, so a mixed selection is two undo steps).
    local function undated_too(result)
      if #undated == 0 then return said(result) end
      update(undated, { ['repeat'] = rule, due = fields.due }, said, problem)
    end
    if #dated == 0 then return undated_too(nil) end
    update(dated, { ['repeat'] = rule }, undated_too, problem)
  end, function(problem) on_problem(problem) end)
end

--- The prompt of `cr`: the current repeat of a single task in the hint, an unreadable answer
--- opening it again with the text and why.
function M.prompt(rows)
  if #rows == 0 then return end
  local actions = require('taskls.actions')
  local hint = 'every week, every mon,wed, every 3 days after done; off stops it'
  local current = #rows == 1 and M.text(rows[1]) or ''
  if current ~= '' then hint = 'now ' .. render.displayed(current) .. '; ' .. hint end
  local ask
  ask = function(default, problem)
    vim.ui.input({ prompt = actions.prompt_text('Repeat', hint, problem), default = default }, function(text)
      if text == nil or text:match('^%s*$') then return end
      M.set(rows, text, function(message) ask(text, message) end)
    end)
  end
  ask(nil, nil)
end

--- The history of a repeating task in words (shown through `render.displayed`): `3 done, 1 skipped; last done 2026-11-20 18:02 UTC
--- (due 2026-11-16)`, or nil when it never moved on. The time is UTC as the server gives it (the
--- pane has no time zone rules to read it on the client's clock).
function M.history(item)
  local occurrences = value(item.occurrences)
  if type(occurrences) ~= 'table' then return nil end
  local completed, skipped = tonumber(value(occurrences.completed)) or 0, tonumber(value(occurrences.skipped)) or 0
  if completed + skipped == 0 then return nil end
  local text = ('%d done, %d skipped'):format(completed, skipped)
  local recent = value(occurrences.recent) or {}
  local last = recent[#recent]
  if type(last) == 'table' then
    local at = tostring(value(last.at) or '')
    local day, clock = at:match('^(%d%d%d%d%-%d%d%-%d%d)T(%d%d:%d%d)')
    if day ~= nil then at = day .. ' ' .. clock .. ' UTC' end
    text = text .. ('; last %s %s (due %s)'):format(last.outcome == 'skipped' and 'skipped' or 'done', at,
      tostring(value(last.due) or '?'))
  end
  return text
end

return M

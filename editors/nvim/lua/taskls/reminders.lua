-- Reminders: the server fires an item's alerts (`reminder/fired`, once across every process on
-- the store) to a client that watches them; the plugin watches from the server's start (option
-- `reminders`), shows each with `vim.notify`, and lists, snoozes and dismisses the pending ones
-- (`reminders/list`, `reminders/snooze`, `reminders/dismiss`) from a picker.
local client = require('taskls.client')
local render = require('taskls.render')

local levels = vim.log.levels
local value = client.value

local M = {}

--- Every `reminder/fired` shown since the plugin was loaded, oldest first (for tests and health).
M.fired = {}

-- A stored name in quotes, as it is: `client.notify` shows its message escaped (`render.displayed`).
local function quoted(title)
  return '"' .. tostring(value(title) or '') .. '"'
end

local function plural(n, word)
  return ('%d %s%s'):format(n, word, n == 1 and '' or 's')
end

--- A length of time as the REPL says it: `10 minutes`, `1 hour`, `2 days`.
function M.length_words(minutes)
  if minutes % 1440 == 0 then return plural(minutes / 1440, 'day') end
  if minutes % 60 == 0 then return plural(minutes / 60, 'hour') end
  return plural(minutes, 'minute')
end

--- The minutes of a snooze length as the REPL reads it: `10m`, `1h`, `2d`, or a number of minutes;
--- nil when it is none (or outside 1 to 527040 minutes).
function M.length(text)
  local count, unit = tostring(text):match('^(%d+)([mhd]?)$')
  if count == nil then return nil end
  local minutes = tonumber(count) * ({ [''] = 1, m = 1, h = 60, d = 1440 })[unit]
  if minutes < 1 or minutes > 527040 then return nil end
  return minutes
end

-- `HH:MM` of minutes after midnight.
local function clock(minutes)
  return ('%02d:%02d'):format(math.floor(minutes / 60), minutes % 60)
end

--- An instant as the server writes it (`2026-11-22T08:30:00.000Z`) in short words: `2026-11-22
--- 08:30 UTC` (UTC as given: the pane has no time zone rules), or the text as it is.
function M.instant(text)
  text = tostring(value(text) or '')
  local day, time = text:match('^(%d%d%d%d%-%d%d%-%d%d)T(%d%d:%d%d)')
  if day == nil then return text end
  return day .. ' ' .. time .. ' UTC'
end

--- An alert in words, as its item's due reads it: `{"offset": -60}` on a due time is `1 hour
--- before`, `{"offset": 540}` on a due day `on the day at 09:00`, `-360` `the day before at
--- 18:00`; `{"at": …}` is `at 2026-11-22 08:30 UTC`.
function M.alert_words(alert, due)
  alert = value(alert)
  if type(alert) ~= 'table' then return '?' end
  if value(alert.at) ~= nil then return 'at ' .. M.instant(alert.at) end
  local offset = tonumber(value(alert.offset)) or 0
  due = value(due)
  if type(due) == 'string' and not due:find('T', 1, true) then
    local days = math.floor(offset / 1440)
    local at = clock(offset - days * 1440)
    if days == 0 then return 'on the day at ' .. at end
    if days == -1 then return 'the day before at ' .. at end
    if days == 1 then return 'the day after at ' .. at end
    return ('%d days %s at %s'):format(math.abs(days), days < 0 and 'before' or 'after', at)
  end
  if offset == 0 then return 'at the due' end
  local size = math.abs(offset)
  local parts = {}
  if size >= 1440 then table.insert(parts, plural(math.floor(size / 1440), 'day')) end
  if size % 1440 >= 60 then table.insert(parts, plural(math.floor(size % 1440 / 60), 'hour')) end
  if size % 60 > 0 then table.insert(parts, plural(size % 60, 'minute')) end
  return table.concat(parts, ' ') .. (offset < 0 and ' before' or ' after')
end

--- An item's alerts in words, joined by `, ` (`1 hour before, at 2026-11-22 08:30 UTC`); nil when none.
function M.alerts_words(item)
  local alerts = value(item.alerts)
  if type(alerts) ~= 'table' or #alerts == 0 then return nil end
  local words = {}
  for i, alert in ipairs(alerts) do words[i] = M.alert_words(alert, item.due) end
  return table.concat(words, ', ')
end

--- The words of a reminder: `"Call Ann", due today 10:00`; with `late`, ` (late)` after them.
function M.words(reminder)
  local item = value(reminder.item) or {}
  local text = quoted(item.title)
  local due = value(item.due)
  if type(due) == 'string' then text = text .. ', due ' .. (render.due(due, false, value(item.dueLocal))) end
  if value(reminder.late) == true then text = text .. ' (late)' end
  return text
end

--- A `reminder/fired` notification: one `vim.notify` line, `taskls: reminder: "Call Ann", due
--- today 10:00`, a warning when it fires late (` (late)` after it).
function M.on_fired(params)
  if type(params) ~= 'table' or type(value(params.item)) ~= 'table' then return end
  table.insert(M.fired, params)
  local late = value(params.late) == true
  client.notify('reminder: ' .. M.words(params), late and levels.WARN or levels.INFO)
end

--- Asks the server for the reminders fired and not yet dismissed nor snoozed; `on_list(reminders)`.
function M.pending(on_list)
  client.request('reminders/list', vim.NIL, function(err, result)
    if err ~= nil then return false end
    local reminders = value(result.reminders) or {}
    if #reminders == 0 then
      client.notify('no reminders waiting', levels.INFO)
      return
    end
    on_list(reminders)
  end)
end

--- How a reminder reads in the picker: its words, then which alert and when it fired; escaped
--- (`render.displayed`), as the picker shows it as it is.
function M.label(reminder)
  local item = value(reminder.item) or {}
  return render.displayed(('%s — %s, fired %s'):format(M.words(reminder), M.alert_words(reminder.alert, item.due),
    M.instant(reminder.firedAt)))
end

--- Lets the user pick one of the pending reminders, then `fn(reminder)`.
function M.pick(prompt, fn)
  M.pending(function(reminders)
    vim.schedule(function()
      vim.ui.select(reminders, { prompt = prompt, format_item = M.label }, function(choice)
        if choice ~= nil then client.guard(fn, choice) end
      end)
    end)
  end)
end

--- Snoozes `reminder` for `minutes` (it fires again then, once across processes).
function M.snooze(reminder, minutes)
  minutes = tonumber(minutes) or 10
  client.request('reminders/snooze', { item = reminder.item.id, fireAt = reminder.fireAt, minutes = minutes },
    function(err)
      if err ~= nil then return false end
      client.notify(('snoozed %s for %s'):format(quoted(reminder.item.title), M.length_words(minutes)), levels.INFO)
    end)
end

--- Dismisses `reminder`: it never fires again and leaves the list.
function M.dismiss(reminder)
  client.request('reminders/dismiss', { item = reminder.item.id, fireAt = reminder.fireAt }, function(err)
    if err ~= nil then return false end
    client.notify('dismissed ' .. quoted(reminder.item.title), levels.INFO)
  end)
end

--- Marks the task of `reminder` done, which dismisses its reminders. A repeating task moves on
--- to its next due instead, and its fired reminders stay pending on the server (taskls-19 does not
--- dismiss them then): this one is dismissed too, as the user said the occurrence is done.
function M.done(reminder)
  client.request('items/update', { id = reminder.item.id, done = true }, function(err, result)
    if err ~= nil then return false end
    if #(value(result.advanced) or {}) == 0 then
      client.notify('done: ' .. quoted(reminder.item.title), levels.INFO)
      return
    end
    require('taskls.repeating').say_advanced(result)
    client.request('reminders/dismiss', { item = reminder.item.id, fireAt = reminder.fireAt }, function() return true end)
  end)
end

--- What can be done with a pending reminder, as the picker of `:TasksReminders` offers it.
M.choices = {
  { label = 'Snooze 10 minutes', run = function(r) M.snooze(r, 10) end },
  { label = 'Snooze 1 hour', run = function(r) M.snooze(r, 60) end },
  { label = 'Dismiss', run = M.dismiss },
  { label = 'Done', run = M.done },
}

--- `:TasksReminders`: pick a pending reminder, then what to do with it.
function M.list()
  M.pick('Reminders', function(reminder)
    vim.ui.select(M.choices, { prompt = render.displayed(M.words(reminder)), format_item = function(c) return c.label end }, function(choice)
      if choice ~= nil then client.guard(choice.run, reminder) end
    end)
  end)
end

--- `:TasksSnooze [length]`: pick a pending reminder and snooze it for `length` (`10m`, `1h`, `2d`
--- or minutes, as the REPL reads it; 10 minutes by default).
function M.snooze_picked(length)
  local minutes = 10
  if length ~= nil and vim.trim(length) ~= '' then
    minutes = M.length(vim.trim(length))
    if minutes == nil then
      client.notify(("snooze: '%s' is not a length; such as 10m, 1h, 2d"):format(vim.trim(length)), levels.WARN)
      return
    end
  end
  M.pick('Snooze', function(reminder) M.snooze(reminder, minutes) end)
end

--- `:TasksDismiss`: pick a pending reminder and dismiss it.
function M.dismiss_picked()
  M.pick('Dismiss', M.dismiss)
end

return M

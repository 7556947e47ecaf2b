-- Reminders: the plugin watches from the server's start; a fired alert is one vim.notify line
-- (late: a warning); :TasksReminders, :TasksSnooze and :TasksDismiss act on the pending ones. The
-- server runs on a manual clock, moved with debug/setClock (what fires comes before its answer).
local h = require('helpers')

local start = { '--clock', '2026-11-22T07:00:00Z' }

local function set_clock(now) return h.request('debug/setClock', { now = now }) end

-- The reminder lines notified, without the `taskls: ` prefix.
local function reminders_said()
  local lines = {}
  for _, note in ipairs(h.notes) do
    local text = tostring(note.message)
    if text:find('^taskls: reminder') then table.insert(lines, { text = text:gsub('^taskls: ', ''), level = note.level }) end
  end
  return lines
end

local function pending() return h.request('reminders/list').reminders end

return {
  { 'a fired alert is notified once with the title and the due; snooze fires it again, dismiss ends it', function()
    h.setup({ time_zone = 'UTC', args = start })
    h.seed('Home', { { title = 'Call Ann', due = '2026-11-22T10:00:00Z', alerts = { { offset = -60 } } } })
    set_clock('2026-11-22T08:59:00Z')
    h.eq({}, reminders_said(), 'not yet')
    set_clock('2026-11-22T09:00:00Z')
    h.eq({ { text = 'reminder: "Call Ann", due today 10:00', level = vim.log.levels.INFO } }, reminders_said(), 'fired')
    set_clock('2026-11-22T09:05:00Z')
    h.eq(1, #reminders_said(), 'once')
    h.eq(1, #pending(), 'pending')
    -- :TasksReminders: pick the reminder, then what to do with it.
    local offered = {}
    local select = vim.ui.select
    vim.ui.select = function(items, opts, on_choice)
      for _, it in ipairs(items) do table.insert(offered, opts.format_item and opts.format_item(it) or it) end
      select(items, opts, on_choice)
    end
    h.answers = { 1, 'Snooze 10 minutes' }
    vim.cmd('TasksReminders')
    h.wait(function() return h.notified('snoozed') end, 'the snooze')
    h.eq('taskls: snoozed "Call Ann" for 10 minutes', h.notified('snoozed').message)
    h.eq('"Call Ann", due today 10:00 — 1 hour before, fired 2026-11-22 09:00 UTC', offered[1], 'the picker')
    h.eq({ 'Snooze 10 minutes', 'Snooze 1 hour', 'Dismiss', 'Done' }, vim.list_slice(offered, 2), 'the choices')
    h.eq(0, #pending(), 'snoozed: not pending')
    set_clock('2026-11-22T09:14:00Z')
    h.eq(1, #reminders_said(), 'not before the snooze ends')
    set_clock('2026-11-22T09:15:30Z')
    h.eq(2, #reminders_said(), 'fired again')
    h.eq('reminder: "Call Ann", due today 10:00', reminders_said()[2].text)
    h.answers = { 1 }
    vim.cmd('TasksDismiss')
    h.wait(function() return h.notified('dismissed') end, 'the dismissal')
    h.eq('taskls: dismissed "Call Ann"', h.notified('dismissed').message)
    h.eq(0, #pending(), 'gone from the list')
    set_clock('2026-11-22T11:00:00Z')
    h.eq(2, #reminders_said(), 'never again')
    vim.cmd('TasksReminders')
    h.wait(function() return h.notified('no reminders waiting') end, 'nothing pending')
    vim.cmd('silent checkhealth taskls')
    local health = table.concat(h.lines(vim.api.nvim_get_current_buf()), '\n')
    h.truthy(health:find('reminders: shown as they fire (2 so far', 1, true), 'the health check: ' .. health)
    h.eq(0, #h.errors)
  end },

  { 'a late reminder is a warning that says late; :TasksSnooze 1h and Done from the picker', function()
    h.setup({ time_zone = 'UTC', args = start })
    local _, ids = h.seed('Home', {
      { title = 'Stand-up', due = '2026-11-23', alerts = { { offset = 540 } } },
      { title = 'Pay rent', due = '2026-11-23', ['repeat'] = { rule = 'FREQ=MONTHLY', from = 'due' }, alerts = { { at = '2026-11-22T08:00:00Z' } } },
    })
    set_clock('2026-11-23T09:30:00Z')
    local said = reminders_said()
    h.eq(2, #said, 'both fired: ' .. vim.inspect(said))
    h.eq({ text = 'reminder: "Pay rent", due today (late)', level = vim.log.levels.WARN }, said[1], 'the late one first')
    h.eq({ text = 'reminder: "Stand-up", due today (late)', level = vim.log.levels.WARN }, said[2])
    h.answers = { 2 }
    vim.cmd('TasksSnooze 1h')
    h.wait(function() return h.notified('snoozed') end, 'the snooze')
    h.eq('taskls: snoozed "Stand-up" for 1 hour', h.notified('snoozed').message)
    vim.cmd('TasksSnooze soon')
    h.eq("taskls: snooze: 'soon' is not a length; such as 10m, 1h, 2d", h.notified('is not a length').message)
    h.eq({ 10, 90, 120, 2880, nil, nil }, { require('taskls.reminders').length('10'), require('taskls.reminders').length('90m'),
      require('taskls.reminders').length('2h'), require('taskls.reminders').length('2d'),
      require('taskls.reminders').length('0'), require('taskls.reminders').length('1w') })
    h.answers = { 1, 'Done' }
    vim.cmd('TasksReminders')
    h.wait(function() return h.notified('repeats') end, 'the repeating task moved on')
    h.eq('taskls: "Pay rent" repeats (every month): next due 2026-12-23', h.notified('repeats').message)
    h.eq('2026-12-23', h.request('items/get', { id = ids[2] }).due)
    h.eq(0, #pending(), 'done dismissed it')
    set_clock('2026-11-23T10:29:00Z')
    h.eq(2, #reminders_said(), 'not before the hour is up')
    set_clock('2026-11-23T10:30:00Z')
    h.eq('reminder: "Stand-up", due today', reminders_said()[3].text, 'the snoozed one, on time')
  end },

  { 'with reminders = false nothing fires here; the next watching server fires what was missed, late', function()
    h.setup({ time_zone = 'UTC', args = start, reminders = false })
    h.seed('Home', { { title = 'Call Ann', due = '2026-11-22T10:00:00Z', alerts = { { offset = -60 } } } })
    set_clock('2026-11-22T09:30:00Z')
    h.eq({}, reminders_said(), 'not watching')
    h.eq(nil, require('taskls.client').stats.requests['reminders/watch'], 'never asked')
    h.setup({ time_zone = 'UTC', args = { '--clock', '2026-11-22T09:30:00Z' } })
    require('taskls').restart()
    h.request('server/ping')
    h.wait(function() return #reminders_said() == 1 end, 'the missed reminder')
    h.eq({ text = 'reminder: "Call Ann", due today 10:00 (late)', level = vim.log.levels.WARN }, reminders_said()[1])
  end },

  { 'alerts in words: offsets from a due day or a due time, and instants', function()
    local words = require('taskls.reminders').alert_words
    h.eq('on the day at 09:00', words({ offset = 540 }, '2026-11-23'))
    h.eq('the day before at 18:00', words({ offset = -360 }, '2026-11-23'))
    h.eq('2 days before at 09:00', words({ offset = -2340 }, '2026-11-23'))
    h.eq('the day after at 00:30', words({ offset = 1470 }, '2026-11-23'))
    h.eq('1 hour before', words({ offset = -60 }, '2026-11-23T10:00:00Z'))
    h.eq('1 day 2 hours 5 minutes after', words({ offset = 1565 }, '2026-11-23T10:00:00Z'))
    h.eq('at the due', words({ offset = 0 }, '2026-11-23T10:00:00Z'))
    h.eq('at 2026-11-22 08:30 UTC', words({ at = '2026-11-22T08:30:00.000Z' }, nil))
  end },
}

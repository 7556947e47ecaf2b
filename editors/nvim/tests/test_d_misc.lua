-- The health check, the compatibility shim, configurable keys, the add shorthand.
local h = require('helpers')
local api = vim.api

return {
  { ':checkhealth taskls finds the binary, its version and the store', function()
    vim.cmd('silent checkhealth taskls')
    local text = table.concat(h.lines(api.nvim_get_current_buf()), '\n')
    h.truthy(text:find('taskls 0%.'), 'the version: ' .. text)
    h.truthy(text:find('store: '), 'the store')
    h.truthy(text:find('OK'), 'an OK line')
  end },

  { 'the shim calls method-style clients (0.11+) with : and closure clients (0.7) with .', function()
    local compat = require('taskls.compat')
    local calls = {}
    local Class = {}
    Class.__index = Class
    function Class:request(method, _, handler) table.insert(calls, { self = self, method = method }); handler(nil, 'ok') end
    function Class:is_stopped() return self.stopped end
    local object = setmetatable({ stopped = false }, Class)
    local got
    compat.request(object, 'server/ping', {}, function(_, result) got = result end)
    h.eq('ok', got)
    h.eq(object, calls[1].self, 'called with self')
    h.eq(false, compat.is_stopped(object))
    local closure = { request = function(method, _, handler) table.insert(calls, { method = method }); handler(nil, 'old') end }
    compat.request(closure, 'server/ping', {}, function(_, result) got = result end)
    h.eq('old', got)
    h.eq('server/ping', calls[2].method)
  end },

  { 'keys are configurable and can be unmapped', function()
    h.setup({ keymaps = { toggle = 'T', delete = false } })
    local list = h.seed('Keys', { 'A' })
    local pane = h.open({ list = list, name = 'Keys' })
    api.nvim_set_current_buf(pane.buf)
    local maps = {}
    for _, m in ipairs(api.nvim_buf_get_keymap(pane.buf, 'n')) do maps[m.lhs] = true end
    h.truthy(maps.T, 'T mapped')
    h.eq(nil, maps.x, 'x not mapped')
    h.eq(nil, maps.dd, 'dd not mapped')
    h.keys('T')
    h.wait(function() return pane.rows[1].done end, 'T toggles')
  end },

  { 'a stored title is escaped for the edit prompt, so it reads back as itself', function()
    local escape = require('taskls.actions').escape
    h.eq('Fix \\#42 in C# \\due:x \\!urgent \\@home \\^2 \\// \\\\n', escape('Fix #42 in C# due:x !urgent @home ^2 // \\n'))
    local answer = h.request('text/parseItem', { text = escape('Fix #42 in C# due:x !urgent @home ^2 // \\n') })
    h.eq('Fix #42 in C# due:x !urgent @home ^2 // \\n', answer.fields.title)
    -- The words of repeats and alerts too: `every`, repeater cookies, `remind`.
    local title = 'Remind Bob every day at +1w .+3d ++2m remind 1h before'
    h.eq('\\Remind Bob \\every day at \\+1w \\.+3d \\++2m \\remind 1h before', escape(title))
    local back = h.request('text/parseItem', { text = escape(title) })
    h.eq(title, back.fields.title)
    h.eq(nil, back.fields['repeat'])
    h.eq(nil, back.fields.alerts)
  end },

  { 'a smart-group pane shows the list of each row and adds to the row\'s list', function()
    local list = h.seed('Home', { 'Sweep' })
    h.seed('Work', { 'Report' })
    require('taskls.overview').open()
    h.wait(function() return #require('taskls.client').state.lists == 2 end, 'list names')
    local pane = h.open({ group = 'all' })
    api.nvim_set_current_buf(pane.buf)
    -- The list's column (14 cells) comes before the tags: the title takes 120 - 62 cells.
    local function line(title, list) return ('  [ ] %-58s  %-19s  %-3s  %s'):format(title, '', '', list) end
    h.eq({ line('Sweep', '(Home)'), line('Report', '(Work)') }, h.lines(pane.buf))
    api.nvim_win_set_cursor(0, { 1, 0 })
    h.answers = { 'Dishes' }
    h.keys('o')
    h.wait(function() return pane.count == 3 end, 'the new row')
    h.eq(line('Dishes', '(Home)'), h.lines(pane.buf)[2])
    h.eq(list, pane.rows[2].list)
  end },
}

-- The overview pane, the plugin's startup, and a broken server.
local h = require('helpers')
local api = vim.api

return {
  { 'the overview shows smart groups and lists with live counts', function()
    h.seed('Groceries', { 'Milk', 'Eggs' })
    vim.cmd('Tasks')
    local buf = api.nvim_get_current_buf()
    h.wait(function() return table.concat(h.lines(buf), '\n'):find('Groceries') end, 'the list in the overview')
    local text = table.concat(h.lines(buf), '\n')
    h.truthy(text:find('Smart groups'), 'the smart groups heading')
    h.truthy(text:find('Today'), 'Today')
    h.truthy(text:find('Groceries%s+2/2'), 'counts 2/2: ' .. text)
    -- A change made elsewhere arrives through lists/changed.
    h.seed('Work', { 'Report' })
    h.wait(function() return table.concat(h.lines(buf), '\n'):find('Work%s+1/1') end, 'the new list')
  end },

  { 'a shared list shows its sync state; S syncs, and a refusal says why', function()
    h.seed('Groceries', { 'Milk' })
    vim.cmd('Tasks')
    local buf = api.nvim_get_current_buf()
    h.wait(function() return table.concat(h.lines(buf), '\n'):find('Groceries') end, 'the list')
    local overview = h.request('lists/list')
    local id = overview.lists[1].id
    -- What taskls-sync leaves beside the store after a sync that found the server down (replaced whole, as it does).
    local state = { lists = { { list = id, account = 'home', calendar = '/ann/groceries/', state = 'offline', syncedAt = vim.NIL,
      message = 'dav.example.com cannot be reached: timed out', waiting = 2, notices = {} } } }
    local file = assert(io.open(h.store .. '/sync-state.json.tmp', 'w'))
    file:write(vim.fn.json_encode(state))
    file:close()
    assert(os.rename(h.store .. '/sync-state.json.tmp', h.store .. '/sync-state.json'))
    h.wait(function() return table.concat(h.lines(buf), '\n'):find('Groceries%s+1/1  offline, 2 waiting') end, 'the offline state')
    h.truthy(table.concat(h.lines(buf), '\n'):find('dav.example.com cannot be reached'), 'why: ' .. table.concat(h.lines(buf), '\n'))
    -- A sync under way says how far it has sent.
    local words = require('taskls.overview').sync_words
    h.eq('syncing, 3 of 10 sent', (words({ state = 'syncing', progress = { sent = 3, total = 10 } })))
    h.eq('syncing…', (words({ state = 'syncing', progress = vim.NIL })))
    -- S asks the server to sync: the sync program finds no account, and the pane says so.
    h.keys('S')
    h.wait(function() return h.notified('no account') end, 'the refusal')
    h.eq(0, #h.errors, 'Lua errors')
  end },

  { '<CR> on a list opens a list pane', function()
    h.seed('Groceries', { 'Milk', 'Eggs' })
    vim.cmd('Tasks')
    local buf = api.nvim_get_current_buf()
    h.wait(function() return table.concat(h.lines(buf), '\n'):find('Groceries') end, 'the list')
    for i, line in ipairs(h.lines(buf)) do
      if line:find('Groceries') then api.nvim_win_set_cursor(0, { i, 0 }) end
    end
    h.keys('<CR>')
    local pane = require('taskls.pane').get()
    h.truthy(pane, 'a pane in the current buffer')
    h.wait(function() return pane.count == 2 end, 'the rows')
    h.eq({ '  [ ] Milk', '  [ ] Eggs' }, h.lines(pane.buf), 'pane lines')
    h.truthy(api.nvim_buf_get_name(pane.buf):find('taskls://Groceries'), 'buffer name')
  end },

  { 'works with no setup call (taskls on PATH); a in the overview creates a list', function()
    require('taskls.config').set(nil)
    vim.env.PATH = vim.fn.fnamemodify(h.bin, ':h') .. ':' .. vim.env.PATH
    vim.env.TASKLS_STORE = h.store
    vim.cmd('Tasks')
    vim.env.TASKLS_STORE = nil
    local buf = api.nvim_get_current_buf()
    h.wait(function() return table.concat(h.lines(buf), '\n'):find('No lists') end, 'the empty overview')
    h.answers = { 'Errands' }
    h.keys('a')
    h.wait(function() return table.concat(h.lines(buf), '\n'):find('Errands%s+0/0') end, 'the created list')
  end },

  { 'a server that cannot start is one error notification, no Lua error', function()
    h.setup({ cmd = { '/nonexistent/taskls' } })
    vim.cmd('Tasks')
    h.truthy(h.notified('cannot start the server', vim.log.levels.ERROR), 'an error notification')
    h.eq(0, #h.errors, 'Lua errors')
  end },

  { 'a server that dies is reported and r restarts it', function()
    h.seed('Inbox', { 'One' })
    local pane = h.open({ group = 'all' })
    local client = require('taskls.client')
    local pid = client.state.client.rpc and client.state.client.rpc.pid
    if pid == nil then return end -- the pid is not exposed on this Neovim: nothing more to check
    vim.loop.kill(pid, 'sigkill')
    h.wait(function() return pane.stopped end, 'the pane to see the server stop')
    h.truthy(h.lines(pane.buf)[1]:find('server stopped'), 'the stopped line')
    h.truthy(h.notified('exited with code', vim.log.levels.ERROR), 'the exit notified')
    api.nvim_set_current_buf(pane.buf)
    h.keys('r')
    h.wait(function() return h.lines(pane.buf)[1]:find('^  %[ %] One ') ~= nil end, 'the pane on a new server')
  end },
}

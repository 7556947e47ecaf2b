-- Test helpers: a fresh plugin and store per test, waiting on conditions (never sleeping),
-- stubbed prompts, captured notifications, and store fixtures made through the real binary.
local uv = vim.loop
local api = vim.api

local h = { errors = {}, notes = {}, answers = {}, serial = 0 }

--- Neovim's own prompts, before any test stubs them (a test may put them back).
h.real_input, h.real_select = vim.ui.input, vim.ui.select

h.bin = vim.env.TASKLS_BIN
h.tmp = vim.env.TASKLS_TEST_TMP or vim.fn.tempname()
vim.fn.mkdir(h.tmp, 'p')
vim.env.TASKLS_STORE = nil -- it would win over the store a test chooses

--- A new empty store directory.
function h.new_store()
  h.serial = h.serial + 1
  local dir = ('%s/store-%d'):format(h.tmp, h.serial)
  vim.fn.delete(dir, 'rf')
  return dir
end

function h.before_each()
  h.errors, h.notes, h.answers = {}, {}, {}
  vim.notify = function(message, level)
    table.insert(h.notes, { message = message, level = level or vim.log.levels.INFO })
    if tostring(message):find('internal error', 1, true) then table.insert(h.errors, message) end
  end
  -- Prompts answer from h.answers (a queue); an empty queue cancels.
  vim.ui.input = function(_, on_confirm) on_confirm(table.remove(h.answers, 1)) end
  vim.ui.select = function(items, opts, on_choice)
    local answer = table.remove(h.answers, 1)
    for i, item in ipairs(items) do
      local label = opts and opts.format_item and opts.format_item(item) or item
      if answer ~= nil and (label == answer or (type(item) == 'table' and (item.by == answer or item.id == answer))) then
        return on_choice(item, i)
      end
      if type(answer) == 'number' and answer == i then return on_choice(item, i) end
    end
    on_choice(nil, nil)
  end
  h.store = h.new_store()
  h.setup()
end

--- (Re)configures the plugin; the server is started on first use.
function h.setup(options)
  options = options or {}
  local args = options.args or {}
  local cmd = { h.bin, 'serve', '--store', options.store or h.store }
  for _, a in ipairs(args) do table.insert(cmd, a) end
  options.cmd = options.cmd or cmd
  options.args, options.store = nil, nil
  options.margin = options.margin or 20
  require('taskls').setup(options)
end

function h.after_each()
  pcall(function() require('taskls').stop() end)
  for _, win in ipairs(api.nvim_list_wins()) do
    if api.nvim_win_get_config(win).relative ~= '' then pcall(api.nvim_win_close, win, true) end
  end
  vim.cmd('silent! %bwipeout!')
  for name in pairs(package.loaded) do
    if name == 'taskls' or name:match('^taskls%.') then package.loaded[name] = nil end
  end
  vim.cmd('silent! only!')
end

--- Waits (processing events) until `cond()` is true; fails the test after `timeout` ms.
function h.wait(cond, what, timeout)
  local last
  local ok = vim.wait(timeout or 8000, function()
    local good, result = pcall(cond)
    last = good and result or result
    return good and result
  end, 5)
  if not ok then error('timed out waiting for ' .. (what or 'a condition') .. (last and (' (' .. tostring(last) .. ')') or ''), 2) end
end

--- Sends a request through the plugin's client and waits for its answer; returns result, err.
function h.request(method, params)
  local done, result, error_ = false, nil, nil
  require('taskls.client').request(method, params or vim.empty_dict(), function(err, res)
    done, result, error_ = true, res, err
    return true
  end)
  h.wait(function() return done end, 'the answer to ' .. method)
  return result, error_
end

--- The lines of a buffer.
function h.lines(buf, first, last)
  return api.nvim_buf_get_lines(buf, first or 0, last or -1, false)
end

function h.eq(expected, actual, what)
  if not vim.deep_equal(expected, actual) then
    error(('%s: expected %s, got %s'):format(what or 'value', vim.inspect(expected), vim.inspect(actual)), 2)
  end
end

function h.truthy(v, what)
  if not v then error((what or 'condition') .. ' is false', 2) end
  return v
end

--- Creates a list and items through the server; returns the list id and the item ids.
function h.seed(name, titles)
  local created = h.request('lists/create', { name = name })
  local ids = {}
  for _, title in ipairs(titles or {}) do
    local fields = type(title) == 'table' and title or { title = title }
    fields.list = created.list.id
    local item = h.request('items/create', fields)
    table.insert(ids, item.item.id)
  end
  return created.list.id, ids
end

--- Opens a pane and waits until it is ready; returns it.
function h.open(source, opts)
  local pane = require('taskls').open(source, opts)
  h.wait(function() return pane.version ~= nil end, 'the pane to open')
  return pane
end

--- The item lines of a pane in the window (its rows rendered), as titles.
function h.titles(pane)
  local titles = {}
  for _, row in ipairs(pane.rows) do table.insert(titles, row.kind == 'header' and ('== ' .. row.title) or row.title) end
  return titles
end

--- Asserts the buffer shows exactly the pane's rows where the window is, placeholders elsewhere,
--- and one line per row of the view.
function h.check_buffer(pane)
  local lines = h.lines(pane.buf)
  h.eq(pane.count, #lines, 'buffer lines = view count')
  local render = require('taskls.render')
  local context = pane:context()
  for i, row in ipairs(pane.rows) do
    local expected = render.row(row, context)
    h.eq(expected, lines[pane.window.start + i], 'line ' .. (pane.window.start + i))
  end
  local placeholder = render.placeholder()
  for i = 1, pane.window.start do
    if lines[i] ~= placeholder then error('line ' .. i .. ' should be a placeholder: ' .. lines[i]) end
  end
end

function h.notified(pattern, level)
  for _, note in ipairs(h.notes) do
    if tostring(note.message):find(pattern) and (level == nil or note.level == level) then return note end
  end
  return nil
end

--- Feeds keys as typed (mappings apply) and runs them now.
function h.keys(keys)
  api.nvim_feedkeys(api.nvim_replace_termcodes(keys, true, false, true), 'mx', false)
end

-- Fixtures made by the real binary, without the plugin ------------------------------------------

local function frame(tbl)
  local body = vim.json.encode(tbl)
  return 'Content-Length: ' .. #body .. '\r\n\r\n' .. body
end

--- Runs the server on `store`, sends the messages `build(send)` makes, and waits until the
--- answer to the request with id `last_id` arrives. Returns every answer body joined.
function h.drive_server(store, messages, last_id, timeout)
  local stdin, stdout = uv.new_pipe(false), uv.new_pipe(false)
  local chunks, finished = {}, false
  local handle = uv.spawn(h.bin, { args = { 'serve', '--store', store }, stdio = { stdin, stdout, nil } },
    function() finished = true end)
  assert(handle, 'cannot start ' .. tostring(h.bin))
  local needle = '"id":' .. last_id .. ','
  local tail = ''
  local seen = false
  stdout:read_start(function(_, data)
    if data then
      table.insert(chunks, data)
      if (tail .. data):find(needle, 1, true) then seen = true end
      tail = data:sub(-64)
    end
  end)
  stdin:write(messages)
  h.wait(function() return seen end, 'the server to answer request ' .. last_id, timeout or 30000)
  stdin:write(frame({ jsonrpc = '2.0', id = last_id + 1, method = 'shutdown' }) .. frame({ jsonrpc = '2.0', method = 'exit' }))
  h.wait(function() return finished end, 'the fixture server to exit')
  stdout:read_stop()
  stdin:close()
  stdout:close()
  handle:close()
  return table.concat(chunks)
end

--- A copy of a store directory (for a test that changes a shared fixture).
function h.copy_store(dir)
  local copy = h.new_store()
  vim.fn.system({ 'cp', '-r', dir, copy })
  assert(vim.v.shell_error == 0, 'cp failed')
  return copy
end

--- A store with one list "Big" of `n` items ("Task 1".."Task n"), made once per run; returns
--- the store directory and the list id.
function h.big_store(n)
  n = n or 100000
  local dir = ('%s/big-%d'):format(h.tmp, n)
  if h.big ~= nil and h.big[dir] then return dir, h.big[dir] end
  vim.fn.delete(dir, 'rf')
  -- `swift test` makes the 100,000-item store once for every editor suite (list l1): a copy will do.
  local shared = os.getenv('TASKLS_TEST_BIG_STORE') or ''
  if n == 100000 and shared ~= '' and vim.fn.isdirectory(shared) == 1 then
    vim.fn.system({ 'cp', '-r', shared, dir })
    assert(vim.v.shell_error == 0, 'cp failed')
    h.big = h.big or {}
    h.big[dir] = 'l1'
    return dir, 'l1'
  end
  local init = frame({ jsonrpc = '2.0', id = 1, method = 'initialize', params = vim.empty_dict() })
    .. frame({ jsonrpc = '2.0', id = 2, method = 'lists/create', params = { name = 'Big' } })
  local answer = h.drive_server(dir, init, 2)
  local list = answer:match('"list":{[^}]-"id":"(l%d+)"') or answer:match('"id":"(l%d+)"')
  assert(list, 'no list id in ' .. answer)
  local parts = {}
  for i = 1, n do
    parts[i] = frame({ jsonrpc = '2.0', id = 10 + i, method = 'items/create', params = { list = list, title = 'Task ' .. i } })
  end
  local messages = frame({ jsonrpc = '2.0', id = 3, method = 'initialize', params = vim.empty_dict() }) .. table.concat(parts)
  -- Under load (CI runs other suites beside this one) 100,000 creations can take a minute or more.
  h.drive_server(dir, messages, 10 + n, 300000)
  h.big = h.big or {}
  h.big[dir] = list
  return dir, list
end

--- A store whose journal has a damaged record followed by valid ones.
function h.damaged_store()
  local dir = h.new_store()
  local messages = frame({ jsonrpc = '2.0', id = 1, method = 'initialize', params = vim.empty_dict() })
    .. frame({ jsonrpc = '2.0', id = 2, method = 'lists/create', params = { name = 'Inbox' } })
  local answer = h.drive_server(dir, messages, 2)
  local list = answer:match('"id":"(l%d+)"')
  -- One server run per item: each record is synced before the next is written, so a damaged
  -- one followed by valid ones is corruption, not a torn tail.
  for i = 1, 3 do
    h.drive_server(dir, frame({ jsonrpc = '2.0', id = 1, method = 'initialize', params = vim.empty_dict() })
      .. frame({ jsonrpc = '2.0', id = 2, method = 'items/create', params = { list = list, title = 'Item ' .. i } }), 2)
  end
  local path = dir .. '/journal'
  local file = assert(io.open(path, 'rb'))
  local bytes = file:read('*a')
  file:close()
  -- Walk the records (a 32-byte header; each record: length u32 LE, crc u32, sequence u64,
  -- durable u64, payload) and flip a byte inside the payload of the second of four.
  local offset = 32
  for _ = 1, 1 do
    local a, b, c, d = bytes:byte(offset + 1, offset + 4)
    offset = offset + 24 + a + b * 256 + c * 65536 + d * 16777216
  end
  local middle = offset + 24 + 2
  local flipped = string.char((bytes:byte(middle) + 1) % 256)
  file = assert(io.open(path, 'wb'))
  file:write(bytes:sub(1, middle - 1) .. flipped .. bytes:sub(middle + 1))
  file:close()
  return dir, list
end

return h

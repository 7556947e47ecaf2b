-- The headless test runner: `nvim --headless -u NONE -i NONE -c 'luafile tests/run.lua'`.
-- Runs every tests/test_*.lua (each returns a list of {name, fn}) against the real taskls binary
-- ($TASKLS_BIN), each test on a fresh store under $TASKLS_TEST_TMP, and ends with the line
-- `nvim: N passed, N failed`; exits 0 only when every test passed. $TASKLS_TEST_FILTER runs the
-- tests whose name contains it.
local function out(line)
  io.stdout:write(line .. '\n')
  io.stdout:flush()
end

local ok, err = xpcall(function()
  local here = debug.getinfo(1, 'S').source:sub(2):match('(.*)/tests/run%.lua$')
  if here == nil or here == '' then here = vim.fn.getcwd() end
  here = vim.fn.fnamemodify(here, ':p'):gsub('/$', '')
  vim.opt.runtimepath:prepend(here)
  package.path = here .. '/tests/?.lua;' .. package.path
  vim.cmd('runtime plugin/taskls.lua')
  vim.o.lines, vim.o.columns = 40, 120

  local v = vim.version()
  out(('Neovim %d.%d.%d (%s)'):format(v.major, v.minor, v.patch, vim.v.progpath))
  local h = require('helpers')
  h.root = here
  local files = vim.fn.globpath(here .. '/tests', 'test_*.lua', false, true)
  table.sort(files)
  local filter = vim.env.TASKLS_TEST_FILTER
  local passed, failed = 0, 0
  local started = vim.loop.hrtime()
  for _, file in ipairs(files) do
    local tests = dofile(file)
    for _, test in ipairs(tests) do
      local name = vim.fn.fnamemodify(file, ':t:r'):gsub('^test_', '') .. ': ' .. test[1]
      if filter == nil or filter == '' or name:find(filter, 1, true) then
        local t0 = vim.loop.hrtime()
        h.before_each()
        local good, message = xpcall(test[2], debug.traceback)
        local cleaned, cleanup_error = pcall(h.after_each)
        if good and not cleaned then good, message = false, 'cleanup: ' .. tostring(cleanup_error) end
        if good and #h.errors > 0 then good, message = false, 'Lua errors notified: ' .. table.concat(h.errors, ' | ') end
        local ms = math.floor((vim.loop.hrtime() - t0) / 1e6)
        if good then
          passed = passed + 1
          out(('ok   %s (%d ms)'):format(name, ms))
        else
          failed = failed + 1
          out(('FAIL %s (%d ms)\n     %s'):format(name, ms, tostring(message):gsub('\n', '\n     ')))
        end
      end
    end
  end
  out(('nvim: %d passed, %d failed (%.1f s)'):format(passed, failed, (vim.loop.hrtime() - started) / 1e9))
  if failed > 0 or passed == 0 then vim.cmd('cquit 1') end
end, debug.traceback)

if not ok then
  out('runner error: ' .. tostring(err))
  out('nvim: 0 passed, 1 failed')
  vim.cmd('cquit 1')
end
vim.cmd('qall!')

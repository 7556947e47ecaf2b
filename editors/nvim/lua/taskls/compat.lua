-- The only place that knows Neovim versions differ: every API that moved between 0.7.2 and
-- 0.11+ is reached through here, chosen by feature detection.
local M = {}

--- libuv (`vim.uv` from 0.10, `vim.loop` before).
M.uv = vim.uv or vim.loop

--- Starts an LSP client that is attached to no buffer; returns its id or nil and an error.
function M.start_client(config)
  local ok, id
  if vim.lsp.config ~= nil and vim.lsp.start ~= nil then
    -- 0.11+: `start_client` is deprecated; `start` with `attach = false` replaces it. Never an
    -- existing client: `start` would hand back one of the same name and root that is still
    -- stopping (a restart right after a stop), whose id then names no client.
    ok, id = pcall(vim.lsp.start, config, { attach = false, reuse_client = function() return false end })
  else
    ok, id = pcall(vim.lsp.start_client, config)
  end
  if not ok then return nil, tostring(id) end
  if id == nil then return nil, 'the LSP client did not start' end
  return id
end

--- The client object for an id, or nil.
function M.get_client(id)
  return vim.lsp.get_client_by_id(id)
end

-- 0.11+ clients are objects whose class has a `request` method (`client:request`);
-- before, `request` and `stop` are closures stored on the client (`client.request`).
local function has_methods(client)
  local meta = getmetatable(client)
  return meta ~= nil and type(meta.__index) == 'table' and type(meta.__index.request) == 'function'
end

--- Sends a request; `callback(err, result)` runs when its answer arrives. Returns success.
function M.request(client, method, params, callback)
  local function handler(err, result) callback(err, result) end
  if has_methods(client) then
    return client:request(method, params, handler)
  end
  return client.request(method, params, handler)
end

--- Stops a client (a polite `shutdown` and `exit`).
function M.stop(client, force)
  if has_methods(client) then return client:stop(force) end
  return client.stop(force)
end

--- Whether a client has stopped.
function M.is_stopped(client)
  if has_methods(client) then return client:is_stopped() end
  return client.is_stopped()
end

--- `WinScrolled` exists from 0.5; where it is missing, scrolling is seen through CursorMoved alone.
M.has_winscrolled = vim.fn.exists('##WinScrolled') == 1

--- Whether the built-in `vim.ui.input` answers nil for Esc alone and '' for an empty line (from
--- 0.9); on 0.7 and 0.8 it answers nil for both.
M.input_tells_cancel = vim.fn.has('nvim-0.9') == 1

--- The health report functions (`vim.health` from 0.8 with new names, `require('health')` on 0.7).
function M.health()
  local h = vim.health
  if h ~= nil and h.start ~= nil then
    return { start = h.start, ok = h.ok, warn = h.warn, error = h.error, info = h.info }
  end
  h = (h ~= nil and h.report_start ~= nil) and h or require('health')
  return { start = h.report_start, ok = h.report_ok, warn = h.report_warn, error = h.report_error, info = h.report_info }
end

--- Highlights columns `first`..`last` (bytes, `last` -1: to the end) of line `line` (0-based)
--- with an extmark (`nvim_buf_add_highlight` is deprecated from 0.11; `hl_group` and `end_col`
--- exist on 0.7.2).
function M.highlight(buf, ns, group, line, first, last)
  if last == -1 then last = #(vim.api.nvim_buf_get_lines(buf, line, line + 1, false)[1] or '') end
  if last <= first then return end
  vim.api.nvim_buf_set_extmark(buf, ns, line, first, { end_col = last, hl_group = group })
end

return M

-- Smart lists: filters saved with a name, over every list or some (`smartLists/*`). The overview
-- shows them with live counts and opens, renames and deletes them; a pane saves its own filter as
-- one (`gF`, `:TasksSaveFilter`).
local client = require('taskls.client')
local render = require('taskls.render')

local levels = vim.log.levels
local value = client.value

local M = {}

-- A stored name in quotes, as it is: `client.notify` shows its message escaped (`render.displayed`).
local function quoted(name)
  return '"' .. tostring(value(name) or '') .. '"'
end

--- The smart list `id` as the last overview gave it, or nil.
function M.find(id)
  for _, smart in ipairs(client.state.smart_lists or {}) do
    if smart.id == id then return smart end
  end
  return nil
end

local priority_rank = { none = 0, low = 1, medium = 2, high = 3 }

--- The filter that matches what both `a` and `b` match (every member of a filter is a condition
--- that must hold), or nil and the member that cannot be joined: both give another `text`, another
--- `tagsAnyOf` or another `done`, or due bounds that are not both days. `tagsAllOf` joins (every
--- tag of both), `priorityAtLeast` and due bounds keep the stricter.
function M.join(a, b)
  local joined = {}
  for key, v in pairs(a) do joined[key] = v end
  for key, v in pairs(b) do
    local mine = joined[key]
    if mine == nil or vim.deep_equal(mine, v) then
      joined[key] = v
    elseif key == 'tagsAllOf' then
      local seen, tags = {}, {}
      for _, tag in ipairs(mine) do if not seen[tag] then seen[tag] = true table.insert(tags, tag) end end
      for _, tag in ipairs(v) do if not seen[tag] then seen[tag] = true table.insert(tags, tag) end end
      joined[key] = tags
    elseif key == 'priorityAtLeast' and priority_rank[mine] and priority_rank[v] then
      if priority_rank[v] > priority_rank[mine] then joined[key] = v end
    elseif (key == 'dueBefore' or key == 'dueAfter') and #mine == 10 and #v == 10 then
      -- Two days compare as their text does.
      if (key == 'dueBefore') == (v < mine) then joined[key] = v end
    else
      return nil, key
    end
  end
  return joined
end

--- What `smartLists/create` takes to save the filter of `pane`: its view's `filter`, with `done:
--- "notDone"` added unless the filter says (the Completed group's: `"done"`), and `lists`: the
--- pane's list for a list, null (every list) for a smart group; in a smart list's pane, the
--- smart list's own filter joined with the pane's (`M.join`) over its lists. Nil and the reason
--- when that cannot be said as one filter.
function M.params_for(pane)
  local filter = {}
  for key, v in pairs(value(pane.filter) or {}) do filter[key] = v end
  local lists = vim.NIL
  local source = pane.source
  if source.list ~= nil then
    lists = { source.list }
  elseif source.smartList ~= nil then
    local smart = M.find(source.smartList)
    if smart == nil then return nil, 'the smart list of this pane is not known yet; try again' end
    if next(filter) == nil then
      return nil, ('this pane shows the smart list %s with no filter of its own: F filters it first'):format(quoted(smart.name))
    end
    local joined, member = M.join(value(smart.filter) or {}, filter)
    if joined == nil then
      return nil, ('the filter of this pane and that of %s both set %s: they cannot be saved as one filter')
        :format(quoted(smart.name), member)
    end
    filter = joined
    lists = value(smart.lists) or vim.NIL
  end
  local group = source.group
  if group == 'today' or group == 'scheduled' or group == 'overdue' then
    -- As the REPL says it: a smart list's due bounds are fixed days, the group's move with the day.
    return nil, ('%s changes with the day, and a smart list\'s dates are fixed; open All or a list, filter it, then save')
      :format(group:sub(1, 1):upper() .. group:sub(2))
  end
  if filter.done == nil then filter.done = group == 'completed' and 'done' or 'notDone' end
  return { filter = filter, lists = lists }
end

--- The smart lists named `name`, ignoring case.
local function named(name)
  local found = {}
  for _, smart in ipairs(client.state.smart_lists or {}) do
    if vim.fn.tolower(smart.name) == vim.fn.tolower(name) then table.insert(found, smart) end
  end
  return found
end

--- Saves the filter of `pane` as a smart list named `name` (asked for when nil); one line says so.
--- A name a smart list has already (ignoring case) is refused: the prompt opens again, saying why.
function M.save(pane, name)
  local params, problem = M.params_for(pane)
  if params == nil then
    client.notify(problem, levels.WARN)
    return
  end
  local ask
  local function create(text)
    if text == nil or text:match('^%s*$') then return end
    if #named(text) > 0 then
      local taken = ('there is already a smart list named %s; pick another name'):format(text)
      if name ~= nil and name ~= '' then return client.notify(taken, levels.WARN) end
      return vim.schedule(function() ask(text, taken) end)
    end
    params.name = text
    client.request('smartLists/create', params, function(err, result)
      if err ~= nil then return false end
      local count = tonumber(value(result.smartList.count)) or 0
      client.notify(('saved smart list %s: %d %s now; open it from the overview (-) or with :Tasks %s'):format(
        quoted(result.smartList.name), count, count == 1 and 'task' or 'tasks', result.smartList.name), levels.INFO)
    end)
  end
  ask = function(default, why)
    vim.ui.input({ prompt = require('taskls.actions').prompt_text('Save the filter as the smart list', nil, why), default = default },
      create)
  end
  if name ~= nil and name ~= '' then return create(name) end
  ask(nil, nil)
end

--- Renames the smart list of `entry` (an overview entry) from a prompt.
function M.rename(entry)
  vim.ui.input({ prompt = 'Name: ', default = entry.name }, function(text)
    if text == nil or text:match('^%s*$') or text == entry.name then return end
    client.request('smartLists/update', { id = entry.smartList, name = text })
  end)
end

--- Deletes the smart list of `entry` after asking (its tasks stay where they are).
function M.delete(entry)
  vim.ui.select({ 'Delete the smart list ' .. render.displayed(quoted(entry.name)) .. ' (its tasks stay)', 'Cancel' },
    { prompt = 'Delete the smart list?' }, function(_, index)
      if index == 1 then client.request('smartLists/delete', { id = entry.smartList }) end
    end)
end

return M

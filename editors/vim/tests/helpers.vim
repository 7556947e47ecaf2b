vim9script
# Test helpers: a fresh store and plugin state per test, waiting on conditions (never a fixed
# sleep), requests through the plugin's own client, and store fixtures made through the real
# binary.

import autoload 'taskls/client.vim'
import autoload 'taskls/prompt.vim'
import autoload 'taskls/view.vim'
import autoload 'taskls/pane.vim'
import autoload 'taskls/overview.vim'
import autoload 'taskls/actions.vim'
import autoload 'taskls/form.vim'
import autoload 'taskls/render.vim'
import autoload 'taskls/reminders.vim'

export const bin = $TASKLS_BIN
export const tmp = $TASKLS_TEST_TMP
var serial = 0
export var store = ''

# A new empty store directory (not created: the server creates it).
export def NewStore(): string
  serial += 1
  var dir = printf('%s/store-%d', tmp, serial)
  delete(dir, 'rf')
  return dir
enddef

# Points the plugin at `dir` (a store), with extra server arguments; the server starts on use.
export def Setup(dir: string, args: list<string> = [])
  g:taskls_cmd = [bin, 'serve', '--store', dir] + args
  g:taskls_margin = 20
enddef

export def BeforeEach()
  store = NewStore()
  Setup(store)
  for name in ['taskls_time_zone', 'taskls_keys', 'taskls_no_maps', 'taskls_open', 'taskls_icons', 'taskls_title_width']
    if has_key(g:, name)
      remove(g:, name)
    endif
  endfor
  client.state.messages = []
  filter(prompt.prompts, (_, v) => false)
  filter(prompt.menus, (_, v) => false)
  filter(reminders.fired, (_, v) => false)
  filter(reminders.popups, (_, v) => false)
  for name in ['taskls_reminders']
    if has_key(g:, name)
      remove(g:, name)
    endif
  endfor
enddef

# Waits for the menu titled `title` to open; the menu ({title, labels, popup}).
export def WaitMenu(title: string): dict<any>
  Wait(() => !empty(prompt.menus) && prompt.menus[-1].title == title && !empty(popup_getpos(prompt.menus[-1].popup)),
    'the menu ' .. title)
  return prompt.menus[-1]
enddef

export def AfterEach()
  popup_clear(1)
  client.Stop(true)
  pane.CloseAll()
  silent! only!
  silent! :%bwipeout!
  client.state.today = ''
  client.state.lists = []
  client.state.list_names = {}
  client.state.messages = []
  client.stats.requests = {}
  overview.state.buf = 0
enddef

# Waits (letting callbacks and timers run) until `Cond()` is true; after `timeout` ms, fails the
# test with what it waited for.
export def Wait(Cond: func(): bool, what: string, timeout = 10000)
  var deadline = reltime()
  while true
    var ok = false
    try
      ok = Cond()
    catch
      ok = false
    endtry
    if ok
      return
    endif
    if reltimefloat(reltime(deadline)) * 1000 > timeout
      throw 'timed out waiting for ' .. what .. ' (said: ' .. join(Messages()[-3 :], ' | ') .. ')'
    endif
    sleep 5m
  endwhile
enddef

# Sends a request through the plugin's client and waits for the answer: {result} or {error}.
export def Ask(method: string, params: any = null): dict<any>
  var answer: dict<any> = {}
  client.Request(method, params, (result) => {
    answer.result = result
  }, (error) => {
    answer.error = error
    return true
  })
  Wait(() => !empty(answer), method)
  return answer
enddef

# The result of a request that must succeed.
export def Result(method: string, params: any = null): any
  var answer = Ask(method, params)
  if has_key(answer, 'error')
    throw method .. ' failed: ' .. string(answer.error)
  endif
  return answer.result
enddef

# Creates a list named `name` with `items` (titles, or dicts of items/create fields); its id.
export def Seed(name: string, items: list<any>): string
  var list = Result('lists/create', {name: name}).list.id
  for item in items
    var params: dict<any> = type(item) == v:t_string ? {title: item} : copy(item)
    params.list = list
    Result('items/create', params)
  endfor
  return list
enddef

# Opens a pane on `source` in the current window and waits until it shows its view (up to a
# minute: a 100,000-item store opens in seconds, more on a machine busy with builds).
export def Open(source: dict<any>, options: dict<any> = {}): dict<any>
  var p = pane.Open(source, options)
  Wait(() => p.state != '' && p.state != 'loading' || p.state == 'loading' && get(options, 'loading', false), 'the pane to open', 60000)
  return p
enddef

# A pane on a new list `name` with `items`, shown in the current window.
export def PaneOn(items: list<any>, name = 'Groceries', options: dict<any> = {}): dict<any>
  var list = Seed(name, items)
  var p = Open({list: list, name: name}, options)
  return p
enddef

export def Lines(buf: number): list<string>
  return getbufline(buf, 1, '$')
enddef

# The titles of the pane's rows.
export def Titles(p: dict<any>): list<string>
  return mapnew(p.rows, (_, r) => r.title)
enddef

# Types `keys` as the user would (mappings apply) and runs them.
export def Keys(keys: string)
  feedkeys(keys, 'xt')
enddef

# Puts the cursor on the row titled `title`.
export def Goto(p: dict<any>, title: string)
  var i = 0
  for row in p.rows
    if row.title == title
      cursor(p.window.start + i + 1, 1)
      return
    endif
    i += 1
  endfor
  throw 'no row ' .. title
enddef

# Waits for the pane's next version(s), up to `version`.
export def WaitVersion(p: dict<any>, version: number, what: string)
  Wait(() => p.version >= version && !p.resyncing, what)
enddef

# The highlight groups of the text properties on line `lnum` of `buf`.
export def Groups(buf: number, lnum: number): list<string>
  return sort(mapnew(prop_list(lnum, {bufnr: buf}), (_, p) => p.type))
enddef

# Checks the buffer against the model: one line per row of the view, the window's rows rendered
# at their lines, and placeholders (sampled) elsewhere.
export def CheckBuffer(p: dict<any>)
  assert_equal(p.count, getbufinfo(p.buf)[0].linecount, 'one line per row')
  var context = {show_list: !has_key(p.source, 'list'), title_width: p.width}
  var i = 0
  for row in p.rows
    var line = p.window.start + i + 1
    if line > p.count
      break
    endif
    assert_equal(render.Row(row, context)[0], getbufline(p.buf, line)[0], 'line ' .. line)
    i += 1
  endfor
  var placeholder = render.Placeholder()
  for line in [1, p.window.start, p.window.start + len(p.rows) + 1, p.count]
    if line >= 1 && line <= p.count && (line <= p.window.start || line > p.window.start + len(p.rows))
      assert_equal(placeholder, getbufline(p.buf, line)[0], 'placeholder at ' .. line)
    endif
  endfor
enddef

# Messages said to the user (one line each) since the test began.
export def Messages(): list<string>
  return mapnew(copy(client.state.messages), (_, m) => m.message)
enddef

# No internal error was said.
export def NoInternalErrors()
  for m in Messages()
    assert_notmatch('internal error', m)
  endfor
enddef

# Drives a separate server on `dir` with `messages` (requests without ids), waiting for every
# answer; the answers, in order.
export def Drive(dir: string, requests: list<dict<any>>, timeout = 120000): list<any>
  var answers: list<any> = repeat([null], len(requests))
  var count = 0
  var job = job_start([bin, 'serve', '--store', dir], {in_mode: 'lsp', out_mode: 'lsp', err_io: 'null', noblock: 1})
  var channel = job_getchannel(job)
  var i = 0
  for request in requests
    var k = i
    ch_sendexpr(channel, request, {callback: (c, m) => {
      answers[k] = m
      count += 1
    }})
    i += 1
  endfor
  Wait(() => count == len(requests), 'the fixture server', timeout)
  ch_sendexpr(channel, {method: 'shutdown'}, {callback: (c, m) => 0})
  ch_sendexpr(channel, {method: 'exit'})
  Wait(() => job_status(job) != 'run', 'the fixture server to exit')
  return answers
enddef

var big: dict<string> = {}

# A store with one list "Big" of `n` items "Task 1".."Task n" (made once, then copied when
# `copy`): [dir, list id].
export def BigStore(n: number, copy = false): list<string>
  var dir = printf('%s/big-%d', tmp, n)
  var shared = getenv('TASKLS_TEST_BIG_STORE')
  if !has_key(big, dir) && n == 100000 && shared != v:null && shared != '' && isdirectory(shared)
    # `swift test` makes the 100,000-item store once for every editor suite (list l1): a copy will do.
    delete(dir, 'rf')
    system('cp -r ' .. shellescape(shared) .. ' ' .. shellescape(dir))
    big[dir] = 'l1'
  endif
  if !has_key(big, dir)
    delete(dir, 'rf')
    var created = Drive(dir, [{method: 'initialize', params: {}}, {method: 'lists/create', params: {name: 'Big'}}])
    var list = created[1].result.list.id
    # 100,000 requests are framed by awk and piped to the server in one go (the server handles
    # every message before the end of its input, then exits).
    var script = 'BEGIN { m = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}";'
      .. ' printf "Content-Length: %d\r\n\r\n%s", length(m), m;'
      .. ' for (i = 1; i <= n; i++) {'
      .. ' m = sprintf("{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"items/create\",\"params\":{\"list\":\"%s\",\"title\":\"Task %d\"}}", i + 1, list, i);'
      .. ' printf "Content-Length: %d\r\n\r\n%s", length(m), m } }'
    system(printf('LC_ALL=C awk -v n=%d -v list=%s %s | %s serve --store %s >/dev/null 2>&1', n, shellescape(list),
      shellescape(script), shellescape(bin), shellescape(dir)))
    big[dir] = list
  endif
  if !copy
    return [dir, big[dir]]
  endif
  var target = NewStore()
  system('cp -r ' .. shellescape(dir) .. ' ' .. shellescape(target))
  return [target, big[dir]]
enddef

vim9script
# The one taskls server of this Vim, shared by every pane: starting it (a job in LSP mode),
# requests with callbacks (never a blocking call), errors turned into one message line, and the
# routing of its notifications to the panes that show each view.

import autoload 'taskls/config.vim'
import autoload 'taskls/render.vim'
import autoload 'taskls/reminders.vim'

# What the client knows. `views`: view id -> handlers {changed, closed, exit} of the pane showing
# it; `early`: view id -> notifications that came before its pane knew the id.
export var state: dict<any> = {
  job: null_job,
  channel: null_channel,
  initialized: false,
  queue: [],
  views: {},
  early: {},
  overview: {},
  list_names: {},
  lists: [],
  smart_lists: [],
  today: '',
  server_info: {},
  exit_code: -1,
  stderr: [],
  log: [],
  messages: [],
  exiting: false,
  stopping: false,
}

# Counts for tests and :TasksHealth: requests by method.
export var stats: dict<any> = {requests: {}}

# Says `message` on one line ('taskls: ' first) at `level` ('info', 'warn' or 'error'), and keeps
# it in state.messages. The message goes through render.Displayed: what it quotes (stored names,
# what was typed, the server's words) shows escaped, and a line break reads `\n`.
export def Notify(message: string, level = 'info')
  var line = 'taskls: ' .. render.Displayed(message)
  add(state.messages, {message: line, level: level})
  if len(state.messages) > 200
    remove(state.messages, 0, 99)
  endif
  if state.exiting
    return
  endif
  if level == 'error'
    echohl ErrorMsg
  elseif level == 'warn'
    echohl WarningMsg
  endif
  echomsg line
  echohl None
enddef

# `value` as text: a string as it is, anything else as Vim writes it.
export def Text(value: any): string
  return type(value) == v:t_string ? value : string(value)
enddef

# Whether `value` is the boolean true (JSON true), whatever its type.
export def IsTrue(value: any): bool
  return type(value) == v:t_bool && value
enddef

# Whether the server runs.
export def Running(): bool
  return state.job != null_job && job_status(state.job) == 'run'
enddef

# Remembers the overview's list names and order, and the server's day (`today`). A new day
# redraws every pane ("tomorrow" becomes "today").
export def RememberLists(overview: any)
  if type(overview) != v:t_dict
    return
  endif
  var today = get(overview, 'today', '')
  if type(today) == v:t_string && today != '' && today != state.today
    var first = state.today == ''
    state.today = today
    if !first
      for handlers in values(state.views)
        Guard(handlers.redraw, [])
      endfor
    endif
  endif
  if type(get(overview, 'lists', 0)) != v:t_list
    return
  endif
  var names = {}
  for list in overview.lists
    names[list.id] = list.name
  endfor
  state.list_names = names
  state.lists = overview.lists
  var smart_lists = get(overview, 'smartLists', [])
  state.smart_lists = type(smart_lists) == v:t_list ? smart_lists : []
enddef

# Calls `Fn` with `args`; an error in it becomes one message line, never a stack trace.
export def Guard(Fn: any, args: list<any>): any
  try
    return call(Fn, args)
  catch
    Notify('internal error: ' .. v:exception .. ' (' .. v:throwpoint .. ')', 'error')
  endtry
  return null
enddef

def Dispatch(method: string, params: any)
  if state.exiting || type(params) != v:t_dict
    return
  endif
  if method == 'lists/changed'
    RememberLists(params)
    for Listener in values(state.overview)
      Guard(Listener, [params])
    endfor
    return
  endif
  var view = get(params, 'view', '')
  if type(view) != v:t_string
    return
  endif
  if !has_key(state.views, view)
    var early = get(state.early, view, [])
    if len(early) < 1000
      add(early, {method: method, params: params})
    endif
    state.early[view] = early
    return
  endif
  var handlers = state.views[view]
  if method == 'view/changed'
    Guard(handlers.changed, [params])
  else
    Guard(handlers.closed, [params])
  endif
enddef

def OnMessage(ch: channel, message: any)
  if type(message) != v:t_dict || !has_key(message, 'method')
    return
  endif
  var method = message.method
  var params = get(message, 'params', {})
  if method == 'view/changed' || method == 'view/closed' || method == 'lists/changed'
    Dispatch(method, params)
  elseif method == 'reminder/fired' && type(params) == v:t_dict
    if !state.exiting
      Guard(reminders.OnFired, [params])
    endif
  elseif method == 'window/showMessage' && type(params) == v:t_dict
    Notify(Text(get(params, 'message', '')), get(params, 'type', 3) == 1 ? 'error' : 'warn')
  elseif method == 'window/logMessage' && type(params) == v:t_dict
    add(state.log, get(params, 'message', ''))
  endif
enddef

def OnStderr(ch: channel, text: string)
  add(state.stderr, text)
  if len(state.stderr) > 100
    remove(state.stderr, 0, 49)
  endif
enddef

def OnExit(job: job, code: number)
  if job != state.job
    return
  endif
  state.exit_code = code
  state.job = null_job
  state.channel = null_channel
  state.initialized = false
  if state.exiting || state.stopping
    return
  endif
  if code != 0
    Notify('the server exited with code ' .. code, 'error')
  endif
  for handlers in values(state.views)
    Guard(handlers.exit, [])
  endfor
  state.views = {}
  state.early = {}
enddef

# Registers the pane handlers {changed, closed, exit, redraw} (funcrefs) of view `view`, and
# hands them what arrived for it before.
export def Register(view: string, handlers: dict<any>)
  state.views[view] = handlers
  var early = get(state.early, view, [])
  if has_key(state.early, view)
    remove(state.early, view)
  endif
  for message in early
    Dispatch(message.method, message.params)
  endfor
enddef

export def Unregister(view: string)
  if has_key(state.views, view)
    remove(state.views, view)
  endif
  if has_key(state.early, view)
    remove(state.early, view)
  endif
enddef

# The level of a server error: a request that could not be carried out (-32803) or addressed an
# old version (-32801) is a warning; anything else an error.
def LevelOf(error: dict<any>): string
  var code = get(error, 'code', 0)
  return code == -32803 || code == -32801 ? 'warn' : 'error'
enddef

def Send(method: string, params: any, OnResult: any, OnError: any)
  stats.requests[method] = get(stats.requests, method, 0) + 1
  var message: dict<any> = {method: method}
  if type(params) != v:t_none
    message.params = params
  endif
  var Callback = (ch: channel, answer: any) => Answered(method, answer, OnResult, OnError)
  try
    ch_sendexpr(state.channel, message, {callback: Callback})
  catch
    Notify('the server is not running (' .. method .. ')', 'error')
  endtry
enddef

def Answered(method: string, answer: any, OnResult: any, OnError: any)
  if state.exiting || type(answer) != v:t_dict
    return
  endif
  if has_key(answer, 'error')
    var error = type(answer.error) == v:t_dict ? answer.error : {message: string(answer.error)}
    var data = get(error, 'data', {})
    error.reason = type(data) == v:t_dict ? get(data, 'reason', '') : ''
    # An OnError that returns true has dealt with the error itself.
    var handled = false
    if type(OnError) == v:t_func
      var answer_of_handler = Guard(OnError, [error])
      handled = type(answer_of_handler) == v:t_bool && answer_of_handler
    endif
    if !handled
      Notify(Text(get(error, 'message', 'request failed')), LevelOf(error))
    endif
    return
  endif
  if type(OnResult) == v:t_func
    Guard(OnResult, [get(answer, 'result', null)])
  endif
enddef

# Starts the server if it does not run. False (having said why) when it cannot.
export def Ensure(): bool
  if Running()
    return true
  endif
  var cmd: list<string> = config.Get('cmd')
  if empty(cmd) || !executable(cmd[0])
    Notify('cannot start the server: ' .. (empty(cmd) ? '(no command)' : cmd[0]) .. ' is not executable (set g:taskls_cmd)', 'error')
    return false
  endif
  state.initialized = false
  state.queue = []
  state.stopping = false
  state.exit_code = -1
  var job = job_start(cmd, {
    in_mode: 'lsp',
    out_mode: 'lsp',
    err_mode: 'nl',
    noblock: 1,
    out_cb: OnMessage,
    err_cb: OnStderr,
    exit_cb: OnExit,
    stoponexit: 'term',
  })
  if job_status(job) != 'run'
    Notify('cannot start the server: ' .. cmd[0], 'error')
    return false
  endif
  state.job = job
  state.channel = job_getchannel(job)
  var options: dict<any> = {}
  var store = config.Get('store')
  if store != ''
    options.store = expand(store)
  endif
  var zone = config.Get('time_zone')
  if zone != ''
    options.timeZone = zone
  endif
  var params = {processId: getpid(), clientInfo: {name: 'vim', version: string(v:version)},
    capabilities: {}, initializationOptions: options}
  Send('initialize', params, Initialized, null)
  return true
enddef

def Initialized(result: any)
  state.server_info = type(result) == v:t_dict ? get(result, 'serverInfo', {}) : {}
  state.initialized = true
  ch_sendexpr(state.channel, {method: 'initialized', params: {}})
  # The server's day (for "today" and "tomorrow") and the names of the lists, kept current by
  # lists/changed.
  Send('lists/list', {watch: true}, RememberLists, (e) => true)
  # The reminders of tasks' alerts, fired by the server as their time comes (g:taskls_reminders);
  # those already due fire at once, before the answer.
  if !!config.Get('reminders')
    Send('reminders/watch', {watch: true}, null, (e) => true)
  endif
  var queue = state.queue
  state.queue = []
  for request in queue
    Send(request[0], request[1], request[2], request[3])
  endfor
enddef

# Sends `method` with `params` (null: none). `OnResult(result)` gets the answer; an error is said
# on one line unless `OnError(error)` returns true for it. Starts the server when needed; requests
# made before `initialize` is answered wait for it.
export def Request(method: string, params: any, OnResult: any = null, OnError: any = null)
  if !Ensure()
    if type(OnError) == v:t_func
      Guard(OnError, [{code: -1, message: 'the server is not running', reason: ''}])
    endif
    return
  endif
  if !state.initialized
    add(state.queue, [method, params, OnResult, OnError])
    return
  endif
  Send(method, params, OnResult, OnError)
enddef

# Stops the server: `shutdown`, `exit`, then the job if it lingers. The panes are told by
# their `exit` handler unless `quiet`.
export def Stop(quiet = false)
  var job = state.job
  var views = state.views
  state.views = {}
  state.early = {}
  state.queue = []
  state.stopping = true
  if job != null_job && job_status(job) == 'run'
    try
      ch_sendexpr(state.channel, {method: 'shutdown'}, {callback: (c, m) => 0})
      ch_sendexpr(state.channel, {method: 'exit'})
    catch
    endtry
    var waited = 0
    while job_status(job) == 'run' && waited < 200
      sleep 10m
      waited += 10
    endwhile
    if job_status(job) == 'run'
      job_stop(job, 'kill')
    endif
  endif
  state.job = null_job
  state.channel = null_channel
  state.initialized = false
  if !quiet && !state.exiting
    for handlers in values(views)
      Guard(handlers.exit, [])
    endfor
  endif
enddef

# On leaving Vim: nothing is drawn any more, and the server is stopped.
export def Leave()
  state.exiting = true
  Stop(true)
enddef

augroup taskls_client
  autocmd!
  autocmd VimLeavePre * Leave()
augroup END

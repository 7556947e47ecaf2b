vim9script
# Repeating tasks in a pane: what completing one says (it moved on to its next due), skipping
# occurrences (`items/skip`), setting or stopping a repeat from a prompt, and the repeat and its
# history in words for the details popup. The repeat's words are the server's (`repeat.text`).

import autoload 'taskls/client.vim'
import autoload 'taskls/render.vim'
import autoload 'taskls/prompt.vim'
import autoload 'taskls/reminders.vim'
import autoload 'taskls/fields.vim'
import autoload 'taskls/actions.vim'

def Quoted(title: any): string
  return '"' .. client.Text(title) .. '"'
enddef

# The titles of `rows` for a message: `"A"`, or `"A", "B"`.
def Named(rows: list<dict<any>>): string
  return join(mapnew(copy(rows), (_, r) => Quoted(get(r, 'title', ''))), ', ')
enddef

# Says, one line each, which tasks of an `items/update` result moved on to their next due
# (`advanced`) rather than becoming done: `"Pay rent" repeats (every month on the 1st): next due
# 2026-12-01`.
export def SayAdvanced(result: any)
  for line in reminders.AdvancedLines(result)
    client.Notify(line)
  endfor
enddef

# A refusal of skip or of a repeat in words (`notRepeating`, `repeatEnded`, `repeatWithoutDue`),
# naming the tasks the server named (`data.ids`), else all of `rows`; '' for another refusal.
export def Refusal(error: dict<any>, rows: list<dict<any>>): string
  var data = get(error, 'data', {})
  var ids = type(data) == v:t_dict ? get(data, 'ids', []) : []
  ids = type(ids) == v:t_list ? ids : []
  var which = filter(copy(rows), (_, r) => index(ids, r.id) >= 0)
  if empty(which)
    which = rows
  endif
  var one = len(which) == 1
  if error.reason == 'notRepeating'
    return Named(which) .. (one ? ' does not repeat' : ' do not repeat') .. ': give a repeat first ('
      .. KeyWord('set_repeat', 'cr') .. ', then every week)'
  elseif error.reason == 'repeatEnded'
    return 'the repeat of ' .. Named(which) .. ' has ended: there is no next due to skip to; '
      .. KeyWord('toggle', 'x') .. ' marks it done'
  elseif error.reason == 'repeatWithoutDue'
    return 'a repeating task needs a due: give ' .. Named(which) .. ' one first (' .. KeyWord('set_due', 'cd')
      .. '), or both at once (' .. KeyWord('edit', 'cc') .. ', then ^mon every week)'
  endif
  return ''
enddef

def KeyWord(action: string, fallback: string): string
  return render.KeyName(action, fallback)
enddef

# Skips the current occurrence of the range's tasks (`items/skip`): each moves on to its next due
# without being done, and one line each says where to (`skipped "Water plants": next due in 3
# days`). A refusal is one warning in words; nothing changes.
export def Skip(visual: bool, count = 1)
  var rows = fields.Targets(visual, count)
  if empty(rows)
    return
  endif
  client.Request('items/skip', {ids: actions.Ids(rows)}, (result) => {
    for item in get(result, 'items', [])
      client.Notify(printf('skipped %s: next due %s', Quoted(item.title), reminders.DueWords(item)))
    endfor
  }, (error) => {
    var words = get(error, 'code', 0) == -32803 ? Refusal(error, rows) : ''
    if words == ''
      return false
    endif
    client.Notify(words, 'warn')
    return true
  })
enddef

# Whether `text` asks to stop repeating: `off`, `none`, `never` or `-`.
export def IsOff(text: string): bool
  return index(['off', 'none', 'never', '-'], tolower(trim(text))) >= 0
enddef

# Sends `items/update` with `values` for `rows`; `OnDone(result)`, or `OnRefused(words)`.
def Update(rows: list<dict<any>>, values: dict<any>, OnDone: func(any), OnRefused: func(string))
  var params = copy(values)
  if len(rows) == 1
    params.id = rows[0].id
  else
    params.ids = actions.Ids(rows)
  endif
  client.Request('items/update', params, OnDone, (error) => {
    var words = get(error, 'code', 0) == -32803 ? Refusal(error, rows) : ''
    OnRefused(words != '' ? words : client.Text(get(error, 'message', 'items/update failed')))
    return true
  })
enddef

# Sets the repeat of `rows` from `text` (`every week`, `every month on the last fri`, `every 3
# days after done`, `+1w`: read by `text/parseItem`), or stops it (`off`: `repeat: null`, the
# history stays). Tasks that have a due keep it; one without a due takes the rule's first day (the
# parse's), so `every mon` on an undated task is due next Monday (a mixed selection is two
# requests). `OnProblem(problem)` gets what was wrong (a warning, words that are no repeat, a
# refusal), after the callback; one line says what changed.
export def Set(rows: list<dict<any>>, text: string, OnProblem: func(string))
  if empty(rows)
    return
  endif
  var Problem = (words: string) => {
    prompt.Later(() => OnProblem(words))
  }
  if IsOff(text)
    Update(rows, {repeat: null}, (result) => {
      client.Notify('no longer repeating: ' .. Named(rows))
    }, Problem)
    return
  endif
  client.Request('text/parseItem', {text: text}, (answer) => {
    var problem = prompt.Problem(answer)
    if problem != ''
      Problem(problem)
      return
    endif
    var parsed = get(answer, 'fields', {})
    var rule = get(parsed, 'repeat', null)
    if type(rule) != v:t_dict || has_key(parsed, 'title')
      Problem(printf('%s is not a repeat: try every week, every mon,wed, every month on the last fri, every 3 days after done, or off', trim(text)))
      return
    endif
    var dated = filter(copy(rows), (_, r) => type(get(r, 'due', null)) == v:t_string)
    var undated = filter(copy(rows), (_, r) => type(get(r, 'due', null)) != v:t_string)
    var Said = (result: any) => {
      var items = type(result) == v:t_dict ? get(result, 'items', []) : []
      client.Notify(printf('repeats %s: %s', empty(items) ? '' : reminders.RepeatText(items[0]), Named(rows)))
    }
    var UndatedToo = (result: any) => {
      if empty(undated)
        Said(result)
        return
      endif
      Update(undated, {repeat: rule, due: get(parsed, 'due', null)}, Said, Problem)
    }
    if empty(dated)
      UndatedToo(null)
      return
    endif
    Update(dated, {repeat: rule}, UndatedToo, Problem)
  }, (error) => {
    Problem(client.Text(get(error, 'message', 'text/parseItem failed')))
    return true
  })
enddef

# `cr`: sets or stops the repeat of the range's tasks from a prompt (`every week`; `off` stops
# it), the current repeat of a single task in the hint; an unreadable answer opens the prompt
# again with the text and why.
export def SetRepeat(visual: bool, count = 1, text = '')
  var rows = fields.Targets(visual, count)
  if empty(rows)
    return
  endif
  Ask(rows, text)
enddef

export def Ask(rows: list<dict<any>>, text: string, again = '', problem = '')
  var hint = 'every week, every mon,wed, every 3 days after done; off stops it'
  var current = len(rows) == 1 ? reminders.RepeatText(rows[0]) : ''
  if current != ''
    hint = 'now ' .. current .. '; ' .. hint
  endif
  var typed = text != '' ? text : prompt.Ask(prompt.Text('Repeat', hint, problem), again)
  if typed =~ '^\s*$'
    return
  endif
  var buf = bufnr()
  Set(rows, typed, (why) => {
    if bufnr() == buf
      Ask(rows, '', typed, why)
    endif
  })
enddef

# The history of a repeating task in words: `3 done, 1 skipped; last done 2026-11-20 18:02 UTC
# (due 2026-11-16)`, or '' when it never moved on. The time is UTC as the server gives it (the
# pane has no time zone rules to read it on the client's clock).
export def History(item: dict<any>): string
  var occurrences = get(item, 'occurrences', {})
  if type(occurrences) != v:t_dict
    return ''
  endif
  var completed = get(occurrences, 'completed', 0)
  var skipped = get(occurrences, 'skipped', 0)
  completed = type(completed) == v:t_number ? completed : 0
  skipped = type(skipped) == v:t_number ? skipped : 0
  if completed + skipped == 0
    return ''
  endif
  var text = printf('%d done, %d skipped', completed, skipped)
  var recent = get(occurrences, 'recent', [])
  if type(recent) == v:t_list && !empty(recent) && type(recent[-1]) == v:t_dict
    var last = recent[-1]
    text ..= printf('; last %s %s (due %s)', get(last, 'outcome', '') == 'skipped' ? 'skipped' : 'done',
      reminders.Instant(get(last, 'at', '')), client.Text(get(last, 'due', '?')))
  endif
  return text
enddef

vim9script
# The form of one task: a buffer listing every field (`Title:`, `Due:`, `Priority:`, `Tags:`,
# `List:`, `Repeat:`, then the notes below a rule). `:w` saves the fields that changed (items/update, and
# items/move for the list), reading the due with the server's grammar; while a save is refused the
# form stays modified, so `:q` refuses to close it and nothing typed is lost.

import autoload 'taskls/client.vim'
import autoload 'taskls/render.vim'
import autoload 'taskls/fields.vim'
import autoload 'taskls/reminders.vim'
import autoload 'taskls/repeating.vim'
import autoload 'taskls/prompt.vim'

# The line between the fields and the notes.
export const rule = '--- Notes (every line below) ---'

# Open forms by buffer number (string): {id, item}.
export var forms: dict<dict<any>> = {}

# The lines of the form of `item`. The due is in words the grammar reads back as the same due:
# the day, or the day and the time on the client's wall clock (`2026-11-27 17:30`), never an
# instant's offset; the repeat in the server's words.
export def Lines(item: dict<any>): list<string>
  var lines = [
    'Title: ' .. substitute(item.title, "\n", ' ', 'g'),
    'Due: ' .. render.DuePhrase(item.due, get(item, 'dueLocal', null)),
    'Priority: ' .. item.priority,
    'Tags: ' .. render.TagsText(item.tags),
    'List: ' .. get(client.state.list_names, item.list, item.list),
    'Repeat: ' .. substitute(reminders.RepeatText(item), "\n", ' ', 'g'),
    rule,
  ]
  if type(item.notes) == v:t_string && item.notes != ''
    lines += split(item.notes, "\n", true)
  endif
  return lines
enddef

# What the form's lines say: {title, due, priority, tags, list, repeat, notes} as text, or
# {problem}.
export def Read(lines: list<string>): dict<any>
  var typed: dict<any> = {}
  var i = 0
  for name in ['Title', 'Due', 'Priority', 'Tags', 'List', 'Repeat']
    var line = get(lines, i, '')
    var parts = matchlist(line, '^' .. name .. ':\s\=\(.*\)$')
    if empty(parts)
      return {problem: printf('line %d must start with "%s:"', i + 1, name)}
    endif
    typed[tolower(name)] = parts[1]
    i += 1
  endfor
  if get(lines, 6, '') != rule
    return {problem: 'line 7 must be the notes rule: ' .. rule}
  endif
  typed.notes = join(lines[7 :], "\n")
  return typed
enddef

def ListNamed(name: string): string
  for list in client.state.lists
    if list.name == name
      return list.id
    endif
  endfor
  for list in client.state.lists
    if list.name ==? name
      return list.id
    endif
  endfor
  return ''
enddef

# Opens the form of item `id` in the current window.
export def Open(id: string)
  client.Request('items/get', {id: id}, (item) => Show(item))
enddef

def Show(item: dict<any>)
  var name = 'taskls://form/' .. item.id
  var buf = bufadd(name)
  setbufvar(buf, '&buftype', 'acwrite')
  bufload(buf)
  forms[string(buf)] = {id: item.id, item: item}
  execute 'silent keepalt buffer' buf
  setlocal buftype=acwrite bufhidden=wipe noswapfile nowrap
  setbufvar(buf, '&filetype', 'taskls-form')
  Fill(buf, item)
  augroup taskls_form
    execute printf('autocmd! * <buffer=%d>', buf)
    execute printf('autocmd BufWriteCmd <buffer=%d> Save(%d)', buf, buf)
    execute printf('autocmd BufWipeout <buffer=%d> Forget(%d)', buf, buf)
  augroup END
  nnoremap <buffer><nowait> q <Cmd>quit<CR>
enddef

def Fill(buf: number, item: dict<any>)
  forms[string(buf)].item = item
  setbufvar(buf, '&undolevels', -1)
  silent deletebufline(buf, 1, '$')
  setbufline(buf, 1, Lines(item))
  setbufvar(buf, '&undolevels', 1000)
  setbufvar(buf, '&modified', 0)
enddef

def Forget(buf: number)
  if has_key(forms, string(buf))
    remove(forms, string(buf))
  endif
enddef

# The saves that finished (`saved` or the problem), for tests and the user: by buffer.
export var results: dict<string> = {}

# Saves the form of `buf`: only the fields that changed; the due and the repeat (`every week`;
# empty or `off`: none) read with the server's grammar; a repeat on a task without a due takes
# the repeat's first day.
# When saved the form shows the item as the server has it and is no longer modified; otherwise
# it says why (one line) and stays modified.
export def Save(buf: number)
  var form = get(forms, string(buf), {})
  if empty(form)
    return
  endif
  var Fail = (message: string) => {
    results[string(buf)] = message
    client.Notify('not saved: ' .. message, 'error')
  }
  var typed = Read(getbufline(buf, 1, '$'))
  if has_key(typed, 'problem')
    Fail(typed.problem)
    return
  endif
  var item = form.item
  var update: dict<any> = {id: item.id}
  if typed.title != substitute(item.title, "\n", ' ', 'g')
    if trim(typed.title) == ''
      Fail('a task needs a title')
      return
    endif
    update.title = typed.title
  endif
  var priority = fields.PriorityOf(typed.priority)
  if priority == ''
    Fail('Priority: ' .. typed.priority .. ' is not one of none, low, medium, high (or !, !!, !!!)')
    return
  endif
  if priority != item.priority
    update.priority = priority
  endif
  var tags = fields.ReadTags(typed.tags)
  if tags != item.tags
    update.tags = tags
  endif
  var notes = type(item.notes) == v:t_string ? item.notes : ''
  if typed.notes != notes
    update.notes = typed.notes
  endif
  var list = item.list
  var list_name = trim(typed.list)
  if list_name != get(client.state.list_names, item.list, item.list)
    list = ListNamed(list_name)
    if list == ''
      Fail('List: no list named ' .. list_name)
      return
    endif
  endif
  var Send = () => {
    var Move = () => {
      if list == item.list
        Saved(buf)
        return
      endif
      client.Request('items/move', {ids: [item.id], before: null, list: list}, (r) => Saved(buf), (e) => {
        Fail(client.Text(get(e, 'message', 'items/move failed')))
        return true
      })
    }
    if len(update) == 1
      Move()
      return
    endif
    client.Request('items/update', update, (r) => Move(), (e) => {
      Fail(client.Text(get(e, 'message', 'items/update failed')))
      return true
    })
  }
  var due = trim(typed.due)
  var old_due = render.DuePhrase(item.due, get(item, 'dueLocal', null))
  # The due, then the repeat (whose first day is the due of a task that has none).
  var Repeat = () => {
    var words = trim(typed.repeat)
    if words == trim(substitute(reminders.RepeatText(item), "\n", ' ', 'g'))
      Send()
    elseif words == '' || repeating.IsOff(words)
      update.repeat = null
      Send()
    else
      client.Request('text/parseItem', {text: words}, (answer) => {
        var problem = prompt.Problem(answer)
        var parsed = get(answer, 'fields', {})
        if problem != '' || type(get(parsed, 'repeat', null)) != v:t_dict || has_key(parsed, 'title')
          Fail('Repeat: ' .. (problem != '' ? problem : words .. ' is not a repeat (every week, every mon,wed, every 3 days after done, or off)'))
          return
        endif
        update.repeat = parsed.repeat
        if !has_key(update, 'due') && type(item.due) != v:t_string && due == ''
          update.due = get(parsed, 'due', null)
        endif
        Send()
      }, (e) => {
        Fail('Repeat: ' .. client.Text(get(e, 'message', 'text/parseItem failed')))
        return true
      })
    endif
  }
  if due == old_due
    Repeat()
  elseif due == ''
    update.due = null
    Repeat()
  else
    fields.ReadDue(due, (value) => {
      update.due = value
      Repeat()
    }, (message) => Fail('Due: ' .. message))
  endif
enddef

def Saved(buf: number)
  var form = get(forms, string(buf), {})
  if empty(form)
    return
  endif
  client.Request('items/get', {id: form.id}, (item) => {
    if has_key(forms, string(buf)) && bufloaded(buf)
      Fill(buf, item)
      results[string(buf)] = 'saved'
      client.Notify('saved')
    endif
  })
enddef

vim9script
# Subtasks (issue 18): rows indented by depth with fold markers and counts, the fold keys (za zo
# zc zR zM, which the server carries out: view/collapse and view/expand), >> and << (items/indent
# and items/outdent), go (a subtask below the cursor), J and K carrying subtrees, context rows
# dimmed. Every change reaches the buffer as ops on the changed lines only (no full redraw), and
# the tree is checked in the server's store too (items/get), not only on the screen.

import './helpers.vim' as h
import autoload 'taskls/client.vim'
import autoload 'taskls/prompt.vim'
import autoload 'taskls/buffer.vim'
import autoload 'taskls/render.vim'

# Makes a list whose items are `spec` in tree order: each a title (at the top level) or a dict
# of items/create fields whose `parent` is a title made before. [list id, ids by title].
def Tree(name: string, spec: list<any>): list<any>
  var list = h.Seed(name, [])
  var ids: dict<string> = {}
  for entry in spec
    var params: dict<any> = type(entry) == v:t_string ? {title: entry} : copy(entry)
    if has_key(params, 'parent')
      params.parent = ids[params.parent]
    endif
    params.list = list
    ids[params.title] = h.Result('items/create', params).item.id
  endfor
  return [list, ids]
enddef

const example = ['A', {title: 'A1', parent: 'A'}, {title: 'A1a', parent: 'A1'}, {title: 'A2', parent: 'A'}, 'B']

# A pane on a new list made of `spec`: [pane, ids by title, list id].
def PaneOn(spec: list<any>, name = 'Trip'): list<any>
  var [list, ids] = Tree(name, spec)
  var p = h.Open({list: list, name: name})
  return [p, ids, list]
enddef

# The titles with their depths, `A1a:2`, in the pane's order.
def Shape(p: dict<any>): string
  return join(mapnew(copy(p.rows), (_, r) => r.title .. ':' .. r.depth), ' ')
enddef

def CursorTitle(p: dict<any>): string
  return get(buffer.RowAt(p, line('.')), 'title', '')
enddef

# The parent of an item as the store has it ('' at the top level).
def ParentOf(id: string): string
  var parent = h.Result('items/get', {id: id}).parent
  return type(parent) == v:t_string ? parent : ''
enddef

# The text each highlight group covers on line `lnum`.
def Marks(buf: number, lnum: number): dict<string>
  var text = getbufline(buf, lnum)[0]
  var found: dict<string> = {}
  for prop in prop_list(lnum, {bufnr: buf})
    found[prop.type] = strpart(text, prop.col - 1, prop.length)
  endfor
  return found
enddef

# Waits for `Cond`, then checks the buffer is the rows exactly.
def Settle(p: dict<any>, Cond: func(): bool, what: string)
  h.Wait(Cond, what)
  h.CheckBuffer(p)
enddef

# `text` padded with spaces to `cells` display cells.
def Cells(text: string, cells: number): string
  return text .. repeat(' ', max([0, cells - strdisplaywidth(text)]))
enddef

def g:Test_e1_rows_are_indented_by_depth_with_fold_markers_counts_and_aligned_columns()
  h.Setup(h.store, ['--clock', '2026-11-25T11:00:00Z'])
  g:taskls_time_zone = 'UTC'
  var [p, ids, _] = PaneOn(['A', {title: 'A1', parent: 'A'}, {title: 'A1a', parent: 'A1', done: true},
    {title: 'A2', parent: 'A', due: '2026-11-25'}, {title: 'B', due: '2026-11-25'}])
  h.Wait(() => client.state.today == '2026-11-25', 'the server''s today')
  h.Wait(() => getline(4) =~ 'today$', 'the due in the server''s day')
  assert_equal(34, p.width, 'the title column of an 80-cell window')
  assert_equal([
    '▾ [ ] A 0/2',
    '  ▾ [ ] A1 1/1',
    '      [x] A1a',
    '    [ ] ' .. Cells('A2', 32) .. '  today',
    '  [ ] ' .. Cells('B', 34) .. '  today',
  ], h.Lines(p.buf), 'the tree')
  assert_equal({TasklsFold: '▾', TasklsCheck: '[ ]', TasklsCount: '0/2'}, Marks(p.buf, 1), 'line 1')
  assert_equal('[x]', Marks(p.buf, 3).TasklsCheck, 'the check box of a subtask')
  assert_equal('A1a', Marks(p.buf, 3).TasklsDone, 'a done subtask dimmed')
  assert_equal('Number', synIDattr(synIDtrans(hlID('TasklsCount')), 'name'), 'TasklsCount links to Number')
  assert_equal('Special', synIDattr(synIDtrans(hlID('TasklsFold')), 'name'), 'TasklsFold links to Special')
  # A subtask done counts at once, on its parent's line alone.
  var written = p.stats.lines_written
  h.Goto(p, 'A2')
  h.Keys('x')
  Settle(p, () => getline(1) == '▾ [ ] A 1/2', 'the count of A')
  assert_equal(2, p.stats.lines_written - written, 'A2 and its parent A written, nothing else')
  # The deepest row (15 levels): its indentation comes out of its title's cells.
  var list = h.Seed('Deep', [])
  var parent: any = null
  for depth in range(16)
    parent = h.Result('items/create', {list: list, title: 'Level ' .. depth, parent: parent, due: '2026-11-25'}).item.id
  endfor
  var deep = h.Open({list: list, name: 'Deep'})
  assert_equal(repeat(' ', 32) .. '[ ] ' .. Cells('Level 15', 10) .. '  today', h.Lines(deep.buf)[15], 'depth 15')
  h.CheckBuffer(deep)
  # However deep, a title keeps 10 cells; the columns after it are pushed right.
  assert_equal(repeat(' ', 32) .. '[ ] ' .. Cells('Level 15', 10) .. '  ' .. Cells('', 19) .. '  !!!',
    render.Row({kind: 'item', title: 'Level 15', depth: 15, priority: 'high'}, {title_width: 20})[0])
  # Other markers through g:taskls_icons; a two-cell marker widens the fold column of every row.
  g:taskls_icons = {collapsed: '+>', expanded: '-v'}
  assert_equal('  -v [ ] A 0/1', render.Row({kind: 'item', title: 'A', depth: 1, hasChildren: true, children: 1, openChildren: 1}, {title_width: 20})[0])
  assert_equal('     [ ] B', render.Row({kind: 'item', title: 'B', depth: 1}, {title_width: 20})[0])
  unlet g:taskls_icons
enddef

def g:Test_e2_zc_zo_za_zM_zR_fold_through_the_server_by_ops_and_the_cursor_keeps_its_task()
  var [p, ids, list] = PaneOn(example)
  var full = p.stats.full_renders
  assert_equal(5, line('$'))
  h.Goto(p, 'A1')
  var written = p.stats.lines_written
  h.Keys('zc')
  Settle(p, () => p.count == 4, 'A1 collapsed')
  assert_equal('A:0 A1:1 A2:1 B:0', Shape(p))
  assert_equal(4, line('$'), 'one line less')
  assert_equal('  ▸ [ ] A1 0/1', getline(2), 'the collapsed marker')
  assert_equal(1, p.stats.lines_written - written, 'one line rewritten (A1), one removed')
  assert_equal('A1', CursorTitle(p), 'cursor on A1')
  h.Keys('zo')
  Settle(p, () => p.count == 5, 'A1 expanded')
  assert_equal('A1', CursorTitle(p), 'cursor on A1 after zo')
  assert_equal('  ▾ [ ] A1 0/1', getline(2))
  h.Keys('za')
  Settle(p, () => p.count == 4, 'za collapses')
  h.Keys('za')
  Settle(p, () => p.count == 5, 'za expands')
  # zc on a leaf closes the fold it is in: its parent's; the cursor goes to the parent.
  h.Goto(p, 'A1a')
  h.Keys('zc')
  Settle(p, () => p.count == 4, 'zc on a leaf')
  assert_equal('A1', CursorTitle(p), 'cursor on the closed parent')
  # zc on a collapsed row closes the fold around it.
  h.Keys('zc')
  Settle(p, () => p.count == 2, 'zc on a collapsed row')
  assert_equal('A:0 B:0', Shape(p))
  assert_equal('A', CursorTitle(p), 'cursor on A')
  h.Keys('zR')
  Settle(p, () => p.count == 5, 'zR')
  assert_equal('A', CursorTitle(p), 'cursor stays on A')
  h.Goto(p, 'A1a')
  h.Keys('zM')
  Settle(p, () => p.count == 2, 'zM')
  assert_equal('▸ [ ] A 0/2', getline(1))
  assert_equal('A', CursorTitle(p), 'cursor on the row standing for A1a')
  # zM collapsed A1 too: zo on A shows A1 collapsed.
  h.Keys('zo')
  Settle(p, () => p.count == 4, 'zo after zM')
  assert_equal('A:0 A1:1 A2:1 B:0', Shape(p))
  h.Keys('zR')
  Settle(p, () => p.count == 5, 'zR again')
  # Visual mode: every selected row with subtasks; a count: that many rows.
  h.Goto(p, 'A')
  h.Keys('Vjzc')
  Settle(p, () => p.count == 2, 'visual zc')
  assert_equal('n', mode())
  h.Keys('zR')
  Settle(p, () => p.count == 5, 'zR')
  h.Goto(p, 'A1')
  h.Keys('2zc')
  Settle(p, () => p.count == 4, '2zc: A1 (A1a is a leaf)')
  assert_equal('A:0 A1:1 A2:1 B:0', Shape(p))
  assert_equal(full, p.stats.full_renders, 'no full redraw')
  assert_equal(0, p.stats.resyncs, 'no resync')
  # Not Vim folds: none in the buffer.
  assert_false(&l:foldenable)
  # The server keeps it per view: a second pane on the list shows every row.
  var other = h.Open({list: list, name: 'Trip'}, {new: true})
  assert_equal(5, other.count, 'another view is not collapsed')
  assert_equal(4, p.count)
enddef

def g:Test_e3_indent_and_outdent_with_counts_and_visual_the_parent_count_follows()
  var [p, ids, _] = PaneOn(['A', 'B', 'C', 'D'])
  var full = p.stats.full_renders
  h.Goto(p, 'B')
  h.Keys('>>')
  Settle(p, () => p.rows[1].depth == 1, 'B indented')
  assert_equal(['▾ [ ] A 0/1', '    [ ] B', '  [ ] C', '  [ ] D'], h.Lines(p.buf))
  assert_equal(ids.A, ParentOf(ids.B), 'B under A in the store')
  assert_equal('B', CursorTitle(p), 'cursor on B')
  h.Goto(p, 'C')
  h.Keys('2>>')
  Settle(p, () => Shape(p) == 'A:0 B:1 C:1 D:1', 'C and D indented')
  assert_equal('▾ [ ] A 0/3', getline(1))
  assert_equal('C', CursorTitle(p), 'cursor on C')
  h.Keys('>>')
  Settle(p, () => Shape(p) == 'A:0 B:1 C:2 D:1', 'C under B')
  assert_equal(['▾ [ ] A 0/2', '  ▾ [ ] B 0/1', '      [ ] C', '    [ ] D'], h.Lines(p.buf))
  h.Keys('<<')
  Settle(p, () => Shape(p) == 'A:0 B:1 C:1 D:1', 'C outdented')
  assert_equal('C', CursorTitle(p), 'cursor on C')
  h.Goto(p, 'B')
  h.Keys('Vjj<')
  Settle(p, () => Shape(p) == 'A:0 B:0 C:0 D:0', 'visual <')
  assert_equal('n', mode())
  assert_equal(['  [ ] A', '  [ ] B', '  [ ] C', '  [ ] D'], h.Lines(p.buf), 'A lost its marker and count')
  h.Goto(p, 'C')
  h.Keys('Vj>')
  Settle(p, () => Shape(p) == 'A:0 B:0 C:1 D:1', 'visual >')
  assert_equal(ids.B, ParentOf(ids.D), 'D under B in the store')
  assert_equal(full, p.stats.full_renders, 'no full redraw')
  # One undo step each.
  h.Keys('u')
  Settle(p, () => Shape(p) == 'A:0 B:0 C:0 D:0', 'undo')
  h.Wait(() => index(h.Messages(), 'taskls: undid: indent 2 tasks') >= 0, 'the undo said in words')
enddef

def g:Test_e4_a_refused_indent_or_outdent_is_one_warning_in_words()
  var [p, ids, _] = PaneOn(['A', {title: 'A1', parent: 'A'}, 'B'])
  var version = p.version
  var Said = (n: number) => len(filter(copy(client.state.messages), (_, m) => m.level == 'warn')) >= n
  h.Goto(p, 'A')
  h.Keys('>>')
  h.Wait(() => Said(1), 'a warning')
  assert_equal('taskls: cannot indent "A": no task above it at its level to become a subtask of', h.Messages()[-1])
  h.Goto(p, 'A1')
  h.Keys('>>')
  h.Wait(() => Said(2), 'a second warning')
  assert_equal('taskls: cannot indent "A1": no task above it at its level to become a subtask of', h.Messages()[-1])
  h.Goto(p, 'B')
  h.Keys('<<')
  h.Wait(() => Said(3), 'a third warning')
  assert_equal('taskls: cannot outdent "B": it is already at the top level', h.Messages()[-1])
  h.Goto(p, 'A1')
  h.Keys('Vj<')
  h.Wait(() => Said(4), 'a fourth warning')
  assert_equal('taskls: cannot outdent these tasks together: they are not subtasks of the same task', h.Messages()[-1])
  assert_equal(4, len(client.state.messages), 'one message each: ' .. string(h.Messages()))
  assert_equal(version, p.version, 'no change reached the view')
  assert_equal(ids.A, ParentOf(ids.A1))
  h.NoInternalErrors()
  h.CheckBuffer(p)
enddef

def g:Test_e5_go_adds_a_subtask_below_expanding_a_collapsed_task_and_o_follows_the_tree()
  var [p, ids, _] = PaneOn(['A', {title: 'A1', parent: 'A'}, 'B'])
  var full = p.stats.full_renders
  h.Goto(p, 'B')
  h.Keys("goB first\<CR>")
  Settle(p, () => p.count == 4, 'a subtask of B')
  assert_equal('A:0 A1:1 B:0 B first:1', Shape(p))
  assert_equal('New subtask: ', prompt.prompts[-1].prompt)
  h.Wait(() => CursorTitle(p) == 'B first', 'cursor on the new task')
  assert_equal('▾ [ ] B 0/1', getline(3))
  assert_equal(ids.B, ParentOf(p.rows[3].id), 'in the store')
  # On a task with subtasks: the first of them, right below it; quick entry reads the fields.
  h.Goto(p, 'A')
  h.Keys("goA0 ^tomorrow !high\<CR>")
  Settle(p, () => p.count == 5, 'a first subtask of A')
  assert_equal('A:0 A0:1 A1:1 B:0 B first:1', Shape(p))
  assert_equal('high', p.rows[1].priority, 'quick entry read the fields')
  h.Wait(() => CursorTitle(p) == 'A0', 'cursor on A0')
  # On a collapsed task: expanded first, so the new task is seen.
  h.Goto(p, 'A')
  h.Keys('zc')
  Settle(p, () => p.count == 3, 'A collapsed')
  h.Keys("goA00\<CR>")
  Settle(p, () => p.count == 6, 'A expanded with its new subtask')
  assert_equal('A:0 A00:1 A0:1 A1:1 B:0 B first:1', Shape(p))
  h.Wait(() => CursorTitle(p) == 'A00', 'cursor on A00')
  # o on the last subtask: a sibling below it (not a top-level task).
  h.Goto(p, 'A1')
  h.Keys("oA2\<CR>")
  Settle(p, () => p.count == 7, 'o')
  assert_equal('A:0 A00:1 A0:1 A1:1 A2:1 B:0 B first:1', Shape(p))
  assert_equal(ids.A, ParentOf(p.rows[4].id), 'A2 under A in the store')
  # o on a task whose subtasks are shown: the first of them; O: a sibling above.
  h.Goto(p, 'B')
  h.Keys("oB zero\<CR>")
  Settle(p, () => p.count == 8, 'o on B')
  h.Goto(p, 'B')
  h.Keys("OBefore B\<CR>")
  Settle(p, () => p.count == 9, 'O on B')
  assert_equal('A:0 A00:1 A0:1 A1:1 A2:1 Before B:0 B:0 B zero:1 B first:1', Shape(p))
  assert_equal(full, p.stats.full_renders, 'no full redraw')
  # A subtask in another list is refused: the prompt opens again with the reason and the text.
  h.Seed('Elsewhere', [])
  var asked = len(prompt.prompts)
  h.Goto(p, 'A1')
  feedkeys("goStray @Elsewhere\<CR>", 'xt')
  feedkeys("\<Esc>", 't')
  h.Wait(() => len(prompt.prompts) == asked + 2 && has_key(prompt.prompts[-1], 'answer'), 'the prompt again')
  assert_match('^New subtask (.*not in list.*): $', prompt.prompts[-1].prompt)
  assert_equal('Stray @Elsewhere', prompt.prompts[-1].default, 'the typed text kept')
  assert_equal(9, p.count, 'nothing added')
  # go where there is no task says so.
  var empty = h.Result('lists/create', {name: 'Empty'}).list.id
  h.Open({list: empty, name: 'Empty'})
  h.Keys('go')
  assert_equal('taskls: no task here to add a subtask to', h.Messages()[-1])
enddef

def g:Test_e6_J_and_K_move_a_subtree_keeping_its_depth_where_they_can()
  var [p, ids, _] = PaneOn(['A', {title: 'A1', parent: 'A'}, {title: 'A2', parent: 'A'}, 'B', 'C'])
  var full = p.stats.full_renders
  h.Goto(p, 'A')
  h.Keys('J')
  Settle(p, () => Shape(p) == 'B:0 A:0 A1:1 A2:1 C:0', 'A and its subtasks below B')
  assert_equal('A', CursorTitle(p), 'cursor on A')
  assert_equal(2, line('.'), 'on its new line')
  h.Keys('J')
  Settle(p, () => Shape(p) == 'B:0 C:0 A:0 A1:1 A2:1', 'below C')
  h.Keys('K')
  Settle(p, () => Shape(p) == 'B:0 A:0 A1:1 A2:1 C:0', 'K')
  assert_equal('A', CursorTitle(p), 'cursor on A')
  # >> after a move: A (with its subtree) becomes B's subtask.
  h.Keys('>>')
  Settle(p, () => Shape(p) == 'B:0 A:1 A1:2 A2:2 C:0', '>> after J')
  assert_equal(ids.B, ParentOf(ids.A), 'A under B')
  # A subtask keeps its depth: past its sibling, then into the next task's subtasks.
  h.Goto(p, 'A1')
  h.Keys('J')
  Settle(p, () => Shape(p) == 'B:0 A:1 A2:2 A1:2 C:0', 'A1 after A2')
  assert_equal(ids.A, ParentOf(ids.A1), 'still under A')
  h.Keys('J')
  # Past C at depth 0 it can be at most C's subtask (depth 1).
  Settle(p, () => Shape(p) == 'B:0 A:1 A2:2 C:0 A1:1', 'A1 under C')
  assert_equal(ids.C, ParentOf(ids.A1), 'A1 under C in the store')
  assert_equal('A1', CursorTitle(p), 'cursor on A1')
  h.Keys('<<')
  Settle(p, () => Shape(p) == 'B:0 A:1 A2:2 C:0 A1:0', '<< after J')
  # 2K carries A1 up past B, collapsed: B's hidden subtree stays with B.
  h.Goto(p, 'B')
  h.Keys('zc')
  Settle(p, () => p.count == 3, 'B collapsed')
  h.Goto(p, 'A1')
  h.Keys('2K')
  Settle(p, () => Shape(p) == 'A1:0 B:0 C:0', '2K')
  h.Keys('zR')
  Settle(p, () => Shape(p) == 'A1:0 B:0 A:1 A2:2 C:0', 'the subtree moved with nothing lost')
  # Visual J moves the selected rows with the subtree shown below them.
  h.Goto(p, 'B')
  h.Keys('VJ')
  Settle(p, () => Shape(p) == 'A1:0 C:0 B:0 A:1 A2:2', 'visual J carries B with A and A2')
  assert_equal(full, p.stats.full_renders, 'no full redraw')
enddef

def g:Test_e7_a_filter_shows_the_ancestors_of_matches_as_dimmed_context_rows()
  var [p, _, _] = PaneOn(['Groceries', {title: 'Buy milk', parent: 'Groceries'}, {title: 'Eggs', parent: 'Groceries'}, 'Milk run'])
  h.Keys("Fmilk\<CR>")
  Settle(p, () => p.count == 3, 'the filter')
  assert_equal('Groceries:0 Buy milk:1 Milk run:0', Shape(p))
  assert_true(p.rows[0].context, 'Groceries is a context row')
  assert_equal(['▾ [ ] Groceries 0/2', '    [ ] Buy milk', '  [ ] Milk run'], h.Lines(p.buf))
  assert_equal({TasklsFold: '▾', TasklsContext: '[ ] Groceries 0/2'}, Marks(p.buf, 1), 'dimmed whole, but its marker')
  assert_false(has_key(Marks(p.buf, 2), 'TasklsContext'), 'a match is not dimmed')
  assert_equal('Comment', synIDattr(synIDtrans(hlID('TasklsContext')), 'name'), 'linked to Comment')
  # A context row folds like any other.
  h.Goto(p, 'Groceries')
  h.Keys('zc')
  Settle(p, () => p.count == 2, 'the context row collapsed')
  assert_equal('▸ [ ] Groceries 0/2', getline(1))
enddef

def g:Test_e8_folding_more_rows_than_the_window_holds_keeps_the_cursor_on_its_task()
  var list = h.Seed('Long', [])
  var parent = h.Result('items/create', {list: list, title: 'P'}).item.id
  # Sent at once (the server answers in order), then waited for.
  var made: dict<string> = {}
  for title in mapnew(range(1, 200), (_, i) => 'P' .. i) + mapnew(range(1, 50), (_, i) => 'Z' .. i)
    var params: dict<any> = {list: list, title: title}
    if title =~ '^P'
      params.parent = parent
    endif
    client.Request('items/create', params, (r) => {
      made[r.item.title] = r.item.id
    })
  endfor
  h.Wait(() => len(made) == 250, '250 items')
  var p = h.Open({list: list, name: 'Long'})
  assert_true(p.window['end'] < 251, 'the window holds part of the view: ' .. string(p.window))
  var full = p.stats.full_renders
  cursor(1, 1)
  h.Keys('zc')
  Settle(p, () => p.count == 51, 'P collapsed')
  assert_equal('Z1', p.rows[1].title, 'the rows below moved up into the window')
  h.Keys('zo')
  Settle(p, () => p.count == 251, 'P expanded')
  assert_equal('P1', p.rows[1].title)
  # Far below the first window: zM takes the task far above the window; the pane finds it.
  normal! G
  doautocmd CursorMoved
  h.Wait(() => p.window.start > 0 && !empty(buffer.RowAt(p, 251)), 'the window at the bottom')
  cursor(226, 1)
  assert_equal('Z25', CursorTitle(p))
  h.Keys('zM')
  h.Wait(() => p.count == 51 && CursorTitle(p) == 'Z25', 'the cursor on Z25 after zM')
  assert_equal(26, line('.'), 'on its new line')
  assert_equal(1, p.stats.located, 'found with one view/locate')
  h.Wait(() => empty(p.window_request), 'the window settles')
  h.CheckBuffer(p)
  h.Keys('zR')
  h.Wait(() => p.count == 251 && CursorTitle(p) == 'Z25', 'the cursor on Z25 after zR')
  assert_equal(226, line('.'))
  assert_equal(2, p.stats.located, 'found again with one view/locate')
  h.Wait(() => empty(p.window_request), 'the window settles')
  h.CheckBuffer(p)
  # A subtask hidden by zM far below: the cursor goes to its top-level ancestor.
  normal! gg
  doautocmd CursorMoved
  h.Wait(() => !empty(buffer.RowAt(p, 1)), 'the window at the top')
  h.Keys('zc')
  Settle(p, () => p.count == 51, 'P collapsed')
  var child = h.Result('items/create', {list: list, title: 'Z50 child', parent: made.Z50}).item.id
  h.Result('items/create', {list: list, title: 'Z50 grandchild', parent: child})
  h.Keys('zR')
  Settle(p, () => p.count == 253, 'zR')
  normal! G
  doautocmd CursorMoved
  h.Wait(() => !empty(buffer.RowAt(p, 253)), 'the window at the bottom')
  assert_equal('Z50 grandchild', CursorTitle(p))
  h.Keys('zM')
  h.Wait(() => p.count == 51 && CursorTitle(p) == 'Z50', 'the cursor on Z50 after zM')
  assert_equal(51, line('.'), 'on its line')
  h.Wait(() => empty(p.window_request), 'the window settles')
  h.CheckBuffer(p)
  assert_equal(full, p.stats.full_renders, 'no full redraw')
enddef

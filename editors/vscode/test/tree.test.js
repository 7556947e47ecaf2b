'use strict';
// Subtasks (issue 18), host side: the model's tree arithmetic (the block a move takes, the depth it
// lands at, where a new task goes, a row's ancestors), the words (counts, refusals), and the pane
// host's tree actions against the real server: fold, indent and outdent (refusals in words), add a
// subtask (a collapsed task expanded first), moves with a depth; and the pane's title-menu commands.
const test = require('node:test');
const assert = require('node:assert/strict');
const Module = require('module');
const path = require('path');
const { ViewModel } = require('../src/viewModel');
const words = require('../src/words');
const h = require('./helpers');

/** A model holding `spec` rows: [title, depth, {members}] in tree order, parents found by depth. */
function modelOf(spec, window) {
  const model = new ViewModel();
  const rows = [];
  const stack = [];
  for (const [title, depth, extra] of spec) {
    stack.length = depth;
    const row = Object.assign({ kind: 'item', id: title, list: 'l1', title, depth, parent: depth > 0 ? stack[depth - 1] : null }, extra || {});
    stack.push(title);
    rows.push(row);
  }
  for (const row of rows) row.hasChildren = row.hasChildren === undefined ? rows.some((r) => r.parent === row.id) : row.hasChildren;
  const start = window ? window.start : 0;
  model.applySnapshot({ view: 'v1', version: 1, state: 'ready', count: window ? window.count : rows.length, window: { start, end: start + rows.length }, rows });
  return model;
}

const example = [['A', 0], ['A1', 1], ['A1a', 2], ['A2', 1], ['B', 0]];

test('the block of a move takes the subtrees shown below it; the landing depth keeps the level where allowed', () => {
  const model = modelOf(example);
  assert.deepEqual(model.blockOf(0, 0), { size: 4, depth: 0 }, 'A with A1, A1a, A2');
  assert.deepEqual(model.blockOf(1, 1), { size: 2, depth: 1 }, 'A1 with A1a');
  assert.deepEqual(model.blockOf(4, 4), { size: 1, depth: 0 });
  assert.deepEqual(model.blockOf(2, 3), { size: 2, depth: 1 }, 'A1a and A2: least depth 1');
  // protocol.md's table: moving B (from 4) to each place, with B's own depth 0 or a deeper one.
  assert.equal(model.landingDepth(4, 1, 0, 0), 0);
  assert.equal(model.landingDepth(4, 1, 1, 0), 1, 'between A and A1: only 1');
  assert.equal(model.landingDepth(4, 1, 2, 0), 2, 'between A1 and A1a: only 2');
  assert.equal(model.landingDepth(4, 1, 3, 0), 1, 'between A1a and A2: 1 to 3, the nearest to 0');
  assert.equal(model.landingDepth(4, 1, 3, 2), 2, 'a task at depth 2 keeps it there');
  assert.equal(model.landingDepth(4, 1, 3, 5), 3, 'at most A1a + 1');
  assert.equal(model.landingDepth(1, 2, 2, 1), 1, 'A1 past A2 stays under A');
  // A collapsed row above allows its own depth only.
  const collapsed = modelOf([['A', 0], ['A1', 1, { collapsed: true, hasChildren: true }], ['A2', 1], ['B', 0]]);
  assert.equal(collapsed.landingDepth(3, 1, 2, 0), 1, 'after a collapsed A1: its sibling');
  // Rows not fetched: unknown (the server's default), and a block that may run past the window.
  const partial = modelOf([['X', 0], ['Y', 0], ['Y1', 1]], { start: 10, count: 100 });
  assert.equal(partial.blockOf(11, 11), undefined, 'Y may have more subtasks below the window');
  assert.equal(partial.landingDepth(10, 1, 5, 0), undefined);
  assert.deepEqual(partial.blockOf(10, 10), { size: 1, depth: 0 });
});

test('where a new task goes: o below, O above, a subtask first; ancestors of a row', () => {
  const model = modelOf(example);
  assert.deepEqual(model.placement('subtask', 'B', 'l1'), { parent: 'B' }, 'a leaf: its only subtask');
  assert.deepEqual(model.placement('subtask', 'A', 'l1'), { parent: 'A', before: 'A1' }, 'the first subtask');
  assert.deepEqual(model.placement('below', 'A', 'l1'), { parent: 'A', before: 'A1' }, 'o on a task whose subtasks are shown');
  assert.deepEqual(model.placement('below', 'A1a', 'l1'), { parent: 'A1' }, 'o on the last subtask: a sibling, last');
  assert.deepEqual(model.placement('below', 'A2', 'l1'), { parent: 'A' }, 'o on A2: still under A');
  assert.deepEqual(model.placement('below', 'B', 'l1'), { parent: null });
  assert.deepEqual(model.placement('above', 'A1', 'l1'), { before: 'A1' });
  assert.deepEqual(model.placement('below', 'A1a', 'l2'), {}, 'another list: no place among these rows');
  assert.deepEqual(model.placement('subtask', 'A1a', 'l2'), { parent: 'A1a' }, 'the server refuses it in words');
  const collapsed = modelOf([['A', 0, { collapsed: true, hasChildren: true }], ['B', 0]]);
  assert.deepEqual(collapsed.placement('below', 'A', 'l1'), { parent: null, before: 'B' }, 'o on a collapsed task: its next sibling');
  assert.deepEqual(model.ancestorsOf('A1a'), ['A1', 'A']);
  assert.deepEqual(model.ancestorsOf('B'), []);
});

test('a row\'s tree words, the count in its text, refusals in words', () => {
  const context = { today: '2026-11-22' };
  assert.deepEqual(words.treeWords({ depth: 2, hasChildren: true, collapsed: true, children: 3, openChildren: 2 }), { depth: 2, fold: 'collapsed', subtasks: '1/3' });
  assert.deepEqual(words.treeWords({ depth: 0, hasChildren: true, collapsed: false, children: 1, openChildren: 1 }), { depth: 0, fold: 'expanded', subtasks: '0/1' });
  // A task whose subtasks the filter hides has a count but no marker.
  assert.deepEqual(words.treeWords({ depth: 1, hasChildren: false, children: 2, openChildren: 0 }), { depth: 1, fold: null, subtasks: '2/2' });
  const row = { kind: 'item', id: 'i1', title: 'Plan', depth: 0, hasChildren: true, children: 3, openChildren: 2, context: true };
  assert.equal(words.rowText(row, context), '[ ] Plan 1/3');
  assert.equal(words.rowWords(row, context).context, true);
  assert.equal(words.indentRefusal('noPreviousSibling', 'A', false), 'cannot indent "A": no task above it at its level to become a subtask of');
  assert.equal(words.indentRefusal('topLevel', 'B', true), 'cannot outdent "B": it is already at the top level');
  assert.equal(words.indentRefusal('notSiblings', 'A1', true), 'cannot outdent these tasks together: they are not subtasks of the same task');
  assert.equal(words.indentRefusal('tooDeep', 'Deep', false), 'cannot indent "Deep": subtasks go at most 15 levels deep');
  assert.equal(words.subtaskRefusal('parentGone', 'B', 'unknown item id: i2'), 'cannot add a subtask of "B": it was deleted');
  assert.equal(words.subtaskRefusal('parentInOtherList', 'B', 'parent i2 is not in list l2\u001b'), 'parent i2 is not in list l2\\e');
});

/** A pane host whose page is an array of posted messages (helpers.testPane). */
const pane = h.testPane;

/** Items of a new list in tree order: [title, parentTitle?]; returns {list, ids}. */
async function tree(client, spec) {
  const list = (await client.request('lists/create', { name: 'Trip' })).list.id;
  const ids = {};
  for (const [title, parent] of spec) {
    const params = { list, title };
    if (parent) params.parent = ids[parent];
    ids[title] = (await client.request('items/create', params)).item.id;
  }
  return { list, ids };
}

const shape = (host) => host.model.rows.map((r) => `${r.title}:${r.depth}`).join(' ');
const parentOf = async (client, id) => (await client.request('items/get', { id })).parent;

test('the host folds, indents and outdents through the server; refusals come back in words', async () => {
  const client = await h.startClient();
  try {
    const { list, ids } = await tree(client, [['A'], ['A1', 'A'], ['A1a', 'A1'], ['A2', 'A'], ['B']]);
    const host = pane(client, { list });
    host.receive({ type: 'ready', state: {}, rows: 10 });
    await h.waitFor(() => host.posted.some((m) => m.type === 'snapshot'), 'the snapshot');
    assert.equal(shape(host), 'A:0 A1:1 A1a:2 A2:1 B:0');
    const snapshots = host.posted.filter((m) => m.type === 'snapshot').length;
    assert.deepEqual(await host.ask('collapse', { ids: [ids.A1] }), { changed: true });
    assert.equal(shape(host), 'A:0 A1:1 A2:1 B:0');
    assert.equal(host.model.rows[1].collapsed, true);
    assert.deepEqual(await host.ask('expand', { ids: [ids.A1] }), { changed: true });
    assert.equal(host.model.count, 5);
    await host.ask('collapse', { all: true });
    assert.equal(shape(host), 'A:0 B:0');
    await host.ask('expand', { all: true });
    assert.equal(host.model.count, 5);
    assert.deepEqual(await host.ask('collapse', { ids: [] }), { changed: false }, 'nothing named: nothing asked');
    assert.equal(host.posted.filter((m) => m.type === 'snapshot').length, snapshots, 'ops only, never a new snapshot');
    // Indent B under A (after A2); outdent it again.
    await host.ask('indent', { ids: [ids.B] });
    assert.equal(shape(host), 'A:0 A1:1 A1a:2 A2:1 B:1');
    assert.equal(await parentOf(client, ids.B), ids.A);
    assert.equal(host.model.rows[0].children, 3, 'the parent\'s count');
    await host.ask('indent', { ids: [ids.B], outdent: true });
    assert.equal(shape(host), 'A:0 A1:1 A1a:2 A2:1 B:0');
    const version = host.model.version;
    assert.deepEqual(await host.ask('indent', { ids: [ids.A] }), { refused: 'cannot indent "A": no task above it at its level to become a subtask of' });
    assert.deepEqual(await host.ask('indent', { ids: [ids.B], outdent: true }), { refused: 'cannot outdent "B": it is already at the top level' });
    assert.deepEqual(await host.ask('indent', { ids: [ids.A1a, ids.A2], outdent: true }), { refused: 'cannot outdent these tasks together: they are not subtasks of the same task' });
    assert.equal(host.model.version, version, 'nothing changed');
  } finally { await client.stop(); }
});

test('the host adds a subtask first below its task (expanding it), o keeps the tree; a move keeps its depth', async () => {
  const client = await h.startClient();
  try {
    const { list, ids } = await tree(client, [['A'], ['A1', 'A'], ['B'], ['C']]);
    const host = pane(client, { list });
    host.receive({ type: 'ready', state: {}, rows: 10 });
    await h.waitFor(() => host.model.version !== null, 'the snapshot');
    await host.ask('collapse', { ids: [ids.A] });
    const added = await host.ask('add', { text: 'A0 !high', where: 'subtask', id: ids.A, near: { list } });
    assert.equal(added.item.parent, ids.A);
    assert.equal(added.item.priority, 'high');
    assert.equal(shape(host), 'A:0 A0:1 A1:1 B:0 C:0', 'expanded, the new task first');
    await host.ask('add', { text: 'A2', where: 'below', id: ids.A1, near: { list } });
    assert.equal(shape(host), 'A:0 A0:1 A1:1 A2:1 B:0 C:0', 'o on the last subtask: its sibling');
    await host.ask('add', { text: 'B1', where: 'subtask', id: ids.B, near: { list } });
    assert.equal(shape(host), 'A:0 A0:1 A1:1 A2:1 B:0 B1:1 C:0');
    // A subtask in another list is refused in words, as a warning: the page keeps the text.
    await client.request('lists/create', { name: 'Elsewhere' });
    const refused = await host.ask('add', { text: 'Stray @Elsewhere', where: 'subtask', id: ids.B, near: { list } });
    assert.match(refused.warnings[0], /not in list/);
    assert.equal(refused.refused, 'parentInOtherList');
    assert.equal(host.model.count, 7);
    // A subtask of a task deleted meanwhile: refused with the reason and the unknown id (the page words it).
    await client.request('items/delete', { ids: [ids.C] });
    await h.waitFor(() => host.model.count === 6, 'C gone');
    const orphan = await host.ask('add', { text: 'Orphan', where: 'subtask', id: ids.C, near: { list } });
    assert.equal(orphan.refused, 'notFound');
    assert.deepEqual(orphan.ids, [ids.C]);
    assert.equal(orphan.warnings.length, 1);
    assert.equal(host.model.count, 6, 'nothing added');
    await client.request('undo');
    await h.waitFor(() => host.model.count === 7, 'C back');
    // A1 (index 2) down one row, keeping depth 1 (past A2, still A's); then past B at depth 0 it becomes B's.
    await host.ask('move', { version: host.model.version, from: 2, count: 1, to: 3, depth: 1 });
    assert.equal(shape(host), 'A:0 A0:1 A2:1 A1:1 B:0 B1:1 C:0');
    assert.equal(await parentOf(client, ids.A1), ids.A);
    // A (with its three subtasks) below B's subtree, at the top level.
    await host.ask('move', { version: host.model.version, from: 0, count: 1, to: 2, depth: 0 });
    assert.equal(shape(host), 'B:0 B1:1 A:0 A0:1 A2:1 A1:1 C:0');
    await assert.rejects(host.ask('move', { version: host.model.version, from: 0, count: 1, to: 1, depth: 3 }), /params\.depth/);
  } finally { await client.stop(); }
});

test('Collapse All and Expand All in the pane\'s title menu; Add Subtask Below asks the page', async () => {
  const stand = require('./host/vscode');
  const resolve = Module._resolveFilename;
  Module._resolveFilename = function (request, ...rest) {
    if (request === 'vscode') return require.resolve('./host/vscode');
    return resolve.call(this, request, ...rest);
  };
  const extensionModule = require('../extension');
  const { stub } = stand;
  stub.reset();
  stub.configuration = { 'taskls.path': h.bin, 'taskls.store': h.newStore() };
  const ctx = { subscriptions: [], extensionUri: stand.Uri.file(path.resolve(__dirname, '..')), extensionPath: path.resolve(__dirname, '..') };
  const extension = extensionModule.activate(ctx);
  try {
    // No pane: the commands say so and do nothing else.
    await stub.commands.get('taskls.collapseAll')();
    const { list } = await tree(extension.server(), [['A'], ['A1', 'A'], ['B'], ['B1', 'B']]);
    extension.openPane({ list }, 'Trip');
    const panel = stub.panels[0];
    const messages = () => panel.webview.posted.flatMap((m) => (m.type === 'batch' ? m.messages : [m]));
    panel.webview.received.fire({ type: 'ready', state: {}, rows: 30 });
    const pane = [...extension.panes][0];
    await h.waitFor(() => pane.host.model.count === 4, 'the rows');
    await stub.commands.get('taskls.collapseAll')();
    await h.waitFor(() => pane.host.model.count === 2, 'collapsed');
    await h.waitFor(() => messages().some((m) => m.type === 'changed' && m.params.count === 2), 'the page got the ops');
    await stub.commands.get('taskls.expandAll')();
    await h.waitFor(() => pane.host.model.count === 4, 'expanded');
    await stub.commands.get('taskls.addSubtask')();
    await h.waitFor(() => messages().some((m) => m.type === 'command' && m.name === 'addSubtask'), 'the page asked');
    // Skip to the Next Due and Stop Repeating act on the page's selection: the page is asked too.
    await stub.commands.get('taskls.skip')();
    await stub.commands.get('taskls.stopRepeating')();
    await h.waitFor(() => messages().filter((m) => m.type === 'command').map((m) => m.name).join() === 'addSubtask,skip,stopRepeating', 'the page asked to skip, to stop repeating');
    // The pane's title menu holds the three (then Save Filter as Smart List, Skip, Stop Repeating), for a list pane only.
    const manifest = require('../package.json');
    const menu = manifest.contributes.menus['editor/title'];
    assert.deepEqual(menu.map((i) => i.command), ['taskls.addSubtask', 'taskls.collapseAll', 'taskls.expandAll', 'taskls.saveSmartList', 'taskls.skip', 'taskls.stopRepeating']);
    for (const item of menu) assert.equal(item.when, "activeWebviewPanelId == 'taskls.list'");
    panel.dispose();
  } finally {
    await extensionModule.deactivate();
    for (const d of ctx.subscriptions) d.dispose();
    Module._resolveFilename = resolve;
  }
});

'use strict';
// activate() against the stand-in `vscode` module and the real server: the tree, the status bar,
// the commands, a list pane's messages, the serializer, restarting, a server that cannot start.
const test = require('node:test');
const assert = require('node:assert/strict');
const Module = require('module');
const path = require('path');
const h = require('./helpers');

const stand = require('./host/vscode');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === 'vscode') return require.resolve('./host/vscode');
  return resolve.call(this, request, ...rest);
};
const extensionModule = require('../extension');
const { stub } = stand;

function context() {
  return { subscriptions: [], extensionUri: stand.Uri.file(path.resolve(__dirname, '..')), extensionPath: path.resolve(__dirname, '..') };
}

async function activate(settings) {
  stub.reset();
  stub.configuration = Object.assign({ 'taskls.path': h.bin, 'taskls.store': h.newStore() }, settings || {});
  const ctx = context();
  const extension = extensionModule.activate(ctx);
  return { extension, ctx, tree: stub.treeViews.get('taskls.overview') };
}

async function finish(ctx) {
  await extensionModule.deactivate();
  for (const d of ctx.subscriptions) d.dispose();
}

/** The tree's items now: [id, label, description]. */
function treeItems(tree) {
  const provider = tree.options.treeDataProvider;
  return provider.getChildren(undefined).map((node) => {
    const item = provider.getTreeItem(node);
    return [item.id, item.label, item.description, item.contextValue];
  });
}

function nodeOf(extension, id) { return extension.nodes.get(id); }

/** What the page was sent, batches unpacked. */
function messagesOf(panel) { return panel.webview.posted.flatMap((m) => (m.type === 'batch' ? m.messages : [m])); }
function postedOf(panel, type) { return messagesOf(panel).filter((m) => m.type === type); }

test('activate: the tree shows the smart groups and lists with live counts, the status bar Today', async () => {
  const { extension, ctx, tree } = await activate();
  try {
    assert.ok(stub.calls.some((c) => c[0] === 'createOutputChannel' && c[1] === 'taskls' && c[2].log === true));
    assert.ok(tree.options.dragAndDropController);
    for (const name of ['taskls.openList', 'taskls.addTask', 'taskls.restartServer', 'taskls.showOutput', 'taskls.createList', 'taskls.deleteList', 'taskls.undo']) {
      assert.ok(stub.commands.has(name), name);
    }
    const fired = [];
    tree.options.treeDataProvider.onDidChangeTreeData((node) => fired.push(node));
    assert.deepEqual(treeItems(tree), []);
    await h.waitFor(() => treeItems(tree).length === 5, 'the smart groups');
    assert.deepEqual(treeItems(tree).map((i) => i[0]), ['group:today', 'group:scheduled', 'group:overdue', 'group:all', 'group:completed']);
    assert.equal(stub.contexts.get('taskls.noLists'), true);
    assert.equal(stub.statusItems[0].text, '$(checklist) 0');
    stub.answer('inputBox', 'Inbox');
    await stub.commands.get('taskls.createList')();
    await h.waitFor(() => treeItems(tree).length === 6, 'the new list');
    assert.deepEqual(treeItems(tree)[5].slice(1), ['Inbox', '0', 'list']);
    assert.ok(fired.includes(undefined), 'a new list refreshes the whole tree');
    fired.length = 0;
    await extension.client.request('items/create', { list: 'l1', title: 'Call Ann', due: (extension.overview.today) });
    await h.waitFor(() => treeItems(tree)[5][2] === '1', 'the count');
    assert.equal(treeItems(tree)[0][2], '1', 'Today counts it');
    assert.equal(stub.statusItems[0].text, '$(checklist) 1');
    assert.ok(fired.length > 0 && fired.every((node) => node && node.id), 'a count change refreshes only its nodes');
    assert.equal(stub.contexts.get('taskls.noLists'), false);
  } finally { await finish(ctx); }
});

test('rename, recolor, reorder by drag and drop, delete with confirmation, undo', async () => {
  const { extension, ctx, tree } = await activate();
  try {
    await h.waitFor(() => treeItems(tree).length === 5, 'the tree');
    for (const name of ['Inbox', 'Work', 'Home']) await extension.client.request('lists/create', { name });
    await h.waitFor(() => treeItems(tree).length === 8, 'three lists');
    stub.answer('inputBox', 'Errands');
    await stub.commands.get('taskls.renameList')(nodeOf(extension, 'list:l3'));
    await h.waitFor(() => treeItems(tree)[7][1] === 'Errands', 'the new name');
    stub.answer('quickPick', (items) => items.find((i) => i.label === 'green'));
    await stub.commands.get('taskls.recolorList')(nodeOf(extension, 'list:l3'));
    await h.waitFor(() => nodeOf(extension, 'list:l3').color === 'charts.green', 'the colour');
    const item = tree.options.treeDataProvider.getTreeItem(nodeOf(extension, 'list:l3'));
    assert.equal(item.iconPath.color.id, 'charts.green');
    // Drag Errands onto Inbox: it goes before it.
    const controller = tree.options.dragAndDropController;
    const transfer = new stand.DataTransfer();
    await controller.handleDrag([nodeOf(extension, 'list:l3')], transfer, {});
    await controller.handleDrop(nodeOf(extension, 'list:l1'), transfer, {});
    await h.waitFor(() => treeItems(tree).slice(5).map((i) => i[1]).join() === 'Errands,Inbox,Work', 'the new order');
    // Dropped on nothing: last.
    const again = new stand.DataTransfer();
    await controller.handleDrag([nodeOf(extension, 'list:l3')], again, {});
    await controller.handleDrop(undefined, again, {});
    await h.waitFor(() => treeItems(tree).slice(5).map((i) => i[1]).join() === 'Inbox,Work,Errands', 'moved last');
    // Delete asks first; "no" keeps the list.
    stub.answer('warning', undefined);
    await stub.commands.get('taskls.deleteList')(nodeOf(extension, 'list:l2'));
    assert.equal(treeItems(tree).length, 8);
    stub.answer('warning', 'Delete');
    await stub.commands.get('taskls.deleteList')(nodeOf(extension, 'list:l2'));
    await h.waitFor(() => treeItems(tree).length === 7, 'the list gone');
    await stub.commands.get('taskls.undo')();
    await h.waitFor(() => treeItems(tree).length === 8, 'the list back');
    assert.ok(stub.messages.some((m) => m[0] === 'status' && m[1] === 'taskls: undid: delete a list'), JSON.stringify(stub.messages));
    await stub.commands.get('taskls.redo')();
    await h.waitFor(() => treeItems(tree).length === 7, 'the list gone again');
    assert.ok(stub.messages.some((m) => m[0] === 'status' && m[1] === 'taskls: redid: delete a list'), JSON.stringify(stub.messages));
    assert.ok(!stub.messages.some((m) => /lists\//.test(m[1])), 'never a method name');
  } finally { await finish(ctx); }
});

test('a list pane: strict CSP with a nonce, the page gets its snapshot after ready, edits, hidden panes catch up', async () => {
  const { extension, ctx, tree } = await activate();
  try {
    await h.waitFor(() => treeItems(tree).length === 5, 'the tree');
    await extension.client.request('lists/create', { name: 'Inbox' });
    await h.waitFor(() => nodeOf(extension, 'list:l1'), 'the list');
    await stub.commands.get('taskls.open')(nodeOf(extension, 'list:l1'));
    const panel = stub.panels[0];
    assert.equal(panel.viewType, 'taskls.list');
    assert.equal(panel.title, 'Inbox');
    assert.equal(panel.options.retainContextWhenHidden, undefined);
    const html = panel.webview.html;
    const token = /script-src 'nonce-([A-Za-z0-9+/=]{24})'/.exec(html)[1];
    assert.ok(!html.includes('unsafe-inline') && !html.includes('style="'));
    assert.equal(html.match(/<script /g).length, 3);
    assert.equal(html.match(new RegExp(`<script nonce="${token.replace(/[+/=]/g, (c) => `\\${c}`)}"`, 'g')).length, 3);
    assert.ok(html.includes("default-src 'none'"));
    assert.equal(panel.webview.posted.length, 0, 'nothing is posted before the page says ready');
    panel.webview.received.fire({ type: 'ready', state: {}, rows: 30 });
    await h.waitFor(() => postedOf(panel, 'snapshot').length === 1, 'the snapshot');
    const first = postedOf(panel, 'snapshot')[0].snapshot;
    assert.deepEqual([first.state, first.count, first.empty, first.window.start], ['ready', 0, 'noItems', 0]);
    assert.equal(postedOf(panel, 'init')[0].quickEntry, true);
    // The page adds a task with the quick-entry grammar.
    panel.webview.received.fire({ type: 'call', id: 1, action: 'add', args: { text: 'Buy milk ^tomorrow !high #home' } });
    await h.waitFor(() => postedOf(panel, 'reply').length === 1, 'the reply');
    const reply = postedOf(panel, 'reply')[0];
    assert.equal(reply.ok, true, JSON.stringify(reply));
    assert.deepEqual([reply.result.item.title, reply.result.item.priority, reply.result.item.tags], ['Buy milk', 'high', ['home']]);
    const change = postedOf(panel, 'changed')[0].params;
    assert.equal(change.ops[0].op, 'reset');
    assert.ok(panel.webview.posted.some((m) => m.type === 'batch' && /changed,(overview,)?reply/.test(m.messages.map((x) => x.type).join())),
      'the change and the answer it caused leave as one post, in order');
    // A line with a warning creates nothing and says why, however often it is sent (even by a
    // page that says it was accepted); the corrected line is stored.
    panel.webview.received.fire({ type: 'call', id: 2, action: 'add', args: { text: 'Call ^fryday' } });
    await h.waitFor(() => postedOf(panel, 'reply').length === 2, 'the second reply');
    assert.match(postedOf(panel, 'reply')[1].result.warnings[0], /fryday is not a date/);
    panel.webview.received.fire({ type: 'call', id: 3, action: 'add', args: { text: 'Call ^fryday', accepted: 'Call ^fryday' } });
    await h.waitFor(() => postedOf(panel, 'reply').length === 3, 'the third reply');
    assert.match(postedOf(panel, 'reply')[2].result.warnings[0], /fryday is not a date/);
    assert.equal((await extension.client.request('lists/open', { list: 'l1', window: { start: 0, end: 10 } })).count, 1, 'nothing created');
    panel.webview.received.fire({ type: 'call', id: 4, action: 'add', args: { text: 'Call ^friday' } });
    await h.waitFor(() => postedOf(panel, 'reply').length === 4, 'the fourth reply');
    assert.equal(postedOf(panel, 'reply')[3].result.item.title, 'Call');
    // Hidden: nothing is posted; visible again: one snapshot with everything.
    panel.setView(false, false);
    await new Promise((resolve) => setImmediate(resolve));
    const before = panel.webview.posted.length;
    await extension.client.request('items/create', { list: 'l1', title: 'While hidden' });
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(panel.webview.posted.length, before);
    panel.setView(true, true);
    await h.waitFor(() => panel.webview.posted.length > before, 'the catch-up');
    const last = messagesOf(panel)[messagesOf(panel).length - 1];
    assert.equal(last.type, 'snapshot');
    assert.deepEqual(last.snapshot.rows.map((r) => r.title), ['Buy milk', 'Call', 'While hidden']);
    // Renaming the list renames the pane.
    await extension.client.request('lists/update', { id: 'l1', name: 'Shopping' });
    await h.waitFor(() => panel.title === 'Shopping', 'the title');
    // A stored name is shown escaped: in the pane's title and the tree.
    await extension.client.request('lists/update', { id: 'l1', name: 'Shop\u001b[2Jping' });
    await h.waitFor(() => panel.title === 'Shop\\e[2Jping', 'the escaped title');
    await h.waitFor(() => nodeOf(extension, 'list:l1').label === 'Shop\\e[2Jping', 'the escaped tree label');
    // Opening it again reveals the same panel.
    await stub.commands.get('taskls.open')(nodeOf(extension, 'list:l1'));
    assert.equal(stub.panels.length, 1);
    // Deleting the list closes the pane's view.
    await extension.client.request('lists/delete', { id: 'l1' });
    await h.waitFor(() => postedOf(panel, 'closed').length === 1, 'closed');
    assert.equal(postedOf(panel, 'closed')[0].reason, 'listDeleted');
    panel.dispose();
    assert.equal(extension.panes.size, 0);
  } finally { await finish(ctx); }
});

test('the serializer restores a pane with its sort; restart reopens it; the palette commands', async () => {
  const { extension, ctx, tree } = await activate();
  try {
    await h.waitFor(() => treeItems(tree).length === 5, 'the tree');
    const list = await h.seed(extension.client, 'Inbox', ['b', 'a', 'c']);
    // VS Code restores the panel itself after a reload, then hands it to the serializer.
    const panel = stand.window.createWebviewPanel('taskls.list', 'Inbox', -1, {});
    await stub.serializers.get('taskls.list').deserializeWebviewPanel(panel, { host: { source: { list }, name: 'Inbox', sort: { by: 'title', direction: 'ascending' } } });
    assert.ok(panel.webview.html.includes('Content-Security-Policy'));
    panel.webview.received.fire({ type: 'ready', state: {}, rows: 10 });
    await h.waitFor(() => postedOf(panel, 'snapshot').length === 1, 'the snapshot');
    assert.deepEqual(postedOf(panel, 'snapshot')[0].snapshot.rows.map((r) => r.title), ['a', 'b', 'c']);
    const oldProcess = extension.client.process;
    await stub.commands.get('taskls.restartServer')();
    assert.notEqual(extension.client.process, oldProcess);
    await h.waitFor(() => postedOf(panel, 'snapshot').length === 2, 'the pane reopened');
    assert.deepEqual(postedOf(panel, 'snapshot')[1].snapshot.rows.map((r) => r.title), ['a', 'b', 'c']);
    // Open List… picks a smart group.
    stub.answer('quickPick', (items) => items.find((i) => i.node.id === 'group:all'));
    await stub.commands.get('taskls.openList')();
    assert.equal(stub.panels[stub.panels.length - 1].title, 'All');
    // Add Task from the palette reads the line with the server's grammar.
    stub.answer('inputBox', 'Pay rent ^2026-12-01 @Inbox');
    await stub.commands.get('taskls.addTask')();
    const items = (await extension.client.request('lists/open', { group: 'all' })).rows.map((r) => [r.title, r.due]);
    assert.deepEqual(items.find((i) => i[0] === 'Pay rent'), ['Pay rent', '2026-12-01']);
    // A line with warnings is never stored: the box comes back with the text and the warning,
    // and again when it is sent unchanged; the corrected line is stored.
    const asked = () => stub.calls.filter((c) => c[0] === 'showInputBox');
    const before = asked().length;
    stub.answer('inputBox', 'Water plants ^fryday');
    stub.answer('inputBox', 'Water plants ^fryday');
    stub.answer('inputBox', 'Water plants ^friday');
    await stub.commands.get('taskls.addTask')();
    const prompts = asked().slice(before);
    assert.equal(prompts.length, 3, JSON.stringify(prompts));
    assert.equal(prompts[0][2], '');
    for (const again of prompts.slice(1)) {
      assert.equal(again[2], 'Water plants ^fryday', 'the typed text comes back');
      assert.match(again[1], /fryday is not a date; did you mean friday\?/, 'the warning is in the prompt');
    }
    const titles = (await extension.client.request('lists/open', { group: 'all' })).rows.map((r) => r.title);
    assert.equal(titles.filter((t) => t.startsWith('Water plants')).length, 1, JSON.stringify(titles));
    assert.ok(titles.includes('Water plants'), 'the corrected line, as read');
    await stub.commands.get('taskls.showOutput')();
    assert.ok(stub.calls.some((c) => c[0] === 'output.show'));
    await stub.commands.get('taskls.info')();
    assert.ok(stub.messages.some((m) => m[0] === 'info' && /version: 0\./.test(m[1])), JSON.stringify(stub.messages));
  } finally { await finish(ctx); }
});

test('changing taskls.trace.server traces both sides from then on; changing taskls.store restarts on it', async () => {
  const { extension, ctx, tree } = await activate();
  try {
    await h.waitFor(() => treeItems(tree).length === 5, 'the tree');
    const change = (name) => { for (const listener of stub.configurationListeners) listener({ affectsConfiguration: (section) => section === name }); };
    assert.ok(!stub.outputLines.some((l) => l.includes('--> server/ping')));
    stub.configuration['taskls.trace.server'] = 'messages';
    change('taskls.trace.server');
    await extension.client.request('server/ping');
    assert.ok(stub.outputLines.some((l) => /^info --> server\/ping #\d+$/.test(l)), stub.outputLines.join('\n'));
    const store = h.newStore();
    stub.configuration['taskls.store'] = store;
    const before = extension.client;
    change('taskls.store');
    await h.waitFor(() => extension.client !== before && extension.client && extension.client.serverInfo, 'the restart');
    assert.equal((await extension.client.request('store/status')).path, store);
  } finally { await finish(ctx); }
});

test('a server that cannot start: the welcome view says so, one line in the output', async () => {
  const { extension, ctx, tree } = await activate({ 'taskls.path': '/nonexistent/taskls' });
  try {
    treeItems(tree);
    await h.waitFor(() => stub.contexts.get('taskls.serverFailed') === true, 'the failure');
    assert.deepEqual(treeItems(tree), []);
    assert.ok(stub.outputLines.some((l) => /^error cannot start the server \/nonexistent\/taskls: /.test(l)), stub.outputLines.join('\n'));
    assert.equal(stub.statusItems[0].text, '$(error) taskls');
    // Pointing the setting at the real server and restarting fixes it.
    stub.configuration['taskls.path'] = h.bin;
    await stub.commands.get('taskls.restartServer')();
    await h.waitFor(() => stub.contexts.get('taskls.serverFailed') === false, 'the server');
    await h.waitFor(() => treeItems(tree).length === 5, 'the tree');
  } finally { await finish(ctx); }
});

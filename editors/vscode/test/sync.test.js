'use strict';
// Sync with CalDAV in the overview (issue 22): a shared list's state in the Neovim pane's words after
// its count, coloured by its level, the lines under it (why; the last sync's notices); S and the
// Sync Now commands call `sync/now` and say how it went, a refusal in its own words. The tree runs
// through activate() against the stand-in `vscode` module and the real server, which reads the
// `sync-state.json` the sync program leaves beside the store.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const Module = require('module');
const path = require('path');
const h = require('./helpers');
const { overviewNodes, overviewChanges, syncWords, syncReport } = require('../src/overviewModel');

const state = (fields) => Object.assign({ list: 'l1', account: 'home', calendar: '/ann/groceries/', state: 'synced', syncedAt: null, message: null, waiting: 0, notices: [] }, fields);

test('a sync state in words, with its level; what sync/now answered, one line a list', () => {
  assert.equal(syncWords(undefined), null, 'a list not shared');
  assert.deepEqual(syncWords(state({ syncedAt: '2026-11-26T10:04:11.120Z' })), { words: 'synced 2026-11-26 10:04 UTC', level: 'state' });
  assert.deepEqual(syncWords(state({})), { words: 'synced', level: 'state' }, 'never synced yet');
  assert.deepEqual(syncWords(state({ state: 'syncing' })), { words: 'syncing…', level: 'state' });
  assert.deepEqual(syncWords(state({ state: 'syncing', progress: { sent: 3, total: 10 } })), { words: 'syncing, 3 of 10 sent', level: 'state' });
  assert.deepEqual(syncWords(state({ state: 'offline', waiting: 3 })), { words: 'offline, 3 waiting', level: 'warning' });
  assert.deepEqual(syncWords(state({ state: 'confirm' })), { words: 'sync waits for taskls: Sync Now (Confirm)', level: 'warning' });
  assert.deepEqual(syncWords(state({ state: 'error' })), { words: 'sync error', level: 'error' });
  const names = new Map([['l1', 'Groceries'], ['l2', 'Work\u001b']]);
  assert.deepEqual(syncReport({ lists: [
    { sync: state({ syncedAt: '2026-11-26T10:04:11.120Z' }), sent: 1, received: 0 },
    { sync: state({ list: 'l2', state: 'offline', waiting: 2 }), sent: 0, received: 0 },
    { sync: state({ list: 'l9', state: 'error' }), sent: 0, received: 0 },
  ] }, names), ['Groceries: synced 2026-11-26 10:04 UTC (1 sent, 0 received)', 'Work\\e: offline, 2 waiting', 'l9: sync error']);
  assert.deepEqual(syncReport({ lists: [] }, names), ['no list is shared']);
});

test('a shared list\'s node: the words after its count, the lines under it; a state change refreshes that node only', () => {
  const lists = [{ id: 'l1', name: 'Groceries', open: 1, total: 1 }, { id: 'l2', name: 'Work', open: 0, total: 2 }];
  const plain = { lists };
  assert.deepEqual(overviewNodes(plain).map((n) => [n.description, n.children.length]), [['1', 0], ['0', 0]]);
  const offline = { lists, sync: [state({ state: 'offline', waiting: 2, message: 'dav.example.com cannot be reached: timed out', notices: ['"Milk": both sides changed the title; kept "Milk 2l"'] })] };
  const [groceries, work] = overviewNodes(offline);
  assert.equal(groceries.description, '1  offline, 2 waiting');
  assert.deepEqual(groceries.sync, { words: 'offline, 2 waiting', level: 'warning' });
  assert.deepEqual(groceries.children.map((c) => [c.id, c.kind, c.label, c.level, c.icon]), [
    ['list:l1/message', 'syncMessage', 'dav.example.com cannot be reached: timed out', 'warning', 'warning'],
    ['list:l1/notice:0', 'syncNotice', '"Milk": both sides changed the title; kept "Milk 2l"', 'state', 'info'],
  ]);
  assert.match(groceries.tooltip, /offline, 2 waiting\ndav\.example\.com/);
  assert.equal(work.description, '0', 'not shared: its count only');
  assert.deepEqual(overviewChanges(plain, offline), { structure: false, changed: ['list:l1'] });
  // Synced and syncing say no message (a stale one is not shown); the icon spins while syncing.
  const syncing = overviewNodes({ lists, sync: [state({ state: 'syncing', message: 'old' })] })[0];
  assert.deepEqual([syncing.description, syncing.icon, syncing.children.length], ['1  syncing…', 'sync~spin', 0]);
  const confirm = overviewNodes({ lists, sync: [state({ state: 'confirm', message: 'every task is gone from the calendar' })] })[0];
  assert.deepEqual(confirm.children.map((c) => [c.kind, c.level]), [['syncConfirm', 'warning']]);
  const error = overviewNodes({ lists, sync: [state({ state: 'error', message: 'the server said 500' })] })[0];
  assert.deepEqual([error.description, error.children[0].icon, error.children[0].level], ['1  sync error', 'error', 'error']);
  assert.deepEqual(overviewChanges(offline, { lists, sync: [state({ state: 'offline', waiting: 2, message: 'dav.example.com cannot be reached: timed out' })] }),
    { structure: false, changed: ['list:l1'] }, 'a notice gone changes the node');
});

/** Writes the sync program's state file beside `store`, replaced whole with a rename as it does. */
function writeSyncState(store, lists) {
  fs.writeFileSync(path.join(store, 'sync-state.json.tmp'), JSON.stringify({ lists }));
  fs.renameSync(path.join(store, 'sync-state.json.tmp'), path.join(store, 'sync-state.json'));
}

test('a shared list shows its sync state; S syncs, and a refusal says why', async () => {
  const stand = require('./host/vscode');
  const resolve = Module._resolveFilename;
  Module._resolveFilename = function (request, ...rest) {
    if (request === 'vscode') return require.resolve('./host/vscode');
    return resolve.call(this, request, ...rest);
  };
  const extensionModule = require('../extension');
  const { stub } = stand;
  stub.reset();
  const store = h.newStore();
  stub.configuration = { 'taskls.path': h.bin, 'taskls.store': store };
  const ctx = { subscriptions: [], extensionUri: stand.Uri.file(path.resolve(__dirname, '..')), extensionPath: path.resolve(__dirname, '..') };
  const extension = extensionModule.activate(ctx);
  const provider = stub.treeViews.get('taskls.overview').options.treeDataProvider;
  const decorations = stub.decorationProviders[0];
  /** The tree as shown: one `label  description` string per row, the lines under a list indented. */
  const shown = () => provider.getChildren(undefined).flatMap((node) => {
    const item = provider.getTreeItem(node);
    return [`${item.label}  ${item.description}`, ...provider.getChildren(node).map((child) => `    ${provider.getTreeItem(child).label}`)];
  });
  const colorOf = (node) => {
    const item = provider.getTreeItem(node);
    const decoration = item.resourceUri && decorations.provideFileDecoration(item.resourceUri);
    return decoration ? decoration.color.id : undefined;
  };
  try {
    provider.getChildren(undefined);
    const id = await h.seed(extension.server(), 'Groceries', ['Milk']);
    await h.waitFor(() => shown().includes('Groceries  1'), 'the list');
    assert.equal(stub.contexts.get('taskls.shared'), false);
    const fired = [];
    provider.onDidChangeTreeData((node) => fired.push(node));
    writeSyncState(store, [state({ list: id, state: 'offline', message: 'dav.example.com cannot be reached: timed out', waiting: 2 })]);
    await h.waitFor(() => shown().includes('Groceries  1  offline, 2 waiting'), 'the offline state');
    assert.ok(shown().includes('    dav.example.com cannot be reached: timed out'), `why: ${shown().join('\n')}`);
    assert.equal(stub.contexts.get('taskls.shared'), true, 'the title bar\'s Sync Now shows');
    assert.ok(fired.length > 0 && fired.every((node) => node && node.id === `list:${id}`), 'only the list\'s node refreshed');
    const list = extension.nodes.get(`list:${id}`);
    const item = provider.getTreeItem(list);
    assert.equal(item.collapsibleState, stand.TreeItemCollapsibleState.Expanded, 'the lines under it show');
    assert.equal(item.contextValue, 'list', 'its menus stay');
    assert.equal(colorOf(list), 'list.warningForeground');
    const why = provider.getChildren(list)[0];
    assert.equal(colorOf(why), 'list.warningForeground');
    assert.deepEqual([provider.getTreeItem(why).iconPath.id, provider.getTreeItem(why).iconPath.color.id], ['warning', 'list.warningForeground']);
    assert.equal(provider.getParent(why), list);
    // S in the overview (the contributed key) asks the server to sync: the sync program finds no account, and says so.
    const manifest = require('../package.json');
    const key = manifest.contributes.keybindings.find((k) => k.key === 'shift+s');
    assert.equal(key.when, 'focusedView == taskls.overview && !inputFocus');
    assert.equal(await stub.commands.get(key.command)(), undefined, 'refused');
    const refusal = stub.messages.find((m) => m[0] === 'error');
    assert.ok(refusal && /^taskls: no account: add one with `taskls sync add /.test(refusal[1]), JSON.stringify(stub.messages));
    assert.deepEqual(stub.progress, ['taskls: syncing…']);
    // The last sync's notices under it, dim; a sync error in the error colour; synced: no colour, no message.
    writeSyncState(store, [state({ list: id, state: 'error', message: 'the server answered 500', notices: ['"Milk": both sides changed the title'] })]);
    await h.waitFor(() => shown().includes('Groceries  1  sync error'), 'the error state');
    assert.deepEqual(shown().slice(-2), ['    the server answered 500', '    "Milk": both sides changed the title']);
    const failed = extension.nodes.get(`list:${id}`);
    assert.deepEqual(provider.getChildren(failed).map(colorOf), ['list.errorForeground', 'descriptionForeground']);
    assert.equal(colorOf(failed), 'list.errorForeground');
    writeSyncState(store, [state({ list: id, syncedAt: '2026-11-26T10:04:11.120Z', message: 'stale' })]);
    await h.waitFor(() => shown().includes('Groceries  1  synced 2026-11-26 10:04 UTC'), 'the synced state');
    assert.equal(colorOf(extension.nodes.get(`list:${id}`)), undefined);
    assert.equal(provider.getTreeItem(extension.nodes.get(`list:${id}`)).collapsibleState, stand.TreeItemCollapsibleState.None);
    // Waiting for a confirmed sync: the line under it offers Sync Now (Confirm) for that list, which asks with confirm.
    writeSyncState(store, [state({ list: id, state: 'confirm', message: 'every task synced before is gone from the calendar' })]);
    await h.waitFor(() => shown().includes('Groceries  1  sync waits for taskls: Sync Now (Confirm)'), 'the confirm state');
    const line = provider.getChildren(extension.nodes.get(`list:${id}`))[0];
    assert.equal(provider.getTreeItem(line).contextValue, 'syncConfirm');
    const inline = manifest.contributes.menus['view/item/context'].find((i) => i.group === 'inline' && i.command === 'taskls.syncConfirm');
    assert.equal(inline.when, 'view == taskls.overview && viewItem == syncConfirm');
    stub.messages.length = 0;
    await stub.commands.get('taskls.syncConfirm')(line);
    assert.deepEqual(stub.progress, ['taskls: syncing…', 'taskls: syncing (confirmed)…']);
    assert.match(stub.messages.find((m) => m[0] === 'error')[1], /^taskls: no account: add one with `taskls sync add /);
    // Unshared (the file names no list): the overview says nothing of sync.
    writeSyncState(store, []);
    await h.waitFor(() => shown().includes('Groceries  1'), 'no sync state');
    assert.equal(stub.contexts.get('taskls.shared'), false);
  } finally {
    await extensionModule.deactivate();
    for (const d of ctx.subscriptions) d.dispose();
    Module._resolveFilename = resolve;
  }
});

'use strict';
// Smart lists through activate() (the stand-in `vscode` module) and the real server: the tree shows
// them between the smart groups and the lists with live counts; one opens like a group; Save Filter
// as Smart List saves the front pane's filter (open tasks only, over its list, or every list for a
// group); rename, reorder by drag and drop, delete with confirmation (its pane says so), undo.
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

async function activate() {
  stub.reset();
  stub.configuration = { 'taskls.path': h.bin, 'taskls.store': h.newStore() };
  const ctx = { subscriptions: [], extensionUri: stand.Uri.file(path.resolve(__dirname, '..')), extensionPath: path.resolve(__dirname, '..') };
  const extension = extensionModule.activate(ctx);
  const tree = stub.treeViews.get('taskls.overview');
  tree.options.treeDataProvider.getChildren(undefined);
  await h.waitFor(() => extension.overview, 'the overview');
  return { extension, ctx, tree };
}

function treeItems(tree) {
  const provider = tree.options.treeDataProvider;
  return provider.getChildren(undefined).map((node) => {
    const item = provider.getTreeItem(node);
    return [item.id, item.label, item.description, item.contextValue];
  });
}
const messagesOf = (panel) => panel.webview.posted.flatMap((m) => (m.type === 'batch' ? m.messages : [m]));
const postedOf = (panel, type) => messagesOf(panel).filter((m) => m.type === type);

/** Opens `node`'s pane and waits for its first snapshot; the page's calls go through `ask`. */
async function openPane(extension, node) {
  await stub.commands.get('taskls.open')(node);
  const pane = [...extension.panes].find((p) => p.host.name === node.name || p.host.name === node.label);
  for (const other of extension.panes) if (other !== pane && other.panel.active) other.panel.setView(true, false); // one active panel, as in VS Code
  pane.panel.webview.received.fire({ type: 'ready', state: {}, rows: 20 });
  await h.waitFor(() => postedOf(pane.panel, 'snapshot').length > 0, 'the snapshot');
  let id = 1000;
  pane.ask = async (action, args) => {
    const call = id++;
    pane.panel.webview.received.fire({ type: 'call', id: call, action, args });
    const reply = await h.waitFor(() => postedOf(pane.panel, 'reply').find((m) => m.id === call), `the reply to ${action}`);
    assert.equal(reply.ok, true, JSON.stringify(reply));
    return reply.result;
  };
  return pane;
}

test('smart lists: in the tree with live counts, saved from a pane\'s filter, opened, renamed, reordered, deleted', async () => {
  const { extension, ctx, tree } = await activate();
  const request = (method, params) => extension.client.request(method, params);
  try {
    const home = (await request('lists/create', { name: 'Home' })).list.id;
    const work = (await request('lists/create', { name: 'Work' })).list.id;
    for (const [list, title] of [[home, 'Buy stamps #errand'], [home, 'Bank #errand'], [work, 'Post office #errand'], [work, 'Report']]) {
      const { fields } = await request('text/parseItem', { text: title, list });
      await request('items/create', fields);
    }
    await h.waitFor(() => treeItems(tree).length === 7, 'the lists');
    // Save the filter of Home's pane: #errand, open tasks only, over Home.
    const homePane = await openPane(extension, extension.nodes.get(`list:${home}`));
    assert.equal((await homePane.ask('filter', { text: '#errand' })).applied, true);
    await homePane.ask('toggle', { ids: [homePane.host.model.rows.find((r) => r.title === 'Bank').id], done: true });
    stub.answer('inputBox', 'Home errands');
    const saved = await stub.commands.get('taskls.saveSmartList')();
    assert.deepEqual([saved.smartList.filter, saved.smartList.lists, saved.smartList.count], [{ done: 'notDone', tagsAllOf: ['errand'] }, [home], 1]);
    assert.ok(stub.calls.some((c) => c[0] === 'showInputBox' && c[2] === '#errand'), 'the name box starts with the filter as typed');
    // From the All group's pane: every list.
    const allPane = await openPane(extension, extension.nodes.get('group:all'));
    await allPane.ask('filter', { text: '#errand' });
    stub.answer('inputBox', 'Errands');
    const everywhere = await stub.commands.get('taskls.saveSmartList')();
    assert.deepEqual([everywhere.smartList.lists, everywhere.smartList.count], [null, 2]);
    // The tree: groups, then the smart lists in their order with their counts, then the lists.
    const first = saved.smartList.id;
    const second = everywhere.smartList.id;
    await h.waitFor(() => treeItems(tree).length === 9, 'the smart lists in the tree');
    assert.deepEqual(treeItems(tree).slice(5), [
      [`smart:${first}`, 'Home errands', '1', 'smartList'], [`smart:${second}`, 'Errands', '2', 'smartList'],
      [`list:${home}`, 'Home', '1', 'list'], [`list:${work}`, 'Work', '2', 'list']]);
    assert.equal(tree.options.treeDataProvider.getTreeItem(extension.nodes.get(`smart:${second}`)).command.command, 'taskls.open');
    // Live counts.
    await request('items/create', { list: work, title: 'Dry cleaning', tags: ['errand'] });
    await h.waitFor(() => treeItems(tree)[6][2] === '3', 'the count');
    // Opened like a group: the view is on the smart list, its rows across lists.
    const smartPane = await openPane(extension, extension.nodes.get(`smart:${second}`));
    assert.deepEqual(smartPane.host.source, { smartList: second });
    assert.deepEqual(smartPane.host.model.rows.map((r) => r.title).sort(), ['Buy stamps', 'Dry cleaning', 'Post office']);
    assert.equal(smartPane.panel.title, 'Errands');
    await stub.commands.get('taskls.open')(extension.nodes.get(`smart:${second}`));
    assert.equal([...extension.panes].filter((p) => p.host.source.smartList === second).length, 1, 'opening it again reveals its pane');
    // Renamed: the tree and the pane's title follow (escaped).
    stub.answer('inputBox', 'Out\u001b[1m and about');
    await stub.commands.get('taskls.renameSmartList')(extension.nodes.get(`smart:${second}`));
    await h.waitFor(() => smartPane.panel.title === 'Out\\e[1m and about', 'the pane title');
    assert.equal(treeItems(tree)[6][1], 'Out\\e[1m and about');
    stub.answer('quickPick', (items) => items.find((i) => i.label === 'blue'));
    await stub.commands.get('taskls.recolorSmartList')(extension.nodes.get(`smart:${second}`));
    await h.waitFor(() => extension.nodes.get(`smart:${second}`).color === 'charts.blue', 'the colour');
    assert.equal(tree.options.treeDataProvider.getTreeItem(extension.nodes.get(`smart:${second}`)).iconPath.color.id, 'charts.blue');
    // Dragged onto the first: before it.
    const transfer = new stand.DataTransfer();
    await tree.options.dragAndDropController.handleDrag([extension.nodes.get(`smart:${second}`)], transfer, {});
    await tree.options.dragAndDropController.handleDrop(extension.nodes.get(`smart:${first}`), transfer, {});
    await h.waitFor(() => treeItems(tree)[5][0] === `smart:${second}`, 'the new order');
    // Delete asks first; "no" keeps it; yes closes its pane's view in words; undo brings it back.
    stub.answer('warning', undefined);
    await stub.commands.get('taskls.deleteSmartList')(extension.nodes.get(`smart:${second}`));
    assert.equal(treeItems(tree).length, 9);
    assert.ok(stub.messages.some((m) => m[0] === 'warning' && m[1] === 'Delete the smart list "Out\\e[1m and about"?'));
    stub.answer('warning', 'Delete');
    await stub.commands.get('taskls.deleteSmartList')(extension.nodes.get(`smart:${second}`));
    await h.waitFor(() => postedOf(smartPane.panel, 'closed').length === 1, 'the pane closed');
    assert.equal(postedOf(smartPane.panel, 'closed')[0].reason, 'smartListDeleted');
    await h.waitFor(() => treeItems(tree).length === 8, 'gone from the tree');
    assert.equal((await request('lists/open', { group: 'all' })).count, 4, 'its tasks stay (the open ones: All)');
    await stub.commands.get('taskls.undo')();
    await h.waitFor(() => treeItems(tree).length === 9, 'back');
    assert.ok(stub.messages.some((m) => m[0] === 'status' && /^taskls: undid: /.test(m[1])));
  } finally {
    await extensionModule.deactivate();
    for (const d of ctx.subscriptions) d.dispose();
  }
});

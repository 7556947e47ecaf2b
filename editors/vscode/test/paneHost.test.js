'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { PaneHost } = require('../src/paneHost');
const h = require('./helpers');

/** A pane host whose page is an array of posted messages. */
function pane(client, source, restored) {
  const posted = [];
  const post = (m) => { if (m.type === 'batch') m.messages.forEach(post); else posted.push(JSON.parse(JSON.stringify(m))); };
  const host = new PaneHost({ client, source, name: 'Pane', post, restored });
  host.posted = posted;
  let nextId = 1;
  host.ask = async (action, args) => {
    const id = nextId++;
    host.receive({ type: 'call', id, action, args });
    const reply = await h.waitFor(() => posted.find((m) => m.type === 'reply' && m.id === id), `the reply to ${action}`);
    if (!reply.ok) throw Object.assign(new Error(reply.error), { code: reply.code, reason: reply.reason });
    return reply.result;
  };
  return host;
}

const snapshots = (host) => host.posted.filter((m) => m.type === 'snapshot');

test('a big list opens with a small window; window moves are one at a time, the latest wins', async () => {
  const { store, list } = await h.bigStore(100000);
  const client = await h.startClient({ store });
  try {
    const host = pane(client, { list });
    host.receive({ type: 'ready', state: {}, rows: 40 });
    // A store over 1 MiB is read after initialize: the view may open loading, then reset.
    await h.waitFor(() => host.model.state === 'ready', 'the rows', 20000);
    assert.equal(host.model.count, 100000);
    assert.equal(host.model.rows.length, 240);
    host.receive({ type: 'setWindow', start: 1000, end: 1240 });
    host.receive({ type: 'setWindow', start: 2000, end: 2240 });
    host.receive({ type: 'setWindow', start: 50000, end: 50240 });
    await h.waitFor(() => host.model.window.start === 50000 && !host.windowInFlight, 'the last window');
    assert.equal(host.stats.windowRequests, 2, 'the middle wish was overtaken');
    assert.equal(host.model.rowAt(50000).title, 'Task 50001');
    host.receive({ type: 'setWindow', start: 0, end: 5000 });
    await h.waitFor(() => host.model.window.start === 0 && !host.windowInFlight, 'the capped window');
    assert.equal(host.model.window.end, 1000, 'at most 1,000 rows');
  } finally { await client.stop(); }
});

test('moves by index check the version; a stale one resyncs and says so', async () => {
  const client = await h.startClient();
  try {
    const list = await h.seed(client, 'Order', ['A', 'B', 'C']);
    const host = pane(client, { list });
    host.receive({ type: 'ready', state: {}, rows: 10 });
    await h.waitFor(() => snapshots(host).length === 1, 'the snapshot');
    const version = host.model.version;
    await host.ask('move', { version, from: 0, count: 1, to: 2 });
    assert.deepEqual(host.model.rows.map((r) => r.title), ['B', 'C', 'A']);
    await assert.rejects(host.ask('move', { version, from: 0, count: 1, to: 2 }), /the list changed meanwhile/);
    await host.ask('sort', { sort: { by: 'title', direction: 'ascending' } });
    await assert.rejects(host.ask('move', { version: host.model.version, from: 0, count: 1, to: 1 }), (e) => e.reason === 'sortedView');
  } finally { await client.stop(); }
});

test('filter through the grammar, sections, details, rename with @list, today group dues', async () => {
  const client = await h.startClient();
  try {
    const inbox = await h.seed(client, 'Inbox', ['Milk', 'Bread']);
    const work = await h.seed(client, 'Work', []);
    await client.watchOverview(() => {});
    const host = pane(client, { list: inbox });
    host.receive({ type: 'ready', state: {}, rows: 10 });
    await h.waitFor(() => snapshots(host).length === 1, 'the snapshot');
    const milk = host.model.rows[0];
    const { warnings } = await host.ask('filter', { text: 'milk @Inbox' });
    assert.match(warnings[0], /list/);
    assert.deepEqual(host.model.rows.map((r) => r.title), ['Milk']);
    assert.equal(host.persistentState().filterText, 'milk @Inbox');
    await host.ask('filter', { text: 'zzz' });
    assert.equal(host.model.empty, 'noMatches');
    await host.ask('filter', { text: '' });
    assert.equal(host.model.count, 2);
    await host.ask('details', { id: milk.id, list: inbox, due: 'tomorrow 9:30', priority: 'high', tags: '#home, shop', notes: 'two litres' });
    const item = await host.ask('get', { id: milk.id });
    assert.deepEqual([item.priority, item.tags, item.notes, /T09:30:00/.test(item.due)], ['high', ['home', 'shop'], 'two litres', true]);
    assert.deepEqual((await host.ask('details', { id: milk.id, list: inbox, due: 'fryday' })).warnings.length, 1);
    await host.ask('details', { id: milk.id, list: inbox, due: '' });
    assert.equal((await host.ask('get', { id: milk.id })).due, null);
    await host.ask('sections', { sections: 'priority' });
    assert.deepEqual(host.model.rows.map((r) => r.kind === 'header' ? `[${r.title} ${r.count}]` : r.title), ['[High 1]', 'Milk', '[No Priority 1]', 'Bread']);
    await host.ask('rename', { id: milk.id, list: inbox, text: 'Oat milk @Work' });
    assert.deepEqual(host.model.rows.map((r) => r.title), ['No Priority', 'Bread'], 'the item left for Work');
    assert.equal((await host.ask('get', { id: milk.id })).list, work);
    const today = pane(client, { group: 'today' });
    today.receive({ type: 'ready', state: {}, rows: 10 });
    await h.waitFor(() => snapshots(today).length === 1, 'the today snapshot');
    await today.ask('add', { text: 'Due today by default' });
    assert.deepEqual(today.model.rows.map((r) => [r.title, r.due]), [['Due today by default', client.overview.today]]);
    today.dispose();
    host.dispose();
    await assert.rejects(client.request('view/snapshot', { view: host.model.view }), (e) => e.reason === 'unknownView');
  } finally { await client.stop(); }
});

test('a version gap resyncs silently; the server stopping tells the page; retry reopens', async () => {
  const client = await h.startClient();
  try {
    const list = await h.seed(client, 'Gap', ['A']);
    const host = pane(client, { list });
    host.receive({ type: 'ready', state: {}, rows: 10 });
    await h.waitFor(() => snapshots(host).length === 1, 'the snapshot');
    host.model.version -= 1;
    await client.request('items/create', { list, title: 'B' });
    await h.waitFor(() => snapshots(host).length === 2, 'the resync');
    assert.equal(snapshots(host)[1].reason, 'resync');
    assert.deepEqual(snapshots(host)[1].snapshot.rows.map((r) => r.title), ['A', 'B']);
    assert.equal(host.stats.gaps, 1);
    assert.equal(host.posted.filter((m) => m.type === 'reply').length, 0, 'nothing said to the user');
    client.process.kill('SIGTERM');
    await h.waitFor(() => !client.running, 'the exit');
    host.serverStopped('the server exited');
    await h.waitFor(() => host.posted[host.posted.length - 1].type === 'stopped', 'stopped');
    await host.ask('retry', {});
    assert.deepEqual(host.model.rows.map((r) => r.title), ['A', 'B']);
  } finally { await client.stop(); }
});

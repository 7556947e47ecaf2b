'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const h = require('./helpers');
const words = require('../src/words');

/** A pane host whose page is an array of posted messages (helpers.testPane). */
const pane = h.testPane;

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
    // A filter with a warning is not applied; the one without is.
    const { warnings, applied } = await host.ask('filter', { text: 'milk @Inbox' });
    assert.match(warnings[0], /list/);
    assert.equal(applied, false);
    assert.deepEqual(host.model.rows.map((r) => r.title), ['Milk', 'Bread']);
    assert.equal(host.persistentState().filterText, '');
    await host.ask('filter', { text: 'milk' });
    assert.deepEqual(host.model.rows.map((r) => r.title), ['Milk']);
    assert.equal(host.persistentState().filterText, 'milk');
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

test('a due written in another offset shows the client wall clock (dueLocal, Pacific/Kiritimati), in rows and in the form', async () => {
  // 12:00 UTC on the 26th is 02:00 on the 27th in Kiritimati (UTC+14): the overview's today is the 27th.
  const client = await h.startClient({ timeZone: 'Pacific/Kiritimati', args: ['--clock', '2026-11-26T12:00:00Z'] });
  try {
    const list = await h.seed(client, 'Far', []);
    const { item } = await client.request('items/create', { list, title: 'Call', due: '2026-11-27T17:00:00Z' });
    const host = pane(client, { list });
    host.receive({ type: 'ready', state: {}, rows: 10 });
    await h.waitFor(() => snapshots(host).length === 1, 'the snapshot');
    const overview = await client.request('lists/list', {});
    assert.equal(overview.today, '2026-11-27');
    const row = host.model.rows[0];
    assert.equal(row.dueLocal, '2026-11-28T07:00');
    // The page's zone deliberately differs: the words come from dueLocal, not from Intl nor the Z offset.
    const context = { today: overview.today, timeZone: 'America/Los_Angeles', now: Date.parse('2026-11-26T12:00:00Z') };
    assert.equal(words.rowWords(row, context).due.text, 'tomorrow 07:00');
    assert.equal(words.rowText(row, context), '[ ] Call  tomorrow 07:00');
    // The form shows it as the grammar reads it back; saved unchanged, the due is the same instant.
    const full = await host.ask('get', { id: item.id });
    const phrase = words.duePhrase(full.due, full.dueLocal, 'America/Los_Angeles');
    assert.equal(phrase, '2026-11-28 07:00');
    await host.ask('details', { id: item.id, list, due: phrase, priority: 'none', tags: '', notes: '' });
    const saved = await client.request('items/get', { id: item.id });
    assert.equal(Date.parse(saved.due), Date.parse('2026-11-27T17:00:00Z'));
    assert.equal(saved.dueLocal, '2026-11-28T07:00');
  } finally { await client.stop(); }
});

test('a typed line with warnings is never stored, even sent again unchanged; a filter with warnings is not applied', async () => {
  const client = await h.startClient();
  try {
    const list = await h.seed(client, 'Inbox', ['Buy milk']);
    await client.request('items/create', { list, title: 'Eat', tags: ['food'] });
    const host = pane(client, { list });
    host.receive({ type: 'ready', state: {}, rows: 10 });
    await h.waitFor(() => snapshots(host).length === 1, 'the snapshot');
    for (let attempt = 0; attempt < 2; attempt++) {
      const answer = await host.ask('add', { text: 'Water plants ^fryday' });
      assert.deepEqual(answer.warnings, ['fryday is not a date; did you mean friday?']);
      assert.equal((await client.request('lists/open', { list, window: { start: 0, end: 10 } })).count, 2, 'nothing created');
    }
    const id = host.model.rows[0].id;
    for (let attempt = 0; attempt < 2; attempt++) {
      const answer = await host.ask('rename', { id, list, text: 'Buy oat milk !hgh' });
      assert.equal(answer.warnings.length, 1);
      assert.equal((await client.request('items/get', { id })).title, 'Buy milk', 'nothing renamed');
    }
    const applied = await host.ask('filter', { text: '#food' });
    assert.equal(applied.applied, true);
    await h.waitFor(() => host.model.count === 1, 'filtered by the tag');
    const refused = await host.ask('filter', { text: '#food due<fryday' });
    assert.equal(refused.applied, false);
    assert.deepEqual(refused.warnings, ['fryday is not a date; did you mean friday?']);
    assert.deepEqual(host.model.filter, { tagsAllOf: ['food'] }, 'the view keeps its filter');
    assert.equal(host.settings.filterText, '#food');
    assert.equal(host.model.count, 1);
  } finally { await client.stop(); }
});

test('undo and redo answer with the step in words', async () => {
  const client = await h.startClient();
  try {
    const list = await h.seed(client, 'Inbox', ['A', 'B', 'C', 'D']);
    const host = pane(client, { list });
    host.receive({ type: 'ready', state: {}, rows: 10 });
    await h.waitFor(() => snapshots(host).length === 1, 'the snapshot');
    await host.ask('delete', { ids: host.model.rows.slice(0, 3).map((r) => r.id) });
    const undone = await host.ask('undo', {});
    assert.equal(words.stepWords('undid', undone), 'undid: delete 3 tasks');
    const redone = await host.ask('redo', {});
    assert.equal(words.stepWords('redid', redone), 'redid: delete 3 tasks');
    await host.ask('toggle', { ids: [host.model.rows[0].id], done: true });
    assert.equal(words.stepWords('undid', await host.ask('undo', {})), 'undid: complete 1 task');
  } finally { await client.stop(); }
});

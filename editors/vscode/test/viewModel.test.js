'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { ViewModel, applyOp } = require('../src/viewModel');
const h = require('./helpers');

/** A seeded generator (mulberry32), so a failure can be replayed. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

test('ops by hand: insert, remove, move with and without its row, update, reset', () => {
  const row = (id, title) => ({ kind: 'item', id, title });
  let rows = [row('a'), row('b'), row('c')];
  rows = applyOp(rows, { op: 'insert', index: 1, row: row('x') });
  rows = applyOp(rows, { op: 'remove', index: 0 });
  rows = applyOp(rows, { op: 'move', from: 0, to: 2 });
  rows = applyOp(rows, { op: 'move', from: 2, to: 0, row: row('x', 'new') });
  rows = applyOp(rows, { op: 'update', index: 1, row: row('b', 'B') });
  assert.deepEqual(rows.map((r) => [r.id, r.title]), [['x', 'new'], ['b', 'B'], ['c', undefined]]);
  assert.deepEqual(applyOp(rows, { op: 'reset', rows: [row('z')] }).map((r) => r.id), ['z']);
  assert.throws(() => applyOp(rows, { op: 'nope' }), /unknown op/);
});

test('a model kept by notifications equals a fresh snapshot after 300 random changes (seeded)', async () => {
  const seed = Number(process.env.TASKLS_SEED || 15);
  const next = random(seed);
  const client = await h.startClient();
  try {
    const list = await h.seed(client, 'Random', Array.from({ length: 40 }, (_, i) => `Item ${i}`));
    const models = [];
    const views = [
      { list, window: { start: 5, end: 25 } },
      { list, window: { start: 0, end: 100 }, sort: { by: 'title', direction: 'descending' } },
      { list, window: { start: 0, end: 30 }, sections: 'done' },
      { list, window: { start: 0, end: 50 }, filter: { done: 'notDone' } },
    ];
    for (const params of views) {
      const model = new ViewModel();
      model.applySnapshot(await client.request('lists/open', params));
      client.register(model.view, { changed: (p) => assert.equal(model.applyChanged(p), 'applied'), closed: () => {} });
      models.push(model);
    }
    let ops = 0;
    for (let step = 0; step < 300; step++) {
      const snapshot = await client.request('view/snapshot', { view: models[0].view });
      const items = snapshot.rows.filter((r) => r.kind === 'item');
      const choice = next();
      const pick = () => items[Math.floor(next() * items.length)];
      if (choice < 0.25 || items.length < 3) await client.request('items/create', { list, title: `New ${step}`, before: items.length > 0 && next() < 0.5 ? pick().id : null });
      else if (choice < 0.45) await client.request('items/update', { id: pick().id, done: next() < 0.5 });
      else if (choice < 0.6) await client.request('items/update', { id: pick().id, title: `Retitled ${step}` });
      else if (choice < 0.75) await client.request('items/delete', { ids: [pick().id] });
      else if (choice < 0.9) await client.request('items/move', { ids: [pick().id], before: next() < 0.3 ? null : pick().id }).catch((e) => assert.equal(e.reason, 'beforeInBlock'));
      else await client.request('undo');
      ops += 1;
    }
    for (const model of models) {
      const fresh = await client.request('view/snapshot', { view: model.view });
      assert.equal(model.version, fresh.version);
      assert.equal(model.count, fresh.count);
      assert.deepEqual(model.rows, fresh.rows);
      assert.ok(model.version > 50, `the view changed (${model.version})`);
    }
    assert.equal(ops, 300);
  } finally { await client.stop(); }
});

test('a version gap is reported, not applied; a stale version is ignored', async () => {
  const client = await h.startClient();
  try {
    const list = await h.seed(client, 'Gap', ['A', 'B']);
    const model = new ViewModel();
    model.applySnapshot(await client.request('lists/open', { list }));
    const outcomes = [];
    client.register(model.view, { changed: (p) => outcomes.push(model.applyChanged(p)), closed: () => {} });
    model.version -= 1; // as if a notification had been missed
    await client.request('items/create', { list, title: 'C' });
    assert.deepEqual(outcomes, ['gap']);
    assert.equal(model.rows.length, 2);
    model.applySnapshot(await client.request('view/snapshot', { view: model.view }));
    assert.deepEqual(model.rows.map((r) => r.title), ['A', 'B', 'C']);
    assert.equal(model.applyChanged({ version: model.version, ops: [] }), 'stale');
  } finally { await client.stop(); }
});

test('a window move keeps the version and brings the rows of the new window', async () => {
  const { store, list } = await h.bigStore(2000);
  const client = await h.startClient({ store });
  try {
    const model = new ViewModel();
    model.applySnapshot(await client.request('lists/open', { list, window: { start: 0, end: 50 } }));
    assert.equal(model.count, 2000);
    const version = model.version;
    model.applySnapshot(await client.request('view/setWindow', { view: model.view, window: { start: 1000, end: 1100 } }));
    assert.equal(model.version, version);
    assert.equal(model.rowAt(1000).title, 'Task 1001');
    assert.equal(model.indexOf(model.rowAt(1099).id), 1099);
    assert.equal(model.rowAt(999), undefined);
  } finally { await client.stop(); }
});

'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { PassThrough } = require('stream');
const { Client, RequestError } = require('../src/client');
const { Connection } = require('../src/connection');
const { encode } = require('../src/framing');
const h = require('./helpers');

test('initialize: the server says what it is and what it understands', async () => {
  const client = await h.startClient();
  try {
    assert.equal(client.serverInfo.name, 'taskls');
    assert.ok(client.supports('lists/open'));
    assert.ok(client.supports('text/parseItem'));
    assert.ok(!client.supports('no/such'));
    assert.deepEqual(await client.request('server/ping'), {});
  } finally { await client.stop(); }
});

test('the store setting wins over $TASKLS_STORE', async () => {
  const store = h.newStore();
  const client = await h.startClient({ store, env: Object.assign({}, process.env, { TASKLS_STORE: h.newStore() }) });
  try {
    assert.equal((await client.request('store/status')).path, store);
  } finally { await client.stop(); }
});

test('errors arrive as one line with their code and reason', async () => {
  const client = await h.startClient();
  try {
    await assert.rejects(client.request('items/get', { id: 'i999' }), (error) => {
      assert.ok(error instanceof RequestError);
      assert.equal(error.code, -32803);
      assert.equal(error.reason, 'notFound');
      assert.ok(!error.message.includes('\n'));
      return true;
    });
    await assert.rejects(client.request('lists/create', { name: 3 }), (error) => error.code === -32602 && /^params\.name: /.test(error.message));
    await assert.rejects(client.request('no/such'), (error) => error.code === -32601);
  } finally { await client.stop(); }
});

test('a notification that arrives with the answer of lists/open waits for its view', async () => {
  const client = await h.startClient();
  try {
    const list = await h.seed(client, 'Race', ['A']);
    let seen = [];
    // Both requests leave together: the create's view/changed follows the open's answer at once.
    const open = client.request('lists/open', { list });
    const create = client.request('items/create', { list, title: 'B' });
    const snapshot = await open;
    assert.equal(client.views.size, 0);
    client.register(snapshot.view, { changed: (p) => seen.push(p), closed: () => {} });
    await create;
    assert.equal(seen.length, 1, 'the queued change was handed over on register');
    assert.equal(seen[0].version, snapshot.version + 1);
    assert.equal(seen[0].ops[0].row.title, 'B');
  } finally { await client.stop(); }
});

test('the server exiting refuses what waits and says how it ended', async () => {
  let exit = null;
  const client = await h.startClient({ onExit: (e) => { exit = e; } });
  const waiting = client.request('lists/list', {}).catch((error) => error);
  client.process.kill('SIGKILL');
  await h.waitFor(() => exit, 'the exit');
  assert.equal(exit.signal, 'SIGKILL');
  assert.ok(!client.running);
  // The lists/list may have been answered before the kill; a request after it cannot be.
  await waiting;
  await assert.rejects(client.connection.request('server/ping'), /not running/);
});

test('a server that cannot start is one line naming it', async () => {
  const client = new Client({ command: '/nonexistent/taskls', log: () => {} });
  await assert.rejects(client.start(), (error) => /^cannot start the server \/nonexistent\/taskls: /.test(error.message) && !error.message.includes('\n'));
  assert.ok(!client.running);
});

test('stderr lines and traces go to the log', async () => {
  const client = await h.startClient({ trace: 'messages' });
  try {
    await client.request('server/ping');
    assert.ok(client.lines.some((line) => line === '--> server/ping #2'), client.lines.join('\n'));
    assert.ok(client.lines.some((line) => line.startsWith('<-- answer #2')));
  } finally { await client.stop(); }
  assert.ok(client.lines.some((line) => line.startsWith('[server] ')), 'stderr reached the log');
});

test('the connection: answers by id in any order, notifications in order, a broken frame ends it', async () => {
  const input = new PassThrough();
  const sent = [];
  const notifications = [];
  let closed = null;
  const connection = new Connection(input, { write: (bytes) => sent.push(bytes) }, {
    onNotification: (method, params) => notifications.push([method, params]),
    onClose: (reason) => { closed = reason; },
  });
  const first = connection.request('a', { x: 1 });
  const second = connection.request('b');
  assert.equal(sent.length, 2);
  input.write(Buffer.concat([encode({ jsonrpc: '2.0', id: 2, result: 'two' }), encode({ jsonrpc: '2.0', method: 'n', params: 1 }),
    encode({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'params.x: bad\nsecond line', data: { reason: 'r' } } })]));
  assert.equal(await second, 'two');
  await assert.rejects(first, (error) => error.code === -32602 && error.reason === 'r');
  assert.deepEqual(notifications, [['n', 1]]);
  const third = connection.request('c');
  input.write(Buffer.from('Content-Length: nope\r\n\r\n'));
  await assert.rejects(third, /Content-Length is not a number/);
  assert.match(closed, /Content-Length/);
});

'use strict';
// What the node tests share: the real taskls binary, temporary stores, waiting for a condition.
const fs = require('fs');
const os = require('os');
const path = require('path');
const childProcess = require('child_process');
const { encode, MessageReader } = require('../src/framing');
const { Client } = require('../src/client');

/** The taskls under test: $TASKLS_BIN, else the repository's debug build. */
const bin = process.env.TASKLS_BIN || path.resolve(__dirname, '../../../.build/debug/taskls');

const root = fs.mkdtempSync(path.join(process.env.TASKLS_TEST_TMP || os.tmpdir(), 'taskls-vscode-'));
process.on('exit', () => fs.rmSync(root, { recursive: true, force: true }));
let serial = 0;

/** A fresh, empty store directory. */
function newStore() {
  serial += 1;
  return path.join(root, `store-${serial}`);
}

/** Waits until `condition()` is truthy (checked on every turn of the event loop), or fails after `ms`. */
async function waitFor(condition, what, ms = 10000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = condition();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** A started client on `store` (a new one by default); `extra` adds Client options. */
async function startClient(extra = {}) {
  const lines = [];
  const client = new Client(Object.assign({ command: bin, store: newStore(), timeZone: 'Europe/Paris', log: (line) => lines.push(line) }, extra));
  client.lines = lines;
  await client.start();
  return client;
}

/**
 * Runs the server on `store` and sends it `messages` in one write, waiting for the answer to the
 * last request; then shuts it down. For fixtures too big to build request by request.
 */
function drive(store, messages, args = []) {
  return new Promise((resolve, reject) => {
    const child = childProcess.spawn(bin, ['serve', '--store', store, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
    const reader = new MessageReader();
    const lastId = messages[messages.length - 1].id;
    const answers = new Map();
    child.on('error', reject);
    child.stdout.on('data', (chunk) => {
      for (const message of reader.push(chunk)) {
        if (message.id !== undefined && message.method === undefined) answers.set(message.id, message);
        if (message.id === lastId) {
          child.stdin.write(Buffer.concat([encode({ jsonrpc: '2.0', id: lastId + 1, method: 'shutdown' }), encode({ jsonrpc: '2.0', method: 'exit' })]));
        }
      }
    });
    child.on('exit', () => resolve(answers));
    const chunks = [encode({ jsonrpc: '2.0', id: 0, method: 'initialize', params: {} })];
    for (const message of messages) chunks.push(encode(Object.assign({ jsonrpc: '2.0' }, message)));
    child.stdin.write(Buffer.concat(chunks));
  });
}

const bigStores = new Map();
/** A store with one list "Big" of `n` items "Task 1".."Task n" (made once per process). */
async function bigStore(n = 100000) {
  if (bigStores.has(n)) return bigStores.get(n);
  // `swift test` makes the 100,000-item store once for every editor suite (list l1): a copy will do.
  const shared = process.env.TASKLS_TEST_BIG_STORE || '';
  if (n === 100000 && shared !== '' && fs.existsSync(shared)) {
    const fixture = { store: copyStore(shared), list: 'l1' };
    bigStores.set(n, fixture);
    return fixture;
  }
  const store = newStore();
  const first = await drive(store, [{ id: 1, method: 'lists/create', params: { name: 'Big' } }]);
  const list = first.get(1).result.list.id;
  const messages = [];
  for (let i = 1; i <= n; i++) messages.push({ id: 10 + i, method: 'items/create', params: { list, title: `Task ${i}` } });
  await drive(store, messages);
  const fixture = { store, list };
  bigStores.set(n, fixture);
  return fixture;
}

/** A copy of a store directory. */
function copyStore(store) {
  const copy = newStore();
  fs.cpSync(store, copy, { recursive: true });
  return copy;
}

/** A list named `name` with items titled `titles`, through `client`; returns its id. */
async function seed(client, name, titles) {
  const { list } = await client.request('lists/create', { name });
  for (const title of titles) await client.request('items/create', { list: list.id, title });
  return list.id;
}

/** A pane host (src/paneHost.js) whose page is an array of posted messages (`host.posted`), with `host.ask(action,
 * args)` calling it as the page does and resolving with the reply's result (rejecting with its error). */
function testPane(client, source, restored) {
  const { PaneHost } = require('../src/paneHost');
  const posted = [];
  const post = (m) => { if (m.type === 'batch') m.messages.forEach(post); else posted.push(JSON.parse(JSON.stringify(m))); };
  const host = new PaneHost({ client, source, name: 'Pane', post, restored });
  host.posted = posted;
  let nextId = 1;
  host.ask = async (action, args) => {
    const id = nextId++;
    host.receive({ type: 'call', id, action, args });
    const reply = await waitFor(() => posted.find((m) => m.type === 'reply' && m.id === id), `the reply to ${action}`);
    if (!reply.ok) throw Object.assign(new Error(reply.error), { code: reply.code, reason: reply.reason });
    return reply.result;
  };
  return host;
}

module.exports = { bin, newStore, waitFor, startClient, drive, bigStore, copyStore, seed, root, testPane };

'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { encode, MessageReader } = require('../src/framing');

test('a message framed and read back, its length counted in bytes', () => {
  const message = { jsonrpc: '2.0', id: 1, method: 'x', params: { title: 'Café 👍🏽' } };
  const bytes = encode(message);
  const header = bytes.toString('ascii', 0, bytes.indexOf('\r\n\r\n'));
  assert.equal(header, `Content-Length: ${Buffer.byteLength(JSON.stringify(message))}`);
  assert.notEqual(Buffer.byteLength(JSON.stringify(message)), JSON.stringify(message).length, 'the test needs multi-byte text');
  assert.deepEqual(new MessageReader().push(bytes), [message]);
});

test('messages fed one byte at a time, and several in one chunk', () => {
  const messages = [{ id: 1, result: 'é' }, { method: 'view/changed', params: { ops: [] } }, { id: 2, result: null }];
  const bytes = Buffer.concat(messages.map(encode));
  const reader = new MessageReader();
  const got = [];
  for (let i = 0; i < bytes.length; i++) got.push(...reader.push(bytes.subarray(i, i + 1)));
  assert.deepEqual(got, messages);
  assert.equal(reader.pending, 0);
  assert.deepEqual(new MessageReader().push(bytes), messages);
});

test('a stream cut anywhere gives the same messages', () => {
  const messages = [];
  for (let i = 0; i < 20; i++) messages.push({ id: i, result: { text: 'ü'.repeat(i) } });
  const bytes = Buffer.concat(messages.map(encode));
  let checked = 0;
  for (let cut = 1; cut < bytes.length; cut += 7) {
    const reader = new MessageReader();
    const got = [...reader.push(bytes.subarray(0, cut)), ...reader.push(bytes.subarray(cut))];
    assert.deepEqual(got, messages, `cut at ${cut}`);
    checked += 1;
  }
  assert.ok(checked > 50);
});

test('header names in any case, other headers ignored; broken headers throw one line', () => {
  const body = '{"id":1,"result":2}';
  const ok = Buffer.from(`content-length: ${body.length}\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n${body}`);
  assert.deepEqual(new MessageReader().push(ok), [{ id: 1, result: 2 }]);
  assert.throws(() => new MessageReader().push(Buffer.from('Content-Length: x\r\n\r\n')), /Content-Length is not a number/);
  assert.throws(() => new MessageReader().push(Buffer.from('Nothing\r\n\r\n')), /without a colon/);
  assert.throws(() => new MessageReader().push(Buffer.from('A: b\r\n\r\n')), /without Content-Length/);
  assert.throws(() => new MessageReader().push(Buffer.from('Content-Length: 3\r\n\r\n{x}')), /not JSON/);
});

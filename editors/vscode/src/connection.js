'use strict';
// JSON-RPC 2.0 over a pair of byte streams (a child process's stdout and stdin): requests with ids
// and promises, notifications both ways, answers matched by id, and the end of the stream.
const { encode, MessageReader } = require('./framing');

/** An error answer from the server, or the connection ending under a request. */
class RequestError extends Error {
  constructor(code, message, data) {
    super(message);
    this.code = code;
    this.data = data;
    this.reason = data && typeof data === 'object' ? data.reason : undefined;
  }
}

/** One line for a person: the first line of the message, without a stack. */
function describe(error) {
  const text = error && error.message !== undefined ? String(error.message) : String(error);
  return text.split('\n')[0];
}

class Connection {
  /**
   * `input` gives the server's bytes ('data', 'end'), `output` takes ours (`write`).
   * `onNotification(method, params)` runs for each notification, in arrival order, before any
   * answer that arrived after it is handed to its awaiting code.
   */
  constructor(input, output, { onNotification, onClose, trace } = {}) {
    this.output = output;
    this.reader = new MessageReader();
    this.nextId = 1;
    this.pending = new Map();
    this.closed = false;
    this.onNotification = onNotification || (() => {});
    this.onClose = onClose || (() => {});
    this.trace = trace || (() => {});
    input.on('data', (chunk) => this.receive(chunk));
    input.on('end', () => this.close('the server closed its output'));
    input.on('error', (error) => this.close(`reading from the server failed: ${describe(error)}`));
    if (typeof output.on === 'function') output.on('error', (error) => this.close(`writing to the server failed: ${describe(error)}`));
  }

  receive(chunk) {
    let messages;
    try {
      messages = this.reader.push(chunk);
    } catch (error) {
      this.close(describe(error));
      return;
    }
    for (const message of messages) this.dispatch(message);
  }

  dispatch(message) {
    this.trace('<--', message);
    if (message === null || typeof message !== 'object') return;
    if (typeof message.method === 'string') {
      if (message.id === undefined) {
        try { this.onNotification(message.method, message.params); } catch (error) { this.trace('!!', `notification handler failed: ${describe(error)}`); }
      }
      return; // the server sends no requests
    }
    const waiter = this.pending.get(message.id);
    if (waiter === undefined) return;
    this.pending.delete(message.id);
    if (message.error) waiter.reject(new RequestError(message.error.code, String(message.error.message), message.error.data));
    else waiter.resolve(message.result === undefined ? null : message.result);
  }

  /** Sends a request; resolves with its result, rejects with a RequestError. */
  request(method, params) {
    if (this.closed) return Promise.reject(new RequestError(-32099, `the server is not running (${method})`));
    const id = this.nextId++;
    const message = { jsonrpc: '2.0', id, method };
    if (params !== undefined && params !== null) message.params = params;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, method });
      this.send(message);
    });
  }

  /** Sends a notification (never answered). */
  notify(method, params) {
    if (this.closed) return;
    const message = { jsonrpc: '2.0', method };
    if (params !== undefined && params !== null) message.params = params;
    this.send(message);
  }

  send(message) {
    this.trace('-->', message);
    this.output.write(encode(message));
  }

  /** Ends the connection: every request still waiting is refused with `reason`. */
  close(reason) {
    if (this.closed) return;
    this.closed = true;
    for (const [, waiter] of this.pending) waiter.reject(new RequestError(-32099, `${reason} (${waiter.method})`));
    this.pending.clear();
    this.onClose(reason);
  }
}

module.exports = { Connection, RequestError, describe };

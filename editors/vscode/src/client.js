'use strict';
// The one taskls server of an editor window, shared by every pane: starts the process, does the
// `initialize` handshake (requests made meanwhile wait for it), routes `view/changed` and
// `view/closed` to the pane that owns the view (queueing those that arrive before the pane knows
// its view id), `lists/changed` to the overview's listeners and `reminder/fired` to `onReminder`.
const childProcess = require('child_process');
const { Connection, RequestError, describe } = require('./connection');

const earlyLimit = 1000;

class Client {
  /**
   * `options`: `command` (the taskls executable), `args` (more `serve` arguments, for tests),
   * `store` (a directory or undefined), `timeZone`
   * (an IANA name; default this machine's), `trace` ('off' | 'messages' | 'verbose'), `env`,
   * `log(line)` for stderr and traces, `onExit({code, signal, reason})`, `onMessage({type, message})`
   * for `window/showMessage` and `window/logMessage`, `onProgress(params)` for `$/progress`,
   * `onReminder(params)` for `reminder/fired` (sent only after `reminders/watch`).
   */
  constructor(options) {
    this.options = options;
    this.log = options.log || (() => {});
    this.views = new Map(); // view id -> handler {changed(params), closed(params)}
    this.early = new Map(); // view id -> notifications that came before its handler
    this.overviewListeners = new Set();
    this.process = null;
    this.connection = null;
    this.ready = null; // the initialize promise
    this.serverInfo = null;
    this.capabilities = null;
    this.exit = null;
    this.overview = null; // the latest lists/list or lists/changed
  }

  /** Whether the process runs. */
  get running() { return this.process !== null && this.exit === null; }

  /** Starts the server (once) and resolves when `initialize` is answered. */
  start() {
    if (this.ready !== null && this.exit === null) return this.ready;
    this.views.clear();
    this.early.clear();
    const { command, store, env } = this.options;
    const timeZone = this.options.timeZone || Intl.DateTimeFormat().resolvedOptions().timeZone;
    let child;
    this.exit = null;
    try {
      // `--store` (not initializationOptions.store) so the setting wins over $TASKLS_STORE.
      const storeArgs = store ? ['--store', store] : [];
      child = childProcess.spawn(command, ['serve', ...storeArgs, ...(this.options.args || [])], { stdio: ['pipe', 'pipe', 'pipe'], env: env || process.env });
    } catch (error) {
      this.ready = Promise.reject(new RequestError(-32099, `cannot start the server ${command}: ${describe(error)}`));
      return this.ready;
    }
    this.process = child;
    let startError = null;
    const exited = new Promise((resolve) => {
      const ended = (exit, reason) => {
        if (this.exit !== null) return;
        this.exit = exit;
        this.connection.close(reason);
        if (this.options.onExit) this.options.onExit(exit);
        resolve();
      };
      child.on('error', (error) => {
        startError = `cannot start the server ${command}: ${describe(error)}`;
        ended({ code: null, signal: null, reason: startError }, startError);
      });
      child.on('exit', (code, signal) => {
        ended({ code, signal, reason: startError }, `the server exited with code ${code}${signal ? ` (signal ${signal})` : ''}`);
      });
    });
    this.exited = exited;
    child.stderr.setEncoding('utf8');
    let partial = '';
    child.stderr.on('data', (text) => {
      const lines = (partial + text).split('\n');
      partial = lines.pop();
      for (const line of lines) this.log(`[server] ${line}`);
    });
    // Read at every message, so `$/setTrace` after a settings change applies to this side too.
    const trace = (direction, message) => {
      const level = this.options.trace;
      if (level === 'messages' || level === 'verbose') this.log(`${direction} ${level === 'verbose' ? JSON.stringify(message) : summary(message)}`);
    };
    this.connection = new Connection(child.stdout, child.stdin, {
      onNotification: (method, params) => this.route(method, params),
      onClose: () => {},
      trace,
    });
    const initializationOptions = { timeZone };
    this.ready = this.connection.request('initialize', {
      processId: process.pid,
      clientInfo: { name: 'taskls-vscode' },
      capabilities: {},
      trace: this.options.trace || 'off',
      initializationOptions,
    }).then((result) => {
      this.serverInfo = result.serverInfo || null;
      this.capabilities = (result.capabilities && result.capabilities.taskls) || null;
      this.connection.notify('initialized', {});
      return result;
    }, (error) => {
      throw new RequestError(error.code, startError || describe(error), error.data);
    });
    return this.ready;
  }

  /** Whether the server understands `method` (from `initialize`'s capabilities). */
  supports(method) {
    return this.capabilities !== null && Array.isArray(this.capabilities.requests) && this.capabilities.requests.includes(method);
  }

  /** Sends a request once the server is initialized; rejects with a RequestError. */
  async request(method, params) {
    await this.start();
    return this.connection.request(method, params);
  }

  notify(method, params) {
    if (this.connection !== null) this.connection.notify(method, params);
  }

  route(method, params) {
    if (method === 'lists/changed') {
      this.overview = params;
      for (const listener of this.overviewListeners) listener(params);
      return;
    }
    if (method === 'view/changed' || method === 'view/closed') {
      const handler = this.views.get(params && params.view);
      if (handler === undefined) {
        const queue = this.early.get(params.view) || [];
        if (queue.length < earlyLimit) queue.push({ method, params });
        this.early.set(params.view, queue);
        return;
      }
      if (method === 'view/changed') handler.changed(params);
      else handler.closed(params);
      return;
    }
    if (method === 'window/showMessage' || method === 'window/logMessage') {
      if (this.options.onMessage) this.options.onMessage({ method, type: params.type, message: params.message });
      else this.log(`[server] ${params.message}`);
      return;
    }
    if (method === 'reminder/fired') {
      if (this.options.onReminder) this.options.onReminder(params);
      return;
    }
    if (method === '$/progress' && this.options.onProgress) this.options.onProgress(params);
  }

  /**
   * Gives `view`'s notifications to `handler` from now on, first those that arrived before
   * (the server may send a change right after the snapshot that named the view).
   */
  register(view, handler) {
    this.views.set(view, handler);
    const queue = this.early.get(view) || [];
    this.early.delete(view);
    for (const { method, params } of queue) this.route(method, params);
  }

  unregister(view) {
    this.views.delete(view);
    this.early.delete(view);
  }

  /** Calls `listener(overview)` on every lists/changed; the first call is `lists/list` with watch. */
  async watchOverview(listener) {
    this.overviewListeners.add(listener);
    const overview = await this.request('lists/list', { watch: true });
    this.overview = overview;
    listener(overview);
    return overview;
  }

  unwatchOverview(listener) { this.overviewListeners.delete(listener); }

  /** Asks the server to end (shutdown, exit) and resolves when it has, killing it after `ms`. */
  async stop(ms = 2000) {
    if (this.process === null) return;
    const child = this.process;
    const exited = this.exited;
    if (this.exit === null) {
      try {
        await Promise.race([this.connection.request('shutdown'), new Promise((resolve) => setTimeout(resolve, ms))]);
      } catch { /* the server may already be gone */ }
      this.connection.notify('exit');
      const timer = setTimeout(() => child.kill('SIGKILL'), ms);
      await exited;
      clearTimeout(timer);
    }
    this.process = null;
    this.connection = null;
    this.ready = null;
    this.views.clear();
    this.early.clear();
  }
}

/** A short trace line: the method and id, no payload. */
function summary(message) {
  if (message.method) return `${message.method}${message.id !== undefined ? ` #${message.id}` : ''}`;
  return `answer #${message.id}${message.error ? ` error ${message.error.code}: ${message.error.message}` : ''}`;
}

module.exports = { Client, RequestError, describe };

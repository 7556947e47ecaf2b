'use strict';
// The Chromium suite's stand-in for the extension host: serves the pane's real page (the HTML the
// extension builds, plus harness.js, which injects a fake `acquireVsCodeApi`) and relays its
// messages to the real host code (src/paneHost.js) on one real taskls process. Host → page
// messages go down a Server-Sent Events stream, page → host messages come up as POSTs, in order.
//   node relay.js --bin TASKLS --store DIR [--serve-arg ARG]... [--time-zone ZONE]
// Prints `{"port": N}` once listening. POST /control takes the test's requests (see `control`).
const http = require('http');
const fs = require('fs');
const path = require('path');
const { Client } = require('../../src/client');
const { PaneHost } = require('../../src/paneHost');
const { nonce, pageHtml, pageFiles } = require('../../src/page');

const root = path.resolve(__dirname, '../..');
const options = { serveArgs: [] };
for (let i = 2; i < process.argv.length; i += 2) {
  const [flag, value] = [process.argv[i], process.argv[i + 1]];
  if (flag === '--bin') options.bin = value;
  else if (flag === '--store') options.store = value;
  else if (flag === '--serve-arg') options.serveArgs.push(value);
  else if (flag === '--time-zone') options.timeZone = value;
  else throw new Error(`unknown flag ${flag}`);
}

const log = [];
const client = new Client({
  command: options.bin, store: options.store, args: options.serveArgs, timeZone: options.timeZone || 'Europe/Paris',
  log: (line) => log.push(line),
  onExit: (exit) => { for (const pane of panes.values()) pane.host.serverStopped(`the server exited with code ${exit.code}${exit.signal ? ` (signal ${exit.signal})` : ''}`); },
});
client.start().catch(() => {});
client.watchOverview(() => {}).catch(() => {});

const panes = new Map(); // pane id -> {host, stream, queue}
let serial = 0;
// TASKLS_RELAY_REPLY_DELAY_MS: the timing of a loaded machine, made the rule. There, the server's
// change notification and its answer to the request that caused it reach the host in separate reads,
// so the page gets the change in one message and the host's reply in a later one. With this set, a
// batch is split into its messages, and each reply reaches the page that many ms late, every message
// after it waiting behind it (the order is kept).
const replyDelay = Number(process.env.TASKLS_RELAY_REPLY_DELAY_MS) || 0;
let outgoing = Promise.resolve();
// The `holdReplies` control: from the next reply on, every message to a page is held back (the
// order kept) until `releaseReplies`, so a test can act while an answer is on its way, whatever the
// machine's speed. Null when not holding.
let held = null;

/** A pane host for a page; a `key` keeps one host across reloads of its page, as a VS Code panel keeps its host while its webview is reloaded. */
function openPane(source, name, key) {
  if (key) {
    const existing = [...panes.values()].find((p) => p.key === key && !p.host.disposed);
    if (existing) return existing;
  }
  serial += 1;
  const id = `p${serial}`;
  const pane = { id, key, stream: null, queue: [] };
  pane.host = new PaneHost({
    client, source, name,
    post: (message) => {
      const deliver = (one) => {
        const line = `data: ${JSON.stringify(one)}\n\n`;
        if (pane.stream) pane.stream.write(line); else pane.queue.push(line);
      };
      if (replyDelay === 0 && held === null) { deliver(message); return; }
      const forward = (one) => {
        if (replyDelay === 0) { deliver(one); return; }
        const late = one.type === 'reply' ? () => new Promise((resolve) => setTimeout(resolve, replyDelay)) : () => undefined;
        outgoing = outgoing.then(late).then(() => deliver(one));
      };
      for (const one of message.type === 'batch' ? message.messages : [message]) {
        if (held !== null && (held.length > 0 || one.type === 'reply')) held.push(() => forward(one));
        else forward(one);
      }
    },
  });
  panes.set(id, pane);
  return pane;
}

const types = { '.js': 'text/javascript', '.css': 'text/css', '.png': 'image/png' };

function body(request) {
  return new Promise((resolve) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk) => { text += chunk; });
    request.on('end', () => resolve(text === '' ? {} : JSON.parse(text)));
  });
}

/** What the test asks: server requests, pane stats, a simulated gap, killing the server. */
async function control(command) {
  const pane = command.pane ? panes.get(command.pane) : undefined;
  switch (command.op) {
    case 'request': return client.request(command.method, command.params);
    case 'panes': return [...panes.values()].map((p) => ({ id: p.id, view: p.host.model.view, source: p.host.source, disposed: p.host.disposed }));
    case 'host': return { stats: pane.host.stats, version: pane.host.model.version, count: pane.host.model.count, window: pane.host.model.window, rows: pane.host.model.rows.map((r) => r.title) };
    // The pane's title menu (Collapse All, Expand All, Add Subtask Below, Skip to the Next Due, Stop Repeating), as extension.js runs it.
    case 'collapseAll': return pane.host.fold('view/collapse', undefined, true);
    case 'expandAll': return pane.host.fold('view/expand', undefined, true);
    case 'command': pane.host.command(command.name); return true;
    // Answers to the pages held back from now on (and whatever follows them), then let go, in order.
    case 'holdReplies': if (held === null) held = []; return true;
    case 'releaseReplies': { const go = held || []; held = null; for (const one of go) one(); return go.length; }
    case 'gap': pane.host.model.version -= 1; return pane.host.model.version; // as if a notification had been lost
    case 'kill': client.process.kill('SIGKILL'); return true;
    case 'log': return log;
    default: throw new Error(`unknown control ${command.op}`);
  }
}

const server = http.createServer(async (request, response) => {
  const url = new URL(request.url, 'http://127.0.0.1');
  const origin = `http://127.0.0.1:${server.address().port}`;
  try {
    if (url.pathname === '/pane') {
      const source = url.searchParams.get('list') ? { list: url.searchParams.get('list') }
        : url.searchParams.get('smartList') ? { smartList: url.searchParams.get('smartList') } : { group: url.searchParams.get('group') || 'today' };
      const pane = openPane(source, url.searchParams.get('name') || source.list || source.smartList || source.group, url.searchParams.get('key'));
      const theme = url.searchParams.get('theme') || 'dark';
      const html = pageHtml({
        cspSource: origin, connectSource: origin, nonce: nonce(), title: pane.host.name,
        styles: pageFiles.styles.map((f) => `${origin}/${f}`),
        scripts: [`${origin}/test/webview/harness.js?pane=${pane.id}&theme=${theme}&maxHeight=${Number(url.searchParams.get('maxHeight')) || ''}`,
          ...pageFiles.scripts.map((f) => `${origin}/${f}`)],
      });
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
      response.end(html);
    } else if (url.pathname === '/events') {
      const pane = panes.get(url.searchParams.get('pane'));
      response.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
      response.write(': open\n\n');
      pane.stream = response;
      for (const line of pane.queue.splice(0)) response.write(line);
      pane.host.setVisible(true);
      request.on('close', () => {
        if (pane.stream !== response) return;
        pane.stream = null;
        if (pane.key) pane.host.setVisible(false); // hidden: the host keeps the model, the page gets it again on ready
        else pane.host.dispose();
      });
    } else if (url.pathname === '/post') {
      const pane = panes.get(url.searchParams.get('pane'));
      pane.host.receive(await body(request));
      response.writeHead(204);
      response.end();
    } else if (url.pathname === '/control') {
      const command = await body(request);
      let answer;
      try { answer = { ok: true, result: await control(command) }; } catch (error) { answer = { ok: false, error: error.message, reason: error.reason }; }
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify(answer === undefined ? null : answer));
    } else {
      const file = path.resolve(root, `.${url.pathname}`);
      if (!file.startsWith(root + path.sep) || !fs.existsSync(file)) { response.writeHead(404); response.end(); return; }
      response.writeHead(200, { 'Content-Type': types[path.extname(file)] || 'application/octet-stream', 'Cache-Control': 'no-store' });
      fs.createReadStream(file).pipe(response);
    }
  } catch (error) {
    response.writeHead(500);
    response.end(String(error.message));
  }
});

server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
});
process.stdin.on('end', async () => { await client.stop().catch(() => {}); process.exit(0); });
process.stdin.resume();

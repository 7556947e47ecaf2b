'use strict';
// The manifest as `vsce package` and VS Code read it: required fields, every referenced command
// contributed, the icon a real PNG, the files it names present, and activate() registering exactly
// the contributed commands.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');

const root = path.resolve(__dirname, '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

test('the fields vsce requires, and the files the manifest names', () => {
  assert.match(manifest.name, /^[a-z0-9][a-z0-9-]*$/);
  assert.match(manifest.version, /^\d+\.\d+\.\d+$/);
  assert.ok(manifest.publisher && manifest.displayName && manifest.description);
  assert.match(manifest.engines.vscode, /^\^1\.\d+\.\d+$/);
  assert.ok(fs.existsSync(path.join(root, manifest.main)));
  for (const file of ['README.md', 'CHANGELOG.md', '.vscodeignore', 'media/activity.svg', 'media/pane.js', 'media/pane.css']) assert.ok(fs.existsSync(path.join(root, file)), file);
  const png = fs.readFileSync(path.join(root, manifest.icon));
  assert.equal(png.subarray(0, 8).toString('hex'), '89504e470d0a1a0a', 'the icon is a PNG');
  assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [128, 128], 'the icon is 128x128');
  assert.deepEqual(Object.keys(manifest.dependencies || {}), [], 'no npm dependencies');
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  for (const [, target] of readme.matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)) assert.ok(fs.existsSync(path.join(root, target)), target);
});

test('every command a menu or key names is contributed, with the category', () => {
  const commands = new Set(manifest.contributes.commands.map((c) => c.command));
  for (const c of manifest.contributes.commands) assert.equal(c.category, 'taskls', c.command);
  const referenced = [...manifest.contributes.keybindings.map((k) => k.command)];
  for (const items of Object.values(manifest.contributes.menus)) referenced.push(...items.map((i) => i.command));
  for (const command of referenced) assert.ok(commands.has(command), command);
  for (const key of manifest.contributes.keybindings.filter((k) => /^ctrl\+(shift\+)?z$/.test(k.key))) {
    assert.equal(key.when, "activeWebviewPanelId == 'taskls.list'");
  }
  const settings = Object.keys(manifest.contributes.configuration.properties).sort();
  assert.deepEqual(settings, ['taskls.path', 'taskls.reminders', 'taskls.store', 'taskls.trace.server']);
  const container = manifest.contributes.viewsContainers.activitybar[0];
  assert.deepEqual(manifest.contributes.views[container.id].map((v) => v.id), ['taskls.overview']);
  for (const welcome of manifest.contributes.viewsWelcome) assert.equal(welcome.view, 'taskls.overview');
});

test('activate() registers exactly the contributed commands', () => {
  const Module = require('module');
  const resolve = Module._resolveFilename;
  Module._resolveFilename = function (request, ...rest) {
    if (request === 'vscode') return require.resolve('./host/vscode');
    return resolve.call(this, request, ...rest);
  };
  try {
    const vscode = require('./host/vscode');
    vscode.stub.reset();
    const extension = require('../extension');
    const context = { subscriptions: [], extensionUri: vscode.Uri.file(root) };
    extension.activate(context);
    assert.deepEqual([...vscode.stub.commands.keys()].sort(), manifest.contributes.commands.map((c) => c.command).sort());
    assert.ok(vscode.stub.serializers.has('taskls.list'));
    assert.ok(manifest.activationEvents.includes('onWebviewPanel:taskls.list'));
    for (const d of context.subscriptions) d.dispose();
  } finally {
    Module._resolveFilename = resolve;
  }
});

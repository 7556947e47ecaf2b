'use strict';
// Reminders through activate() (the stand-in `vscode` module) and the real server on a manual
// clock: the extension asks for them at start, each `reminder/fired` is one notification with
// Done / Snooze 10 min / Dismiss (a warning when late), each button does what it says, the
// commands list, dismiss and snooze the pending ones, and the setting turns them off.
process.env.TZ = 'Europe/Paris'; // the client's zone (the extension gives the machine's)
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const Module = require('module');
const path = require('path');
const h = require('./helpers');

const stand = require('./host/vscode');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === 'vscode') return require.resolve('./host/vscode');
  return resolve.call(this, request, ...rest);
};
const extensionModule = require('../extension');
const { stub } = stand;

/** The real taskls on a manual clock: `taskls.path` names a script that adds `--clock`. */
function clockServer(instant) {
  const script = path.join(h.root, `taskls-clock-${instant.replace(/[^0-9]/g, '')}.sh`);
  fs.writeFileSync(script, `#!/bin/sh\nexec '${h.bin}' "$@" --clock ${instant}\n`, { mode: 0o755 });
  return script;
}

async function activate(settings) {
  stub.reset();
  stub.configuration = Object.assign({ 'taskls.path': clockServer('2026-11-25T08:00:00Z'), 'taskls.store': h.newStore() }, settings || {});
  const ctx = { subscriptions: [], extensionUri: stand.Uri.file(path.resolve(__dirname, '..')), extensionPath: path.resolve(__dirname, '..') };
  const extension = extensionModule.activate(ctx);
  stub.treeViews.get('taskls.overview').options.treeDataProvider.getChildren(undefined); // starts the server
  await h.waitFor(() => extension.overview && extension.reminderWatch, 'the overview and the reminders watched');
  await extension.reminderWatch;
  return { extension, ctx };
}

async function finish(ctx) {
  await extensionModule.deactivate();
  for (const d of ctx.subscriptions) d.dispose();
}

const notices = () => stub.messages.filter((m) => (m[0] === 'info' || m[0] === 'warning') && /^taskls reminder: /.test(m[1]));
const status = (pattern) => stub.messages.some((m) => m[0] === 'status' && pattern.test(m[1]));
const buttons = ['Done', 'Snooze 10 min', 'Dismiss'];

test('reminders: one notification per firing with Done / Snooze 10 min / Dismiss; late is a warning; the commands', async () => {
  const { extension, ctx } = await activate();
  const client = extension.client;
  const request = (method, params) => client.request(method, params);
  try {
    const { list } = await request('lists/create', { name: 'Home' });
    // Due 11:00 Paris, 1 hour before: 10:00 Paris, 09:00Z.
    const { item: call } = await request('items/create', { list: list.id, title: 'Call \u001b[31mAnn', due: '2026-11-25T11:00:00+01:00', alerts: [{ offset: -60 }] });
    await request('debug/setClock', { now: '2026-11-25T08:59:00Z' });
    assert.deepEqual(notices(), [], 'nothing before its time');
    stub.answer('info', 'Snooze 10 min');
    await request('debug/setClock', { now: '2026-11-25T09:00:30Z' });
    await h.waitFor(() => status(/^taskls: snoozed "Call \\e\[31mAnn" until today 10:10$/), 'the snooze');
    assert.deepEqual(notices(), [['info', 'taskls reminder: "Call \\e[31mAnn" due today 11:00', buttons]], 'shown once, its title escaped');
    assert.deepEqual((await request('reminders/list')).reminders, [], 'a snoozed reminder is not pending');
    await request('debug/setClock', { now: '2026-11-25T09:05:00Z' });
    assert.equal(notices().length, 1, 'not again before the snooze ends');
    // Fires again after the snooze; closed without a choice, it stays pending.
    await request('debug/setClock', { now: '2026-11-25T09:11:00Z' });
    await h.waitFor(() => notices().length === 2, 'the second firing');
    assert.deepEqual(notices()[1], ['info', 'taskls reminder: "Call \\e[31mAnn" due today 11:00', buttons]);
    const pending = (await request('reminders/list')).reminders;
    assert.deepEqual(pending.map((r) => [r.item.id, r.fireAt]), [[call.id, '2026-11-25T09:00:00.000Z']]);
    // Show Reminders lists it (with when it fired); Dismiss a Reminder… picks it and it is gone.
    let listed;
    stub.answer('quickPick', (items) => { listed = items.map((i) => [i.label, i.description]); return undefined; });
    await stub.commands.get('taskls.showReminders')();
    assert.deepEqual(listed, [['$(bell) "Call \\e[31mAnn" due today 11:00', 'fired today 10:11']]);
    stub.answer('quickPick', (items) => items[0]);
    await stub.commands.get('taskls.dismissReminder')();
    assert.ok(status(/^taskls: dismissed the reminder of "Call \\e\[31mAnn"$/));
    assert.deepEqual((await request('reminders/list')).reminders, []);
    await stub.commands.get('taskls.showReminders')();
    assert.ok(stub.messages.some((m) => m[0] === 'info' && m[1] === 'taskls: no reminders pending'));
    // Late (the clock jumps past it): a warning; Done on a repeating task moves it on, said in words.
    const { item: cat } = await request('items/create', { list: list.id, title: 'Feed the cat', due: '2026-11-25', repeat: { rule: 'FREQ=DAILY', from: 'due' }, alerts: [{ offset: 620 }] });
    stub.answer('warning', 'Done');
    await request('debug/setClock', { now: '2026-11-25T09:40:00Z' });
    await h.waitFor(() => status(/^taskls: "Feed the cat" repeats \(every day\): next due tomorrow$/), 'the Done answered');
    assert.deepEqual(notices()[2], ['warning', 'taskls reminder: "Feed the cat" due today, late', buttons]);
    assert.equal((await request('items/get', { id: cat.id })).due, '2026-11-26');
    assert.deepEqual((await request('reminders/list')).reminders, [], 'Done answered the occurrence it left');
    // Snooze a Reminder… from the list: the pick's minutes.
    await request('items/create', { list: list.id, title: 'Bins out', alerts: [{ at: '2026-11-25T09:45:00Z' }] });
    await request('debug/setClock', { now: '2026-11-25T09:45:00Z' });
    await h.waitFor(() => notices().length === 4, 'the bins');
    stub.answer('quickPick', (items) => items[0]);
    stub.answer('quickPick', (items) => items.find((i) => i.label === '1 hour'));
    await stub.commands.get('taskls.snoozeReminder')();
    assert.ok(status(/^taskls: snoozed "Bins out" until today 11:45$/), JSON.stringify(stub.messages));
    assert.equal(notices().length, 4, 'exactly one notification per firing');
  } finally { await finish(ctx); }
});

test('reminders: the taskls.reminders setting off stops them; on again, what came due fires', async () => {
  const { extension, ctx } = await activate();
  const client = extension.client;
  try {
    const { list } = await client.request('lists/create', { name: 'Home' });
    await client.request('items/create', { list: list.id, title: 'Stretch', alerts: [{ at: '2026-11-25T09:00:00Z' }] });
    stub.configuration['taskls.reminders'] = false;
    for (const listener of stub.configurationListeners) listener({ affectsConfiguration: (section) => section === 'taskls.reminders' });
    await extension.reminderWatch;
    await client.request('debug/setClock', { now: '2026-11-25T09:30:00Z' });
    assert.deepEqual(notices(), []);
    stub.configuration['taskls.reminders'] = true;
    for (const listener of stub.configurationListeners) listener({ affectsConfiguration: (section) => section === 'taskls.reminders' });
    await extension.reminderWatch;
    await h.waitFor(() => notices().length === 1, 'the reminder, late');
    assert.deepEqual(notices()[0], ['warning', 'taskls reminder: "Stretch", late', buttons]);
  } finally { await finish(ctx); }
});

'use strict';
// Repeating tasks in a pane's host, on the real server under a manual clock (--clock): the row's
// repeat for its ↻, completing moves the task on and says so in one line, skip and its refusals in
// words, the edit line's `every …` keeping the due, the detail form's repeat and history, and
// stopping a repeat.
const test = require('node:test');
const assert = require('node:assert/strict');
const h = require('./helpers');
const words = require('../src/words');

const clock = ['--clock', '2026-11-25T10:00:00Z']; // Wednesday 2026-11-25, 11:00 in Paris

async function paneOn(client, list) {
  await client.watchOverview(() => {});
  const host = h.testPane(client, { list });
  host.receive({ type: 'ready', state: {}, rows: 20 });
  await h.waitFor(() => host.model.state === 'ready', 'the snapshot');
  return host;
}

const row = (host, title) => host.model.rows.find((r) => r.title === title);

test('repeat: done moves a repeating task on (one line, relative words); skip; refusals in words; stop repeating', async () => {
  const client = await h.startClient({ args: clock });
  try {
    const { list } = await client.request('lists/create', { name: 'Home' });
    const host = await paneOn(client, list.id);
    assert.equal((await host.ask('add', { text: 'Pay rent ^2026-12-01 every month on the 1st' })).item.repeat.rule, 'FREQ=MONTHLY;BYMONTHDAY=1');
    await host.ask('add', { text: 'Water plants every 3 days after done' });
    await host.ask('add', { text: 'Plain task ^fri' });
    await h.waitFor(() => host.model.rows.length === 3, 'three rows');
    // The rows carry the repeat: the page draws ↻ after the due, the repeat's words in its tooltip.
    const context = { today: '2026-11-25', timeZone: 'Europe/Paris' };
    assert.equal(words.rowText(row(host, 'Pay rent'), context), '[ ] Pay rent  in 6 days ↻');
    assert.equal(words.rowWords(row(host, 'Water plants'), context).repeat, 'every 3 days after done');
    assert.equal(words.rowText(row(host, 'Plain task'), context), '[ ] Plain task  in 2 days');
    // Done on a repeating task: it moves on instead, and the answer says so in one line.
    const rent = row(host, 'Pay rent').id;
    const plain = row(host, 'Plain task').id;
    const done = await host.ask('toggle', { ids: [rent, plain], done: true });
    assert.deepEqual(done.advanced, ['"Pay rent" repeats (every month on the 1st): next due 2027-01-01']);
    await h.waitFor(() => row(host, 'Pay rent').due === '2027-01-01' && row(host, 'Plain task').done, 'the rows updated');
    assert.equal(row(host, 'Pay rent').done, false);
    // Skip: on to the next due without doing it.
    const water = row(host, 'Water plants').id;
    assert.deepEqual(await host.ask('skip', { ids: [water] }), { said: ['skipped "Water plants": next due in 3 days'] });
    await h.waitFor(() => row(host, 'Water plants').due === '2026-11-28', 'the skipped row');
    // Refusals, nothing changed: a task that does not repeat, a repeat that has ended.
    const refused = await host.ask('skip', { ids: [water, plain] });
    assert.match(refused.refused, /^"Plain task" does not repeat/);
    const { item: twice } = await client.request('items/create', { list: list.id, title: 'Twice', due: '2026-11-25', repeat: { rule: 'FREQ=DAILY;COUNT=1', from: 'due' } });
    assert.match((await host.ask('skip', { ids: [twice.id] })).refused, /^the repeat of "Twice" has ended/);
    assert.equal(row(host, 'Water plants').due, '2026-11-28', 'the refused skip changed nothing');
    // The detail form: the repeat in the server's words, the history.
    const item = await host.ask('get', { id: rent });
    assert.equal(words.repeatText(item.repeat), 'every month on the 1st');
    assert.equal(words.historyWords(item.occurrences, 'Europe/Paris'), '1 done, 0 skipped; last done 2026-11-25');
    assert.equal(words.historyWords((await host.ask('get', { id: water })).occurrences, 'Europe/Paris'), '0 done, 1 skipped; last skipped 2026-11-25');
    assert.equal(words.historyWords((await host.ask('get', { id: plain })).occurrences, 'Europe/Paris'), undefined);
    // Stop repeating: the due and the history stay.
    assert.deepEqual(await host.ask('stopRepeating', { ids: [water] }), { said: ['no longer repeating: "Water plants"'] });
    const stopped = await host.ask('get', { id: water });
    assert.deepEqual([stopped.repeat, stopped.due, stopped.occurrences.skipped], [null, '2026-11-28', 1]);
    assert.match((await host.ask('stopRepeating', { ids: [water] })).refused, /"Water plants" does not repeat/);
    // Undo puts the repeat back.
    assert.equal((await host.ask('undo', {})).description !== undefined, true);
    assert.equal((await host.ask('get', { id: water })).repeat.text, 'every 3 days after done');
  } finally { await client.stop(); }
});

test('repeat: the edit line sets a repeat with every … and keeps the due; the form sets, changes and clears it', async () => {
  const client = await h.startClient({ args: clock });
  try {
    const { list } = await client.request('lists/create', { name: 'Home' });
    const host = await paneOn(client, list.id);
    const { item } = await host.ask('add', { text: 'Standup ^2026-12-04 9:00' });
    const { item: bare } = await host.ask('add', { text: 'Stretch' });
    await h.waitFor(() => host.model.rows.length === 2, 'the rows');
    // The title as the edit field starts with it escapes the words the grammar would read.
    assert.equal(words.escapeTitle('Do it every day +1w'), 'Do it \\every day \\+1w');
    const kept = await client.request('text/parseItem', { text: words.escapeTitle('Do it every day +1w') });
    assert.deepEqual(kept.fields, { title: 'Do it every day +1w' });
    const reminded = await client.request('text/parseItem', { text: words.escapeTitle('Remind Bob: remind 1h before') });
    assert.deepEqual(reminded.fields, { title: 'Remind Bob: remind 1h before' });
    // `every weekday` added to the line: the task repeats and keeps its due (not today, the repeat's first day).
    await host.ask('rename', { id: item.id, list: list.id, text: 'Standup every weekday' });
    let got = await host.ask('get', { id: item.id });
    assert.deepEqual([got.repeat.text, got.due, got.dueLocal], ['every weekday', got.due, '2026-12-04T09:00']);
    // A task without a due gets the repeat's first day, as quick entry gives it.
    await host.ask('rename', { id: bare.id, list: list.id, text: 'Stretch every mon' });
    got = await host.ask('get', { id: bare.id });
    assert.deepEqual([got.repeat.rule, got.due], ['FREQ=WEEKLY;BYDAY=MO', '2026-11-30']);
    // The form: a phrase changes it, a non-repeat is a warning, an empty field stops it.
    await host.ask('details', { id: bare.id, list: list.id, repeat: 'every 2 weeks on mon,wed' });
    assert.equal((await host.ask('get', { id: bare.id })).repeat.text, 'every other week on mon and wed');
    const bad = await host.ask('details', { id: bare.id, list: list.id, repeat: 'soon' });
    assert.match(bad.warnings[0], /^not a repeat: soon/);
    const noDue = await host.ask('details', { id: bare.id, list: list.id, due: '', repeat: 'every day' });
    assert.match(noDue.warnings[0], /a repeating task needs a due/);
    await host.ask('details', { id: bare.id, list: list.id, repeat: '' });
    got = await host.ask('get', { id: bare.id });
    assert.deepEqual([got.repeat, got.due], [null, '2026-11-30']);
  } finally { await client.stop(); }
});

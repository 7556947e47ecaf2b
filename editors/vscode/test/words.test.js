'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const w = require('../src/words');

const context = { today: '2026-11-25', timeZone: 'Europe/Paris', now: Date.parse('2026-11-25T10:00:00Z') };

test('relative days as the REPL and the Neovim pane say them', () => {
  const cases = [
    ['2026-11-25', 'today'], ['2026-11-26', 'tomorrow'], ['2026-11-24', 'yesterday'],
    ['2026-11-27', 'in 2 days'], ['2026-12-08', 'in 13 days'], ['2026-12-09', '2026-12-09'],
    ['2026-11-23', '2 days ago'], ['2026-11-12', '13 days ago'], ['2026-11-11', '2026-11-11'],
  ];
  for (const [due, text] of cases) assert.equal(w.due(due, false, context).text, text, due);
});

test('a time after its day, on the client wall clock; overdue is a colour, never for done tasks', () => {
  assert.deepEqual(w.due('2026-11-26T09:30:00+01:00', false, context), { text: 'tomorrow 09:30', overdue: false, today: false });
  assert.deepEqual(w.due('2026-11-26T08:30:00Z', false, context), { text: 'tomorrow 09:30', overdue: false, today: false });
  assert.deepEqual(w.due('2026-11-25T09:00:00Z', false, context), { text: 'today 10:00', overdue: true, today: true });
  assert.deepEqual(w.due('2026-11-25T09:00:00Z', true, context), { text: 'today 10:00', overdue: false, today: false });
  assert.deepEqual(w.due('2026-11-20', false, context), { text: '5 days ago', overdue: true, today: false });
  assert.deepEqual(w.due('2026-11-20', true, context), { text: '5 days ago', overdue: false, today: false });
  assert.deepEqual(w.due('2026-11-25', false, context), { text: 'today', overdue: false, today: true });
  // The day follows the zone, not UTC: 23:30 UTC on the 25th is the 26th in Paris.
  assert.equal(w.due('2026-11-25T23:30:00Z', false, context).text, 'tomorrow 00:30');
});

test('stored text shows its controls as the REPL escapes them', () => {
  assert.equal(w.displayed('Buy milk'), 'Buy milk');
  assert.equal(w.displayed('a\nb\tc\rd\u001be'), 'a\\nb\\tc\\rd\\ee');
  assert.equal(w.displayed('x\u0007\u007f\u009b'), 'x\\u{7}\\u{7F}\\u{9B}');
  assert.equal(w.displayed('evil\u202Etxt.exe\u2066'), 'evil\\u{202E}txt.exe\\u{2066}');
  assert.equal(w.displayed('C:\\Users'), 'C:\\Users', 'C:\\Users stays readable');
  assert.equal(w.displayed('C:\\users'), 'C:\\\\users', 'a backslash before u doubles');
  assert.equal(w.displayed('C:\\dir'), 'C:\\dir', 'a backslash before d stays single');
  assert.equal(w.displayed('a\\\\b'), 'a\\\\\\b', 'a backslash before a backslash doubles');
  assert.equal(w.displayed('👍🏽 é'), '👍🏽 é');
});

test('a row in words: marks, tags, the list in a smart group', () => {
  const row = { kind: 'item', id: 'i1', list: 'l1', title: 'Call\nAnn', done: false, due: '2026-11-27', priority: 'high', tags: ['work', 'x\u0007'], hasNotes: true };
  assert.equal(w.rowText(row, Object.assign({ showList: true, listNames: { l1: 'Inbox' } }, context)), '[ ] Call\\nAnn  in 2 days  !!!  #work #x\\u{7}  (Inbox)');
  assert.equal(w.rowText({ kind: 'header', id: 's:due:today', title: 'Today', count: 2 }, context), 'Today (2)');
  assert.equal(w.rowText(Object.assign({}, row, { done: true, priority: 'none', tags: [], due: null }), context), '[x] Call\\nAnn');
});

test('a due time is read from dueLocal, never from the offset due is written in', () => {
  // 17:00 UTC is 07:00 the next day in Pacific/Kiritimati (UTC+14): the server says so in dueLocal.
  const kiritimati = { today: '2026-11-27', timeZone: 'Europe/Paris', now: Date.parse('2026-11-27T00:00:00Z') };
  assert.equal(w.due('2026-11-27T17:00:00Z', false, kiritimati, '2026-11-28T07:00').text, 'tomorrow 07:00');
  assert.equal(w.due('2026-11-27T17:00:00Z', false, kiritimati).text, 'today 18:00', 'without dueLocal (an older server): read in timeZone');
  // Overdue follows the instant, not the wall clock.
  assert.equal(w.due('2026-11-27T17:00:00Z', false, Object.assign({}, kiritimati, { now: Date.parse('2026-11-27T17:00:01Z') }), '2026-11-28T07:00').overdue, true);
  assert.equal(w.due('2026-11-14T09:30:00Z', false, kiritimati, '2026-11-14T09:30').text, '13 days ago 09:30');
  const row = { kind: 'item', id: 'i1', list: 'l1', title: 'Call', done: false, due: '2026-11-27T17:00:00Z', dueLocal: '2026-11-28T07:00', priority: 'none', tags: [] };
  assert.equal(w.rowWords(row, kiritimati).due.text, 'tomorrow 07:00');
  // A form's words, which the grammar reads back as the same due.
  assert.equal(w.duePhrase('2026-11-27T17:00:00Z', '2026-11-28T07:00', 'Europe/Paris'), '2026-11-28 07:00');
  assert.equal(w.duePhrase('2026-11-27T17:00:00Z', undefined, 'Europe/Paris'), '2026-11-27 18:00');
  assert.equal(w.duePhrase('2026-11-27', undefined, 'Europe/Paris'), '2026-11-27');
  assert.equal(w.duePhrase(null, undefined, 'Europe/Paris'), '');
});

test('undo and redo say the step in words, never a method name; stored names escaped', () => {
  assert.equal(w.stepWords('undid', { undone: 'items/delete', description: 'delete 3 tasks' }), 'undid: delete 3 tasks');
  assert.equal(w.stepWords('redid', { redone: 'lists/update', description: 'rename a list' }), 'redid: rename a list');
  assert.equal(w.stepWords('undid', { undone: 'items/delete' }), 'undid: the last change');
  assert.equal(w.stepWords('undid', { description: 'x\u001b[31m' }), 'undid: x\\e[31m');
});

test('issue 19 words: repeats, history, the next due, skip refusals, reminders, alerts', () => {
  const context = { today: '2026-11-25', timeZone: 'Europe/Paris' }; // (without `now`)
  const row = { kind: 'item', id: 'i1', title: 'Pay rent', done: false, due: '2026-12-01', repeat: { rule: 'FREQ=MONTHLY;BYMONTHDAY=1', from: 'due', text: 'every month on the 1st' } };
  assert.equal(w.rowText(row, context), '[ ] Pay rent  in 6 days ↻');
  assert.equal(w.rowWords(row, context).repeat, 'every month on the 1st');
  assert.equal(w.rowWords(Object.assign({}, row, { repeat: null }), context).repeat, undefined);
  assert.equal(w.repeatText({ rule: 'FREQ=DAILY;COUNT=3', from: 'due', text: 'every day, 3 times\u001b' }), 'every day, 3 times\\e');
  assert.equal(w.repeatText({ rule: 'FREQ=DAILY', from: 'due' }), 'FREQ=DAILY', 'an older server without words: the rule');
  const occurrences = { completed: 3, skipped: 1, recent: [{ due: '2026-11-19', outcome: 'completed', at: '2026-11-19T23:30:00.000Z' }] };
  assert.equal(w.historyWords(occurrences, 'Europe/Paris'), '3 done, 1 skipped; last done 2026-11-20', 'the day in the client\'s zone');
  assert.equal(w.historyWords({ completed: 0, skipped: 0, recent: [] }, 'Europe/Paris'), undefined);
  assert.equal(w.advancedWords({ title: 'Standup', due: '2026-12-02T09:00:00+01:00', dueLocal: '2026-12-02T09:00', repeat: { text: 'every week' } }, context),
    '"Standup" repeats (every week): next due in 7 days 09:00');
  assert.equal(w.skippedWords({ title: 'Water\tplants', due: '2026-11-26' }, context), 'skipped "Water\\tplants": next due tomorrow');
  assert.match(w.repeatRefusal('notRepeating', ['Plain']), /^"Plain" does not repeat/);
  assert.match(w.repeatRefusal('notRepeating', ['A', 'B']), /^"A", "B" do not repeat/);
  assert.match(w.repeatRefusal('repeatEnded', ['Twice']), /^the repeat of "Twice" has ended/);
  assert.equal(w.repeatRefusal('other', ['x'], 'boom\u0007'), 'boom\\u{7}');
  const fired = { item: { title: 'Call Ann', done: false, due: '2026-11-25T11:00:00+01:00', dueLocal: '2026-11-25T11:00' }, late: true };
  assert.equal(w.reminderWords(fired, context), '"Call Ann" due today 11:00, late');
  assert.equal(w.reminderWords({ item: { title: 'Stretch' }, late: false }, context), '"Stretch"');
  assert.equal(w.alertWords({ offset: -60 }, '2026-11-25T11:00:00+01:00', context), '1 hour before');
  assert.equal(w.alertWords({ offset: 540 }, '2026-11-25', context), 'on the day at 09:00');
  assert.equal(w.alertWords({ offset: -360 }, '2026-11-26', context), 'the day before at 18:00');
  assert.equal(w.alertWords({ at: '2026-11-26T08:30:00.000Z' }, null, context), 'tomorrow 09:30');
  assert.equal(w.alertWords({ offset: -30 }, null, context), '30 min before the due (no due: it never fires)');
  assert.equal(w.escapeTitle('Every day +1w .+3d ++2m'), '\\Every day \\+1w \\.+3d \\++2m');
});

'use strict';
// The words a pane shows for a row: due dates relative to the client's day (as the REPL and the
// Neovim pane say them), priority marks, tags, and stored text with its control characters shown
// as escapes (as the REPL's `displayed`). Pure: used by the host and, as a script, by the page
// (`TasklsWords`).
(function (root, factory) {
  if (typeof module === 'object' && module.exports) module.exports = factory();
  else root.TasklsWords = factory();
}(typeof self !== 'undefined' ? self : this, function () {
  /** Whether a code point is a control or a bidi override/isolate that `displayed` escapes. */
  function needsEscape(code) {
    return code <= 0x1f || (code >= 0x7f && code <= 0x9f) || (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);
  }

  function escape(code) {
    switch (code) {
      case 0x0a: return '\\n';
      case 0x09: return '\\t';
      case 0x0d: return '\\r';
      case 0x1b: return '\\e';
      default: return `\\u{${code.toString(16).toUpperCase()}}`;
    }
  }

  /**
   * `text` with each control shown as an escape (`\n`, `\t`, `\r`, `\e`, `\u{9B}`), DEL, the C1
   * controls and the bidi overrides and isolates included; a backslash doubles when what follows
   * could read as an escape (a backslash, e, n, r, t, u or an escaped character), so the shown
   * form reads back to one stored text. Text without either comes back unchanged.
   * - Complexity: O(n) in the text's length.
   */
  function displayed(text) {
    if (typeof text !== 'string') return '';
    if (!/[\\\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(text)) return text;
    const codes = Array.from(text, (c) => c.codePointAt(0));
    let out = '';
    for (let i = 0; i < codes.length; i++) {
      const code = codes[i];
      if (code === 0x5c) {
        out += '\\';
        const next = codes[i + 1];
        if (next !== undefined && ('\\enrtu'.includes(String.fromCodePoint(next)) || needsEscape(next))) out += '\\';
      } else if (needsEscape(code)) {
        out += escape(code);
      } else {
        out += String.fromCodePoint(code);
      }
    }
    return out;
  }

  /** Days since 1970-01-01 of `YYYY-MM-DD`, or NaN. */
  function dayNumber(date) {
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
    if (!match) return NaN;
    return Math.round(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) / 86400000);
  }

  /** "today", "tomorrow", "yesterday", "in N days" (2…13), "N days ago" (2…13), else `date`. */
  function relative(days, date) {
    if (days === 0) return 'today';
    if (days === 1) return 'tomorrow';
    if (days === -1) return 'yesterday';
    if (days >= 2 && days <= 13) return `in ${days} days`;
    if (days <= -2 && days >= -13) return `${-days} days ago`;
    return date;
  }

  const formatters = new Map();
  /** The wall-clock day and time of an instant in `timeZone`: {date: 'YYYY-MM-DD', time: 'HH:mm'}. */
  function wallClock(milliseconds, timeZone) {
    let format = formatters.get(timeZone || '');
    if (format === undefined) {
      format = new Intl.DateTimeFormat('en-CA', {
        timeZone: timeZone || undefined, year: 'numeric', month: '2-digit', day: '2-digit',
        hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
      });
      formatters.set(timeZone || '', format);
    }
    const parts = {};
    for (const part of format.formatToParts(new Date(milliseconds))) parts[part.type] = part.value;
    return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
  }

  /** `{date, time}` of a `dueLocal` (`YYYY-MM-DDThh:mm`), or undefined when it is not one. */
  function localReading(dueLocal) {
    const match = typeof dueLocal === 'string' ? /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(dueLocal) : null;
    return match ? { date: match[1], time: match[2] } : undefined;
  }

  /**
   * A due as a pane shows it: `{text, overdue, today}`. `context`: `today` ('YYYY-MM-DD', the
   * overview's), `timeZone` (the zone given at initialize), `now` (milliseconds). The day and time
   * of an instant are read from `dueLocal` (the server's wall-clock reading in the client's zone,
   * `YYYY-MM-DDThh:mm`), never from the offset `due` is written in; only a server without
   * `dueLocal` has it read here in `timeZone`. A day is overdue before today, a time once the
   * instant has passed; a done task is never overdue.
   */
  function due(value, done, context, dueLocal) {
    const today = dayNumber(context.today);
    if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
      const days = dayNumber(value) - today;
      return { text: relative(days, value), overdue: !done && days < 0, today: !done && days === 0 };
    }
    const instant = Date.parse(value);
    if (Number.isNaN(instant)) return { text: displayed(String(value)), overdue: false, today: false };
    const clock = localReading(dueLocal) || wallClock(instant, context.timeZone);
    const days = dayNumber(clock.date) - today;
    const now = context.now === undefined ? Date.now() : context.now;
    return { text: `${relative(days, clock.date)} ${clock.time}`, overdue: !done && instant < now, today: !done && days === 0 };
  }

  /**
   * A due in words the quick-entry grammar reads back as the same due, for a form: the day
   * (`2026-11-27`), or the day and the wall-clock time in the client's zone (`2026-11-27 17:30`,
   * from `dueLocal`); '' for no due.
   */
  function duePhrase(value, dueLocal, timeZone) {
    if (typeof value !== 'string' || value === '') return '';
    if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
    let clock = localReading(dueLocal);
    if (clock === undefined) {
      const instant = Date.parse(value);
      if (Number.isNaN(instant)) return value;
      clock = wallClock(instant, timeZone);
    }
    return `${clock.date} ${clock.time}`;
  }

  const priorityMarks = { low: '!', medium: '!!', high: '!!!' };
  const priorityNames = { none: 'No priority', low: 'Low priority', medium: 'Medium priority', high: 'High priority' };

  /**
   * A row's place in the tree: `{depth, fold, subtasks}`: its depth (0 to 15), its fold marker's
   * state ('collapsed', 'expanded', or null for a row without subtasks in the view: `hasChildren`),
   * and its subtasks done out of all (`1/3`, as the Neovim pane shows it), or undefined without any.
   */
  function treeWords(row) {
    const depth = Math.max(0, Math.min(15, Number(row.depth) || 0));
    const fold = row.hasChildren === true ? (row.collapsed === true ? 'collapsed' : 'expanded') : null;
    const children = Number(row.children) || 0;
    const subtasks = children > 0 ? `${children - (Number(row.openChildren) || 0)}/${children}` : undefined;
    return { depth, fold, subtasks };
  }

  /**
   * A row's words: `{title, due?, repeat? (the repeat's words, for its ↻), priority?, priorityName?, tags?, list?, notes, depth, fold,
   * subtasks?, context}` (text already displayed; the tree's members as `treeWords` says them;
   * `context`: the row is in the view only as an ancestor of a match, shown dimmed).
   */
  function rowWords(row, context) {
    if (row.kind === 'header') return { title: displayed(row.title), count: row.count };
    const words = Object.assign({ title: displayed(row.title), notes: row.hasNotes === true, done: row.done === true, context: row.context === true }, treeWords(row));
    if (row.due) words.due = due(row.due, row.done === true, context, row.dueLocal);
    if (row.repeat) words.repeat = repeatText(row.repeat);
    if (priorityMarks[row.priority]) {
      words.priority = priorityMarks[row.priority];
      words.priorityName = priorityNames[row.priority];
    }
    if (Array.isArray(row.tags) && row.tags.length > 0) words.tags = row.tags.map((tag) => `#${displayed(tag)}`).join(' ');
    if (context.showList && context.listNames && context.listNames[row.list] !== undefined) words.list = displayed(context.listNames[row.list]);
    return words;
  }

  /** A row as one line of text (for the tree's tooltip, tests and screen readers). */
  function rowText(row, context) {
    const w = rowWords(row, context);
    if (row.kind === 'header') return `${w.title} (${w.count})`;
    const parts = [`${w.done ? '[x]' : '[ ]'} ${w.title}${w.subtasks ? ` ${w.subtasks}` : ''}`];
    if (w.due) parts.push(w.repeat ? `${w.due.text} ↻` : w.due.text);
    else if (w.repeat) parts.push('↻');
    if (w.priority) parts.push(w.priority);
    if (w.tags) parts.push(w.tags);
    if (w.list) parts.push(`(${w.list})`);
    return parts.join('  ');
  }

  /**
   * A stored title as an edit field starts with it: each word the quick-entry grammar would read as
   * a field gets a backslash (`#42` → `\\#42`), so the unchanged line reads back as the same title.
   */
  function escapeTitle(title) {
    return String(title).replace(/\S+/g, (word) => (/^[#!@^\\/]/.test(word) || /^due:/i.test(word) || /^(every|remind)$/i.test(word) || repeaterCookie.test(word) ? `\\${word}` : word));
  }

  /** An org-mode repeater cookie (`+1w`, `++1m`, `.+3d`), which the item grammar reads as a repeat. */
  const repeaterCookie = /^(\+\+|\.\+|\+)\d{1,4}[dwmy]$/i;

  /** A repeat in the server's words (`every month on the 1st`), displayed; '' for none. */
  function repeatText(repeat) {
    if (!repeat || typeof repeat !== 'object') return '';
    return displayed(String(repeat.text || repeat.rule || ''));
  }

  /**
   * A repeating task's history, as the item's `occurrences` say it: `3 done, 1 skipped; last done
   * 2026-11-20` (the day of the latest occurrence in the client's zone: `timeZone`); undefined for
   * an item that never repeated.
   */
  function historyWords(occurrences, timeZone) {
    if (!occurrences) return undefined;
    const completed = Number(occurrences.completed) || 0;
    const skipped = Number(occurrences.skipped) || 0;
    if (completed + skipped === 0) return undefined;
    let text = `${completed} done, ${skipped} skipped`;
    const recent = Array.isArray(occurrences.recent) ? occurrences.recent : [];
    const last = recent[recent.length - 1];
    if (last) {
      const instant = Date.parse(last.at);
      const day = Number.isNaN(instant) ? String(last.at) : wallClock(instant, timeZone).date;
      text += `; last ${last.outcome === 'skipped' ? 'skipped' : 'done'} ${day}`;
    }
    return text;
  }

  /**
   * A repeating task that a completion moved on instead of making it done, in one line:
   * `"Pay rent" repeats (every month on the 1st): next due in 6 days` (the due in the pane's
   * relative words; `context` as for `due`).
   */
  function advancedWords(item, context) {
    return `"${displayed(item.title)}" repeats (${repeatText(item.repeat)}): next due ${due(item.due, false, context, item.dueLocal).text}`;
  }

  /** A skipped task in one line: `skipped "Water plants": next due in 3 days`. */
  function skippedWords(item, context) {
    return `skipped "${displayed(item.title)}": next due ${due(item.due, false, context, item.dueLocal).text}`;
  }

  /**
   * A refused skip or repeat in words: `reason` the refusal's `data.reason`, `titles` the titles
   * (displayed) of the tasks it names; `message` the server's own, for any other reason.
   */
  function repeatRefusal(reason, titles, message) {
    const named = titles.map((title) => `"${title}"`).join(', ');
    switch (reason) {
      case 'notRepeating': return `${named} ${titles.length === 1 ? 'does' : 'do'} not repeat: give ${titles.length === 1 ? 'it' : 'them'} a repeat first (edit the title: add every week)`;
      case 'repeatEnded': return `the repeat of ${named} has ended: there is no next time to skip to; marking it done makes it done`;
      case 'repeatWithoutDue': return 'a repeating task needs a due: give it one (^mon every week)';
      default: return displayed(String(message));
    }
  }

  /** A length of minutes in words: `1 hour`, `30 min`, `2 days`, `1 h 30 min`. */
  function minutesWords(minutes) {
    const plural = (n, unit) => `${n} ${unit}${n === 1 ? '' : 's'}`;
    if (minutes % 1440 === 0) return plural(minutes / 1440, 'day');
    if (minutes % 60 === 0) return plural(minutes / 60, 'hour');
    if (minutes < 60) return `${minutes} min`;
    return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
  }

  /**
   * An alert of a task (`{at}` or `{offset}`, see protocol.md "Alerts") in words, for the detail
   * form: `today 10:00` (an instant, relative to `context.today`), `1 hour before` (an offset from a
   * due instant), `on the day at 09:00`, `the day before at 18:00`, `2 days before at 09:00` (an
   * offset from a due day's local midnight); `itemDue` is the task's due (an offset without one
   * never fires: `… (no due: it never fires)`).
   */
  function alertWords(alert, itemDue, context) {
    if (alert && typeof alert.at === 'string') return due(alert.at, true, context).text;
    const offset = Number(alert && alert.offset) || 0;
    if (!itemDue) return `${offset === 0 ? 'at the due' : `${minutesWords(Math.abs(offset))} ${offset < 0 ? 'before' : 'after'} the due`} (no due: it never fires)`;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(itemDue)) return offset === 0 ? 'at the due' : `${minutesWords(Math.abs(offset))} ${offset < 0 ? 'before' : 'after'}`;
    const days = Math.floor(offset / 1440);
    const rest = offset - days * 1440;
    const time = `${String(Math.floor(rest / 60)).padStart(2, '0')}:${String(rest % 60).padStart(2, '0')}`;
    const day = days === 0 ? 'on the day' : days === -1 ? 'the day before' : days === 1 ? 'the day after' : `${Math.abs(days)} days ${days < 0 ? 'before' : 'after'}`;
    return `${day} at ${time}`;
  }

  /**
   * A fired reminder in words: `"Call Ann" due today 10:00` (the due relative to `context.today`),
   * then `, late` when it fired late; `params` is the `reminder/fired` notification's (or a
   * `reminders/list` entry, without `late`).
   */
  function reminderWords(params, context) {
    const item = params.item || {};
    let text = `"${displayed(item.title)}"`;
    if (item.due) text += ` due ${due(item.due, item.done === true, context, item.dueLocal).text}`;
    if (params.late === true) text += ', late';
    return text;
  }

  /**
   * What an undo or redo did, for a person: `undid: delete 3 tasks` (`verb` 'undid' or 'redid',
   * `result` the server's answer, whose `description` says the step in words); never a method name.
   */
  function stepWords(verb, result) {
    const description = result && typeof result.description === 'string' && result.description !== '' ? result.description : 'the last change';
    return `${verb}: ${displayed(description)}`;
  }

  /**
   * A refused `items/indent` or `items/outdent` in words, as the Neovim pane says it: `reason` is
   * the refusal's `data.reason`, `title` the first task's title (displayed), `message` the server's
   * own, said when the reason is none of the tree's.
   */
  function indentRefusal(reason, title, outdent, message) {
    const quoted = `"${title}"`;
    const verb = outdent ? 'outdent' : 'indent';
    switch (reason) {
      case 'noPreviousSibling': return `cannot indent ${quoted}: no task above it at its level to become a subtask of`;
      case 'topLevel': return `cannot outdent ${quoted}: it is already at the top level`;
      case 'notSiblings': return `cannot ${verb} these tasks together: they are not subtasks of the same task`;
      case 'tooDeep': return `cannot indent ${quoted}: subtasks go at most 15 levels deep`;
      default: return `cannot ${verb}: ${displayed(String(message))}`;
    }
  }

  /**
   * A refused subtask add (`items/create` with a `parent`) in words: `reason` 'parentGone' when
   * the task it was to go under (`title`, displayed) was deleted meanwhile; otherwise the server's
   * own `message`, displayed.
   */
  function subtaskRefusal(reason, title, message) {
    if (reason === 'parentGone') return `cannot add a subtask of "${title}": it was deleted`;
    return displayed(String(message));
  }

  return { alertWords, repeatText, historyWords, advancedWords, skippedWords, repeatRefusal, reminderWords, indentRefusal, subtaskRefusal, treeWords, stepWords, displayed, relative, due, duePhrase, dayNumber, rowWords, rowText, priorityMarks, wallClock, escapeTitle };
}));

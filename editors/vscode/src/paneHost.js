'use strict';
// The extension-host side of one list pane: it owns the pane's server view and model, answers the
// page's messages with requests, and posts the page what changed. Pure (no `vscode`): the
// extension gives it a webview's `postMessage`, the Chromium harness a relay to a browser page.
//
// Page → host: {type: 'ready', state}, {type: 'setWindow', start, end}, {type: 'call', id, action, args}.
// Host → page: {type: 'init', ...}, {type: 'snapshot', snapshot}, {type: 'changed', params},
//   {type: 'closed', reason}, {type: 'stopped', message}, {type: 'overview', ...}, {type: 'reply', id, ok, result | error},
//   {type: 'say', text, kind} (a line for the pane's messages, from a command: `undid: delete 3 tasks`),
//   {type: 'command', name} (a command of the pane's title menu or palette the page carries out: `addSubtask`),
//   or {type: 'batch', messages: [...]} of those, in order.
const { ViewModel } = require('./viewModel');
const { describe } = require('./connection');
const { displayed, indentRefusal, advancedWords, skippedWords, repeatRefusal } = require('./words');

const defaultWindow = 100;
const maximumWindow = 1000;

class PaneHost {
  /**
   * `client`: the shared Client. `source`: `{list: ID}`, `{group: NAME}` or `{smartList: ID}`. `name`: the title.
   * `post(message)`: to the page (returns false or throws when the page is gone).
   * `onTitle(title)`: the pane's title changed (shown: through `displayed`). `restored`: settings from a previous session.
   */
  constructor({ client, source, name, post, onTitle, restored }) {
    this.client = client;
    this.source = sourceOf(source);
    this.name = name || source.list || source.smartList || source.group;
    this.post = post;
    this.onTitle = onTitle || (() => {});
    this.model = new ViewModel();
    this.settings = Object.assign({ sort: undefined, filter: undefined, filterText: '', sections: undefined }, restored || {});
    this.visible = true;
    this.stale = false;
    this.disposed = false;
    this.closed = null;
    this.opening = null;
    this.windowWanted = null;
    this.windowInFlight = false;
    this.resyncing = false;
    this.stats = { windowRequests: 0, resyncs: 0, gaps: 0, changes: 0 };
    this.outbox = [];
    this.overviewListener = (overview) => this.sendOverview(overview);
    this.client.overviewListeners.add(this.overviewListener);
  }

  /** The pane's state for a serializer: enough to open it again after a reload. */
  persistentState() {
    return {
      source: this.source, name: this.name, sort: this.model.sort, filter: this.model.filter,
      filterText: this.settings.filterText, sections: this.model.sections,
    };
  }

  /**
   * Posts to the page. Messages produced in one turn of the event loop (a request's notifications
   * and its answer, say) leave as one post, `{type: 'batch', messages}`, in order: each post is
   * serialized, so fewer, larger ones cost the page less.
   */
  send(message) {
    if (this.disposed) return;
    if (!this.visible && message.type !== 'reply') { this.stale = true; return; }
    this.outbox.push(message);
    if (this.outbox.length === 1) setImmediate(() => this.flush());
  }

  flush() {
    const messages = this.outbox;
    this.outbox = [];
    if (this.disposed || messages.length === 0) return;
    try { this.post(messages.length === 1 ? messages[0] : { type: 'batch', messages }); } catch { /* the page is gone; dispose follows */ }
  }

  sendOverview(overview) {
    if (!overview) return;
    const names = {};
    for (const list of overview.lists || []) names[list.id] = list.name;
    if (this.source.list && names[this.source.list] !== undefined && names[this.source.list] !== this.name) {
      this.name = names[this.source.list];
      this.onTitle(displayed(this.name));
    }
    if (this.source.group) {
      const group = (overview.groups || []).find((g) => g.id === this.source.group);
      if (group && group.name !== this.name) { this.name = group.name; this.onTitle(displayed(this.name)); }
    }
    if (this.source.smartList) {
      const smart = (overview.smartLists || []).find((s) => s.id === this.source.smartList);
      if (smart && smart.name !== this.name) { this.name = smart.name; this.onTitle(displayed(this.name)); }
    }
    this.send({ type: 'overview', today: overview.today, listNames: names, lists: (overview.lists || []).map((l) => ({ id: l.id, name: l.name })) });
  }

  sendInit() {
    this.send({
      type: 'init', source: this.source, name: this.name, filterText: this.settings.filterText,
      timeZone: this.client.options.timeZone || Intl.DateTimeFormat().resolvedOptions().timeZone,
      quickEntry: this.client.supports('text/parseItem'),
    });
    this.sendOverview(this.client.overview);
  }

  /** The page became visible (again): it gets the whole model, since hidden pages get nothing. */
  setVisible(visible) {
    this.visible = visible;
    if (visible && this.stale) {
      this.stale = false;
      this.sendInit();
      this.sendSnapshot('visible');
    }
  }

  sendSnapshot(reason) {
    if (this.closed) this.send({ type: 'closed', reason: this.closed });
    else if (this.model.version !== null) this.send({ type: 'snapshot', reason, snapshot: this.model.snapshot() });
  }

  /** A message from the page. */
  receive(message) {
    if (this.disposed || !message || typeof message !== 'object') return;
    switch (message.type) {
      case 'ready': this.ready(message.state || {}, message.rows); break;
      case 'setWindow': this.setWindow(message.start, message.end); break;
      case 'call': this.call(message.id, message.action, message.args || {}); break;
      default: break;
    }
  }

  ready(state, visibleRows) {
    if (state.filterText !== undefined && this.model.version === null) this.settings.filterText = state.filterText;
    this.stale = false;
    this.sendInit();
    if (this.model.version !== null || this.closed) { this.sendSnapshot('ready'); return; }
    if (!this.client.overview) this.client.request('lists/list', {}).then((overview) => { if (!this.client.overview) this.client.overview = overview; this.sendOverview(overview); }, () => {});
    const start = Math.max(0, Math.floor(state.firstRow || 0) - defaultWindow);
    const size = Math.min(maximumWindow, Math.max(1, Number(visibleRows) || 40) + 2 * defaultWindow);
    this.open({ start, end: start + size });
  }

  /** Opens the server view (again after a restart of the server). */
  open(window) {
    const params = Object.assign({}, this.source, { window });
    const sort = this.settings.sort || this.model.sort;
    if (sort && (sort.by !== 'manual' || sort.direction === 'descending')) params.sort = sort;
    const filter = this.settings.filter || this.model.filter;
    if (filter && Object.keys(filter).length > 0) params.filter = filter;
    const sections = this.settings.sections || this.model.sections;
    if (sections && sections !== 'none') params.sections = sections;
    this.closed = null;
    this.model.version = null;
    this.opening = this.client.request('lists/open', params).then((snapshot) => {
      if (this.disposed) { this.client.request('view/close', { view: snapshot.view }).catch(() => {}); return; }
      this.model.applySnapshot(snapshot);
      this.client.register(snapshot.view, { changed: (p) => this.changed(p), closed: (p) => this.viewClosed(p) });
      this.sendSnapshot('open');
    }, (error) => {
      this.model.state = 'error';
      this.model.error = { message: describe(error), retryable: true };
      this.model.count = 0;
      this.send({ type: 'snapshot', reason: 'open', snapshot: Object.assign(this.model.snapshot(), { version: 0 }) });
    });
    return this.opening;
  }

  changed(params) {
    const outcome = this.model.applyChanged(params);
    if (outcome === 'applied') {
      this.stats.changes += 1;
      this.send({ type: 'changed', params });
    } else if (outcome === 'gap') {
      this.stats.gaps += 1;
      this.resync();
    }
  }

  /** Fetches a fresh snapshot after a version gap; the page gets it as a snapshot, silently. */
  resync() {
    if (this.resyncing || this.model.view === null) return Promise.resolve();
    this.resyncing = true;
    this.stats.resyncs += 1;
    return this.client.request('view/snapshot', { view: this.model.view }).then((snapshot) => {
      this.resyncing = false;
      this.model.applySnapshot(snapshot);
      this.sendSnapshot('resync');
    }, () => { this.resyncing = false; });
  }

  viewClosed(params) {
    this.closed = params.reason || 'closed';
    this.client.unregister(this.model.view);
    this.send({ type: 'closed', reason: this.closed });
  }

  /** The server stopped: the page says so and offers to restart it. */
  serverStopped(message) {
    if (this.model.view !== null) this.client.unregister(this.model.view);
    this.model.version = null;
    this.model.view = null;
    this.send({ type: 'stopped', message });
  }

  /** Moves the server's window; one request in flight, the latest wish wins. */
  setWindow(start, end) {
    if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end <= start) return;
    this.windowWanted = { start, end: Math.min(end, start + maximumWindow) };
    this.pumpWindow();
  }

  pumpWindow() {
    if (this.windowInFlight || this.windowWanted === null || this.model.view === null || this.closed) return;
    const window = this.windowWanted;
    this.windowWanted = null;
    if (window.start === this.model.window.start && window.end === this.model.window.end) return;
    this.windowInFlight = true;
    this.stats.windowRequests += 1;
    this.client.request('view/setWindow', { view: this.model.view, window }).then((snapshot) => {
      this.windowInFlight = false;
      if (snapshot.version >= this.model.version) {
        this.model.applySnapshot(snapshot);
        this.send({ type: 'snapshot', reason: 'window', snapshot: this.model.snapshot() });
      }
      this.pumpWindow();
    }, () => { this.windowInFlight = false; this.pumpWindow(); });
  }

  async call(id, action, args) {
    try {
      const handler = actions[action];
      if (handler === undefined) throw new Error(`unknown action ${action}`);
      const result = await handler.call(this, args);
      this.send({ type: 'reply', id, ok: true, result: result === undefined ? null : result });
    } catch (error) {
      this.send({ type: 'reply', id, ok: false, error: describe(error), code: error.code, reason: error.reason });
    }
  }

  /** What the pane's words are relative to: the overview's day and the client's time zone. */
  wordsContext() {
    const today = (this.client.overview && this.client.overview.today) || new Date().toISOString().slice(0, 10);
    return { today, timeZone: this.client.options.timeZone || Intl.DateTimeFormat().resolvedOptions().timeZone };
  }

  /** The titles (displayed) of the tasks `ids`, from the rows fetched, else the ids themselves. */
  titlesOf(ids) {
    return ids.map((id) => {
      const row = this.model.rows.find((r) => r.id === id);
      return displayed(row ? row.title : id);
    });
  }

  /** A refused skip or repeat (`-32803`) in words, naming the tasks the refusal names. */
  repeatRefused(error, ids) {
    const named = error.data && Array.isArray(error.data.ids) && error.data.ids.length > 0 ? error.data.ids : ids;
    return repeatRefusal(error.reason, this.titlesOf(named), describe(error));
  }

  /** The list a new item goes to: the pane's, else the given row's, else the first list. */
  targetList(row) {
    if (this.source.list) return this.source.list;
    if (row && row.list) return row.list;
    const lists = (this.client.overview && this.client.overview.lists) || [];
    return lists.length > 0 ? lists[0].id : undefined;
  }

  /** The fields of a typed line: `{fields, warnings}` (the server's grammar when it has one). */
  async parseItem(text, list) {
    if (!this.client.supports('text/parseItem')) return { fields: { title: text.trim() }, warnings: [], spans: [] };
    const params = { text };
    if (list) params.list = list;
    const answer = await this.client.request('text/parseItem', params);
    return { fields: answer.fields || {}, warnings: (answer.warnings || []).map((w) => w.message || w.reason), spans: answer.spans || [] };
  }

  /** `view/collapse` or `view/expand` on `ids`, or on every task (`all`); `{changed}`. */
  async fold(method, ids, all) {
    if (this.model.view === null || this.closed) return { changed: false };
    const params = all === true ? { view: this.model.view, all: true } : { view: this.model.view, ids };
    if (all !== true && (!Array.isArray(ids) || ids.length === 0)) return { changed: false };
    const result = await this.client.request(method, params);
    // The rows changed (the notification came first); the page puts its focus back on its task.
    this.send({ type: 'folded' });
    return result;
  }

  /** Where a task's row is in this pane's view now (`view/locate`): `{index, id, version}`; null without a view. */
  async locate(id) {
    if (this.model.view === null || this.closed) return null;
    return this.client.request('view/locate', { view: this.model.view, id });
  }

  /** The page runs one of its own actions, asked by a command (`addSubtask`). */
  command(name) {
    this.send({ type: 'command', name });
  }

  dispose() {
    if (this.disposed) return;
    this.disposed = true;
    this.client.overviewListeners.delete(this.overviewListener);
    if (this.model.view !== null && !this.closed) {
      this.client.unregister(this.model.view);
      if (this.client.running) this.client.request('view/close', { view: this.model.view }).catch(() => {});
    }
  }
}

/** What the page can ask for; `this` is the PaneHost. Each returns the reply's result. */
const actions = {
  /**
   * `{text, where, id, before, near}`: a new task from a typed line, placed `where` ('end',
   * 'above', 'below', 'subtask') the row `id` (`ViewModel.placement`: 'below' is the row right
   * below it in the tree, 'subtask' its first subtask, expanded first when it is collapsed so the
   * new task is seen); `before` (an older page's placement) puts it before that row. A line the
   * server read with warnings is never stored, however often it is sent: the warnings come back
   * and the user edits the text (or escapes a word with `\`), as in the REPL and the Neovim pane;
   * so does a refused placement (a subtask in another list than its parent's, or of a task deleted
   * meanwhile), in the server's words, with `refused` (its `data.reason`) and `ids` (`data.ids`).
   */
  async add({ text, where, id, before, near }) {
    if (typeof text !== 'string' || text.trim() === '') return { warnings: ['type a title'] };
    const list = this.targetList(near);
    if (list === undefined) throw new Error('there is no list yet: create one in the overview');
    const { fields, warnings } = await this.parseItem(text, list);
    if (warnings.length > 0) return { warnings };
    if (fields.title === undefined) return { warnings: [`a task needs a title: ${text}`] };
    const params = Object.assign({}, fields, { list: fields.list || list });
    if (this.source.group === 'today' && params.due === undefined) params.due = (await this.parseItem('^today', list)).fields.due || (this.client.overview && this.client.overview.today);
    if (typeof id === 'string' && (where === 'above' || where === 'below' || where === 'subtask')) {
      const row = this.model.rows.find((r) => r.id === id);
      if (where === 'subtask' && row && row.collapsed === true) {
        // Its view/changed comes before the answer: the model shows the subtasks when it resolves.
        await this.client.request('view/expand', { view: this.model.view, ids: [id] });
      }
      Object.assign(params, this.model.placement(where, id, params.list));
    } else if (before && params.list === (before.list || params.list)) {
      params.before = before.id;
    }
    try {
      const answer = await this.client.request('items/create', params);
      return { item: answer.item };
    } catch (error) {
      if (error.code === -32803 && params.parent !== undefined) {
        const ids = error.data && Array.isArray(error.data.ids) ? error.data.ids : undefined;
        return { warnings: [describe(error)], refused: error.reason, ids };
      }
      throw error;
    }
  },
  /**
   * `{ids, done}`: marks the tasks done or not done. A repeating task that `done` moves on to its
   * next occurrence instead is said in `advanced`, one line each (`advancedWords`).
   */
  async toggle({ ids, done }) {
    const answer = await this.client.request('items/update', { ids, done: done === true });
    const moved = new Set(answer.advanced || []);
    const context = this.wordsContext();
    return { revision: answer.revision, changed: answer.changed, advanced: answer.items.filter((item) => moved.has(item.id)).map((item) => advancedWords(item, context)) };
  },
  /**
   * `{ids}`: repeating tasks moved on to their next occurrence without being done (`items/skip`):
   * `{said: [lines]}` (`skipped "Water plants": next due in 3 days`); a refusal (a task that does
   * not repeat, a repeat that has ended) is `{refused: words}`, nothing changed.
   */
  async skip({ ids }) {
    try {
      const answer = await this.client.request('items/skip', { ids });
      const context = this.wordsContext();
      return { said: answer.items.map((item) => skippedWords(item, context)) };
    } catch (error) {
      if (error.code !== -32803) throw error;
      return { refused: this.repeatRefused(error, ids) };
    }
  },
  /** `{ids}`: the tasks stop repeating (`repeat: null`; their history stays). `{said}` or `{refused}`. */
  async stopRepeating({ ids }) {
    const repeating = ids.filter((id) => { const row = this.model.rows.find((r) => r.id === id); return !row || row.repeat; });
    if (repeating.length === 0) return { refused: repeatRefusal('notRepeating', this.titlesOf(ids)) };
    const answer = await this.client.request('items/update', repeating.length === 1 ? { id: repeating[0], repeat: null } : { ids: repeating, repeat: null });
    return { said: [`no longer repeating: ${answer.items.map((item) => `"${displayed(item.title)}"`).join(', ')}`] };
  },
  /**
   * `{id, list, text}`: the title line edited in place, read with the quick-entry grammar; with
   * warnings nothing changes. A repeat phrase (`every week`) sets the repeat; without a due phrase
   * the task keeps its due (the grammar's first day of the repeat is only for a task without one).
   * `alerts`, when the grammar gives them, replace the task's.
   */
  async rename({ id, list, text }) {
    const { fields, warnings, spans } = await this.parseItem(text, list);
    if (warnings.length > 0) return { warnings };
    if (fields.repeat && fields.due !== undefined && !spans.some((span) => span.kind === 'due')) {
      const row = this.model.rows.find((r) => r.id === id);
      const current = row ? row : await this.client.request('items/get', { id });
      if (current.due) delete fields.due;
    }
    const update = { id };
    let any = false;
    for (const name of ['title', 'notes', 'due', 'priority', 'tags', 'repeat', 'alerts']) {
      if (fields[name] !== undefined) { update[name] = fields[name]; any = true; }
    }
    if (any) {
      try {
        await this.client.request('items/update', update);
      } catch (error) {
        if (error.code === -32803 && error.reason === 'repeatWithoutDue') return { warnings: [repeatRefusal(error.reason, [])] };
        throw error;
      }
    }
    if (fields.list && fields.list !== list) await this.client.request('items/move', { ids: [id], before: null, list: fields.list });
    return { changed: any };
  },
  /**
   * `{id, due, priority, tags, notes, repeat}` from the detail form; `due` is typed (`fri 5pm`,
   * `none`), `repeat` too (`every month on the 1st`, read by the grammar; '' stops repeating; a
   * task without a due gets the repeat's first day, as quick entry gives it).
   */
  async details({ id, list, due, priority, tags, notes, repeat }) {
    const update = { id };
    if (typeof repeat === 'string') {
      if (repeat.trim() === '') update.repeat = null;
      else {
        const { fields, warnings } = await this.parseItem(repeat.trim(), list);
        if (warnings.length > 0) return { warnings };
        if (!fields.repeat || fields.title !== undefined) return { warnings: [`not a repeat: ${repeat.trim()} (such as every week, every mon,wed, every month on the last fri, every 3 days after done)`] };
        update.repeat = fields.repeat;
        if (fields.due) update.dueIfNone = fields.due;
      }
    }
    if (typeof due === 'string') {
      if (due.trim() === '') update.due = null;
      else {
        const { fields, warnings } = await this.parseItem(`due:${due.trim()}`, list);
        if (warnings.length > 0 || fields.due === undefined) return { warnings: warnings.length > 0 ? warnings : [`not a date: ${due}`] };
        update.due = fields.due;
      }
    }
    if (priority !== undefined) update.priority = priority;
    if (typeof tags === 'string') update.tags = tags.split(/[\s,]+/).map((t) => t.replace(/^#/, '')).filter((t) => t !== '');
    if (typeof notes === 'string') update.notes = notes;
    const first = update.dueIfNone;
    delete update.dueIfNone;
    if (first !== undefined && update.due === undefined && !(await this.client.request('items/get', { id })).due) update.due = first;
    try {
      const answer = await this.client.request('items/update', update);
      return { item: answer.items[0] };
    } catch (error) {
      if (error.code === -32803 && error.reason === 'repeatWithoutDue') return { warnings: [repeatRefusal(error.reason, [])] };
      throw error;
    }
  },
  async get({ id }) { return this.client.request('items/get', { id }); },
  async delete({ ids }) { return this.client.request('items/delete', { ids }); },
  /**
   * `{version, from, count, to, depth?}`: rows moved by view index (manual order only), each with
   * its subtree (the server takes the rows of the subtrees shown below them along); `depth`: the
   * level the tops land at (`ViewModel.landingDepth`), else the server's default.
   */
  async move({ version, from, count, to, depth }) {
    const params = { view: this.model.view, version, from, count: count || 1, to };
    if (Number.isInteger(depth)) params.depth = depth;
    try {
      return await this.client.request('items/move', params);
    } catch (error) {
      if (error.code === -32801) {
        await this.resync();
        throw new Error('the list changed meanwhile: nothing moved, try again');
      }
      throw error;
    }
  },
  /**
   * `{ids, outdent}`: the tasks made subtasks of the task above them at their level
   * (`items/indent`), or siblings of their parent right after it (`outdent`: `items/outdent`),
   * each with its subtree; one undo step. A refusal is `{refused: words}` (`indentRefusal`),
   * nothing changed.
   */
  async indent({ ids, outdent }) {
    try {
      return await this.client.request(outdent ? 'items/outdent' : 'items/indent', { ids });
    } catch (error) {
      if (error.code !== -32803) throw error;
      const first = this.model.rows.find((row) => row.id === ids[0]);
      return { refused: indentRefusal(error.reason, displayed(first ? first.title : ids[0]), outdent === true, describe(error)) };
    }
  },
  /** `{ids}` or `{all: true}`: hides the rows below those tasks, in this pane's view only (`view/collapse`). */
  async collapse({ ids, all }) { return this.fold('view/collapse', ids, all); },
  /** `{ids}` or `{all: true}`: shows the rows below those tasks again (`view/expand`). */
  async expand({ ids, all }) { return this.fold('view/expand', ids, all); },
  /** `{id}`: where that task's row is now (`view/locate`), so the focus can follow it. */
  async locate({ id }) { return this.locate(id); },
  async moveToList({ ids, list }) { return this.client.request('items/move', { ids, before: null, list }); },
  async sort({ sort }) {
    const answer = await this.client.request('view/sort', { view: this.model.view, sort });
    this.settings.sort = sort;
    this.model.sort = { by: sort.by, direction: sort.direction || 'ascending' };
    return { version: answer.version, sort: this.model.sort };
  },
  /**
   * `{text}`: the filter as typed; the server reads it (`text/parseFilter`). A text with warnings
   * is not applied (the view keeps its filter): `{warnings, applied: false}`.
   */
  async filter({ text }) {
    let filter = {};
    let warnings = [];
    if (typeof text === 'string' && text.trim() !== '') {
      if (this.client.supports('text/parseFilter')) {
        const answer = await this.client.request('text/parseFilter', { text });
        filter = answer.filter || {};
        warnings = (answer.warnings || []).map((w) => w.message || w.reason);
        if (warnings.length > 0) return { filter: this.model.filter, warnings, applied: false };
      } else {
        filter = { text: text.trim() };
      }
    }
    await this.client.request('view/filter', { view: this.model.view, filter });
    this.settings.filter = filter;
    this.model.filter = filter;
    this.settings.filterText = typeof text === 'string' ? text : '';
    return { filter, warnings, applied: true };
  },
  async sections({ sections }) {
    const answer = await this.client.request('view/sections', { view: this.model.view, sections });
    this.settings.sections = sections;
    this.model.sections = sections;
    return { version: answer.version, sections };
  },
  /** The server's result: `description` says the step in words (`delete 3 tasks`). */
  async undo() { return this.client.request('undo'); },
  async redo() { return this.client.request('redo'); },
  /** Retries the store (a view in error), or reopens the pane after the server stopped. */
  async retry({ visibleRows } = {}) {
    if (!this.client.running || this.model.view === null) {
      await this.open({ start: 0, end: Math.min(maximumWindow, (visibleRows || 40) + 2 * defaultWindow) });
      return { reopened: true };
    }
    const answer = await this.client.request('store/retry');
    if (answer.retried === false) await this.resync();
    return answer;
  },
};

/** A pane's source, as `lists/open` takes it: `{list}`, `{smartList}` or `{group}`. */
function sourceOf(source) {
  if (source.list) return { list: source.list };
  if (source.smartList) return { smartList: source.smartList };
  return { group: source.group };
}

/** Whether two sources name the same list, smart list or group. */
function sameSource(a, b) {
  return (a.list || null) === (b.list || null) && (a.smartList || null) === (b.smartList || null) && (a.group || null) === (b.group || null);
}

module.exports = { PaneHost, actions, sourceOf, sameSource };

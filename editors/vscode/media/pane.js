// The list pane's page: a virtualized listbox of one server view. The scroll height is `count`
// rows; only the rows in the viewport (plus a few) exist in the DOM, positioned through CSSOM (the
// CSP drops inline style attributes); rows outside the server's window are placeholders until
// they arrive; ops are applied to the model and only the rows they touch are rebuilt; the focused
// row is a row id. It talks to the extension host only through `acquireVsCodeApi().postMessage`.
/* global acquireVsCodeApi, TasklsViewModel, TasklsWords */
(function () {
  'use strict';
  const vscode = acquireVsCodeApi();
  const { ViewModel } = TasklsViewModel;
  const words = TasklsWords;

  const rowHeight = 22;
  const overscan = 4;
  const margin = 100; // rows of data each side of the viewport
  const maximumWindow = 1000;
  const windowDelay = 40; // ms of quiet scrolling before the window follows
  // Chromium caps an element's height near 33,554,428 px: above this, rows map to the scroll range
  // by a scale factor (the test harness lowers it to test that with 100,000 rows).
  const maxHeight = (window.tasklsOptions && window.tasklsOptions.maxHeight) || 30000000;

  const model = new ViewModel();
  const saved = vscode.getState() || {};
  const pane = {
    model,
    source: saved.host ? saved.host.source : null,
    name: saved.host ? saved.host.name : '',
    today: null,
    timeZone: undefined,
    listNames: {},
    lists: [],
    closed: null,
    stopped: null,
    focusedId: saved.focusedId || null,
    focusIndex: 0,
    pendingFocus: null,
    pendingExtend: false,
    jumpTop: false,
    selection: new Set(),
    anchorId: null,
    editing: null,
    pendingWindow: null,
    windowCheckScheduled: false,
    /** The task the focus lost to a change that took its row out of the fetched rows, and the index it fell back to. */
    lostFocus: null,
    stats: { windowRequests: 0, requestedSizes: [], rowsBuilt: 0, renders: 0, snapshots: 0, changes: 0, maxDomRows: 0, located: 0 },
  };
  window.tasklsPane = pane; // for the tests and for debugging in the webview's devtools

  // Building the page ---------------------------------------------------------------------------

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function button(label, title, onClick, className) {
    const node = element('button', className || 'button', label);
    node.type = 'button';
    if (title) node.title = title;
    node.addEventListener('click', onClick);
    return node;
  }

  function select(options, label, onChange) {
    const node = element('select', 'select');
    node.setAttribute('aria-label', label);
    node.title = label;
    for (const [value, text] of options) {
      const option = element('option', undefined, text);
      option.value = value;
      node.appendChild(option);
    }
    node.addEventListener('change', () => onChange(node.value));
    return node;
  }

  const sorts = [
    ['manual:ascending', 'Manual order'], ['title:ascending', 'Title'], ['due:ascending', 'Due date'],
    ['priority:descending', 'Priority (high first)'], ['created:descending', 'Newest first'], ['modified:descending', 'Recently modified'],
    ['manual:descending', 'Manual order, reversed'],
  ];
  const groupings = [['none', 'No sections'], ['dueBucket', 'Sections: due date'], ['priority', 'Sections: priority'], ['list', 'Sections: list'], ['done', 'Sections: done']];

  const app = document.getElementById('app');
  const toolbar = element('div', 'toolbar');
  toolbar.setAttribute('role', 'toolbar');
  toolbar.setAttribute('aria-label', 'Task pane');
  const addInput = element('input', 'input add');
  addInput.type = 'text';
  addInput.placeholder = 'Add a task… (^fri 5pm !high #tag @List // notes)';
  addInput.setAttribute('aria-label', 'Add a task');
  const sortSelect = select(sorts, 'Sort', (value) => {
    const [by, direction] = value.split(':');
    pane.jumpTop = true;
    call('sort', { sort: { by, direction } }).then((result) => { if (result) { model.sort = result.sort; persist(); } syncToolbar(); });
  });
  const filterInput = element('input', 'input filter');
  filterInput.type = 'search';
  filterInput.placeholder = 'Filter… (#tag !high+ due<fri open text)';
  filterInput.setAttribute('aria-label', 'Filter');
  const sectionsSelect = select(groupings, 'Sections', (value) => {
    pane.jumpTop = true;
    call('sections', { sections: value }).then((result) => { if (result) { model.sections = result.sections; persist(); } syncToolbar(); scheduleRender(); });
  });
  const undoButton = button('↶', 'Undo (u, Ctrl+Z)', () => undo(), 'button icon');
  const redoButton = button('↷', 'Redo (Ctrl+R, Ctrl+Shift+Z)', () => redo(), 'button icon');
  toolbar.append(addInput, filterInput, sortSelect, sectionsSelect, undoButton, redoButton);

  const messages = element('div', 'messages');
  messages.setAttribute('role', 'status');
  messages.setAttribute('aria-live', 'polite');
  const bulk = element('div', 'bulk');
  bulk.hidden = true;
  const progress = element('div', 'progress');
  progress.setAttribute('role', 'progressbar');
  progress.setAttribute('aria-label', 'Loading');
  const progressBar = element('div', 'progress-bar');
  progress.appendChild(progressBar);
  progress.hidden = true;
  const statePanel = element('div', 'state');
  statePanel.hidden = true;
  const stateText = element('div', 'state-text');
  const stateButton = element('button', 'button');
  stateButton.type = 'button';
  statePanel.append(stateText, stateButton);

  const scroller = element('div', 'scroller');
  scroller.tabIndex = 0;
  scroller.setAttribute('role', 'listbox');
  scroller.setAttribute('aria-multiselectable', 'true');
  scroller.setAttribute('aria-label', 'Tasks');
  const spacer = element('div', 'spacer');
  scroller.appendChild(spacer);
  const details = element('form', 'details');
  details.hidden = true;
  app.append(toolbar, messages, bulk, progress, statePanel, scroller, details);

  // Talking to the host -------------------------------------------------------------------------

  let nextCall = 1;
  const waiting = new Map();
  /** Asks the host for `action`; resolves with the reply's result, shows an error as one line. */
  function call(action, args) {
    const id = nextCall++;
    vscode.postMessage({ type: 'call', id, action, args });
    return new Promise((resolve) => waiting.set(id, (reply) => {
      if (!reply.ok) {
        say(words.displayed(String(reply.error)), 'error'); // errors may quote stored names
        resolve(undefined);
      } else {
        resolve(reply.result);
      }
    }));
  }

  function say(text, kind) {
    messages.replaceChildren();
    if (!text) return;
    const lines = Array.isArray(text) ? text : [text];
    for (const line of lines) messages.appendChild(element('div', `message ${kind || 'info'}`, line));
  }

  function sayUndo(text) {
    messages.replaceChildren();
    const line = element('div', 'message info', `${text} `);
    line.appendChild(button('Undo', 'Undo (u)', () => { say(null); undo(); }, 'link'));
    messages.appendChild(line);
  }

  /** Undoes the latest change and says what it undid in words (`undid: delete 3 tasks`). */
  async function undo() {
    const result = await call('undo', {});
    if (result) say(words.stepWords('undid', result));
  }

  /** Redoes the latest undone change and says what it redid (`redid: delete 3 tasks`). */
  async function redo() {
    const result = await call('redo', {});
    if (result) say(words.stepWords('redid', result));
  }

  /** Warnings of a typed line, as shown under the toolbar: they quote what was typed, so they are shown escaped. */
  function sayWarnings(warnings, hint) {
    const lines = warnings.map((warning) => words.displayed(String(warning)));
    if (hint) lines.push(hint);
    say(lines, 'warning');
  }

  function persist() {
    vscode.setState({
      host: { source: pane.source, name: pane.name, sort: model.sort, filter: model.filter, filterText: filterInput.value, sections: model.sections },
      firstRow: Math.floor(virtualTop() / rowHeight),
      focusedId: pane.focusedId,
    });
  }

  window.addEventListener('message', (event) => receive(event.data));

  function receive(message) {
    if (!message || typeof message !== 'object') return;
    switch (message.type) {
      case 'batch': for (const one of message.messages) receive(one); break;
      case 'init':
        pane.source = message.source;
        pane.name = message.name;
        pane.timeZone = message.timeZone;
        if (message.filterText !== undefined && document.activeElement !== filterInput) filterInput.value = message.filterText;
        document.title = message.name;
        break;
      case 'overview': {
        // Counts change with every edit; rows are redrawn only when what they show changed.
        const changed = pane.today !== message.today || JSON.stringify(pane.listNames) !== JSON.stringify(message.listNames || {});
        pane.today = message.today;
        pane.listNames = message.listNames || {};
        pane.lists = message.lists || [];
        if (changed) refreshAll();
        break;
      }
      case 'snapshot': applySnapshot(message.snapshot, message.reason); break;
      case 'changed': applyChanged(message.params); break;
      case 'closed':
        pane.closed = message.reason;
        scheduleRender();
        break;
      case 'say': say(message.text, message.kind); break; // from a command (Ctrl+Z: `undid: …`)
      case 'command': // the title menu's and the palette's
        if (message.name === 'addSubtask') startAdd('subtask');
        else if (message.name === 'skip') skip();
        else if (message.name === 'stopRepeating') stopRepeating();
        break;
      case 'folded': followLostFocus(); break;
      case 'stopped':
        pane.stopped = message.message || 'the server stopped';
        scheduleRender();
        break;
      case 'reply': {
        const resolve = waiting.get(message.id);
        waiting.delete(message.id);
        if (resolve) resolve(message);
        break;
      }
      default: break;
    }
  }

  // The model -----------------------------------------------------------------------------------

  function applySnapshot(snapshot, reason) {
    const anchor = captureAnchor();
    pane.stats.snapshots += 1;
    pane.stopped = null;
    pane.closed = null;
    const sameRows = new Map();
    for (const row of model.rows) sameRows.set(row.id, row);
    model.applySnapshot(snapshot);
    // Rows that did not change keep their object, so their DOM rows are not rebuilt.
    model.rows = model.rows.map((row) => {
      const old = sameRows.get(row.id);
      return old && sameRow(old, row) ? old : row;
    });
    if (reason === 'window') pane.pendingWindow = null;
    syncToolbar();
    if ((reason === 'open' || reason === 'ready') && saved.firstRow && !pane.restored) {
      pane.restoreRow = saved.firstRow; // applied by render, once the list is shown
    } else if (reason !== 'window') restoreAnchor(anchor);
    else setSpacer();
    keepFocus(anchor);
    takePendingFocus();
    scheduleRender();
    scheduleWindowCheck();
  }

  function sameRow(a, b) {
    return JSON.stringify(a) === JSON.stringify(b);
  }

  function applyChanged(params) {
    const anchor = captureAnchor();
    const start = model.window.start;
    const top = virtualTop();
    const outcome = model.applyChanged(params);
    if (outcome !== 'applied') return; // the host resyncs gaps; the page follows the host's order
    pane.stats.changes += 1;
    setSpacer();
    if (pane.jumpTop && (params.ops || []).some((op) => op.op === 'reset')) {
      // A new sort, filter or sections that this pane asked for: start from the top.
      pane.jumpTop = false;
      setVirtualTop(0);
    } else {
      const shift = shiftAbove(params.ops || [], start, Math.floor(top / rowHeight), top > 0);
      setVirtualTop(top + shift * rowHeight);
    }
    keepFocus(anchor);
    scheduleRender();
    scheduleWindowCheck();
  }

  /**
   * How many rows the first visible row moved by, for ops applied in order (window-relative, the
   * window starting at `start`): a row inserted or removed above it shifts it (Chromium's scroll
   * anchoring does not see absolutely positioned rows, so the pane compensates itself). At the very
   * top an insertion shows (a new first task appears instead of hiding above the view).
   */
  function shiftAbove(ops, start, first, scrolled) {
    let current = first;
    const insert = (index) => { if (index < current || (index === current && scrolled)) current += 1; };
    const remove = (index) => { if (index < current) current -= 1; };
    for (const op of ops) {
      if (op.op === 'insert') insert(start + op.index);
      else if (op.op === 'remove') remove(start + op.index);
      else if (op.op === 'move') { remove(start + op.from); insert(start + op.to); }
    }
    return current - first;
  }

  /** What must stay put across a change: the first visible row (and its offset), and the focus. */
  function captureAnchor() {
    const top = virtualTop();
    const first = Math.floor(top / rowHeight);
    let id = null;
    let index = -1;
    for (let i = first; i < first + 3; i++) {
      const row = model.rowAt(i);
      if (row) { id = row.id; index = i; break; }
    }
    const focusAncestors = pane.focusedId === null ? [] : model.ancestorsOf(pane.focusedId);
    return { id, index, offset: index * rowHeight - top, top, focusedId: pane.focusedId, focusIndex: model.indexOf(pane.focusedId), focusAncestors, count: model.count };
  }

  /** Shifts the scroll position so the anchor row stays under the same pixel. */
  function restoreAnchor(anchor) {
    setSpacer();
    const index = anchor.id === null ? -1 : model.indexOf(anchor.id);
    if (index < 0) setVirtualTop(anchor.top);
    else setVirtualTop(index * rowHeight - anchor.offset);
  }

  /**
   * The focused row stays the same row; when it was hidden by collapsing (its nearest ancestor
   * still shown is now collapsed), that ancestor takes over, as a tree's focus goes to the
   * collapsed node; when it is gone, the row now at its index.
   */
  function keepFocus(anchor) {
    pane.lostFocus = null;
    if (pane.focusedId === null) return;
    const index = model.indexOf(pane.focusedId);
    if (index >= 0) { pane.focusIndex = index; return; }
    for (const id of anchor.focusAncestors || []) {
      const at = model.indexOf(id);
      if (at < 0) continue;
      if (model.rowAt(at).collapsed !== true) break;
      pane.focusedId = id;
      pane.focusIndex = at;
      for (const selected of [...pane.selection]) if (model.indexOf(selected) < 0) pane.selection.delete(selected);
      if (pane.selection.size === 0) pane.selection.add(id);
      return;
    }
    if (anchor.focusIndex >= 0) {
      const clamped = Math.min(anchor.focusIndex, model.count - 1);
      const row = model.rowAt(clamped);
      // A fold far from the fetched rows may have taken the task there: `folded` finds it (followLostFocus).
      pane.lostFocus = { id: pane.focusedId, index: clamped };
      pane.focusedId = row ? row.id : null;
      pane.focusIndex = clamped;
      if (row === undefined) pane.focusedId = null;
      for (const id of [...pane.selection]) if (model.indexOf(id) < 0) pane.selection.delete(id);
      if (pane.focusedId !== null && pane.selection.size === 0) pane.selection.add(pane.focusedId);
    }
  }

  /** A row focused by index before its data arrived (End on a big list) gets the focus once it has. */
  function takePendingFocus() {
    if (pane.pendingFocus === null || pane.pendingFocus === undefined) return;
    const row = model.rowAt(pane.pendingFocus);
    if (!row) return;
    const extend = pane.pendingExtend;
    pane.pendingFocus = null;
    focusIndex(model.indexOf(row.id), { extend });
  }

  function syncToolbar() {
    const value = `${model.sort.by}:${model.sort.direction || 'ascending'}`;
    if (sortSelect.value !== value) sortSelect.value = value;
    if (sectionsSelect.value !== model.sections) sectionsSelect.value = model.sections;
  }

  // Scroll positions ----------------------------------------------------------------------------
  // A row's place is `index × rowHeight` in the list's virtual height; the scroller's own height is
  // that, or `maxHeight` when that is more, and then positions map proportionally.

  function virtualHeight() { return model.count * rowHeight; }
  function scaled() { return virtualHeight() > maxHeight; }
  function setSpacer() { spacer.style.height = `${scaled() ? maxHeight : virtualHeight()}px`; }

  /** The virtual position of the viewport's top. */
  function virtualTop() {
    if (!scaled()) return scroller.scrollTop;
    const range = maxHeight - scroller.clientHeight;
    return range <= 0 ? 0 : scroller.scrollTop * (virtualHeight() - scroller.clientHeight) / range;
  }

  /** Scrolls so the viewport's top is at virtual position `top` (clamped). */
  function setVirtualTop(top) {
    const limit = Math.max(0, virtualHeight() - scroller.clientHeight);
    const clamped = Math.max(0, Math.min(limit, top));
    if (!scaled()) { scroller.scrollTop = clamped; return; }
    scroller.scrollTop = limit === 0 ? 0 : clamped * (maxHeight - scroller.clientHeight) / limit;
  }

  /** For the tests: scroll so the row at `index` is at the top. */
  pane.scrollToRow = (index) => { setVirtualTop(index * rowHeight); scheduleRender(); scheduleWindowCheck(); };

  // Rendering -----------------------------------------------------------------------------------

  const live = new Map(); // key -> {node, row, index}
  let renderScheduled = false;
  function scheduleRender() {
    if (renderScheduled) return;
    renderScheduled = true;
    requestAnimationFrame(() => { renderScheduled = false; render(); });
  }

  function refreshAll() {
    for (const entry of live.values()) entry.built = false;
    scheduleRender();
  }

  function stateLine() {
    if (pane.closed) return { text: pane.closed === 'smartListDeleted' ? 'This smart list was deleted.' : 'This list was deleted.', kind: 'error' };
    if (pane.stopped) return { text: `The server stopped: ${pane.stopped}`, kind: 'error', action: ['Restart', () => call('retry', { visibleRows: visibleRows() })] };
    if (model.state === null) return { text: 'Opening…', kind: 'info', loading: true };
    if (model.state === 'loading') return { text: `Loading… ${Math.round((model.progress || 0) * 100)}%`, kind: 'info', loading: true };
    if (model.state === 'error') {
      const error = model.error || {};
      return { text: `Error: ${String(error.message || 'the store cannot be read').split('\n')[0]}`, kind: 'error', action: ['Retry', () => call('retry', { visibleRows: visibleRows() })] };
    }
    if (model.count === 0) {
      if (model.empty === 'noMatches') return { text: 'No matches — clear the filter', kind: 'info', action: ['Clear the filter', () => { filterInput.value = ''; applyFilter(); }] };
      return { text: 'No tasks — add one', kind: 'info', action: ['Add a task', () => addInput.focus()] };
    }
    return null;
  }

  function visibleRows() { return Math.max(1, Math.ceil((scroller.hidden ? window.innerHeight : scroller.clientHeight) / rowHeight)); }

  function render() {
    pane.stats.renders += 1;
    const state = stateLine();
    progress.hidden = !(state && state.loading);
    progressBar.style.width = `${Math.round((model.progress || 0) * 100)}%`;
    progress.classList.toggle('indeterminate', model.state !== 'loading');
    if (state) {
      statePanel.hidden = false;
      statePanel.className = `state ${state.kind}`;
      stateText.textContent = state.text;
      stateButton.hidden = !state.action;
      if (state.action) {
        stateButton.textContent = state.action[0];
        stateButton.onclick = state.action[1];
      }
      scroller.hidden = true;
      for (const [key, entry] of live) { entry.node.remove(); live.delete(key); }
      return;
    }
    statePanel.hidden = true;
    scroller.hidden = false;
    setSpacer();
    if (pane.restoreRow !== undefined) {
      // The scroll position saved before a reload (setState), restored once the rows can show.
      setVirtualTop(pane.restoreRow * rowHeight);
      pane.restoreRow = undefined;
      pane.restored = true;
      scheduleWindowCheck();
    }
    const top = virtualTop();
    const base = scroller.scrollTop - top; // 0 unless scaled
    const first = Math.max(0, Math.floor(top / rowHeight) - overscan);
    const last = Math.min(model.count, Math.ceil((top + scroller.clientHeight) / rowHeight) + overscan);
    const wanted = new Set();
    for (let index = first; index < last; index++) {
      const row = model.rowAt(index);
      const key = row ? `r:${row.id}` : `p:${index}`;
      wanted.add(key);
      let entry = live.get(key);
      if (!entry) {
        entry = { node: element('div', 'row'), row: undefined, built: false, index: -1, top: NaN };
        live.set(key, entry);
        spacer.appendChild(entry.node);
      }
      const editing = row !== undefined && pane.editing === row.id && entry.built;
      if ((!entry.built || entry.row !== row) && !editing) { // a row being edited keeps its input
        build(entry.node, row, index);
        entry.row = row;
        entry.built = true;
        pane.stats.rowsBuilt += 1;
      }
      const rowTop = index * rowHeight + base;
      if (entry.top !== rowTop) {
        entry.node.style.top = `${rowTop}px`;
        entry.top = rowTop;
      }
      if (entry.index !== index) {
        entry.node.setAttribute('aria-posinset', String(index + 1));
        entry.node.dataset.index = String(index);
        entry.index = index;
      }
      entry.node.setAttribute('aria-setsize', String(model.count));
      const selected = row !== undefined && pane.selection.has(row.id);
      entry.node.setAttribute('aria-selected', selected ? 'true' : 'false');
      entry.node.classList.toggle('selected', selected);
      entry.node.classList.toggle('focused', row !== undefined && row.id === pane.focusedId);
    }
    for (const [key, entry] of live) {
      if (!wanted.has(key)) { entry.node.remove(); live.delete(key); }
    }
    pane.stats.maxDomRows = Math.max(pane.stats.maxDomRows, live.size);
    const focused = pane.focusedId !== null ? live.get(`r:${pane.focusedId}`) : undefined;
    if (focused) scroller.setAttribute('aria-activedescendant', focused.node.id);
    else scroller.removeAttribute('aria-activedescendant');
    renderBulk();
    persist();
  }

  /** The DOM id of a row (ids are the server's; the prefix keeps them valid and unique). */
  function domId(row) { return `row-${String(row.id).replace(/[^A-Za-z0-9_:-]/g, '_')}`; }

  function build(node, row, index) {
    node.replaceChildren();
    node.className = 'row';
    node.style.paddingLeft = '';
    node.setAttribute('role', 'option');
    node.removeAttribute('aria-disabled');
    node.draggable = false;
    if (row === undefined) {
      node.id = `placeholder-${index}`;
      node.classList.add('placeholder');
      node.setAttribute('aria-busy', 'true');
      node.appendChild(element('span', 'placeholder-bar'));
      return;
    }
    node.removeAttribute('aria-busy');
    node.id = domId(row);
    node.dataset.id = row.id;
    // A smart group shows each row's list (unless its sections already say it).
    const showList = !!(pane.source && (pane.source.group || pane.source.smartList)) && model.sections !== 'list';
    const context = { today: pane.today || new Date().toISOString().slice(0, 10), timeZone: pane.timeZone, showList, listNames: pane.listNames };
    const w = words.rowWords(row, context);
    if (row.kind === 'header') {
      node.classList.add('header');
      node.setAttribute('aria-disabled', 'true');
      node.append(element('span', 'header-title', w.title), element('span', 'badge', String(w.count)));
      node.setAttribute('aria-label', `${w.title}, ${w.count} ${w.count === 1 ? 'task' : 'tasks'}`);
      return;
    }
    node.draggable = true;
    node.classList.toggle('done', w.done);
    // Its place in the tree: two cells a level (CSSOM: the CSP drops style attributes), then the
    // 2-cell fold column (▾ shown, ▸ collapsed, blank without subtasks; a click toggles it).
    node.style.paddingLeft = w.depth > 0 ? `calc(var(--row-padding) + ${2 * w.depth}ch)` : '';
    node.classList.toggle('context', w.context);
    const twisty = element('span', `twisty${w.fold ? ` ${w.fold}` : ''}`, w.fold === 'collapsed' ? '▸' : w.fold === 'expanded' ? '▾' : '');
    if (w.fold) twisty.title = w.fold === 'collapsed' ? 'Expand (→)' : 'Collapse (←)';
    node.appendChild(twisty);
    const check = element('span', 'check');
    check.setAttribute('role', 'checkbox');
    check.setAttribute('aria-checked', w.done ? 'true' : 'false');
    check.setAttribute('aria-label', w.done ? 'Done' : 'Not done');
    check.textContent = w.done ? '✓' : '';
    node.appendChild(check);
    // Fixed columns (pane.css): the title cell (the title, cut with …, then the notes mark) takes
    // what is left; the due, the priority and a smart group's list each keep their width on every
    // row, empty or not, so they line up; the tags come last.
    const cell = element('span', 'title-cell');
    const title = element('span', 'title', w.title);
    title.title = w.title;
    cell.appendChild(title);
    if (w.subtasks) {
      const tally = element('span', 'count', w.subtasks);
      tally.title = `${w.subtasks} subtasks done`;
      cell.appendChild(tally);
    }
    if (w.notes) cell.appendChild(element('span', 'notes', '≡'));
    node.appendChild(cell);
    const due = element('span', w.due ? `due${w.due.overdue ? ' overdue' : ''}${w.due.today ? ' today' : ''}` : 'due', w.due ? w.due.text : '');
    node.appendChild(due);
    // A repeating task: ↻ in a column of its own after the due (its words in the tooltip).
    const repeat = element('span', 'repeat', w.repeat ? '↻' : '');
    if (w.repeat) repeat.title = `Repeats ${w.repeat}`;
    node.appendChild(repeat);
    const mark = element('span', `priority ${row.priority || 'none'}`, w.priority || '');
    if (w.priorityName) mark.title = w.priorityName;
    node.appendChild(mark);
    if (showList) node.appendChild(element('span', 'list', w.list || ''));
    const tags = element('span', 'tags', w.tags || '');
    if (w.tags) tags.title = w.tags;
    node.appendChild(tags);
    const place = [];
    if (w.depth > 0) place.push(`level ${w.depth + 1}`);
    if (w.fold) place.push(w.fold);
    if (w.context) place.push('shown for its subtasks');
    node.setAttribute('aria-label', `${words.rowText(row, context)}${place.length > 0 ? `  (${place.join(', ')})` : ''}`);
  }

  function renderBulk() {
    const ids = selectedItems().map((row) => row.id);
    if (ids.length < 2) { bulk.hidden = true; bulk.replaceChildren(); return; }
    if (!bulk.hidden && bulk.dataset.count === String(ids.length)) return;
    bulk.hidden = false;
    bulk.dataset.count = String(ids.length);
    bulk.replaceChildren(element('span', 'bulk-count', `${ids.length} selected`));
    bulk.append(
      button('Done', 'Mark done (Space)', () => toggle(true)),
      button('Skip', 'Repeating tasks: on to the next due (>)', () => skip()),
      button('Not done', 'Mark not done', () => toggle(false)),
      button('Delete', 'Delete (Delete)', () => remove()),
    );
    const move = select([['', 'Move to…'], ...pane.lists.map((list) => [list.id, words.displayed(list.name)])], 'Move to list', (list) => {
      if (list) call('moveToList', { ids: selectedItems().map((row) => row.id), list });
      move.value = '';
    });
    bulk.appendChild(move);
  }

  // Windows -------------------------------------------------------------------------------------

  let windowTimer = null;
  function scheduleWindowCheck() {
    clearTimeout(windowTimer);
    pane.windowCheckScheduled = true;
    windowTimer = setTimeout(() => { pane.windowCheckScheduled = false; checkWindow(); }, windowDelay);
  }

  /** Moves the server's window to the viewport ± the margin when the viewport nears its edges. */
  function checkWindow() {
    if (model.view === null || model.state !== 'ready' || pane.closed || pane.stopped || pane.pendingWindow) return;
    const first = Math.floor(virtualTop() / rowHeight);
    const last = Math.min(model.count, first + visibleRows());
    const w = model.window;
    const covered = first >= w.start && last <= w.end;
    const nearTop = w.start > 0 && first - w.start < margin / 2;
    const nearBottom = w.end < model.count && w.end - last < margin / 2;
    if (covered && !nearTop && !nearBottom) return;
    const start = Math.max(0, first - margin);
    const end = Math.min(last + margin, start + maximumWindow);
    if (start === w.start && end === w.end) return;
    pane.pendingWindow = { start, end };
    pane.stats.windowRequests += 1;
    pane.stats.requestedSizes.push(end - start);
    vscode.postMessage({ type: 'setWindow', start, end });
  }

  scroller.addEventListener('scroll', () => { scheduleRender(); scheduleWindowCheck(); });
  window.addEventListener('resize', () => { scheduleRender(); scheduleWindowCheck(); });

  // Focus, selection and keys -------------------------------------------------------------------

  function selectedItems() {
    const rows = [];
    for (const row of model.rows) if (row.kind === 'item' && pane.selection.has(row.id)) rows.push(row);
    return rows;
  }

  /** The items an action applies to: the selection, else the focused row. */
  function targets() {
    const rows = selectedItems();
    if (rows.length > 0) return rows;
    const row = model.rowAt(model.indexOf(pane.focusedId));
    return row && row.kind === 'item' ? [row] : [];
  }

  /** Focuses the row at `index` (clamped), scrolling only when it leaves the view. */
  function focusIndex(index, { extend = false, keep = false } = {}) {
    if (model.count === 0) return;
    index = Math.max(0, Math.min(model.count - 1, index));
    const row = model.rowAt(index);
    pane.focusIndex = index;
    pane.focusedId = row ? row.id : null;
    pane.pendingFocus = row ? null : index;
    pane.pendingExtend = extend;
    if (row) {
      if (extend && pane.anchorId !== null && model.indexOf(pane.anchorId) >= 0) {
        const from = model.indexOf(pane.anchorId);
        pane.selection.clear();
        for (let i = Math.min(from, index); i <= Math.max(from, index); i++) {
          const r = model.rowAt(i);
          if (r && r.kind === 'item') pane.selection.add(r.id);
        }
      } else if (!keep) {
        pane.selection.clear();
        if (row.kind === 'item') pane.selection.add(row.id);
        pane.anchorId = row.id;
      }
    }
    const top = index * rowHeight;
    const shown = virtualTop();
    if (top < shown) setVirtualTop(top);
    else if (top + rowHeight > shown + scroller.clientHeight) setVirtualTop(top + rowHeight - scroller.clientHeight);
    scheduleRender();
    scheduleWindowCheck();
  }

  /** The focused row's index; without a focus, the first row in view. */
  function currentIndex() {
    const index = model.indexOf(pane.focusedId);
    if (index >= 0) return index;
    if (pane.focusedId === null && (pane.pendingFocus === null || pane.pendingFocus === undefined)) return firstVisible();
    return Math.min(pane.focusIndex, Math.max(0, model.count - 1));
  }

  function firstVisible() { return Math.min(Math.ceil(virtualTop() / rowHeight), Math.max(0, model.count - 1)); }

  let pending = ''; // the first key of dd / cc
  scroller.addEventListener('keydown', (event) => {
    if (event.target !== scroller) return; // a row being edited keeps its keys
    const key = event.key;
    const page = Math.max(1, visibleRows() - 1);
    const extend = event.shiftKey;
    const index = currentIndex();
    const chord = pending;
    pending = '';
    const handled = () => { event.preventDefault(); event.stopPropagation(); };
    if ((event.ctrlKey || event.metaKey) && !event.altKey) {
      if (key === 'a') { for (const row of model.rows) if (row.kind === 'item') pane.selection.add(row.id); scheduleRender(); handled(); }
      else if (key === 'r') { redo(); handled(); }
      else if (key === 'Enter') { startAdd('subtask'); handled(); } // as Ctrl+Enter inserts a line below in VS Code's editor
      return;
    }
    switch (key) {
      // The tree, as VS Code's tree views do it: → expands (or goes to the first subtask), ←
      // collapses (or goes to the parent); Tab and Shift+Tab indent and outdent.
      case 'ArrowRight': if (!event.altKey) { treeRight(index); handled(); } break;
      case 'ArrowLeft': if (!event.altKey) { treeLeft(index); handled(); } break;
      // (With no task to act on, Tab leaves the list as usual.)
      case 'Tab': if (!event.altKey && targets().length > 0) { indent(event.shiftKey); handled(); } break;
      case 'ArrowDown': focusIndex(pane.focusedId === null ? index : index + 1, { extend }); handled(); break;
      case 'ArrowUp': focusIndex(pane.focusedId === null ? index : index - 1, { extend }); handled(); break;
      case 'Home': focusIndex(0, { extend }); handled(); break;
      case 'End': focusIndex(model.count - 1, { extend }); handled(); break;
      case 'PageDown': focusIndex(index + page, { extend }); handled(); break;
      case 'PageUp': focusIndex(index - page, { extend }); handled(); break;
      case ' ': case 'x': toggle(); handled(); break;
      case 'Delete': remove(); handled(); break;
      case 'd': if (chord === 'd') remove(); else pending = 'd'; handled(); break;
      case 'c': if (chord === 'c') edit(); else pending = 'c'; handled(); break;
      case 'Enter': edit(); handled(); break;
      case 'e': openDetails(); handled(); break;
      case 'a': startAdd('end'); handled(); break;
      case 'o': startAdd('below'); handled(); break;
      case 'O': startAdd('above'); handled(); break;
      case '>': skip(); handled(); break;
      case 'J': moveBy(1); handled(); break;
      case 'K': moveBy(-1); handled(); break;
      case '/': filterInput.focus(); filterInput.select(); handled(); break;
      case 's': sortSelect.focus(); handled(); break;
      case 'S': sectionsSelect.focus(); handled(); break;
      case 'u': undo(); handled(); break;
      case 'r': if (model.state === 'error' || pane.stopped) call('retry', { visibleRows: visibleRows() }); handled(); break;
      case 'Escape': pane.selection.clear(); scheduleRender(); say(null); handled(); break;
      default: break;
    }
  });

  scroller.addEventListener('mousedown', (event) => {
    const node = event.target.closest('.row');
    if (!node || !node.dataset.id || event.target.closest('input')) return;
    const index = Number(node.dataset.index);
    const id = node.dataset.id;
    if (event.target.classList.contains('check')) return;
    if (event.target.classList.contains('twisty') && event.target.textContent !== '') {
      // The chevron toggles its task, and focuses it (as in VS Code's trees).
      if (!event.ctrlKey && !event.metaKey && !event.shiftKey) focusIndex(index);
      scroller.focus({ preventScroll: true });
      return;
    }
    collapseOnClick = null;
    if (event.ctrlKey || event.metaKey) {
      if (pane.selection.has(id)) pane.selection.delete(id); else pane.selection.add(id);
      pane.focusedId = id;
      pane.anchorId = id;
      scheduleRender();
    } else if (!event.shiftKey && pane.selection.has(id) && pane.selection.size > 1) {
      // Pressed on a selected row: the selection stays for a drag; a plain click narrows it.
      pane.focusedId = id;
      collapseOnClick = index;
      scheduleRender();
    } else {
      focusIndex(index, { extend: event.shiftKey });
    }
    scroller.focus({ preventScroll: true });
  });
  let collapseOnClick = null;
  scroller.addEventListener('click', (event) => {
    if (collapseOnClick !== null && !event.target.classList.contains('check')) {
      focusIndex(collapseOnClick);
      collapseOnClick = null;
    }
    const node = event.target.closest('.row');
    const row = node && model.rowAt(Number(node.dataset.index));
    if (event.target.classList.contains('twisty')) {
      if (row && row.kind === 'item' && row.hasChildren === true) fold(row.collapsed === true ? 'expand' : 'collapse', [row.id]);
      return;
    }
    if (!event.target.classList.contains('check')) return;
    if (row && row.kind === 'item') toggleIds([row.id], !row.done);
  });
  scroller.addEventListener('dblclick', (event) => {
    if (event.target.closest('.row') && !event.target.closest('input') && !event.target.classList.contains('twisty')) edit();
  });

  // Actions -------------------------------------------------------------------------------------

  function toggle(done) {
    const rows = targets();
    if (rows.length === 0) return;
    const value = done === undefined ? rows.some((row) => !row.done) : done;
    toggleIds(rows.map((row) => row.id), value);
  }

  /** Marks `ids` done or not; a repeating task moved on to its next due instead is said in one line. */
  async function toggleIds(ids, done) {
    const result = await call('toggle', { ids, done });
    if (result && result.advanced && result.advanced.length > 0) say(result.advanced);
  }

  /** `>`: the repeating tasks (the selection, or the focused one) move on to their next due without being done. */
  async function skip() {
    const rows = targets();
    if (rows.length === 0) { say('No task here to skip.', 'warning'); return; }
    const result = await call('skip', { ids: rows.map((row) => row.id) });
    if (result && result.refused) say(result.refused, 'warning');
    else if (result) say(result.said);
  }

  /** The palette's Stop Repeating: the tasks keep their due and history, and no longer repeat. */
  async function stopRepeating() {
    const rows = targets();
    if (rows.length === 0) { say('No task here to stop repeating.', 'warning'); return; }
    const result = await call('stopRepeating', { ids: rows.map((row) => row.id) });
    if (result && result.refused) say(result.refused, 'warning');
    else if (result) say(result.said);
  }

  async function remove() {
    const rows = targets();
    if (rows.length === 0) return;
    const result = await call('delete', { ids: rows.map((row) => row.id) });
    if (result) sayUndo(rows.length === 1 ? `Deleted “${words.displayed(rows[0].title)}”.` : `Deleted ${rows.length} tasks.`);
  }

  function manualOrder() {
    if (model.sort.by === 'manual' && model.sort.direction !== 'descending') return true;
    const label = (sorts.find(([value]) => value === `${model.sort.by}:${model.sort.direction}`) || [null, model.sort.by])[1];
    say(`This pane is sorted (${label}): tasks can be reordered only in manual order. Choose “Manual order” to drag or move them.`, 'warning');
    return false;
  }

  /**
   * The move of the block of rows `from` … `from + count - 1` (with the subtrees shown below them,
   * which the server takes along) to `at`, an index counted with the block, as `items/move` wants
   * it: `{from, count, to, depth}`, `to` counted without the whole block and `depth` the level its
   * tops keep where the rows around allow it (`ViewModel.landingDepth`); undefined when it stays.
   */
  function moveOf(from, count, at) {
    const block = model.blockOf(from, from + count - 1);
    const size = block ? block.size : count;
    if (at > from && at < from + size) return undefined; // inside itself
    const to = Math.max(0, Math.min(at > from ? at - size : at, model.count - size));
    if (to === from) return undefined;
    const depth = block ? model.landingDepth(from, size, to, block.depth) : undefined;
    return { from, count, to, depth };
  }

  /** J / K: the selected block (or the focused row), with its subtree, one row down or up, keeping its level where it can. */
  function moveBy(delta) {
    if (!manualOrder()) return;
    const rows = targets();
    if (rows.length === 0) return;
    const indexes = rows.map((row) => model.indexOf(row.id)).sort((a, b) => a - b);
    const from = indexes[0];
    const count = indexes.length;
    if (indexes[count - 1] - from + 1 !== count) { say('Select a block of adjacent tasks to move them together.', 'warning'); return; }
    const block = model.blockOf(from, from + count - 1);
    const size = block ? block.size : count;
    // Down: past the row after the block (counted with the block); up: before the row above it.
    const move = moveOf(from, count, delta > 0 ? from + size + delta : from + delta);
    if (!move) return;
    call('move', Object.assign({ version: model.version }, move)).then(() => {
      revealFocus();
    });
  }

  // The tree ------------------------------------------------------------------------------------

  /** Collapses or expands (`how`) the tasks `ids` in this pane's view; the focus keeps its task (or its collapsed ancestor). */
  async function fold(how, ids) {
    if (ids.length === 0) return;
    const result = await call(how, { ids });
    if (result) revealFocus();
  }

  /**
   * After a fold (the pane's own or the title menu's Collapse All / Expand All): when it took the focused
   * task out of the fetched rows (the focus fell back to the row at its index), `view/locate` says where
   * its row is now, or the row of the collapsed ancestor hiding it, and the focus goes there, as in a tree.
   * Nothing happens when the focus moved meanwhile or the pane is behind the answer's version.
   */
  async function followLostFocus() {
    const lost = pane.lostFocus;
    pane.lostFocus = null;
    if (!lost || lost.id === null) return;
    const found = await call('locate', { id: lost.id });
    if (!found || typeof found.index !== 'number' || found.version !== model.version || pane.focusIndex !== lost.index) return;
    pane.stats.located += 1;
    focusIndex(found.index);
  }

  /** Scrolls the focused row into view after a change moved it (when it is among the fetched rows). */
  function revealFocus() {
    const index = model.indexOf(pane.focusedId);
    if (index >= 0) focusIndex(index, { keep: true });
  }

  /** →: a collapsed task expands; an expanded one hands the focus to its first subtask. */
  function treeRight(index) {
    const row = model.rowAt(index);
    if (!row || row.kind !== 'item' || row.hasChildren !== true) return;
    if (row.collapsed === true) { fold('expand', [row.id]); return; }
    const next = model.rowAt(index + 1);
    if (next && next.parent === row.id) focusIndex(index + 1);
  }

  /** ←: an expanded task collapses; a collapsed one, or one without subtasks, hands the focus to its parent. */
  function treeLeft(index) {
    const row = model.rowAt(index);
    if (!row || row.kind !== 'item') return;
    if (row.hasChildren === true && row.collapsed !== true) { fold('collapse', [row.id]); return; }
    const parent = row.parent === null || row.parent === undefined ? -1 : model.indexOf(row.parent);
    if (parent >= 0) focusIndex(parent);
  }

  /** Tab / Shift+Tab: the selected tasks (or the focused one) become subtasks of the task above them at their level, or siblings of their parent. */
  async function indent(outdent) {
    const rows = targets();
    if (rows.length === 0) return;
    const result = await call('indent', { ids: rows.map((row) => row.id), outdent });
    if (result && result.refused) { say(result.refused, 'warning'); return; }
    if (result) { say(null); revealFocus(); }
  }

  /** Edits the focused row's title in place, with the quick-entry grammar (`^fri`, `@List`). */
  function edit() {
    const index = currentIndex();
    const row = model.rowAt(index);
    if (!row || row.kind !== 'item') return;
    const entry = live.get(`r:${row.id}`);
    if (!entry) return;
    const title = entry.node.querySelector('.title');
    const input = element('input', 'input inline');
    input.type = 'text';
    input.value = words.escapeTitle(row.title);
    input.setAttribute('aria-label', 'Edit the task');
    const original = input.value;
    pane.editing = row.id;
    title.replaceWith(input);
    input.focus();
    input.select();
    let done = false;
    const finish = (refocus) => {
      if (done) return;
      done = true;
      pane.editing = null;
      entry.built = false; // rebuilt on the next render
      scheduleRender();
      if (refocus) scroller.focus({ preventScroll: true });
    };
    input.addEventListener('keydown', async (event) => {
      event.stopPropagation();
      if (event.key === 'Escape') { finish(true); event.preventDefault(); return; }
      if (event.key !== 'Enter') return;
      event.preventDefault();
      const text = input.value;
      if (text.trim() === '' || text === original) { finish(true); return; }
      const result = await call('rename', { id: row.id, list: row.list, text });
      if (result && result.warnings) {
        // Nothing was saved: the text stays in the editor with the warning, however often Enter is pressed.
        sayWarnings(result.warnings, 'Nothing saved: change the text (\\ keeps a word as text) or press Escape.');
        return;
      }
      if (result) { say(null); finish(true); }
    });
    input.addEventListener('blur', () => { if (!done) finish(false); });
  }

  const addPlaceholder = addInput.placeholder;
  // The task the box adds a subtask of, remembered when it opened for one (Ctrl+Enter): `{id, list,
  // title}` (the title displayed), whatever is focused when Enter is pressed; null otherwise.
  let addParent = null;
  let addOpenings = 0; // +1 each time the box opens or ends: an answer ends only the add it was for
  /**
   * Opens the add box for a task placed `where` the focused row: 'end' (a), 'below' (o: the row
   * right below it in the tree), 'above' (O: its sibling above), 'subtask' (Ctrl+Enter or the
   * title menu's Add Subtask Below: its first subtask; a collapsed task is expanded first). A
   * subtask's parent is the task focused now, kept until the add is done or Escape is pressed;
   * 'below' and 'above' place the task by the row focused when Enter is pressed. The typed text stays.
   */
  function startAdd(where) {
    const focused = model.rowAt(currentIndex());
    if (where === 'subtask') {
      if (!focused || focused.kind !== 'item') { say('No task here to add a subtask to.', 'warning'); return; }
      addParent = { id: focused.id, list: focused.list, title: words.displayed(focused.title) };
      addInput.placeholder = `Add a subtask of “${addParent.title}”… (Escape: cancel)`;
    } else {
      addParent = null;
      addInput.placeholder = addPlaceholder;
    }
    addOpenings += 1;
    addInput.dataset.where = where;
    addInput.focus();
  }

  /** Back to a plain add at the end, the box saying so. */
  function endAdd() {
    addOpenings += 1;
    addParent = null;
    addInput.dataset.where = 'end';
    addInput.placeholder = addPlaceholder;
  }

  addInput.addEventListener('keydown', async (event) => {
    if (event.key === 'Escape') { addInput.value = ''; endAdd(); scroller.focus(); return; }
    if (event.key !== 'Enter') return;
    event.preventDefault();
    const text = addInput.value;
    if (text.trim() === '') return;
    const where = addInput.dataset.where || 'end';
    const parent = where === 'subtask' ? addParent : null;
    const opening = addOpenings;
    // Where the user is now: the answer takes the focus to the new task only if they are still there.
    const focusedBefore = pane.focusedId;
    let args;
    if (parent) {
      args = { text, where, id: parent.id, near: { list: parent.list } };
    } else {
      // The row as it is now (the typing took time): the host places the task by the rows around it.
      const focused = model.rowAt(currentIndex());
      const item = focused && focused.kind === 'item' ? focused : null;
      args = { text, where: item && where !== 'subtask' ? where : 'end', id: item && where !== 'end' ? item.id : undefined, near: item ? { list: item.list } : null };
    }
    const result = await call('add', args);
    if (result && result.warnings) {
      // Nothing was added, and never will be as read: the text stays for the user to change.
      if (addInput.value === '') addInput.value = text;
      if (parent && result.refused === 'notFound' && (result.ids || []).includes(parent.id)) {
        // The task it was to go under was deleted meanwhile: said in the box and under it; the box
        // still adds to it (an undo brings it back) until Escape or another add is opened.
        const refusal = words.subtaskRefusal('parentGone', parent.title, result.warnings[0]);
        if (addOpenings === opening) addInput.placeholder = `${refusal} (Escape: cancel)`;
        say([refusal, 'Nothing added: undo the delete, or choose another task and press Ctrl+Enter (a: a plain task), or press Escape.'], 'warning');
        return;
      }
      sayWarnings(result.warnings, 'Nothing added: change the text (\\ keeps a word as text) or press Escape.');
      return;
    }
    if (result && result.item) {
      // The box is done with this add, unless the user opened another one meanwhile (their text stays).
      if (addInput.value === text) addInput.value = '';
      if (addOpenings === opening) endAdd();
      say(null);
      // The focus goes to the new task only if the user did not move on meanwhile (a click, Home, the
      // arrows, another control): else the next keys would act on a task they are not looking at.
      const active = document.activeElement;
      if (pane.focusedId === focusedBefore && (active === addInput || active === scroller)) {
        pane.focusedId = result.item.id;
        pane.selection = new Set([result.item.id]);
        const index = model.indexOf(result.item.id);
        if (index >= 0) focusIndex(index);
      }
      scheduleRender();
    }
  });

  async function applyFilter() {
    pane.jumpTop = true;
    const result = await call('filter', { text: filterInput.value });
    if (result && result.applied === false) {
      // Not applied: the view keeps its filter, the typed text stays with the warning.
      pane.jumpTop = false;
      sayWarnings(result.warnings, 'Filter not applied: change the text (\\ keeps a word as text).');
      return;
    }
    if (result) model.filter = result.filter;
    if (result && result.warnings && result.warnings.length > 0) sayWarnings(result.warnings);
    else if (result) say(null);
    persist();
  }
  filterInput.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') { event.preventDefault(); applyFilter(); }
    if (event.key === 'Escape') { event.preventDefault(); if (filterInput.value !== '') { filterInput.value = ''; applyFilter(); } scroller.focus(); }
  });

  // The detail form -----------------------------------------------------------------------------

  async function openDetails() {
    const row = model.rowAt(currentIndex());
    if (!row || row.kind !== 'item') return;
    const item = await call('get', { id: row.id });
    if (!item) return;
    details.replaceChildren();
    details.hidden = false;
    details.setAttribute('aria-label', `Details of ${words.displayed(item.title)}`);
    details.appendChild(element('div', 'details-title', words.displayed(item.title)));
    const field = (label, control) => {
      const wrap = element('label', 'field');
      wrap.append(element('span', 'field-label', label), control);
      details.appendChild(wrap);
      return control;
    };
    const due = field('Due', element('input', 'input'));
    due.name = 'due';
    // The due as the grammar reads it back: the day, or the day and the time on the client's wall clock (dueLocal).
    const duePhrase = words.duePhrase(item.due, item.dueLocal, pane.timeZone);
    due.value = duePhrase;
    due.placeholder = 'fri 5pm, 2026-12-01, +3, none';
    const priority = field('Priority', select([['none', 'None'], ['low', 'Low'], ['medium', 'Medium'], ['high', 'High']], 'Priority', () => {}));
    priority.name = 'priority';
    priority.value = item.priority;
    const tags = field('Tags', element('input', 'input'));
    tags.name = 'tags';
    tags.value = item.tags.join(' ');
    const list = field('List', select(pane.lists.map((l) => [l.id, words.displayed(l.name)]), 'List', () => {}));
    list.name = 'list';
    list.value = item.list;
    // The repeat in the server's words (they read back as the same repeat when the grammar has a
    // phrase for it); emptied, the task stops repeating. Then its history, when it has one.
    const repeat = field('Repeat', element('input', 'input'));
    repeat.name = 'repeat';
    const repeatPhrase = words.repeatText(item.repeat);
    repeat.value = repeatPhrase;
    repeat.placeholder = 'every week, every month on the 1st, every 3 days after done';
    const history = words.historyWords(item.occurrences, pane.timeZone);
    if (history) {
      const line = field('History', element('span', 'history', history));
      line.setAttribute('aria-label', `History: ${history}`);
    }
    // Its reminders (alerts), in words: read only here.
    if (Array.isArray(item.alerts) && item.alerts.length > 0) {
      const context = { today: pane.today || new Date().toISOString().slice(0, 10), timeZone: pane.timeZone };
      const said = item.alerts.map((alert) => words.alertWords(alert, item.due, context)).join('; ');
      field('Reminders', element('span', 'history alerts', said)).setAttribute('aria-label', `Reminders: ${said}`);
    }
    const notes = field('Notes', element('textarea', 'input notes-input'));
    notes.name = 'notes';
    notes.value = item.notes;
    const buttons = element('div', 'details-buttons');
    const save = element('button', 'button', 'Save');
    save.type = 'submit';
    buttons.append(save, button('Cancel', 'Close without saving (Escape)', () => closeDetails(), 'button secondary'));
    details.appendChild(buttons);
    details.onsubmit = async (event) => {
      event.preventDefault();
      const args = { id: item.id, list: item.list, priority: priority.value, tags: tags.value, notes: notes.value };
      if (due.value !== duePhrase) args.due = due.value;
      if (repeat.value !== repeatPhrase) args.repeat = repeat.value;
      const result = await call('details', args);
      if (result && result.warnings) { sayWarnings(result.warnings); return; }
      if (result && list.value && list.value !== item.list && !(await call('moveToList', { ids: [item.id], list: list.value }))) return;
      if (result) closeDetails();
    };
    details.onkeydown = (event) => { if (event.key === 'Escape') { event.preventDefault(); closeDetails(); } };
    due.focus();
  }

  function closeDetails() {
    details.hidden = true;
    details.replaceChildren();
    scroller.focus({ preventScroll: true });
  }

  // Drag and drop (manual order) ----------------------------------------------------------------

  let dragged = null;
  scroller.addEventListener('dragstart', (event) => {
    collapseOnClick = null;
    const node = event.target.closest && event.target.closest('.row');
    if (!node || !node.dataset.id) return;
    if (!manualOrder()) { event.preventDefault(); return; }
    const id = node.dataset.id;
    if (!pane.selection.has(id)) { pane.selection = new Set([id]); pane.focusedId = id; }
    const indexes = selectedItems().map((row) => model.indexOf(row.id)).sort((a, b) => a - b);
    if (indexes[indexes.length - 1] - indexes[0] + 1 !== indexes.length) { say('Select a block of adjacent tasks to drag them together.', 'warning'); event.preventDefault(); return; }
    const block = model.blockOf(indexes[0], indexes[indexes.length - 1]);
    dragged = { from: indexes[0], count: indexes.length, size: block ? block.size : indexes.length, version: model.version };
    event.dataTransfer.effectAllowed = 'move';
    event.dataTransfer.setData('text/plain', selectedItems().map((row) => row.title).join('\n'));
    scheduleRender();
  });
  function dropIndex(event) {
    const rect = scroller.getBoundingClientRect();
    const y = event.clientY - rect.top + virtualTop();
    return Math.max(0, Math.min(model.count, Math.round(y / rowHeight)));
  }
  scroller.addEventListener('dragover', (event) => {
    if (!dragged) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
    dropLine.style.top = `${dropIndex(event) * rowHeight - virtualTop() + scroller.scrollTop - 1}px`;
    dropLine.hidden = false;
  });
  const dropLine = element('div', 'drop-line');
  dropLine.hidden = true;
  spacer.appendChild(dropLine);
  scroller.addEventListener('drop', (event) => {
    if (!dragged) return;
    event.preventDefault();
    const at = dropIndex(event);
    const { from, count, version } = dragged;
    dragged = null;
    dropLine.hidden = true;
    // The block takes its subtree along and keeps its level where the rows at the drop allow it.
    const move = moveOf(from, count, at);
    if (move) call('move', Object.assign({ version }, move));
  });
  scroller.addEventListener('dragend', () => { dragged = null; dropLine.hidden = true; });

  // Start: the host sends nothing before it hears this (a message posted earlier would be lost).
  spacer.style.height = '0px';
  render();
  vscode.postMessage({ type: 'ready', state: { firstRow: saved.firstRow || 0, filterText: saved.host ? saved.host.filterText : undefined }, rows: visibleRows() });
}());

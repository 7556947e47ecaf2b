'use strict';
// The overview as tree nodes (smart groups, then smart lists, then lists, a shared list with its sync
// state and the lines under it), what changed between two overviews, the status bar's words, and
// what `sync/now` answered in words. Pure: extension.js turns nodes into `vscode.TreeItem`s.
const { displayed } = require('./words');

/** Theme colours for the list colours people type; anything else keeps the default colour. */
const themeColors = {
  red: 'charts.red', orange: 'charts.orange', yellow: 'charts.yellow', green: 'charts.green',
  blue: 'charts.blue', purple: 'charts.purple',
};

const groupIcons = { today: 'calendar', scheduled: 'clock', overdue: 'warning', all: 'inbox', completed: 'pass' };

/**
 * The nodes of an overview, in order: the smart groups, the smart lists (`lists/list`'s
 * `smartLists`, in their order), the lists. Each node: `{id, kind: 'group'|'smartList'|'list'|'state',
 * label, description, tooltip, icon, color, source}`; a list's or smart list's `name` is its stored
 * name, its `label` (and every text shown) that name through `displayed`. Ids are stable
 * (`group:today`, `smart:s2`, `list:l3`), so the
 * tree keeps selection and expansion when counts change. While the store loads or has failed, one
 * `state` node says so. A list shared with a calendar (`overview.sync`) has its state's words after
 * its count in `description`, `sync: {words, level}`, the icon `sync~spin` while it syncs, and its
 * `children` (the lines under it: `syncLines`); every other node's `children` is empty or absent.
 */
function overviewNodes(overview) {
  if (!overview) return [];
  const nodes = [];
  if (overview.store && overview.store.state !== 'ready') {
    const store = overview.store;
    const label = store.state === 'loading'
      ? `Loading… ${Math.round((store.progress || 0) * 100)}%`
      : `Error: ${displayed(String(store.message || (store.error && store.error.message) || 'the store cannot be read').split('\n')[0])}`;
    nodes.push({ id: 'state', kind: 'state', label, description: '', tooltip: label, icon: store.state === 'loading' ? 'loading~spin' : 'error' });
    return nodes;
  }
  for (const group of overview.groups || []) {
    nodes.push({
      id: `group:${group.id}`, kind: 'group', label: group.name, description: String(group.count),
      tooltip: `${group.name}: ${group.count} ${group.count === 1 ? 'task' : 'tasks'}`,
      icon: groupIcons[group.id] || 'list-unordered', source: { group: group.id }, count: group.count,
    });
  }
  for (const smart of overview.smartLists || []) {
    const label = displayed(smart.name);
    nodes.push({
      id: `smart:${smart.id}`, kind: 'smartList', name: smart.name, label, description: String(smart.count),
      tooltip: `${label}: ${smart.count} ${smart.count === 1 ? 'task' : 'tasks'} (a smart list)`, icon: 'filter',
      color: smart.color ? themeColors[String(smart.color).toLowerCase()] : undefined,
      listColor: smart.color, source: { smartList: smart.id }, count: smart.count,
    });
  }
  const syncs = new Map((overview.sync || []).map((state) => [state.list, state]));
  for (const list of overview.lists || []) {
    const state = syncs.get(list.id);
    const sync = syncWords(state);
    const tooltip = `${displayed(list.name)}: ${list.open} open of ${list.total}`;
    const node = {
      id: `list:${list.id}`, kind: 'list', name: list.name, label: displayed(list.name), description: String(list.open),
      tooltip, icon: 'circle-filled',
      color: list.color ? themeColors[String(list.color).toLowerCase()] : undefined,
      listColor: list.color, source: { list: list.id }, count: list.open, children: [],
    };
    if (sync !== null) {
      node.description = `${list.open}  ${sync.words}`;
      node.sync = sync;
      if (state.state === 'syncing') node.icon = 'sync~spin';
      node.children = syncLines(node.id, state, sync);
      node.tooltip = [`${tooltip}; ${sync.words}`, ...node.children.map((child) => child.label)].join('\n');
    }
    nodes.push(node);
  }
  return nodes;
}

/** The words of a list waiting for a confirmed sync: the palette's name of the command that gives it. */
const confirmCommand = 'taskls: Sync Now (Confirm)';

/**
 * A list's sync state (`ListSyncState`, protocol.md "Sync states in the overview") in the Neovim
 * pane's words, with how it is shown: `{words, level: 'state'|'warning'|'error'}` — `synced
 * 2026-11-26 10:04 UTC`, `syncing…` (state); `offline, 3 waiting`, `sync waits for taskls: Sync Now
 * (Confirm)` (warning); `sync error` (error). Null for a list that is not shared.
 */
function syncWords(state) {
  if (!state) return null;
  switch (state.state) {
    case 'synced': {
      const at = typeof state.syncedAt === 'string' ? ` ${state.syncedAt.slice(0, 16).replace('T', ' ')} UTC` : '';
      return { words: `synced${at}`, level: 'state' };
    }
    case 'syncing': {
      const progress = state.progress;
      if (progress && typeof progress === 'object' && typeof progress.total === 'number') {
        return { words: `syncing, ${Number(progress.sent) || 0} of ${progress.total} sent`, level: 'state' };
      }
      return { words: 'syncing…', level: 'state' };
    }
    case 'offline': return { words: `offline, ${Number(state.waiting) || 0} waiting`, level: 'warning' };
    case 'confirm': return { words: `sync waits for ${confirmCommand}`, level: 'warning' };
    default: return { words: 'sync error', level: 'error' };
  }
}

/**
 * The lines under a shared list, as child nodes: why it is offline, in error or waiting for a
 * confirmed sync (`kind: 'syncMessage'`, or `'syncConfirm'` for the last, whose inline action syncs
 * that list confirmed), then each notice of its last sync (`kind: 'syncNotice'`). Ids hang off the
 * list's (`list:l3/message`, `list:l3/notice:0`).
 */
function syncLines(parent, state, sync) {
  const lines = [];
  const message = state.message;
  if (message !== null && message !== undefined && state.state !== 'synced' && state.state !== 'syncing') {
    const label = displayed(String(message));
    lines.push({
      id: `${parent}/message`, kind: state.state === 'confirm' ? 'syncConfirm' : 'syncMessage', label, description: '',
      tooltip: label, level: sync.level, icon: sync.level === 'error' ? 'error' : 'warning', list: state.list, children: [],
    });
  }
  (state.notices || []).forEach((notice, index) => {
    const label = displayed(String(notice));
    lines.push({ id: `${parent}/notice:${index}`, kind: 'syncNotice', label, description: '', tooltip: label, level: 'state', icon: 'info', list: state.list, children: [] });
  });
  return lines;
}

/**
 * What `sync/now` answered, one line per list synced: `NAME: synced 2026-11-26 10:04 UTC (2 sent, 5
 * received)`, or its state's words (`Groceries: offline, 2 waiting`); `names` maps list ids to
 * names (an id stands for a list it lacks). `no list is shared` when the answer names none.
 */
function syncReport(result, names) {
  const lines = ((result && result.lists) || []).map((synced) => {
    const state = synced.sync;
    const name = displayed(String(names.get(state.list) || state.list));
    const line = `${name}: ${syncWords(state).words}`;
    return state.state === 'synced' ? `${line} (${synced.sent} sent, ${synced.received} received)` : line;
  });
  return lines.length > 0 ? lines : ['no list is shared'];
}

/**
 * What a tree must refresh between two overviews: `{structure: true}` when nodes came, went or
 * moved (refresh everything), else `{structure: false, changed: [ids]}` (refresh those nodes).
 */
function overviewChanges(before, after) {
  const old = overviewNodes(before);
  const now = overviewNodes(after);
  if (old.length !== now.length || old.some((node, i) => node.id !== now[i].id)) return { structure: true, changed: [] };
  const changed = [];
  for (let i = 0; i < now.length; i++) {
    const a = old[i];
    const b = now[i];
    if (a.label !== b.label || a.description !== b.description || a.color !== b.color || a.listColor !== b.listColor || a.tooltip !== b.tooltip
      || a.icon !== b.icon || linesKey(a) !== linesKey(b)) changed.push(b.id);
  }
  return { structure: false, changed };
}

/** The lines under a node, as one string to compare. */
function linesKey(node) { return JSON.stringify((node.children || []).map((child) => [child.id, child.kind, child.label, child.level])); }

/** The status bar's text and tooltip: Today's count. */
function statusText(overview) {
  const today = overview && (overview.groups || []).find((g) => g.id === 'today');
  const count = today ? today.count : 0;
  return { text: `$(checklist) ${count}`, tooltip: `taskls: ${count} ${count === 1 ? 'task' : 'tasks'} due today` };
}

module.exports = { overviewNodes, overviewChanges, statusText, themeColors, syncWords, syncReport, confirmCommand };

'use strict';
// The overview as tree nodes (smart groups, then smart lists, then lists), what changed between two overviews, and
// the status bar's words. Pure: extension.js turns nodes into `vscode.TreeItem`s.
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
 * `state` node says so.
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
  for (const list of overview.lists || []) {
    nodes.push({
      id: `list:${list.id}`, kind: 'list', name: list.name, label: displayed(list.name), description: String(list.open),
      tooltip: `${displayed(list.name)}: ${list.open} open of ${list.total}`, icon: 'circle-filled',
      color: list.color ? themeColors[String(list.color).toLowerCase()] : undefined,
      listColor: list.color, source: { list: list.id }, count: list.open,
    });
  }
  return nodes;
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
    if (a.label !== b.label || a.description !== b.description || a.color !== b.color || a.listColor !== b.listColor || a.tooltip !== b.tooltip) changed.push(b.id);
  }
  return { structure: false, changed };
}

/** The status bar's text and tooltip: Today's count. */
function statusText(overview) {
  const today = overview && (overview.groups || []).find((g) => g.id === 'today');
  const count = today ? today.count : 0;
  return { text: `$(checklist) ${count}`, tooltip: `taskls: ${count} ${count === 1 ? 'task' : 'tasks'} due today` };
}

module.exports = { overviewNodes, overviewChanges, statusText, themeColors };

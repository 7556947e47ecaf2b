'use strict';
// A view as a client holds it: `{view, version, state, count, window, rows, ...}`, kept exact by
// applying each `view/changed` in version order. Pure: used by the extension host and, loaded as a
// script, by the webview page (`TasklsViewModel`).
(function (root, factory) {
  if (typeof module === 'object' && module.exports) module.exports = factory();
  else root.TasklsViewModel = factory();
}(typeof self !== 'undefined' ? self : this, function () {
  /** Applies one op to `rows` (an array, changed in place); returns the rows (a new array on reset). */
  function applyOp(rows, op) {
    switch (op.op) {
      case 'insert': rows.splice(op.index, 0, op.row); return rows;
      case 'remove': rows.splice(op.index, 1); return rows;
      case 'move': {
        const [row] = rows.splice(op.from, 1);
        rows.splice(op.to, 0, op.row != null ? op.row : row);
        return rows;
      }
      case 'update': rows[op.index] = op.row; return rows;
      case 'reset': return op.rows.slice();
      default: throw new Error(`unknown op ${JSON.stringify(op.op)}`);
    }
  }

  /** The members of a snapshot or notification that describe the view's state. */
  const stateMembers = ['state', 'count', 'progress', 'error', 'empty'];

  class ViewModel {
    constructor() {
      this.view = null;
      this.version = null;
      this.state = null;
      this.count = 0;
      this.window = { start: 0, end: 0 };
      this.rows = [];
      this.sort = { by: 'manual', direction: 'ascending' };
      this.filter = {};
      this.sections = 'none';
      this.progress = undefined;
      this.error = undefined;
      this.empty = undefined;
    }

    readState(p) {
      for (const name of stateMembers) this[name] = p[name] === null && name !== 'count' ? undefined : p[name];
      if (this.count === null || this.count === undefined) this.count = 0;
      if (p.window) this.window = { start: p.window.start, end: p.window.end };
    }

    /** Replaces everything with a snapshot (lists/open, view/setWindow, view/snapshot). */
    applySnapshot(snapshot) {
      this.view = snapshot.view;
      this.version = snapshot.version;
      this.readState(snapshot);
      if (snapshot.sort) this.sort = { by: snapshot.sort.by, direction: snapshot.sort.direction || 'ascending' };
      if (snapshot.filter) this.filter = snapshot.filter;
      if (snapshot.sections) this.sections = snapshot.sections;
      this.rows = (snapshot.rows || []).slice();
    }

    /**
     * Applies a `view/changed`. Returns 'applied', 'stale' (a version already seen: ignored) or
     * 'gap' (a version was missed: the caller fetches `view/snapshot`; nothing was changed).
     */
    applyChanged(params) {
      if (this.version === null || params.version <= this.version) return 'stale';
      if (params.version !== this.version + 1) return 'gap';
      this.version = params.version;
      this.readState(params);
      for (const op of params.ops || []) this.rows = applyOp(this.rows, op);
      return 'applied';
    }

    /** The row at absolute index `index`, or undefined outside the window. */
    rowAt(index) {
      const i = index - this.window.start;
      return i >= 0 && i < this.rows.length ? this.rows[i] : undefined;
    }

    /** The absolute index of the row with `id`, or -1 when it is not in the window. */
    indexOf(id) {
      const i = this.rows.findIndex((row) => row.id === id);
      return i < 0 ? -1 : this.window.start + i;
    }

    // The tree (protocol.md "Subtasks") -------------------------------------------------------

    /**
     * The block a move by index takes (protocol.md "Moving in the tree"): the rows at absolute
     * indexes `first` to `last`, plus the rows right after them deeper than the least depth among
     * them (their subtrees shown below them). `{size, depth}`: the block's rows and that least
     * depth; undefined when a row of it is not fetched, or the block may run on past the window.
     * - Complexity: O(size of the block).
     */
    blockOf(first, last) {
      let least = Infinity;
      for (let i = first; i <= last; i++) {
        const row = this.rowAt(i);
        if (row === undefined) return undefined;
        if (row.kind === 'item') least = Math.min(least, Number(row.depth) || 0);
      }
      if (least === Infinity) least = 0;
      let end = last;
      for (;;) {
        const after = this.rowAt(end + 1);
        if (after === undefined) {
          if (end + 1 < this.count) return undefined;
          break;
        }
        if (after.kind !== 'item' || (Number(after.depth) || 0) <= least) break;
        end += 1;
      }
      return { size: end - first + 1, depth: least };
    }

    /**
     * The depth a block of `size` rows at `from`, whose tops are at `depth`, keeps when it lands at
     * `to` (counted in the view without the block): its own when the rows it lands between allow
     * it, else the nearest they allow (protocol.md "Allowed depths": from the next row's depth up
     * to the previous row's plus one, or its own when it is collapsed). So a task moved one row at
     * a time walks through the tree at its level where it can. Undefined when a row around `to`
     * is not fetched (the server then takes its default).
     */
    landingDepth(from, size, to, depth) {
      const without = (index) => this.rowAt(index < from ? index : index + size);
      let prev;
      let next;
      if (to > 0) {
        prev = without(to - 1);
        if (prev === undefined) return undefined;
      }
      if (to < this.count - size) {
        next = without(to);
        if (next === undefined) return undefined;
      }
      const low = next !== undefined && next.kind === 'item' ? Number(next.depth) || 0 : 0;
      const high = prev !== undefined && prev.kind === 'item' ? (Number(prev.depth) || 0) + (prev.collapsed === true ? 0 : 1) : 0;
      return Math.max(low, Math.min(depth, high));
    }

    /**
     * Where a new item of list `list` goes, as `items/create`'s `{parent?, before?}`, added
     * `where` the row `id`: 'above' it, as its sibling; 'below' it, as the row right below it
     * (the first subtask of a row whose subtasks are shown, else its next sibling, the last of its
     * parent's subtasks when none follows); 'subtask': its first subtask. For another list than
     * the row's only a subtask's `parent` is given (the server refuses it, in words).
     */
    placement(where, id, list) {
      const i = this.rows.findIndex((row) => row.id === id);
      if (i < 0) return where === 'subtask' ? { parent: id } : {};
      const row = this.rows[i];
      if (row.kind !== 'item') return {};
      if (row.list !== list) return where === 'subtask' ? { parent: row.id } : {};
      let next = this.rows[i + 1];
      if (next !== undefined && next.kind !== 'item') next = undefined;
      const firstChild = next !== undefined && next.parent === row.id ? next : undefined;
      if (where === 'above') return { before: row.id };
      if (where === 'subtask' || (where === 'below' && firstChild !== undefined)) {
        return firstChild !== undefined ? { parent: row.id, before: firstChild.id } : { parent: row.id };
      }
      if (where !== 'below') return {};
      const parent = row.parent === undefined ? null : row.parent;
      if (next !== undefined && (next.parent === undefined ? null : next.parent) === parent && next.list === list) return { parent, before: next.id };
      return { parent };
    }

    /**
     * The ids of the ancestors of the row `id` that are rows of the window, nearest first (a
     * parent is always a row above its subtasks).
     * - Complexity: O(rows above it).
     */
    ancestorsOf(id) {
      const chain = [];
      const i = this.rows.findIndex((row) => row.id === id);
      if (i < 0) return chain;
      let parent = this.rows[i].parent;
      for (let j = i - 1; j >= 0 && parent !== null && parent !== undefined; j--) {
        if (this.rows[j].id === parent) {
          chain.push(parent);
          parent = this.rows[j].parent;
        }
      }
      return chain;
    }

    /** A plain copy, as sent to the page. */
    snapshot() {
      return {
        view: this.view, version: this.version, state: this.state, count: this.count,
        window: { start: this.window.start, end: this.window.end }, rows: this.rows.slice(),
        sort: this.sort, filter: this.filter, sections: this.sections,
        progress: this.progress, error: this.error, empty: this.empty,
      };
    }
  }

  return { ViewModel, applyOp };
}));

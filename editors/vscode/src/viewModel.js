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

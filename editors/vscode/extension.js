'use strict';
// The taskls extension: one server per window (src/client.js), the overview as a native tree in
// its own activity-bar container, a status bar item with Today's count, an output channel for the
// server's stderr and trace, commands, and one webview panel per opened list or smart group
// (src/paneHost.js keeps its model; media/pane.js draws it); fired reminders as notifications with
// Done / Snooze 10 min / Dismiss; each shared list's sync state in the tree, and Sync Now (S).
// Everything shown comes from the server.
const vscode = require('vscode');
const { Client, describe } = require('./src/client');
const { PaneHost, sameSource } = require('./src/paneHost');
const { overviewNodes, overviewChanges, statusText, syncReport } = require('./src/overviewModel');
const { nonce, pageHtml, pageFiles } = require('./src/page');
const { displayed, stepWords, reminderWords, advancedWords, due } = require('./src/words');

const viewType = 'taskls.list';
const treeMime = 'application/vnd.code.tree.taskls.overview';
const syncScheme = 'taskls-sync';
/** How a sync state's level is coloured: the tree's own warning and error colours, dim for the rest. */
const syncColors = { warning: 'list.warningForeground', error: 'list.errorForeground', state: 'descriptionForeground' };

/** What one activation holds; `activate` returns it (the tests read it). */
class Extension {
  constructor(context) {
    this.context = context;
    this.output = vscode.window.createOutputChannel('taskls', { log: true });
    this.panes = new Set(); // {panel, host}
    this.overview = null;
    this.client = null;
    this.failure = null;
    this.treeChanged = new vscode.EventEmitter();
    this.decorationsChanged = new vscode.EventEmitter();
    this.nodes = new Map();
    this.status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 100);
    this.status.command = 'taskls.openToday';
    this.status.name = 'taskls: Today';
    this.overviewListener = (overview) => this.showOverview(overview);
    context.subscriptions.push(this.output, this.status, this.treeChanged, this.decorationsChanged);
  }

  setting(name, fallback) {
    const value = vscode.workspace.getConfiguration('taskls').get(name);
    return value === undefined || value === null || value === '' ? fallback : value;
  }

  /** The window's server, started on first use with the current settings. */
  server() {
    if (this.client !== null) return this.client;
    const client = new Client({
      command: this.setting('path', 'taskls'),
      store: this.setting('store', undefined),
      trace: this.setting('trace.server', 'off'),
      log: (line) => this.output.info(line),
      onMessage: ({ method, type, message }) => {
        if (method === 'window/showMessage' && type === 1) vscode.window.showErrorMessage(`taskls: ${displayed(String(message))}`);
        const level = type === 1 ? 'error' : type === 2 ? 'warn' : 'info';
        this.output[level](`[server] ${message}`);
      },
      onExit: (exit) => this.serverExited(client, exit),
      onReminder: (params) => { if (this.client === client) this.showReminder(params); },
    });
    this.client = client;
    client.start().then(() => {
      this.setFailure(null);
      this.output.info(`taskls ${client.serverInfo ? client.serverInfo.version : '?'} started (${client.options.command})`);
      if (this.setting('reminders', true) === true) this.reminderWatch = this.watchReminders(client, true);
    }, (error) => this.setFailure(describe(error)));
    client.watchOverview(this.overviewListener).catch((error) => this.setFailure(describe(error)));
    return client;
  }

  // Reminders ------------------------------------------------------------------------------------

  /**
   * Asks the server for `reminder/fired` (or to stop sending them): the `taskls.reminders` setting.
   * The promise is kept as `reminderWatch` (the tests wait for it).
   */
  watchReminders(client, watch) {
    if (!client.supports('reminders/watch')) return Promise.resolve();
    return client.request('reminders/watch', { watch }).catch((error) => this.output.warn(`reminders/watch: ${describe(error)}`));
  }

  /** What the words of a notification are relative to: the overview's day, the client's time zone. */
  wordsContext() {
    const client = this.client;
    const overview = this.overview || (client && client.overview);
    return {
      today: (overview && overview.today) || new Date().toISOString().slice(0, 10),
      timeZone: (client && client.options.timeZone) || Intl.DateTimeFormat().resolvedOptions().timeZone,
    };
  }

  /**
   * A fired reminder as a notification (a warning when it fired late) with Done, Snooze 10 min and
   * Dismiss; what was chosen is carried out. Resolves when the notification is answered or closed.
   */
  async showReminder(params) {
    const text = `taskls reminder: ${reminderWords(params, this.wordsContext())}`;
    this.output.info(text);
    const buttons = ['Done', 'Snooze 10 min', 'Dismiss'];
    const choice = params.late === true ? await vscode.window.showWarningMessage(text, ...buttons) : await vscode.window.showInformationMessage(text, ...buttons);
    await this.answerReminder(params, choice === 'Snooze 10 min' ? 10 : choice);
  }

  /** Carries out `choice` on a reminder: 'Done', 'Dismiss', or a snooze of that many minutes; else nothing. */
  async answerReminder(reminder, choice) {
    const item = reminder.item;
    const name = `"${displayed(item.title)}"`;
    if (choice === 'Done') {
      const result = await this.run('items/update', { id: item.id, done: true });
      if (!result) return;
      const advanced = (result.advanced || []).includes(item.id);
      // A repeating task moved on: the server keeps the reminder of the occurrence it left pending
      // (a plain task's completion dismisses its reminders); Done answered it, so it is dismissed.
      if (advanced) await this.server().request('reminders/dismiss', { item: item.id, fireAt: reminder.fireAt }).catch(() => {});
      const said = advanced ? advancedWords(result.items[0], this.wordsContext()) : `done: ${name}`;
      vscode.window.setStatusBarMessage(`taskls: ${said}`, 5000);
    } else if (choice === 'Dismiss') {
      if (await this.run('reminders/dismiss', { item: item.id, fireAt: reminder.fireAt })) vscode.window.setStatusBarMessage(`taskls: dismissed the reminder of ${name}`, 3000);
    } else if (typeof choice === 'number') {
      const result = await this.run('reminders/snooze', { item: item.id, fireAt: reminder.fireAt, minutes: choice });
      if (result) vscode.window.setStatusBarMessage(`taskls: snoozed ${name} until ${due(result.until, true, this.wordsContext()).text}`, 3000);
    }
  }

  /** The pending reminders (`reminders/list`) to pick one from; undefined when none or dismissed. */
  async pickReminder(placeHolder) {
    const answer = await this.run('reminders/list');
    if (!answer) return undefined;
    if (answer.reminders.length === 0) { vscode.window.showInformationMessage('taskls: no reminders pending'); return undefined; }
    const context = this.wordsContext();
    const picks = answer.reminders.map((reminder) => ({
      label: `$(bell) ${reminderWords(reminder, context)}`,
      description: `fired ${due(reminder.firedAt, true, context).text}`,
      reminder,
    }));
    const pick = await vscode.window.showQuickPick(picks, { placeHolder });
    return pick ? pick.reminder : undefined;
  }

  setFailure(message) {
    this.failure = message;
    vscode.commands.executeCommand('setContext', 'taskls.serverFailed', message !== null);
    if (message !== null) {
      this.output.error(message);
      this.status.text = '$(error) taskls';
      this.status.tooltip = message;
      this.status.show();
      this.overview = null;
      this.nodes.clear();
      this.treeChanged.fire();
    }
  }

  serverExited(client, exit) {
    if (this.client !== client) return;
    const reason = exit.reason || `the server exited with code ${exit.code}${exit.signal ? ` (signal ${exit.signal})` : ''}`;
    this.client = null;
    for (const pane of this.panes) pane.host.serverStopped(reason);
    if (!this.stopping) this.setFailure(reason);
  }

  async restart() {
    const old = this.client;
    this.stopping = true;
    if (old !== null) {
      old.unwatchOverview(this.overviewListener);
      await old.stop();
    }
    this.stopping = false;
    this.client = null;
    const client = this.server();
    await client.start().catch(() => {});
    for (const pane of this.panes) {
      pane.host.client = client;
      client.overviewListeners.add(pane.host.overviewListener);
      pane.host.open({ start: 0, end: 200 }).catch(() => {});
    }
  }

  // The overview tree ----------------------------------------------------------------------------

  showOverview(overview) {
    const changes = overviewChanges(this.overview, overview);
    const synced = (this.overview && this.overview.sync) || overview.sync;
    this.overview = overview;
    for (const node of overviewNodes(overview)) {
      this.nodes.set(node.id, node);
      for (const child of node.children || []) this.nodes.set(child.id, child);
    }
    vscode.commands.executeCommand('setContext', 'taskls.noLists', !overview.store && (overview.lists || []).length === 0);
    vscode.commands.executeCommand('setContext', 'taskls.shared', (overview.sync || []).length > 0);
    if (changes.structure) this.treeChanged.fire();
    else for (const id of changes.changed) this.treeChanged.fire(this.nodes.get(id));
    if (synced && (changes.structure || changes.changed.length > 0)) this.decorationsChanged.fire(undefined);
    const status = statusText(overview);
    this.status.text = status.text;
    this.status.tooltip = status.tooltip;
    this.status.show();
  }

  treeProvider() {
    return {
      onDidChangeTreeData: this.treeChanged.event,
      getChildren: (element) => {
        if (element !== undefined) return element.children || [];
        this.server();
        if (this.failure !== null) return [];
        return overviewNodes(this.overview).map((node) => this.nodes.get(node.id) || node);
      },
      getTreeItem: (node) => {
        const lines = (node.children || []).length > 0;
        const item = new vscode.TreeItem(node.label, lines ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
        item.id = node.id;
        // A shared list and the lines under it are coloured by their state (decorations: see syncDecorations).
        if (node.sync || node.level) item.resourceUri = vscode.Uri.from({ scheme: syncScheme, path: `/${node.id}` });
        item.description = node.description;
        item.tooltip = node.tooltip;
        item.contextValue = node.kind;
        const color = node.color || (node.level && node.level !== 'state' ? syncColors[node.level] : undefined);
        item.iconPath = new vscode.ThemeIcon(node.icon, color ? new vscode.ThemeColor(color) : undefined);
        if (node.source) item.command = { command: 'taskls.open', title: 'Open', arguments: [node] };
        else if (node.kind === 'state') item.command = { command: 'taskls.retryStore', title: 'Retry' };
        return item;
      },
      getParent: (node) => (node && node.list && node.kind !== 'list' ? this.nodes.get(`list:${node.list}`) : undefined),
    };
  }

  /**
   * The colours of the shared lists' rows and the lines under them (a `FileDecorationProvider` on
   * their `taskls-sync:` uris): the tree's warning colour for a list offline or waiting for a
   * confirmed sync, its error colour for a sync error, dim for a notice; none for a synced list.
   */
  syncDecorations() {
    return {
      onDidChangeFileDecorations: this.decorationsChanged.event,
      provideFileDecoration: (uri) => {
        if (uri.scheme !== syncScheme) return undefined;
        const node = this.nodes.get(uri.path.slice(1));
        const level = node && (node.sync ? node.sync.level : node.level);
        if (!level || (node.sync && level === 'state')) return undefined;
        return new vscode.FileDecoration(undefined, node.sync ? node.sync.words : undefined, new vscode.ThemeColor(syncColors[level]));
      },
    };
  }

  /**
   * Syncs the shared lists now (`sync/now`; only `lists` when given; `confirm` mirrors a side that
   * looks suddenly empty), with a progress in the status bar meanwhile; then says how each list went
   * (`Groceries: synced 2026-11-26 10:04 UTC (1 sent, 0 received)`; a warning when one did not
   * sync), or the refusal in one line (`no account: add one with …`). Resolves with the lines said,
   * or undefined when refused.
   */
  async syncNow(confirm, lists) {
    const params = {};
    if (lists) params.lists = lists;
    if (confirm) params.confirm = true;
    let result;
    try {
      const client = this.server();
      result = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: confirm ? 'taskls: syncing (confirmed)…' : 'taskls: syncing…' },
        () => client.request('sync/now', params));
    } catch (error) {
      this.output.warn(`sync/now: ${describe(error)}`);
      vscode.window.showErrorMessage(`taskls: ${displayed(describe(error))}`);
      return undefined;
    }
    const names = new Map(((this.overview && this.overview.lists) || []).map((list) => [list.id, list.name]));
    const lines = syncReport(result, names);
    for (const line of lines) this.output.info(`sync: ${line}`);
    const failed = (result.lists || []).some((synced) => synced.sync.state !== 'synced');
    const text = `taskls: ${lines.join('; ')}`;
    if (failed) vscode.window.showWarningMessage(text);
    else vscode.window.showInformationMessage(text);
    return lines;
  }

  /**
   * Drag and drop in the tree: lists (`lists/move`) before the list dropped on (or last), smart
   * lists (`smartLists/move`) before the smart list dropped on (or last).
   */
  dragController() {
    return {
      dragMimeTypes: [treeMime],
      dropMimeTypes: [treeMime],
      handleDrag: (source, dataTransfer) => {
        const smart = source.filter((node) => node.kind === 'smartList').map((node) => node.source.smartList);
        if (smart.length > 0 && smart.length === source.length) { dataTransfer.set(treeMime, new vscode.DataTransferItem({ smartLists: smart })); return; }
        const ids = source.filter((node) => node.kind === 'list').map((node) => node.source.list);
        if (ids.length > 0) dataTransfer.set(treeMime, new vscode.DataTransferItem(ids));
      },
      handleDrop: async (target, dataTransfer) => {
        const item = dataTransfer.get(treeMime);
        if (!item) return;
        const value = item.value !== undefined ? item.value : JSON.parse(await item.asString());
        if (value && Array.isArray(value.smartLists)) {
          if (target && target.kind !== 'smartList') return;
          const before = target ? target.source.smartList : null;
          if (!value.smartLists.includes(before)) await this.run('smartLists/move', { ids: value.smartLists, before });
          return;
        }
        const ids = value;
        if (target && target.kind !== 'list') return;
        const before = target ? target.source.list : null;
        if (ids.includes(before)) return;
        await this.run('lists/move', { ids, before });
      },
    };
  }

  /** A request whose failure is one error message. */
  async run(method, params) {
    try {
      return await this.server().request(method, params);
    } catch (error) {
      vscode.window.showErrorMessage(`taskls: ${displayed(describe(error))}`);
      return undefined;
    }
  }

  // List panes -----------------------------------------------------------------------------------

  /** Opens (or reveals) the pane of `source` (`{list}`, `{smartList}` or `{group}`), titled `name`. */
  openPane(source, name, restored, existingPanel) {
    if (!existingPanel) {
      for (const pane of this.panes) {
        if (sameSource(pane.host.source, source)) { pane.panel.reveal(); return pane; }
      }
    }
    const root = this.context.extensionUri;
    const panel = existingPanel || vscode.window.createWebviewPanel(viewType, name, vscode.ViewColumn.Active, {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(root, 'media'), vscode.Uri.joinPath(root, 'src')],
    });
    panel.webview.options = { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(root, 'media'), vscode.Uri.joinPath(root, 'src')] };
    panel.title = name;
    panel.iconPath = vscode.Uri.joinPath(root, 'media', 'icon.png');
    const uri = (file) => panel.webview.asWebviewUri(vscode.Uri.joinPath(root, ...file.split('/'))).toString();
    panel.webview.html = pageHtml({
      cspSource: panel.webview.cspSource, nonce: nonce(), title: name,
      styles: pageFiles.styles.map(uri), scripts: pageFiles.scripts.map(uri),
    });
    const host = new PaneHost({
      client: this.server(), source, name, restored,
      post: (message) => panel.webview.postMessage(message),
      onTitle: (title) => { panel.title = title; },
    });
    const pane = { panel, host };
    this.panes.add(pane);
    const subscriptions = [
      panel.webview.onDidReceiveMessage((message) => host.receive(message)),
      panel.onDidChangeViewState((event) => {
        host.setVisible(event.webviewPanel.visible);
        if (event.webviewPanel.active) this.activePane = pane;
      }),
    ];
    panel.onDidDispose(() => {
      host.dispose();
      this.panes.delete(pane);
      if (this.activePane === pane) this.activePane = undefined;
      for (const subscription of subscriptions) subscription.dispose();
    });
    this.activePane = pane;
    return pane;
  }

  /** Runs `action(pane)` on the pane in front; says so when there is none; a failure is one line. */
  async inPane(action) {
    const pane = this.currentPane();
    if (!pane) { vscode.window.showInformationMessage('taskls: open a list first'); return undefined; }
    try {
      return await action(pane);
    } catch (error) {
      vscode.window.showErrorMessage(`taskls: ${displayed(describe(error))}`);
      return undefined;
    }
  }

  /** The pane in front, if any. */
  currentPane() {
    for (const pane of this.panes) if (pane.panel.active) return pane;
    return this.activePane;
  }

  // Commands -------------------------------------------------------------------------------------

  async pickSource(placeHolder) {
    const client = this.server();
    const overview = this.overview || await client.request('lists/list', {}).catch((error) => { vscode.window.showErrorMessage(`taskls: ${displayed(describe(error))}`); return null; });
    if (!overview) return undefined;
    const picks = overviewNodes(overview).filter((node) => node.source).map((node) => ({
      label: `$(${node.icon}) ${node.label}`, description: node.description, node,
    }));
    const pick = await vscode.window.showQuickPick(picks, { placeHolder, matchOnDescription: false });
    return pick ? pick.node : undefined;
  }

  /** A colour for a list or smart list (`{color}`, null for none), or undefined. */
  pickColor(target) {
    const picks = ['red', 'orange', 'yellow', 'green', 'blue', 'purple'].map((color) => ({ label: color, color }));
    picks.push({ label: 'No colour', color: null });
    return vscode.window.showQuickPick(picks, { placeHolder: `Colour of ${target.label}` });
  }

  async pickSmartList(placeHolder, node) {
    if (node && node.kind === 'smartList') return node;
    const overview = this.overview || await this.run('lists/list', {});
    if (!overview) return undefined;
    const picks = overviewNodes(overview).filter((n) => n.kind === 'smartList').map((n) => ({ label: n.label, description: n.description, node: n }));
    if (picks.length === 0) { vscode.window.showInformationMessage('taskls: there is no smart list yet: filter a pane, then Save Filter as Smart List'); return undefined; }
    const pick = await vscode.window.showQuickPick(picks, { placeHolder });
    return pick ? pick.node : undefined;
  }

  /**
   * Saves the front pane's filter as a smart list, named as the user types: the view's filter, with
   * `done: "notDone"` unless it says otherwise (`"done"` for the Completed group); over the pane's
   * list, or every list for a smart group's pane, or a smart list's own lists (its filter under
   * the view's).
   */
  async saveSmartList(pane) {
    const host = pane.host;
    let filter = Object.assign({}, host.model.filter || {});
    let lists = null;
    if (host.source.list) lists = [host.source.list];
    if (host.source.smartList) {
      const smart = ((this.overview && this.overview.smartLists) || []).find((s) => s.id === host.source.smartList);
      if (smart) { filter = Object.assign({}, smart.filter, filter); lists = smart.lists; }
    }
    if (filter.done === undefined) filter.done = host.source.group === 'completed' ? 'done' : 'notDone';
    const name = await vscode.window.showInputBox({
      prompt: `Name of the smart list (the filter of ${displayed(host.name)}${host.settings.filterText ? `: ${displayed(host.settings.filterText)}` : ''})`,
      value: host.settings.filterText || '',
      validateInput: (v) => (v.trim() === '' ? 'A smart list needs a name' : null),
    });
    if (!name) return undefined;
    const created = await this.run('smartLists/create', { name, filter, lists });
    if (created) vscode.window.setStatusBarMessage(`taskls: saved the smart list "${displayed(created.smartList.name)}" (${created.smartList.count} ${created.smartList.count === 1 ? 'task' : 'tasks'})`, 3000);
    return created;
  }

  async pickList(placeHolder, node) {
    if (node && node.kind === 'list') return node;
    const overview = this.overview || await this.run('lists/list', {});
    if (!overview) return undefined;
    const picks = overviewNodes(overview).filter((n) => n.kind === 'list').map((n) => ({ label: n.label, description: n.description, node: n }));
    const pick = await vscode.window.showQuickPick(picks, { placeHolder });
    return pick ? pick.node : undefined;
  }

  commands() {
    return {
      'taskls.open': (node) => node && this.openPane(node.source, node.label),
      'taskls.openList': async () => {
        const node = await this.pickSource('Open a list, smart list or smart group');
        if (node) this.openPane(node.source, node.label);
      },
      'taskls.openToday': () => this.openPane({ group: 'today' }, 'Today'),
      'taskls.addTask': async () => {
        const pane = this.currentPane();
        const list = pane && pane.host.source.list ? pane.host.source.list : undefined;
        // A line read with warnings is never stored: the box opens again with the typed text and
        // the warnings in its prompt, until the text reads cleanly or the box is dismissed.
        const prompt = 'New task: a title, then ^due !priority #tag @List // notes';
        let problem = null;
        let text = '';
        let answer;
        for (;;) {
          text = await vscode.window.showInputBox({
            prompt: problem === null ? prompt : `${problem} (\\ keeps a word as text)`,
            placeHolder: 'Buy milk ^fri 5pm !high #home @Groceries // 2 litres',
            value: text,
          });
          if (!text) return;
          const params = { text };
          if (list) params.list = list;
          answer = await this.run('text/parseItem', params);
          if (!answer) return;
          const warnings = (answer.warnings || []).map((w) => displayed(String(w.message || w.reason)));
          if (warnings.length === 0) break;
          problem = warnings.join('; ');
          this.output.warn(`add: ${problem}`);
        }
        const client = this.server();
        const fields = answer.fields;
        if (!fields.list) {
          const first = this.overview && (this.overview.lists || [])[0];
          if (!first) { vscode.window.showWarningMessage('taskls: there is no list yet: create one first'); return; }
          fields.list = first.id;
        }
        if (!fields.title) { vscode.window.showWarningMessage(`taskls: a task needs a title: ${displayed(text)}`); return; }
        const created = await client.request('items/create', fields).catch((error) => { vscode.window.showErrorMessage(`taskls: ${displayed(describe(error))}`); });
        if (created) vscode.window.setStatusBarMessage(`taskls: added "${displayed(created.item.title)}"`, 3000);
      },
      'taskls.createList': async () => {
        const name = await vscode.window.showInputBox({ prompt: 'Name of the new list', validateInput: (v) => (v.trim() === '' ? 'A list needs a name' : null) });
        if (name) await this.run('lists/create', { name });
      },
      'taskls.renameList': async (node) => {
        const target = await this.pickList('Rename which list?', node);
        if (!target) return;
        const name = await vscode.window.showInputBox({ prompt: `Rename ${target.label}`, value: target.name, validateInput: (v) => (v.trim() === '' ? 'A list needs a name' : null) });
        if (name && name !== target.name) await this.run('lists/update', { id: target.source.list, name });
      },
      'taskls.recolorList': async (node) => {
        const target = await this.pickList('Recolor which list?', node);
        if (!target) return;
        const pick = await this.pickColor(target);
        if (pick) await this.run('lists/update', { id: target.source.list, color: pick.color });
      },
      'taskls.recolorSmartList': async (node) => {
        const target = await this.pickSmartList('Recolor which smart list?', node);
        if (!target) return;
        const pick = await this.pickColor(target);
        if (pick) await this.run('smartLists/update', { id: target.source.smartList, color: pick.color });
      },
      'taskls.deleteList': async (node) => {
        const target = await this.pickList('Delete which list?', node);
        if (!target) return;
        const answer = await vscode.window.showWarningMessage(
          `Delete the list "${target.label}" and its tasks?`, { modal: true, detail: 'Undo (Ctrl+Z in a task pane) brings it back.' }, 'Delete');
        if (answer === 'Delete') await this.run('lists/delete', { id: target.source.list });
      },
      'taskls.saveSmartList': () => this.inPane((pane) => this.saveSmartList(pane)),
      'taskls.renameSmartList': async (node) => {
        const target = await this.pickSmartList('Rename which smart list?', node);
        if (!target) return;
        const name = await vscode.window.showInputBox({ prompt: `Rename the smart list ${target.label}`, value: target.name, validateInput: (v) => (v.trim() === '' ? 'A smart list needs a name' : null) });
        if (name && name !== target.name) await this.run('smartLists/update', { id: target.source.smartList, name });
      },
      'taskls.deleteSmartList': async (node) => {
        const target = await this.pickSmartList('Delete which smart list?', node);
        if (!target) return;
        const answer = await vscode.window.showWarningMessage(
          `Delete the smart list "${target.label}"?`, { modal: true, detail: 'Its tasks stay in their lists. Undo (Ctrl+Z in a task pane) brings it back.' }, 'Delete');
        if (answer === 'Delete') await this.run('smartLists/delete', { id: target.source.smartList });
      },
      // Repeating tasks in the pane in front: its selection (or focused task), as its keys do.
      'taskls.skip': () => this.inPane((pane) => { pane.panel.reveal(); pane.host.command('skip'); }),
      'taskls.stopRepeating': () => this.inPane((pane) => { pane.panel.reveal(); pane.host.command('stopRepeating'); }),
      'taskls.showReminders': async () => {
        const reminder = await this.pickReminder('Pending reminders: pick one to act on');
        if (!reminder) return;
        const picks = [
          { label: 'Done', choice: 'Done' }, { label: 'Snooze 10 min', choice: 10 }, { label: 'Snooze 1 hour', choice: 60 },
          { label: 'Snooze until tomorrow', choice: 1440 }, { label: 'Dismiss', choice: 'Dismiss' },
        ];
        const pick = await vscode.window.showQuickPick(picks, { placeHolder: reminderWords(reminder, this.wordsContext()) });
        if (pick) await this.answerReminder(reminder, pick.choice);
      },
      'taskls.dismissReminder': async () => {
        const reminder = await this.pickReminder('Dismiss which reminder?');
        if (reminder) await this.answerReminder(reminder, 'Dismiss');
      },
      'taskls.snoozeReminder': async () => {
        const reminder = await this.pickReminder('Snooze which reminder?');
        if (!reminder) return;
        const picks = [{ label: '10 min', minutes: 10 }, { label: '1 hour', minutes: 60 }, { label: '1 day', minutes: 1440 }];
        const pick = await vscode.window.showQuickPick(picks, { placeHolder: `Snooze ${reminderWords(reminder, this.wordsContext())} for` });
        if (pick) await this.answerReminder(reminder, pick.minutes);
      },
      'taskls.undo': async () => {
        const result = await this.run('undo');
        if (!result) return;
        vscode.window.setStatusBarMessage(`taskls: ${stepWords('undid', result)}`, 3000);
        const pane = this.currentPane();
        if (pane) pane.host.send({ type: 'say', text: stepWords('undid', result), kind: 'info' });
      },
      'taskls.redo': async () => {
        const result = await this.run('redo');
        if (!result) return;
        vscode.window.setStatusBarMessage(`taskls: ${stepWords('redid', result)}`, 3000);
        const pane = this.currentPane();
        if (pane) pane.host.send({ type: 'say', text: stepWords('redid', result), kind: 'info' });
      },
      // The pane's title menu: the server hides or shows the rows below tasks, in that pane only.
      'taskls.collapseAll': () => this.inPane((pane) => pane.host.fold('view/collapse', undefined, true)),
      'taskls.expandAll': () => this.inPane((pane) => pane.host.fold('view/expand', undefined, true)),
      'taskls.addSubtask': () => this.inPane((pane) => { pane.panel.reveal(); pane.host.command('addSubtask'); }),
      'taskls.retryStore': () => this.run('store/retry'),
      'taskls.sync': () => this.syncNow(false),
      // From the line under a list waiting for it: that list only; from the palette: every shared list.
      'taskls.syncConfirm': (node) => this.syncNow(true, node && node.list ? [node.list] : undefined),
      'taskls.refresh': async () => {
        const overview = await this.run('lists/list', {});
        if (overview) this.showOverview(overview);
      },
      'taskls.restartServer': () => this.restart(),
      'taskls.showOutput': () => this.output.show(true),
      'taskls.info': async () => {
        const client = this.server();
        const lines = [`server: ${client.options.command}`];
        try {
          await client.start();
          lines.push(`version: ${client.serverInfo ? client.serverInfo.version : '?'}`);
          const status = await client.request('store/status');
          lines.push(`store: ${status.path || '(none)'} (${status.state})`);
        } catch (error) {
          lines.push(`not running: ${describe(error)}`);
        }
        for (const line of lines) this.output.info(line);
        vscode.window.showInformationMessage(`taskls: ${lines.join(' · ')}`);
      },
    };
  }

  deactivate() {
    for (const pane of this.panes) pane.host.dispose();
    const client = this.client;
    this.client = null;
    this.stopping = true;
    return client ? client.stop() : Promise.resolve();
  }
}

let current = null;

/** Activation (implicit, from the contributions): registers everything; the server starts on first use. */
function activate(context) {
  const extension = new Extension(context);
  current = extension;
  const tree = vscode.window.createTreeView('taskls.overview', {
    treeDataProvider: extension.treeProvider(),
    dragAndDropController: extension.dragController(),
    canSelectMany: true,
  });
  extension.tree = tree;
  context.subscriptions.push(tree, vscode.window.registerFileDecorationProvider(extension.syncDecorations()));
  for (const [name, handler] of Object.entries(extension.commands())) {
    context.subscriptions.push(vscode.commands.registerCommand(name, handler));
  }
  context.subscriptions.push(vscode.window.registerWebviewPanelSerializer(viewType, {
    deserializeWebviewPanel: async (panel, state) => {
      const saved = state && state.host;
      if (!saved || !saved.source) { panel.dispose(); return; }
      extension.openPane(saved.source, saved.name || panel.title, saved, panel);
    },
  }));
  context.subscriptions.push(vscode.workspace.onDidChangeConfiguration((event) => {
    if (event.affectsConfiguration('taskls.path') || event.affectsConfiguration('taskls.store')) extension.restart();
    else if (event.affectsConfiguration('taskls.reminders') && extension.client && extension.client.running) {
      extension.reminderWatch = extension.watchReminders(extension.client, extension.setting('reminders', true) === true);
    } else if (event.affectsConfiguration('taskls.trace.server') && extension.client) {
      extension.client.options.trace = extension.setting('trace.server', 'off');
      extension.client.notify('$/setTrace', { value: extension.client.options.trace });
    }
  }));
  return extension;
}

function deactivate() {
  const extension = current;
  current = null;
  return extension ? extension.deactivate() : undefined;
}

module.exports = { activate, deactivate };

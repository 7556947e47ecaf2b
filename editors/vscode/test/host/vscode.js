'use strict';
// A stand-in for the `vscode` module: only the API surface extension.js uses, with the real
// signatures (vscode.d.ts 1.80), recording what the extension asks of it. Dialogs are answered by
// `stub.answer(kind, ...)` (queued answers per kind: 'inputBox', 'quickPick', 'warning', …).
const path = require('path');

const stub = {
  calls: [], // [name, ...args]
  answers: new Map(),
  commands: new Map(),
  contexts: new Map(),
  configuration: {},
  outputLines: [],
  panels: [],
  treeViews: new Map(),
  statusItems: [],
  serializers: new Map(),
  messages: [],
  decorationProviders: [],
  progress: [], // the titles of withProgress, as each starts
  answer(kind, value) {
    const queue = this.answers.get(kind) || [];
    queue.push(value);
    this.answers.set(kind, queue);
  },
  take(kind, fallback) {
    const queue = this.answers.get(kind) || [];
    if (queue.length === 0) return fallback;
    const value = queue.shift();
    return value;
  },
  /** The queued answer of `kind` to a message with `buttons`: a button, or a function of the buttons. */
  choose(kind, buttons) {
    const choose = this.take(kind, undefined);
    return typeof choose === 'function' ? choose(buttons) : choose;
  },
  reset() {
    this.calls = []; this.answers = new Map(); this.commands = new Map(); this.contexts = new Map();
    this.outputLines = []; this.panels = []; this.treeViews = new Map(); this.statusItems = [];
    this.serializers = new Map(); this.messages = []; this.configurationListeners = new Set();
    this.decorationProviders = []; this.progress = [];
  },
  configurationListeners: new Set(),
};

class Disposable {
  constructor(callOnDispose) { this.callOnDispose = callOnDispose; }
  static from(...disposables) { return new Disposable(() => disposables.forEach((d) => d.dispose())); }
  dispose() { if (this.callOnDispose) { this.callOnDispose(); this.callOnDispose = undefined; } }
}

class EventEmitter {
  constructor() {
    this.listeners = new Set();
    /** event(listener, thisArgs?, disposables?): Disposable */
    this.event = (listener, thisArgs, disposables) => {
      const bound = thisArgs ? listener.bind(thisArgs) : listener;
      this.listeners.add(bound);
      const disposable = new Disposable(() => this.listeners.delete(bound));
      if (Array.isArray(disposables)) disposables.push(disposable);
      return disposable;
    };
  }
  fire(data) { for (const listener of [...this.listeners]) listener(data); }
  dispose() { this.listeners.clear(); }
}

class Uri {
  constructor(scheme, fsPath) { this.scheme = scheme; this.fsPath = fsPath; this.path = fsPath; }
  static file(fsPath) { return new Uri('file', fsPath); }
  static from(components) { return new Uri(components.scheme, components.path || ''); }
  static joinPath(base, ...pathSegments) { return new Uri(base.scheme, path.join(base.fsPath, ...pathSegments)); }
  toString() { return `${this.scheme}://${this.fsPath}`; }
}

const TreeItemCollapsibleState = { None: 0, Collapsed: 1, Expanded: 2 };
class TreeItem {
  constructor(label, collapsibleState) { this.label = label; this.collapsibleState = collapsibleState; }
}
class ThemeIcon { constructor(id, color) { this.id = id; this.color = color; } }
class ThemeColor { constructor(id) { this.id = id; } }
const StatusBarAlignment = { Left: 1, Right: 2 };
const ProgressLocation = { SourceControl: 1, Window: 10, Notification: 15 };
class FileDecoration {
  constructor(badge, tooltip, color) { this.badge = badge; this.tooltip = tooltip; this.color = color; }
}
const ViewColumn = { Active: -1, Beside: -2, One: 1, Two: 2 };

class DataTransferItem {
  constructor(value) { this.value = value; }
  asString() { return Promise.resolve(typeof this.value === 'string' ? this.value : JSON.stringify(this.value)); }
  asFile() { return undefined; }
}
class DataTransfer {
  constructor() { this.items = new Map(); }
  get(mimeType) { return this.items.get(mimeType.toLowerCase()); }
  set(mimeType, value) { this.items.set(mimeType.toLowerCase(), value); }
  forEach(callbackfn, thisArg) { for (const [mime, item] of this.items) callbackfn.call(thisArg, item, mime, this); }
}

function logChannel(name) {
  const line = (level) => (message, ...args) => stub.outputLines.push(`${level} ${[message, ...args].join(' ')}`);
  return {
    name, logLevel: 2, onDidChangeLogLevel: new EventEmitter().event,
    trace: line('trace'), debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error'),
    append: (value) => stub.outputLines.push(value), appendLine: (value) => stub.outputLines.push(value),
    replace: () => {}, clear: () => {},
    show: (preserveFocus) => stub.calls.push(['output.show', preserveFocus]),
    hide: () => {}, dispose: () => {},
  };
}

class Webview {
  constructor(options) {
    this.options = options;
    this.html = '';
    this.cspSource = 'https://*.vscode-cdn.net';
    this.posted = [];
    this.received = new EventEmitter();
    this.onDidReceiveMessage = this.received.event;
  }
  asWebviewUri(localResource) { return new Uri('https', `file+.vscode-resource.vscode-cdn.net${localResource.fsPath}`); }
  postMessage(message) { this.posted.push(JSON.parse(JSON.stringify(message))); return Promise.resolve(true); }
}

class WebviewPanel {
  constructor(viewType, title, showOptions, options) {
    this.viewType = viewType;
    this.title = title;
    this.options = options || {};
    this.viewColumn = typeof showOptions === 'object' ? showOptions.viewColumn : showOptions;
    this.webview = new Webview(options);
    this.active = true;
    this.visible = true;
    this.disposeEmitter = new EventEmitter();
    this.viewStateEmitter = new EventEmitter();
    this.onDidDispose = this.disposeEmitter.event;
    this.onDidChangeViewState = this.viewStateEmitter.event;
  }
  reveal(viewColumn, preserveFocus) { stub.calls.push(['panel.reveal', this.title, viewColumn, preserveFocus]); this.setView(true, true); }
  setView(visible, active) {
    this.visible = visible;
    this.active = active;
    this.viewStateEmitter.fire({ webviewPanel: this });
  }
  dispose() { this.disposed = true; this.disposeEmitter.fire(); }
}

const window = {
  createOutputChannel(name, options) {
    stub.calls.push(['createOutputChannel', name, options]);
    return logChannel(name);
  },
  createStatusBarItem(alignmentOrId, priorityOrAlignment, priority) {
    const item = { alignment: alignmentOrId, priority: priority === undefined ? priorityOrAlignment : priority, text: '', tooltip: undefined, command: undefined, name: undefined, shown: false,
      show() { this.shown = true; }, hide() { this.shown = false; }, dispose() {} };
    stub.statusItems.push(item);
    return item;
  },
  createTreeView(viewId, options) {
    const view = { viewId, options, visible: true, selection: [], reveal: () => Promise.resolve(), dispose: () => {} };
    stub.treeViews.set(viewId, view);
    return view;
  },
  createWebviewPanel(viewType, title, showOptions, options) {
    const panel = new WebviewPanel(viewType, title, showOptions, options);
    stub.panels.push(panel);
    return panel;
  },
  registerWebviewPanelSerializer(viewType, serializer) {
    stub.serializers.set(viewType, serializer);
    return new Disposable(() => stub.serializers.delete(viewType));
  },
  showQuickPick(items, options, token) {
    stub.calls.push(['showQuickPick', options && options.placeHolder]);
    return Promise.resolve(items).then((list) => {
      const choose = stub.take('quickPick', undefined);
      return typeof choose === 'function' ? choose(list) : choose;
    });
  },
  showInputBox(options, token) {
    stub.calls.push(['showInputBox', options && options.prompt, options && options.value]);
    return Promise.resolve(stub.take('inputBox', undefined));
  },
  // A message with buttons (or a modal one) is answered by the queued answer of its kind
  // ('warning', 'info'): a button's title, or a function of the buttons; none: closed (undefined).
  showWarningMessage(message, ...rest) {
    const options = rest.length > 0 && typeof rest[0] === 'object' && rest[0] !== null && !Array.isArray(rest[0]) ? rest[0] : undefined;
    const buttons = options ? rest.slice(1) : rest;
    stub.messages.push(['warning', message, buttons]);
    const modal = options !== undefined && ('modal' in options || 'detail' in options);
    return Promise.resolve(modal || buttons.length > 0 ? stub.choose('warning', buttons) : undefined);
  },
  showErrorMessage(message, ...items) { stub.messages.push(['error', message]); return Promise.resolve(undefined); },
  showInformationMessage(message, ...items) {
    stub.messages.push(['info', message, items]);
    return Promise.resolve(items.length > 0 ? stub.choose('info', items) : undefined);
  },
  registerFileDecorationProvider(provider) {
    stub.decorationProviders.push(provider);
    return new Disposable(() => { stub.decorationProviders = stub.decorationProviders.filter((p) => p !== provider); });
  },
  withProgress(options, task) {
    stub.progress.push(options.title);
    return Promise.resolve(task({ report: () => {} }, { isCancellationRequested: false, onCancellationRequested: () => new Disposable() }));
  },
  setStatusBarMessage(text, hideAfterTimeoutOrThenable) { stub.messages.push(['status', text]); return new Disposable(() => {}); },
};

const commands = {
  registerCommand(command, callback, thisArg) {
    if (stub.commands.has(command)) throw new Error(`command '${command}' already exists`);
    stub.commands.set(command, thisArg ? callback.bind(thisArg) : callback);
    return new Disposable(() => stub.commands.delete(command));
  },
  executeCommand(command, ...rest) {
    if (command === 'setContext') { stub.contexts.set(rest[0], rest[1]); return Promise.resolve(undefined); }
    const callback = stub.commands.get(command);
    if (!callback) return Promise.reject(new Error(`command '${command}' not found`));
    return Promise.resolve(callback(...rest));
  },
};

const workspace = {
  getConfiguration(section) {
    return {
      get(name, defaultValue) {
        const key = section ? `${section}.${name}` : name;
        return key in stub.configuration ? stub.configuration[key] : defaultValue;
      },
      has(name) { return (section ? `${section}.${name}` : name) in stub.configuration; },
    };
  },
  onDidChangeConfiguration(listener, thisArgs, disposables) {
    stub.configurationListeners.add(listener);
    return new Disposable(() => stub.configurationListeners.delete(listener));
  },
};

module.exports = {
  window, commands, workspace, Disposable, EventEmitter, Uri, TreeItem, TreeItemCollapsibleState,
  ThemeIcon, ThemeColor, StatusBarAlignment, ViewColumn, DataTransferItem, DataTransfer,
  ProgressLocation, FileDecoration,
  stub,
};

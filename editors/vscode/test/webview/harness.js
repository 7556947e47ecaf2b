// Plays VS Code's side inside the test page, loaded before the pane's own scripts: a fake
// `acquireVsCodeApi` whose postMessage goes to the relay (in order) and whose state lives in
// sessionStorage (kept across a reload, as VS Code keeps it), messages from the relay delivered as
// window 'message' events, and a light or dark theme set as --vscode-* variables through CSSOM.
(function () {
  'use strict';
  const script = new URL(document.currentScript.src);
  const pane = script.searchParams.get('pane');
  const theme = script.searchParams.get('theme') || 'dark';
  // A lower cap on the list's pixel height, to test the scaled mapping without millions of rows.
  if (script.searchParams.get('maxHeight')) window.tasklsOptions = { maxHeight: Number(script.searchParams.get('maxHeight')) };
  const themes = {
    dark: {
      'font-family': 'system-ui, "Ubuntu", "Droid Sans", sans-serif', 'font-size': '13px', foreground: '#cccccc',
      'editor-background': '#1f1f1f', 'input-background': '#313131', 'input-foreground': '#cccccc', 'input-border': '#3c3c3c',
      'input-placeholderForeground': '#989898', 'dropdown-background': '#313131', 'dropdown-foreground': '#cccccc', 'dropdown-border': '#3c3c3c',
      'focusBorder': '#0078d4', 'button-background': '#0078d4', 'button-foreground': '#ffffff', 'button-hoverBackground': '#026ec1',
      'button-secondaryBackground': '#313131', 'button-secondaryForeground': '#cccccc', 'list-hoverBackground': '#2a2d2e',
      'list-activeSelectionBackground': '#04395e', 'list-activeSelectionForeground': '#ffffff', 'list-inactiveSelectionBackground': '#37373d',
      'list-focusOutline': '#0078d4', 'list-dropBackground': '#383b3d', 'descriptionForeground': '#9d9d9d', 'disabledForeground': '#8b8b8b',
      'errorForeground': '#f85149', 'editorWarning-foreground': '#cca700', 'textLink-foreground': '#4daafc', 'badge-background': '#616161',
      'badge-foreground': '#f8f8f8', 'progressBar-background': '#0078d4', 'editorWidget-background': '#202020', 'widget-border': '#313131',
      'checkbox-background': '#313131', 'checkbox-border': '#3c3c3c', 'checkbox-foreground': '#cccccc', 'panel-border': '#2b2b2b',
      'sideBarSectionHeader-background': '#181818', 'sideBarSectionHeader-foreground': '#cccccc', 'toolbar-hoverBackground': '#5a5d5e50',
      'icon-foreground': '#cccccc',
    },
    light: {
      'font-family': 'system-ui, "Ubuntu", "Droid Sans", sans-serif', 'font-size': '13px', foreground: '#3b3b3b',
      'editor-background': '#ffffff', 'input-background': '#ffffff', 'input-foreground': '#3b3b3b', 'input-border': '#cecece',
      'input-placeholderForeground': '#767676', 'dropdown-background': '#ffffff', 'dropdown-foreground': '#3b3b3b', 'dropdown-border': '#cecece',
      'focusBorder': '#005fb8', 'button-background': '#005fb8', 'button-foreground': '#ffffff', 'button-hoverBackground': '#0258a8',
      'button-secondaryBackground': '#e5e5e5', 'button-secondaryForeground': '#3b3b3b', 'list-hoverBackground': '#f2f2f2',
      'list-activeSelectionBackground': '#e8e8e8', 'list-activeSelectionForeground': '#000000', 'list-inactiveSelectionBackground': '#e4e6f1',
      'list-focusOutline': '#005fb8', 'list-dropBackground': '#d6ebff', 'descriptionForeground': '#3b3b3b', 'disabledForeground': '#8e8e8e',
      'errorForeground': '#f85149', 'editorWarning-foreground': '#bf8803', 'textLink-foreground': '#005fb8', 'badge-background': '#cccccc',
      'badge-foreground': '#3b3b3b', 'progressBar-background': '#005fb8', 'editorWidget-background': '#f8f8f8', 'widget-border': '#e5e5e5',
      'checkbox-background': '#f8f8f8', 'checkbox-border': '#cecece', 'checkbox-foreground': '#3b3b3b', 'panel-border': '#e5e5e5',
      'sideBarSectionHeader-background': '#f8f8f8', 'sideBarSectionHeader-foreground': '#3b3b3b', 'toolbar-hoverBackground': '#b8b8b850',
      'icon-foreground': '#3b3b3b',
    },
  };
  for (const [name, value] of Object.entries(themes[theme])) document.documentElement.style.setProperty(`--vscode-${name}`, value);
  document.documentElement.dataset.theme = theme;

  const key = `taskls-state-${new URL(location.href).search}`;
  let open = false;
  const queue = [];
  let chain = Promise.resolve();
  function send(message) {
    chain = chain.then(() => fetch(`/post?pane=${pane}`, { method: 'POST', body: JSON.stringify(message) })).catch(() => {});
  }
  const events = new EventSource(`/events?pane=${pane}`);
  events.onopen = () => { open = true; for (const message of queue.splice(0)) send(message); };
  events.onmessage = (event) => window.dispatchEvent(new MessageEvent('message', { data: JSON.parse(event.data) }));
  window.harness = { posted: [], pane, violations: [] };
  // The page must live within its Content-Security-Policy: the suite fails on any violation.
  document.addEventListener('securitypolicyviolation', (event) => window.harness.violations.push(`${event.violatedDirective} ${event.blockedURI}`));
  let acquired = false;
  window.acquireVsCodeApi = function () {
    if (acquired) throw new Error('An instance of the VS Code API has already been acquired');
    acquired = true;
    return {
      postMessage(message) {
        window.harness.posted.push(message);
        if (open) send(message); else queue.push(message);
      },
      getState() { const text = sessionStorage.getItem(key); return text ? JSON.parse(text) : undefined; },
      setState(state) { sessionStorage.setItem(key, JSON.stringify(state)); return state; },
    };
  };
}());

'use strict';
// The HTML of a list pane's webview: a strict Content-Security-Policy whose scripts must carry a
// fresh nonce, styles only from the extension's files, and no inline style or script. Pure:
// the extension and the Chromium harness build the same page.
const crypto = require('crypto');

/** 128 random bits, base64: a nonce for one page load. */
function nonce() {
  return crypto.randomBytes(16).toString('base64');
}

function escapeAttribute(text) {
  return String(text).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The page. `cspSource`: the webview's (`webview.cspSource`). `styles`, `scripts`: URIs (strings).
 * `nonce`: from `nonce()`. `title`: for the document. `connectSource`: only for the test harness,
 * whose page talks to its relay (the extension's page connects nowhere).
 */
function pageHtml({ cspSource, styles, scripts, nonce: token, title, connectSource }) {
  const policy = [
    "default-src 'none'",
    `style-src ${cspSource}`,
    `img-src ${cspSource} data:`,
    `font-src ${cspSource}`,
    `script-src 'nonce-${token}'`,
  ];
  if (connectSource) policy.push(`connect-src ${connectSource}`);
  const links = styles.map((href) => `<link rel="stylesheet" href="${escapeAttribute(href)}">`).join('\n  ');
  const tags = scripts.map((src) => `<script nonce="${escapeAttribute(token)}" src="${escapeAttribute(src)}"></script>`).join('\n  ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <meta http-equiv="Content-Security-Policy" content="${escapeAttribute(policy.join('; '))}">
  <meta name="viewport" content="width=device-width, initial-scale=1.0">
  ${links}
  <title>${escapeAttribute(title || 'Tasks')}</title>
</head>
<body>
  <div id="app"></div>
  ${tags}
</body>
</html>
`;
}

/** The files of the page, relative to the extension's folder, in load order. */
const pageFiles = {
  styles: ['media/pane.css'],
  scripts: ['src/words.js', 'src/viewModel.js', 'media/pane.js'],
};

module.exports = { nonce, pageHtml, pageFiles };

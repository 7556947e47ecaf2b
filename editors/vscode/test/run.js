'use strict';
// Runs every node test of the extension host against the real taskls and ends with one line a CI
// can count: `vscode: N passed, N failed`. Exit code 1 when any failed (or none ran).
//   node test/run.js [path/to/taskls]      (default: $TASKLS_BIN, else ../../.build/debug/taskls)
const childProcess = require('child_process');
const fs = require('fs');
const path = require('path');

const here = __dirname;
if (process.argv[2]) process.env.TASKLS_BIN = path.resolve(process.argv[2]);
const files = fs.readdirSync(here).filter((f) => f.endsWith('.test.js')).sort().map((f) => path.join(here, f));
const filter = process.env.TASKLS_TEST_FILTER ? ['--test-name-pattern', process.env.TASKLS_TEST_FILTER] : [];
const child = childProcess.spawn(process.execPath, ['--test', '--test-reporter=tap', ...filter, ...files], { stdio: ['ignore', 'pipe', 'inherit'], env: process.env });
let output = '';
child.stdout.on('data', (chunk) => { output += chunk; process.stdout.write(chunk); });
child.on('exit', (code) => {
  const count = (name) => { const m = new RegExp(`^# ${name} (\\d+)$`, 'm').exec(output); return m ? Number(m[1]) : 0; };
  const passed = count('pass');
  const failed = count('fail') + count('cancelled');
  process.stdout.write(`vscode: ${passed} passed, ${failed} failed\n`);
  process.exit(failed === 0 && passed > 0 && code === 0 ? 0 : 1);
});

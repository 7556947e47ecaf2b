'use strict';
// Stores for the Chromium suite, made by the real binary: `node fixture.js big N DIR` makes a list
// "Big" of N items "Task 1".."Task N" in DIR and prints its id.
const { drive } = require('../helpers');

async function main() {
  const [kind, count, store] = process.argv.slice(2);
  if (kind !== 'big') throw new Error(`unknown fixture ${kind}`);
  const first = await drive(store, [{ id: 1, method: 'lists/create', params: { name: 'Big' } }]);
  const list = first.get(1).result.list.id;
  const messages = [];
  for (let i = 1; i <= Number(count); i++) messages.push({ id: 10 + i, method: 'items/create', params: { list, title: `Task ${i}` } });
  await drive(store, messages);
  process.stdout.write(`${list}\n`);
}
main().catch((error) => { process.stderr.write(`${error.message}\n`); process.exit(1); });

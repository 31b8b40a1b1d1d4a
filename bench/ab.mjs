// Two builds of the engine (wasm, Node.js glue) side by side in one process, interleaved: each
// round times every workload on build A, then on build B, and the median of the per-round
// ratios A/B is printed (above 1: B is faster). On a loaded machine the rounds share the load,
// which `compare.mjs` (one library after the other) cannot promise. The workloads are the
// harness's point lookup, range + sort + limit, compound scan, unindexed count, the count through
// the price index, the unindexed top-1,000 sort, the two `$group`s, the insert of 20k
// products and the `$lookup` of 10k orders to 1k customers; both builds must return the same
// batch (or reply).
//
// Run: `node bench/ab.mjs <A sprout_node.js> <B sprout_node.js> [rounds] [workload,…]`
// (e.g. A = a copy of an earlier `target/bench-node/`, B = `target/bench-node/`).
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
const require = createRequire(import.meta.url);
const { BSON } = require('bson');
// Paths relative to the working directory (require alone would take `target/...` for a package).
// `SPROUT_AB_BYTES=1`: every build is handed the command's BSON bytes (js-bson's `serialize`),
// to measure changes behind the boundary alone. `SPROUT_AB_CPU=1`: each round is timed in the
// process's CPU time (`process.cpuUsage`) instead of wall time, so that the time the process
// waits for a core on a shared machine is left out (session 17).
const bytesOnly = process.env.SPROUT_AB_BYTES === '1';
const cpuTime = process.env.SPROUT_AB_CPU === '1';
const clock = cpuTime
  ? () => { const c = process.cpuUsage(); return (c.user + c.system) / 1000; }
  : () => performance.now();
const mods = [process.argv[2], process.argv[3]].map((p) => {
  const m = require(resolve(p));
  m.useBsonTypes?.(BSON); // where a build has it, as a user of the binding would
  return { M: m.NodeEngine, objects: !bytesOnly && m.takesCommandObjects?.() === true };
});
const rounds = +(process.argv[4] || 7);
function lcg(seed) { let s = BigInt(seed); return (n) => { s = (s * 6364136223846793005n + 1442695040888963407n) & 0xffffffffffffffffn; return Number((s >> 33n) % BigInt(n)); }; }
const CATEGORIES = ['books', 'games', 'music', 'garden', 'tools', 'toys'];
const below = lcg(7); const docs = [];
for (let i = 0; i < 20000; i++) docs.push({ _id: i, sku: 'sku' + String(i).padStart(7, '0'), price: below(100000) / 100, category: CATEGORIES[below(6)], stock: below(500) });
const eb = lcg(11); const ev = [];
const start = Date.UTC(2015, 0, 1); const paths = ['/', '/cart', '/search', '/product', '/checkout'];
for (let i = 0; i < 100000; i++) ev.push({ _id: i, ts: new Date(start + eb(31 * 86400) * 1000), bytes: eb(5000), path: paths[eb(5)] });
// `compare.mjs`'s customers and orders.
const cb = lcg(13); const customers = []; const orders = [];
for (let i = 0; i < 1000; i++) customers.push({ _id: i, name: 'customer ' + i });
for (let i = 0; i < 10000; i++) orders.push({ _id: i, cust: cb(1050), total: cb(1000) });
const engines = mods.map(({ M, objects }) => {
  const e = new M();
  // As a user of the binding calls it: `runCommandObject` (the reply as an object, or its BSON
  // bytes when the binding's decoder does not know a value's type) where the build has it, with
  // the command object where the build takes it, else its bytes; else `runCommandBson`.
  const run = objects
    ? (c) => { const r = e.runCommandObject('bench', c); return r instanceof Uint8Array ? BSON.deserialize(r) : r; }
    : typeof e.runCommandObject === 'function'
    ? (c) => { const r = e.runCommandObject('bench', BSON.serialize(c)); return r instanceof Uint8Array ? BSON.deserialize(r) : r; }
    : (c) => BSON.deserialize(e.runCommandBson('bench', BSON.serialize(c)));
  const cmd = (c) => { const r = run(c); if (r.ok !== 1) throw new Error(JSON.stringify(r)); return r; };
  for (let i = 0; i < docs.length; i += 1000) cmd({ insert: 'products', documents: docs.slice(i, i + 1000) });
  for (let i = 0; i < ev.length; i += 1000) cmd({ insert: 'events', documents: ev.slice(i, i + 1000) });
  for (let i = 0; i < customers.length; i += 1000) cmd({ insert: 'customers', documents: customers.slice(i, i + 1000) });
  for (let i = 0; i < orders.length; i += 1000) cmd({ insert: 'orders', documents: orders.slice(i, i + 1000) });
  cmd({ createIndexes: 'products', indexes: [{ key: { sku: 1 }, name: 'sku_1' }, { key: { price: 1 }, name: 'price_1' }] });
  return cmd;
});
const sku = (i) => 'sku' + String((i * 37) % 20000).padStart(7, '0');
const work = {
  // 3,000 lookups a round (40-100 ms): with 300, a round was ~10 ms and a loaded machine
  // spread the per-round ratios over 0.5-10x.
  lookup: [3000, (cmd, i) => cmd({ find: 'products', filter: { sku: sku(i) }, batchSize: 1e9 })],
  range: [100, (cmd) => cmd({ find: 'products', filter: { price: { $gte: 100, $lt: 200 }, category: 'books' }, sort: { price: -1 }, limit: 10, batchSize: 1e9 })],
  scan: [5, (cmd) => cmd({ find: 'products', filter: { category: 'games', stock: { $gt: 250 } }, batchSize: 1e9 })],
  count: [5, (cmd) => cmd({ aggregate: 'products', pipeline: [{ $match: { category: 'games', stock: { $gt: 250 } } }, { $group: { _id: 1, n: { $sum: 1 } } }], cursor: {} })],
  count_index: [5, (cmd) => cmd({ aggregate: 'products', pipeline: [{ $match: { price: { $gte: 100, $lt: 200 } } }, { $group: { _id: 1, n: { $sum: 1 } } }], cursor: {} })],
  sort: [2, (cmd) => cmd({ find: 'products', filter: {}, sort: { stock: -1, _id: 1 }, limit: 1000, batchSize: 1e9 })],
  group: [1, (cmd) => cmd({ aggregate: 'events', pipeline: [{ $group: { _id: { $dayOfMonth: '$ts' }, bytes: { $sum: '$bytes' }, hits: { $sum: 1 } } }, { $sort: { _id: 1 } }], cursor: { batchSize: 1e9 } })],
  // 20k products in batches of 1,000 into an empty collection, dropped after each round.
  insert: [1, (cmd) => { for (let i = 0; i < docs.length; i += 1000) cmd({ insert: 'fresh', documents: docs.slice(i, i + 1000) }); return cmd({ drop: 'fresh' }); }],
  // `compare.mjs`'s `$lookup` of 10k orders to 1k customers on `_id`.
  join: [1, (cmd) => cmd({ aggregate: 'orders', pipeline: [{ $lookup: { from: 'customers', localField: 'cust', foreignField: '_id', as: 'c' } }, { $project: { _id: 1, name: { $first: '$c.name' } } }], cursor: { batchSize: 1e9 } })],
  match_group: [1, (cmd) => cmd({ aggregate: 'events', pipeline: [{ $match: { path: { $ne: '/' }, bytes: { $gte: 1000 } } }, { $group: { _id: '$path', bytes: { $sum: '$bytes' }, hits: { $sum: 1 } } }, { $sort: { bytes: -1 } }], cursor: { batchSize: 1e9 } })],
};
const only = process.argv[5] ? process.argv[5].split(',') : Object.keys(work);
for (const name of only) {
  const [reps, f] = work[name];
  const same = engines.map((cmd) => { const r = f(cmd, 3); return JSON.stringify(r.cursor ? r.cursor.firstBatch : r); });
  if (same[0] !== same[1]) throw new Error(name + ': answers differ');
  const ratios = []; const ta = []; const tb = [];
  for (let r = 0; r < rounds; r++) {
    const t = engines.map((cmd) => { const t0 = clock(); for (let i = 0; i < reps; i++) f(cmd, i); return (clock() - t0) / reps; });
    ta.push(t[0]); tb.push(t[1]); ratios.push(t[0] / t[1]);
  }
  const med = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  console.log(`${name}: A ${med(ta).toFixed(3)} ms, B ${med(tb).toFixed(3)} ms, A/B median ${med(ratios).toFixed(2)}x (range ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)})`);
}

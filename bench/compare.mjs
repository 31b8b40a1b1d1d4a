// Sprout's engine (wasm, Node.js glue) beside mingo, LokiJS and NeDB in one process, on the same
// generated data: first every library must return the same answer to each query, then each
// workload is timed, every library alike (`measure`: warmed up, then rounds interleaving the
// libraries, the median of the per-round means), and the ratios to Sprout are printed (above
// 1: Sprout is faster).
//
// Sprout is called as a JavaScript user of the binding would: `runCommandObject` with the
// command object (which the binding encodes as the `bson` package's `serialize` would, or hands
// to that `serialize` when it holds a value the binding's encoder does not know), which returns
// the reply as the object js-bson's `deserialize` would make of its bytes (decoded by the
// binding's own decoder when it knows every value's type) or else its BSON bytes, which are then
// deserialised. An earlier build whose `runCommandObject` takes only bytes is given the command
// serialised with the `bson` package; one without `runCommandObject` is called through
// `runCommandBson` (the reply's bytes deserialised), one without that through its Extended JSON
// text method.
//
// Run: `cargo xtask bench-node` (builds the wasm module, installs the npm packages, runs this).
// Direct: `node bench/compare.mjs <path to sprout_node.js> [<path to an earlier sprout_node.js>]`:
// with a second module (an earlier build of the engine), it runs beside the first on every
// workload, so a change is measured before and after in one process (`sprout_before` column).
// The table is printed and written to `target/bench-node/compare.json` as
// `{"workloads": {name: {"sprout_ms", "sprout_before_ms"?, "mingo_ms", "lokijs_ms", "nedb_ms"}}}`.

import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { Aggregator, find as mingoFind } from 'mingo';
import Loki from 'lokijs';
import Datastore from '@seald-io/nedb';
import { BSON } from 'bson';

const require = createRequire(import.meta.url);
const glue = process.argv[2];
if (!glue) {
  console.error('usage: node bench/compare.mjs <path to sprout_node.js> [<earlier sprout_node.js>]');
  process.exit(2);
}
const { NodeEngine } = require(glue);
const beforeGlue = process.argv[3];
const BeforeEngine = beforeGlue ? require(beforeGlue).NodeEngine : null;
// Builds whose `runCommandObject` takes the command object itself (and encodes it as js-bson's
// `serialize` would); earlier ones are handed its BSON bytes.
const takesObjects = new Set(
  [glue, beforeGlue].filter((g) => g && require(g).takesCommandObjects?.()).map((g) => require(g).NodeEngine),
);
// As a user of the binding would: its reply decoder gets the bson package's ObjectId class
// (`useBsonTypes`, where a build has it; the generated data here has none).
for (const g of [glue, beforeGlue].filter(Boolean)) require(g).useBsonTypes?.(BSON);

// ---- data: a deterministic generator (64-bit LCG, as engine/benches use) ----------------------
function lcg(seed) {
  let s = BigInt(seed);
  return (n) => {
    s = (s * 6364136223846793005n + 1442695040888963407n) & 0xffffffffffffffffn;
    return Number((s >> 33n) % BigInt(n));
  };
}
const CATEGORIES = ['books', 'games', 'music', 'garden', 'tools', 'toys'];
function products(n) {
  const below = lcg(7);
  const out = [];
  for (let i = 0; i < n; i++) {
    out.push({
      _id: i,
      sku: 'sku' + String(i).padStart(7, '0'),
      price: below(100000) / 100,
      category: CATEGORIES[below(6)],
      stock: below(500),
    });
  }
  return out;
}
function events(n) {
  const below = lcg(11);
  const start = Date.UTC(2015, 0, 1);
  const paths = ['/', '/cart', '/search', '/product', '/checkout'];
  const out = [];
  for (let i = 0; i < n; i++) {
    out.push({ _id: i, ts: start + below(31 * 86400) * 1000, bytes: below(5000), path: paths[below(5)] });
  }
  return out;
}
function customersAndOrders(nc, no) {
  const below = lcg(13);
  const customers = [];
  for (let i = 0; i < nc; i++) customers.push({ _id: i, name: 'customer ' + i });
  const orders = [];
  for (let i = 0; i < no; i++) orders.push({ _id: i, cust: below(nc + 50), total: below(1000) });
  return { customers, orders };
}

// ---- Sprout through its command interface ------------------------------------------------------
class Sprout {
  constructor(Engine = NodeEngine) {
    this.e = new Engine();
    this.bson = typeof this.e.runCommandBson === 'function';
    this.object = typeof this.e.runCommandObject === 'function';
    this.commandObjects = takesObjects.has(Engine);
  }
  cmd(command) {
    let reply;
    if (this.object) {
      reply = this.e.runCommandObject('bench', this.commandObjects ? command : BSON.serialize(command));
      if (reply instanceof Uint8Array) reply = BSON.deserialize(reply);
    } else {
      reply = this.bson
        ? BSON.deserialize(this.e.runCommandBson('bench', BSON.serialize(command)))
        : JSON.parse(this.e.runCommand('bench', JSON.stringify(command)));
    }
    if (reply.ok !== 1) throw new Error('sprout: ' + JSON.stringify(reply).slice(0, 300));
    return reply;
  }
  // Dates as this boundary carries them: JavaScript Dates for BSON, `$date` for Extended JSON.
  dated(docs) {
    return this.bson ? asJsDates(docs) : asEjsonDates(docs);
  }
  insert(coll, docs) {
    for (let i = 0; i < docs.length; i += 1000) this.cmd({ insert: coll, documents: docs.slice(i, i + 1000) });
  }
  find(coll, filter, opts = {}) {
    return this.cmd({ find: coll, filter, ...opts, batchSize: 1e9 }).cursor.firstBatch;
  }
  aggregate(coll, pipeline) {
    return this.cmd({ aggregate: coll, pipeline, cursor: { batchSize: 1e9 } }).cursor.firstBatch;
  }
  // What the shell's countDocuments sends.
  countDocuments(coll, filter) {
    const r = this.aggregate(coll, [{ $match: filter }, { $group: { _id: 1, n: { $sum: 1 } } }]);
    return r.length ? r[0].n : 0;
  }
  updateMany(coll, filter, update) {
    return this.cmd({ update: coll, updates: [{ q: filter, u: update, multi: true }] }).nModified;
  }
  free() {
    this.e.free();
  }
}
const asEjsonDates = (docs) => docs.map((d) => ({ ...d, ts: { $date: new Date(d.ts).toISOString() } }));
const asJsDates = (docs) => docs.map((d) => ({ ...d, ts: new Date(d.ts) }));

// ---- timing ------------------------------------------------------------------------------------
// Every library of a row is timed the same way, interleaved (`measure`):
// - warm-up, untimed: at least `warm` calls (the first was the answer checked) and at least
//   `warmMs` of calls, but no more than `warmMaxMs` once one call is made, so that V8 has tiered
//   every library's code up before it is timed (a row timed right after setup measured mostly
//   that, session 15);
// - the number of calls per round is then set so that a round of every library lasts about
//   `roundMs` (at least one call; the clock is read per round, not per call), from the fastest
//   of three batches of calls that last about a quarter of a round;
// - `rounds` rounds, each timing every library in turn, the first library another one each
//   round (a collector pause or a load change on the shared machine falls in one library's
//   round, not on one library's whole figure);
// - the figure is the median of a library's per-round means (`spread` on stderr: the lowest and
//   highest per-round mean).
// A function's `i` numbers its calls, so that a workload can vary its query (the point lookups).
// An entry is a function, `{fn, async: true}` for a library that answers through a promise
// (awaited per call), or null/undefined for a library that does not run the workload.
async function measure(entries, { warm = 1, warmMs = 300, warmMaxMs = 1500, roundMs = 40, rounds = 11, maxReps = 1e6 } = {}) {
  const libs = Object.entries(entries)
    .filter(([, e]) => e != null)
    .map(([name, e]) => ({ name, fn: e.fn ?? e, async: e.async === true, i: 0, reps: 1, means: [] }));
  const run = async (lib, n) => {
    const { fn } = lib;
    let i = lib.i;
    if (lib.async) for (let k = 0; k < n; k++) await fn(i++);
    else for (let k = 0; k < n; k++) fn(i++);
    lib.i = i;
  };
  for (const lib of libs) {
    const t0 = performance.now();
    let calls = 0;
    for (;;) {
      await run(lib, 1);
      calls++;
      const spent = performance.now() - t0;
      if ((calls >= warm && spent >= warmMs) || spent >= warmMaxMs) break;
    }
    // Calls per round: from a batch of calls timed after the warm-up (doubled until it lasts a
    // quarter of a round), not from the warm-up, whose first calls are the slow ones.
    if (roundMs === 0) continue; // one call per round
    const batch = async (n) => {
      const t1 = performance.now();
      await run(lib, n);
      return performance.now() - t1;
    };
    let n = 1;
    let spent = await batch(n);
    while (spent < roundMs / 4 && n < maxReps) {
      n *= 2;
      spent = await batch(n);
    }
    // The fastest of three such batches: one that a pause or the load stretched would make the
    // rounds too short.
    spent = Math.min(spent, await batch(n), await batch(n));
    lib.reps = Math.max(1, Math.min(maxReps, Math.round((n * roundMs) / Math.max(spent, 1e-3))));
  }
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < libs.length; k++) {
      const lib = libs[(r + k) % libs.length];
      const t0 = performance.now();
      await run(lib, lib.reps);
      lib.means.push((performance.now() - t0) / lib.reps);
    }
  }
  const out = {};
  for (const name of Object.keys(entries)) out[name] = null;
  for (const lib of libs) {
    out[lib.name] = median(lib.means);
    spreads[lib.name] = [Math.min(...lib.means), Math.max(...lib.means), lib.reps];
  }
  return out;
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
// Workloads of tens or hundreds of milliseconds a call: rounds of one or two calls, fewer rounds.
const SLOW = { rounds: 5, roundMs: 100 };
// Per library, the last `measure`'s lowest and highest per-round mean and calls per round.
let spreads = {};

const ids = (docs) => docs.map((d) => d._id);
const sortedIds = (docs) => ids(docs).sort((a, b) => a - b);
function same(label, answers) {
  const [first, ...rest] = Object.entries(answers);
  for (const [name, a] of rest) {
    if (JSON.stringify(a) !== JSON.stringify(first[1])) {
      throw new Error(`${label}: ${name} answers ${JSON.stringify(a).slice(0, 200)}, ` +
        `${first[0]} answers ${JSON.stringify(first[1]).slice(0, 200)}`);
    }
  }
}

// Times `fill(fresh())` for every library alike, as `measure` does: one untimed round each, then
// `rounds` rounds, each filling a fresh store per library (the one before freed) with the
// libraries interleaved and the first one rotated; the median per library, and its last store.
// An entry is `{fresh, fill, free}`, or null for a library that does not run the workload.
async function timeInserts(entries, rounds = 7) {
  const libs = Object.entries(entries)
    .filter(([, e]) => e != null)
    .map(([name, e]) => ({ name, ...e, store: null, times: [] }));
  const once = async (lib) => {
    if (lib.store !== null) lib.free(lib.store);
    lib.store = lib.fresh();
    const t0 = performance.now();
    await lib.fill(lib.store);
    return performance.now() - t0;
  };
  for (const lib of libs) await once(lib);
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < libs.length; k++) {
      const lib = libs[(r + k) % libs.length];
      lib.times.push(await once(lib));
    }
  }
  const out = {};
  for (const name of Object.keys(entries)) out[name] = { store: null, ms: null };
  for (const lib of libs) {
    out[lib.name] = { store: lib.store, ms: median(lib.times) };
    spreads[lib.name] = [Math.min(...lib.times), Math.max(...lib.times), 1];
  }
  return out;
}

const results = [];
function report(workload, timings) {
  results.push({ workload, ...timings });
  const ms = Object.entries(timings).map(([k, v]) => {
    const sp = spreads[k];
    const range = v == null || !sp ? '' : ` (rounds ${sp[0].toFixed(3)}–${sp[1].toFixed(3)}, ${sp[2]} calls each)`;
    return `${k} ${v == null ? '—' : v.toFixed(3)}${range}`;
  });
  console.error(`${workload}: ${ms.join(', ')} ms`);
  spreads = {};
}

// ---- workloads ---------------------------------------------------------------------------------
const N = 20000;
const docs = products(N);

// Insert 20k (no secondary indexes yet), warm: the median of seven interleaved rounds, each into a
// fresh store.
const sproutInsert = (Engine) => ({
  fresh: () => new Sprout(Engine),
  fill: (s) => s.insert('products', docs),
  free: (s) => s.free(),
});
const ins = await timeInserts({
  sprout: sproutInsert(NodeEngine),
  sprout_before: BeforeEngine && sproutInsert(BeforeEngine),
  mingo: { fresh: () => [], fill: (a) => { for (const d of docs) a.push({ ...d }); }, free: () => {} },
  lokijs: {
    fresh: () => new Loki('bench.db').addCollection('products', { unique: ['sku'] }),
    fill: (c) => c.insert(docs.map((d) => ({ ...d }))),
    free: () => {},
  },
  nedb: {
    fresh: () => new Datastore({ inMemoryOnly: true }),
    fill: (db) => db.insertAsync(docs.map((d) => ({ ...d }))),
    free: () => {},
  },
});
const sprout = ins.sprout.store;
const before = ins.sprout_before.store;
const mingoArray = ins.mingo.store;
const lokiColl = ins.lokijs.store;
const nedb = ins.nedb.store;
report('insert 20k documents', {
  sprout: ins.sprout.ms, sprout_before: ins.sprout_before.ms, mingo: ins.mingo.ms, lokijs: ins.lokijs.ms, nedb: ins.nedb.ms,
});

// Indexes on sku and price where the library has indexes (mingo has none).
for (const s of [sprout, before].filter(Boolean)) {
  s.cmd({ createIndexes: 'products', indexes: [{ key: { sku: 1 }, name: 'sku_1' }, { key: { price: 1 }, name: 'price_1' }] });
}
lokiColl.ensureIndex('price');
await nedb.ensureIndexAsync({ fieldName: 'sku' });
await nedb.ensureIndexAsync({ fieldName: 'price' });

// Indexed equality: 500 point lookups by sku.
const skuOf = (i) => 'sku' + String((i * 37) % N).padStart(7, '0');
{
  const q = (i) => ({ sku: skuOf(i) });
  same('point lookup', {
    sprout: ids(sprout.find('products', q(3))),
    ...(before && { sprout_before: ids(before.find('products', q(3))) }),
    mingo: ids(mingoFind(mingoArray, q(3)).all()),
    lokijs: ids(lokiColl.find(q(3))),
    nedb: ids(await nedb.findAsync(q(3))),
  });
  // Each library warmed up by at least 3,000 lookups (mingo, a thousand times slower, by 20): the
  // first few thousand calls run slower for Sprout and NeDB alike while V8 tiers their code up,
  // so 500 timed right after setup measured mostly that (docs/performance.md, session 15).
  report('indexed equality (sku), per lookup', await measure({
    sprout: (i) => sprout.find('products', q(i)),
    sprout_before: before && ((i) => before.find('products', q(i))),
    mingo: (i) => mingoFind(mingoArray, q(i)).all(),
    lokijs: (i) => lokiColl.find(q(i)),
    nedb: { fn: (i) => nedb.findAsync(q(i)), async: true },
  }, { warm: 3000 }));
}

// Range + sort + limit: the ten dearest books between 100 and 200. LokiJS reads only the first
// operator of `{$gte, $lt}` on one field (it returns every book from 100 up), so it gets the
// same range written as an `$and`, which it evaluates fully.
{
  const q = { price: { $gte: 100, $lt: 200 }, category: 'books' };
  const lokiQ = { $and: [{ price: { $gte: 100 } }, { price: { $lt: 200 } }, { category: 'books' }] };
  same('range sort limit', {
    sprout: ids(sprout.find('products', q, { sort: { price: -1 }, limit: 10 })),
    ...(before && { sprout_before: ids(before.find('products', q, { sort: { price: -1 }, limit: 10 })) }),
    mingo: ids(mingoFind(mingoArray, q).sort({ price: -1 }).limit(10).all()),
    lokijs: ids(lokiColl.chain().find(lokiQ).simplesort('price', { desc: true }).limit(10).data()),
    nedb: ids(await nedb.findAsync(q).sort({ price: -1 }).limit(10)),
  });
  report('range + sort + limit, per query', await measure({
    sprout: () => sprout.find('products', q, { sort: { price: -1 }, limit: 10 }),
    sprout_before: before && (() => before.find('products', q, { sort: { price: -1 }, limit: 10 })),
    mingo: () => mingoFind(mingoArray, q).sort({ price: -1 }).limit(10).all(),
    lokijs: () => lokiColl.chain().find(lokiQ).simplesort('price', { desc: true }).limit(10).data(),
    nedb: { fn: () => nedb.findAsync(q).sort({ price: -1 }).limit(10), async: true },
  }));
}

// Collection scan with a compound filter on unindexed fields.
{
  const q = { category: 'games', stock: { $gt: 250 } };
  same('compound scan', {
    sprout: sortedIds(sprout.find('products', q)),
    ...(before && { sprout_before: sortedIds(before.find('products', q)) }),
    mingo: sortedIds(mingoFind(mingoArray, q).all()),
    lokijs: sortedIds(lokiColl.find(q)),
    nedb: sortedIds(await nedb.findAsync(q)),
  });
  report('collection scan, compound filter, per query', await measure({
    sprout: () => sprout.find('products', q),
    sprout_before: before && (() => before.find('products', q)),
    mingo: () => mingoFind(mingoArray, q).all(),
    lokijs: () => lokiColl.find(q),
    nedb: { fn: () => nedb.findAsync(q), async: true },
  }));
}

// Aggregation (Sprout and mingo; LokiJS and NeDB have no pipeline): $group by a date part.
{
  const ev = events(100000);
  const s = new Sprout();
  s.insert('events', s.dated(ev));
  const b = BeforeEngine && new Sprout(BeforeEngine);
  if (b) b.insert('events', b.dated(ev));
  const mingoEvents = asJsDates(ev);
  const pipeline = [
    { $group: { _id: { $dayOfMonth: '$ts' }, bytes: { $sum: '$bytes' }, hits: { $sum: 1 } } },
    { $sort: { _id: 1 } },
  ];
  same('$group by day', {
    sprout: s.aggregate('events', pipeline),
    ...(b && { sprout_before: b.aggregate('events', pipeline) }),
    mingo: new Aggregator(pipeline).run(mingoEvents),
  });
  report('$group by $dayOfMonth + $sum, 100k events', await measure({
    sprout: () => s.aggregate('events', pipeline),
    sprout_before: b && (() => b.aggregate('events', pipeline)),
    mingo: () => new Aggregator(pipeline).run(mingoEvents),
  }, SLOW));
  // As in book B chapter 8: filter, group, order the groups.
  const report8 = [
    { $match: { path: { $ne: '/' }, bytes: { $gte: 1000 } } },
    { $group: { _id: '$path', bytes: { $sum: '$bytes' }, hits: { $sum: 1 } } },
    { $sort: { bytes: -1 } },
  ];
  same('$match + $group + $sort', {
    sprout: s.aggregate('events', report8),
    ...(b && { sprout_before: b.aggregate('events', report8) }),
    mingo: new Aggregator(report8).run(mingoEvents),
  });
  report('$match + $group + $sort, 100k events', await measure({
    sprout: () => s.aggregate('events', report8),
    sprout_before: b && (() => b.aggregate('events', report8)),
    mingo: () => new Aggregator(report8).run(mingoEvents),
  }, SLOW));
  s.free();
  if (b) b.free();
}

// $lookup: 10k orders joined to 1k customers on _id.
{
  const { customers, orders } = customersAndOrders(1000, 10000);
  const s = new Sprout();
  s.insert('customers', customers);
  s.insert('orders', orders);
  const b = BeforeEngine && new Sprout(BeforeEngine);
  if (b) { b.insert('customers', customers); b.insert('orders', orders); }
  const pipeline = [
    { $lookup: { from: 'customers', localField: 'cust', foreignField: '_id', as: 'c' } },
    { $project: { _id: 1, name: { $first: '$c.name' } } },
  ];
  const options = { collectionResolver: (name) => (name === 'customers' ? customers : []) };
  same('$lookup', {
    sprout: s.aggregate('orders', pipeline),
    ...(b && { sprout_before: b.aggregate('orders', pipeline) }),
    mingo: new Aggregator(pipeline, options).run(orders),
  });
  report('$lookup 10k orders x 1k customers', await measure({
    sprout: () => s.aggregate('orders', pipeline),
    sprout_before: b && (() => b.aggregate('orders', pipeline)),
    mingo: () => new Aggregator(pipeline, options).run(orders),
  }, SLOW));
  s.free();
  if (b) b.free();
}

// 100k products: a sort without an index, counts with and without an index, updateMany.
{
  const big = products(100000);
  const s = new Sprout();
  s.insert('big', big);
  const b = BeforeEngine && new Sprout(BeforeEngine);
  if (b) b.insert('big', big);
  const sprouts = [s, b].filter(Boolean);
  for (const x of sprouts) x.cmd({ createIndexes: 'big', indexes: [{ key: { price: 1 }, name: 'price_1' }] });
  const mingoBig = big.map((d) => ({ ...d }));
  const lokiBig = new Loki('big.db').addCollection('big');
  lokiBig.insert(big.map((d) => ({ ...d })));
  lokiBig.ensureIndex('price');
  const nedbBig = new Datastore({ inMemoryOnly: true });
  await nedbBig.insertAsync(big.map((d) => ({ ...d })));
  await nedbBig.ensureIndexAsync({ fieldName: 'price' });

  // $sort on an unindexed field over 100k documents, the first 1,000 returned.
  const sortSpec = { stock: -1, _id: 1 };
  same('unindexed sort', {
    sprout: ids(s.find('big', {}, { sort: sortSpec, limit: 1000 })),
    ...(b && { sprout_before: ids(b.find('big', {}, { sort: sortSpec, limit: 1000 })) }),
    mingo: ids(mingoFind(mingoBig, {}).sort(sortSpec).limit(1000).all()),
    lokijs: ids(lokiBig.chain().compoundsort([['stock', true], '_id']).limit(1000).data()),
    nedb: ids(await nedbBig.findAsync({}).sort(sortSpec).limit(1000)),
  });
  report('sort without an index over 100k, first 1,000', await measure({
    sprout: () => s.find('big', {}, { sort: sortSpec, limit: 1000 }),
    sprout_before: b && (() => b.find('big', {}, { sort: sortSpec, limit: 1000 })),
    mingo: () => mingoFind(mingoBig, {}).sort(sortSpec).limit(1000).all(),
    lokijs: () => lokiBig.chain().compoundsort([['stock', true], '_id']).limit(1000).data(),
    nedb: { fn: () => nedbBig.findAsync({}).sort(sortSpec).limit(1000), async: true },
  }, SLOW));

  // countDocuments without an index (compound filter) and through the price index.
  const scanQ = { category: 'games', stock: { $gt: 250 } };
  const rangeQ = { price: { $gte: 100, $lt: 200 } };
  const lokiRangeQ = { $and: [{ price: { $gte: 100 } }, { price: { $lt: 200 } }] };
  for (const [label, q, lokiQ] of [['without an index', scanQ, scanQ], ['through an index', rangeQ, lokiRangeQ]]) {
    same('countDocuments ' + label, {
      sprout: s.countDocuments('big', q),
      ...(b && { sprout_before: b.countDocuments('big', q) }),
      mingo: mingoFind(mingoBig, q).all().length,
      lokijs: lokiBig.count(lokiQ),
      nedb: await nedbBig.countAsync(q),
    });
    report('countDocuments ' + label + ', 100k', await measure({
      sprout: () => s.countDocuments('big', q),
      sprout_before: b && (() => b.countDocuments('big', q)),
      mingo: () => mingoFind(mingoBig, q).all().length,
      lokijs: () => lokiBig.count(lokiQ),
      nedb: { fn: () => nedbBig.countAsync(q), async: true },
    }));
  }

  // updateMany with $inc over all 100k (mingo has no storage to update: null).
  const all = { stock: { $gte: 0 } };
  const lokiInc = () => lokiBig.findAndUpdate(all, (d) => { d.stock += 1; });
  same('updateMany $inc', {
    sprout: s.updateMany('big', all, { $inc: { stock: 1 } }),
    ...(b && { sprout_before: b.updateMany('big', all, { $inc: { stock: 1 } }) }),
    lokijs: (lokiInc(), lokiBig.count(all)),
    nedb: (await nedbBig.updateAsync(all, { $inc: { stock: 1 } }, { multi: true })).numAffected,
  });
  // Seconds per call for LokiJS: one warm-up call and three rounds of one call each (as before).
  // `roundMs: 0`: one call per round, no calls to size the rounds.
  report('updateMany $inc over 100k', await measure({
    sprout: () => s.updateMany('big', all, { $inc: { stock: 1 } }),
    sprout_before: b && (() => b.updateMany('big', all, { $inc: { stock: 1 } })),
    mingo: null,
    lokijs: lokiInc,
    nedb: { fn: () => nedbBig.updateAsync(all, { $inc: { stock: 1 } }, { multi: true }), async: true },
  }, { warmMs: 0, roundMs: 0, rounds: 3 }));
  for (const x of sprouts) x.free();
}

// A text search (only Sprout has text indexes: the others are null).
{
  const words = ['apple', 'river', 'stone', 'cloud', 'garden', 'lamp', 'paper', 'tiger'];
  const below = lcg(17);
  const notes = [];
  for (let i = 0; i < 20000; i++) {
    notes.push({ _id: i, body: Array.from({ length: 8 }, () => words[below(words.length)]).join(' ') });
  }
  const s = new Sprout();
  s.insert('notes', notes);
  const b = BeforeEngine && new Sprout(BeforeEngine);
  if (b) b.insert('notes', notes);
  for (const x of [s, b].filter(Boolean)) x.cmd({ createIndexes: 'notes', indexes: [{ key: { body: 'text' }, name: 'body_text' }] });
  const q = { $text: { $search: 'tiger lamp' } };
  const expected = notes.filter((n) => /\b(tiger|lamp)\b/.test(n.body)).length;
  same('text search', {
    expected,
    sprout: s.find('notes', q).length,
    ...(b && { sprout_before: b.find('notes', q).length }),
  });
  report('text search, 20k notes', await measure({
    sprout: () => s.find('notes', q),
    sprout_before: b && (() => b.find('notes', q)),
    mingo: null,
    lokijs: null,
    nedb: null,
  }, SLOW));
  s.free();
  if (b) b.free();
}

// ---- report ------------------------------------------------------------------------------------
const libs = ['sprout', ...(BeforeEngine ? ['sprout_before'] : []), 'mingo', 'lokijs', 'nedb'];
const others = libs.slice(1);
const fmt = (ms) => (ms == null ? '—' : ms < 1 ? ms.toFixed(3) : ms.toFixed(1));
const ratio = (r, lib) => (r[lib] == null ? '—' : (r[lib] / r.sprout).toFixed(2) + '×');
console.log('All libraries returned the same answers.');
console.log('\n| workload | ' + libs.map((l) => l + ' ms').join(' | ') + ' | ' +
  others.map((l) => l + ' / sprout').join(' | ') + ' |');
console.log('|---|' + libs.map(() => '---:').join('|') + '|' + others.map(() => '---:').join('|') + '|');
for (const r of results) {
  console.log('| ' + r.workload + ' | ' + libs.map((l) => fmt(r[l])).join(' | ') + ' | ' +
    others.map((l) => ratio(r, l)).join(' | ') + ' |');
}
{
  const { mkdirSync, writeFileSync } = await import('node:fs');
  const { dirname, join } = await import('node:path');
  const out = join(dirname(glue), 'compare.json');
  const workloads = {};
  for (const r of results) {
    workloads[r.workload] = Object.fromEntries(libs.map((l) => [l + '_ms', r[l] ?? null]));
  }
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify({ workloads }, null, 2) + '\n');
  console.log(`\nwritten: ${out}`);
}
console.log(`\nnode ${process.version}; mingo ${require('mingo/package.json').version}, ` +
  `lokijs ${require('lokijs/package.json').version}, @seald-io/nedb ${require('@seald-io/nedb/package.json').version}`);

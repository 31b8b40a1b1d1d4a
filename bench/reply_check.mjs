// Checks that the binding's `runCommandObject` hands out exactly what js-bson's `deserialize`
// makes of `runCommandBson`'s reply: the same values of the same types (numbers, -0 and NaN
// included, Dates, strings), the same keys in the same order, own `__proto__` fields, and the
// BSON bytes (not an object) whenever a reply holds a type the binding's decoder leaves to
// js-bson (ObjectId, Long beyond 2^53, Decimal128, Binary, Timestamp, regex, MinKey, MaxKey,
// code; ObjectId unless the bson package's types were handed over with `useBsonTypes`) or a
// `$`-prefixed field name. And, for builds that take the command object, that the binding
// encodes it into the bytes js-bson's `serialize` makes of it.
//
// Run: `node bench/reply_check.mjs <sprout_node.js>` (e.g. target/bench-node/sprout_node.js).
import { createRequire } from 'node:module';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
const require = createRequire(import.meta.url);
const BSON = require('bson');
const { NodeEngine, useBsonTypes } = require(process.argv[2]);

const e = new NodeEngine();
const bytesReply = (c) => BSON.BSON.deserialize(e.runCommandBson('t', BSON.BSON.serialize(c)));
const objectReply = (c) => e.runCommandObject('t', BSON.BSON.serialize(c));

// Same values, types, key order and property kinds, recursively.
function same(a, b, where) {
  if (typeof b === 'number') {
    assert.ok(typeof a === 'number' && Object.is(a, b), `${where}: ${a} vs ${b}`);
    return;
  }
  if (b === null || typeof b !== 'object') {
    assert.ok(Object.is(a, b), `${where}: ${String(a)} vs ${String(b)}`);
    return;
  }
  assert.equal(Object.getPrototypeOf(a), Object.getPrototypeOf(b), `${where}: prototype`);
  if (b instanceof Date) {
    assert.ok(Object.is(a.getTime(), b.getTime()), `${where}: date`);
    return;
  }
  assert.deepEqual(Reflect.ownKeys(a), Reflect.ownKeys(b), `${where}: keys`);
  for (const k of Reflect.ownKeys(b)) same(a[k], b[k], `${where}.${String(k)}`);
}

const plain = [
  { _id: 1, s: 'text', d: 2.5, i: 7, neg0: -0, nan: NaN, inf: -Infinity, big: 1e300, t: true, f: false, n: null },
  { _id: 2, u: 'é€😀 \u0000 "quoted" \\ \n', long: BSON.Long.fromNumber(2 ** 53), longNeg: BSON.Long.fromNumber(-(2 ** 53)), small: BSON.Long.fromNumber(-5) },
  { _id: 3, nested: { a: [1, 'x', { b: [] }, [], {}], c: { d: { e: 1 } } }, arr: [[1, [2, [3]]]] },
  { _id: 4, date: new Date(Date.UTC(2020, 1, 29, 12, 0, 0, 5)), before: new Date(-1e12), dates: [new Date(0)] },
  { _id: 5, 2: 'integer-like name', b: 1, 1: 'another', ['__proto__']: { polluted: true } },
  { _id: 6, undef: undefined, arr: [undefined, null] },
  { _id: 7, longString: 'x'.repeat(100) + 'é'.repeat(40), sku: 'sku0000007' },
  // Names that begin like the name at the same place in the document before, or end sooner.
  { _id: 8, ab: 1, abc: { ab: 2, a: 3 } },
  { _id: 9, abc: 1, ab: { abc: 2, '': 3 } },
  { _id: 10, a: 1, ab: { '': 2, a: 3 } },
];
// The `__proto__` key above is an own property of each document (computed key).
const others = [
  { _id: 20, o: new BSON.ObjectId('0123456789abcdef01234567') },
  { _id: 21, l: BSON.Long.fromString('9007199254740993') },
  { _id: 22, l: BSON.Long.fromString('-9007199254740993') },
  { _id: 23, d: BSON.Decimal128.fromString('1.5') },
  { _id: 24, b: new BSON.Binary(Buffer.from([1, 2])) },
  { _id: 25, ts: new BSON.Timestamp({ t: 1, i: 2 }) },
  { _id: 26, r: /ab+c/i },
  { _id: 27, k: new BSON.MinKey(), m: new BSON.MaxKey() },
  { _id: 28, deep: { a: [1, { ref: new BSON.ObjectId('0123456789abcdef01234567') }] } },
  { _id: 29, dbref: { $ref: 'c', $id: 1 } },
];
// Documents of one shape in a row (the decoder then makes them from one object literal), names
// that need escaping in a literal, `__proto__` in a repeated shape, a shape that loses or gains
// a field, documents wider than the decoder's 32 name slots, and same-shape documents in arrays.
const wide = (id, n) => Object.fromEntries([['_id', id], ...Array.from({ length: n }, (_, k) => ['f' + k, k])]);
const shapes = [
  ...[1, 2, 3, 4].map((i) => ({ _id: i, 'q"uote': i, 'back\\slash': 'b', '\u2028': 3, 'é': 4, 10: 'int', '': 0, v: i % 2 ? 'é' : 'e', w: i % 2 ? 'ab' : 'é' })),
  ...[5, 6, 7].map((i) => ({ _id: i, ['__proto__']: { x: i }, b: 1 })),
  ...[8, 9, 10].map((i) => ({ _id: i, a: 1, b: 2 })),
  ...[11, 12, 13, 14].map((i) => ({ _id: i, a: 1 })),
  { _id: 15, a: 1, b: 2 },
  ...[16, 17, 18].map((i) => wide(i, 40)),
  ...[19, 20, 21].map((i) => wide(i, 4)),
  ...[22, 23].map((i) => wide(i, 31)),
  ...[24, 25, 26].map((i) => ({ _id: i, items: [{ a: 1, b: 2 }, { a: 3, b: { c: [{ d: 1 }, { d: 2 }, { d: 3 }] } }, { a: 5, b: 6 }, { a: 1 }, {}] })),
];
// Runs of documents of one layout (the same field types and names in order: the decoder then
// compiles a decoder for that layout), with every type it reads, then documents that differ from
// the run in one place: a type, a name of the same length, a name longer or shorter, a field
// more or less, a value it does not read in place; runs of two layouts alternating.
const run = (from, n, make) => Array.from({ length: n }, (_, k) => make(from + k, k));
const layout = (i, k) => ({
  _id: i, s: 'sku' + String(i).padStart(7, '0'), d: i / 7, c: ['books', 'games'][k % 2], n: k, t: k % 2 === 0,
  z: null, u: undefined, dt: new Date(1e12 + i), l: BSON.Long.fromNumber(2 ** 40 + i), sub: { a: i, b: 'x' }, arr: [i, 'y'],
  e: '', w: k % 3 ? 'é' : 'plain',
});
const layouts = [
  ...run(100, 6, layout),
  { ...layout(106, 0), n: 1.5 }, // a type changed
  ...run(107, 3, layout),
  { ...layout(110, 0), s: null },
  { ...layout(111, 0), x: 1 }, // a field more
  (({ t, ...rest }) => rest)(layout(112, 0)), // a field less
  ...run(113, 2, layout),
  Object.fromEntries(Object.entries(layout(115, 0)).map(([k, v]) => [k === 'c' ? 'C' : k, v])), // same length
  Object.fromEntries(Object.entries(layout(116, 0)).map(([k, v]) => [k === 'c' ? 'cc' : k, v])), // longer
  Object.fromEntries(Object.entries(layout(117, 0)).map(([k, v]) => [k === 'sub' ? 'su' : k, v])), // shorter
  { ...layout(118, 0), sub: { a: 1.5, b: 'x' } }, // the embedded document's layout changed
  { ...layout(119, 0), t: 5 },
  ...run(120, 8, (i, k) => (k % 2 ? { _id: i, a: 'x', b: k } : { _id: i, b: 'y', a: k })),
  ...run(130, 5, (i) => ({ _id: i, ['__proto__']: { x: i }, b: 1 })),
  ...run(140, 5, (i) => ({ _id: i, a: i })),
  ...run(150, 5, layout),
];
bytesReply({ insert: 'layouts', documents: layouts });
// Runs of one layout, then one document the decoder leaves to js-bson (the reply as bytes).
const afterRuns = [
  { _id: 1, l: BSON.Long.fromString('9007199254740993') },
  { _id: 2, l: BSON.Long.fromString('-9007199254740993') },
  { _id: 3, o: new BSON.ObjectId('0123456789abcdef01234567') },
  { _id: 4, t: new BSON.Timestamp({ t: 1, i: 2 }) },
];
afterRuns.forEach((bad, k) => {
  const docs = [...run(1000 * (k + 1), 6, (i) => ({ _id: i, l: BSON.Long.fromNumber(i), o: 1, t: 2 })), { ...bad, _id: 1000 * (k + 1) + 6 }];
  bytesReply({ insert: 'afterRun' + k, documents: docs });
});
bytesReply({ insert: 'shapes', documents: shapes });
bytesReply({ insert: 'plain', documents: plain });
bytesReply({ insert: 'others', documents: others });

let objects = 0;
let fallbacks = 0;
const check = (command) => {
  const want = bytesReply(command);
  let got = objectReply(command);
  if (got instanceof Uint8Array) {
    fallbacks++;
    got = BSON.BSON.deserialize(got);
  } else {
    objects++;
  }
  same(got, want, JSON.stringify(command));
  return got;
};
check({ find: 'plain', filter: {}, batchSize: 1e9 });
for (const p of plain) check({ find: 'plain', filter: { _id: p._id } });
for (let r = 0; r < 3; r++) {
  const got = check({ find: 'shapes', filter: {}, batchSize: 1e9 }).cursor.firstBatch;
  assert.notEqual(got[0], got[1], 'every document its own object');
  check({ find: 'shapes', filter: { _id: { $gte: 16 } }, batchSize: 1e9 });
  check({ find: 'shapes', filter: {}, sort: { _id: -1 }, batchSize: 1e9 });
}
for (let r = 0; r < 3; r++) {
  check({ find: 'layouts', filter: {}, batchSize: 1e9 });
  check({ find: 'layouts', filter: {}, sort: { _id: -1 }, batchSize: 1e9 });
  for (const id of [100, 106, 110, 119, 150, 125]) check({ find: 'layouts', filter: { _id: id } });
}
assert.equal(fallbacks, 0, 'plain documents come out as objects');
afterRuns.forEach((_, k) => {
  for (const oids of [null, BSON]) {
    useBsonTypes(oids);
    const before = fallbacks;
    check({ find: 'afterRun' + k, filter: {}, batchSize: 1e9 });
    check({ find: 'afterRun' + k, filter: { _id: { $lt: 1000 * (k + 1) + 6 } }, batchSize: 1e9 });
    const inPlace = k === 2 && oids !== null;
    assert.equal(fallbacks, before + (inPlace ? 0 : 1), `afterRun${k}: after a run, the reply as bytes`);
  }
  useBsonTypes(null);
});
for (const o of others) {
  const before = fallbacks;
  check({ find: 'others', filter: { _id: o._id } });
  assert.equal(fallbacks, before + 1, `document ${o._id} comes out as bytes`);
}
// Other commands' replies: a count, an error, an aggregation, a write error.
check({ count: 'plain' });
check({ find: 'plain', filter: { $bad: 1 } });
check({ aggregate: 'plain', pipeline: [{ $group: { _id: null, n: { $sum: 1 }, d: { $max: '$date' } } }], cursor: {} });
check({ insert: 'plain', documents: [{ _id: 1 }] });
// Given the bson package's types, ObjectIds (documents 20 and 28) are decoded in place too, into
// its ObjectId instances; the other types still come back as bytes.
useBsonTypes(BSON);
for (const o of others) {
  const before = fallbacks;
  check({ find: 'others', filter: { _id: o._id } });
  const inPlace = o._id === 20 || o._id === 28;
  assert.equal(fallbacks, inPlace ? before : before + 1, `document ${o._id} with the bson types`);
}
const ids = Array.from({ length: 50 }, () => ({ _id: new BSON.ObjectId(), n: 1 }));
bytesReply({ insert: 'oids', documents: ids });
const batch = check({ find: 'oids', filter: {}, batchSize: 1e9 });
assert.ok(batch.cursor.firstBatch.every((d) => d._id instanceof BSON.ObjectId), 'ObjectId instances');
useBsonTypes(null);
const before = fallbacks;
check({ find: 'oids', filter: {}, batchSize: 1e9 });
assert.equal(fallbacks, before + 1, 'useBsonTypes(null): ObjectIds come back as bytes again');
console.log(`runCommandObject: ${objects} replies as objects, ${fallbacks} as bytes, all as js-bson decodes them`);

// Builds whose `runCommandObject` takes the command object: the binding's encoder (`encodeCommand`
// in its `reply.js`) writes exactly js-bson's `serialize` bytes, or hands the command to it.
const glue = require.resolve(resolve(process.argv[2]));
if (require(glue).takesCommandObjects?.()) {
  // The glue's own `reply.js` (an out-dir used before may hold other snippet folders).
  const snippet = readFileSync(glue, 'utf8').match(/\.\/snippets\/[^`'"]+\/src\/reply\.js/);
  assert.ok(snippet, 'the glue requires src/reply.js');
  const { encodeCommand } = require(join(dirname(glue), snippet[0]));
  const serialize = (c) => Buffer.from(BSON.BSON.serialize(c));
  const sameBytes = (c, label) => {
    const want = serialize(c);
    const got = Buffer.from(encodeCommand(c));
    assert.ok(want.equals(got), `${label}: ${want.toString('hex').slice(0, 200)} vs ${got.toString('hex').slice(0, 200)}`);
  };
  useBsonTypes(BSON.BSON);
  const commands = [
    { find: 'products', filter: { sku: 'sku0000077' }, batchSize: 1e9 },
    { a: 0, b: -0, c: 2147483647, d: 2147483648, e: -2147483648, f: -2147483649, g: 1.5, h: NaN, i: Infinity, j: -Infinity, k: 2 ** 53, l: 2 ** 53 + 2, m: -(2 ** 53) },
    { s: '', t: 'é€😀', u: '\ud800', v: 'a\u0000b', w: 'x'.repeat(70000), y: 'abc\udc00def' },
    { t: true, f: false, n: null, u: undefined, arr: [1, undefined, null, 'x', [[]], {}], holes: [, 1, , 2] }, // eslint-disable-line no-sparse-arrays
    { d: new Date(0), d2: new Date(-1), d3: new Date(8.64e15), d4: new Date(-8.64e15), d5: new Date(Date.UTC(2020, 1, 29, 1, 2, 3, 4)) },
    { 2: 'a', 1: 'b', z: 1, '': 2, 'é': 3, '\ud83d': 4, ['__proto__']: { x: 1 } },
    Object.assign(Object.create(null), { a: 1, b: Object.assign(Object.create(null), { c: 2 }) }),
    { deep: JSON.parse('['.repeat(120) + ']'.repeat(120)) },
    // Values the encoder leaves to js-bson (and the results of toBSON, DBRef-like objects).
    { o: new BSON.ObjectId('0123456789abcdef01234567'), l: BSON.Long.fromNumber(5), dec: BSON.Decimal128.fromString('1.5') },
    { m: new Map([['a', 1]]), r: /x/g, b: new Uint8Array([1, 2]), big: 5n, inv: new Date(NaN) },
    { f: () => 1, sym: Symbol('x'), after: 1 },
    { tb: { toBSON() { return { replaced: 1 }; } }, bt: { _bsontype: undefined, a: 1 } },
    { arrTb: Object.assign([1, 2], { toBSON: () => ['x'] }) },
    { insert: 'c', documents: Array.from({ length: 1000 }, (_, i) => ({ _id: i, sku: 'sku' + String(i).padStart(7, '0'), price: i / 100, category: 'games', stock: i % 500, ts: new Date(i * 1000) })) },
    { big: 'y'.repeat(200000), nested: { more: 'z'.repeat(300000) } },
  ];
  commands.forEach((c, i) => sameBytes(c, `command ${i}`));
  // Written straight into the wasm memory (`encodeCommandAt`): here into a memory of its own at
  // two places and with two rooms (a command longer than its room is written by
  // `takeCommandAt`), the bytes js-bson's; then an engine made again hands the decoder its memory.
  const { encodeCommandAt, takeCommandAt, setMemory } = require(join(dirname(glue), snippet[0]));
  const memory = new WebAssembly.Memory({ initial: 64 });
  setMemory(memory);
  for (const [ptr, room] of [[8, 4096], [1000, 100], [8, 4096]]) {
    commands.forEach((c, i) => {
      const want = serialize(c);
      new Uint8Array(memory.buffer).fill(0xee, 0, 1 << 20);
      const n = encodeCommandAt(c, ptr, room);
      assert.equal(n, want.length, `command ${i} at ${ptr}: length`);
      if (n > room) takeCommandAt(ptr);
      const got = Buffer.from(memory.buffer, ptr, n);
      assert.ok(want.equals(got), `command ${i} at ${ptr} with room ${room}: ${got.toString('hex').slice(0, 200)}`);
      assert.equal(new Uint8Array(memory.buffer)[ptr - 1], 0xee, `command ${i}: nothing written before its place`);
      if (n <= room) assert.equal(new Uint8Array(memory.buffer)[ptr + n], 0xee, `command ${i}: nothing after its bytes`);
    });
  }
  new NodeEngine().free();
  // Errors are js-bson's: a key with a NUL, a cycle.
  assert.throws(() => encodeCommand({ 'a\u0000': 1 }), /null bytes/);
  const cycle = { a: 1 };
  cycle.self = cycle;
  assert.throws(() => encodeCommand(cycle), /circular/i);
  // Bytes are the command's bytes; an object through the engine answers as its bytes do.
  const bytes = BSON.BSON.serialize({ ping: 1 });
  assert.equal(encodeCommand(bytes), bytes);
  same(e.runCommandObject('t', { find: 'plain', filter: {}, batchSize: 1e9 }), bytesReply({ find: 'plain', filter: {}, batchSize: 1e9 }), 'object command');
  // Commands longer than the room the binding keeps for them (4 KiB), then short ones again, as
  // objects and as bytes, each answered as its bytes are.
  for (const n of [5000, 70000, 10, 300000, 3]) {
    const c = { insert: 'long', documents: [{ _id: n, s: 'q'.repeat(n) }] };
    same(e.runCommandObject('t', c), { n: 1, ok: 1 }, `insert of ${n} bytes`);
    same(e.runCommandObject('t', BSON.BSON.serialize({ find: 'long', filter: { _id: n } })).cursor.firstBatch, [{ _id: n, s: 'q'.repeat(n) }], `find of ${n} bytes`);
  }
  // Without the bson package the encoder refuses what it does not know, never guesses.
  useBsonTypes(null);
  sameBytes(commands[4], 'dates without the bson package');
  assert.throws(() => encodeCommand({ o: new BSON.ObjectId() }), TypeError);
  console.log(`runCommandObject: ${commands.length} command objects encoded as js-bson serialises them`);
}

// Regenerates the expected text of the mongosh and Extended JSON golden cases from the real
// thing: Node's util.inspect and js-bson 6 with mongosh's options and BSON inspectors
// (packages/service-provider-core/src/printable-bson.ts and cli-repl/src/format-output.ts).
//
//   npm install bson@6 && node oracle.js mongosh.txt extjson.txt
//
// Each input goes through BSON.serialize and BSON.deserialize({ promoteLongs: false }), as a
// value does on its way from the server to mongosh. Cases whose name contains "[manual]" and
// the legacy styles are left alone (no oracle exists for the 3.0 shell here).
'use strict';
const fs = require('fs');
const util = require('util');
const BSON = require('bson');

const inspectCustom = Symbol.for('nodejs.util.inspect.custom');

function classless(cls) {
  const original = cls.prototype.inspect;
  return function (...args) {
    return String(original.apply(this, args)).replace(/^(\s*)(new )/, '$1');
  };
}

function makePrintable() {
  const binaryInspect = classless(BSON.Binary);
  const printers = {
    ObjectId: classless(BSON.ObjectId),
    DBRef: classless(BSON.DBRef),
    MaxKey: classless(BSON.MaxKey),
    MinKey: classless(BSON.MinKey),
    Timestamp: classless(BSON.Timestamp),
    BSONSymbol: classless(BSON.BSONSymbol),
    Code: classless(BSON.Code),
    Decimal128: classless(BSON.Decimal128),
    Int32: classless(BSON.Int32),
    Long: classless(BSON.Long),
    Double: classless(BSON.Double),
    BSONRegExp: classless(BSON.BSONRegExp),
    Binary: function (...args) {
      const hex = this.toString('hex');
      if (this.sub_type === 9) {
        const [depth, options] = args;
        const list = (arr) =>
          util
            .inspect(arr, { depth, ...options, maxArrayLength: util.inspect.defaultOptions.maxArrayLength })
            .replace(/^\s*\S+\s*\(\d+\)\s*/, '');
        switch (this.buffer[0]) {
          case 0x03:
            return `Binary.fromInt8Array(new Int8Array(${list(this.toInt8Array())}))`;
          case 0x27:
            return `Binary.fromFloat32Array(new Float32Array(${list(this.toFloat32Array())}))`;
          case 0x10: {
            const padding = this.buffer[1] === 0 ? '' : `, ${this.buffer[1]}`;
            return `Binary.fromPackedBits(new Uint8Array(${list(this.toPackedBits())})${padding})`;
          }
        }
      }
      if (this.sub_type === 5) return `MD5('${hex}')`;
      if (this.sub_type === 4 && hex.length === 32) {
        const m = /^(.{8})(.{4})(.{4})(.{4})(.{12})$/.exec(hex);
        return `UUID('${m.slice(1, 6).join('-')}')`;
      }
      return binaryInspect.apply(this, args);
    },
  };
  for (const [name, fn] of Object.entries(printers)) {
    BSON[name].prototype[inspectCustom] = fn;
    BSON[name].prototype.inspect = fn;
  }
}

function dateInspect() {
  if (isNaN(this.valueOf())) return 'Invalid Date';
  return `ISODate('${this.toISOString()}')`;
}

function inspect(value, options) {
  Date.prototype[inspectCustom] = dateInspect;
  try {
    return util.inspect(value, { showProxy: false, colors: false, compact: 3, ...options });
  } finally {
    delete Date.prototype[inspectCustom];
  }
}

const CONTROL = /[\x00-\x08\x0B-\x1F\x7F-\x9F]/;

function render(style, kind, input) {
  const parsed = BSON.EJSON.parse(input, { relaxed: false });
  const bytes = BSON.serialize({ v: parsed }, { ignoreUndefined: false });
  const value = BSON.deserialize(bytes, { promoteLongs: false }).v;
  if (style === 'json-relaxed' || style === 'json-canonical') {
    return BSON.EJSON.stringify(value, undefined, 2, { relaxed: style === 'json-relaxed' });
  }
  if (kind === 'batch') {
    if (value.length === 0) return '';
    return inspect(value, { depth: Infinity, maxArrayLength: Infinity, maxStringLength: Infinity });
  }
  if (typeof value === 'string' && !CONTROL.test(value)) return value;
  if (value === undefined) return '';
  return inspect(value, { depth: 6 });
}

makePrintable();
for (const file of process.argv.slice(2)) {
  const text = fs.readFileSync(file, 'utf8');
  const [head, ...blocks] = text.split('\n### ');
  const out = blocks.map((block) => {
    const lines = block.split('\n');
    const name = lines[0];
    const [style, kind] = lines[1].replace(/^@ /, '').split(/\s+/);
    const sep = lines.indexOf('---');
    if (name.includes('[manual]') || style.startsWith('legacy')) return block;
    const input = lines.slice(2, sep).join('\n');
    let expected;
    try {
      expected = render(style, kind, input);
    } catch (e) {
      // mongosh itself fails here (e.g. EJSON of a RegExp with a `g` flag from a BSON `s`).
      expected = `!error: ${e.message}`;
    }
    return [...lines.slice(0, sep + 1), expected, ''].join('\n');
  });
  fs.writeFileSync(file, [head, ...out].join('\n### '));
}

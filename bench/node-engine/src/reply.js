// The reply of `runCommandObject` (see lib.rs): the reply's BSON bytes, read in place from the
// wasm memory, decoded into the JavaScript values the `bson` package's `deserialize` (6.x,
// default options) makes of them, when every value is of a type this decoder knows; otherwise
// (an ObjectId unless the caller handed its BSON library's ObjectId class to `useBsonTypes`,
// a Long beyond 2^53, a Decimal128, a Binary, a Timestamp, a regular expression,
// MinKey/MaxKey, code, a `$`-prefixed field name that js-bson may turn into a DBRef, text that is
// not UTF-8, malformed bytes) a copy of the bytes, for the caller's BSON library.
//
// What js-bson gives and this decoder gives alike: a plain object for a document (a
// `__proto__` field as an own property), an array for an array, a number for a double
// (NaN, -0 and the infinities included), a 32-bit integer and a 64-bit integer in
// [-2^53, 2^53], a string, a boolean, null, undefined, and a Date for a UTC datetime.
// js-bson's general decoder reads each field name into a new string, checks options and
// validation per document and per element; this one knows no options, and where a field's
// name has the bytes of the name at the same place in the document before (documents of a
// reply usually share their fields) it reuses that string and skips the name in the same
// pass: about 3-4 times faster for a find's batch (`docs/performance.md`, session 15).
// Session 16: a document's values are read first and its object made after, from one object
// literal (a function compiled for those names) when the documents before had the same names
// in the same order, instead of adding the fields one by one through V8's hidden-class
// transitions; short ASCII strings are made in one `String.fromCharCode` call, and a short
// ASCII value equal to the one the document before had for the same field is reused: about
// 1.4 times faster again on a find's batch of 1,690 five-field documents.
// Session 18: once two documents in a row at one depth had the same layout (field types and
// names in order) and their names had come before, that layout gets a decoder of its own
// (`compileLayout`: straight code comparing each type byte and name with constants, reading
// each value at once, making the object from one literal), tried first for every document at
// that depth (and the one it replaced, for two layouts mixed), the general loop taking any
// document it refuses; strings of 9-12 ASCII characters (SKUs) in one `fromCharCode` call.
// The decoder is not reentrant (its per-depth scratch is module state); nothing it calls runs
// the engine (the ObjectId class is the caller's BSON library's), and it holds the values of
// the last document per depth until the next reply.

'use strict';

const utf8 = new TextDecoder('utf-8', { fatal: true });

// Field names seen last, per nesting depth and position in the document: length, bytes, string
// (never one that starts with `$`).
const SLOTS = 32;
const keyLen = [];
const keyBytes = [];
const keyStr = [];

class Unsupported extends Error {}

// The caller's BSON library's ObjectId class (`useBsonTypes`), so that ObjectIds, the default
// `_id`, are decoded here too, into the instances that library's `deserialize` makes.
let ObjectIdType = null;

// A string's UTF-8 bytes `u8[a..b)`: short ASCII text as one `String.fromCharCode` call with
// its codes as arguments (building it a character at a time, or `apply` on a subarray, was 3-20
// times slower in a micro-benchmark), the rest through the `TextDecoder`.
function text(u8, a, b) {
  const n = b - a;
  if (n > 16) return utf8.decode(u8.subarray(a, b));
  for (let i = a; i < b; i++) if (u8[i] >= 0x80) return utf8.decode(u8.subarray(a, b));
  const f = String.fromCharCode;
  switch (n) {
    case 0: return '';
    case 1: return f(u8[a]);
    case 2: return f(u8[a], u8[a + 1]);
    case 3: return f(u8[a], u8[a + 1], u8[a + 2]);
    case 4: return f(u8[a], u8[a + 1], u8[a + 2], u8[a + 3]);
    case 5: return f(u8[a], u8[a + 1], u8[a + 2], u8[a + 3], u8[a + 4]);
    case 6: return f(u8[a], u8[a + 1], u8[a + 2], u8[a + 3], u8[a + 4], u8[a + 5]);
    case 7: return f(u8[a], u8[a + 1], u8[a + 2], u8[a + 3], u8[a + 4], u8[a + 5], u8[a + 6]);
    case 8: return f(u8[a], u8[a + 1], u8[a + 2], u8[a + 3], u8[a + 4], u8[a + 5], u8[a + 6], u8[a + 7]);
    case 9: return f(u8[a], u8[a + 1], u8[a + 2], u8[a + 3], u8[a + 4], u8[a + 5], u8[a + 6], u8[a + 7], u8[a + 8]);
    case 10: return f(u8[a], u8[a + 1], u8[a + 2], u8[a + 3], u8[a + 4], u8[a + 5], u8[a + 6], u8[a + 7], u8[a + 8], u8[a + 9]);
    case 11: return f(u8[a], u8[a + 1], u8[a + 2], u8[a + 3], u8[a + 4], u8[a + 5], u8[a + 6], u8[a + 7], u8[a + 8], u8[a + 9],
      u8[a + 10]);
    case 12: return f(u8[a], u8[a + 1], u8[a + 2], u8[a + 3], u8[a + 4], u8[a + 5], u8[a + 6], u8[a + 7], u8[a + 8], u8[a + 9],
      u8[a + 10], u8[a + 11]);
    default: return text(u8, a, a + 8) + text(u8, a + 8, b);
  }
}

// Per name slot: the short ASCII string value the document before had there. Documents of a
// reply often repeat a value (a category, a status): when the bytes are that string's codes,
// the string is reused instead of made again.
const valStr = [];

function cachedText(u8, a, b, slot) {
  const n = b - a;
  const s = valStr[slot];
  if (s !== undefined && s.length === n) {
    // From the end: values that differ (a SKU, a name with a number) mostly differ there.
    let i = n - 1;
    while (i >= 0 && s.charCodeAt(i) === u8[a + i]) i--;
    if (i < 0) return s;
  }
  const t = text(u8, a, b);
  // Only ASCII (UTF-8 text has as many UTF-16 units as bytes only when it is ASCII): its codes
  // are its UTF-8 bytes, so equal codes mean equal, valid bytes.
  if (n <= 16) valStr[slot] = t.length === n ? t : undefined;
  return t;
}

// Per nesting depth: the values of the document being decoded, in order (an object is made
// once its fields are known: from a literal when they are the fields of the documents before).
const vals = [];
// Per nesting depth: a function making the object from `vals` with one object literal, for the
// field names now in that depth's slots and their number `shapeLen`; `shapeSeen` counts the
// documents in a row that had them.
const shapeMake = [];
const shapeLen = [];
const shapeSeen = [];
// Per name slot: the BSON type the document before had there.
const keyType = [];

// Per nesting depth: a decoder compiled for one layout of a document (its fields' types and
// names, in order; `compileLayout`), or null. It decodes a document of that layout in straight
// code (each type byte and name compared with constants, each value read at once, the object
// made from one literal) and returns null for any other document, which the general loop below
// then decodes.
const fast = [];
// Per nesting depth: the decoder `fast` had before it was replaced, tried when it returns null
// (documents of two layouts mixed, as a number field that is sometimes an integer and sometimes
// a double, both decoded in straight code).
const fastBefore = [];
// Decoders compiled, by layout (types and names), so that a layout seen again (another reply's
// documents, a depth that moved between layouts) is not compiled again; emptied when full.
const compiled = new Map();
const MAX_COMPILED = 256;

// The types a compiled decoder reads (the others stay with the general loop) and the fixed
// bytes of their values that must lie before the document's end.
const FIXED = { 0x01: 8, 0x02: 4, 0x03: 4, 0x04: 4, 0x06: 0, 0x07: 12, 0x08: 1, 0x09: 8, 0x0a: 0, 0x10: 4, 0x12: 8 };

// The decoder for the `n` fields in the slots from `first` on (names, bytes and types as the
// document just decoded had them) at `depth`, compiled once per layout; null when a name is
// `__proto__` (a literal would set the prototype) or a type is not one it reads.
function compileLayout(n, first, depth) {
  let key = depth + ':';
  for (let k = 0; k < n; k++) {
    const t = keyType[first + k];
    if (FIXED[t] === undefined || keyStr[first + k] === '__proto__') return null;
    key += t + ',' + keyStr[first + k].length + ',' + keyStr[first + k] + ';';
  }
  let f = compiled.get(key);
  if (f !== undefined) return f;
  const body = [
    "'use strict';",
    'const size = dv.getInt32(at, true);',
    'if (size < 5 || size > limit - at) return null;',
    'const e = at + size - 1;',
    'if (u8[e] !== 0) return null;',
    'let p = at + 4;',
    'let q = 0;',
  ];
  const fields = [];
  for (let k = 0; k < n; k++) {
    const slot = first + k;
    const t = keyType[slot];
    const bytes = keyBytes[slot];
    const len = bytes.length;
    // The type, the name and its NUL, then the value's fixed bytes, before the end.
    body.push(`if (p + ${len + 2 + FIXED[t]} > e || u8[p] !== ${t}) return null;`);
    const name = [...bytes, 0];
    const checks = [];
    let j = 0;
    for (; j + 4 <= name.length; j += 4) {
      const word = (name[j] | (name[j + 1] << 8) | (name[j + 2] << 16) | (name[j + 3] << 24)) >>> 0;
      checks.push(`dv.getUint32(p + ${1 + j}, true) !== ${word}`);
    }
    for (; j < name.length; j++) checks.push(`u8[p + ${1 + j}] !== ${name[j]}`);
    body.push(`if (${checks.join(' || ')}) return null;`);
    body.push(`q = p + ${len + 2};`);
    const v = `v${k}`;
    switch (t) {
      case 0x01:
        body.push(`const ${v} = dv.getFloat64(q, true); p = q + 8;`);
        break;
      case 0x02:
        body.push(`const l${k} = dv.getInt32(q, true);`,
          `if (l${k} < 1 || l${k} > e - q - 4 || u8[q + 3 + l${k}] !== 0) return null;`,
          `const ${v} = cachedText(u8, q + 4, q + 3 + l${k}, ${slot}); p = q + 4 + l${k};`);
        break;
      case 0x03:
      case 0x04:
        body.push(`const ${v} = documentAt(u8, dv, q, e, ${t === 0x04}, ${depth + 1}, false);`,
          `p = q + dv.getInt32(q, true);`);
        break;
      case 0x06:
        body.push(`const ${v} = undefined; p = q;`);
        break;
      case 0x07:
        body.push(`const ${v} = objectId(u8, q); p = q + 12;`);
        break;
      case 0x08:
        body.push(`const b${k} = u8[q]; if (b${k} > 1) return null; const ${v} = b${k} === 1; p = q + 1;`);
        break;
      case 0x09:
        body.push(`const ${v} = new Date(dv.getInt32(q + 4, true) * 4294967296 + dv.getUint32(q, true)); p = q + 8;`);
        break;
      case 0x0a:
        body.push(`const ${v} = null; p = q;`);
        break;
      case 0x10:
        body.push(`const ${v} = dv.getInt32(q, true); p = q + 4;`);
        break;
      case 0x12:
        body.push(`const h${k} = dv.getInt32(q + 4, true), w${k} = dv.getUint32(q, true);`,
          `if (!((h${k} >= -0x200000 && h${k} < 0x200000) || (h${k} === 0x200000 && w${k} === 0))) return null;`,
          `const ${v} = h${k} * 4294967296 + w${k}; p = q + 8;`);
        break;
    }
    fields.push(`${JSON.stringify(keyStr[slot])}: ${v}`);
  }
  body.push('if (p !== e) return null;', `return {${fields.join(', ')}};`);
  f = new Function('cachedText', 'documentAt', 'objectId',
    `return function decodeLayout(u8, dv, at, limit) {\n${body.join('\n')}\n};`)(cachedText, documentAt, objectId);
  if (compiled.size >= MAX_COMPILED) compiled.clear();
  compiled.set(key, f);
  return f;
}

// An ObjectId at `at`, as js-bson makes it (the 12 bytes copied, `new ObjectId(bytes)`).
function objectId(u8, at) {
  if (ObjectIdType === null) throw new Unsupported();
  return new ObjectIdType(u8.slice(at, at + 12));
}

// The object of a document whose `n` names are the slots' from `first` on and whose values are
// `v`: from the literal when the same names came before, else one field at a time.
function makeObject(v, n, first, depth, allKnown) {
  if (allKnown && n === shapeLen[depth]) {
    const make = shapeMake[depth];
    if (make !== null) return make(v);
    if (++shapeSeen[depth] >= 2) {
      const fields = [];
      for (let k = 0; k < n; k++) {
        const name = keyStr[first + k];
        // `"__proto__": v` in a literal would set the prototype, not make a field.
        if (name === '__proto__') { shapeSeen[depth] = -1e9; break; }
        fields.push(`${JSON.stringify(name)}: v[${k}]`);
      }
      if (fields.length === n) {
        const make = new Function('v', `'use strict'; return {${fields.join(', ')}};`);
        shapeMake[depth] = make;
        return make(v);
      }
    }
  } else {
    shapeLen[depth] = n;
    shapeMake[depth] = null;
    shapeSeen[depth] = 0;
  }
  const obj = {};
  for (let k = 0; k < n; k++) {
    const name = keyStr[first + k];
    if (name === '__proto__') {
      Object.defineProperty(obj, name, { value: v[k], writable: true, enumerable: true, configurable: true });
    } else obj[name] = v[k];
  }
  return obj;
}

// `direct`: a document's fields are set one at a time as they are read (arrays, and documents
// with more fields than a depth has slots).
function documentAt(u8, dv, at, limit, isArray, depth, direct) {
  if (!direct && !isArray && depth < fast.length) {
    const f = fast[depth];
    if (f !== null) {
      const o = f(u8, dv, at, limit);
      if (o !== null) return o;
      const g = fastBefore[depth];
      if (g !== null) {
        const o = g(u8, dv, at, limit);
        if (o !== null) return o;
      }
    }
  }
  const start = at;
  const size = dv.getInt32(at, true);
  if (size < 5 || size > limit - at) throw new Unsupported();
  const end = at + size - 1;
  if (u8[end] !== 0) throw new Unsupported();
  at += 4;
  direct = direct || isArray;
  const obj = direct ? (isArray ? [] : {}) : null;
  let vs = null;
  if (!direct) {
    if (depth >= vals.length) {
      for (let d = vals.length; d <= depth; d++) { vals.push([]); shapeMake.push(null); shapeLen.push(-1); shapeSeen.push(0); fast.push(null); fastBefore.push(null); }
    }
    vs = vals[depth];
  }
  let n = 0;
  let allKnown = true;
  let sameTypes = true;
  const first = depth * SLOTS;
  let slot = first;
  for (;;) {
    if (at > end) throw new Unsupported();
    const t = u8[at++];
    if (t === 0) {
      if (at !== end + 1) throw new Unsupported();
      if (direct) return obj;
      const o = makeObject(vs, n, first, depth, allKnown);
      // Twice the same names and types in a row: this layout's decoder from now on.
      if (allKnown && sameTypes && shapeMake[depth] !== null) {
        const f = compileLayout(n, first, depth);
        if (f !== fast[depth]) {
          fastBefore[depth] = fast[depth];
          fast[depth] = f;
        }
      }
      return o;
    }
    let name = null;
    const here = slot;
    if (isArray) {
      while (at < end && u8[at] !== 0) at++;
      if (at >= end) throw new Unsupported();
      at++;
    } else {
      // The name the document before had at this place, when the bytes here are the same and
      // end where it ends: compared and skipped in one pass, without a string made.
      let known = false;
      const len = keyLen[slot];
      if (len !== undefined && at + len < end && u8[at + len] === 0) {
        const bytes = keyBytes[slot];
        let i = 0;
        while (i < len && bytes[i] === u8[at + i]) i++;
        known = i === len;
      }
      if (known) {
        name = keyStr[slot];
        at += len + 1;
      } else {
        allKnown = false;
        let n = at;
        while (n < end && u8[n] !== 0) n++;
        if (n >= end) throw new Unsupported();
        if (u8[at] === 0x24) throw new Unsupported(); // '$'
        name = text(u8, at, n);
        keyLen[slot] = n - at;
        keyBytes[slot] = u8.slice(at, n);
        keyStr[slot] = name;
        if (depth < shapeLen.length) {
          shapeLen[depth] = -1;
          shapeMake[depth] = null;
        }
        at = n + 1;
      }
      if (keyType[here] !== t) {
        keyType[here] = t;
        sameTypes = false;
      }
      if (slot < first + SLOTS - 1) slot++;
      else if (!direct) return documentAt(u8, dv, start, limit, false, depth, true);
    }
    let v;
    switch (t) {
      case 0x01:
        if (at + 8 > end) throw new Unsupported();
        v = dv.getFloat64(at, true);
        at += 8;
        break;
      case 0x02: {
        const len = dv.getInt32(at, true);
        if (len < 1 || len > end - at - 4 || u8[at + 3 + len] !== 0) throw new Unsupported();
        v = isArray ? text(u8, at + 4, at + 3 + len) : cachedText(u8, at + 4, at + 3 + len, here);
        at += 4 + len;
        break;
      }
      case 0x03:
      case 0x04:
        v = documentAt(u8, dv, at, end, t === 0x04, depth + 1, false);
        at += dv.getInt32(at, true);
        break;
      case 0x06:
        v = undefined;
        break;
      case 0x07:
        if (ObjectIdType === null || at + 12 > end) throw new Unsupported();
        // As js-bson: the 12 bytes copied, then `new ObjectId(bytes)`.
        v = new ObjectIdType(u8.slice(at, at + 12));
        at += 12;
        break;
      case 0x08: {
        const b = u8[at++];
        if (b !== 0 && b !== 1) throw new Unsupported();
        v = b === 1;
        break;
      }
      case 0x09:
        if (at + 8 > end) throw new Unsupported();
        // As js-bson: new Date(Long(low, high).toNumber()).
        v = new Date(dv.getInt32(at + 4, true) * 4294967296 + dv.getUint32(at, true));
        at += 8;
        break;
      case 0x0a:
        v = null;
        break;
      case 0x10:
        if (at + 4 > end) throw new Unsupported();
        v = dv.getInt32(at, true);
        at += 4;
        break;
      case 0x12: {
        if (at + 8 > end) throw new Unsupported();
        const high = dv.getInt32(at + 4, true);
        const low = dv.getUint32(at, true);
        // js-bson gives a number in [-2^53, 2^53], a Long beyond.
        if (!((high >= -0x200000 && high < 0x200000) || (high === 0x200000 && low === 0))) {
          throw new Unsupported();
        }
        v = high * 4294967296 + low;
        at += 8;
        break;
      }
      default:
        throw new Unsupported();
    }
    if (!direct) vs[n++] = v;
    else if (isArray) obj.push(v);
    else if (name === '__proto__') {
      Object.defineProperty(obj, name, { value: v, writable: true, enumerable: true, configurable: true });
    } else obj[name] = v;
  }
}

module.exports.setBsonTypes = function (types) {
  ObjectIdType = types && typeof types.ObjectId === 'function' ? types.ObjectId : null;
  serialize = types && typeof types.serialize === 'function' ? types.serialize : null;
};

// The wasm memory (`setMemory`), and its buffer as bytes and as a DataView, made again only when
// the memory grows (its buffer is then a new one): a reply is read at its place in them, not
// through views made for it (a DataView and a subarray per reply were 4.5% of a point lookup,
// session 17).
let memory = null;
let memBuffer = null;
let memU8 = null;
let memView = null;

module.exports.setMemory = function (m) {
  memory = m;
};

// The reply at `ptr`, `len` bytes long, in the wasm memory.
module.exports.decodeReplyAt = function (ptr, len) {
  memoryViews();
  try {
    return documentAt(memU8, memView, ptr, ptr + len, false, 0, false);
  } catch (e) {
    if (!(e instanceof Unsupported) && !(e instanceof RangeError) && !(e instanceof TypeError)) throw e;
    return memU8.slice(ptr, ptr + len);
  }
};

// ---- The command's BSON bytes (`runCommandObject` given an object) -----------------------------
// The bytes the `bson` package's `serialize` (6.x, default options: a field that is undefined
// left out, an undefined array element as null, functions left out, keys not checked) makes of a command, written here when every value is one this
// encoder knows: plain objects (`Object.prototype` or no prototype, no `toBSON`, no
// `_bsontype`), arrays, strings, numbers (an integer in the 32-bit range, not -0, as an int32,
// any other as a double, as js-bson chooses), booleans, null, undefined and valid Dates. Anything
// else (ObjectId, Long, Binary, a Map, a RegExp, a bigint, a function, a key with a NUL, a cycle,
// more than 16 MiB) is left to the caller's BSON library handed over with `useBsonTypes`
// (its `serialize`), so the bytes are js-bson's either way. A `Uint8Array` is taken as the
// command's bytes. The bytes are written into one buffer, reused by every call (the binding
// copies them into the wasm memory at once) and kept at the size of the largest command.

const utf8Out = new TextEncoder();
let out = new Uint8Array(1 << 16);
let outView = new DataView(out.buffer);
let serialize = null;
const MAX_COMMAND = 16 << 20;
const MAX_DEPTH = 100;

class NotEncoded extends Error {}

// The buffer kept for commands: `out` is it, or while `encodeCommandAt` writes a command straight
// into the wasm memory, the view of the room there.
let heapOut = out;
let heapOutView = outView;

function room(at, n) {
  if (at + n <= out.length) return;
  if (at + n > MAX_COMMAND + 64) throw new NotEncoded();
  if (out !== heapOut && at + n <= heapOut.length) {
    // No room left in the wasm memory: on in the buffer kept for commands.
    heapOut.set(out);
    out = heapOut;
    outView = heapOutView;
    return;
  }
  let size = Math.max(out.length, heapOut.length) * 2;
  while (size < at + n) size *= 2;
  const bigger = new Uint8Array(size);
  bigger.set(out);
  out = heapOut = bigger;
  outView = heapOutView = new DataView(out.buffer);
}

// A string's UTF-8 bytes at `at` (lone surrogates as U+FFFD, as js-bson's encoder writes them),
// plus a NUL when `cstring`; returns the next position.
function writeText(s, at, cstring) {
  const n = s.length;
  room(at, n * 3 + 1);
  let i = 0;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) break;
    if (c === 0 && cstring) throw new NotEncoded();
    out[at + i] = c;
  }
  at += i;
  if (i < n) {
    const rest = i === 0 ? s : s.slice(i);
    if (cstring && rest.includes('\0')) throw new NotEncoded();
    at += utf8Out.encodeInto(rest, out.subarray(at)).written;
  }
  if (cstring) out[at++] = 0;
  return at;
}

function plain(v) {
  const proto = Object.getPrototypeOf(v);
  return (proto === Object.prototype || proto === null) && v._bsontype == null && typeof v.toBSON !== 'function';
}

// A name at `at` (its NUL after it) when it is ASCII without a NUL, with room made for it and
// for the nine bytes after it (a type's fixed-size value or a string's length); -1 otherwise
// (`writeText` then writes it). One check of the room instead of two.
function writeName(key, at) {
  const n = key.length;
  room(at, n + 10);
  for (let i = 0; i < n; i++) {
    const c = key.charCodeAt(i);
    if (c >= 0x80 || c === 0) return -1;
    out[at + i] = c;
  }
  out[at + n] = 0;
  return at + n + 1;
}

// One element (type, name, value) at `at`; returns the next position.
function writeElement(key, v, at, depth) {
  const typeAt = at;
  const named = writeName(key, at + 1);
  if (named >= 0) {
    at = named;
  } else {
    at = writeText(key, at + 1, true);
    room(at, 9);
  }
  return writeValue(v, typeAt, at, depth);
}

// An array's element `i` at `at`: its name is `i` in decimal.
function writeItem(i, v, at, depth) {
  room(at, 21);
  const typeAt = at;
  at++;
  if (i < 10) {
    out[at++] = 48 + i;
  } else {
    const digits = `${i}`;
    for (let k = 0; k < digits.length; k++) out[at++] = digits.charCodeAt(k);
  }
  out[at++] = 0;
  return writeValue(v, typeAt, at, depth);
}

// An element's value at `at` (after its name), its type byte at `typeAt`; nine bytes of room
// are made; returns the next position.
function writeValue(v, typeAt, at, depth) {
  switch (typeof v) {
    case 'string': {
      out[typeAt] = 0x02;
      const end = writeText(v, at + 4, false);
      room(end, 1);
      out[end] = 0;
      outView.setInt32(at, end + 1 - at - 4, true);
      return end + 1;
    }
    case 'number':
      // An integer in the 32-bit range, not -0 (`v | 0` is `v` for those and for -0 only).
      if ((v | 0) === v && (v !== 0 || 1 / v > 0)) {
        out[typeAt] = 0x10;
        outView.setInt32(at, v, true);
        return at + 4;
      }
      out[typeAt] = 0x01;
      outView.setFloat64(at, v, true);
      return at + 8;
    case 'boolean':
      out[typeAt] = 0x08;
      out[at] = v ? 1 : 0;
      return at + 1;
    case 'undefined':
      out[typeAt] = 0x0a;
      return at;
    case 'object': {
      if (v === null) {
        out[typeAt] = 0x0a;
        return at;
      }
      if (Array.isArray(v)) {
        if (Object.getPrototypeOf(v) !== Array.prototype || v._bsontype != null || typeof v.toBSON === 'function') {
          throw new NotEncoded();
        }
        out[typeAt] = 0x04;
        return writeDocument(v, at, depth + 1, true);
      }
      if (v instanceof Date) {
        const ms = v.getTime();
        if (Object.getPrototypeOf(v) !== Date.prototype || typeof v.toBSON === 'function' || ms !== ms) {
          throw new NotEncoded();
        }
        out[typeAt] = 0x09;
        const high = Math.floor(ms / 4294967296);
        outView.setUint32(at, ms - high * 4294967296, true);
        outView.setInt32(at + 4, high, true);
        return at + 8;
      }
      if (!plain(v)) throw new NotEncoded();
      out[typeAt] = 0x03;
      return writeDocument(v, at, depth + 1, false);
    }
    default:
      throw new NotEncoded();
  }
}

function writeDocument(obj, at, depth, isArray) {
  if (depth > MAX_DEPTH) throw new NotEncoded();
  const start = at;
  at += 4;
  if (isArray) {
    for (let i = 0; i < obj.length; i++) at = writeItem(i, obj[i], at, depth);
  } else {
    const keys = Object.keys(obj);
    for (let i = 0; i < keys.length; i++) {
      const v = obj[keys[i]];
      // js-bson's default leaves a field that is undefined out (in an array it is a null).
      if (v !== undefined) at = writeElement(keys[i], v, at, depth);
    }
  }
  room(at, 1);
  out[at++] = 0;
  outView.setInt32(start, at - start, true);
  return at;
}

// No `toBSON` on the prototypes of the primitives (js-bson would call it for every value).
function primitivesPlain() {
  return String.prototype.toBSON === undefined && Number.prototype.toBSON === undefined &&
    Boolean.prototype.toBSON === undefined && Object.prototype.toBSON === undefined;
}

// The command's bytes: their length when they were written at the start of `out`, else the
// bytes themselves (a `Uint8Array` command as it is, or the caller's `serialize`).
function encodeCommand(command) {
  if (command instanceof Uint8Array) return command;
  try {
    if (command === null || typeof command !== 'object' || Array.isArray(command) || !plain(command) ||
      !primitivesPlain()) {
      throw new NotEncoded();
    }
    const end = writeDocument(command, 0, 0, false);
    if (end > MAX_COMMAND) throw new NotEncoded();
    return end;
  } catch (e) {
    if (!(e instanceof NotEncoded)) throw e;
  }
  if (serialize === null) {
    throw new TypeError('runCommandObject: the command holds a value this binding does not encode; ' +
      'pass its BSON bytes, or hand over the bson package with useBsonTypes(BSON)');
  }
  return serialize(command);
}

// The command's bytes as a `Uint8Array` (for `reply_check.mjs`, which compares them with
// js-bson's).
module.exports.encodeCommand = function (command) {
  const encoded = encodeCommand(command);
  return typeof encoded === 'number' ? out.subarray(0, encoded) : encoded;
};

// The views of the wasm memory, made again when it has grown.
function memoryViews() {
  const buffer = memory.buffer;
  if (buffer !== memBuffer) {
    memBuffer = buffer;
    memU8 = new Uint8Array(buffer);
    memView = new DataView(buffer);
  }
}

// Bytes of a command that did not fit where `encodeCommandAt` was to write them.
let pending = null;

// The command's bytes written at `ptr` in the wasm memory, when they fit in `room` bytes; returns
// their length either way (when it is over `room`, the binding makes room and calls
// `takeCommandAt`). Written straight into the memory: handing the bytes back for the glue to copy
// cost a view, an allocation in the wasm memory and its free per command (3% of a point lookup,
// session 17).
// An object is encoded straight into the room at `ptr` (through views of it kept while the
// binding keeps its buffer for commands there); a command longer than the room goes on in the
// buffer kept for commands (`room`). Copying the encoded bytes into the memory was a loop per
// command (session 18).
let roomBuffer = null;
let roomPtr = -1;
let roomLen = -1;
let roomU8 = null;
let roomView = null;

module.exports.encodeCommandAt = function (command, ptr, room) {
  memoryViews();
  if (memBuffer !== roomBuffer || ptr !== roomPtr || room !== roomLen) {
    roomBuffer = memBuffer;
    roomPtr = ptr;
    roomLen = room;
    roomU8 = new Uint8Array(memBuffer, ptr, room);
    roomView = new DataView(memBuffer, ptr, room);
  }
  let encoded;
  let inPlace;
  out = roomU8;
  outView = roomView;
  try {
    encoded = encodeCommand(command);
  } finally {
    inPlace = out === roomU8;
    out = heapOut;
    outView = heapOutView;
  }
  if (typeof encoded === 'number' && inPlace) return encoded;
  const src = typeof encoded === 'number' ? out : encoded;
  const n = typeof encoded === 'number' ? encoded : encoded.length;
  if (n > room) {
    pending = src === out ? out.slice(0, n) : src;
    return n;
  }
  memU8.set(n === src.length ? src : src.subarray(0, n), ptr);
  return n;
};

// The bytes `encodeCommandAt` had no room for, written at `ptr`.
module.exports.takeCommandAt = function (ptr) {
  memoryViews();
  memU8.set(pending, ptr);
  pending = null;
};

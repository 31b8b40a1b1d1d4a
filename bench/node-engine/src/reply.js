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

function text(u8, a, b) {
  if (b - a <= 32) {
    let s = '';
    for (let i = a; i < b; i++) {
      const c = u8[i];
      if (c >= 0x80) return utf8.decode(u8.subarray(a, b));
      s += String.fromCharCode(c);
    }
    return s;
  }
  return utf8.decode(u8.subarray(a, b));
}

function documentAt(u8, dv, at, limit, isArray, depth) {
  const size = dv.getInt32(at, true);
  if (size < 5 || size > limit - at) throw new Unsupported();
  const end = at + size - 1;
  if (u8[end] !== 0) throw new Unsupported();
  at += 4;
  const obj = isArray ? [] : {};
  const first = depth * SLOTS;
  let slot = first;
  for (;;) {
    if (at > end) throw new Unsupported();
    const t = u8[at++];
    if (t === 0) {
      if (at !== end + 1) throw new Unsupported();
      return obj;
    }
    let name = null;
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
        let n = at;
        while (n < end && u8[n] !== 0) n++;
        if (n >= end) throw new Unsupported();
        if (u8[at] === 0x24) throw new Unsupported(); // '$'
        name = text(u8, at, n);
        keyLen[slot] = n - at;
        keyBytes[slot] = u8.slice(at, n);
        keyStr[slot] = name;
        at = n + 1;
      }
      if (slot < first + SLOTS - 1) slot++;
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
        v = text(u8, at + 4, at + 3 + len);
        at += 4 + len;
        break;
      }
      case 0x03:
      case 0x04:
        v = documentAt(u8, dv, at, end, t === 0x04, depth + 1);
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
    if (isArray) obj.push(v);
    else if (name === '__proto__') {
      Object.defineProperty(obj, name, { value: v, writable: true, enumerable: true, configurable: true });
    } else obj[name] = v;
  }
}

module.exports.setBsonTypes = function (types) {
  ObjectIdType = types && typeof types.ObjectId === 'function' ? types.ObjectId : null;
};

module.exports.decodeReply = function (bytes) {
  try {
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return documentAt(bytes, dv, 0, bytes.length, false, 0);
  } catch (e) {
    if (!(e instanceof Unsupported) && !(e instanceof RangeError) && !(e instanceof TypeError)) throw e;
    return new Uint8Array(bytes);
  }
};

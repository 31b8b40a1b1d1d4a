// BSON value types for shell code. Each carries a `_bsontype` marker (as js-bson does) that the
// native converter (convert.rs) reads; their internal fields are non-enumerable.
(function (g, native) {
  'use strict';
  function hidden(obj, key, value) {
    Object.defineProperty(obj, key, { value: value, enumerable: false, writable: false });
  }
  function makeType(name, init, proto) {
    var ctor = function () {
      var self = this instanceof ctor ? this : Object.create(ctor.prototype);
      hidden(self, '_bsontype', name);
      init.apply(self, arguments);
      return self;
    };
    Object.defineProperty(ctor, 'name', { value: name });
    Object.keys(proto || {}).forEach(function (k) {
      Object.defineProperty(ctor.prototype, k, { value: proto[k], enumerable: false, writable: true });
    });
    return ctor;
  }

  var ObjectId = makeType('ObjectId', function (hex) {
    if (hex === undefined || hex === null) {
      hex = native.newObjectId();
    } else if (typeof hex === 'number') {
      hex = native.objectIdFromTime(hex);
    } else if (typeof hex !== 'string' || !/^[0-9a-fA-F]{24}$/.test(hex)) {
      throw new TypeError('Argument passed in must be a string of 24 hex characters');
    }
    hidden(this, '_hex', hex.toLowerCase());
  }, {
    // The legacy shell shows the constructor (`ObjectId("…")`); mongosh the hex digits.
    toString: function () { return native.getStyle() === 'legacy' ? 'ObjectId("' + this._hex + '")' : this._hex; },
    toHexString: function () { return this._hex; },
    toJSON: function () { return legacy() ? { $oid: this._hex } : this._hex; },
    getTimestamp: function () { return new Date(parseInt(this._hex.substring(0, 8), 16) * 1000); },
    equals: function (o) { return o != null && o._bsontype === 'ObjectId' && o._hex === this._hex; },
    valueOf: function () { return this._hex; },
  });
  Object.defineProperty(ObjectId.prototype, 'str', { get: function () { return this._hex; } });
  Object.defineProperty(ObjectId.prototype, 'isObjectId', { value: true });
  ObjectId.createFromHexString = function (h) { return ObjectId(h); };
  ObjectId.createFromTime = function (t) { return ObjectId(t); };
  // The legacy shell's ObjectId.fromDate(date): the id of the date's second, its other bytes zero;
  // anything but a Date, or a second outside 32 bits, is refused.
  ObjectId.fromDate = function (date) {
    if (!(date instanceof Date)) throw new TypeError('ObjectId.fromDate needs a Date, not ' + typeof date);
    var secs = Math.floor(date.getTime() / 1000);
    if (!(secs >= 0 && secs <= 0xffffffff)) {
      throw new RangeError('ObjectId.fromDate: ' + date.toISOString() + ' does not fit in an ObjectId\'s 4-byte time');
    }
    return ObjectId(secs);
  };
  ObjectId.isValid = function (h) { return typeof h === 'string' && /^[0-9a-fA-F]{24}$/.test(h); };

  // The legacy style: the legacy shell's forms of JSON.stringify (its types' toJSON give
  // Extended JSON; jstests/core/json1.js) and of NumberLong.
  function legacy() { return native.getStyle() === 'legacy'; }
  function integerText(v, what) {
    if (v === undefined) return '0';
    if (typeof v === 'number') {
      if (!isFinite(v)) throw new TypeError(what + ' cannot be ' + v);
      // The exact integer: String() rounds large doubles (-2^63 would read -9223372036854776000).
      return BigInt(Math.trunc(v)).toString();
    }
    if (typeof v === 'string' && /^[+-]?\d+$/.test(v.trim())) return v.trim().replace(/^\+/, '');
    if (v && v._bsontype) return String(v._bsontype === 'Int32' ? v.valueOf() : v);
    throw new TypeError('Invalid ' + what + ' value: ' + v);
  }
  var INT64_MIN = -(2n ** 63n);
  var INT64_MAX = 2n ** 63n - 1n;
  // The legacy shell's NumberLong(…) (mozjs numberlong.cpp): no argument, one (a whole number
  // that fits, a decimal string, or anything ToInt64 reads), or three (floatApprox, top,
  // bottom: the two 32-bit halves, floatApprox ignored); anything else is refused with its text.
  function legacyLongText(args) {
    if (args.length === 0) return '0';
    if (args.length === 1) {
      var v = args[0];
      if (typeof v === 'number') {
        if (!Number.isInteger(v) || v < -9223372036854775808 || v >= 9223372036854775808) {
          throw new Error('number passed to NumberLong must be representable as an int64_t');
        }
        return BigInt(v).toString();
      }
      if (typeof v === 'string') {
        var big = /^[+-]?\d+$/.test(v) ? BigInt(v) : null;
        if (big === null || big < INT64_MIN || big > INT64_MAX) {
          throw new Error('could not convert string to long long');
        }
        return big.toString();
      }
      if (v instanceof Long) return v._v;
      return BigInt.asIntN(64, BigInt(Math.trunc(Number(v)) || 0)).toString();
    }
    if (args.length !== 3) throw new Error('NumberLong needs 0, 1 or 3 arguments');
    ['floatApprox', 'top', 'bottom'].forEach(function (name, i) {
      if (typeof args[i] !== 'number') throw new Error(name + ' must be a number');
    });
    ['top', 'bottom'].forEach(function (name, i) {
      var half = args[i + 1];
      if (!Number.isInteger(half) || half < 0 || half > 4294967295) {
        throw new Error(name + ' must be a 32 bit unsigned number');
      }
    });
    return BigInt.asIntN(64, (BigInt(args[1]) << 32n) + BigInt(args[2])).toString();
  }
  var Long = makeType('Long', function (v) {
    var text = native.getStyle() === 'legacy' ? legacyLongText(arguments) : integerText(v, 'Long');
    hidden(this, '_v', native.checkInt64(text));
  }, {
    // The legacy shell's NumberLong shows its constructor, the value quoted from 2^31 on
    // (mozjs numberlong.cpp toString; jstests/core/numberlong.js); mongosh's Long the digits.
    toString: function () {
      if (native.getStyle() !== 'legacy') return this._v;
      var quoted = BigInt(this._v) <= -(2n ** 31n) || BigInt(this._v) >= 2n ** 31n;
      return quoted ? 'NumberLong("' + this._v + '")' : 'NumberLong(' + this._v + ')';
    },
    toNumber: function () { return Number(this._v); },
    valueOf: function () { return Number(this._v); },
    // The legacy shell's JSON.stringify writes `{"$numberLong": "…"}` (jstests/core/json1.js).
    toJSON: function () { return native.getStyle() === 'legacy' ? { $numberLong: this._v } : this._v; },
    equals: function (o) { return o != null && String(o) === this._v; },
    // -1, 0 or 1; the legacy shell takes exactly one NumberLong.
    compare: function (other) {
      if (arguments.length !== 1) throw new Error('NumberLong.compare() needs 1 argument');
      if (!(other instanceof Long)) {
        if (native.getStyle() === 'legacy') throw new Error('NumberLong.compare() argument must be a NumberLong');
        other = Long(other);
      }
      var a = BigInt(this._v), b = BigInt(other._v);
      return a < b ? -1 : (a > b ? 1 : 0);
    },
  });
  // The legacy shell's NumberLong reads as a double `floatApprox` and, as two 32-bit halves,
  // `top` and `bottom`; none can be assigned (jstests/core/type7.js).
  Object.defineProperty(Long.prototype, 'floatApprox', { get: function () { return Number(this._v); } });
  // The high half as unsigned, as mozjs shifts the value as a uint64_t (numberlong.js expects
  // 4292380288 for -11111111111111111).
  Object.defineProperty(Long.prototype, 'top', {
    get: function () { return Number(BigInt.asUintN(64, BigInt(this._v)) >> 32n); },
  });
  Object.defineProperty(Long.prototype, 'exactValueString', { get: function () { return this._v; } });
  Object.defineProperty(Long.prototype, 'bottom', {
    get: function () { return Number(BigInt.asUintN(32, BigInt(this._v))); },
  });
  Long.fromNumber = function (n) { return Long(n); };
  Long.fromString = function (s) { return Long(s); };
  var Int32 = makeType('Int32', function (v) {
    var n = Number(v === undefined ? 0 : v);
    if (isNaN(n)) n = 0;
    hidden(this, '_v', n | 0);
  }, {
    // The legacy shell's NumberInt shows its constructor (jstests/core/numberint.js); mongosh's
    // Int32 the number.
    toString: function () { return native.getStyle() === 'legacy' ? 'NumberInt(' + this._v + ')' : String(this._v); },
    toNumber: function () { return this._v; },
    valueOf: function () { return this._v; },
    toJSON: function () { return this._v; },
  });
  var Double = makeType('Double', function (v) { hidden(this, '_v', Number(v)); }, {
    toString: function () { return String(this._v); },
    valueOf: function () { return this._v; },
  });
  var Decimal128 = makeType('Decimal128', function (v) { hidden(this, '_v', native.checkDecimal(String(v === undefined ? '0' : v))); }, {
    toString: function () { return this._v; },
    toJSON: function () { return { $numberDecimal: this._v }; },
  });
  Decimal128.fromString = function (s) { return Decimal128(s); };
  var Timestamp = makeType('Timestamp', function (t, i) {
    if (t !== null && typeof t === 'object' && !(t._bsontype)) { i = t.i; t = t.t; }
    // Both parts are unsigned 32-bit numbers: the legacy shell and js-bson (mongosh) refuse
    // others rather than wrap them (jstests/core/shelltypes.js).
    var time = Number(t || 0);
    var inc = Number(i || 0);
    if (time < 0) throw new TypeError('Timestamp constructed from { t, i } must provide a positive t');
    if (inc < 0) throw new TypeError('Timestamp constructed from { t, i } must provide a positive i');
    if (time > 0xffffffff) throw new TypeError('Timestamp constructed from { t, i } must provide t equal or less than uint32 max');
    if (inc > 0xffffffff) throw new TypeError('Timestamp constructed from { t, i } must provide i equal or less than uint32 max');
    hidden(this, 't', time >>> 0);
    hidden(this, 'i', inc >>> 0);
  }, {
    // (mongosh's has no toJSON: its fields are hidden, so it stringifies as {}.)
    toJSON: function () { return legacy() ? { $timestamp: { t: this.t, i: this.i } } : {}; },
    getTime: function () { return this.t; },
    getInc: function () { return this.i; },
    toString: function () { return 'Timestamp(' + this.t + ', ' + this.i + ')'; },
  });
  var Binary = makeType('Binary', function (base64, subtype) {
    hidden(this, '_base64', native.checkBase64(String(base64 || '')));
    hidden(this, 'sub_type', Number(subtype || 0));
  }, {
    base64: function () { return this._base64; },
    toJSON: function () {
      if (!legacy()) return {};
      return { $binary: this._base64, $type: (this.sub_type < 16 ? '0' : '') + this.sub_type.toString(16) };
    },
    toString: function () { return this._base64; },
    length: function () { return native.base64Length(this._base64); },
    hex: function () { return native.base64ToHex(this._base64); },
  });
  // The legacy shell names the subtype `type`.
  Object.defineProperty(Binary.prototype, 'type', { get: function () { return this.sub_type; } });
  Binary.createFromBase64 = function (b, s) { return Binary(b, s); };
  Binary.createFromHexString = function (h, s) { return Binary(native.hexToBase64(h), s); };
  // The legacy shell's MinKey and MaxKey are singletons kept on the prototype; a `singleton`
  // put there that is not one is refused (mozjs minkey.cpp, jstests/core/type6.js).
  function checkSingleton(self, name) {
    var proto = Object.getPrototypeOf(self);
    if (Object.prototype.hasOwnProperty.call(proto, 'singleton') &&
        !(proto.singleton instanceof Object && proto.singleton._bsontype === name)) {
      throw new Error(name + ' singleton not of type ' + name);
    }
  }
  var MinKey = makeType('MinKey', function () { checkSingleton(this, 'MinKey'); });
  var MaxKey = makeType('MaxKey', function () { checkSingleton(this, 'MaxKey'); });
  // The legacy shell's MinKey and MaxKey globals stand for the values, in JSON.stringify too.
  [[MinKey, '$minKey'], [MaxKey, '$maxKey']].forEach(function (pair) {
    function extended() {
      var out = {};
      out[pair[1]] = 1;
      return out;
    }
    // mongosh stringifies the constructor as nothing and a value as {}, as before.
    Object.defineProperty(pair[0], 'toJSON', {
      value: function () { return legacy() ? extended() : undefined; }, writable: true, configurable: true,
    });
    Object.defineProperty(pair[0].prototype, 'toJSON', {
      value: function () { return legacy() ? extended() : {}; }, writable: true, configurable: true,
    });
  });
  var Code = makeType('Code', function (code, scope) {
    hidden(this, 'code', typeof code === 'function' ? code.toString() : String(code));
    if (scope !== undefined) hidden(this, 'scope', scope);
  }, { toString: function () { return this.code; } });
  var BSONRegExp = makeType('BSONRegExp', function (pattern, options) {
    hidden(this, 'pattern', String(pattern));
    hidden(this, 'options', String(options || ''));
  });
  var BSONSymbol = makeType('BSONSymbol', function (v) { hidden(this, 'value', String(v)); }, {
    toString: function () { return this.value; },
  });

  function UUID(hex) {
    var h = hex === undefined ? native.randomUuidHex() : String(hex).replace(/-/g, '');
    if (!/^[0-9a-fA-F]{32}$/.test(h)) throw new TypeError('UUID string must be 32 hex digits');
    return Binary(native.hexToBase64(h), 4);
  }
  function MD5(hex) { return Binary(native.hexToBase64(String(hex)), 5); }
  function HexData(subtype, hex) { return Binary(native.hexToBase64(String(hex)), subtype); }
  function BinData(subtype, base64) { return Binary(base64, subtype); }
  function NumberLong() { return Long.apply(null, arguments); }
  function NumberInt(v) { return Int32(v); }
  // The legacy shell's NumberDecimal(number) is the server's Decimal128(double), rounded to
  // 15 significant digits (mozjs ValueWriter::toDecimal128): NumberDecimal(1.9) is
  // 1.90000000000000, as $convert makes it. mongosh reads the number's text.
  function NumberDecimal(v) {
    if (typeof v === 'number' && native.getStyle() === 'legacy' && isFinite(v) && v !== 0) {
      return Decimal128(v.toExponential(14));
    }
    return Decimal128(v);
  }
  // The legacy shell's ISODate reads each part as a number and lets the date arithmetic carry
  // an out-of-range one (seconds 64 is the next minute's 4), within years 0000-9999; mongosh's,
  // like the native parser, refuses it.
  function lenientIsoDate(text) {
    var m = /^(\d{4})-?(\d{2})-?(\d{2})(?:[T ](\d{2})(?::?(\d{2})(?::?(\d{2})(\.\d+)?)?)?(Z|([+-])(\d{2}):?(\d{2})?)?)?$/.exec(text);
    if (m === null) return null;
    var d = new Date(0);
    d.setUTCFullYear(+m[1], +m[2] - 1, +m[3]);
    d.setUTCHours(+(m[4] || 0), +(m[5] || 0), +(m[6] || 0), Math.round(parseFloat(m[7] || '0') * 1000));
    var t = d.getTime();
    if (m[9]) {
      var offset = (+m[10]) * 3600000 + (+(m[11] || 0)) * 60000;
      t += m[9] === '+' ? -offset : offset;
    }
    return t < -62167219200000 || t > 253402300799999 ? null : t;
  }
  function ISODate(s) {
    if (s === undefined) return new Date(native.now());
    // The legacy shell reads the text with its own pattern only: it rounds a fraction past
    // milliseconds to the nearest one (.1235 is .124) and refuses a year or year-month alone
    // and anything past 9999-12-31T23:59:59.999Z (jstests/aggregation/bugs/server8164.js),
    // where mongosh's Date truncates the fraction and takes `2017` as a date.
    var ms = native.getStyle() === 'legacy' ? lenientIsoDate(String(s)) : native.parseIsoDate(String(s));
    if (ms === null) throw new Error('invalid ISO date: ' + s);
    return new Date(ms);
  }
  // A DBRef is the document {$ref, $id[, $db]}; its prototype gives the legacy shell's fetch()
  // (the referenced document, from $db or the current database) and accessors. Documents of
  // that shape read from the server are DBRefs too (convert.rs).
  function DBRef(ns, id, db) {
    var r = Object.create(DBRef.prototype);
    r.$ref = ns;
    r.$id = id;
    if (db !== undefined) r.$db = db;
    return r;
  }
  function hidden(obj, name, value) {
    Object.defineProperty(obj, name, { value: value, writable: true, configurable: true, enumerable: false });
  }
  function fetchReferenced(dbName, collName, id) {
    var database = dbName === undefined || dbName === null ? g.db : g.db.getSiblingDB(dbName);
    return database.getCollection(collName).findOne({ _id: id });
  }
  hidden(DBRef.prototype, 'fetch', function fetch() {
    if (!this.$ref) throw new Error('DBRef.fetch: the reference has no $ref (collection)');
    return fetchReferenced(this.$db, this.$ref, this.$id);
  });
  hidden(DBRef.prototype, 'getRef', function getRef() { return this.$ref; });
  hidden(DBRef.prototype, 'getCollection', function getCollection() { return this.$ref; });
  hidden(DBRef.prototype, 'getId', function getId() { return this.$id; });
  hidden(DBRef.prototype, 'getDb', function getDb() { return this.$db; });
  // The deprecated BSON DBPointer (type 12): a namespace and an ObjectId, stored through its
  // Extended JSON form; fetch() reads the document it points at, as the legacy shell's does.
  function DBPointer(ns, id) {
    if (typeof ns !== 'string') throw new Error('DBPointer 1st parameter must be a string');
    if (!(id instanceof ObjectId)) throw new Error('DBPointer 2nd parameter must be an ObjectId');
    var p = Object.create(DBPointer.prototype);
    p._bsontype = 'Raw';
    p._ejson = JSON.stringify({ $dbPointer: { $ref: ns, $id: { $oid: id.toHexString() } } });
    hidden(p, 'ns', ns);
    hidden(p, 'id', id);
    return p;
  }
  hidden(DBPointer.prototype, 'fetch', function fetch() { return fetchReferenced(null, this.ns, this.id); });
  hidden(DBPointer.prototype, 'getCollection', function getCollection() { return this.ns; });
  hidden(DBPointer.prototype, 'getId', function getId() { return this.id; });

  // The legacy shell's constructors are the types themselves: `x instanceof NumberLong` holds
  // for every 64-bit integer, whichever name built it.
  NumberLong.prototype = Long.prototype;
  NumberInt.prototype = Int32.prototype;
  NumberDecimal.prototype = Decimal128.prototype;
  BinData.prototype = Binary.prototype;

  var exported = {
    ObjectId: ObjectId, Long: Long, Int32: Int32, Double: Double, Decimal128: Decimal128,
    Timestamp: Timestamp, Binary: Binary, MinKey: MinKey, MaxKey: MaxKey, Code: Code,
    BSONRegExp: BSONRegExp, BSONSymbol: BSONSymbol, UUID: UUID, MD5: MD5, HexData: HexData,
    BinData: BinData, NumberLong: NumberLong, NumberInt: NumberInt, NumberDecimal: NumberDecimal,
    ISODate: ISODate, DBRef: DBRef, DBPointer: DBPointer,
  };
  Object.keys(exported).forEach(function (k) {
    Object.defineProperty(g, k, { value: exported[k], writable: true, configurable: true, enumerable: false });
  });
  // The converter builds values through this table, so user code that reassigns a global
  // (e.g. `ObjectId = 1`) cannot break result conversion.
  Object.defineProperty(g, '__sproutBson', { value: Object.freeze(Object.assign({}, exported)), enumerable: false });
})(globalThis, __sproutNative);

// The legacy mongo shell's database and collection helpers that MongoDB's own jstests call and
// that the books do not need: db.createView, db._adminCommand, db.serverStatus, db.hostInfo,
// db.serverBuildInfo, db.getProfilingLevel, db.killOp, db.fsyncLock / fsyncUnlock,
// coll.convertToSingleObject and coll.mapReduce (in both styles: mongosh's answers the reply);
// and the legacy shell's own globals tostrictjson, tojsonObject, shellAutocomplete and its Map's
// put/get.
// Each sends the command the legacy shell's helper sends (mongo/shell/db.js, collection.js), so
// a command Sprout's server lacks fails with its name ("no such command: …") rather than with
// Boa's nameless "not a callable function". Evaluated on first use (js/lazy_modules.js).
(function (g) {
  'use strict';
  var D = Object.getPrototypeOf(g.db);
  var C = g.DBCollection.prototype;
  function define(obj, name, value) {
    Object.defineProperty(obj, name, { value: value, writable: true, configurable: true, enumerable: false });
  }

  define(D, '_adminCommand', function (cmd) { return this.adminCommand(cmd); });
  // db.js / collection.js getWriteConcern, setWriteConcern, unsetWriteConcern: a default write
  // concern kept on the database or collection (a collection's own, else its database's). The
  // legacy shell adds it to writes that name none; on one in-process server every write is
  // acknowledged whatever it asks, so Sprout keeps it only to answer getWriteConcern.
  function writeConcernHelpers(proto, parent) {
    define(proto, 'getWriteConcern', function () {
      if (this._writeConcern) return this._writeConcern;
      var up = parent(this);
      return up ? up.getWriteConcern() : undefined;
    });
    define(proto, 'setWriteConcern', function (wc) {
      if (wc === null || typeof wc !== 'object') throw new Error('setWriteConcern needs a writeConcern object, not ' + wc);
      var kept = Object.assign({}, wc);
      // The legacy WriteConcern object's toJSON (mongo/shell/bulk_api.js): the plain document.
      define(kept, 'toJSON', function () { return Object.assign({}, this); });
      define(this, '_writeConcern', kept);
    });
    define(proto, 'unsetWriteConcern', function () { delete this._writeConcern; });
  }
  writeConcernHelpers(D, function () { return null; });
  // collection.js latencyStats: the $collStats stage's latency histograms, as a cursor.
  define(C, 'latencyStats', function (options) {
    return this.aggregate([{ $collStats: { latencyStats: options || {} } }]);
  });
  writeConcernHelpers(C, function (coll) { return coll._db; });
  // db.js createView: a single stage may stand for the pipeline; the options join the command.
  define(D, 'createView', function (name, viewOn, pipeline, options) {
    if (viewOn === undefined || viewOn === null) throw new Error('Must specify a backing view or collection');
    var cmd = { create: name };
    options = options || {};
    if (pipeline !== undefined && pipeline !== null && !Array.isArray(pipeline)) pipeline = [pipeline];
    options.pipeline = pipeline;
    options.viewOn = viewOn;
    Object.keys(options).forEach(function (k) { if (options[k] !== undefined) cmd[k] = options[k]; });
    return this.runCommand(cmd);
  });
  define(D, 'serverStatus', function (options) {
    return this.adminCommand(Object.assign({ serverStatus: 1 }, options || {}));
  });
  define(D, 'hostInfo', function () { return this.adminCommand({ hostInfo: 1 }); });
  define(D, 'serverBuildInfo', function () { return this.adminCommand({ buildinfo: 1 }); });
  // db.js getProfilingLevel: the `was` field of {profile: -1}, which must succeed.
  define(D, 'getProfilingLevel', function () {
    return g.assert.commandWorked(this.runCommand({ profile: -1 })).was;
  });
  define(D, 'killOp', function (op) {
    if (op === undefined) throw new Error('no opNum to kill specified');
    return this.adminCommand({ killOp: 1, op: op });
  });
  define(D, 'fsyncLock', function () { return this.adminCommand({ fsync: 1, lock: true }); });
  define(D, 'fsyncUnlock', function () { return this.adminCommand({ fsyncUnlock: 1 }); });

  // collection.js convertToSingleObject: {<_id>: <valueField>} of every document.
  define(C, 'convertToSingleObject', function (valueField) {
    var z = {};
    this.find().forEach(function (a) { z[a._id] = a[valueField]; });
    return z;
  });

  // collection.js MapReduceResult: the reply's fields, with find/drop/convertToSingleObject over
  // the output collection (or the inline results).
  function MapReduceResult(db, reply) {
    var self = this;
    Object.keys(reply).forEach(function (k) { self[k] = reply[k]; });
    define(this, '_o', reply);
    define(this, '_db', db);
    if (reply.result !== undefined && reply.result !== null) {
      var r = reply.result;
      define(this, '_coll', typeof r === 'string' ? db.getCollection(r)
        : db.getSiblingDB(r.db).getCollection(r.collection));
    }
  }
  define(MapReduceResult.prototype, 'find', function () {
    if (this.results) throw new Error("compact results can't be used with find()");
    return this._coll.find.apply(this._coll, arguments);
  });
  define(MapReduceResult.prototype, 'drop', function () {
    if (this._coll) return this._coll.drop();
  });
  define(MapReduceResult.prototype, 'convertToSingleObject', function () {
    var z = {};
    var it = this.results ? this.results : this._coll.find();
    it.forEach(function (a) { z[a._id] = a.value; });
    return z;
  });
  define(g, 'MapReduceResult', MapReduceResult);

  // collection.js mapReduce: the options object (or the output collection's name) joins the
  // command; a failure throws "map reduce failed:" with the reply; the answer is a
  // MapReduceResult. mongosh's (collection.ts) warns that it is deprecated, needs `out`, throws
  // a failure as a server error and answers the reply itself.
  define(C, 'mapReduce', function (map, reduce, optionsOrOutString) {
    var legacy = g.__sproutApi.isLegacy();
    var cmd = { mapReduce: this._name, map: map, reduce: reduce };
    if (legacy) cmd = { mapreduce: this._name, map: map, reduce: reduce };
    if (typeof optionsOrOutString === 'string') cmd.out = optionsOrOutString;
    else Object.keys(optionsOrOutString || {}).forEach(function (k) { cmd[k] = optionsOrOutString[k]; });
    if (!legacy) {
      g.__sproutApi.deprecationWarning('Collection.mapReduce() is deprecated. Use an aggregation instead.\n' +
        'See https://mongodb.com/docs/manual/core/map-reduce for details.');
      if (cmd.out === undefined) throw new g.__sproutApi.MongoshInvalidInputError('Missing required option: out');
      // The driver sends functions as their source (mongosh's serializeFunctions).
      ['map', 'reduce', 'finalize'].forEach(function (k) {
        if (typeof cmd[k] === 'function') cmd[k] = cmd[k].toString();
      });
      if (cmd.scope && typeof cmd.scope === 'object') {
        var scope = {};
        Object.keys(cmd.scope).forEach(function (k) {
          var v = cmd.scope[k];
          scope[k] = typeof v === 'function' ? v.toString() : v;
        });
        cmd.scope = scope;
      }
      return this._db.runCommand(cmd);
    }
    var reply = this._db.runCommand(cmd);
    if (!reply.ok) {
      var e = new Error('map reduce failed:' + g.tojson(reply));
      e.code = reply.code;
      e.codeName = reply.codeName;
      throw e;
    }
    return new MapReduceResult(this._db, reply);
  });

  // tostrictjson(x, indent, nolint): tojson of x with each BSON value in its Extended JSON form,
  // its toJSON in the legacy style (`{ "x" : { "$numberLong" : "64" } }`), and dates as
  // `{$date: …}`.
  function strict(v) {
    if (v === null || typeof v !== 'object') return v;
    if (v instanceof Date) return { $date: v.toISOString() };
    if (v._bsontype !== undefined || v instanceof RegExp) return v.toJSON();
    if (Array.isArray(v)) return v.map(strict);
    var out = {};
    Object.keys(v).forEach(function (k) { out[k] = strict(v[k]); });
    return out;
  }
  define(g, 'tostrictjson', function (x, indent, nolint) { return g.tojson(strict(x), indent, nolint); });

  // The legacy shell's Map (mongo/shell/types.js) stood in for JavaScript's: put(key, value) and
  // get(key) compare keys by their tojson text (so {a: 1} finds {a: 1}, not {b: 1, a: 1}), get
  // answers null for a key never put, values() is an array. Here a Map becomes one of those at
  // its first put(); a Map never given put() keeps JavaScript's get and values
  // (jstests/core/map1.js, jstests/libs/cycle_detection.js).
  var legacyMaps = new WeakMap();
  var jsMapGet = Map.prototype.get;
  var jsMapValues = Map.prototype.values;
  function legacyEntry(map, key, make) {
    var table = legacyMaps.get(map);
    if (table === undefined) {
      if (!make) return null;
      table = Object.create(null);
      legacyMaps.set(map, table);
    }
    var text = g.tojson(key);
    if (!(text in table)) {
      if (!make) return null;
      table[text] = { key: key, value: null };
    }
    return table[text];
  }
  define(Map.prototype, 'put', function (key, value) {
    var entry = legacyEntry(this, key, true);
    var old = entry.value;
    entry.value = value;
    return old;
  });
  define(Map.prototype, 'get', function (key) {
    if (!legacyMaps.has(this)) return jsMapGet.call(this, key);
    var entry = legacyEntry(this, key, false);
    return entry === null ? null : entry.value;
  });
  define(Map.prototype, 'values', function () {
    var table = legacyMaps.get(this);
    if (table === undefined) return jsMapValues.call(this);
    return Object.keys(table).map(function (text) { return table[text].value; });
  });

  // tojsonObject(x, indent, nolint): the legacy shell's tojson of an object (what tojson calls
  // for one), refusing anything else; without `nolint` it is never folded onto one line.
  define(g, 'tojsonObject', function (x, indent, nolint) {
    if (x === null || typeof x !== 'object') throw new Error('tojsonObject needs object, not [' + typeof x + ']');
    return g.tojson(x, indent || '', nolint === true);
  });

  // shellAutocomplete(prefix): the legacy shell's completion (mongo/shell/utils.js), which leaves
  // its answers in the global `__autocomplete__`: for `expr.partial`, `expr.` followed by each
  // property of expr's value (its own and its prototypes', `_`-prefixed ones only when asked
  // for) that starts with `partial`; for a bare name, the global names that start with it.
  define(g, 'shellAutocomplete', function (prefix) {
    prefix = String(prefix);
    var dot = prefix.lastIndexOf('.');
    var head = dot < 0 ? '' : prefix.substring(0, dot + 1);
    var partial = prefix.substring(dot + 1);
    var value = g;
    if (dot >= 0) {
      var path = prefix.substring(0, dot);
      if (!/^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/.test(path)) { g.__autocomplete__ = []; return; }
      try {
        value = path.split('.').reduce(function (v, k) { return v == null ? undefined : v[k]; }, g);
      } catch (e) {
        value = undefined;
      }
    }
    var names = {};
    for (var o = value == null ? null : Object(value); o !== null; o = Object.getPrototypeOf(o)) {
      Object.getOwnPropertyNames(o).forEach(function (k) { names[k] = true; });
    }
    g.__autocomplete__ = Object.keys(names).filter(function (k) {
      return k.indexOf(partial) === 0 && (k.charAt(0) !== '_' || partial.charAt(0) === '_');
    }).sort().map(function (k) { return head + k; });
  });
})(globalThis);

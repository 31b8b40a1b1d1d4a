// Shell globals beyond the database API: the engine clock behind Date, seeded Math.random,
// the legacy shell's assert family, load() of registered scripts, sprout.setStyle(), the
// simulated clock (sprout.advanceClock(seconds), sprout.clock()) and data in and out in
// MongoDB's formats (sprout.exportJSON/importJSON/exportArchive/importArchive).
(function (g, native) {
  'use strict';
  function define(name, value) {
    Object.defineProperty(g, name, { value: value, writable: true, configurable: true, enumerable: false });
  }

  // ---- String.prototype.substr ---------------------------------------------------------------
  // Annex B of ECMAScript (B.2.2.1), which every browser and Node.js have and old shell scripts
  // use; Boa is built without its Annex B features.
  if (typeof String.prototype.substr !== 'function') {
    Object.defineProperty(String.prototype, 'substr', {
      value: function substr(start, length) {
        if (this === null || this === undefined) {
          throw new TypeError('String.prototype.substr called on null or undefined');
        }
        var s = String(this);
        var size = s.length;
        var from = Math.trunc(Number(start)) || 0;
        if (from === -Infinity) from = 0;
        else if (from < 0) from = Math.max(size + from, 0);
        else from = Math.min(from, size);
        var count = length === undefined ? size : Math.trunc(Number(length)) || 0;
        count = Math.min(Math.max(count, 0), size);
        return s.substring(from, Math.min(from + count, size));
      },
      writable: true, configurable: true, enumerable: false,
    });
  }

  // ---- Date on the engine clock ------------------------------------------------------------
  // `new Date()` and `Date.now()` read the engine's clock, so a session on a simulated clock is
  // reproducible; every other form is the real Date. Dates keep the real prototype, so
  // `instanceof Date` and the BSON conversion see ordinary Date objects.
  // A string Boa's Date cannot read but V8's can (`new Date("08/27/2010")`, `Date.parse(d.toString())`)
  // is read by V8's legacy rules (loose_dates.rs); without a zone it is local time, as in V8.
  var RealDate = Date;
  function parseDate(text) {
    var ms = RealDate.parse(text);
    if (ms === ms) return ms;
    var p = native.parseLooseDate(String(text));
    if (p === null) return NaN;
    if (p[7] !== null) {
      var utc = new RealDate(RealDate.UTC(2000, p[1], p[2], p[3], p[4], p[5], p[6]));
      utc.setUTCFullYear(p[0]);
      return utc.getTime() - p[7] * 60000;
    }
    var local = new RealDate(2000, p[1], p[2], p[3], p[4], p[5], p[6]);
    local.setFullYear(p[0]);
    return local.getTime();
  }
  function ShellDate() {
    if (new.target === undefined) return new RealDate(native.now()).toString();
    var args = Array.prototype.slice.call(arguments);
    if (args.length === 0) args = [native.now()];
    else if (args.length === 1 && typeof args[0] === 'string') args = [parseDate(args[0])];
    return Reflect.construct(RealDate, args, new.target === ShellDate ? RealDate : new.target);
  }
  ShellDate.prototype = RealDate.prototype;
  Object.defineProperty(RealDate.prototype, 'constructor', { value: ShellDate, writable: true, configurable: true, enumerable: false });
  // The legacy shell's Date.prototype.tojson: ISODate("…"), as tojson prints a date.
  Object.defineProperty(RealDate.prototype, 'tojson', {
    value: function tojson() { return native.format(this, 'tojson'); }, writable: true, configurable: true, enumerable: false,
  });
  // The legacy shell's RegExp.prototype.toJSON: {$regex, $options} (jstests/core/json1.js);
  // mongosh's regexes stringify as {}, as before.
  Object.defineProperty(RegExp.prototype, 'toJSON', {
    value: function toJSON() {
      return native.getStyle() === 'legacy' ? { $regex: this.source, $options: this.flags } : {};
    }, writable: true, configurable: true, enumerable: false,
  });
  ShellDate.now = function now() { return native.now(); };
  ShellDate.parse = function parse(text) { return parseDate(String(text)); };
  ShellDate.UTC = RealDate.UTC;
  Object.defineProperty(ShellDate, 'name', { value: 'Date' });
  define('Date', ShellDate);
  Math.random = function random() { return native.random(); };

  // ---- the legacy shell's assert ------------------------------------------------------------
  function tojson(v) { return native.format(v, 'tojson'); }
  function doassert(msg) {
    if (typeof msg === 'function') msg = msg();
    throw new Error(msg);
  }
  function friendlyEqual(a, b) {
    if (a == b) return true;
    var clean = function (s) { return s.replace(/NumberInt\((-?\d+)\)/g, '$1'); };
    return clean(native.format(a, 'legacy-oneline')) === clean(native.format(b, 'legacy-oneline'));
  }
  function suffix(msg) { return ' : ' + msg; }
  function assert(b, msg) {
    if (b) return;
    doassert(msg === undefined ? 'assert failed' : 'assert failed' + suffix(msg));
  }
  assert.eq = function (a, b, msg) {
    if (a == b) return;
    if (a != null && b != null && friendlyEqual(a, b)) return;
    doassert('[' + tojson(a) + '] != [' + tojson(b) + '] are not equal' + suffix(msg));
  };
  assert.neq = function (a, b, msg) {
    if (a != b) return;
    doassert('[' + a + '] != [' + b + '] are equal' + suffix(msg));
  };
  // Field order does not matter, as in the legacy shell (utils.js sortDoc) and 8.0's
  // assert.docEq; array order does.
  function sortDoc(v) {
    if (Array.isArray(v)) return v.map(sortDoc);
    if (v === null || typeof v !== 'object' || v instanceof Date || v instanceof RegExp || v._bsontype) return v;
    var out = {};
    Object.keys(v).sort().forEach(function (k) { out[k] = sortDoc(v[k]); });
    return out;
  }
  assert.docEq = function (a, b, msg) {
    if (a == b) return;
    if (a != null && b != null && friendlyEqual(sortDoc(a), sortDoc(b))) return;
    doassert('[' + tojson(a) + '] != [' + tojson(b) + '] are not equal' + suffix(msg));
  };
  assert.isnull = function (what, msg) {
    if (what == null) return;
    doassert('supposed to be null (' + (msg || '') + ') was: ' + tojson(what));
  };
  function compare(name, op, test) {
    assert[name] = function (a, b, msg) {
      if (test(a, b)) return;
      doassert(a + ' is not ' + op + ' ' + b + (msg === undefined ? '' : suffix(msg)));
    };
  }
  compare('lt', 'less than', function (a, b) { return a < b; });
  compare('gt', 'greater than', function (a, b) { return a > b; });
  compare('lte', 'less than or eq', function (a, b) { return a <= b; });
  compare('gte', 'greater than or eq', function (a, b) { return a >= b; });
  assert.throws = function (func, params, msg) {
    try {
      func.apply(null, params || []);
    } catch (e) {
      return e;
    }
    doassert('did not throw exception' + (msg === undefined ? '' : suffix(msg)));
  };
  assert.doesNotThrow = function (func, params, msg) {
    try {
      return func.apply(null, params || []);
    } catch (e) {
      doassert('threw unexpected exception: ' + e + (msg === undefined ? '' : suffix(msg)));
    }
  };
  assert.contains = function (o, arr, msg) {
    var found = (arr || []).some(function (x) { return x == o || friendlyEqual(x, o); });
    if (!found) doassert(tojson(o) + ' was not in ' + tojson(arr) + (msg === undefined ? '' : suffix(msg)));
  };
  define('assert', assert);
  define('doassert', doassert);
  define('friendlyEqual', friendlyEqual);

  // ---- load() and sprout.* ---------------------------------------------------------------------
  define('load', function load(name) {
    if (!native.loadScript(String(name))) throw new Error('file [' + name + '] doesn\'t exist');
    return true;
  });
  // ---- data in and out in MongoDB's formats (docs/sprout-shell.md) ---------------------------
  // Each helper is one engine command (sproutExportJSON, sproutImportJSON, sproutExportArchive,
  // sproutImportArchive), so the page and the CLI run exactly the same code.
  function transferDbName(options) {
    if (options !== undefined && options !== null && options.db !== undefined) return String(options.db);
    return g.db && typeof g.db.getName === 'function' ? String(g.db.getName()) : 'test';
  }
  function transferOptions(options, allowed, helper) {
    if (options === undefined || options === null) return {};
    if (typeof options !== 'object') throw new TypeError(helper + ': options must be an object');
    Object.keys(options).forEach(function (k) {
      if (allowed.indexOf(k) < 0) throw new TypeError(helper + ': unknown option \'' + k + '\' (options: ' + allowed.join(', ') + ')');
    });
    return options;
  }
  function transferCommand(dbName, cmd) {
    var reply = native.runCommand(dbName, cmd);
    if (reply.ok !== 1) throw g.MongoServerError(reply);
    delete reply.ok;
    return reply;
  }
  function copyOptions(from, to, names) {
    names.forEach(function (pair) {
      var src = pair[0], dst = pair[1];
      if (from[src] !== undefined) to[dst] = from[src];
    });
    return to;
  }
  function exportJSON(collection, options) {
    var o = transferOptions(options, ['db', 'jsonFormat', 'mode', 'jsonArray', 'filter', 'query', 'sort', 'skip', 'limit', 'projection', 'fields'], 'sprout.exportJSON');
    var cmd = copyOptions(o, { sproutExportJSON: String(collection) }, [
      ['mode', 'jsonFormat'], ['jsonFormat', 'jsonFormat'], ['jsonArray', 'jsonArray'], ['query', 'filter'],
      ['filter', 'filter'], ['sort', 'sort'], ['skip', 'skip'], ['limit', 'limit'], ['fields', 'projection'],
      ['projection', 'projection']]);
    return transferCommand(transferDbName(o), cmd).text;
  }
  function importJSON(collection, text, options) {
    var o = transferOptions(options, ['db', 'jsonArray', 'drop', 'bypassDocumentValidation'], 'sprout.importJSON');
    if (typeof text !== 'string') throw new TypeError('sprout.importJSON: the data must be a string of JSON');
    var cmd = copyOptions(o, { sproutImportJSON: String(collection), text: text }, [
      ['jsonArray', 'jsonArray'], ['drop', 'drop'], ['bypassDocumentValidation', 'bypassDocumentValidation']]);
    return transferCommand(transferDbName(o), cmd);
  }
  function exportArchive(options) {
    var o = transferOptions(options, ['db', 'collections'], 'sprout.exportArchive');
    var cmd = copyOptions(o, { sproutExportArchive: 1 }, [['collections', 'collections']]);
    return transferCommand(transferDbName(o), cmd).archive;
  }
  function importArchive(data, options) {
    var o = transferOptions(options, ['db', 'fromDb', 'drop', 'bypassDocumentValidation'], 'sprout.importArchive');
    var bytes = typeof data === 'string' ? g.BinData(0, data) : data;
    if (!(bytes instanceof g.Binary)) throw new TypeError('sprout.importArchive: the archive must be a BinData or a base64 string');
    var cmd = copyOptions(o, { sproutImportArchive: bytes }, [
      ['fromDb', 'fromDb'], ['drop', 'drop'], ['bypassDocumentValidation', 'bypassDocumentValidation']]);
    return transferCommand(transferDbName(o), cmd);
  }

  // Sprout-only: a member of the simulated replica set (rs.initiate, ReplSetTest; js/replset.js)
  // stopped or restarted, its replication delayed or its round-trip time set.
  function replSetMember(host, fields) {
    var cmd = { sproutReplSetMember: host };
    Object.keys(fields).forEach(function (k) { cmd[k] = fields[k]; });
    return g.__sproutApi.command('admin', cmd);
  }
  var replSet = Object.freeze({
    stop: function (host) { return replSetMember(host, { running: false }); },
    start: function (host) { return replSetMember(host, { running: true }); },
    setLag: function (host, millis) { return replSetMember(host, { lagMillis: millis }); },
    setRtt: function (host, millis) { return replSetMember(host, { rttMillis: millis }); },
  });

  define('sprout', Object.freeze({
    replSet: replSet,
    setStyle: function (style) { return native.setStyle(String(style)); },
    getStyle: function () { return native.getStyle(); },
    scripts: function () { return native.scriptNames(); },
    // Sprout-only: move the engine's clock on (TTL indexes expire, new Date() moves) and read it.
    advanceClock: function (seconds) { native.advanceClock(seconds); return new Date(native.now()); },
    clock: function () { return new Date(native.now()); },
    exportJSON: exportJSON,
    importJSON: importJSON,
    exportArchive: exportArchive,
    importArchive: importArchive,
    help: function () {
      return 'Sprout shell helpers\n' +
        '  sprout.setStyle(style)        print as \'mongosh\' (default) or \'legacy\' (the 3.0 shell of the books)\n' +
        '  sprout.getStyle()             the current printing style\n' +
        '  sprout.scripts()              scripts load(name) can run\n' +
        '  sprout.clock()                the engine\'s time (what new Date() and $$NOW read)\n' +
        '  sprout.advanceClock(seconds)  move the engine\'s time forward; TTL indexes expire documents on it\n' +
        '  sprout.replSet.stop(host) / start(host)  stop or restart a member of the simulated replica set\n' +
        '  sprout.replSet.setLag(host, ms) / setRtt(host, ms)  delay a member\'s replication / set its round-trip time\n' +
        '  sprout.exportJSON(coll, opts) the collection as mongoexport JSON text (opts: jsonFormat, jsonArray, filter, sort, limit, db)\n' +
        '  sprout.importJSON(coll, text, opts)  import mongoexport/mongoimport JSON, all or nothing (opts: jsonArray, drop, db)\n' +
        '  sprout.exportArchive(opts)    the database as a mongodump --archive file, as BinData (opts: collections, db)\n' +
        '  sprout.importArchive(data, opts)  restore a mongodump archive (BinData or base64) into the database (opts: fromDb, drop, db)';
    },
  }));
})(globalThis, __sproutNative);

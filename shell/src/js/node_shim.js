// require() for the Node.js listings the books run (chapter 8's app.js): the 2.0-era driver's
// callback API (MongoClient.connect, db.collection, insert/update/remove/findOne/find().toArray,
// count, aggregate(pipeline, cb) and aggregate(pipeline).toArray(cb), createIndex/ensureIndex),
// read preferences (the ReadPreference class; the connection string's readPreference and
// readPreferenceTags; the readPreference option of connect, db, collection and each read; a
// cursor's setReadPreference), and the 'assert' and 'util' modules. Everything runs on this
// shell's engine; there is no network and no file system ('fs' loads, and each of its
// functions throws). Reads carry their read preference as `$readPreference`, so a simulated
// replica set (engine::replication) serves each from the member server selection picks.
(function (g, native) {
  'use strict';
  var api = g.__sproutApi;

  // ---- util -----------------------------------------------------------------------------------
  function inspect(v) { return typeof v === 'string' ? "'" + v + "'" : native.format(v, 'shell'); }
  function format(fmt) {
    var args = Array.prototype.slice.call(arguments, 1);
    if (typeof fmt !== 'string') {
      return [fmt].concat(args).map(function (a) { return typeof a === 'string' ? a : inspect(a); }).join(' ');
    }
    var out = fmt.replace(/%([sdifjoO%])/g, function (m, k) {
      if (k === '%') return '%';
      if (args.length === 0) return m;
      var a = args.shift();
      switch (k) {
        case 's': return typeof a === 'string' ? a : (typeof a === 'object' && a !== null ? inspect(a) : String(a));
        case 'd': return String(Number(a));
        case 'i': return String(parseInt(a, 10));
        case 'f': return String(parseFloat(a));
        case 'j': return JSON.stringify(a);
        default: return inspect(a);
      }
    });
    args.forEach(function (a) { out += ' ' + (typeof a === 'string' ? a : inspect(a)); });
    return out;
  }
  var util = Object.freeze({ format: format, inspect: inspect });

  // ---- assert (Node's) -------------------------------------------------------------------------
  function AssertionError(message, actual, expected, operator) {
    var e = new Error(message);
    e.name = 'AssertionError';
    e.code = 'ERR_ASSERTION';
    e.actual = actual;
    e.expected = expected;
    e.operator = operator;
    return e;
  }
  function check(ok, message, actual, expected, operator) {
    if (ok) return;
    if (message instanceof Error) throw message;
    throw AssertionError(message !== undefined ? String(message) :
      inspect(actual) + ' ' + operator + ' ' + inspect(expected), actual, expected, operator);
  }
  function deepEqual(a, b) { return native.format(a, 'legacy-oneline') === native.format(b, 'legacy-oneline'); }
  function nodeAssert(v, message) {
    check(!!v, message === undefined ? 'The expression evaluated to a falsy value:\n\n  assert(' + inspect(v) + ')\n' : message, v, true, '==');
  }
  nodeAssert.ok = nodeAssert;
  nodeAssert.equal = function (a, b, m) { check(a == b, m, a, b, '=='); };
  nodeAssert.notEqual = function (a, b, m) { check(a != b, m, a, b, '!='); };
  nodeAssert.strictEqual = function (a, b, m) { check(Object.is(a, b), m, a, b, 'strictEqual'); };
  nodeAssert.notStrictEqual = function (a, b, m) { check(!Object.is(a, b), m, a, b, 'notStrictEqual'); };
  nodeAssert.deepEqual = function (a, b, m) { check(deepEqual(a, b), m, a, b, 'deepEqual'); };
  nodeAssert.deepStrictEqual = nodeAssert.deepEqual;
  nodeAssert.notDeepEqual = function (a, b, m) { check(!deepEqual(a, b), m, a, b, 'notDeepEqual'); };
  nodeAssert.fail = function (m) { throw AssertionError(m === undefined ? 'Failed' : String(m)); };
  nodeAssert.AssertionError = AssertionError;
  Object.freeze(nodeAssert);

  // ---- fs ---------------------------------------------------------------------------------------
  var fs = {};
  ['readFile', 'readFileSync', 'writeFile', 'writeFileSync', 'existsSync', 'readdirSync', 'appendFile', 'appendFileSync']
    .forEach(function (name) {
      fs[name] = function () { throw new Error('fs.' + name + ' is not available: Sprout has no file system'); };
    });
  Object.freeze(fs);


  // ---- read preference (the driver's ReadPreference) ------------------------------------------
  // As the driver checks it (read_preference.ts): a known mode, tag sets as an array (a single
  // tag document is taken as a list of one, as the 2.x/3.x drivers did), a positive
  // maxStalenessSeconds, and neither tags nor staleness with 'primary'.
  var READ_MODES = ['primary', 'primaryPreferred', 'secondary', 'secondaryPreferred', 'nearest'];
  function MongoInvalidArgumentError(message) {
    var e = new Error(message);
    e.name = 'MongoInvalidArgumentError';
    return e;
  }
  function ReadPreference(mode, tags, options) {
    if (!(this instanceof ReadPreference)) return new ReadPreference(mode, tags, options);
    if (READ_MODES.indexOf(mode) < 0) {
      throw MongoInvalidArgumentError('Invalid read preference mode ' + JSON.stringify(mode));
    }
    if (tags !== undefined && tags !== null && !Array.isArray(tags)) {
      if (typeof tags !== 'object') throw MongoInvalidArgumentError('ReadPreference tags must be an array');
      if (options === undefined && tags.maxStalenessSeconds !== undefined) { options = tags; tags = undefined; } else tags = [tags];
    }
    this.mode = mode;
    if (tags !== undefined && tags !== null) this.tags = tags;
    options = options || {};
    if (options.maxStalenessSeconds !== undefined && options.maxStalenessSeconds !== null) {
      if (!(options.maxStalenessSeconds > 0)) throw MongoInvalidArgumentError('maxStalenessSeconds must be a positive integer');
      this.maxStalenessSeconds = options.maxStalenessSeconds;
    }
    if (mode === 'primary') {
      if (this.tags && this.tags.length > 0) throw MongoInvalidArgumentError('Primary read preference cannot be combined with tags');
      if (this.maxStalenessSeconds) throw MongoInvalidArgumentError('Primary read preference cannot be combined with maxStalenessSeconds');
    }
  }
  ReadPreference.PRIMARY = 'primary';
  ReadPreference.PRIMARY_PREFERRED = 'primaryPreferred';
  ReadPreference.SECONDARY = 'secondary';
  ReadPreference.SECONDARY_PREFERRED = 'secondaryPreferred';
  ReadPreference.NEAREST = 'nearest';
  ReadPreference.isValid = function (mode) { return READ_MODES.indexOf(mode) >= 0; };
  ReadPreference.fromString = function (mode) { return new ReadPreference(mode); };
  ReadPreference.prototype.isValid = function (mode) { return ReadPreference.isValid(mode === undefined ? this.mode : mode); };
  ReadPreference.prototype.secondaryOk = function () { return this.mode !== 'primary'; };
  ReadPreference.prototype.slaveOk = ReadPreference.prototype.secondaryOk;
  ReadPreference.prototype.equals = function (other) { return !!other && other.mode === this.mode; };
  // The `$readPreference` document a read carries.
  ReadPreference.prototype.toJSON = function () {
    var doc = { mode: this.mode };
    if (this.tags && this.tags.length) doc.tags = this.tags;
    if (this.maxStalenessSeconds !== undefined) doc.maxStalenessSeconds = this.maxStalenessSeconds;
    return doc;
  };
  ReadPreference.prototype.toObject = ReadPreference.prototype.toJSON;
  READ_MODES.forEach(function (m) { ReadPreference[m] = Object.freeze(new ReadPreference(m)); });
  Object.freeze(ReadPreference);
  // A readPreference option as the driver takes it: a mode string, a ReadPreference, or a
  // plain {mode, tags, maxStalenessSeconds} document; undefined when there is none.
  function readPreferenceOf(value) {
    if (value === undefined || value === null) return undefined;
    if (value instanceof ReadPreference) return value;
    if (typeof value === 'string') return new ReadPreference(value);
    if (typeof value === 'object') {
      return new ReadPreference(value.mode, value.tags, { maxStalenessSeconds: value.maxStalenessSeconds });
    }
    throw MongoInvalidArgumentError('Invalid read preference: ' + String(value));
  }
  // The connection string's read preference (js/connection.js reads the string).
  function readPreferenceFromUrl(url) {
    var rp = g.__sproutConnection.connectionString(url).readPreference;
    return rp ? new ReadPreference(rp.mode, rp.tags, { maxStalenessSeconds: rp.maxStalenessSeconds }) : undefined;
  }
  // A read's command with its read preference: the operation's own, else the collection's
  // (which inherits its database's and the client's).
  function withReadPreference(cmd, coll, options) {
    var rp = readPreferenceOf(options && options.readPreference) || coll._readPreference;
    if (rp) cmd.$readPreference = rp.toJSON();
    return cmd;
  }

  // ---- the driver ----------------------------------------------------------------------------------
  // Calls back synchronously (err, result); without a callback, returns a Promise.
  function finish(cb, work) {
    var err = null;
    var result;
    try { result = work(); } catch (e) { err = e; }
    if (typeof cb === 'function') { cb(err, err ? undefined : result); return undefined; }
    return err ? Promise.reject(err) : Promise.resolve(result);
  }
  function lastFn(args) {
    return typeof args[args.length - 1] === 'function' ? args[args.length - 1] : undefined;
  }
  function argsBefore(args, cb) { return Array.prototype.slice.call(args, 0, cb ? args.length - 1 : args.length); }

  // The 2.0 driver's sort forms (utils.formattedOrderClause): [['date', 1]], ['a', 'b'],
  // 'field', or a document; directions may be 1/-1 or 'asc'/'ascending'/'desc'/'descending'.
  var ILLEGAL_SORT = "Illegal sort clause, must be of the form [['field1', '(ascending|descending)'], " +
    "['field2', '(ascending|descending)']]";
  function sortDirection(v) {
    switch (String(v).toLowerCase()) {
      case 'ascending': case 'asc': case '1': return 1;
      case 'descending': case 'desc': case '-1': return -1;
      default: throw new Error(ILLEGAL_SORT);
    }
  }
  function orderClause(sort) {
    if (typeof sort === 'string') { var one = {}; one[sort] = 1; return one; }
    if (!Array.isArray(sort)) {
      if (sort !== null && typeof sort === 'object') return sort;
      throw new Error(ILLEGAL_SORT);
    }
    var order = {};
    sort.forEach(function (s) {
      if (typeof s === 'string') order[s] = 1;
      else if (Array.isArray(s)) order[s[0]] = sortDirection(s[1]);
      else throw new Error(ILLEGAL_SORT);
    });
    return order;
  }

  // The options documents the driver tells apart from a projection by their keys.
  var OPTION_KEYS = ['projection', 'fields', 'sort', 'limit', 'skip', 'readPreference', 'hint', 'maxTimeMS', 'collation'];
  function isOptions(v) {
    return v !== null && typeof v === 'object' && OPTION_KEYS.some(function (k) { return v[k] !== undefined; });
  }

  function NodeCursor(coll, filter, projection, options) {
    this._cursor = new api.Cursor(coll._shell, filter === undefined ? {} : filter, projection);
    options = options || {};
    var rp = readPreferenceOf(options.readPreference) || coll._readPreference;
    if (rp) this._cursor._readPref = rp.toJSON();
    if (options.sort) this._cursor.sort(orderClause(options.sort));
    if (options.limit) this._cursor.limit(options.limit);
    if (options.skip) this._cursor.skip(options.skip);
    if (options.projection) this._cursor.projection(options.projection);
    if (options.fields) this._cursor.projection(options.fields);
  }
  ['sort', 'limit', 'skip', 'project', 'batchSize'].forEach(function (m) {
    NodeCursor.prototype[m] = function (v) {
      this._cursor[m === 'project' ? 'projection' : m](m === 'sort' ? orderClause(v) : v);
      return this;
    };
  });
  // cursor.setReadPreference(mode | ReadPreference), before the first batch is read.
  NodeCursor.prototype.setReadPreference = function (readPreference) {
    if (this._cursor._buffer !== null) throw MongoInvalidArgumentError('Cannot change read preference after cursor has been initialized');
    var rp = readPreferenceOf(readPreference);
    this._cursor._readPref = rp ? rp.toJSON() : undefined;
    return this;
  };
  NodeCursor.prototype.withReadPreference = NodeCursor.prototype.setReadPreference;
  // explain([verbosity], cb): the server's explain of the find, from the member that would serve it.
  NodeCursor.prototype.explain = function () {
    var cb = lastFn(arguments);
    var verbosity = argsBefore(arguments, cb)[0];
    var c = this._cursor;
    return finish(cb, function () { return c.explain(verbosity === undefined ? 'queryPlanner' : verbosity); });
  };
  NodeCursor.prototype.toArray = function (cb) { var c = this._cursor; return finish(cb, function () { return c.toArray(); }); };
  NodeCursor.prototype.count = function (cb) { var c = this._cursor; return finish(cb, function () { return c.count(); }); };
  NodeCursor.prototype.next = function (cb) { var c = this._cursor; return finish(cb, function () { return c.hasNext() ? c.next() : null; }); };
  NodeCursor.prototype.forEach = function (each, done) {
    var c = this._cursor;
    return finish(done, function () { while (c.hasNext()) each(c.next()); });
  };
  NodeCursor.prototype.each = function (cb) {
    var c = this._cursor;
    try { while (c.hasNext()) cb(null, c.next()); cb(null, null); } catch (e) { cb(e, null); }
  };

  function NodeCollection(db, name, options) {
    this._db = db;
    this.collectionName = name;
    this._shell = api.dbProxy(db.databaseName).getCollection(name);
    this._readPreference = readPreferenceOf(options && options.readPreference) || db._readPreference;
  }
  var N = NodeCollection.prototype;
  Object.defineProperty(N, 'readPreference', { get: function () { return this._readPreference || ReadPreference.primary; } });
  N._run = function (cmd) {
    var reply = api.command(this._db.databaseName, cmd);
    if (reply.writeErrors && reply.writeErrors.length) throw api.MongoServerError(reply.writeErrors[0]);
    return reply;
  };
  function writeResult(reply) {
    var r = { ok: 1, n: reply.n };
    if (reply.nModified !== undefined) r.nModified = reply.nModified;
    if (reply.upserted) r.upserted = reply.upserted;
    return r;
  }
  N.insert = N.insertMany = function (docs) {
    var cb = lastFn(arguments);
    var self = this;
    return finish(cb, function () {
      var list = (Array.isArray(docs) ? docs : [docs]).map(api.withId);
      // The Node.js driver refuses an empty batch before sending it.
      if (list.length === 0) throw api.MongoInvalidArgumentError('Invalid BulkOperation, Batch cannot be empty');
      var reply = self._run({ insert: self.collectionName, documents: list });
      var ids = {};
      list.forEach(function (d, i) { ids[i] = d._id; });
      return { result: writeResult(reply), ops: list, insertedCount: reply.n, insertedIds: ids };
    });
  };
  N.insertOne = function (doc) {
    var cb = lastFn(arguments);
    var self = this;
    return finish(cb, function () {
      var d = api.withId(doc);
      var reply = self._run({ insert: self.collectionName, documents: [d] });
      return { result: writeResult(reply), ops: [d], insertedCount: reply.n, insertedId: d._id };
    });
  };
  function updater(multiDefault) {
    return function (filter, update) {
      var cb = lastFn(arguments);
      var rest = argsBefore(arguments, cb);
      var options = rest[2] || {};
      var self = this;
      return finish(cb, function () {
        var multi = options.multi === undefined ? multiDefault : !!options.multi;
        var reply = self._run({
          update: self.collectionName,
          updates: [{ q: filter, u: update, upsert: !!options.upsert, multi: multi }],
        });
        var up = reply.upserted && reply.upserted.length ? reply.upserted[0]._id : null;
        return {
          result: writeResult(reply), matchedCount: up === null ? reply.n : 0,
          modifiedCount: reply.nModified, upsertedCount: up === null ? 0 : 1,
          upsertedId: up === null ? null : { index: 0, _id: up },
        };
      });
    };
  }
  N.update = updater(false);
  N.updateOne = updater(false);
  N.updateMany = updater(true);
  N.replaceOne = updater(false);
  function remover(limitDefault) {
    return function (filter) {
      var cb = lastFn(arguments);
      var rest = argsBefore(arguments, cb);
      var options = rest[1] || {};
      var self = this;
      return finish(cb, function () {
        var limit = options.single || options.justOne ? 1 : limitDefault;
        var reply = self._run({ delete: self.collectionName, deletes: [{ q: filter || {}, limit: limit }] });
        return { result: writeResult(reply), deletedCount: reply.n };
      });
    };
  }
  N.remove = remover(0);
  N.deleteMany = remover(0);
  N.deleteOne = remover(1);
  N.findOne = function (filter) {
    var cb = lastFn(arguments);
    var rest = argsBefore(arguments, cb);
    var self = this;
    return finish(cb, function () {
      var second = rest[1];
      var options = isOptions(second) ? second : (rest[2] || {});
      var projection = isOptions(second) ? (second.projection || second.fields) : second;
      var cmd = { find: self.collectionName, filter: filter === undefined || filter === null ? {} : filter, limit: 1, singleBatch: true };
      if (projection !== undefined && projection !== null) cmd.projection = projection;
      if (options.sort) cmd.sort = orderClause(options.sort);
      if (options.skip) cmd.skip = options.skip;
      if (options.hint) cmd.hint = options.hint;
      var batch = api.command(self._db.databaseName, withReadPreference(cmd, self, options)).cursor.firstBatch;
      return batch.length ? batch[0] : null;
    });
  };
  N.find = function (filter, fieldsOrOptions, options) {
    var projection = fieldsOrOptions;
    if (isOptions(fieldsOrOptions)) {
      options = fieldsOrOptions;
      projection = undefined;
    }
    return new NodeCursor(this, filter, projection, options);
  };
  N.count = function (filter) {
    var cb = lastFn(arguments);
    var rest = argsBefore(arguments, cb);
    var self = this;
    return finish(cb, function () {
      var options = rest[1] || {};
      var cmd = { count: self.collectionName, query: rest[0] === undefined || rest[0] === null ? {} : rest[0] };
      ['skip', 'limit', 'hint', 'collation', 'maxTimeMS'].forEach(function (k) { if (options[k]) cmd[k] = options[k]; });
      return api.command(self._db.databaseName, withReadPreference(cmd, self, options)).n;
    });
  };
  N.countDocuments = N.count;
  N.distinct = function (key, query) {
    var cb = lastFn(arguments);
    var rest = argsBefore(arguments, cb);
    var self = this;
    return finish(cb, function () {
      var options = rest[2] || {};
      var cmd = { distinct: self.collectionName, key: key, query: query === undefined || query === null ? {} : query };
      if (options.collation) cmd.collation = options.collation;
      return api.command(self._db.databaseName, withReadPreference(cmd, self, options)).values;
    });
  };
  // aggregate(pipeline[, options], cb) hands the callback the documents (the 2.0 driver's
  // array result); without a callback it returns a cursor with toArray/each/forEach.
  function NodeAggregationCursor(coll, pipeline, options) {
    this._coll = coll;
    this._pipeline = pipeline;
    this._options = options || {};
    this._docs = null;
  }
  // Options the aggregate command takes from the driver's options document.
  var AGGREGATE_OPTIONS = ['allowDiskUse', 'collation', 'hint', 'comment', 'let', 'maxTimeMS',
    'bypassDocumentValidation', 'readConcern'];
  NodeAggregationCursor.prototype._all = function () {
    if (this._docs !== null) return this._docs;
    var o = this._options;
    var cmd = { aggregate: this._coll.collectionName, pipeline: this._pipeline,
      cursor: o.batchSize !== undefined ? { batchSize: o.batchSize } : {} };
    AGGREGATE_OPTIONS.forEach(function (k) { if (o[k] !== undefined) cmd[k] = o[k]; });
    withReadPreference(cmd, this._coll, o);
    this._docs = new g.AggregationCursor(this._coll._shell, cmd).toArray();
    return this._docs;
  };
  NodeAggregationCursor.prototype.toArray = function (cb) { var self = this; return finish(cb, function () { return self._all().slice(); }); };
  NodeAggregationCursor.prototype.forEach = function (each, done) {
    var self = this;
    return finish(done, function () { self._all().forEach(function (d) { each(d); }); });
  };
  NodeAggregationCursor.prototype.each = function (cb) {
    var docs;
    try { docs = this._all(); } catch (e) { cb(e, null); return; }
    docs.forEach(function (d) { cb(null, d); });
    cb(null, null);
  };
  N.aggregate = function (pipeline) {
    var cb = lastFn(arguments);
    var rest = argsBefore(arguments, cb);
    var cursor = new NodeAggregationCursor(this, pipeline, rest[1]);
    if (cb) return cursor.toArray(cb);
    return cursor;
  };
  // createIndex/ensureIndex(keys[, options], cb): the callback gets the index name.
  N.createIndex = N.ensureIndex = function (keys) {
    var cb = lastFn(arguments);
    var rest = argsBefore(arguments, cb);
    var self = this;
    return finish(cb, function () { return self._shell.createIndex(keys, rest[1]); });
  };
  N.indexes = function (cb) { var self = this; return finish(cb, function () { return self._shell.getIndexes(); }); };
  N.drop = function (cb) { var self = this; return finish(cb, function () { return self._shell.drop(); }); };

  function NodeDb(name, readPreference) {
    this.databaseName = name;
    this._readPreference = readPreference;
  }
  Object.defineProperty(NodeDb.prototype, 'readPreference', { get: function () { return this._readPreference || ReadPreference.primary; } });
  NodeDb.prototype.collection = function (name, options) { return new NodeCollection(this, String(name), options); };
  NodeDb.prototype.db = function (name, options) {
    return new NodeDb(String(name), readPreferenceOf(options && options.readPreference) || this._readPreference);
  };
  NodeDb.prototype.close = function (cb) { return finish(cb, function () { return undefined; }); };
  NodeDb.prototype.dropDatabase = function (cb) {
    var name = this.databaseName;
    return finish(cb, function () { api.command(name, { dropDatabase: 1 }); return true; });
  };

  function dbNameFromUrl(url) {
    return g.__sproutConnection.connectionString(url).dbName || 'test';
  }
  // The client's read preference: the options' readPreference, else the connection string's.
  function MongoClient(url, options) {
    this._readPreference = readPreferenceOf(options && options.readPreference) || readPreferenceFromUrl(url);
    this._db = new NodeDb(dbNameFromUrl(url), this._readPreference);
  }
  Object.defineProperty(MongoClient.prototype, 'readPreference', { get: function () { return this._readPreference || ReadPreference.primary; } });
  MongoClient.prototype.connect = function (cb) { var self = this; return finish(cb, function () { return self; }); };
  MongoClient.prototype.db = function (name, options) {
    if (name === undefined && options === undefined) return this._db;
    return this._db.db(name === undefined ? this._db.databaseName : name, options);
  };
  MongoClient.prototype.close = function (cb) { return finish(cb, function () { return undefined; }); };
  // The 2.0 driver hands the callback a Db; a Db also answers db(name), so 3.x-style code works.
  MongoClient.connect = function (url) {
    var cb = lastFn(arguments);
    if (typeof url !== 'string' || !/^mongodb(\+srv)?:\/\//.test(url)) {
      return finish(cb, function () { throw new Error('Invalid connection string'); });
    }
    var options = argsBefore(arguments, cb)[1];
    return finish(cb, function () {
      var client = new MongoClient(url, options);
      return cb ? client._db : client;
    });
  };
  var mongodb = Object.freeze({
    MongoClient: MongoClient, ReadPreference: ReadPreference, ObjectId: g.ObjectId, ObjectID: g.ObjectId, Long: g.Long,
    Decimal128: g.Decimal128, Timestamp: g.Timestamp, Binary: g.Binary,
  });

  var modules = { mongodb: mongodb, assert: nodeAssert, util: util, fs: fs };
  Object.defineProperty(g, 'require', {
    value: function require(name) {
      var key = String(name).replace(/^node:/, '');
      if (Object.prototype.hasOwnProperty.call(modules, key)) return modules[key];
      var e = new Error("Cannot find module '" + name + "'");
      e.code = 'MODULE_NOT_FOUND';
      throw e;
    },
    writable: true, configurable: true, enumerable: false,
  });
  Object.defineProperty(g, 'console', {
    value: {
      log: function () { native.print(format.apply(null, arguments)); },
      info: function () { native.print(format.apply(null, arguments)); },
      warn: function () { native.print(format.apply(null, arguments)); },
      error: function () { native.print(format.apply(null, arguments)); },
      dir: function (v) { native.print(inspect(v)); },
    },
    writable: true, configurable: true, enumerable: false,
  });
})(globalThis, __sproutNative);

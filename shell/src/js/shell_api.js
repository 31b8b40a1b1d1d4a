// The mongo shell API (db, collections, cursors, results, errors) over the native bridge.
// Modern (mongosh) method names return mongosh's result shapes; legacy 3.0-era names
// (insert/update/remove/save/count/findAndModify) return the legacy shapes the books show.
(function (g, native) {
  'use strict';
  var B = g.__sproutBson;
  var BATCH = 20;

  function define(name, value) {
    Object.defineProperty(g, name, { value: value, writable: true, configurable: true, enumerable: false });
  }
  var hasOwn = Object.prototype.hasOwnProperty;
  // A BSON value's own type marker (an inherited one, from a polluted prototype, does not count).
  function bsonType(v) { return hasOwn.call(v, '_bsontype') ? v._bsontype : undefined; }
  function isPlainObject(v) {
    return v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date) &&
      !(v instanceof RegExp) && !bsonType(v);
  }

  // ---- errors -------------------------------------------------------------------------
  function MongoServerError(reply) {
    var e = new Error(reply.errmsg);
    Object.setPrototypeOf(e, MongoServerError.prototype);
    e.name = reply.codeName ? 'MongoServerError[' + reply.codeName + ']' : 'MongoServerError';
    e.code = reply.code;
    e.codeName = reply.codeName;
    e.errmsg = reply.errmsg;
    Object.keys(reply).forEach(function (k) {
      if (['ok', 'errmsg', 'code', 'codeName'].indexOf(k) < 0) e[k] = reply[k];
    });
    return e;
  }
  MongoServerError.prototype = Object.create(Error.prototype);
  MongoServerError.prototype.constructor = MongoServerError;
  function MongoBulkWriteError(writeErrors, result) {
    var first = writeErrors[0];
    var e = new Error(first.errmsg);
    Object.setPrototypeOf(e, MongoBulkWriteError.prototype);
    e.name = 'MongoBulkWriteError';
    e.code = first.code;
    e.writeErrors = writeErrors;
    e.result = result;
    return e;
  }
  MongoBulkWriteError.prototype = Object.create(Error.prototype);
  MongoBulkWriteError.prototype.constructor = MongoBulkWriteError;
  function MongoshInvalidInputError(message) {
    var e = new Error(message);
    e.name = 'MongoshInvalidInputError';
    return e;
  }

  // Optional reply fields the shell reads; absent ones become hidden own `undefined`s, so a
  // polluted Object.prototype cannot make a reply look like it carries them.
  var OPTIONAL_REPLY_FIELDS = ['writeErrors', 'upserted', 'nModified', 'writeConcernError', 'value', 'n', 'cursor', 'values'];
  function command(dbName, cmd) {
    var reply = native.runCommand(dbName, cmd);
    OPTIONAL_REPLY_FIELDS.forEach(function (k) {
      if (!hasOwn.call(reply, k)) Object.defineProperty(reply, k, { value: undefined, writable: true, configurable: true, enumerable: false });
    });
    if (reply.ok !== 1) throw MongoServerError(reply);
    // A write concern a simulated replica set could not meet: the Node driver (and so mongosh)
    // throws MongoWriteConcernError, the write itself having happened.
    if (reply.writeConcernError) throw MongoWriteConcernError(reply);
    return reply;
  }
  function MongoWriteConcernError(reply) {
    var wce = reply.writeConcernError;
    var e = new Error(wce.errmsg);
    e.name = 'MongoWriteConcernError';
    e.code = wce.code;
    e.codeName = wce.codeName;
    e.errInfo = wce.errInfo;
    e.result = reply;
    return e;
  }

  // The legacy shell's helpers answer a failed command with its reply ({ok: 0, errmsg, code,
  // codeName}) where mongosh throws it (mongo/shell/db.js runCommand, collection.js).
  function isLegacy() { return native.getStyle() === 'legacy'; }
  // mongosh prints "DeprecationWarning: <message>" before running a deprecated collection
  // method, once per session for each message (shell-instance-state.ts printDeprecationWarning;
  // the messages are collection.ts's for insert, update, remove and count). The 3.x shell,
  // which the legacy style reproduces, printed none.
  var warningsShown = {};
  function deprecationWarning(message) {
    if (isLegacy() || warningsShown[message] === true) return;
    warningsShown[message] = true;
    native.print('DeprecationWarning: ' + message);
  }
  function helperCommand(dbName, cmd) {
    if (!isLegacy()) return command(dbName, cmd);
    return native.runCommand(dbName, cmd);
  }

  // ---- results --------------------------------------------------------------------------
  // A value printed with a class name, as the legacy shell prints WriteResult({ ... }).
  function Named(name, fields) {
    Object.defineProperty(this, '_shellName', { value: name, enumerable: false });
    var self = this;
    Object.keys(fields).forEach(function (k) { self[k] = fields[k]; });
  }
  function WriteResult(fields, writeError) {
    Named.call(this, 'WriteResult', fields);
    if (writeError) this.writeError = writeError;
    // The legacy WriteResult defines every counter (mongo/shell/bulk_api.js); it prints only
    // those of its kind of write, so the others are hidden zeros (write_result.js reads
    // `nUpserted` of an insert).
    var self = this;
    ['nInserted', 'nUpserted', 'nMatched', 'nModified', 'nRemoved'].forEach(function (k) {
      if (!(k in self)) Object.defineProperty(self, k, { value: 0, enumerable: false, writable: true, configurable: true });
    });
  }
  // The first write error as the legacy shell's WriteResult holds it: `code` and `errmsg`
  // shown, and the legacy WriteError's accessors (mongo/shell/bulk_api.js), whose toString
  // names the error, so `/\$id/.test(res.getWriteError())` reads its message.
  function firstWriteError(errs) {
    if (!errs.length) return undefined;
    var first = errs[0];
    var raw = { index: first.index || 0, code: first.code, errmsg: first.errmsg };
    var shown = { code: first.code, errmsg: first.errmsg };
    var hidden = {
      getErrmsg: function () { return raw.errmsg; },
      tojson: function () { return raw; },
      toString: function () { return 'WriteError(' + native.format(raw, 'tojson') + ')'; },
    };
    Object.keys(hidden).forEach(function (k) {
      Object.defineProperty(shown, k, { value: hidden[k], enumerable: false });
    });
    return shown;
  }
  WriteResult.prototype = Object.create(Named.prototype);
  WriteResult.prototype.constructor = WriteResult;
  WriteResult.prototype.hasWriteError = function () { return this.writeError !== undefined; };
  WriteResult.prototype.getWriteError = function () { return this.writeError || null; };
  WriteResult.prototype.hasWriteConcernError = function () { return false; };
  WriteResult.prototype.getWriteConcernError = function () { return null; };
  // The legacy shell's accessors (mongo/shell/bulk_api.js): the upsert as {index, _id}.
  WriteResult.prototype.getUpsertedId = function () {
    return this.nUpserted ? { index: 0, _id: this._id } : null;
  };
  WriteResult.prototype.getRawResponse = function () { return Object.assign({}, this); };
  // The legacy shell answers a write command the server refused as a whole (ok: 0) with a
  // WriteCommandError instead of throwing: its collection.js catches the bulk API's
  // WriteCommandError and returns it, so `assert.writeError(coll.insert(…))` sees it.
  function WriteCommandError(reply) {
    Named.call(this, 'WriteCommandError', { ok: 0, errmsg: reply.errmsg, code: reply.code, codeName: reply.codeName });
  }
  WriteCommandError.prototype = Object.create(Named.prototype);
  WriteCommandError.prototype.constructor = WriteCommandError;
  WriteCommandError.prototype.toString = function () {
    return 'WriteCommandError(' + native.format(Object.assign({}, this), 'tojson') + ')';
  };
  function refusedAsWriteCommandError(run) {
    try {
      return run();
    } catch (e) {
      if (e instanceof MongoServerError) return new WriteCommandError(e);
      throw e;
    }
  }
  function BulkWriteResult(fields) { Named.call(this, 'BulkWriteResult', fields); }
  BulkWriteResult.prototype = Object.create(Named.prototype);
  BulkWriteResult.prototype.constructor = BulkWriteResult;
  BulkWriteResult.prototype.hasWriteErrors = function () { return this.writeErrors.length > 0; };
  BulkWriteResult.prototype.getWriteErrors = function () { return this.writeErrors; };
  BulkWriteResult.prototype.getWriteErrorCount = function () { return this.writeErrors.length; };
  BulkWriteResult.prototype.getWriteErrorAt = function (i) { return this.writeErrors[i] || null; };
  BulkWriteResult.prototype.getUpsertedIds = function () { return this.upserted; };
  BulkWriteResult.prototype.getUpsertedIdAt = function (i) { return this.upserted[i]; };
  BulkWriteResult.prototype.hasWriteConcernError = function () { return false; };
  BulkWriteResult.prototype.getWriteConcernError = function () { return null; };
  BulkWriteResult.prototype.getRawResponse = function () { return Object.assign({}, this); };

  // ---- cursor -----------------------------------------------------------------------------
  function Cursor(collection, filter, projection) {
    this._coll = collection;
    this._spec = { filter: filter === undefined ? {} : filter };
    if (projection !== undefined) this._spec.projection = projection;
    this._buffer = null;
    this._id = 0;
    this._pretty = false;
  }
  function modifier(name, field) {
    Cursor.prototype[name] = function (v) {
      if (this._buffer !== null) throw MongoshInvalidInputError('Cursor already executed; cannot call ' + name + '()');
      this._spec[field] = v;
      return this;
    };
  }
  modifier('sort', 'sort'); modifier('skip', 'skip'); modifier('limit', 'limit');
  modifier('batchSize', 'batchSize'); modifier('projection', 'projection'); modifier('hint', 'hint');
  modifier('comment', 'comment'); modifier('collation', 'collation'); modifier('min', 'min');
  modifier('max', 'max'); modifier('maxTimeMS', 'maxTimeMS');
  Cursor.prototype.pretty = function () { this._pretty = true; return this; };
  // cursor.clone(): a cursor of the same find and options, not yet run (mongosh's and the
  // legacy DBQuery's).
  Cursor.prototype.clone = function () {
    var c = new Cursor(this._coll, this._spec.filter);
    var s = this._spec;
    Object.keys(s).forEach(function (k) { c._spec[k] = s[k]; });
    if (this._readPref) c._readPref = this._readPref;
    c._pretty = this._pretty;
    return c;
  };
  // The legacy shell's DBQuery options and flags, as find command fields.
  Cursor.prototype.returnKey = function () { return this._setFlag('returnKey'); };
  Cursor.prototype.showRecordId = function () { return this._setFlag('showRecordId'); };
  Cursor.prototype.noCursorTimeout = function () { return this._setFlag('noCursorTimeout'); };
  Cursor.prototype.tailable = function (awaitData) {
    this._setFlag('tailable');
    // The legacy DBQuery awaits data unless told not to; mongosh only when asked.
    var wait = isLegacy() ? awaitData || awaitData == null : awaitData;
    return wait ? this._setFlag('awaitData') : this;
  };
  Cursor.prototype.oplogReplay = function () { return this._setFlag('oplogReplay'); };
  // The legacy DBQuery's internals that MongoDB's jstests read (mongo/shell/query.js): its
  // option bits, and its query wrapped with the `$`-modifiers `modifiers()` sets.
  var FLAG_BITS = { tailable: 0x2, oplogReplay: 0x8, noCursorTimeout: 0x10, awaitData: 0x20, allowPartialResults: 0x80 };
  Object.defineProperty(Cursor.prototype, '_options', {
    configurable: true,
    get: function () {
      var spec = this._spec;
      return Object.keys(FLAG_BITS).reduce(function (bits, f) { return spec[f] ? bits | FLAG_BITS[f] : bits; }, 0);
    },
  });
  var MODIFIERS = { $hint: 'hint', $min: 'min', $max: 'max', $comment: 'comment', $maxTimeMS: 'maxTimeMS', $returnKey: 'returnKey', $showDiskLoc: 'showRecordId', $orderby: 'sort' };
  Cursor.prototype.modifiers = function (document) {
    var self = this;
    Object.keys(document || {}).forEach(function (k) {
      if (!MODIFIERS[k]) throw new Error('unknown query modifier ' + k);
      if (self._buffer !== null) throw MongoshInvalidInputError('Cursor already executed; cannot call modifiers()');
      self._spec[MODIFIERS[k]] = document[k];
    });
    return this;
  };
  Object.defineProperty(Cursor.prototype, '_query', {
    configurable: true,
    get: function () {
      var spec = this._spec;
      var q = { query: spec.filter };
      Object.keys(MODIFIERS).forEach(function (k) { if (spec[MODIFIERS[k]] !== undefined) q[k] = spec[MODIFIERS[k]]; });
      return q;
    },
  });
  Cursor.prototype.allowPartialResults = function () { return this._setFlag('allowPartialResults'); };
  Cursor.prototype._setFlag = function (field) {
    if (this._buffer !== null) throw MongoshInvalidInputError('Cursor already executed; cannot call ' + field + '()');
    this._spec[field] = true;
    return this;
  };
  // DBQuery.Option bits (mongo/shell/query.js) and the find fields they stand for; slaveOk has no
  // meaning on one server and exhaust none for a command cursor.
  var QUERY_OPTIONS = { tailable: 0x2, slaveOk: 0x4, oplogReplay: 0x8, noTimeout: 0x10, awaitData: 0x20, exhaust: 0x40, partial: 0x80 };
  Cursor.Option = Object.freeze(QUERY_OPTIONS);
  var OPTION_FIELDS = { 2: 'tailable', 16: 'noCursorTimeout', 32: 'awaitData', 128: 'allowPartialResults' };
  Cursor.prototype.addOption = function (option) {
    var self = this;
    Object.keys(OPTION_FIELDS).forEach(function (bit) {
      if (option & Number(bit)) self._setFlag(OPTION_FIELDS[bit]);
    });
    return this;
  };
  // The legacy cursor keeps what toArray() read, so cursor[i], length() and a second toArray()
  // see the same documents.
  Cursor.prototype.arrayAccess = function (i) { return this.toArray()[i]; };
  Cursor.prototype.length = function () { return this.toArray().length; };
  Cursor.prototype.countReturn = function () {
    var c = this.count();
    if (this._spec.skip) c -= this._spec.skip;
    if (this._spec.limit > 0 && this._spec.limit < c) return this._spec.limit;
    return c;
  };
  Cursor.prototype.getId = function () { this._exec(); return this._id; };
  Cursor.prototype.isClosed = function () { this._exec(); return Number(this._id) === 0 && this._buffer.length === 0; };
  // A read preference is checked as the Node driver checks it and sent as `$readPreference`:
  // a standalone ignores it, a simulated replica set (js/replset.js) picks the member with it.
  var READ_MODES = ['primary', 'primaryPreferred', 'secondary', 'secondaryPreferred', 'nearest'];
  function MongoInvalidArgumentError(message) {
    var e = new Error(message);
    e.name = 'MongoInvalidArgumentError';
    return e;
  }
  Cursor.prototype.readPref = function (mode, tagSet) {
    if (this._buffer !== null) throw MongoshInvalidInputError('Cursor already executed; cannot call readPref()');
    if (typeof mode !== 'string') throw MongoInvalidArgumentError('Invalid read preference: ' + String(mode));
    if (READ_MODES.indexOf(mode) < 0) throw MongoInvalidArgumentError('Invalid read preference mode ' + JSON.stringify(mode));
    if (mode === 'primary' && Array.isArray(tagSet) && tagSet.length) {
      throw MongoInvalidArgumentError('Primary read preference cannot be combined with tags');
    }
    this._readPref = { mode: mode };
    if (tagSet !== undefined) this._readPref.tags = tagSet;
    return this;
  };
  // cursor.readConcern(level), as mongosh sends it: `readConcern: {level}` on the find.
  Cursor.prototype.readConcern = function (level) {
    if (this._buffer !== null) throw MongoshInvalidInputError('Cursor already executed; cannot call readConcern()');
    this._spec.readConcern = { level: level };
    return this;
  };
  Cursor.prototype._exec = function () {
    if (this._buffer !== null) return;
    var cmd = { find: this._coll._name };
    var s = this._spec;
    Object.keys(s).forEach(function (k) { if (s[k] !== undefined) cmd[k] = s[k]; });
    if (this._readPref) cmd.$readPreference = this._readPref;
    var reply = command(this._coll._db._name, cmd);
    this._buffer = reply.cursor.firstBatch;
    this._id = reply.cursor.id;
  };
  // Each getMore asks for the cursor's batch size, as the legacy shell's DBCommandCursor and
  // the drivers do. A tailable cursor that has nothing new stays open: hasNext() is false
  // after one empty getMore, and true again once something is inserted.
  Cursor.prototype.hasNext = function () {
    this._exec();
    var asked = false;
    while (this._buffer.length === 0 && Number(this._id) !== 0) {
      if (asked && this._spec.tailable) break;
      asked = true;
      var getMore = { getMore: this._id, collection: this._coll._name };
      if (Number(this._spec.batchSize) > 0) getMore.batchSize = this._spec.batchSize;
      var reply = command(this._coll._db._name, getMore);
      this._buffer = reply.cursor.nextBatch;
      this._id = reply.cursor.id;
    }
    return this._buffer.length > 0;
  };
  Cursor.prototype.next = function () {
    if (!this.hasNext()) throw MongoshInvalidInputError('Cursor is exhausted');
    return this._buffer.shift();
  };
  Cursor.prototype.tryNext = function () { return this.hasNext() ? this._buffer.shift() : null; };
  Cursor.prototype.isExhausted = function () { return !this.hasNext(); };
  Cursor.prototype.objsLeftInBatch = function () { this._exec(); return this._buffer.length; };
  Cursor.prototype.close = function () {
    if (Number(this._id) !== 0) native.runCommand(this._coll._db._name, { killCursors: this._coll._name, cursors: [this._id] });
    this._buffer = []; this._id = 0;
  };
  Cursor.prototype.toArray = function () {
    if (this._arr) return this._arr;
    var out = [];
    while (this.hasNext()) out.push(this.next());
    if (isLegacy()) this._arr = out;
    return out;
  };
  Cursor.prototype.forEach = function (f) { while (this.hasNext()) f(this.next()); };
  Cursor.prototype.map = function (f) { var out = []; while (this.hasNext()) out.push(f(this.next())); return out; };
  Cursor.prototype.itcount = function () { var n = 0; while (this.hasNext()) { this.next(); n++; } return n; };
  Cursor.prototype.count = function (applySkipLimit) {
    var cmd = { count: this._coll._name, query: this._spec.filter };
    if (this._spec.hint !== undefined) cmd.hint = this._spec.hint;
    if (this._spec.collation !== undefined) cmd.collation = this._spec.collation;
    if (applySkipLimit) {
      if (this._spec.skip) cmd.skip = this._spec.skip;
      if (this._spec.limit) cmd.limit = this._spec.limit;
    }
    return command(this._coll._db._name, cmd).n;
  };
  Cursor.prototype.size = function () { return this.count(true); };
  // The shell shows a cursor by taking up to 20 documents from it.
  Cursor.prototype._shellBatch = function () {
    var docs = [];
    while (docs.length < BATCH && this.hasNext()) docs.push(this.next());
    return { docs: docs, more: this.hasNext(), pretty: this._pretty };
  };
  Cursor.prototype.toString = function () { return 'Cursor'; };

  // ---- collection ---------------------------------------------------------------------------
  function DBCollection(db, name) {
    Object.defineProperty(this, '_db', { value: db, enumerable: false });
    Object.defineProperty(this, '_name', { value: name, enumerable: false });
    // The legacy shell's fields for the names (collection.js): jstests read them directly.
    Object.defineProperty(this, '_shortName', { value: name, enumerable: false });
    Object.defineProperty(this, '_fullName', { value: db._name + '.' + name, enumerable: false });
  }
  var C = DBCollection.prototype;
  C.getName = function () { return this._name; };
  C.getFullName = function () { return this._db._name + '.' + this._name; };
  C.toString = function () { return this.getFullName(); };
  C.getDB = function () { return this._db; };
  C.getMongo = function () { return this._db.getMongo(); };
  // The legacy collection's connection field (collection.js `this._mongo`), read by jstests.
  Object.defineProperty(C, '_mongo', { get: function () { return this._db.getMongo(); }, enumerable: false, configurable: true });
  // validate(full): the validate command's reply (both shells; mongosh takes {full}).
  C.validate = function (full) {
    var cmd = { validate: this._name };
    if (full !== undefined) cmd.full = typeof full === 'object' && full !== null ? !!full.full : !!full;
    return helperCommand(this._db._name, cmd);
  };
  C._command = function (cmd) { return command(this._db._name, cmd); };
  function checkDoc(doc, what) {
    if (!isPlainObject(doc) && !(doc !== null && typeof doc === 'object' && !Array.isArray(doc) && !bsonType(doc))) {
      throw MongoshInvalidInputError(what + ' must be an object');
    }
  }
  function withId(doc) {
    if (doc._id !== undefined) return doc;
    var out = { _id: B.ObjectId() };
    Object.keys(doc).forEach(function (k) { out[k] = doc[k]; });
    return out;
  }
  // With w: 0 the driver waits for no reply (it stands {ok: 1} in for it), so mongosh answers
  // acknowledged: false, reports no write error and leaves the server's counts undefined
  // (node driver's InsertOne/Update/DeleteOperation: `acknowledged: writeConcern?.w !== 0`).
  // The write itself still happens here.
  function unacknowledged(opts) { return !!(opts && opts.writeConcern && opts.writeConcern.w === 0); }
  // The legacy shell prints an unacknowledged result empty, WriteResult({ }) or
  // BulkWriteResult({ }) ("Suppress all output for the write concern w:0", bulk_api.js);
  // the counts stay readable as properties.
  function silenced(result) {
    Object.keys(result).forEach(function (k) { Object.defineProperty(result, k, { enumerable: false }); });
    return result;
  }
  // The drivers and the legacy shell send a long list of documents as several insert commands
  // of at most maxWriteBatchSize (100,000) documents each (a larger command is refused,
  // InvalidLength); an ordered insert stops after the first command with a write error. The
  // replies are merged into one, with each write error's index counted from the list's start.
  var MAX_WRITE_BATCH_SIZE = 100000;
  function insertDocuments(coll, docs, opts) {
    if (docs.length <= MAX_WRITE_BATCH_SIZE) {
      return coll._command(Object.assign({ insert: coll._name, documents: docs }, opts));
    }
    var merged = { n: 0, ok: 1 };
    var errs = [];
    for (var at = 0; at < docs.length; at += MAX_WRITE_BATCH_SIZE) {
      var part = docs.slice(at, at + MAX_WRITE_BATCH_SIZE);
      var reply = coll._command(Object.assign({ insert: coll._name, documents: part }, opts));
      merged.n += reply.n || 0;
      if (reply.writeConcernError) merged.writeConcernError = reply.writeConcernError;
      var offset = at;
      (reply.writeErrors || []).forEach(function (w) {
        var e = Object.assign({}, w);
        e.index = w.index + offset;
        errs.push(e);
      });
      if (opts.ordered !== false && reply.writeErrors && reply.writeErrors.length) break;
    }
    if (errs.length) merged.writeErrors = errs;
    return merged;
  }
  C.insertOne = function (doc, options) {
    checkDoc(doc, 'document');
    var d = withId(doc);
    var opts = writeOptions(options);
    var reply = this._command(Object.assign({ insert: this._name, documents: [d] }, opts));
    if (unacknowledged(opts)) return isLegacy() ? { acknowledged: false } : { acknowledged: false, insertedId: d._id };
    if (reply.writeErrors && reply.writeErrors.length) throw MongoServerError(reply.writeErrors[0]);
    return { acknowledged: true, insertedId: d._id };
  };
  C.insertMany = function (docs, options) {
    if (!Array.isArray(docs)) throw MongoshInvalidInputError('documents must be an array');
    // The driver refuses an empty batch before sending it (the server would answer InvalidLength).
    if (docs.length === 0) throw MongoInvalidArgumentError('Invalid BulkOperation, Batch cannot be empty');
    docs = docs.map(function (d) { checkDoc(d, 'document'); return withId(d); });
    var opts = writeOptions(options);
    var reply = insertDocuments(this, docs, opts);
    if (unacknowledged(opts)) {
      // The driver lists every document's _id as it queues it, so all of them show.
      var all = {};
      docs.forEach(function (d, i) { all[String(i)] = d._id; });
      // The legacy shell's answers with the acknowledgement alone.
      if (isLegacy()) return { acknowledged: false };
      return { acknowledged: false, insertedIds: all };
    }
    var ids = {};
    var failed = {};
    (reply.writeErrors || []).forEach(function (w) { failed[w.index] = true; });
    var n = reply.n;
    docs.forEach(function (d, i) { if (i < (opts.ordered === false ? docs.length : n + (reply.writeErrors ? 1 : 0)) && !failed[i]) ids[String(i)] = d._id; });
    if (reply.writeErrors && reply.writeErrors.length) {
      // The driver's BulkWriteResult, as mongosh shows it after "Result:".
      throw MongoBulkWriteError(reply.writeErrors, {
        insertedCount: n, matchedCount: 0, modifiedCount: 0, deletedCount: 0, upsertedCount: 0,
        upsertedIds: {}, insertedIds: ids,
      });
    }
    // The legacy shell's crud_api.js lists the documents' ids as an array.
    if (isLegacy()) return { acknowledged: true, insertedIds: docs.map(function (d) { return d._id; }) };
    return { acknowledged: true, insertedIds: ids };
  };
  // mongosh's insert is insertMany's driver call, answered as an InsertManyResult.
  C.insert = function (docOrDocs, options) {
    deprecationWarning('Collection.insert() is deprecated. Use insertOne, insertMany, or bulkWrite.');
    if (!isLegacy()) return this.insertMany(Array.isArray(docOrDocs) ? docOrDocs : [docOrDocs], options);
    var coll = this;
    return refusedAsWriteCommandError(function () { return legacyInsert(coll, docOrDocs, options); });
  };
  function legacyInsert(coll, docOrDocs, options) {
    var opts = typeof options === 'object' && options !== null ? writeOptions(options) : {};
    var many = Array.isArray(docOrDocs);
    var docs = (many ? docOrDocs : [docOrDocs]).map(function (d) { checkDoc(d, 'document'); return withId(d); });
    var reply = insertDocuments(coll, docs, opts);
    var errs = reply.writeErrors || [];
    if (unacknowledged(opts)) {
      // The server answers an unacknowledged write with {ok: 1} alone; the count is the
      // documents sent.
      var sent = reply.n === undefined ? docs.length : reply.n;
      return silenced(many ? new BulkWriteResult({
        writeErrors: [], writeConcernErrors: [], nInserted: sent, nUpserted: 0,
        nMatched: 0, nModified: 0, nRemoved: 0, upserted: [],
      }) : new WriteResult({ nInserted: sent }));
    }
    if (many) {
      return new BulkWriteResult({
        writeErrors: errs, writeConcernErrors: [], nInserted: reply.n, nUpserted: 0,
        nMatched: 0, nModified: 0, nRemoved: 0, upserted: [],
      });
    }
    return new WriteResult({ nInserted: reply.n }, firstWriteError(errs));
  }
  // A legacy cursor reads cursor[i] as its i-th document (DBQuery's arrayAccess).
  var INDEXABLE = {
    get: function (t, prop, receiver) {
      if (typeof prop === 'string' && /^\d+$/.test(prop) && !(prop in t)) return t.arrayAccess(Number(prop));
      return Reflect.get(t, prop, receiver);
    },
  };
  // The legacy shell's query shorthands (collection.js _massageObject): a function or a string
  // is a $where (a 24-character string an _id), an ObjectId the _id.
  function legacyQuery(q) {
    if (!isLegacy() || q === undefined || q === null) return q;
    if (typeof q === 'function') return { $where: q };
    if (typeof q === 'string') return q.length === 24 ? { _id: q } : { $where: q };
    if (typeof q === 'object' && bsonType(q) === 'ObjectId') return { _id: q };
    return q;
  }
  C.find = function (filter, projection) {
    var cursor = new Cursor(this, legacyQuery(filter), projection);
    return isLegacy() ? new Proxy(cursor, INDEXABLE) : cursor;
  };
  C.findOne = function (filter, projection) {
    filter = legacyQuery(filter);
    var cmd = { find: this._name, filter: filter === undefined || filter === null ? {} : filter, limit: 1, singleBatch: true };
    if (projection !== undefined) cmd.projection = projection;
    var batch = this._command(cmd).cursor.firstBatch;
    return batch.length ? batch[0] : null;
  };
  function deleteCommand(coll, filter, limit, options) {
    if (filter === undefined) throw MongoshInvalidInputError('Missing required argument: filter');
    var stmt = { q: filter, limit: limit };
    if (options && options.collation) stmt.collation = options.collation;
    if (options && options.hint) stmt.hint = options.hint;
    return coll._command(Object.assign({ delete: coll._name, deletes: [stmt] }, writeOptions(options)));
  }
  function deleteResult(reply, options) {
    if (unacknowledged(writeOptions(options))) {
      return isLegacy() ? { acknowledged: false } : { acknowledged: false, deletedCount: undefined };
    }
    return { acknowledged: true, deletedCount: reply.n };
  }
  C.deleteOne = function (filter, options) { return deleteResult(deleteCommand(this, filter, 1, options), options); };
  C.deleteMany = function (filter, options) { return deleteResult(deleteCommand(this, filter, 0, options), options); };
  // mongosh's remove is deleteOne (justOne) or deleteMany, answered as a DeleteResult. Both
  // shells refuse a remove() without a filter (legacy collection.js: "remove needs a query";
  // mongosh: a missing required argument), so no collection is emptied by accident.
  C.remove = function (filter, justOne) {
    if (filter === undefined) {
      if (isLegacy()) throw new Error('remove needs a query');
      throw MongoshInvalidInputError('Missing required argument at position 0 (Collection.remove)');
    }
    deprecationWarning('Collection.remove() is deprecated. Use deleteOne, deleteMany, findOneAndDelete, or bulkWrite.');
    var one = justOne === true || (justOne && justOne.justOne);
    if (!isLegacy()) {
      var options = typeof justOne === 'object' && justOne !== null ? justOne : undefined;
      return one ? this.deleteOne(filter, options) : this.deleteMany(filter, options);
    }
    var coll = this;
    return refusedAsWriteCommandError(function () {
      return new WriteResult({ nRemoved: deleteCommand(coll, legacyQuery(filter), one ? 1 : 0).n });
    });
  };
  function updateCommand(coll, filter, update, options, multi) {
    options = options || {};
    var stmt = { q: filter, u: update, upsert: !!options.upsert, multi: !!multi };
    if (options.arrayFilters) stmt.arrayFilters = options.arrayFilters;
    if (options.hint) stmt.hint = options.hint;
    if (options.collation) stmt.collation = options.collation;
    // MongoDB 8.0: updateOne may choose its document by sort (the server refuses it with multi).
    if (options.sort) stmt.sort = options.sort;
    return coll._command(Object.assign({ update: coll._name, updates: [stmt] }, writeOptions(options)));
  }
  function updateResult(reply, options) {
    if (unacknowledged(writeOptions(options))) {
      // The legacy shell's crud_api.js answers an unacknowledged write with that alone.
      if (isLegacy()) return { acknowledged: false };
      return { acknowledged: false, insertedId: null, matchedCount: undefined, modifiedCount: undefined, upsertedCount: 0 };
    }
    if (reply.writeErrors && reply.writeErrors.length) throw MongoServerError(reply.writeErrors[0]);
    var up = reply.upserted && reply.upserted.length ? reply.upserted[0]._id : null;
    if (isLegacy()) {
      // The legacy shell's crud_api.js: the counts, and the upserted _id only when there is one.
      var legacy = { acknowledged: true, matchedCount: up === null ? reply.n : 0, modifiedCount: reply.nModified };
      if (up !== null) legacy.upsertedId = up;
      return legacy;
    }
    return {
      acknowledged: true, insertedId: up, matchedCount: up === null ? reply.n : 0,
      modifiedCount: reply.nModified, upsertedCount: up === null ? 0 : 1,
    };
  }
  // The Node driver checks the update's shape before sending it (UpdateOneOperation,
  // ReplaceOneOperation), so mongosh shows MongoInvalidArgumentError.
  function requireOperators(update) {
    if (Array.isArray(update)) return;
    var keys = Object.keys(update || {});
    if (!keys.length || keys[0][0] !== '$') throw MongoInvalidArgumentError('Update document requires atomic operators');
  }
  C.updateOne = function (f, u, o) { requireOperators(u); return updateResult(updateCommand(this, f, u, o, false), o); };
  C.updateMany = function (f, u, o) { requireOperators(u); return updateResult(updateCommand(this, f, u, o, true), o); };
  // The driver refuses a replacement that starts with an operator (ReplaceOneOperation,
  // FindOneAndReplaceOperation: hasAtomicOperators), as the legacy shell's crud_api.js does.
  function requireReplacement(replacement) {
    var keys = Object.keys(replacement || {});
    if (keys.length && keys[0][0] === '$') throw MongoInvalidArgumentError('Replacement document must not contain atomic operators');
  }
  C.replaceOne = function (f, r, o) {
    requireReplacement(r);
    return updateResult(updateCommand(this, f, r, o, false), o);
  };
  // mongosh's update takes an options object only and is updateMany (multi) or updateOne,
  // answered as an UpdateResult.
  C.update = function (filter, update, upsertOrOptions, multi) {
    deprecationWarning('Collection.update() is deprecated. Use updateOne, updateMany, or bulkWrite.');
    if (!isLegacy()) {
      var options = typeof upsertOrOptions === 'object' && upsertOrOptions !== null ? upsertOrOptions : {};
      return options.multi ? this.updateMany(filter, update, options) : this.updateOne(filter, update, options);
    }
    var coll = this;
    return refusedAsWriteCommandError(function () { return legacyUpdate(coll, filter, update, upsertOrOptions, multi); });
  };
  function legacyUpdate(coll, filter, update, upsertOrOptions, multi) {
    var opts = typeof upsertOrOptions === 'object' && upsertOrOptions !== null ? upsertOrOptions : { upsert: !!upsertOrOptions, multi: !!multi };
    var reply = updateCommand(coll, filter, update, opts, !!opts.multi);
    var errs = reply.writeErrors || [];
    var fields = { nMatched: reply.upserted ? 0 : reply.n, nUpserted: reply.upserted ? reply.upserted.length : 0, nModified: reply.nModified || 0 };
    if (reply.upserted && reply.upserted.length) fields._id = reply.upserted[0]._id;
    if (unacknowledged(writeOptions(opts))) return silenced(new WriteResult(fields));
    return new WriteResult(fields, firstWriteError(errs));
  }
  // The 3.x shell's save (mongosh has none): an insert, or an upsert by _id, answered as a
  // WriteResult in either style. It gives the caller's document its new _id, as the legacy
  // collection.js does (`obj._id = new ObjectId()` before inserting), so `t.remove(o._id)`
  // finds it later.
  C.save = function (doc) {
    checkDoc(doc, 'document');
    var coll = this;
    var write = function () {
      if (doc._id === undefined) {
        if (Object.isExtensible(doc)) doc._id = B.ObjectId();
        return legacyInsert(coll, doc);
      }
      return legacyUpdate(coll, { _id: doc._id }, doc, { upsert: true });
    };
    return isLegacy() ? refusedAsWriteCommandError(write) : write();
  };
  C.countDocuments = function (filter, options) {
    var cmd = { count: this._name, query: filter === undefined ? {} : filter };
    options = options || {};
    if (options.skip) cmd.skip = options.skip;
    if (options.limit) cmd.limit = options.limit;
    if (options.collation) cmd.collation = options.collation;
    if (options.hint) cmd.hint = options.hint;
    return this._command(cmd).n;
  };
  C.estimatedDocumentCount = function () { return this._command({ count: this._name }).n; };
  C.count = function (filter, options) {
    deprecationWarning('Collection.count() is deprecated. Use countDocuments or estimatedDocumentCount.');
    var cmd = { count: this._name, query: filter === undefined ? {} : filter };
    options = options || {};
    if (options.skip) cmd.skip = options.skip;
    if (options.limit) cmd.limit = options.limit;
    if (options.collation) cmd.collation = options.collation;
    if (options.hint) cmd.hint = options.hint;
    return this._command(cmd).n;
  };
  C.distinct = function (key, filter, options) {
    var cmd = { distinct: this._name, key: key, query: filter === undefined ? {} : filter };
    if (options && options.collation) cmd.collation = options.collation;
    return this._command(cmd).values;
  };
  C.findAndModify = function (spec) {
    spec = spec || {};
    var cmd = { findAndModify: this._name };
    ['query', 'sort', 'remove', 'update', 'new', 'fields', 'upsert', 'arrayFilters', 'bypassDocumentValidation', 'writeConcern', 'collation', 'hint', 'let']
      .forEach(function (k) { if (spec[k] !== undefined) cmd[k] = spec[k]; });
    return this._command(cmd).value;
  };
  function findAndModifyHelper(coll, filter, extra, options) {
    options = options || {};
    var cmd = Object.assign({ findAndModify: coll._name, query: filter }, extra);
    if (options.sort) cmd.sort = options.sort;
    if (options.projection) cmd.fields = options.projection;
    if (options.upsert) cmd.upsert = true;
    if (options.arrayFilters) cmd.arrayFilters = options.arrayFilters;
    if (options.let) cmd.let = options.let;
    if (options.returnDocument === 'after' || options.returnNewDocument) cmd['new'] = true;
    return coll._command(cmd).value;
  }
  C.findOneAndUpdate = function (f, u, o) { requireOperators(u); return findAndModifyHelper(this, f, { update: u }, o); };
  C.findOneAndReplace = function (f, r, o) { requireReplacement(r); return findAndModifyHelper(this, f, { update: r }, o); };
  C.findOneAndDelete = function (f, o) { return findAndModifyHelper(this, f, { remove: true }, o); };
  C.drop = function () { this._command({ drop: this._name }); return true; };
  C.stats = function (scale) {
    var cmd = { collStats: this._name };
    if (typeof scale === 'number') cmd.scale = scale;
    else if (scale && scale.scale !== undefined) cmd.scale = scale.scale;
    return this._command(cmd);
  };
  // The size helpers read collStats, so they agree with stats() and with each other.
  C.dataSize = function () { return this.stats().size; };
  C.storageSize = function () { return this.stats().storageSize; };
  C.totalIndexSize = function () { return this.stats().totalIndexSize; };
  C.totalSize = function () { var s = this.stats(); return s.storageSize + s.totalIndexSize; };
  C.isCapped = function () {
    var info = this.exists();
    return !!(info && info.options && info.options.capped);
  };
  C.convertToCapped = function (size) {
    return helperCommand(this._db._name, { convertToCapped: this._name, size: size });
  };
  // coll.runCommand(name, fields): the command `name` on this collection (both shells have it).
  C.runCommand = function (cmd, params) {
    if (typeof cmd === 'object' && cmd !== null) return this._db.runCommand(cmd);
    var c = {};
    c[cmd] = this._name;
    if (params) Object.keys(params).forEach(function (k) { c[k] = params[k]; });
    return this._db.runCommand(c);
  };
  // The legacy shell also takes one object, {to, dropTarget} (collection.js renameCollection).
  C.renameCollection = function (newName, dropTarget) {
    if (isLegacy() && arguments.length === 1 && newName !== null && typeof newName === 'object') {
      dropTarget = newName.dropTarget;
      newName = newName.to;
    }
    if (typeof newName !== 'string') throw MongoshInvalidInputError('The "newName" argument must be a string');
    return helperCommand('admin', {
      renameCollection: this.getFullName(), to: this._db._name + '.' + newName, dropTarget: !!dropTarget,
    });
  };
  C.exists = function () {
    var name = this._name;
    var r = command(this._db._name, { listCollections: 1, filter: { name: name } });
    return r.cursor.firstBatch.length ? r.cursor.firstBatch[0] : null;
  };
  function writeOptions(options) {
    var out = {};
    if (!options) return out;
    if (options.ordered !== undefined) out.ordered = options.ordered;
    if (options.writeConcern !== undefined) out.writeConcern = options.writeConcern;
    if (options.w !== undefined || options.j !== undefined || options.wtimeout !== undefined) {
      out.writeConcern = {};
      if (options.w !== undefined) out.writeConcern.w = options.w;
      if (options.j !== undefined) out.writeConcern.j = options.j;
      if (options.wtimeout !== undefined) out.writeConcern.wtimeout = options.wtimeout;
    }
    if (options.comment !== undefined) out.comment = options.comment;
    // The command-level options the drivers send on; others (a typo, a find's option) are
    // not sent, as the Node.js driver under mongosh drops them, so the server's refusal of
    // unknown command fields (40415) is not met through the helpers.
    ['bypassDocumentValidation', 'let', 'maxTimeMS'].forEach(function (k) {
      if (options[k] !== undefined) out[k] = options[k];
    });
    return out;
  }

  // Any unknown property of a collection is a sub-collection: db.a.b is collection "a.b".
  function collectionProxy(db, name) {
    var target = new DBCollection(db, name);
    return new Proxy(target, {
      get: function (t, prop, receiver) {
        if (typeof prop !== 'string' || prop in t || prop[0] === '_') return Reflect.get(t, prop, receiver);
        return collectionProxy(db, name + '.' + prop);
      },
    });
  }

  // ---- database ----------------------------------------------------------------------------
  // `_name` is writable: MongoDB's jstests set it to reach a database name the constructor
  // would refuse (jstests/core/invalid_db_name.js), and the server answers.
  // The constructor refuses a name no database can have (empty, or holding one of `/\. "` or
  // NUL): mongosh's `Invalid database name`, the legacy shell's `[name] is not a valid database
  // name`, which also refuses 64 bytes or more (NamespaceString::validDBName). `$` passes
  // (`$external`).
  // The legacy shell's `new DB(mongo, name)` is taken too (jstests/core/db.js).
  function DB(a, b) {
    var name = arguments.length > 1 ? b : a;
    var legacy = isLegacy(), text = String(name);
    if (!text || /[\/\\. "\0]/.test(text) || (legacy && text.length >= 64)) {
      if (legacy) throw new Error('[' + text + '] is not a valid database name');
      throw MongoshInvalidInputError('Invalid database name: ' + text);
    }
    Object.defineProperty(this, '_name', { value: name, enumerable: false, writable: true });
  }
  var D = DB.prototype;
  D.getName = function () { return this._name; };
  D.toString = function () { return this._name; };
  D.getCollection = function (name) {
    if (typeof name !== 'string') throw MongoshInvalidInputError('Collection name must be a string');
    return collectionProxy(this, name);
  };
  D.getSiblingDB = function (name) { return dbProxy(String(name)); };
  // D.getMongo: js/connection.js.
  D.getCollectionNames = function () {
    var r = command(this._name, { listCollections: 1, nameOnly: true });
    return r.cursor.firstBatch.map(function (c) { return c.name; }).sort();
  };
  D.getCollectionInfos = function (filter) {
    return command(this._name, { listCollections: 1, filter: filter || {} }).cursor.firstBatch;
  };
  D.createCollection = function (name, options) {
    return helperCommand(this._name, Object.assign({ create: name }, options || {}));
  };
  D.dropDatabase = function () { return helperCommand(this._name, { dropDatabase: 1 }); };
  D.runCommand = function (cmd, extra) {
    if (typeof cmd === 'string') {
      var c = {};
      c[cmd] = 1;
      if (extra && typeof extra === 'object') Object.keys(extra).forEach(function (k) { c[k] = extra[k]; });
      cmd = c;
    }
    return helperCommand(this._name, cmd);
  };
  D.adminCommand = function (cmd) {
    if (typeof cmd === 'string') { var c = {}; c[cmd] = 1; cmd = c; }
    return helperCommand('admin', cmd);
  };
  D.getSisterDB = function (name) { return this.getSiblingDB(name); };
  D.cloneCollectionAsCapped = function (from, to, size) {
    return helperCommand(this._name, { cloneCollectionAsCapped: from, toCollection: to, size: size });
  };
  D.version = function () { return command('admin', { buildInfo: 1 }).version; };
  // dbStats, collStats and renameCollection, as the legacy shell runs them.
  D.stats = function (scale) {
    var cmd = { dbStats: 1 };
    if (typeof scale === 'number') cmd.scale = scale;
    else if (scale && scale.scale !== undefined) cmd.scale = scale.scale;
    return command(this._name, cmd);
  };
  function dbProxy(name) {
    var target = new DB(name);
    return new Proxy(target, {
      get: function (t, prop, receiver) {
        if (typeof prop !== 'string' || prop in t || prop[0] === '_') return Reflect.get(t, prop, receiver);
        // Through the proxy, so the collection's getDB() reads unknown names as collections too
        // (`coll.getDB().other`, as jstests/aggregation/sources/lookup/lookup_subpipeline.js does).
        return t.getCollection.call(receiver, prop);
      },
    });
  }

  // ---- printing helpers --------------------------------------------------------------------
  function text(v) { return typeof v === 'string' ? v : native.format(v, 'shell'); }
  define('print', function () {
    native.print(Array.prototype.map.call(arguments, text).join(' '));
  });
  define('printjson', function (v) { native.print(native.format(v, 'shell')); });
  define('printjsononeline', function (v) { native.print(native.format(v, 'legacy-oneline')); });
  // tojson(v, indent, nolint): the legacy style reads the layout arguments (runtime.rs format).
  define('tojson', function (v, indent, nolint) { return native.format(v, 'tojson', indent, nolint); });
  define('tojsononeline', function (v) { return native.format(v, 'legacy-oneline'); });
  define('console', { log: g.print, dir: g.printjson, error: g.print, warn: g.print, info: g.print });
  define('hex_md5', function (s) { return native.hexMd5(String(s)); });
  define('bsonsize', function (doc) { return native.bsonSize(doc); });
  Object.defineProperty(Object, 'bsonsize', { value: g.bsonsize, writable: true, configurable: true });
  define('sleep', function (ms) { native.sleep(Number(ms) || 0); });
  define('MongoServerError', MongoServerError);
  define('MongoBulkWriteError', MongoBulkWriteError);
  define('WriteResult', WriteResult);
  define('WriteCommandError', WriteCommandError);
  define('BulkWriteResult', BulkWriteResult);
  define('DBCollection', DBCollection);
  define('DBQuery', Cursor);
  define('DB', DB);

  // ---- the REPL's view of values -------------------------------------------------------------
  var lastCursor = null;
  var shell = {
    useDb: function (name) { g.db = dbProxy(String(name)); return 'switched to db ' + name; },
    currentDbName: function () { return g.db && typeof g.db.getName === 'function' ? String(g.db.getName()) : 'test'; },
    // What the shell shows for an evaluation result.
    display: function (v) {
      if (v instanceof Cursor) {
        lastCursor = v;
        var b = v._shellBatch();
        var shown = { kind: 'cursor', docs: b.docs, more: b.more, pretty: b.pretty };
        // An empty read from a collection that does not exist: the result stays MongoDB's
        // (empty); the shell adds a note, so a misspelt name does not go unnoticed.
        if (!b.docs.length && !b.more && v._coll instanceof DBCollection && !collectionExists(v._coll)) {
          shown.missing = v._coll.getFullName();
        }
        // An aggregation over a collection: its pipeline, for the page's stage-by-stage view.
        if (v._cmd && typeof v._cmd.aggregate === 'string' && Array.isArray(v._cmd.pipeline)) {
          shown.aggregate = { db: v._coll._db._name, coll: v._cmd.aggregate, pipeline: v._cmd.pipeline };
          if (v._cmd.let !== undefined) shown.aggregate.let = v._cmd.let;
        }
        return shown;
      }
      if (v === undefined) return { kind: 'none' };
      // `help` typed without brackets prints the help, as in mongosh.
      if (typeof v === 'function' && v._sproutHelp === v) return shell.display(v());
      if (v !== null && typeof v === 'object' && typeof v._asPrintable === 'function') return shell.display(v._asPrintable());
      if (typeof v === 'string') return { kind: 'text', text: v };
      if (typeof v === 'function') return { kind: 'text', text: '[Function: ' + (v.name || '(anonymous)') + ']' };
      if (v instanceof DB) return { kind: 'text', text: v._name };
      // A bare Int32 or Double wrapper shows its type, as js-bson's inspect does in mongosh.
      if (v !== null && typeof v === 'object' && (v._bsontype === 'Int32' || v._bsontype === 'Double')) {
        return { kind: 'text', text: v._bsontype + '(' + v._v + ')' };
      }
      if (v instanceof DBCollection) return { kind: 'text', text: v.getFullName() };
      if (v instanceof Named) {
        var fields = {};
        Object.keys(v).forEach(function (k) { fields[k] = v[k]; });
        return { kind: 'named', name: v._shellName, value: fields };
      }
      return { kind: 'value', value: v };
    },
    iterate: function () {
      var c = lastCursor;
      if (!c || !c.hasNext()) return { kind: 'text', text: 'no cursor' };
      var b = c._shellBatch();
      return { kind: 'cursor', docs: b.docs, more: b.more, pretty: b.pretty };
    },
    collectionNames: function () { return g.db.getCollectionNames(); },
    // The method names of databases ('db'), collections ('collection') and cursors, for the
    // "did you mean" hint of a call to a method that does not exist.
    methodNames: function (kind) {
      var proto = kind === 'db' ? D : kind === 'cursor' ? Cursor.prototype : C;
      var names = [];
      for (var p = proto; p && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
        Object.getOwnPropertyNames(p).forEach(function (n) {
          if (n[0] !== '_' && n !== 'constructor' && typeof proto[n] === 'function' && names.indexOf(n) < 0) names.push(n);
        });
      }
      return names;
    },
  };
  function collectionExists(coll) {
    var r = command(coll._db._name, { listCollections: 1, filter: { name: coll._name }, nameOnly: true });
    return r.cursor.firstBatch.length > 0;
  }
  Object.defineProperty(g, '__sproutShell', { value: Object.freeze(shell), enumerable: false });
  // Helpers the other shell files (bulk.js, globals.js) build on.
  Object.defineProperty(g, '__sproutApi', {
    value: Object.freeze({
      command: command, withId: withId, checkDoc: checkDoc, writeOptions: writeOptions,
      MongoServerError: MongoServerError, MongoBulkWriteError: MongoBulkWriteError,
      MongoInvalidArgumentError: MongoInvalidArgumentError,
      MongoshInvalidInputError: MongoshInvalidInputError, Named: Named, Cursor: Cursor,
      WriteResult: WriteResult, BulkWriteResult: BulkWriteResult, requireOperators: requireOperators,
      dbProxy: dbProxy, helperCommand: helperCommand, isLegacy: isLegacy, DBPrototype: D,
      deprecationWarning: deprecationWarning,
      // SpiderMonkey's Array generics (`Array.sort(arr)`), defined by test_helpers.js.
      arrayGenerics: Object.freeze(['concat', 'every', 'filter', 'forEach', 'indexOf', 'join', 'lastIndexOf',
        'map', 'pop', 'push', 'reverse', 'shift', 'slice', 'some', 'sort', 'splice', 'unshift']),
    }),
    enumerable: false,
  });
  g.db = dbProxy('test');
})(globalThis, __sproutNative);

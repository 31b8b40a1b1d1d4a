// Indexes and explain, as mongosh runs them: createIndex / createIndexes / ensureIndex,
// getIndexes, dropIndex / dropIndexes; cursor.explain(verbosity) and
// db.c.explain(verbosity).find(...) / count / distinct / update / remove / findAndModify /
// aggregate, which send the `explain` command with the command the method would run.
(function (g) {
  'use strict';
  var api = g.__sproutApi;
  var C = g.DBCollection.prototype;
  var Q = api.Cursor.prototype;

  // ---- indexes --------------------------------------------------------------------------------
  function defaultName(keys) {
    return Object.keys(keys).map(function (k) { return k + '_' + String(keys[k]); }).join('_');
  }
  // The legacy shell's positional option forms (mongo/shell/collection.js _indexSpec): a string
  // is the name, `true` is unique, an array holds them in order (the second boolean was dropDups).
  function positionalOptions(options) {
    if (typeof options === 'string') return { name: options };
    if (typeof options === 'boolean') return options ? { unique: true } : {};
    if (!Array.isArray(options)) return options || {};
    var out = {}, booleans = 0;
    options.forEach(function (o) {
      if (typeof o === 'string') out.name = o;
      else if (typeof o === 'boolean') {
        if (o && booleans === 0) out.unique = true;
        booleans++;
      }
    });
    return out;
  }
  function indexSpec(keys, options) {
    if (keys === null || typeof keys !== 'object' || Array.isArray(keys)) {
      throw api.MongoshInvalidInputError('The "keys" argument must be an object');
    }
    var spec = { key: keys, name: defaultName(keys) };
    var opts = api.isLegacy() ? positionalOptions(options) : (options || {});
    Object.keys(opts).forEach(function (k) { spec[k] = opts[k]; });
    return spec;
  }
  // mongosh answers with the index names and throws a failure; the legacy shell answers with the
  // createIndexes reply, failed or not, from createIndex too (mongo/shell/collection.js:
  // createIndex returns createIndexes' result), as book B prints it (B8-C17:
  // { createdCollectionAutomatically, numIndexesBefore, numIndexesAfter, ok }).
  C.createIndexes = function (keyPatterns, options) {
    var specs = (keyPatterns || []).map(function (k) { return indexSpec(k, options); });
    var reply = api.helperCommand(this._db._name, { createIndexes: this._name, indexes: specs });
    if (api.isLegacy()) return reply;
    return specs.map(function (s) { return s.name; });
  };
  C.createIndex = function (keys, options) {
    var r = this.createIndexes([keys], options);
    return api.isLegacy() ? r : r[0];
  };
  // The legacy shell's ensureIndex answers with the command's reply, as the books print it.
  C.ensureIndex = function (keys, options) {
    return api.helperCommand(this._db._name, { createIndexes: this._name, indexes: [indexSpec(keys, options)] });
  };
  // The legacy shell's name for an index of these keys (collection.js _genIndexName).
  C._genIndexName = function (keys) { return defaultName(keys); };
  // The legacy shell's index specification (collection.js _indexSpec): the namespace, the keys,
  // the generated name, then the options; in an array of options the first `true` is unique and
  // the second dropDups.
  C._indexSpec = function (keys, options) {
    var spec = { ns: this.getFullName(), key: keys, name: defaultName(keys) };
    if (options === undefined || options === null || options === false || options === '') return spec;
    if (typeof options === 'string') spec.name = options;
    else if (typeof options === 'boolean') spec.unique = true;
    else if (Array.isArray(options)) {
      if (options.length > 3) {
        throw new Error('Index options that are supplied in array form may only specify three values: name, unique, dropDups');
      }
      var booleans = 0;
      options.forEach(function (o) {
        if (typeof o === 'string') spec.name = o;
        else if (typeof o === 'boolean') {
          if (o && booleans === 0) spec.unique = true;
          if (o && booleans === 1) spec.dropDups = true;
          booleans++;
        }
      });
    } else if (typeof options === 'object') Object.keys(options).forEach(function (k) { spec[k] = options[k]; });
    else throw new Error('Index options must be a string, a boolean, an array or an object, got ' + typeof options);
    return spec;
  };
  // The legacy shell answers [] for a collection that does not exist (collection.js
  // getIndexes: "for legacy reasons" on NamespaceNotFound); mongosh reports the error.
  C.getIndexes = function () {
    if (api.isLegacy()) {
      var reply = this._db.runCommand({ listIndexes: this._name });
      if (reply.ok === 1) return reply.cursor.firstBatch;
      if (reply.code === 26) return [];
    }
    return this._command({ listIndexes: this._name }).cursor.firstBatch;
  };
  C.getIndexSpecs = C.getIndexes;
  C.getIndexKeys = function () { return this.getIndexes().map(function (i) { return i.key; }); };
  C.dropIndex = function (index) { return api.helperCommand(this._db._name, { dropIndexes: this._name, index: index }); };
  // The legacy shell's dropIndexes throws a failure other than "index not found", with the
  // reply's code (collection.js dropIndexes, _getErrorWithCode); mongosh throws any failure.
  C.dropIndexes = function (indexes) {
    var reply = api.helperCommand(this._db._name, { dropIndexes: this._name, index: indexes === undefined ? '*' : indexes });
    if (api.isLegacy() && reply.ok !== 1 && !/not found/.test(String(reply.errmsg))) {
      var e = new Error('error dropping indexes : ' + g.tojson(reply));
      e.code = reply.code;
      e.codeName = reply.codeName;
      throw e;
    }
    return reply;
  };
  // hideIndex / unhideIndex run collMod, as mongosh does; the reply shows hidden_old/hidden_new.
  function setHidden(coll, index, hidden) {
    var target = {};
    target[typeof index === 'string' ? 'name' : 'keyPattern'] = index;
    target.hidden = hidden;
    return coll._command({ collMod: coll._name, index: target });
  }
  C.hideIndex = function (index) { return setHidden(this, index, true); };
  C.unhideIndex = function (index) { return setHidden(this, index, false); };
  C.reIndex = function () { return this._command({ reIndex: this._name }); };

  // ---- explain ----------------------------------------------------------------------------------
  var VERBOSITIES = ['queryPlanner', 'executionStats', 'allPlansExecution'];
  function verbosityOf(v) {
    if (v === undefined) return 'queryPlanner';
    if (v === true) return 'allPlansExecution';
    if (v === false) return 'queryPlanner';
    if (VERBOSITIES.indexOf(v) < 0) {
      throw api.MongoshInvalidInputError('verbosity can only be one of ' + VERBOSITIES.join(', ') + '. Received ' + v + '.');
    }
    return v;
  }
  function runExplain(coll, cmd, verbosity) {
    return coll._command({ explain: cmd, verbosity: verbosity });
  }
  function findCommand(cursor) {
    var cmd = { find: cursor._coll._name };
    var s = cursor._spec;
    Object.keys(s).forEach(function (k) { if (s[k] !== undefined && k !== 'batchSize') cmd[k] = s[k]; });
    return cmd;
  }
  function runCursorExplain(cursor, verbosity) {
    var cmd = { explain: findCommand(cursor), verbosity: verbosity };
    if (cursor._readPref) cmd.$readPreference = cursor._readPref;
    return cursor._coll._command(cmd);
  }
  Q.explain = function (verbosity) {
    return runCursorExplain(this, verbosityOf(verbosity));
  };

  // db.c.explain().find(...): a cursor whose result is the explain document.
  function ExplainableCursor(coll, filter, projection, verbosity) {
    this._cursor = new api.Cursor(coll, filter, projection);
    this._verbosity = verbosity;
  }
  var E = ExplainableCursor.prototype;
  ['sort', 'skip', 'limit', 'batchSize', 'projection', 'hint', 'comment', 'collation', 'min', 'max', 'maxTimeMS']
    .forEach(function (name) {
      E[name] = function (v) { this._cursor[name](v); return this; };
    });
  E.finish = function () { return this._cursor.explain(this._verbosity); };
  E.next = E.finish;
  E._asPrintable = E.finish;
  E.toString = function () { return 'ExplainableCursor'; };

  function Explainable(coll, verbosity) {
    this._coll = coll;
    this._verbosity = verbosity;
  }
  var X = Explainable.prototype;
  X.getCollection = function () { return this._coll; };
  X.getVerbosity = function () { return this._verbosity; };
  X.setVerbosity = function (v) { this._verbosity = verbosityOf(v); return this; };
  X.find = function (filter, projection) {
    return new ExplainableCursor(this._coll, filter, projection, this._verbosity);
  };
  X._run = function (cmd) { return runExplain(this._coll, cmd, this._verbosity); };
  X.count = function (query, options) {
    var cmd = { count: this._coll._name, query: query === undefined ? {} : query };
    options = options || {};
    ['skip', 'limit', 'hint', 'collation'].forEach(function (k) { if (options[k] !== undefined) cmd[k] = options[k]; });
    return this._run(cmd);
  };
  X.countDocuments = X.count;
  X.distinct = function (key, query) {
    return this._run({ distinct: this._coll._name, key: key, query: query === undefined ? {} : query });
  };
  function updateStatement(filter, update, options, multi) {
    options = options || {};
    var stmt = { q: filter, u: update, upsert: !!options.upsert, multi: !!multi };
    ['arrayFilters', 'hint', 'collation', 'sort'].forEach(function (k) { if (options[k] !== undefined) stmt[k] = options[k]; });
    return stmt;
  }
  X._update = function (filter, update, options, multi) {
    return this._run({ update: this._coll._name, updates: [updateStatement(filter, update, options, multi)] });
  };
  X.update = function (filter, update, upsertOrOptions, multi) {
    var opts = typeof upsertOrOptions === 'object' && upsertOrOptions !== null ? upsertOrOptions : { upsert: !!upsertOrOptions, multi: !!multi };
    return this._update(filter, update, opts, !!opts.multi);
  };
  X.updateOne = function (f, u, o) { return this._update(f, u, o, false); };
  X.updateMany = function (f, u, o) { return this._update(f, u, o, true); };
  X.replaceOne = function (f, r, o) { return this._update(f, r, o, false); };
  X._delete = function (filter, limit) {
    return this._run({ delete: this._coll._name, deletes: [{ q: filter === undefined ? {} : filter, limit: limit }] });
  };
  X.remove = function (filter, justOne) {
    var one = justOne === true || (justOne && justOne.justOne);
    return this._delete(filter, one ? 1 : 0);
  };
  X.deleteOne = function (filter) { return this._delete(filter, 1); };
  X.deleteMany = function (filter) { return this._delete(filter, 0); };
  X.findAndModify = function (spec) {
    var cmd = { findAndModify: this._coll._name };
    spec = spec || {};
    Object.keys(spec).forEach(function (k) { cmd[k] = spec[k]; });
    return this._run(cmd);
  };
  X.findOneAndUpdate = function (filter, update, options) {
    options = options || {};
    return this.findAndModify({ query: filter, update: update, sort: options.sort, upsert: options.upsert });
  };
  X.findOneAndReplace = X.findOneAndUpdate;
  X.findOneAndDelete = function (filter, options) {
    return this.findAndModify({ query: filter, remove: true, sort: (options || {}).sort });
  };
  X.aggregate = function (pipeline, options) {
    var cmd = { aggregate: this._coll._name, pipeline: pipeline || [], cursor: {} };
    Object.keys(options || {}).forEach(function (k) { if (k !== 'explain') cmd[k] = options[k]; });
    return this._run(cmd);
  };
  X.toString = function () { return 'Explainable(' + this._coll.getFullName() + ')'; };
  X._asPrintable = X.toString;

  C.explain = function (verbosity) { return new Explainable(this, verbosityOf(verbosity)); };
})(globalThis);

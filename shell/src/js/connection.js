// The connection: mongosh's `Mongo(uri)` and `connect(uri)`, `db.getMongo()`, and the
// connection's read preference, from the connection string (readPreference,
// readPreferenceTags, maxStalenessSeconds) or from `setReadPref`. Reads that name no read
// preference carry the connection's (replset.rs), so a simulated replica set serves them from
// the member server selection picks.
//
// Sprout runs one in-process deployment and the shell holds one connection to it: every host
// in a connection string reaches that deployment, and a new `Mongo(uri)` or `connect(uri)`
// replaces the connection's read preference (mongosh would open a second connection).
(function (g, native) {
  'use strict';
  var api = g.__sproutApi;
  var READ_MODES = ['primary', 'primaryPreferred', 'secondary', 'secondaryPreferred', 'nearest'];

  function define(name, value) {
    Object.defineProperty(g, name, { value: value, writable: true, configurable: true, enumerable: false });
  }
  function namedError(name, message) {
    var e = new Error(message);
    e.name = name;
    return e;
  }

  // A read preference as the driver checks it, as the `$readPreference` document reads carry.
  function readPrefDocument(mode, tags, maxStalenessSeconds) {
    if (READ_MODES.indexOf(mode) < 0) {
      throw namedError('MongoInvalidArgumentError', 'Invalid read preference mode ' + JSON.stringify(mode));
    }
    if (tags !== undefined && tags !== null && !Array.isArray(tags)) {
      throw namedError('MongoInvalidArgumentError', 'ReadPreference tags must be an array');
    }
    if (maxStalenessSeconds !== undefined && maxStalenessSeconds !== null && !(maxStalenessSeconds > 0)) {
      throw namedError('MongoInvalidArgumentError', 'maxStalenessSeconds must be a positive integer');
    }
    if (mode === 'primary') {
      if (tags && tags.length > 0) throw namedError('MongoInvalidArgumentError', 'Primary read preference cannot be combined with tags');
      if (maxStalenessSeconds) throw namedError('MongoInvalidArgumentError', 'Primary read preference cannot be combined with maxStalenessSeconds');
    }
    var doc = { mode: mode };
    if (tags && tags.length) doc.tags = tags;
    if (maxStalenessSeconds !== undefined && maxStalenessSeconds !== null) doc.maxStalenessSeconds = maxStalenessSeconds;
    return doc;
  }

  // A connection string as the driver reads it: hosts, the database, replicaSet and the read
  // preference's parts ({mode, tags, maxStalenessSeconds}, unchecked; undefined when the string
  // names none). mongosh's short forms `host:port/db` and `db` stand for
  // `mongodb://host:port/db` and `mongodb://127.0.0.1:27017/db`.
  function connectionString(uri) {
    var text = String(uri);
    if (!/^mongodb(\+srv)?:\/\//.test(text)) {
      if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
        throw namedError('MongoParseError', 'Invalid scheme, expected connection string to start with "mongodb://" or "mongodb+srv://"');
      }
      text = text.indexOf('/') >= 0 || /:\d+$/.test(text) ? 'mongodb://' + text : 'mongodb://127.0.0.1:27017/' + text;
    }
    var rest = text.replace(/^mongodb(\+srv)?:\/\//, '');
    var q = rest.indexOf('?');
    var slash = rest.indexOf('/');
    if (q >= 0 && (slash < 0 || slash > q)) {
      throw namedError('MongoParseError', 'Invalid connection string: options must follow a "/" after the hosts');
    }
    var hostPart = slash >= 0 ? rest.slice(0, slash) : rest;
    var at = hostPart.lastIndexOf('@');
    if (at >= 0) hostPart = hostPart.slice(at + 1);
    var hosts = hostPart.split(',').filter(function (h) { return h !== ''; });
    if (hosts.length === 0) throw namedError('MongoParseError', 'Invalid connection string: no host');
    var path = slash >= 0 ? rest.slice(slash + 1, q >= 0 ? q : undefined) : '';
    var out = { hosts: hosts, dbName: path ? decodeURIComponent(path) : undefined, replicaSet: undefined, readPreference: undefined };
    var mode;
    var tags = [];
    var staleness;
    (q >= 0 ? rest.slice(q + 1) : '').split('&').forEach(function (pair) {
      if (pair === '') return;
      var eq = pair.indexOf('=');
      var key = decodeURIComponent(eq < 0 ? pair : pair.slice(0, eq)).toLowerCase();
      var value = eq < 0 ? '' : decodeURIComponent(pair.slice(eq + 1));
      if (key === 'readpreference') mode = value;
      else if (key === 'readpreferencetags') {
        // Each readPreferenceTags is one tag set, 'dc:ny,rack:1'; an empty one is {}.
        var set = {};
        value.split(',').forEach(function (kv) {
          if (kv === '') return;
          var colon = kv.indexOf(':');
          if (colon < 0) throw namedError('MongoParseError', 'Invalid readPreferenceTags ' + JSON.stringify(value) + ': expected key:value pairs');
          set[kv.slice(0, colon)] = kv.slice(colon + 1);
        });
        tags.push(set);
      } else if (key === 'maxstalenessseconds') staleness = Number(value);
      else if (key === 'replicaset') out.replicaSet = value;
    });
    if (mode !== undefined || tags.length || staleness !== undefined) {
      out.readPreference = { mode: mode === undefined ? 'primary' : mode, tags: tags.length ? tags : undefined, maxStalenessSeconds: staleness };
    }
    return out;
  }

  // The shell's connection.
  function Connection(hosts, dbName, readPref) {
    Object.defineProperty(this, '_readPref', { value: readPref, writable: true, enumerable: false });
    Object.defineProperty(this, '_defaultDb', { value: dbName, enumerable: false });
    this.host = hosts.join(',');
  }
  var C = Connection.prototype;
  C.getDB = function (name) { return api.dbProxy(String(name)); };
  C.getDBNames = function () {
    return api.command('admin', { listDatabases: 1, nameOnly: true }).databases.map(function (d) { return d.name; });
  };
  // The legacy Mongo.getDBs (mongo/shell/mongo.js): the listDatabases reply (jstests/core/dropdb.js).
  C.getDBs = function () { return api.command('admin', { listDatabases: 1 }); };
  C.adminCommand = function (cmd) { return api.dbProxy('admin').runCommand(cmd); };
  // setReadPref(mode, tagSet): mode null goes back to the default (primary).
  C.setReadPref = function (mode, tags) {
    var doc = mode === null ? null : readPrefDocument(mode, tags);
    this._readPref = doc;
    native.setReadPref(doc);
  };
  C.getReadPrefMode = function () { return this._readPref ? this._readPref.mode : 'primary'; };
  C.getReadPrefTagSet = function () { return this._readPref ? this._readPref.tags : undefined; };
  C.getReadPref = function () { return Object.assign({ mode: 'primary' }, this._readPref || {}); };
  function onlyCommands(kind, mode) {
    if (mode !== 'commands') throw new Error('Sprout speaks only commands: the ' + kind + ' mode ' + JSON.stringify(mode) + ' is not available');
  }
  C.readMode = function () { return 'commands'; };
  C.forceReadMode = function (mode) { onlyCommands('read', mode); };
  C.forceWriteMode = function (mode) { onlyCommands('write', mode); };
  C.writeMode = function () { return 'commands'; };
  C.useReadCommands = function () { return true; };
  C.useWriteCommands = function () { return true; };
  // A router answers hello with msg 'isdbgrid'.
  C.isMongos = function () { return api.command('admin', { hello: 1 }).msg === 'isdbgrid'; };
  C.toString = function () { return 'mongodb://' + this.host + '/'; };

  var current = new Connection(['127.0.0.1:27017'], 'test', null);

  // new Mongo(uri): connects (again) with the string's read preference.
  function Mongo(uri) {
    if (uri === undefined || uri === null) uri = 'mongodb://127.0.0.1:27017/';
    if (typeof uri !== 'string') throw api.MongoshInvalidInputError('Mongo(): the connection string must be a string');
    var parsed = connectionString(uri);
    var rp = parsed.readPreference;
    var doc = rp ? readPrefDocument(rp.mode, rp.tags, rp.maxStalenessSeconds) : null;
    native.setReadPref(doc);
    current = new Connection(parsed.hosts, parsed.dbName || 'test', doc);
    return current;
  }
  // connect(uri): the database the string names (test when none), on a new connection.
  function connect(uri) {
    if (typeof uri !== 'string') throw api.MongoshInvalidInputError('connect(): the connection string must be a string');
    var conn = Mongo(uri);
    return conn.getDB(conn._defaultDb);
  }

  api.DBPrototype.getMongo = function () { return current; };
  define('Mongo', Mongo);
  define('connect', connect);
  Object.defineProperty(g, '__sproutConnection', {
    value: Object.freeze({ connectionString: connectionString, readPrefDocument: readPrefDocument }),
    enumerable: false,
  });
})(globalThis, __sproutNative);

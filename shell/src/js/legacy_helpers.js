// The legacy mongo shell's database and collection helpers that MongoDB's own jstests call and
// that neither the books nor mongosh need: db.createView, db._adminCommand, db.serverStatus,
// db.hostInfo, db.serverBuildInfo, db.getProfilingLevel, db.killOp, db.fsyncLock / fsyncUnlock
// and coll.mapReduce. Each sends the command the legacy shell's helper sends
// (mongo/shell/db.js, collection.js), so a command Sprout's server lacks fails with its name
// ("no such command: 'mapReduce'") rather than with Boa's nameless "not a callable function".
// Evaluated on first use (js/lazy_modules.js).
(function (g) {
  'use strict';
  var D = Object.getPrototypeOf(g.db);
  var C = g.DBCollection.prototype;
  function define(obj, name, value) {
    Object.defineProperty(obj, name, { value: value, writable: true, configurable: true, enumerable: false });
  }

  define(D, '_adminCommand', function (cmd) { return this.adminCommand(cmd); });
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

  // collection.js mapReduce: the options object (or the output collection's name) joins the
  // command; a failure throws "map reduce failed:" with the reply.
  define(C, 'mapReduce', function (map, reduce, optionsOrOutString) {
    var cmd = { mapreduce: this._name, map: map, reduce: reduce };
    if (typeof optionsOrOutString === 'string') cmd.out = optionsOrOutString;
    else Object.keys(optionsOrOutString || {}).forEach(function (k) { cmd[k] = optionsOrOutString[k]; });
    var reply = this._db.runCommand(cmd);
    if (!reply.ok) {
      var e = new Error('map reduce failed:' + g.tojson(reply));
      e.code = reply.code;
      e.codeName = reply.codeName;
      throw e;
    }
    return reply;
  });
})(globalThis);

// Shell modules evaluated on first use: parsing JavaScript is most of what starting a shell costs
// (in the browser it is on the path to the page's first result), and these serve commands a
// session may never run. Each stand-in loads its module, which replaces every stand-in of that
// module with the real function or property, then repeats the call.
//   node_shim: `require` and `console`, for the Node.js listings
//   bulk:      the legacy bulk builders and bulkWrite
//   indexes:   index commands, and explain on collections and cursors
//   replset:   rs.*, ReplSetTest, db.hello() / db.isMaster() (the simulated replica set)
(function (g, native) {
  'use strict';
  var loaded = {};
  function load(module) {
    if (loaded[module]) return;
    loaded[module] = true;
    (0, eval)(native.lazyModuleSource(module));
  }
  function methods(module, proto, names) {
    names.forEach(function (name) {
      Object.defineProperty(proto, name, {
        value: function () { load(module); return proto[name].apply(this, arguments); },
        writable: true, configurable: true, enumerable: true,
      });
    });
  }
  function globals(module, names) {
    names.forEach(function (name) {
      Object.defineProperty(g, name, {
        get: function () { load(module); return g[name]; },
        set: function (v) { load(module); g[name] = v; },
        configurable: true, enumerable: false,
      });
    });
  }
  var C = g.DBCollection.prototype;
  globals('node_shim', ['require', 'console']);
  methods('bulk', C, ['initializeOrderedBulkOp', 'initializeUnorderedBulkOp', 'bulkWrite']);
  methods('indexes', C, ['createIndexes', 'createIndex', 'ensureIndex', 'getIndexes', 'getIndexSpecs',
    'getIndexKeys', 'dropIndex', 'dropIndexes', 'hideIndex', 'unhideIndex', 'reIndex', 'explain']);
  methods('indexes', g.__sproutApi.Cursor.prototype, ['explain']);
  globals('replset', ['rs', 'ReplSetTest']);
  methods('replset', Object.getPrototypeOf(g.db), ['hello', 'isMaster']);
})(globalThis, __sproutNative);

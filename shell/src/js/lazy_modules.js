// Shell modules evaluated on first use: parsing JavaScript is most of what starting a shell costs
// (in the browser it is on the path to the page's first result), and these serve commands a
// session may never run. Each stand-in loads its module, which replaces every stand-in of that
// module with the real function or property, then repeats the call.
//   node_shim: `require` and `console`, for the Node.js listings
//   bulk:      the legacy bulk builders and bulkWrite
//   indexes:   index commands, and explain on collections and cursors
//   replset:   rs.*, ReplSetTest, db.hello() / db.isMaster() (the simulated replica set)
//   sharding:  sh.*, ShardingTest, getShardDistribution (the simulated sharded cluster)
//   test_helpers: the legacy shell's test helpers (ErrorCodes, jsTest, Random, assert.command*…)
//   legacy_helpers: the legacy shell's other db and collection helpers (createView, mapReduce…)
(function (g, native) {
  'use strict';
  var loaded = {};
  function load(module) {
    if (loaded[module]) return;
    loaded[module] = true;
    (0, eval)(native.lazyModuleSource(module));
  }
  function methods(module, proto, names, hidden) {
    names.forEach(function (name) {
      Object.defineProperty(proto, name, {
        value: function () { load(module); return proto[name].apply(this, arguments); },
        writable: true, configurable: true, enumerable: !hidden,
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
  globals('bulk', ['BulkWriteError']);
  methods('indexes', C, ['createIndexes', 'createIndex', 'ensureIndex', 'getIndexes', 'getIndexSpecs',
    'getIndexKeys', 'dropIndex', 'dropIndexes', 'hideIndex', 'unhideIndex', 'reIndex', 'explain']);
  methods('indexes', C, ['_genIndexName', '_indexSpec'], true);
  methods('indexes', g.__sproutApi.Cursor.prototype, ['explain']);
  globals('replset', ['rs', 'ReplSetTest']);
  methods('replset', Object.getPrototypeOf(g.db), ['hello', 'isMaster', 'getReplicationInfo',
    'printReplicationInfo']);
  globals('sharding', ['sh', 'ShardingTest']);
  methods('sharding', C, ['getShardDistribution']);
  methods('sharding', Object.getPrototypeOf(g.db), ['printShardingStatus']);
  methods('legacy_helpers', Object.getPrototypeOf(g.db), ['_adminCommand', 'createView', 'serverStatus',
    'hostInfo', 'serverBuildInfo', 'getProfilingLevel', 'killOp', 'fsyncLock', 'fsyncUnlock',
    'getWriteConcern', 'setWriteConcern', 'unsetWriteConcern'], true);
  globals('legacy_helpers', ['shellAutocomplete', 'tostrictjson', 'tojsonObject']);
  methods('legacy_helpers', Map.prototype, ['put'], true);
  methods('legacy_helpers', C, ['mapReduce', 'convertToSingleObject', 'getWriteConcern', 'setWriteConcern',
    'unsetWriteConcern', 'latencyStats'], true);
  globals('test_helpers', ['ErrorCodes', 'ErrorCodeStrings', 'jsTestName', 'jsTestLog', 'jsTestOptions',
    'jsTest', 'Random', 'Geo', 'DBCommandCursor', 'bsonWoCompare', 'bsonBinaryEqual', '_isWindows',
    'isString', 'isNumber', 'isObject', 'testingReplication']);
  methods('test_helpers', g.assert, ['commandWorked', 'commandWorkedIgnoringWriteErrors', 'commandFailed',
    'commandFailedWithCode', 'commandWorkedOrFailedWithCode', 'writeOK', 'writeError', 'writeErrorWithCode',
    'throwsWithCode', 'close', 'between', 'betweenIn', 'betweenEx', 'hasFields', 'sameMembers', 'setEq',
    'soon', 'soonNoExcept', 'retry', 'automsg', 'commandWorkedIgnoringWriteConcernErrors', 'gleSuccess',
    'gleOK', 'gleError', 'gleErrorCode', 'gleErrorRegex', 'closeWithinMS'], true);
  ['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'throws', 'doesNotThrow'].forEach(function (name) {
    methods('test_helpers', g.assert[name], ['automsg'], true);
  });
  methods('test_helpers', Array, g.__sproutApi.arrayGenerics, true);
  methods('test_helpers', Array, ['contains', 'unique', 'shuffle', 'sum', 'avg', 'stdDev', 'tojson', 'fetchRefs'], true);
  methods('test_helpers', Number.prototype, ['zeroPad', 'toPercentStr'], true);
  methods('test_helpers', Object, ['extend', 'merge', 'keySet'], true);
})(globalThis, __sproutNative);

// Sharding helpers over Sprout's simulated sharded cluster (engine/src/sharding): the `sh`
// object as mongosh has it (addShard, enableSharding, shardCollection, splitAt, splitFind,
// moveChunk, the balancer's switches, zones and their legacy tag names, status),
// db.collection.getShardDistribution(), db.printShardingStatus(), and the mongo shell's test
// fixture `new ShardingTest({shards, rs})`. sh.status() and getShardDistribution() print as
// mongosh prints a StatsResult: each section's name, its value below, `---` between.
// Loaded on first use (lazy_modules.js).
(function (g, native) {
  'use strict';
  var api = g.__sproutApi;
  var command = api.command;

  function admin(cmd) { return command('admin', cmd); }
  function configDB() {
    // As mongosh's getConfigDB: only a router answers hello with msg "isdbgrid".
    if (admin({ hello: 1 }).msg !== 'isdbgrid') throw api.MongoshInvalidInputError('Not connected to a mongos');
    return g.db.getSiblingDB('config');
  }
  // Values mongosh prints on one line whatever their width (sh.status()'s chunks have a
  // custom inspect with breakLength Infinity): a long placeholder string stands in for each
  // while the whole is formatted, then takes the value's own text with its line breaks joined.
  var oneLineTexts = [];
  function oneLine(value) {
    var id = oneLineTexts.length;
    oneLineTexts.push(native.format(value, 'shell').replace(/\n\s*/g, ' '));
    return '@@sprout-one-line-' + id + '@@' + new Array(81).join('.');
  }
  function printStats(result) {
    var text = Object.keys(result).map(function (k) {
      return k + '\n' + (typeof result[k] === 'string' ? "'" + result[k] + "'" : native.format(result[k], 'shell'));
    }).join('\n---\n');
    oneLineTexts.forEach(function (line, id) {
      text = text.split("'@@sprout-one-line-" + id + '@@' + new Array(81).join('.') + "'").join(line);
    });
    oneLineTexts = [];
    g.print(text);
  }

  var sh = {};
  sh.addShard = function (url) { return admin({ addShard: url }); };
  sh.enableSharding = function (database, primaryShard) {
    var cmd = { enableSharding: database };
    if (primaryShard !== undefined) cmd.primaryShard = primaryShard;
    return admin(cmd);
  };
  sh.shardCollection = function (namespace, key, unique, options) {
    var cmd = { shardCollection: namespace, key: key };
    if (unique !== undefined) cmd.unique = unique;
    Object.keys(options || {}).forEach(function (k) { cmd[k] = options[k]; });
    return admin(cmd);
  };
  sh.splitAt = function (ns, query) { return admin({ split: ns, middle: query }); };
  sh.splitFind = function (ns, query) { return admin({ split: ns, find: query }); };
  sh.moveChunk = function (ns, query, destination) { return admin({ moveChunk: ns, find: query, to: destination }); };
  sh.startBalancer = function () { configDB(); return admin({ balancerStart: 1 }); };
  sh.stopBalancer = function () { configDB(); return admin({ balancerStop: 1 }); };
  sh.setBalancerState = function (state) { return state ? sh.startBalancer() : sh.stopBalancer(); };
  sh.isBalancerRunning = function () { configDB(); return admin({ balancerStatus: 1 }); };
  sh.getBalancerState = function () {
    var doc = configDB().getCollection('settings').findOne({ _id: 'balancer' });
    return doc === null || doc === undefined ? true : !doc.stopped;
  };
  sh.addShardToZone = function (shard, zone) { configDB(); return admin({ addShardToZone: shard, zone: zone }); };
  sh.removeShardFromZone = function (shard, zone) { configDB(); return admin({ removeShardFromZone: shard, zone: zone }); };
  sh.addShardTag = function (shard, tag) { return sh.addShardToZone(shard, tag); };
  sh.removeShardTag = function (shard, tag) { return sh.removeShardFromZone(shard, tag); };
  sh.updateZoneKeyRange = function (ns, min, max, zone) {
    configDB();
    return admin({ updateZoneKeyRange: ns, min: min, max: max, zone: zone });
  };
  sh.removeRangeFromZone = function (ns, min, max) { return sh.updateZoneKeyRange(ns, min, max, null); };
  sh.addTagRange = function (ns, min, max, zone) { return sh.updateZoneKeyRange(ns, min, max, zone); };
  sh.removeTagRange = function (ns, min, max) { return sh.updateZoneKeyRange(ns, min, max, null); };

  // mongosh's getPrintableShardStatus, over the simulated config database.
  function printableStatus(verbose) {
    var config = configDB();
    var result = {};
    var version = config.getCollection('version').findOne({});
    result.shardingVersion = { _id: version._id, clusterId: version.clusterId };
    result.shards = config.getCollection('shards').find().sort({ _id: 1 }).toArray();
    var mongos = {};
    mongos[admin({ buildInfo: 1 }).version] = 1;
    result['active mongoses'] = [mongos];
    result.autosplit = { 'Currently enabled': 'yes' };
    var settings = config.getCollection('settings').findOne({ _id: 'balancer' });
    var balancer = {};
    balancer['Currently enabled'] = settings === null || !settings.stopped ? 'yes' : 'no';
    balancer['Currently running'] = admin({ balancerStatus: 1 }).inBalancerRound ? 'yes' : 'no';
    balancer['Failed balancer rounds in last 5 attempts'] = 0;
    var yesterday = new Date(new Date().getTime() - 24 * 3600 * 1000);
    var moves = config.getCollection('changelog').find({ what: 'moveChunk.from', time: { $gt: yesterday }, 'details.note': 'success' }).toArray();
    if (moves.length === 0) {
      balancer['Migration Results for the last 24 hours'] = 'No recent migrations';
    } else {
      var migrations = {};
      migrations[moves.length] = 'Success';
      balancer['Migration Results for the last 24 hours'] = migrations;
    }
    result.balancer = balancer;
    var databases = config.getCollection('databases').find().sort({ _id: 1 }).toArray();
    var collections = config.getCollection('collections').find({ dropped: { $ne: true }, unsplittable: { $ne: true } }).sort({ _id: 1 }).toArray();
    result.shardedDataDistribution = collections.map(function (coll) {
      var parts = coll._id.split('.');
      var stats = g.db.getSiblingDB(parts[0]).getCollection(parts.slice(1).join('.'))
        .aggregate([{ $collStats: { storageStats: {} } }]).toArray();
      return {
        ns: coll._id,
        shards: stats.map(function (s) {
          return { shardName: s.shard, numOrphanedDocs: 0, numOwnedDocuments: s.storageStats.count,
            ownedSizeBytes: s.storageStats.size, orphanedSizeBytes: 0 };
        }),
      };
    });
    databases.push({ _id: 'config', primary: 'config', partitioned: true });
    databases.sort(function (a, b) { return a._id.localeCompare(b._id); });
    result.databases = databases.map(function (database) {
      var colls = {};
      collections.filter(function (c) { return c._id.indexOf(database._id + '.') === 0; }).forEach(function (coll) {
        var chunks = config.getCollection('chunks').find({ uuid: coll.uuid }).sort({ min: 1 }).toArray();
        var counts = {};
        chunks.forEach(function (c) { counts[c.shard] = (counts[c.shard] || 0) + 1; });
        var chunkList = [];
        for (var i = 0; i < chunks.length; i++) {
          if (chunkList.length < 20 || verbose) {
            chunkList.push(oneLine({ min: chunks[i].min, max: chunks[i].max, 'on shard': chunks[i].shard, 'last modified': chunks[i].lastmod }));
          } else {
            chunkList.push('too many chunks to print, use verbose if you want to force print');
            break;
          }
        }
        var tags = config.getCollection('tags').find({ ns: coll._id }).sort({ min: 1 }).toArray().map(function (t) {
          return { tag: t.tag, min: t.min, max: t.max };
        });
        colls[coll._id] = {
          shardKey: coll.key,
          unique: !!coll.unique,
          balancing: !coll.noBalance,
          allowMigrations: coll.permitMigrations !== false && coll.allowMigrations !== false,
          chunkMetadata: Object.keys(counts).sort().map(function (s) { return { shard: s, nChunks: counts[s] }; }),
          chunks: chunkList,
          tags: tags,
        };
      });
      return { database: database, collections: colls };
    });
    return result;
  }
  sh.status = function (verbose) { printStats(printableStatus(!!verbose)); };

  function dataFormat(bytes) {
    if (bytes === null || bytes === undefined) return '0B';
    if (bytes < 1024) return Math.floor(bytes) + 'B';
    if (bytes < 1024 * 1024) return Math.floor(bytes / 1024) + 'KiB';
    if (bytes < 1024 * 1024 * 1024) return Math.floor((Math.floor(bytes / 1024) / 1024) * 100) / 100 + 'MiB';
    return Math.floor((Math.floor(bytes / (1024 * 1024)) / 1024) * 100) / 100 + 'GiB';
  }
  // db.collection.getShardDistribution() as mongosh computes it from $collStats and config.
  function getShardDistribution() {
    var coll = this;
    var config = configDB();
    var ns = coll.getFullName();
    var info = config.getCollection('collections').findOne({ _id: ns });
    if (info === null) throw api.MongoshInvalidInputError('Collection ' + coll.getName() + ' is not sharded');
    var stats = coll.aggregate([{ $collStats: { storageStats: {} } }]).toArray();
    var result = {};
    var totals = { numChunks: 0, size: 0, count: 0 };
    var concise = [];
    stats.forEach(function (s) {
      var shard = config.getCollection('shards').findOne({ _id: s.shard });
      var numChunks = config.getCollection('chunks').countDocuments({ uuid: info.uuid, shard: s.shard });
      var size = s.storageStats.size;
      var count = s.storageStats.count;
      result['Shard ' + s.shard + ' at ' + (shard !== null ? shard.host : null)] = {
        data: dataFormat(size),
        docs: count,
        chunks: numChunks,
        'estimated data per chunk': dataFormat(numChunks === 0 ? 0 : size / numChunks),
        'estimated docs per chunk': numChunks === 0 ? 0 : Math.floor(count / numChunks),
      };
      totals.size += size; totals.count += count; totals.numChunks += numChunks;
      concise.push({ shardId: s.shard, size: size, count: count, avgObjSize: s.storageStats.avgObjSize });
    });
    var total = { data: dataFormat(totals.size), docs: totals.count, chunks: totals.numChunks };
    concise.forEach(function (s) {
      var dataPercent = totals.size === 0 ? 0 : Math.floor((s.size / totals.size) * 10000) / 100;
      var docPercent = totals.count === 0 ? 0 : Math.floor((s.count / totals.count) * 10000) / 100;
      total['Shard ' + s.shardId] = [dataPercent + ' % data', docPercent + ' % docs in cluster', dataFormat(s.avgObjSize) + ' avg obj size on shard'];
    });
    result.Totals = total;
    printStats(result);
  }

  // The mongo shell's ShardingTest fixture over the simulated cluster: {shards: n} gives
  // standalone shards, {shards: n, rs: {nodes: m}} replica-set shards; the shell connects to
  // the router.
  function ShardingTest(opts) {
    if (!(this instanceof ShardingTest)) return new ShardingTest(opts);
    opts = opts || {};
    var options = { shards: opts.shards === undefined ? 2 : opts.shards, name: opts.name || 'shardingTest' };
    if (opts.rs) options.rs = opts.rs === true ? {} : opts.rs;
    var reply = native.shardingStart(options);
    if (reply.ok !== 1) throw api.MongoServerError(reply);
    var self = this;
    this._shards = reply.shards;
    this.s = g.db.getMongo();
    this.s0 = this.s;
    this.admin = g.db.getSiblingDB('admin');
    this.config = g.db.getSiblingDB('config');
    reply.shards.forEach(function (s, i) { self['shard' + i] = { shardName: s._id, host: s.host }; });
  }
  ShardingTest.prototype.getDB = function (name) { return g.db.getSiblingDB(name); };
  ShardingTest.prototype.adminCommand = function (cmd) { return admin(cmd); };
  ShardingTest.prototype.shardColl = function (collName, key, split, move, dbName) {
    dbName = dbName || 'test';
    var ns = dbName + '.' + collName;
    admin({ enableSharding: dbName });
    admin({ shardCollection: ns, key: key });
    if (split) admin({ split: ns, middle: split });
    if (move) admin({ moveChunk: ns, find: move, to: this._shards[1 % this._shards.length]._id });
  };
  ShardingTest.prototype.stop = function () { return true; };
  ShardingTest.prototype.startBalancer = function () { return sh.startBalancer(); };
  ShardingTest.prototype.stopBalancer = function () { return sh.stopBalancer(); };

  Object.defineProperty(g, 'sh', { value: sh, writable: true, configurable: true, enumerable: false });
  Object.defineProperty(g, 'ShardingTest', { value: ShardingTest, writable: true, configurable: true, enumerable: false });
  g.DBCollection.prototype.getShardDistribution = getShardDistribution;
  Object.getPrototypeOf(g.db).printShardingStatus = function (verbose) { return sh.status(verbose); };
})(globalThis, __sproutNative);

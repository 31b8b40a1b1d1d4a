// Replica-set helpers over Sprout's simulated set (engine/src/replication): the `rs` object as
// mongosh has it (initiate, status, conf, reconfig, add, addArb, remove, stepDown,
// printReplicationInfo, printSecondaryReplicationInfo), db.hello() / db.isMaster(),
// db.getReplicationInfo() / db.printReplicationInfo(), the mongo shell's test fixture
// `new ReplSetTest({name, nodes})`; `sprout.replSet` (globals.js) stops, starts, delays and
// slows members.
// Loaded on first use (lazy_modules.js).
(function (g, native) {
  'use strict';
  var api = g.__sproutApi;
  var command = api.command;

  function admin(cmd) { return command('admin', cmd); }
  function currentConfig() { return admin({ replSetGetConfig: 1 }).config; }
  function reconfigWith(config, options) {
    var cmd = { replSetReconfig: config };
    Object.keys(options || {}).forEach(function (k) { cmd[k] = options[k]; });
    return admin(cmd);
  }

  // The hosts `rs.initiate()` and `ReplSetTest` give members: the book's Docker addresses.
  function memberHost(i) { return '172.17.0.' + (2 + i) + ':27017'; }

  var rs = {};
  rs.initiate = function (config) {
    if (config === undefined) config = { _id: 'rs0', members: [{ _id: 0, host: memberHost(0) }] };
    var reply = native.replSetInitiate(config);
    if (reply.ok !== 1) throw api.MongoServerError(reply);
    return reply;
  };
  rs.status = function () { return admin({ replSetGetStatus: 1 }); };
  rs.conf = function () { return currentConfig(); };
  rs.config = rs.conf;
  // As mongosh does, the version is the current one plus one whatever the document says.
  rs.reconfig = function (config, options) {
    var next = {};
    Object.keys(config).forEach(function (k) { next[k] = config[k]; });
    next.version = currentConfig().version + 1;
    return reconfigWith(next, options);
  };
  rs.add = function (hostOrMember, arbiterOnly) {
    var config = currentConfig();
    var member = typeof hostOrMember === 'string' ? { host: hostOrMember } : hostOrMember;
    if (member === null || typeof member !== 'object' || typeof member.host !== 'string') {
      throw api.MongoshInvalidInputError('A host is required: rs.add("host:port") or rs.add({host: ...})');
    }
    if (member._id === undefined) {
      var max = -1;
      config.members.forEach(function (m) { if (m._id > max) max = m._id; });
      member = Object.assign({ _id: max + 1 }, member);
    }
    if (arbiterOnly) member.arbiterOnly = true;
    config.members.push(member);
    return rs.reconfig(config);
  };
  rs.addArb = function (host) { return rs.add(host, true); };
  rs.remove = function (host) {
    var config = currentConfig();
    var kept = config.members.filter(function (m) { return m.host !== host; });
    if (kept.length === config.members.length) {
      throw api.MongoshInvalidInputError("Couldn't find " + host + ' in ' + JSON.stringify(config.members.map(function (m) { return m.host; })));
    }
    config.members = kept;
    return rs.reconfig(config);
  };
  rs.stepDown = function (stepDownSecs, catchUpSecs) {
    var cmd = { replSetStepDown: stepDownSecs === undefined ? 60 : stepDownSecs };
    if (catchUpSecs !== undefined) cmd.secondaryCatchUpPeriodSecs = catchUpSecs;
    return admin(cmd);
  };
  rs.hello = function () { return admin({ hello: 1 }); };
  rs.isMaster = function () { return admin({ isMaster: 1 }); };
  // rs.compareOpTimes(a, b) of the legacy shell: -1, 0 or 1, by term (`t`), then by timestamp
  // (`ts`: seconds, then increment); an optime without both, or with term -1 (protocol
  // version 0), is refused.
  rs.compareOpTimes = function (a, b) {
    function valid(o) {
      return o !== null && typeof o === 'object' && o.ts instanceof Timestamp && 't' in o && o.t != -1;
    }
    if (!valid(a) || !valid(b)) throw Error('invalid optimes, received: ' + tojson(a) + ' and ' + tojson(b));
    function cmp(x, y) { return x < y ? -1 : x > y ? 1 : 0; }
    return cmp(Number(a.t), Number(b.t)) || cmp(a.ts.getTime(), b.ts.getTime()) || cmp(a.ts.getInc(), b.ts.getInc());
  };
  // Prints each secondary's last applied time and its lag behind the primary, as mongosh does.
  rs.printSecondaryReplicationInfo = function () {
    var status = rs.status();
    var primary = status.members.filter(function (m) { return m.stateStr === 'PRIMARY'; })[0];
    status.members.forEach(function (m) {
      if (m.stateStr !== 'SECONDARY') return;
      g.print('source: ' + m.name);
      var lagSecs = primary ? Math.round((primary.optimeDate - m.optimeDate) / 1000) : 0;
      g.printjson({
        syncedTo: m.optimeDate.toString(),
        replLag: lagSecs + ' secs (' + Math.round(lagSecs / 3600) + ' hrs) behind the primary ',
      });
    });
  };

  function MongoshRuntimeError(message) {
    var e = new Error(message);
    e.name = 'MongoshRuntimeError';
    return e;
  }
  // db.getReplicationInfo() as mongosh computes it from local.oplog.rs: its configured
  // (capped) size, the size it uses, and the time between its first and last entries.
  function getReplicationInfo() {
    var local = g.db.getSiblingDB('local');
    if (local.getCollectionNames().indexOf('oplog.rs') < 0) {
      throw api.MongoshInvalidInputError('Replication not detected. Are you connected to a replset?');
    }
    var oplog = local.getCollection('oplog.rs');
    var stats = oplog.stats();
    if (!stats || !stats.maxSize) {
      throw MongoshRuntimeError('Could not get stats for local.oplog.rs collection. collstats returned ' + JSON.stringify(stats));
    }
    var mb = 1024 * 1024;
    var result = {
      configuredLogSizeMB: stats.maxSize / mb,
      logSizeMB: Math.max(stats.maxSize, stats.size) / mb,
      usedMB: Math.ceil(stats.size / mb * 100) / 100,
    };
    var first = oplog.find().sort({ $natural: 1 }).limit(1).toArray()[0];
    var last = oplog.find().sort({ $natural: -1 }).limit(1).toArray()[0];
    if (first === undefined || last === undefined) {
      throw MongoshRuntimeError('objects not found in local.oplog.$main -- is this a new and empty db instance?');
    }
    var tFirst = first.ts.t;
    var tLast = last.ts.t;
    result.timeDiff = tLast - tFirst;
    result.timeDiffHours = Math.round(result.timeDiff / 36) / 100;
    result.tFirst = new Date(tFirst * 1000).toString();
    result.tLast = new Date(tLast * 1000).toString();
    result.now = new Date().toString();
    return result;
  }
  // Prints getReplicationInfo() as mongosh's StatsResult does: each label on its own line,
  // its value quoted below, sections separated by `---`.
  function printReplicationInfo() {
    var info;
    try {
      info = getReplicationInfo();
    } catch (error) {
      var hello = admin({ hello: 1 });
      if (hello.arbiterOnly) return g.print('message\n\'cannot provide replication status from an arbiter\'');
      if (hello.setName !== undefined && !hello.isWritablePrimary) {
        g.print('message\n\'this is a secondary, printing secondary replication info.\'');
        return rs.printSecondaryReplicationInfo();
      }
      throw error;
    }
    var sections = [
      ['actual oplog size', info.logSizeMB + ' MB'],
      ['configured oplog size', info.configuredLogSizeMB + ' MB'],
      ['log length start to end', info.timeDiff + ' secs (' + info.timeDiffHours + ' hrs)'],
      ['oplog first event time', info.tFirst],
      ['oplog last event time', info.tLast],
      ['now', info.now],
    ];
    g.print(sections.map(function (s) { return s[0] + '\n\'' + s[1] + '\''; }).join('\n---\n'));
  }
  rs.printReplicationInfo = printReplicationInfo;

  function member(hostOrIndex) {
    if (typeof hostOrIndex === 'number') return currentConfig().members[hostOrIndex].host;
    return hostOrIndex;
  }
  var replSet = {
    stop: function (h) { return g.sprout.replSet.stop(member(h)); },
    start: function (h) { return g.sprout.replSet.start(member(h)); },
  };

  // The mongo shell's ReplSetTest fixture, over the simulated set: nodes is a count, an array
  // of member options or an object of them.
  function ReplSetTest(opts) {
    if (!(this instanceof ReplSetTest)) return new ReplSetTest(opts);
    opts = opts || {};
    this.name = opts.name || 'testReplSet';
    var nodes = opts.nodes === undefined ? 3 : opts.nodes;
    var list = typeof nodes === 'number' ? new Array(nodes).fill(null).map(function () { return {}; })
      : Array.isArray(nodes) ? nodes : Object.keys(nodes).map(function (k) { return nodes[k] || {}; });
    this._members = list.map(function (o, i) {
      var m = { _id: i, host: memberHost(i) };
      // {rsConfig: {...}} holds member options; {arbiter: true} makes an arbiter (ReplSetTest's
      // own spellings).
      Object.keys(o || {}).forEach(function (k) {
        if (k === 'rsConfig') Object.assign(m, o[k]);
        else if (k === 'arbiter') { if (o[k]) m.arbiterOnly = true; } else m[k] = o[k];
      });
      return m;
    });
    this.nodes = this._members.map(function (m) { return m.host; });
  }
  ReplSetTest.prototype.startSet = function () { return this.nodes.slice(); };
  ReplSetTest.prototype.getReplSetConfig = function () {
    return { _id: this.name, members: this._members.map(function (m) { return Object.assign({}, m); }) };
  };
  ReplSetTest.prototype.initiate = function (config) { return rs.initiate(config || this.getReplSetConfig()); };
  ReplSetTest.prototype.getPrimary = function () { return g.db.getMongo(); };
  ReplSetTest.prototype.getSecondaries = function () {
    return rs.status().members.filter(function (m) { return m.stateStr === 'SECONDARY'; }).map(function (m) { return m.name; });
  };
  ReplSetTest.prototype.stop = function (n) { return replSet.stop(n); };
  ReplSetTest.prototype.start = function (n) { return replSet.start(n); };
  ReplSetTest.prototype.restart = function (n) { replSet.stop(n); return replSet.start(n); };
  ReplSetTest.prototype.stopSet = function () { return true; };
  ReplSetTest.prototype.status = function () { return rs.status(); };

  Object.defineProperty(g, 'rs', { value: rs, writable: true, configurable: true, enumerable: false });
  Object.defineProperty(g, 'ReplSetTest', { value: ReplSetTest, writable: true, configurable: true, enumerable: false });
  var D = Object.getPrototypeOf(g.db);
  D.hello = function () { return command('admin', { hello: 1 }); };
  D.isMaster = function () { return command('admin', { isMaster: 1 }); };
  D.getReplicationInfo = getReplicationInfo;
  D.printReplicationInfo = printReplicationInfo;
})(globalThis, __sproutNative);

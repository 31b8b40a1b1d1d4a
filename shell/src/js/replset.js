// Replica-set helpers over Sprout's simulated set (engine/src/replication): the `rs` object as
// mongosh has it (initiate, status, conf, reconfig, add, addArb, remove, stepDown,
// printSecondaryReplicationInfo), db.hello() / db.isMaster(), the mongo shell's test fixture
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
})(globalThis, __sproutNative);

// The legacy mongo shell's test helpers, which MongoDB's own jstests call: ErrorCodes, jsTest,
// jsTestName, Random, the assert family's command and write checks, assert.*.automsg, Array and
// Object helpers, Number.prototype.zeroPad and DBCommandCursor. Evaluated on first use
// (js/lazy_modules.js); each name behaves as the legacy shell's of the same name.
(function (g, native) {
  'use strict';
  var api = g.__sproutApi;
  var hasOwn = Object.prototype.hasOwnProperty;
  function define(obj, name, value) {
    Object.defineProperty(obj, name, { value: value, writable: true, configurable: true, enumerable: false });
  }
  function tojson(v) { return native.format(v, 'tojson'); }
  function suffix(msg) {
    if (msg === undefined) return '';
    return ' : ' + (typeof msg === 'function' ? msg() : msg);
  }
  function fail(text, msg) { g.doassert(text + suffix(msg)); }

  // ---- ErrorCodes: MongoDB's error_codes.yml, by name and by number ---------------------------
  var CODES = {
    OK: 0, InternalError: 1, BadValue: 2, NoSuchKey: 4, GraphContainsCycle: 5, HostUnreachable: 6,
    HostNotFound: 7, UnknownError: 8, FailedToParse: 9, CannotMutateObject: 10, UserNotFound: 11,
    UnsupportedFormat: 12, Unauthorized: 13, TypeMismatch: 14, Overflow: 15, InvalidLength: 16,
    ProtocolError: 17, AuthenticationFailed: 18, CannotReuseObject: 19, IllegalOperation: 20,
    EmptyArrayOperation: 21, InvalidBSON: 22, AlreadyInitialized: 23, LockTimeout: 24,
    RemoteValidationError: 25, NamespaceNotFound: 26, IndexNotFound: 27, PathNotViable: 28,
    NonExistentPath: 29, InvalidPath: 30, RoleNotFound: 31, RolesNotRelated: 32, PrivilegeNotFound: 33,
    CannotBackfillArray: 34, UserModificationFailed: 35, RemoteChangeDetected: 36, FileRenameFailed: 37,
    FileNotOpen: 38, FileStreamFailed: 39, ConflictingUpdateOperators: 40, FileAlreadyOpen: 41,
    LogWriteFailed: 42, CursorNotFound: 43, UserDataInconsistent: 45, LockBusy: 46,
    NoMatchingDocument: 47, NamespaceExists: 48, InvalidRoleModification: 49, MaxTimeMSExpired: 50,
    ManualInterventionRequired: 51, DollarPrefixedFieldName: 52, InvalidIdField: 53,
    NotSingleValueField: 54, InvalidDBRef: 55, EmptyFieldName: 56, DottedFieldName: 57,
    RoleModificationFailed: 58, CommandNotFound: 59, ShardKeyNotFound: 61, OplogOperationUnsupported: 62,
    StaleShardVersion: 63, WriteConcernFailed: 64, MultipleErrorsOccurred: 65, ImmutableField: 66,
    CannotCreateIndex: 67, IndexAlreadyExists: 68, AuthSchemaIncompatible: 69, ShardNotFound: 70,
    ReplicaSetNotFound: 71, InvalidOptions: 72, InvalidNamespace: 73, NodeNotFound: 74,
    WriteConcernLegacyOK: 75, NoReplicationEnabled: 76, OperationIncomplete: 77,
    CommandResultSchemaViolation: 78, UnknownReplWriteConcern: 79, RoleDataInconsistent: 80,
    NoMatchParseContext: 81, NoProgressMade: 82, RemoteResultsUnavailable: 83,
    IndexOptionsConflict: 85, IndexKeySpecsConflict: 86, CannotSplit: 87, NetworkTimeout: 89,
    CallbackCanceled: 90, ShutdownInProgress: 91, SecondaryAheadOfPrimary: 92,
    InvalidReplicaSetConfig: 93, NotYetInitialized: 94, NotSecondary: 95, OperationFailed: 96,
    NoProjectionFound: 97, DBPathInUse: 98, UnsatisfiableWriteConcern: 100, OutdatedClient: 101,
    IncompatibleAuditMetadata: 102, NewReplicaSetConfigurationIncompatible: 103, NodeNotElectable: 104,
    IncompatibleShardingMetadata: 105, DistributedClockSkewed: 106, LockFailed: 107,
    InconsistentReplicaSetNames: 108, ConfigurationInProgress: 109, CannotInitializeNodeWithData: 110,
    NotExactValueField: 111, WriteConflict: 112, InitialSyncFailure: 113,
    InitialSyncOplogSourceMissing: 114, CommandNotSupported: 115, DocTooLargeForCapped: 116,
    ConflictingOperationInProgress: 117, NamespaceNotSharded: 118, InvalidSyncSource: 119,
    OplogStartMissing: 120, DocumentValidationFailure: 121, NotAReplicaSet: 123,
    IncompatibleElectionProtocol: 124, CommandFailed: 125, RPCProtocolNegotiationFailed: 126,
    UnrecoverableRollbackError: 127, LockNotFound: 128, LockStateChangeFailed: 129, SymbolNotFound: 130,
    FailedToSatisfyReadPreference: 133, ReadConcernMajorityNotAvailableYet: 134, StaleTerm: 135,
    CappedPositionLost: 136, IncompatibleShardingConfigVersion: 137, RemoteOplogStale: 138,
    JSInterpreterFailure: 139, InvalidSSLConfiguration: 140, SSLHandshakeFailed: 141,
    JSUncatchableError: 142, CursorInUse: 143, IncompatibleCatalogManager: 144,
    PooledConnectionsDropped: 145, ExceededMemoryLimit: 146, ZLibError: 147,
    ReadConcernMajorityNotEnabled: 148, NoConfigMaster: 149, StaleEpoch: 150,
    OperationCannotBeBatched: 151, OplogOutOfOrder: 152, ChunkTooBig: 153,
    InconsistentShardIdentity: 154, CannotApplyOplogWhilePrimary: 155, CanRepairToDowngrade: 157,
    MustUpgrade: 158, DurationOverflow: 159, MaxStalenessOutOfRange: 160,
    IncompatibleCollationVersion: 161, CollectionIsEmpty: 162, ZoneStillInUse: 163,
    InitialSyncActive: 164, ViewDepthLimitExceeded: 165, CommandNotSupportedOnView: 166,
    OptionNotSupportedOnView: 167, InvalidPipelineOperator: 168,
    CommandOnShardedViewNotSupportedOnMongod: 169, TooManyMatchingDocuments: 170,
    CannotIndexParallelArrays: 171, TransportSessionClosed: 172, TransportSessionNotFound: 173,
    TransportSessionUnknown: 174, QueryPlanKilled: 175, FileOpenFailed: 176, ZoneNotFound: 177,
    RangeOverlapConflict: 178, WindowsPdhError: 179, BadPerfCounterPath: 180,
    AmbiguousIndexKeyPattern: 181, InvalidViewDefinition: 182, ClientMetadataMissingField: 183,
    ClientMetadataAppNameTooLarge: 184, ClientMetadataDocumentTooLarge: 185,
    ClientMetadataCannotBeMutated: 186, LinearizableReadConcernError: 187,
    IncompatibleServerVersion: 188, PrimarySteppedDown: 189, MasterSlaveConnectionFailure: 190,
    FailPointEnabled: 192, NoShardingEnabled: 193, BalancerInterrupted: 194,
    ViewPipelineMaxSizeExceeded: 195, InvalidIndexSpecificationOption: 197,
    ReplicaSetMonitorRemoved: 199, ChunkRangeCleanupPending: 200, CannotBuildIndexKeys: 201,
    NetworkInterfaceExceededTimeLimit: 202, ShardingStateNotInitialized: 203, TimeProofMismatch: 204,
    ClusterTimeFailsRateLimiter: 205, NoSuchSession: 206, InvalidUUID: 207, TooManyLocks: 208,
    StaleClusterTime: 209, CannotVerifyAndSignLogicalTime: 210, KeyNotFound: 211,
    IncompatibleRollbackAlgorithm: 212, DuplicateSession: 213, AuthenticationRestrictionUnmet: 214,
    DatabaseDropPending: 215, ElectionInProgress: 216, IncompleteTransactionHistory: 217,
    UpdateOperationFailed: 218, FTDCPathNotSet: 219, FTDCPathAlreadySet: 220, IndexModified: 221,
    CloseChangeStream: 222, IllegalOpMsgFlag: 223, QueryFeatureNotAllowed: 224, TransactionTooOld: 225,
    AtomicityFailure: 226, CannotImplicitlyCreateCollection: 227, SessionTransferIncomplete: 228,
    MustDowngrade: 229, DNSHostNotFound: 230, DNSProtocolError: 231, MaxSubPipelineDepthExceeded: 232,
    TooManyDocumentSequences: 233, RetryChangeStream: 234, InternalErrorNotSupported: 235,
    ForTestingErrorExtraInfo: 236, CursorKilled: 237, NotImplemented: 238, SnapshotTooOld: 239,
    DNSRecordTypeMismatch: 240, ConversionFailure: 241, CannotCreateCollection: 242,
    IncompatibleWithUpgradedServer: 243, BrokenPromise: 245, SnapshotUnavailable: 246,
    ProducerConsumerQueueBatchTooLarge: 247, ProducerConsumerQueueEndClosed: 248, StaleDbVersion: 249,
    StaleChunkHistory: 250, NoSuchTransaction: 251, ReentrancyNotAllowed: 252,
    TransactionCommitted: 256, TransactionTooLarge: 257, UnknownFeatureCompatibilityVersion: 258,
    KeyedExecutorRetry: 259, InvalidResumeToken: 260, TooManyLogicalSessions: 261,
    ExceededTimeLimit: 262, OperationNotSupportedInTransaction: 263, TooManyFilesOpen: 264,
    OrphanedRangeCleanUpFailed: 265, FailPointSetFailed: 266, PreparedTransactionInProgress: 267,
    CannotBackup: 268, DataModifiedByRepair: 269, RepairedReplicaSetNode: 270,
    JSInterpreterFailureWithStack: 271, MigrationConflict: 272, IndexBuildAborted: 276,
    UnsatisfiableCommitQuorum: 278, ClientDisconnect: 279, ChangeStreamFatalError: 280,
    WouldChangeOwningShard: 283, IndexBuildAlreadyInProgress: 285, ChangeStreamHistoryLost: 286,
    ChecksumMismatch: 288, NoQueryExecutionPlans: 291, QueryExceededMemoryLimitNoDiskUseAllowed: 292,
    DataCorruptionDetected: 301, APIVersionError: 322, APIStrictError: 323, APIDeprecationError: 324,
    InvalidTimeseriesOptions: 325, MergeStageNoMatchingDocument: 13113,
    SocketException: 9001, NotWritablePrimary: 10107, DuplicateKey: 11000,
    InterruptedAtShutdown: 11600, Interrupted: 11601, InterruptedDueToReplStateChange: 11602,
    BackgroundOperationInProgressForDatabase: 12586, BackgroundOperationInProgressForNamespace: 12587,
    StaleConfig: 13388, DatabaseDifferCase: 13297, NotPrimaryNoSecondaryOk: 13435,
    NotPrimaryOrSecondary: 13436, OutOfDiskSpace: 14031, KeyTooLong: 17280,
  };
  var names = Object.create(null);
  Object.keys(CODES).forEach(function (name) { names[CODES[name]] = name; });
  // An unknown name is an error naming it, as the legacy shell's ErrorCodes proxy throws.
  var errorCodes = new Proxy(Object.freeze(Object.assign(Object.create(null), CODES)), {
    get: function (target, name) {
      if (typeof name !== 'string' || hasOwn.call(target, name)) return target[name];
      if (name === 'toJSON' || name === 'then' || name === 'inspect') return undefined;
      throw new Error('Unknown Error Code: ' + name);
    },
  });
  define(g, 'ErrorCodes', errorCodes);
  define(g, 'ErrorCodeStrings', Object.freeze(names));

  // ---- jsTest, TestData -------------------------------------------------------------------------
  // The legacy shell's `_isWindows()`: tests use it to expect the Windows server's behaviour
  // (its C library's date handling). Sprout's engine behaves as MongoDB on Linux on every host.
  function isWindows() { return false; }
  function jsTestName() {
    var data = g.TestData;
    return data && data.testName !== undefined ? String(data.testName) : '__unknown_name__';
  }
  function jsTestLog(msg) {
    if (typeof msg === 'object' && msg !== null) msg = tojson(msg);
    g.print('\n\n----\n' + msg + '\n----\n');
  }
  function jsTestOptions() { return Object.assign({}, g.TestData || {}); }
  define(g, 'jsTestName', jsTestName);
  define(g, '_isWindows', isWindows);
  define(g, 'jsTestLog', jsTestLog);
  define(g, 'jsTestOptions', jsTestOptions);
  define(g, 'jsTest', { name: jsTestName, log: jsTestLog, options: jsTestOptions });
  // The legacy shell's type tests (mongo/shell/utils.js isString/isNumber/isObject: typeof) and
  // servers_misc.js's `testingReplication` (false: the shell runs against one server).
  define(g, 'isString', function (x) { return typeof x === 'string'; });
  define(g, 'isNumber', function (x) { return typeof x === 'number'; });
  define(g, 'isObject', function (x) { return typeof x === 'object'; });
  define(g, 'testingReplication', false);

  // ---- Random (the session's seeded generator) ------------------------------------------------
  var Random = {
    setRandomSeed: function (seed) { native.setRandomSeed(seed === undefined ? Date.now() : Number(seed)); },
    srand: function (seed) { native.setRandomSeed(Number(seed)); },
    genRandomSeed: function () { return Math.floor(Math.random() * 0x7fffffff); },
    isInitialized: function () { return true; },
    rand: function () { return Math.random(); },
    randInt: function (n) { return Math.floor(Math.random() * n); },
    genExp: function (mean) { return -Math.log(1 - Math.random()) * mean; },
    genNormal: function (mean, sd) {
      // Box–Muller over two uniform draws.
      var u = 1 - Math.random(), v = Math.random();
      return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    },
  };
  define(g, 'Random', Random);

  // ---- Geo (the legacy shell's distance helpers: plane distance, great-circle radians) ---------
  function geoPair(p) {
    if (Array.isArray(p)) return [Number(p[0]), Number(p[1])];
    var k = Object.keys(p);
    return [Number(p[k[0]]), Number(p[k[1]])];
  }
  define(g, 'Geo', {
    distance: function (a, b) {
      var p = geoPair(a), q = geoPair(b);
      return Math.sqrt(Math.pow(p[0] - q[0], 2) + Math.pow(p[1] - q[1], 2));
    },
    // Haversine on (lng, lat) degrees, in radians.
    sphereDistance: function (a, b) {
      var p = geoPair(a), q = geoPair(b), r = Math.PI / 180;
      var dlat = (q[1] - p[1]) * r, dlng = (q[0] - p[0]) * r;
      var h = Math.pow(Math.sin(dlat / 2), 2) +
        Math.cos(p[1] * r) * Math.cos(q[1] * r) * Math.pow(Math.sin(dlng / 2), 2);
      return 2 * Math.asin(Math.min(1, Math.sqrt(h)));
    },
  });

  // ---- Array, Object, Number helpers ----------------------------------------------------------
  var ARRAY_GENERICS = g.__sproutApi.arrayGenerics;
  define(Array, 'contains', function (arr, obj) {
    for (var i = 0; i < arr.length; i++) { if (arr[i] == obj) return true; }
    return false;
  });
  define(Array, 'unique', function (arr) {
    var out = [];
    arr.forEach(function (x) { if (!Array.contains(out, x)) out.push(x); });
    return out;
  });
  define(Array, 'shuffle', function (arr) {
    for (var i = arr.length - 1; i > 0; i--) {
      var j = Math.floor(Math.random() * (i + 1));
      var t = arr[i]; arr[i] = arr[j]; arr[j] = t;
    }
    return arr;
  });
  define(Array, 'sum', function (arr) {
    if (arr.length === 0) return null;
    var s = arr[0];
    for (var i = 1; i < arr.length; i++) s += arr[i];
    return s;
  });
  define(Array, 'avg', function (arr) {
    if (arr.length === 0) return null;
    return Array.sum(arr) / arr.length;
  });
  define(Array, 'stdDev', function (arr) {
    var avg = Array.avg(arr), sum = 0;
    arr.forEach(function (x) { sum += Math.pow(x - avg, 2); });
    return Math.sqrt(sum / arr.length);
  });
  define(Array, 'tojson', function (arr, indent, nolint) {
    return native.format(arr, nolint ? 'legacy-oneline' : 'tojson');
  });
  // SpiderMonkey's Array generics (`Array.sort(arr)`, `Array.map(arr, f)` …): the legacy
  // shell's engine had them until SpiderMonkey 68, and MongoDB's 2019 jstests call them
  // (jstests/core/or4.js sorts a distinct's values with `Array.sort`).
  ARRAY_GENERICS.forEach(function (name) {
    define(Array, name, function (arr) {
      return Array.prototype[name].apply(arr, Array.prototype.slice.call(arguments, 1));
    });
  });
  define(Array, 'fetchRefs', function (arr, coll) {
    var out = [];
    arr.forEach(function (ref) {
      if (coll && coll !== ref.getCollection()) return;
      out.push(ref.fetch());
    });
    return out;
  });
  define(Number.prototype, 'zeroPad', function (width) {
    var s = String(this);
    while (s.length < width) s = '0' + s;
    return s;
  });
  define(Number.prototype, 'toPercentStr', function () { return (this * 100).toFixed(2) + '%'; });
  // Every enumerable property, own or inherited, as the legacy shell's for-in copy; a missing
  // source copies nothing.
  function extend(dst, src, deep) {
    for (var k in src) {
      var v = src[k];
      if (deep && v !== null && typeof v === 'object' && !(v instanceof Date) && !hasOwn.call(v, '_bsontype')) {
        v = extend(Array.isArray(v) ? [] : {}, v, true);
      }
      dst[k] = v;
    }
    return dst;
  }
  define(Object, 'extend', extend);
  define(Object, 'merge', function (dst, src, deep) {
    var out = {};
    extend(out, dst, deep);
    extend(out, src, deep);
    return out;
  });
  define(Object, 'keySet', function (o) { return Object.keys(o); });

  // ---- the assert family: commands and writes -------------------------------------------------
  var WriteResult = api.WriteResult, BulkWriteResult = api.BulkWriteResult;
  function isWriteResult(res) { return res instanceof WriteResult || res instanceof BulkWriteResult; }
  function writeErrorsOf(res) {
    if (res instanceof WriteResult) return res.writeError ? [res.writeError] : [];
    if (res instanceof BulkWriteResult) return res.writeErrors || [];
    return Array.isArray(res.writeErrors) ? res.writeErrors : [];
  }
  function checkReply(res, helper) {
    // createIndex answers with the index's name when it works.
    if (typeof res === 'string') return;
    if (res === null || typeof res !== 'object') {
      g.doassert(helper + ' expects a command reply or a write result, got ' + tojson(res));
    }
  }
  function codesOf(expected) { return Array.isArray(expected) ? expected : [expected]; }
  function failedCodes(res) {
    var codes = [];
    // A thrown error (assert.throws' answer) carries its code.
    if (res instanceof Error) return res.code === undefined ? [] : [res.code];
    if (isWriteResult(res) || Array.isArray(res.writeErrors)) {
      writeErrorsOf(res).forEach(function (e) { codes.push(e.code); });
    }
    if (res.writeConcernError) codes.push(res.writeConcernError.code);
    if (!isWriteResult(res) && res.ok === 0 && res.code !== undefined) codes.push(res.code);
    return codes;
  }
  function worked(res) {
    if (typeof res === 'string') return true;
    if (res instanceof Error) return false;
    if (isWriteResult(res)) return writeErrorsOf(res).length === 0;
    // The legacy `_rawReplyOkAndNoWriteErrors`: only `ok: 0` fails a reply, so an answer
    // without `ok` (the CRUD helpers' `{acknowledged: true, …}`) worked.
    return res.ok !== 0 && writeErrorsOf(res).length === 0 && !res.writeConcernError;
  }
  var assert = g.assert;
  define(assert, 'commandWorked', function (res, msg) {
    checkReply(res, 'commandWorked');
    if (!worked(res)) fail('command failed: ' + tojson(res), msg);
    return res;
  });
  define(assert, 'commandWorkedIgnoringWriteErrors', function (res, msg) {
    checkReply(res, 'commandWorkedIgnoringWriteErrors');
    if (!isWriteResult(res) && res.ok === 0) fail('command failed: ' + tojson(res), msg);
    return res;
  });
  // The legacy shell's variant for replica-set suites (assert.js): a write concern error is
  // not a failure; one server never answers one.
  define(assert, 'commandWorkedIgnoringWriteConcernErrors', function (res, msg) {
    checkReply(res, 'commandWorkedIgnoringWriteConcernErrors');
    if (res instanceof Error || (!isWriteResult(res) && res.ok === 0) || writeErrorsOf(res).length) {
      fail('command failed: ' + tojson(res), msg);
    }
    return res;
  });
  // The legacy shell's getLastError assertions (assert.gleSuccess, gleOK, gleError,
  // gleErrorCode, gleErrorRegex) ask the server for `getLastError`, which MongoDB removed in 5.1
  // (its 5.1 release notes: "Removed getLastError and getPrevError"); they fail naming
  // themselves instead of with "not a callable function".
  ['gleSuccess', 'gleOK', 'gleError', 'gleErrorCode', 'gleErrorRegex'].forEach(function (name) {
    define(assert, name, function () {
      fail('assert.' + name + ' needs the getLastError command, which MongoDB removed in 5.1: check the write\'s result instead');
    });
  });
  define(assert, 'commandFailed', function (res, msg) {
    checkReply(res, 'commandFailed');
    if (worked(res)) fail('command worked when it should have failed: ' + tojson(res), msg);
    return res;
  });
  define(assert, 'commandFailedWithCode', function (res, expected, msg) {
    checkReply(res, 'commandFailedWithCode');
    var codes = codesOf(expected);
    if (worked(res)) fail('command worked when it should have failed: ' + tojson(res), msg);
    var got = failedCodes(res);
    if (!got.some(function (c) { return codes.indexOf(c) >= 0; })) {
      fail('command did not fail with any of ' + tojson(codes) + ': ' + tojson(res), msg);
    }
    return res;
  });
  define(assert, 'commandWorkedOrFailedWithCode', function (res, expected, msg) {
    checkReply(res, 'commandWorkedOrFailedWithCode');
    if (worked(res)) return res;
    return assert.commandFailedWithCode(res, expected, msg);
  });
  define(assert, 'writeOK', function (res, msg) {
    checkReply(res, 'writeOK');
    if (writeErrorsOf(res).length || res.writeConcernError || (!isWriteResult(res) && res.ok === 0)) {
      fail('write failed with error: ' + tojson(res), msg);
    }
    return res;
  });
  define(assert, 'writeError', function (res, msg) {
    checkReply(res, 'writeError');
    if (!writeErrorsOf(res).length && !res.writeConcernError && !(res.ok === 0)) {
      fail('no write error: ' + tojson(res), msg);
    }
    return res;
  });
  define(assert, 'writeErrorWithCode', function (res, expected, msg) {
    assert.writeError(res, msg);
    var codes = codesOf(expected);
    var got = failedCodes(res);
    if (!got.some(function (c) { return codes.indexOf(c) >= 0; })) {
      fail('found code(s) ' + tojson(got) + ' does not match any of the expected codes ' + tojson(codes) + ': ' + tojson(res), msg);
    }
    return res;
  });
  define(assert, 'throwsWithCode', function (func, expected, params, msg) {
    var e = assert.throws(func, params, msg);
    var codes = codesOf(expected);
    if (codes.indexOf(e.code) < 0) {
      fail('expected error code ' + tojson(codes) + ', got ' + tojson(e.code) + ': ' + e, msg);
    }
    return e;
  });

  // ---- the assert family: values ---------------------------------------------------------------
  define(assert, 'close', function (a, b, msg, places) {
    if (places === undefined) places = 4;
    var tolerance = Math.pow(10, -places) * Math.max(Math.abs(a), Math.abs(b), 1);
    if (Math.abs(a - b) <= tolerance) return;
    fail(a + ' is not equal to ' + b + ' within ' + places + ' places, diff: ' + (a - b), msg);
  });
  // The legacy shell's assert.closeWithinMS (assert.js): two times at most deltaMS apart.
  define(assert, 'closeWithinMS', function (a, b, msg, deltaMS) {
    if (deltaMS === undefined) deltaMS = 10;
    var diff = Math.abs(Number(a) - Number(b));
    if (diff <= deltaMS) return;
    fail(a + ' is not equal to ' + b + ' within ' + deltaMS + ' millis, actual delta: ' + diff + ' millis', msg);
  });
  define(assert, 'between', function (a, b, c, msg, inclusive) {
    var ok = inclusive === false ? (a < b && b < c) : (a <= b && b <= c);
    if (!ok) fail(b + ' is not between ' + a + ' and ' + c, msg);
  });
  define(assert, 'betweenIn', function (a, b, c, msg) { assert.between(a, b, c, msg, true); });
  define(assert, 'betweenEx', function (a, b, c, msg) { assert.between(a, b, c, msg, false); });
  define(assert, 'hasFields', function (result, fields, msg) {
    var missing = fields.filter(function (f) { return !(f in result); });
    if (missing.length) fail('Not all of the values from ' + tojson(fields) + ' were in ' + tojson(result), msg);
  });
  define(assert, 'sameMembers', function (a, b, msg, compare) {
    compare = compare || function (x, y) { return g.friendlyEqual(x, y) || bsonEqual(x, y); };
    var ok = a.length === b.length;
    var used = [];
    for (var i = 0; ok && i < a.length; i++) {
      var j = b.findIndex(function (y, k) { return used.indexOf(k) < 0 && compare(a[i], y); });
      if (j < 0) ok = false; else used.push(j);
    }
    if (!ok) fail(tojson(a) + ' != ' + tojson(b) + ' (as sets of members)', msg);
  });
  define(assert, 'setEq', function (a, b, msg) {
    var as = a instanceof Set ? Array.from(a) : a, bs = b instanceof Set ? Array.from(b) : b;
    assert.sameMembers(as, bs, msg);
  });
  define(assert, 'soon', function (f, msg, timeout, interval) {
    var limit = timeout === undefined ? 10 * 60 * 1000 : timeout;
    var start = Date.now();
    for (;;) {
      if (typeof f === 'string' ? (0, eval)(f) : f()) return;
      if (Date.now() - start > limit) fail('assert.soon failed: ' + f, msg);
      g.sleep(interval === undefined ? 200 : interval);
    }
  });
  define(assert, 'soonNoExcept', function (f, msg, timeout, interval) {
    assert.soon(function () { try { return f(); } catch (e) { return false; } }, msg, timeout, interval);
  });
  define(assert, 'retry', function (f, msg, attempts, interval) {
    for (var i = 0; i < attempts; i++) {
      if (f()) return;
      g.sleep(interval);
    }
    fail('assert.retry failed: ' + f, msg);
  });
  // assert.automsg("x > 1"), assert.eq.automsg("a", "b"), …: the text is evaluated by a direct
  // eval in a function of the global scope whose parameters are `a` and `b`, as the legacy shell's
  // assert.js does, so the text sees those two names (numberint.js's "eval( tojson( a ) )" reads
  // the string "a", not the global a); it is also the message.
  define(assert, 'automsg', new Function('b', 'return assert(eval(b), b);'));
  ['eq', 'neq', 'lt', 'lte', 'gt', 'gte'].forEach(function (name) {
    define(assert[name], 'automsg', new Function('a', 'b',
      'return assert.' + name + "(eval(a), eval(b), '[' + a + '] != [' + b + ']');"));
  });
  define(assert.throws, 'automsg', function (func, params) {
    assert.throws(func, params, String(func));
  });
  define(assert.doesNotThrow, 'automsg', function (func, params) {
    assert.doesNotThrow(func, params, String(func));
  });
  function bsonEqual(a, b) { return bsonWoCompare({ v: a }, { v: b }) === 0; }
  // bsonWoCompare(a, b): -1, 0 or 1 in MongoDB's order of documents (field names and values), as
  // the server's $cmp compares them.
  function bsonWoCompare(a, b) {
    var reply = api.command('admin', {
      aggregate: 1, cursor: {},
      pipeline: [{ $documents: [{ r: { $cmp: [{ $literal: a }, { $literal: b }] } }] }],
    });
    return reply.cursor.firstBatch[0].r;
  }
  define(g, 'bsonWoCompare', bsonWoCompare);
  // bsonBinaryEqual(a, b): the same BSON bytes (runtime.rs): types, values and field order.
  define(g, 'bsonBinaryEqual', function (a, b) { return native.bsonBinaryEqual(a, b); });

  // ---- DBCommandCursor: a cursor over a command's reply ------------------------------------------
  function DBCommandCursor(db, reply, batchSize) {
    if (!reply || reply.ok === 0 || !reply.cursor) {
      throw new Error('DBCommandCursor: the command failed: ' + tojson(reply));
    }
    var ns = String(reply.cursor.ns || '');
    var dot = ns.indexOf('.');
    var coll = db.getCollection(dot >= 0 ? ns.slice(dot + 1) : ns);
    var cursor = new api.Cursor(coll, {});
    cursor._buffer = (reply.cursor.firstBatch || []).slice();
    cursor._id = reply.cursor.id;
    if (batchSize !== undefined) cursor._spec.batchSize = batchSize;
    return cursor;
  }
  define(g, 'DBCommandCursor', DBCommandCursor);
})(globalThis, __sproutNative);

// Bulk writes: the legacy builders (initializeOrderedBulkOp / initializeUnorderedBulkOp, whose
// execute() returns the legacy BulkWriteResult the books show) and mongosh's bulkWrite([...]).
// Both run consecutive operations of one kind as one insert/update/delete command.
(function (g) {
  'use strict';
  var api = g.__sproutApi;
  var C = g.DBCollection.prototype;

  // ops: [{ kind: 'insert'|'update'|'delete', index, doc | stmt }]
  var MAX_WRITE_BATCH_SIZE = 100000;
  function runOps(coll, ops, ordered) {
    var sum = {
      nInserted: 0, nUpserted: 0, nMatched: 0, nModified: 0, nRemoved: 0,
      upserted: [], writeErrors: [], insertedIds: {}, kinds: [],
    };
    ops.forEach(function (op) { if (sum.kinds.indexOf(op.kind) < 0) sum.kinds.push(op.kind); });
    // A batch holds at most maxWriteBatchSize (100,000) operations, as the legacy shell's
    // bulk_api.js splits them: a larger write command is refused (InvalidLength).
    var batches = [];
    var open = {};
    ops.forEach(function (op) {
      var last = batches[batches.length - 1];
      var same = ordered ? (last && last.kind === op.kind ? last : null) : open[op.kind];
      if (same && same.ops.length >= MAX_WRITE_BATCH_SIZE) same = null;
      if (same) same.ops.push(op);
      else {
        batches.push({ kind: op.kind, ops: [op] });
        open[op.kind] = batches[batches.length - 1];
      }
    });
    for (var b = 0; b < batches.length; b++) {
      var batch = batches[b];
      var cmd;
      if (batch.kind === 'insert') {
        cmd = { insert: coll._name, documents: batch.ops.map(function (o) { return o.doc; }) };
      } else if (batch.kind === 'update') {
        cmd = { update: coll._name, updates: batch.ops.map(function (o) { return o.stmt; }) };
      } else {
        cmd = { delete: coll._name, deletes: batch.ops.map(function (o) { return o.stmt; }) };
      }
      cmd.ordered = ordered;
      var reply = api.command(coll._db._name, cmd);
      var errs = reply.writeErrors || [];
      var failed = {};
      errs.forEach(function (w) {
        var op = batch.ops[w.index];
        failed[w.index] = true;
        var we = {
          index: op.index, code: w.code, errmsg: w.errmsg,
          op: batch.kind === 'insert' ? op.doc : op.stmt,
        };
        // The legacy WriteError's accessors (mongo/shell/bulk_api.js), hidden from printing.
        Object.defineProperty(we, 'getOperation', { value: function () { return this.op; } });
        Object.defineProperty(we, 'getErrmsg', { value: function () { return this.errmsg; } });
        Object.defineProperty(we, 'getIndex', { value: function () { return this.index; } });
        sum.writeErrors.push(we);
      });
      if (batch.kind === 'insert') {
        sum.nInserted += reply.n;
        var stop = ordered && errs.length ? errs[0].index : batch.ops.length;
        batch.ops.forEach(function (o, i) { if (i < stop && !failed[i]) sum.insertedIds[o.index] = o.doc._id; });
      } else if (batch.kind === 'update') {
        var ups = reply.upserted || [];
        ups.forEach(function (u) { sum.upserted.push({ index: batch.ops[u.index].index, _id: u._id }); });
        sum.nUpserted += ups.length;
        sum.nMatched += reply.n - ups.length;
        sum.nModified += reply.nModified || 0;
      } else {
        sum.nRemoved += reply.n;
      }
      if (ordered && errs.length) break;
    }
    return sum;
  }

  function legacyResult(sum) {
    var r = new api.BulkWriteResult({
      writeErrors: sum.writeErrors, writeConcernErrors: [], nInserted: sum.nInserted,
      nUpserted: sum.nUpserted, nMatched: sum.nMatched, nModified: sum.nModified,
      nRemoved: sum.nRemoved, upserted: sum.upserted,
    });
    // mongosh's names for the same counts, so code written for either shell reads them.
    var aliases = {
      insertedCount: sum.nInserted, matchedCount: sum.nMatched, modifiedCount: sum.nModified,
      deletedCount: sum.nRemoved, upsertedCount: sum.nUpserted, insertedIds: sum.insertedIds,
      upsertedIds: upsertedIds(sum), acknowledged: true,
    };
    Object.keys(aliases).forEach(function (k) { Object.defineProperty(r, k, { value: aliases[k], enumerable: false }); });
    // The legacy BulkWriteResult's toSingleResult (mongo/shell/bulk_api.js): the WriteResult of a
    // bulk whose operations were all of one kind.
    Object.defineProperty(r, 'toSingleResult', {
      enumerable: false,
      value: function () {
        if (sum.kinds.length !== 1) throw new Error('Cannot output single WriteResult from multiple batch result');
        var fields;
        if (sum.kinds[0] === 'insert') fields = { nInserted: sum.nInserted };
        else if (sum.kinds[0] === 'delete') fields = { nRemoved: sum.nRemoved };
        else {
          fields = { nMatched: sum.nMatched, nUpserted: sum.nUpserted, nModified: sum.nModified };
          if (sum.upserted.length) fields._id = sum.upserted[0]._id;
        }
        var first = sum.writeErrors[0];
        return new api.WriteResult(fields, first ? { code: first.code, errmsg: first.errmsg } : undefined);
      },
    });
    return r;
  }
  function upsertedIds(sum) {
    var ids = {};
    sum.upserted.forEach(function (u) { ids[u.index] = u._id; });
    return ids;
  }
  function mongoshResult(sum) {
    return {
      acknowledged: true, insertedCount: sum.nInserted, insertedIds: sum.insertedIds,
      matchedCount: sum.nMatched, modifiedCount: sum.nModified, deletedCount: sum.nRemoved,
      upsertedCount: sum.nUpserted, upsertedIds: upsertedIds(sum),
    };
  }
  function bulkError(sum, result) {
    var e = api.MongoBulkWriteError(sum.writeErrors, result);
    e.writeErrors = sum.writeErrors;
    if (result instanceof api.BulkWriteResult) {
      // The legacy shell's BulkWriteError (mongo/shell/bulk_api.js) is the bulk's result with
      // the error: its counters and accessors, hidden from printing.
      ['nInserted', 'nUpserted', 'nMatched', 'nModified', 'nRemoved'].forEach(function (k) {
        Object.defineProperty(e, k, { value: result[k], enumerable: false });
      });
      ['hasWriteErrors', 'getWriteErrors', 'getWriteErrorCount', 'getWriteErrorAt', 'getUpsertedIds',
        'getUpsertedIdAt', 'hasWriteConcernError', 'getWriteConcernError', 'getRawResponse',
        'toSingleResult'].forEach(function (k) {
        Object.defineProperty(e, k, { value: function () { return result[k].apply(result, arguments); }, enumerable: false });
      });
      Object.defineProperty(e, 'toResult', { value: function () { return result; }, enumerable: false });
    }
    return e;
  }
  function invalid(msg) { return api.MongoshInvalidInputError(msg); }
  function requireObject(v, what) {
    if (v === null || typeof v !== 'object') throw invalid('Missing required argument: ' + what);
  }

  // ---- the legacy builder -----------------------------------------------------------------
  function Bulk(coll, ordered) {
    Object.defineProperty(this, '_coll', { value: coll, enumerable: false });
    Object.defineProperty(this, '_ordered', { value: ordered, enumerable: false });
    Object.defineProperty(this, '_ops', { value: [], enumerable: false });
    Object.defineProperty(this, '_executed', { value: false, enumerable: false, writable: true });
  }
  Bulk.prototype._add = function (op) {
    if (this._executed) throw invalid('Batch cannot be re-executed');
    op.index = this._ops.length;
    this._ops.push(op);
    return this;
  };
  Bulk.prototype.insert = function (doc) {
    requireObject(doc, 'document');
    api.checkDoc(doc, 'document');
    return this._add({ kind: 'insert', doc: api.withId(doc) });
  };
  Bulk.prototype.find = function (q) {
    requireObject(q, 'query');
    return new BulkFindOp(this, q);
  };
  Bulk.prototype.execute = function () {
    if (this._executed) throw invalid('Batch cannot be re-executed');
    if (this._ops.length === 0) throw invalid('Invalid BulkOperation, Batch cannot be empty');
    this._executed = true;
    var sum = runOps(this._coll, this._ops, this._ordered);
    // The legacy shell lists an unordered bulk's write errors by operation index, whatever
    // batch each ran in (bulk_api_unordered.js reads getWriteErrorAt(0) as the first failed op).
    if (!this._ordered && api.isLegacy()) sum.writeErrors.sort(function (a, b) { return a.index - b.index; });
    var result = legacyResult(sum);
    if (sum.writeErrors.length) throw bulkError(sum, result);
    return result;
  };
  Bulk.prototype.toJSON = function () {
    var count = function (ops, kind) { return ops.filter(function (o) { return o.kind === kind; }).length; };
    return {
      nInsertOps: count(this._ops, 'insert'), nUpdateOps: count(this._ops, 'update'),
      nRemoveOps: count(this._ops, 'delete'), nBatches: batchCount(this._ops, this._ordered),
    };
  };
  Bulk.prototype.toString = function () { return JSON.stringify(this.toJSON()); };
  Bulk.prototype._asPrintable = Bulk.prototype.toJSON;
  function batchCount(ops, ordered) {
    if (!ordered) return ['insert', 'update', 'delete'].filter(function (k) { return ops.some(function (o) { return o.kind === k; }); }).length;
    var n = 0;
    ops.forEach(function (o, i) { if (i === 0 || ops[i - 1].kind !== o.kind) n++; });
    return n;
  }

  function BulkFindOp(bulk, q) {
    Object.defineProperty(this, '_bulk', { value: bulk, enumerable: false });
    Object.defineProperty(this, '_q', { value: q, enumerable: false });
    Object.defineProperty(this, '_opts', { value: { upsert: false }, enumerable: false });
  }
  var F = BulkFindOp.prototype;
  F.upsert = function () { this._opts.upsert = true; return this; };
  F.collation = function (c) { this._opts.collation = c; return this; };
  F.arrayFilters = function (a) { this._opts.arrayFilters = a; return this; };
  F.hint = function (h) { this._opts.hint = h; return this; };
  F._update = function (u, multi) {
    requireObject(u, 'update');
    var stmt = { q: this._q, u: u, upsert: this._opts.upsert, multi: multi };
    ['collation', 'arrayFilters', 'hint'].forEach(function (k) { if (this._opts[k] !== undefined) stmt[k] = this._opts[k]; }, this);
    return this._bulk._add({ kind: 'update', stmt: stmt });
  };
  F.updateOne = function (u) { api.requireOperators(u); return this._update(u, false); };
  F.update = function (u) { api.requireOperators(u); return this._update(u, true); };
  F.replaceOne = function (r) {
    requireObject(r, 'replacement');
    var keys = Object.keys(r);
    if (keys.length && keys[0][0] === '$') throw invalid('Replacement document must not contain atomic operators');
    return this._update(r, false);
  };
  F._delete = function (limit) {
    var stmt = { q: this._q, limit: limit };
    if (this._opts.collation !== undefined) stmt.collation = this._opts.collation;
    return this._bulk._add({ kind: 'delete', stmt: stmt });
  };
  F.deleteOne = function () { return this._delete(1); };
  F.delete = function () { return this._delete(0); };
  F.removeOne = F.deleteOne;
  F.remove = F.delete;
  F.toString = function () { return 'BulkFindOp'; };
  F._asPrintable = F.toString;

  C.initializeOrderedBulkOp = function () { return new Bulk(this, true); };
  C.initializeUnorderedBulkOp = function () { return new Bulk(this, false); };

  // ---- mongosh's bulkWrite ------------------------------------------------------------------
  function updateStmt(spec, multi, replace) {
    requireObject(spec, 'filter');
    var u = replace ? spec.replacement : spec.update;
    requireObject(u, replace ? 'replacement' : 'update');
    if (replace) {
      var keys = Object.keys(u);
      if (keys.length && keys[0][0] === '$') throw invalid('Replacement document must not contain atomic operators');
    } else {
      api.requireOperators(u);
    }
    var stmt = { q: spec.filter === undefined ? {} : spec.filter, u: u, upsert: !!spec.upsert, multi: multi };
    ['collation', 'arrayFilters', 'hint', 'sort'].forEach(function (k) { if (spec[k] !== undefined) stmt[k] = spec[k]; });
    return stmt;
  }
  C.bulkWrite = function (requests, options) {
    if (!Array.isArray(requests)) throw invalid('Missing required argument: operations');
    if (requests.length === 0) throw invalid('Invalid BulkOperation, Batch cannot be empty');
    var ordered = !(options && options.ordered === false);
    var ops = requests.map(function (r, index) {
      requireObject(r, 'operation');
      var kind = Object.keys(r)[0];
      var spec = r[kind];
      requireObject(spec, kind);
      switch (kind) {
        case 'insertOne':
          api.checkDoc(spec.document, 'document');
          return { kind: 'insert', index: index, doc: api.withId(spec.document) };
        case 'updateOne': return { kind: 'update', index: index, stmt: updateStmt(spec, false, false) };
        case 'updateMany': return { kind: 'update', index: index, stmt: updateStmt(spec, true, false) };
        case 'replaceOne': return { kind: 'update', index: index, stmt: updateStmt(spec, false, true) };
        case 'deleteOne': return { kind: 'delete', index: index, stmt: { q: spec.filter || {}, limit: 1 } };
        case 'deleteMany': return { kind: 'delete', index: index, stmt: { q: spec.filter || {}, limit: 0 } };
        default: throw invalid('Invalid bulkWrite operation: ' + kind);
      }
    });
    var sum = runOps(this, ops, ordered);
    var result = api.isLegacy() ? legacyBulkWriteResult(sum) : mongoshResult(sum);
    if (sum.writeErrors.length) throw bulkError(sum, result);
    return result;
  };
  // The legacy shell's crud_api.js bulkWrite result: its counts in its order, no modifiedCount.
  function legacyBulkWriteResult(sum) {
    return {
      acknowledged: true, insertedCount: sum.nInserted, matchedCount: sum.nMatched,
      deletedCount: sum.nRemoved, upsertedCount: sum.nUpserted, insertedIds: sum.insertedIds,
      upsertedIds: upsertedIds(sum),
    };
  }

  Object.defineProperty(g, 'Bulk', { value: Bulk, writable: true, configurable: true, enumerable: false });
  // The legacy shell's BulkWriteError class: what a legacy bulk's execute throws is one.
  function BulkWriteError() { throw new Error('BulkWriteError is thrown by a bulk operation\'s execute()'); }
  BulkWriteError.prototype = api.MongoBulkWriteError.prototype;
  Object.defineProperty(g, 'BulkWriteError', { value: BulkWriteError, writable: true, configurable: true, enumerable: false });
  Object.defineProperty(g, 'BulkFindOp', { value: BulkFindOp, writable: true, configurable: true, enumerable: false });
})(globalThis);

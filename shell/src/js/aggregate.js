// Aggregation in the shell: db.c.aggregate(pipeline, options), the legacy form with stages as
// separate arguments (db.c.aggregate({$match: …}, {$group: …}), as book B chapter 8 writes it),
// and db.aggregate([...]) for collectionless pipelines ($documents). Each returns a cursor that
// prints like mongosh's AggregationCursor; the command runs at the call, so errors and $out
// writes happen there, as in mongosh.
(function (g) {
  'use strict';
  var api = g.__sproutApi;
  var Cursor = api.Cursor;

  // Options the aggregate command takes from the shell's options document.
  var PASSED_OPTIONS = ['allowDiskUse', 'collation', 'hint', 'comment', 'let', 'maxTimeMS',
    'bypassDocumentValidation', 'readConcern', 'writeConcern', 'explain'];

  // The pipeline and options from the arguments: (pipeline, options) or (stage, stage, …).
  function pipelineArgs(args) {
    if (args.length === 0 || Array.isArray(args[0])) {
      return { pipeline: args.length === 0 ? [] : args[0], options: args[1] || {} };
    }
    return { pipeline: Array.prototype.slice.call(args), options: {} };
  }

  function aggregateCommand(target, pipeline, options) {
    var cmd = { aggregate: target, pipeline: pipeline };
    PASSED_OPTIONS.forEach(function (k) { if (options[k] !== undefined) cmd[k] = options[k]; });
    // The legacy shell's form `{cursor: {batchSize: n}}` and mongosh's `{batchSize: n}`.
    if (!options.explain) {
      cmd.cursor = options.cursor !== undefined ? options.cursor
        : options.batchSize !== undefined ? { batchSize: options.batchSize } : {};
    }
    return cmd;
  }

  // A cursor over an aggregate's results; getMore and printing come from the find cursor.
  // Its getMores ask for the aggregate's batch size (jstests/core/aggregation_getmore_batchsize.js).
  function AggregationCursor(coll, cmd) {
    Cursor.call(this, coll);
    this._cmd = cmd;
    if (cmd.cursor && cmd.cursor.batchSize !== undefined) this._spec.batchSize = cmd.cursor.batchSize;
  }
  AggregationCursor.prototype = Object.create(Cursor.prototype);
  AggregationCursor.prototype.constructor = AggregationCursor;
  AggregationCursor.prototype._exec = function () {
    if (this._buffer !== null) return;
    var reply = api.command(this._coll._db._name, this._cmd);
    this._buffer = reply.cursor.firstBatch;
    this._id = reply.cursor.id;
  };
  // Find-only cursor methods do not apply to an aggregation.
  ['sort', 'skip', 'limit', 'projection', 'hint', 'min', 'max', 'count', 'size'].forEach(function (m) {
    AggregationCursor.prototype[m] = function () {
      throw api.MongoshInvalidInputError('AggregationCursor has no method ' + m + '()');
    };
  });
  AggregationCursor.prototype.toString = function () { return 'AggregationCursor'; };

  function run(coll, target, args) {
    var a = pipelineArgs(args);
    if (!Array.isArray(a.pipeline)) throw api.MongoshInvalidInputError('pipeline must be an array');
    var cmd = aggregateCommand(target, a.pipeline, a.options);
    if (a.options.explain) return api.command(coll._db._name, cmd);
    var cursor = new AggregationCursor(coll, cmd);
    cursor._exec();
    return cursor;
  }

  g.DBCollection.prototype.aggregate = function () {
    return run(this, this._name, arguments);
  };
  // db.c.aggregatePreview(pipeline, {sample: n}) (Sprout's, for lessons): what each stage
  // returns, as [{stage, nReturned, sample}], from the sproutPreviewPipeline command.
  g.DBCollection.prototype.aggregatePreview = function (pipeline, options) {
    if (!Array.isArray(pipeline)) throw api.MongoshInvalidInputError('pipeline must be an array');
    var cmd = { sproutPreviewPipeline: this._name, pipeline: pipeline };
    var opts = options || {};
    if (opts.sample !== undefined) cmd.sample = opts.sample;
    if (opts.let !== undefined) cmd.let = opts.let;
    return api.command(this._db._name, cmd).stages;
  };
  // db.aggregate: the cursor's getMore names the collectionless namespace.
  g.DB.prototype.aggregate = function () {
    var db = this;
    return run({ _db: db, _name: '$cmd.aggregate' }, 1, arguments);
  };
  Object.defineProperty(g, 'AggregationCursor', { value: AggregationCursor, enumerable: false, writable: true, configurable: true });
})(globalThis);

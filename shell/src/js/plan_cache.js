// The plan cache in the shell, as mongosh has it: db.c.getPlanCache() returns a PlanCache whose
// list(pipeline) runs [{$planCacheStats: {}}, ...pipeline], clear() sends planCacheClear, and
// clearPlansByQuery(query, projection, sort) clears one query shape.
(function (g) {
  'use strict';
  var api = g.__sproutApi;

  function PlanCache(coll) { this._coll = coll; }
  var P = PlanCache.prototype;
  P.list = function (pipeline) {
    if (pipeline !== undefined && !Array.isArray(pipeline)) {
      throw api.MongoshInvalidInputError('The "pipeline" argument must be an array');
    }
    var stages = [{ $planCacheStats: {} }].concat(pipeline || []);
    return this._coll.aggregate(stages).toArray();
  };
  P.clear = function () {
    return this._coll._command({ planCacheClear: this._coll._name });
  };
  P.clearPlansByQuery = function (query, projection, sort) {
    var cmd = { planCacheClear: this._coll._name, query: query === undefined ? {} : query };
    if (projection !== undefined) cmd.projection = projection;
    if (sort !== undefined) cmd.sort = sort;
    return this._coll._command(cmd);
  };
  // The legacy PlanCache's listQueryShapes and getPlansByQuery sent planCacheListQueryShapes and
  // planCacheListPlans, which MongoDB 4.4 removed for the $planCacheStats stage (list above):
  // they fail naming themselves instead of with a nameless "not a callable function".
  ['listQueryShapes', 'getPlansByQuery'].forEach(function (name) {
    P[name] = function () {
      throw new Error('PlanCache.' + name + '() sent a command MongoDB 4.4 removed; use getPlanCache().list() ($planCacheStats)');
    };
  });
  P.help = function () {
    return 'PlanCache help\n' +
      '    .list(pipeline)          the cached plans ($planCacheStats), optionally through a pipeline\n' +
      '    .clear()                 removes every cached plan of the collection\n' +
      '    .clearPlansByQuery(query, projection, sort)  removes the plans of one query shape';
  };
  P.toString = function () { return 'PlanCache for collection ' + this._coll._name + '.'; };
  P._asPrintable = P.toString;

  g.DBCollection.prototype.getPlanCache = function () { return new PlanCache(this); };
})(globalThis);

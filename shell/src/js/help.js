// Help at every level, in the shape mongosh prints it (a class title, then one line per method
// with a short description): `help`, `db.help()`, `db.<collection>.help()`, `<cursor>.help()`.
// Our own wording, in English and simplified Chinese (the web page sets the language with
// Shell::set_language). Only methods this shell really has are listed.
(function (g) {
  'use strict';
  var api = g.__sproutApi;
  var language = 'en';

  // [name, English, Chinese]
  var SHELL = [
    ['use', 'Switch the current database: use <name>', '切换当前数据库：use <名称>'],
    ['show', "'show dbs' lists the databases, 'show collections' the current database's collections", "'show dbs' 列出数据库，'show collections' 列出当前数据库的集合"],
    ['it', 'Show the next batch of the last cursor', '显示上一个游标的下一批结果'],
    ['exit', 'Leave the shell (quit does the same)', '退出 shell（quit 也可以）'],
    ['print', 'Print values: print(value, …)', '打印值：print(值, …)'],
    ['printjson', 'Print a value as a document', '以文档形式打印一个值'],
    ['load', 'Run a JavaScript file in the shell', '在 shell 中运行一个 JavaScript 文件'],
    ['EJSON', 'Extended JSON: EJSON.stringify, EJSON.parse, EJSON.serialize, EJSON.deserialize', '扩展 JSON：EJSON.stringify、EJSON.parse、EJSON.serialize、EJSON.deserialize'],
    ['db.help()', 'Help on database methods', '数据库方法的帮助'],
    ['db.<collection>.help()', 'Help on collection methods', '集合方法的帮助'],
    ['db.<collection>.find().help()', 'Help on cursor methods', '游标方法的帮助'],
  ];
  var DATABASE = [
    ['getName', 'The name of this database', '此数据库的名称'],
    ['getCollection', 'A collection by name, also for names that are not valid identifiers', '按名称取得集合（名称不是合法标识符时也可用）'],
    ['getCollectionNames', 'The names of the collections in this database', '此数据库中集合的名称'],
    ['getCollectionInfos', 'Name, type and options of each collection', '每个集合的名称、类型和选项'],
    ['createCollection', 'Create a collection (with options such as capped or validator)', '创建集合（可带 capped、validator 等选项）'],
    ['getSiblingDB', 'Another database on the same server', '同一服务器上的另一个数据库'],
    ['runCommand', 'Run a database command', '运行数据库命令'],
    ['adminCommand', 'Run a command against the admin database', '对 admin 数据库运行命令'],
    ['stats', 'Statistics about this database (dbStats)', '此数据库的统计信息（dbStats）'],
    ['dropDatabase', 'Delete this database and all its collections', '删除此数据库及其所有集合'],
    ['version', 'The server version', '服务器版本'],
  ];
  var COLLECTION = [
    ['insertOne', 'Insert one document', '插入一个文档'],
    ['insertMany', 'Insert several documents', '插入多个文档'],
    ['find', 'Find documents matching a filter; returns a cursor', '查找匹配过滤条件的文档，返回游标'],
    ['findOne', 'The first document matching a filter', '匹配过滤条件的第一个文档'],
    ['countDocuments', 'Count the documents matching a filter', '统计匹配过滤条件的文档数'],
    ['estimatedDocumentCount', 'The number of documents, from the collection metadata', '文档数（来自集合元数据）'],
    ['distinct', 'The distinct values of a field', '某字段的不同取值'],
    ['aggregate', 'Run an aggregation pipeline; returns a cursor', '运行聚合管道，返回游标'],
    ['updateOne', 'Update the first document matching a filter', '更新匹配过滤条件的第一个文档'],
    ['updateMany', 'Update every document matching a filter', '更新所有匹配过滤条件的文档'],
    ['replaceOne', 'Replace the first document matching a filter', '替换匹配过滤条件的第一个文档'],
    ['deleteOne', 'Delete the first document matching a filter', '删除匹配过滤条件的第一个文档'],
    ['deleteMany', 'Delete every document matching a filter', '删除所有匹配过滤条件的文档'],
    ['findOneAndUpdate', 'Update one document and return it (before or after)', '更新一个文档并返回它（更新前或更新后）'],
    ['findOneAndReplace', 'Replace one document and return it', '替换一个文档并返回它'],
    ['findOneAndDelete', 'Delete one document and return it', '删除一个文档并返回它'],
    ['bulkWrite', 'Several writes in one call', '一次调用执行多个写操作'],
    ['createIndex', 'Create an index on the given keys', '按给定的键创建索引'],
    ['createIndexes', 'Create several indexes', '创建多个索引'],
    ['getIndexes', 'The indexes of this collection', '此集合的索引'],
    ['dropIndex', 'Delete an index by name or key pattern', '按名称或键模式删除索引'],
    ['dropIndexes', 'Delete all indexes but _id', '删除除 _id 外的所有索引'],
    ['hideIndex', 'Hide an index from the query planner', '让查询规划器看不到某个索引'],
    ['unhideIndex', 'Show a hidden index to the query planner again', '让查询规划器重新使用隐藏的索引'],
    ['explain', 'Explain the next command: .explain("executionStats").find(…)', '解释下一条命令：.explain("executionStats").find(…)'],
    ['stats', 'Statistics about this collection', '此集合的统计信息'],
    ['renameCollection', 'Rename this collection', '重命名此集合'],
    ['drop', 'Delete this collection and its indexes', '删除此集合及其索引'],
    ['getName', 'The name of this collection', '此集合的名称'],
    ['getFullName', 'The namespace: database.collection', '命名空间：数据库.集合'],
    ['insert', 'Legacy: insert one or more documents', '旧版：插入一个或多个文档'],
    ['update', 'Legacy: update documents', '旧版：更新文档'],
    ['remove', 'Legacy: delete documents', '旧版：删除文档'],
    ['save', 'Legacy: insert, or replace by _id', '旧版：插入，或按 _id 替换'],
    ['count', 'Legacy: count matching documents', '旧版：统计匹配的文档'],
  ];
  var CURSOR = [
    ['sort', 'Order the results: sort({field: 1 or -1})', '排序结果：sort({字段: 1 或 -1})'],
    ['limit', 'Return at most n documents', '最多返回 n 个文档'],
    ['skip', 'Skip the first n documents', '跳过前 n 个文档'],
    ['projection', 'Choose the fields returned', '选择返回的字段'],
    ['hint', 'Force an index', '强制使用某个索引'],
    ['explain', 'The query plan, with "executionStats" its counters', '查询计划；加 "executionStats" 可见计数器'],
    ['toArray', 'All documents as an array', '以数组返回全部文档'],
    ['forEach', 'Call a function for each document', '对每个文档调用一个函数'],
    ['map', 'An array of a function applied to each document', '对每个文档应用函数后得到的数组'],
    ['hasNext', 'Whether another document follows', '是否还有下一个文档'],
    ['next', 'The next document', '下一个文档'],
    ['count', 'Count the documents of the query', '统计查询的文档数'],
    ['pretty', 'Print documents over several lines', '分多行打印文档'],
  ];
  var TITLES = {
    shell: ['Shell Help', 'Shell 帮助'],
    db: ['Database Class', '数据库类（Database）'],
    collection: ['Collection Class', '集合类（Collection）'],
    cursor: ['Cursor Class', '游标类（Cursor）'],
  };
  var MORE = ['For more information on usage: https://www.mongodb.com/docs/mongodb-shell/reference/methods/',
    '更多用法见：https://www.mongodb.com/docs/mongodb-shell/reference/methods/'];

  function pad(s, n) { while (s.length < n) s += ' '; return s; }
  // `rows` restricted to methods `proto` has (all rows when proto is null).
  function render(kind, rows, proto) {
    var zh = language === 'zh' ? 1 : 0;
    var lines = ['  ' + TITLES[kind][zh] + ':', ''];
    rows.forEach(function (r) {
      if (proto && typeof proto[r[0]] !== 'function') return;
      lines.push('    ' + pad(r[0], 43) + r[1 + zh]);
    });
    lines.push('', '  ' + MORE[zh]);
    return lines.join('\n');
  }
  function HelpText(text) { this._text = text; }
  HelpText.prototype._asPrintable = function () { return this._text; };
  HelpText.prototype.toString = function () { return this._text; };

  function helpFunction(kind, rows, proto) {
    var f = function help() { return new HelpText(render(kind, rows, proto)); };
    Object.defineProperty(f, '_sproutHelp', { value: f, enumerable: false });
    return f;
  }
  var shellHelp = helpFunction('shell', SHELL, null);
  Object.defineProperty(g, 'help', { value: shellHelp, writable: true, configurable: true, enumerable: false });
  g.DB.prototype.help = helpFunction('db', DATABASE, g.DB.prototype);
  g.DBCollection.prototype.help = helpFunction('collection', COLLECTION, g.DBCollection.prototype);
  api.Cursor.prototype.help = helpFunction('cursor', CURSOR, api.Cursor.prototype);

  Object.defineProperty(g, '__sproutHelp', {
    value: Object.freeze({
      setLanguage: function (code) { language = code === 'zh' ? 'zh' : 'en'; },
      language: function () { return language; },
    }),
    enumerable: false,
  });
})(globalThis);

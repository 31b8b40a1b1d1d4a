//! The legacy shell's test API that MongoDB's jstests call (issue #19), each row in a fresh
//! session: the last input's shown text must match. Rows in the legacy style check the legacy
//! shell's answers; mongosh rows check that mongosh's behaviour is unchanged beside them.

mod common;

use shell::Style::{self, Legacy as L, Mongosh as M};

#[rustfmt::skip]
const CASES: &[(Style, &[&str], &str)] = &[
    // ---- db.runCommand answers a failure with its reply in the legacy style ------------------
    (L, &["var r = db.runCommand({nosuchcommand: 1})", "[r.ok, r.code, r.codeName]"], "[ 0, 59, \"CommandNotFound\" ]"),
    (L, &["assert.commandFailed(db.runCommand({nosuchcommand: 1})); 'ok'"], "ok"),
    (L, &["assert.commandFailedWithCode(db.runCommand({nosuchcommand: 1}), ErrorCodes.CommandNotFound).code"], "59"),
    (L, &["assert.commandFailedWithCode(db.runCommand({nosuchcommand: 1}), [2, 59]).ok"], "0"),
    (L, &["try { assert.commandFailedWithCode(db.runCommand({nosuchcommand: 1}), 2) } catch (e) { e.message.indexOf('did not fail with any of [ 2 ]') >= 0 }"], "true"),
    (M, &["try { db.runCommand({nosuchcommand: 1}); 'no' } catch (e) { e.codeName }"], "CommandNotFound"),
    (L, &["db.createCollection('x')", "db.createCollection('x').codeName"], "NamespaceExists"),
    // ---- commandWorked takes write results and createIndex's reply ---------------------------
    (L, &["assert.commandWorked(db.c.insert({_id: 1})).nInserted"], "1"),
    (L, &["db.c.insert({_id: 1})", "try { assert.commandWorked(db.c.insert({_id: 1})) } catch (e) { e.message.indexOf('command failed') === 0 }"], "true"),
    (L, &["assert.commandWorked(db.c.insert([{_id: 1}, {_id: 2}])).nInserted"], "2"),
    (L, &["assert.commandWorked(db.c.createIndex({a: 1})).numIndexesAfter"], "2"),
    (L, &["assert.commandWorked(db.c.createIndexes([{a: 1}])).numIndexesAfter"], "2"),
    (L, &["db.c.createIndex({a: 1}); assert.commandFailedWithCode(db.c.createIndex({a: -1}, {name: 'a_1'}), 86).ok"], "0"),
    (L, &["db.c.insert({_id: 1})", "assert.writeErrorWithCode(db.c.insert({_id: 1}), ErrorCodes.DuplicateKey).nInserted"], "0"),
    (L, &["db.c.insert({_id: 1})", "try { assert.writeErrorWithCode(db.c.insert({_id: 1}), 2) } catch (e) { /does not match/.test(e.message) }"], "true"),
    (M, &["db.c.createIndex({a: 1})"], "a_1"),
    // Only `ok: 0` fails a reply (the legacy `_rawReplyOkAndNoWriteErrors`): the CRUD helpers'
    // answers have no `ok` and worked (jstests/core/collation_update.js).
    (L, &["assert.commandWorked(db.c.bulkWrite([{insertOne: {document: {_id: 1}}}])).insertedCount"], "1"),
    (L, &["assert.commandWorked({}); try { assert.commandFailed({}) } catch (e) { e.message.indexOf('command worked') === 0 }"], "true"),
    (L, &["assert.commandFailed({ok: 0, errmsg: 'x', code: 2}).code"], "2"),
    // ---- bsonBinaryEqual compares BSON bytes: types, values, field order (jstests/core/bson.js)
    (L, &["[bsonBinaryEqual(0, 0), bsonBinaryEqual(1, NumberLong(1)), bsonBinaryEqual(NumberInt(1), NumberLong(1))]"], "[ true, false, false ]"),
    (L, &["[bsonBinaryEqual({a: 1, b: 2}, {b: 2, a: 1}), bsonBinaryEqual([0, 1], [0, 1]), bsonBinaryEqual(/3/, /3/i)]"], "[ false, true, false ]"),
    (L, &["[bsonBinaryEqual(HexData(0, 'AAaa'), HexData(0, 'aaAA')), bsonBinaryEqual(HexData(0, 'AAaa'), BinData(0, 'AAaa'))]"], "[ true, false ]"),
    // ---- database names the constructor refuses (jstests/core/db.js) ---------------------------
    (L, &["try { new DB(null, '/\\\\') } catch (e) { e.message }"], "[/\\] is not a valid database name"),
    (L, &["try { db.getSiblingDB('a.b') } catch (e) { e.message }"], "[a.b] is not a valid database name"),
    (L, &["try { db.getSiblingDB('x'.repeat(64)) } catch (e) { e.message.length }"], "95"),
    (M, &["try { db.getSiblingDB('a b') } catch (e) { e.name + ': ' + e.message }"], "MongoshInvalidInputError: Invalid database name: a b"),
    (M, &["db.getSiblingDB('$external').getName()"], "$external"),
    // ---- positional ensureIndex / createIndex options -------------------------------------------
    (L, &["db.c.ensureIndex({a: 1}, true)", "db.c.getIndexes()[1].unique"], "true"),
    (L, &["db.c.createIndex({a: 1}, 'named')", "db.c.getIndexes()[1].name"], "named"),
    (L, &["db.c.createIndex({a: 1}, ['n2', true])", "[db.c.getIndexes()[1].name, db.c.getIndexes()[1].unique]"], "[ \"n2\", true ]"),
    (L, &["db.c.createIndex({a: 1}); db.c.createIndex({a: -1}, {name: 'a_1'}).code"], "86"),
    // ---- coll.runCommand ------------------------------------------------------------------------
    (L, &["db.c.insert({a: 1})", "db.c.runCommand('count', {query: {a: 1}}).n"], "1"),
    (M, &["db.c.insertOne({a: 1})", "db.c.runCommand('count').n"], "1"),
    // ---- ErrorCodes, jsTest, Random -------------------------------------------------------------
    (L, &["[ErrorCodes.BadValue, ErrorCodes.DuplicateKey, ErrorCodeStrings[11000]]"], "[ 2, 11000, \"DuplicateKey\" ]"),
    (L, &["try { ErrorCodes.NoSuchThing } catch (e) { e.message }"], "Unknown Error Code: NoSuchThing"),
    (L, &["var TestData = {testName: 'abc'}", "jsTestName() + ' ' + jsTest.name()"], "abc abc"),
    (L, &["jsTestName()"], "__unknown_name__"),
    (L, &["_isWindows()"], "false"),
    (L, &["var o = {n: 2}; db.c.save(o)", "db.c.remove(o._id).nRemoved"], "1"),
    (L, &["var o = {n: 2}; db.c.save(o)", "var d = db.c.findOne({_id: o._id}); [d.n, Object.keys(d)[0]]"], "[ 2, \"_id\" ]"),
    (L, &["NumberLong(-9223372036854775808).exactValueString"], "-9223372036854775808"),
    (L, &["db.nothing_here.getIndexes().length"], "0"),
    (L, &["try { db.c.remove() } catch (e) { e.message }"], "remove needs a query"),
    (L, &["db.c.insert({a: 1})", "db.c.renameCollection({to: 'd', dropTarget: true}).ok", "db.d.count()"], "1"),
    (L, &["try { db.c.renameCollection({fail: 1}) } catch (e) { e.message }"], "The \"newName\" argument must be a string"),
    (M, &["try { db.c.remove() } catch (e) { e.message }"], "Missing required argument at position 0 (Collection.remove)"),
    (L, &["db.c.createIndex({a: 1})", "try { db.c.dropIndexes(['a_1', '_id_']) } catch (e) { e.code }"], "72"),
    (L, &["db.c.insert({a: 1})", "db.c.dropIndexes(['zz_1']).ok"], "0"),
    (L, &["Random.setRandomSeed(5); var a = Random.rand(); Random.setRandomSeed(5); a === Random.rand()"], "true"),
    (L, &["var n = Random.randInt(10); n >= 0 && n < 10 && n === Math.floor(n)"], "true"),
    // ---- Array, Number, Object helpers ------------------------------------------------------------
    (L, &["[Array.avg([1, 2, 3, 6]), Array.sum([1, 2]), Array.contains([1, 2], 2), Array.unique([1, 1, 2]).length]"], "[ 3, 3, true, 2 ]"),
    (L, &["(7).zeroPad(3)"], "007"),
    (L, &["tojson(Object.merge({a: 1}, {b: 2}))"], "{ \"a\" : 1, \"b\" : 2 }"),
    (L, &["Array.tojson([1, 2], '', true)"], "[ 1, 2 ]"),
    // ---- assert helpers ---------------------------------------------------------------------------
    (L, &["var x = 2", "assert.eq.automsg('x', '1 + 1'); 'ok'"], "ok"),
    (L, &["var x = 2", "try { assert.eq.automsg('x', '3') } catch (e) { e.message }"], "[2] != [3] are not equal : [x] != [3]"),
    (L, &["assert.docEq({a: 1, b: {c: 1, d: 2}}, {b: {d: 2, c: 1}, a: 1}); 'ok'"], "ok"),
    (L, &["try { assert.docEq({a: [1, 2]}, {a: [2, 1]}) } catch (e) { 'refused' }"], "refused"),
    (L, &["assert.sameMembers([1, {a: 1}], [{a: 1}, 1]); 'ok'"], "ok"),
    (L, &["assert.close(1.00001, 1.00002); 'ok'"], "ok"),
    (L, &["[bsonWoCompare({a: 1}, {a: 2}), bsonWoCompare({a: 2}, {a: 2}), bsonWoCompare({b: 1}, {a: 1})]"], "[ -1, 0, 1 ]"),
    // ---- cursors ------------------------------------------------------------------------------------
    (L, &["db.c.insert([{_id: 1}, {_id: 2}, {_id: 3}])", "var c = db.c.find().sort({_id: -1})", "[c[0]._id, c[2]._id, c.length()]"], "[ 3, 1, 3 ]"),
    (L, &["db.c.insert([{_id: 1}, {_id: 2}, {_id: 3}])", "db.c.find().skip(1).limit(5).countReturn()"], "2"),
    (L, &["db.c.insert([{_id: 1, a: 5}])", "db.c.createIndex({a: 1})", "tojson(db.c.find({a: 5}, {_id: 0}).hint({a: 1}).returnKey().next())"], "{ \"a\" : 5 }"),
    (L, &["db.c.insert([{_id: 1}, {_id: 2}, {_id: 3}])", "var r = db.runCommand({find: 'c', batchSize: 1})", "new DBCommandCursor(db, r).itcount()"], "3"),
    (L, &["db.c.insert([{_id: 1}, {_id: 2}])", "db.c.find().addOption(DBQuery.Option.noTimeout).itcount()"], "2"),
    (M, &["db.c.insertMany([{_id: 1}, {_id: 2}])", "db.c.find()[0]"], ""),
    // ---- DBRef, DBPointer, dates, the index spec helpers, the other db helpers -----------------------
    (L, &["db.a.insert({_id: 7, name: 'x'})", "db.b.insert({r: new DBRef('a', 7)})", "db.b.findOne().r.fetch().name"], "x"),
    (L, &["db.b.insert({r: {$ref: 'a', $id: 1, $db: 'other', extra: 2}})", "var r = db.b.findOne().r; [r.getRef(), r.getId(), r.getDb(), Object.keys(r).join()]"], "[ \"a\", 1, \"other\", \"$ref,$id,$db,extra\" ]"),
    (L, &["var id = ObjectId('5f0000000000000000000001'); db.a.insert({_id: id, name: 'p'})", "db.b.insert({p: new DBPointer('a', id)})", "db.b.findOne().p.fetch().name"], "p"),
    (L, &["tojson(db.b.insert({p: new DBPointer('a', ObjectId('5f0000000000000000000001'))}).nInserted)", "tojson(db.b.findOne({}, {_id: 0}))"], "{ \"p\" : DBPointer(\"a\", ObjectId(\"5f0000000000000000000001\")) }"),
    (L, &["ISODate('1980-05-20 12:53:64.834Z').tojson()"], "ISODate(\"1980-05-20T12:54:04.834Z\")"),
    (M, &["try { ISODate('1980-05-20 12:53:64.834Z') } catch (e) { e.message }"], "invalid ISO date: 1980-05-20 12:53:64.834Z"),
    (L, &["new Date('08/27/2010 10:11:12 GMT').tojson()"], "ISODate(\"2010-08-27T10:11:12Z\")"),
    (L, &["var d = new Date(1282903200000); new Date(d.toString()).getTime() === d.getTime()"], "true"),
    (L, &["[isNaN(new Date('nonsense').getTime()), isNaN(Date.parse('13/45/2010'))]"], "[ true, true ]"),
    (L, &["tojsononeline(db.c._indexSpec({x: 1}, [true, true]))"], "{ \"ns\" : \"test.c\", \"key\" : { \"x\" : 1 }, \"name\" : \"x_1\", \"unique\" : true, \"dropDups\" : true }"),
    (L, &["[db.c._genIndexName({a: 1, b: -1}), db.c._fullName, db.c._shortName]"], "[ \"a_1_b_-1\", \"test.c\", \"c\" ]"),
    (L, &["db.c.insert({a: 1})", "db.createView('v', 'c', {$project: {_id: 0}}).ok", "tojson(db.v.findOne())"], "{ \"a\" : 1 }"),
    (L, &["db.c.insert({a: 1})", "var r = db.c.mapReduce(function () { emit(this.a, 1); }, function (k, vs) { return Array.sum(vs); }, {out: {inline: 1}})", "[r instanceof MapReduceResult, tojson(r.convertToSingleObject())]"], "[ true, \"{ \\\"1\\\" : 1 }\" ]"),
    (L, &["try { db.c.mapReduce(function () {}, function () {}, {out: {inline: 2}}) } catch (e) { e.message.indexOf('map reduce failed:') === 0 }"], "true"),
    (L, &["db.serverStatus().errmsg"], "no such command: 'serverStatus'"),
    // ---- a global whose getter replaces it (the lazy modules) is read again after it reshaped ------
    (L, &["var names = ['a1', 'a2', 'a3', 'lazy']; names.forEach(function (n) { Object.defineProperty(globalThis, n, { get: function () { names.forEach(function (m) { Object.defineProperty(globalThis, m, { value: m + '!', writable: true, configurable: true }); }); return globalThis[n]; }, configurable: true }); })", "function read() { return lazy; }", "[read(), read(), read()].join(' ')"], "lazy! lazy! lazy!"),
    // ---- writes the server refuses whole, write errors as text, the db a collection belongs to ------
    (L, &["var d = db.getSiblingDB('x'); d._name = 'bad name'; var r = d.c.insert({a: 1})", "[r instanceof WriteCommandError, r.ok, r.code, assert.writeError(r).codeName]"], "[ true, 0, 73, \"InvalidNamespace\" ]"),
    (L, &["var d = db.getSiblingDB('x'); d._name = 'bad name'", "[d.c.update({}, {$set: {a: 1}}).code, d.c.remove({}).code, d.c.save({a: 1}).code]"], "[ 73, 73, 73 ]"),
    (M, &["var d = db.getSiblingDB('x'); d._name = 'bad name'", "try { d.c.insertOne({a: 1}); 'no' } catch (e) { e.codeName }"], "InvalidNamespace"),
    (L, &["db.c.insert({_id: 1})", "var e = db.c.insert({_id: 1}).getWriteError(); [/E11000/.test(e), e.getErrmsg() === e.errmsg, Object.keys(e).join()]"], "[ true, true, \"code,errmsg\" ]"),
    (L, &["db.c.insert({_id: 1})", "String(db.c.insert({_id: 1}).getWriteError()).indexOf('WriteError({')"], "0"),
    (L, &["db.c.insert({a: 1})", "db.c.getDB().other.insert({b: 1}); db.c.getDB().other.count()"], "1"),
    // ---- SpiderMonkey's Array generics, MinKey's singleton, NumberDecimal of a double ----------------
    (L, &["[Array.sort([3, 1, 2]), Array.map([1, 2], function (x) { return x * 2; }), Array.join([1, 2], '-')]"], "[ [ 1, 2, 3 ], [ 2, 4 ], \"1-2\" ]"),
    (L, &["try { MinKey().__proto__.singleton = 1000; MinKey(); 'no' } catch (e) { e.message }"], "MinKey singleton not of type MinKey"),
    (L, &["tojson(NumberDecimal(1.9))"], "NumberDecimal(\"1.90000000000000\")"),
    // ---- the legacy NumberInt: toNumber, and a string naming the constructor (numberint.js) ----------
    (L, &["var n = NumberInt(4); [n.toNumber(), n + 4, n.toString(), NumberLong(NumberInt(7)).toNumber()].join()"], "4,8,NumberInt(4),7"),
    (M, &["var n = NumberInt(4); [n.toNumber(), n.toString()].join()"], "4,4"),
    // ---- the legacy shell sends every number as a double; NumberInt stays an int ----------------------
    (L, &["db.c.insert({a: 1, b: NumberInt(1)})", "var d = db.c.aggregate([{$project: {_id: 0, a: {$type: '$a'}, b: {$type: '$b'}}}]).toArray()[0]; [d.a, d.b]"], "[ \"double\", \"int\" ]"),
    (M, &["db.c.insertOne({a: 1})", "db.c.aggregate([{$project: {_id: 0, a: {$type: '$a'}}}]).toArray()[0].a"], "int"),
    // ---- and `undefined` inside a command's values as BSON undefined (mongosh: null) -----------------
    (L, &["db.c.insert({a: undefined})", "db.c.aggregate([{$project: {_id: 0, a: {$type: '$a'}}}]).toArray()[0].a"], "undefined"),
    (L, &["try { db.c.find({a: undefined}).itcount() } catch (e) { [e.code, e.message] }"], "[ 2, \"cannot compare to undefined\" ]"),
    (M, &["db.c.insertOne({a: undefined})", "db.c.aggregate([{$project: {_id: 0, a: {$type: '$a'}}}]).toArray()[0].a"], "null"),
    (L, &["db.c.insert({a: 1})", "db.c.createIndex({a: 1})", "[db.c.find().hint({a: 1}).itcount(), db.c.dropIndex({a: 1}).ok]"], "[ 1, 1 ]"),
    (M, &["NumberDecimal(1.9).toString()"], "1.9"),
    // ---- a cursor dies with its collection ----------------------------------------------------------
    (L, &["db.c.insert([{_id: 1}, {_id: 2}, {_id: 3}])", "var c = db.c.find().batchSize(1); c.next(); db.c.drop()", "try { c.itcount() } catch (e) { e.code }"], "175"),
    // ---- documents from the server are BSON-backed objects: `[object BSON]`, fields unchanged -----
    (L, &["db.c.insert({_id: 1, a: {b: 1}})", "var d = db.c.findOne(); [String(d), String(d.a), Object.keys(d), String({})].join()"], "[object BSON],[object BSON],_id,a,[object Object]"),
    (L, &["db.c.insert({_id: 1, a: 1})", "assert.lt(db.c.find().toArray(), [{a: 2}]); tojson(db.c.findOne())"], "{ \"_id\" : 1, \"a\" : 1 }"),
    (L, &["String(db.runCommand({ping: 1}))"], "[object BSON]"),
    // ---- and an unaltered one is written back as read: its NumberInt stays an int (SERVER-32072);
    // in an altered one a whole number where an int was stays an int (mozjs ValueWriter) -----------
    (L, &["db.c.insert({_id: 1, a: NumberInt(1), r: DBRef('x', NumberInt(2)), s: {b: NumberInt(3)}})", "var d = db.c.findOne(); d.x = 1; db.c.save(d)", "var t = db.c.aggregate([{$project: {_id: 0, a: {$type: '$a'}, b: {$type: '$s.b'}}}]).toArray()[0]; [t.a, t.b, db.c.find({'r.$id': {$type: 16}}).count()].join()"], "int,int,1"),
    (L, &["db.c.insert({_id: 1, a: NumberInt(1)})", "var d = db.c.findOne(); d.a = 1.5; d.x = 1; db.c.save(d)", "db.c.aggregate([{$project: {_id: 0, a: {$type: '$a'}, x: {$type: '$x'}}}]).toArray()[0]"], "{ \"a\" : \"double\", \"x\" : \"double\" }"),
    // ---- utils.js's type tests and servers_misc.js's testingReplication --------------------------
    (L, &["[isNumber(1), isNumber('1'), isString('a'), isObject({}), isObject(1), testingReplication].join()"], "true,false,true,true,false,false"),
    (M, &["db.c.insertOne({_id: 1})", "String(db.c.findOne())"], "[object Object]"),
    // ---- bulk_api.js: WriteError.getOperation, toSingleResult, getUpsertedIdAt, BulkWriteError --------
    (L, &["db.c.insert({_id: 1})", "var b = db.c.initializeUnorderedBulkOp(); b.insert({_id: 2}); b.find({_id: 3}).upsert().updateOne({$set: {x: 1}}); b.insert({_id: 1}); b.find({_id: 1}).upsert().updateOne({$set: {_id: 4}})", "var e = assert.throws(function () { b.execute(); }); [e instanceof BulkWriteError, e.nInserted, e.nUpserted, e.getWriteErrorCount(), e.getWriteErrorAt(0).index, e.getWriteErrorAt(1).getOperation().u.$set._id, e.getUpsertedIdAt(0)._id].join()"], "true,1,1,2,2,4,3"),
    (L, &["var b = db.c.initializeOrderedBulkOp(); b.find({_id: 5}).upsert().updateOne({$set: {x: 1}})", "var r = b.execute().toSingleResult(); [r.nUpserted, r.getUpsertedId()._id].join()"], "1,5"),
    (L, &["var b = db.c.initializeOrderedBulkOp(); b.insert({}); b.find({}).remove()", "try { b.execute().toSingleResult() } catch (e) { e.message }"], "Cannot output single WriteResult from multiple batch result"),
    // ---- WriteResult's hidden counters, coll._mongo, write concern helpers, buildInfo's versionArray --
    (L, &["var r = db.c.insert({}); [r.nInserted, r.nUpserted, r.nMatched, r.nModified, r.nRemoved, tojson(r)].join()"], "1,0,0,0,0,{ \"nInserted\" : 1 }"),
    (L, &["[db.c._mongo === undefined, db.runCommand({buildInfo: 1}).versionArray.slice(0, 3).join('')].join()"], "false,800"),
    (L, &["db.setWriteConcern({w: 1}); var c = db.c; var a = c.getWriteConcern().w; c.setWriteConcern({w: 'majority'}); var b = c.getWriteConcern().w; c.unsetWriteConcern(); [a, b, c.getWriteConcern().w].join()"], "1,majority,1"),
    (L, &["db.setWriteConcern({w: 1}); [db.getWriteConcern().toJSON().w, db.getMongo().getDBs().ok].join()"], "1,1"),
    (L, &["try { db.c.getPlanCache().listQueryShapes() } catch (e) { e.message.indexOf('PlanCache.listQueryShapes()') === 0 }"], "true"),
    // ---- the getLastError assertions name themselves (MongoDB removed getLastError in 5.1) ----------
    (L, &["try { assert.gleSuccess(db) } catch (e) { e.message.indexOf('assert.gleSuccess needs the getLastError command') === 0 }"], "true"),
    (L, &["assert.closeWithinMS(new Date(1000), new Date(1005)); try { assert.closeWithinMS(1, 100, 'far', 5) } catch (e) { /within 5 millis/.test(e.message) }"], "true"),
    // ---- automsg evaluates with `a` and `b` as its parameters (numberint.js) -----------------------
    (L, &["a = {x: NumberInt(4)}; assert.eq.automsg('a', 'eval( tojson( a ) )'); assert.automsg('typeof b === \"string\"'); 'ok'"], "ok"),
    // ---- NumberLong and NumberInt as the legacy shell's mozjs types (numberlong.js, numberint.js) ----
    (L, &["[NumberLong(4).toString(), NumberLong(4294967296).toString(), NumberLong('-11111111111111111').top, NumberLong('-11111111111111111').bottom].join()"], "NumberLong(4),NumberLong(\"4294967296\"),4292380288,3643379257"),
    (M, &["NumberLong(4).toString()"], "4"),
    (L, &["[NaN, '9223372036854775808', 9223372036854775807, 'y'].map(function (v) { try { NumberLong(v); return 'ok' } catch (e) { return e.message } }).join('|')"], "number passed to NumberLong must be representable as an int64_t|could not convert string to long long|number passed to NumberLong must be representable as an int64_t|could not convert string to long long"),
    (L, &["[NumberLong(0, 1, 0).floatApprox, NumberLong(NumberInt(3)).toNumber()].join()"], "4294967296,3"),
    (L, &["[[0, 1.5, 0], ['x', 0, 0], [1, 2]].map(function (a) { try { NumberLong.apply(null, a); return 'ok' } catch (e) { return e.message } }).join('|')"], "top must be a 32 bit unsigned number|floatApprox must be a number|NumberLong needs 0, 1 or 3 arguments"),
    (L, &["[NumberLong('20').compare(NumberLong('10')), NumberLong(1).compare(NumberLong(1)), NumberLong(1).compare(NumberLong(2))].join()", ], "1,0,-1"),
    (L, &["try { NumberLong(1).compare(3) } catch (e) { e.message }"], "NumberLong.compare() argument must be a NumberLong"),
    (L, &["db.c.save({_id: 1, a: NumberInt(42)})", "var d = db.c.findOne(); d.a += 10; d.b = 'x'; db.c.save(d)", "[db.c.find({a: {$type: 16}}).count(), db.c.find({a: 52}).count()].join()"], "1,1"),
    (L, &["var myLong = NumberLong(1); shellAutocomplete('myLong.t'); [__autocomplete__.indexOf('myLong.top') >= 0, __autocomplete__.indexOf('myLong.bottom')].join()"], "true,-1"),
    // ---- tojson's indent and nolint, undefined, a regex's g flag, tostrictjson (json1.js) ------------
    (L, &["tojson({x: 1, a: undefined}, '', false)"], "{\n\t\"x\" : 1,\n\t\"a\" : undefined\n}"),
    (L, &["tojson({x: [], y: {}}, '', true)"], "{ \"x\" : [ ], \"y\" : {  } }"),
    (L, &["tojson({z: /xd?/ig})"], "{ \"z\" : /xd?/gi }"),
    (M, &["tojson({a: undefined})"], "{ \"a\" : null }"),
    (L, &["tostrictjson({x: NumberLong(64)})"], "{ \"x\" : { \"$numberLong\" : \"64\" } }"),
    (L, &["JSON.stringify({l: NumberLong(5), o: ObjectId('579a70d9e249393f153b5bc1'), r: /a/i, t: Timestamp(1, 2), b: BinData(0, 'AA=='), m: MinKey, n: NumberInt(5)})"], "{\"l\":{\"$numberLong\":\"5\"},\"o\":{\"$oid\":\"579a70d9e249393f153b5bc1\"},\"r\":{\"$regex\":\"a\",\"$options\":\"i\"},\"t\":{\"$timestamp\":{\"t\":1,\"i\":2}},\"b\":{\"$binary\":\"AA==\",\"$type\":\"00\"},\"m\":{\"$minKey\":1},\"n\":5}"),
    (M, &["JSON.stringify({r: /a/i, t: Timestamp(1, 2), b: BinData(0, 'AA=='), m: MinKey(), k: MaxKey})"], "{\"r\":{},\"t\":{},\"b\":{},\"m\":{}}"),
    // ---- an unacknowledged write answers {ok: 1} alone (batch_write_command_w0.js) -------------------
    (L, &["db.runCommand({insert: 'c', documents: [{_id: 1}], writeConcern: {w: 0}})"], "{ \"ok\" : 1 }"),
    // ---- rs.compareOpTimes (optime_cmp.js), cursor.clone() (geo_sort1.js) ----------------------------
    (L, &["[rs.compareOpTimes({ts: Timestamp(2, 2), t: 2}, {ts: Timestamp(2, 4), t: 2}), rs.compareOpTimes({ts: Timestamp(3, 0), t: 2}, {ts: Timestamp(2, 0), t: 3}), rs.compareOpTimes({ts: Timestamp(3, 0), t: 2}, {ts: Timestamp(3, 0), t: 2}), rs.compareOpTimes({ts: Timestamp(2, 0), t: 3}, {ts: Timestamp(3, 0), t: 2})].join()"], "-1,-1,0,1"),
    (L, &["try { rs.compareOpTimes({ts: Timestamp(1, 1), t: -1}, {ts: Timestamp(1, 1), t: 1}) } catch (e) { e.message.indexOf('invalid optimes') === 0 }"], "true"),
    (L, &["db.c.insert([{_id: 1}, {_id: 2}, {_id: 3}])", "var q = db.c.find({_id: {$gt: 1}}).sort({_id: -1}); var a = q.clone().map(function (d) { return d._id; }); q.next(); [a.join(), q.clone().itcount(), q.itcount()].join(' ')"], "3,2 2 1"),
    (M, &["db.c.insertMany([{_id: 1}, {_id: 2}])", "var q = db.c.find().limit(1); [q.clone().toArray().length, q.toArray().length, q.clone().count()].join()"], "1,1,2"),
    // ---- shell types (shelltypes.js) and the legacy Map (map1.js) ------------------------------------
    (L, &["[[-2, 3], [0, -1], [4294967296, 0], [0, 4294967296]].map(function (a) { try { Timestamp(a[0], a[1]); return 'made' } catch (e) { return e.name } }).join()"], "TypeError,TypeError,TypeError,TypeError"),
    (M, &["try { Timestamp(-2, 3) } catch (e) { e.message }"], "Timestamp constructed from { t, i } must provide a positive t"),
    (L, &["tojson(Timestamp(4294967295, 2147516416.5))"], "Timestamp(4294967295, 2147516416)"),
    (L, &["[ObjectId.fromDate(new Date(Math.pow(2, 28) * 1000)).valueOf(), ObjectId.fromDate(new Date(Math.pow(2, 32) * 1000 - 1)).valueOf()].join()"], "100000000000000000000000,ffffffff0000000000000000"),
    (L, &["[12345, '2020-01-01', new Date(Math.pow(2, 32) * 1000), new Date(-1000)].map(function (d) { try { ObjectId.fromDate(d); return 'made' } catch (e) { return e.name } }).join()"], "TypeError,TypeError,RangeError,RangeError"),
    (L, &["JSON.stringify([tojsonObject({}), tojsonObject({}, '', true), tojsonObject({a: 1}, '\\t\\t')])"], "[\"{\\n\\t\\n}\",\"{  }\",\"{\\n\\t\\t\\t\\\"a\\\" : 1\\n\\t\\t}\"]"),
    (L, &["try { tojsonObject(5) } catch (e) { e.message }"], "tojsonObject needs object, not [number]"),
    (L, &["var m = new Map(); m.put({a: 1}, 17); m.put('s', 1); var old = m.put('s', 2); tojson([m.get({a: 1}), m.get({a: 2}), m.get({b: 1, a: 1}), m.get('s'), old, m.values().length])"], "[ 17, null, null, 2, 1, 2 ]"),
    (L, &["var m = new Map(); m.set('a', 1); JSON.stringify([m.get('a'), m.get('b') === undefined, Array.from(m.values())])"], "[1,true,[1]]"),
    // ---- the legacy crud_api.js results, cursor internals (jstests/core/crud_api.js) ----------------
    (L, &["tojson(db.c.insertMany([{_id: 1}, {_id: 2}]))"], "{ \"acknowledged\" : true, \"insertedIds\" : [ 1, 2 ] }"),
    (M, &["db.c.insertMany([{_id: 1}, {_id: 2}]).insertedIds"], "{ '0': 1, '1': 2 }"),
    (L, &["[db.c.insertOne({_id: 1}, {w: 0}), db.c.deleteOne({_id: 1}, {w: 0}), db.c.updateOne({}, {$set: {a: 1}}, {w: 0})].map(function (r) { return tojson(r) }).join()"], "{ \"acknowledged\" : false },{ \"acknowledged\" : false },{ \"acknowledged\" : false }"),
    (L, &["db.c.insert({_id: 1})", "tojson([db.c.updateOne({_id: 1}, {$set: {a: 1}}), db.c.replaceOne({_id: 2}, {a: 2}, {upsert: true})])"], "[\n\t{\n\t\t\"acknowledged\" : true,\n\t\t\"matchedCount\" : 1,\n\t\t\"modifiedCount\" : 1\n\t},\n\t{\n\t\t\"acknowledged\" : true,\n\t\t\"matchedCount\" : 0,\n\t\t\"modifiedCount\" : 0,\n\t\t\"upsertedId\" : 2\n\t}\n]"),
    (L, &["Object.keys(db.c.bulkWrite([{insertOne: {document: {_id: 1}}}])).join()"], "acknowledged,insertedCount,matchedCount,deletedCount,upsertedCount,insertedIds,upsertedIds"),
    (L, &["try { db.c.findOneAndReplace({a: 1}, {$set: {b: 1}}); 'no' } catch (e) { e.message }"], "Replacement document must not contain atomic operators"),
    (L, &["var c = db.c.find(); [c.tailable()._options, db.c.find().tailable(false)._options, db.c.find().allowPartialResults()._options, db.c.find().noCursorTimeout()._options, db.c.find().oplogReplay()._options].join()"], "34,2,128,16,8"),
    (M, &["db.c.find().tailable()._options"], "2"),
    (L, &["db.c.find({a: 1}).modifiers({$hint: 'a_1'})._query['$hint']"], "a_1"),
];

#[test]
fn legacy_test_api() {
    let mut failures = Vec::new();
    for (style, inputs, expected) in CASES {
        let got = common::last_text(*style, inputs);
        if got != *expected {
            failures.push(format!(
                "{style:?} {inputs:?}\n  expected {expected:?}\n  got      {got:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

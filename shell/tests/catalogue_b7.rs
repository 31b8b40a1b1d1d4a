//! Book B, chapter 7 ("Scaling"): the sharding walkthrough and the social inbox designs
//! (B7-C5 to C22) on the simulated sharded cluster (`engine::sharding`), through a shell
//! connected to the router as `new ShardingTest({shards: 0})` leaves it, so that the book's
//! own `sh.addShard` calls add `shard0000` and `shard0001`.
//!
//! Where MongoDB 8.0 differs from the 3.0 book: `sh.status()` prints mongosh's sections, not the
//! 3.0 layout; the missing-index error is `InvalidOptions` (72) with 8.0's wording, not the 3.0
//! document with `proposedKey` and `curIndexes`. Errata applied: the book shards `social.inbox`
//! again with another key (B7-C16, C20) without dropping it; 8.0 refuses that with
//! `AlreadyInitialized`, which the suite shows, then drops the collection and shards it anew.

pub mod common;

use shell::Style;

const MSG: &str = "var msg = {\nfrom: \"John\", \nto: [\"Mike\", \"Billie\"], \nsent: new Date(), \nmessage: \"Hey Mike, Billie\"\n}; // this command creates a msg variable and stores a message json as a value";

#[test]
pub fn sharding_walkthrough() {
    let mut sh = common::shell(Style::Mongosh);
    let rows: Vec<(&str, &str, &str)> = vec![
        ("B7-C5", "var st = new ShardingTest({shards: 0})", ""),
        (
            "B7-C5",
            "sh.addShard(\"localhost:27001\")",
            "{ shardAdded: 'shard0000', ok: 1 }",
        ),
        (
            "B7-C5",
            "sh.addShard(\"localhost:27002\")",
            "{ shardAdded: 'shard0001', ok: 1 }",
        ),
        (
            "B7-C6",
            "db.getSiblingDB('config').shards.find().toArray().map(s => s._id + ' ' + s.host).join('; ')",
            "shard0000 localhost:27001; shard0001 localhost:27002",
        ),
        ("B7-C7", "sh.enableSharding(\"ecommerce\")", "{ ok: 1 }"),
        ("B7-C9", "use ecommerce", "switched to db ecommerce"),
        (
            "B7-C9",
            "db.customers.insertOne({_id: ObjectId(\"54fb7110e7084a229a66eda2\"), isActive: true, age: 28, name: \"Paige Johnson\", gender: \"female\", email: \"paigejohnson@combot.com\", phone: \"+1 (830) 484-2397\", address: {city: \"Dennard\", state: \"Kansas\", zip: 2492, latitude: -56.564242, longitude: -160.872178, street: \"998 Boerum Place\"}, registered: ISODate(\"2013-10-14T14:44:34.853Z\"), friends: [{id: 0, name: \"Katelyn Barrett\"}, {id: 1, name: \"Weeks Valentine\"}, {id: 2, name: \"Wright Jensen\"}]}).acknowledged",
            "true",
        ),
        (
            "B7-C9",
            "sh.shardCollection(\"ecommerce.customers\", {\"address.zip\": 1, \"registered\": 1})",
            "MongoServerError[InvalidOptions]: Please create an index that starts with the proposed shard key before sharding the collection. ",
        ),
        (
            "B7-C10",
            "db.customers.createIndex({\"address.zip\": 1, \"registered\": 1})",
            "address.zip_1_registered_1",
        ),
        (
            "B7-C10",
            "sh.shardCollection(\"ecommerce.customers\", {\"address.zip\": 1, \"registered\": 1})",
            "{ collectionsharded: 'ecommerce.customers', ok: 1 }",
        ),
        (
            "B7-C10",
            "db.customers.find({\"address.zip\": 2492}).explain().queryPlanner.winningPlan.stage",
            "SINGLE_SHARD",
        ),
    ];
    common::assert_rows(&mut sh, &rows);
    let status = sh.eval("sh.status()").text();
    assert!(
        status.contains("host: 'localhost:27001'") && status.contains("host: 'localhost:27002'"),
        "B7-C6: {status}"
    );
    assert!(
        status.contains("_id: 'ecommerce',\n      primary: 'shard0000'"),
        "B7-C8: {status}"
    );
}

#[test]
pub fn social_inbox_designs() {
    let mut sh = common::shell(Style::Mongosh);
    let loop_c17 = "for(recipient in msg.to){ // iterate though recipients\nmsg.recipient = msg.to[recipient]; // creates a recipient field on the message and stores the recipient of the message\ndb.inbox.insert(msg); // inserts the msg document for every recipient\n}; db.inbox.countDocuments()";
    let loop_c22 = "for(recipient in msg.to) {\n\nvar count = db.users.findAndModify({\n query: {user_name: msg.to[recipient]},\n update:{\"$inc\":{\"msg_count\":1}},\n upsert: true,\n new: true}).msg_count;\n\n var sequence = Math.floor(count/50);\n\n db.inbox.update({\n owner: msg.to[recipient], sequence: sequence},\n {$push:{\"messages\":msg}},\n {upsert: true});\n}; db.users.find().sort({user_name: 1}).toArray().map(u => u.user_name + ':' + u.msg_count).join()";
    let rows: Vec<(&str, &str, &str)> = vec![
        ("B7-C11", "var st = new ShardingTest({shards: 2})", ""),
        ("B7-C11", "sh.enableSharding(\"social\")", "{ ok: 1 }"),
        (
            "B7-C12",
            "sh.shardCollection(\"social.inbox\", {from: 1})",
            "{ collectionsharded: 'social.inbox', ok: 1 }",
        ),
        ("B7-C13", "use social", "switched to db social"),
        (
            "B7-C13",
            "db.inbox.createIndex({to: 1, sent: 1})",
            "to_1_sent_1",
        ),
        ("B7-C14", MSG, ""),
        (
            "B7-C14",
            "db.inbox.insert(msg); // this command inserts the message on the inbox collection\ndb.inbox.countDocuments()",
            // mongosh warns once per session about the legacy insert() and update().
            "DeprecationWarning: Collection.insert() is deprecated. Use insertOne, insertMany, or bulkWrite.\n1",
        ),
        (
            "B7-C15",
            "db.inbox.find({to: \"Mike\"}).sort({sent: -1}).toArray().map(d => d.from).join()",
            "John",
        ),
        // One chunk: every query goes to the shard holding it. Split and move a chunk, and the
        // read by recipient (not the shard key) goes to both shards.
        (
            "B7-C15",
            "db.inbox.find({to: \"Mike\"}).sort({sent: -1}).explain().queryPlanner.winningPlan.stage",
            "SINGLE_SHARD",
        ),
        (
            "B7-C15",
            "sh.splitAt('social.inbox', {from: 'M'}); sh.moveChunk('social.inbox', {from: 'Z'}, 'shard0001').ok",
            "1",
        ),
        (
            "B7-C15",
            "db.inbox.find({to: \"Mike\"}).sort({sent: -1}).explain().queryPlanner.winningPlan.stage",
            "SHARD_MERGE_SORT",
        ),
        (
            "B7-C15",
            "db.inbox.find({from: \"John\"}).explain().queryPlanner.winningPlan.stage",
            "SINGLE_SHARD",
        ),
        (
            "B7-C16",
            "sh.shardCollection(\"social.inbox\", {recipient: 1, sent: 1})",
            "MongoServerError[AlreadyInitialized]: sharding already enabled for collection social.inbox",
        ),
        ("B7-C16", "db.inbox.drop()", "true"),
        (
            "B7-C16",
            "sh.shardCollection(\"social.inbox\", {recipient: 1, sent: 1})",
            "{ collectionsharded: 'social.inbox', ok: 1 }",
        ),
        ("B7-C17", MSG, ""),
        ("B7-C17", loop_c17, "2"),
        (
            "B7-C18",
            "db.inbox.find ({recipient: \"Mike\"}).sort({ sent:-1}).toArray().map(d => [d.recipient, d.to.join('+'), d.message].join(' | ')).join()",
            "Mike | Mike+Billie | Hey Mike, Billie",
        ),
        (
            "B7-C18",
            "db.inbox.find ({recipient: \"Mike\"}).sort({ sent:-1}).explain().queryPlanner.winningPlan.stage",
            "SINGLE_SHARD",
        ),
        (
            "B7-C19",
            "db.inbox.find ({recipient: \"Billie\"}).sort({ sent:-1}).toArray().map(d => [d.recipient, d.to.join('+'), d.message].join(' | ')).join()",
            "Billie | Mike+Billie | Hey Mike, Billie",
        ),
        ("B7-C20", "sh.enableSharding(\"social\")", "{ ok: 1 }"),
        (
            "B7-C20",
            "sh.shardCollection(\"social.inbox\", {owner: 1, sequence: 1})",
            "MongoServerError[AlreadyInitialized]: sharding already enabled for collection social.inbox",
        ),
        (
            "B7-C20",
            "db.inbox.drop(); sh.shardCollection(\"social.inbox\", {owner: 1, sequence: 1})",
            "{ collectionsharded: 'social.inbox', ok: 1 }",
        ),
        (
            "B7-C21",
            "sh.shardCollection(\"social.users\", {user_name: 1})",
            "{ collectionsharded: 'social.users', ok: 1 }",
        ),
        (
            "B7-C22",
            "var msg = { \n \"from\": \"John\",\n \"to\": [\"Mike\", \"Billie\"], //recipients\n \"sent\": new Date(),\n \"message\": \"Hey Mike, Billie\"\n}",
            "",
        ),
        (
            "B7-C22",
            loop_c22,
            "DeprecationWarning: Collection.update() is deprecated. Use updateOne, updateMany, or bulkWrite.\nBillie:1,Mike:1",
        ),
        (
            "B7-C22",
            "db.inbox.find().sort({owner: 1}).toArray().map(b => b.owner + '/' + b.sequence + '/' + b.messages.length).join()",
            "Billie/0/1,Mike/0/1",
        ),
    ];
    common::assert_rows(&mut sh, &rows);
}

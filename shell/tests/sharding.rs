//! The simulated sharded cluster through the shell: `ShardingTest`, `sh.*`, the book's
//! chapter 7 commands (catalogue B7-C5 … C22) end to end, targeted and broadcast queries seen
//! through `explain()`, `sh.status()`, `getShardDistribution()` and the balancer over
//! simulated time (engine/src/sharding, shell/src/js/sharding.js).

use engine::Engine;
use engine::clock::SimulatedClock;
use shell::{Shell, ShellConfig};

fn shell_with(start: &str) -> Shell {
    let engine = Engine::with_clock(Box::new(SimulatedClock::new(1_425_957_603_597)), 3);
    let mut s = Shell::new(engine, ShellConfig::default());
    run(&mut s, start);
    s
}

fn shell() -> Shell {
    shell_with("var st = new ShardingTest({shards: 2})")
}

fn run(s: &mut Shell, input: &str) -> String {
    let ev = s.eval(input);
    assert!(ev.error.is_none(), "{input}: {ev:?}");
    ev.text()
}

fn error(s: &mut Shell, input: &str) -> String {
    let ev = s.eval(input);
    match ev.error {
        Some(e) => e.to_string(),
        None => panic!("{input} should fail: {}", ev.text()),
    }
}

#[test]
fn sharding_test_connects_to_a_router() {
    let mut s = shell();
    assert_eq!(s.prompt_prefix(), "[direct: mongos] ");
    assert_eq!(run(&mut s, "db.hello().msg"), "isdbgrid");
    assert_eq!(run(&mut s, "st.shard1.shardName"), "shard0001");
    assert_eq!(
        run(
            &mut s,
            "db.getSiblingDB('config').shards.find().toArray().map(s => s._id + '@' + s.host).join()"
        ),
        "shard0000@localhost:27018,shard0001@localhost:27019"
    );
    let mut rs = shell_with("var st = new ShardingTest({shards: 2, rs: {nodes: 3}})");
    assert_eq!(
        run(
            &mut rs,
            "db.getSiblingDB('config').shards.findOne({_id: 'shardingTest-rs0'}).host"
        ),
        "shardingTest-rs0/172.17.1.2:27017,172.17.1.3:27017,172.17.1.4:27017"
    );
}

#[test]
fn book_chapter_7_shard_collection_needs_an_index() {
    let mut s = shell();
    // B7-C5, C7: adding shards (idempotent for known hosts) and enabling sharding.
    assert_eq!(
        run(&mut s, "sh.addShard('localhost:27001').shardAdded"),
        "shard0002"
    );
    run(&mut s, "sh.enableSharding('ecommerce')");
    run(&mut s, "use ecommerce");
    run(
        &mut s,
        "db.customers.insertOne({name: 'Paige Johnson', address: {city: 'Dennard', zip: 2492}, registered: ISODate('2013-10-14T14:44:34.853Z'), friends: [{id: 0, name: 'Katelyn Barrett'}]})",
    );
    // B7-C9: no index prefixed by the key on a non-empty collection.
    let e = error(
        &mut s,
        "sh.shardCollection('ecommerce.customers', {'address.zip': 1, 'registered': 1})",
    );
    assert!(e.contains("MongoServerError[InvalidOptions]: Please create an index that starts with the proposed shard key before sharding the collection"), "{e}");
    // B7-C10: the fix.
    run(
        &mut s,
        "db.customers.createIndex({'address.zip': 1, 'registered': 1})",
    );
    assert_eq!(
        run(
            &mut s,
            "sh.shardCollection('ecommerce.customers', {'address.zip': 1, 'registered': 1}).collectionsharded"
        ),
        "ecommerce.customers"
    );
    assert_eq!(
        run(
            &mut s,
            "db.getSiblingDB('config').databases.findOne({_id: 'ecommerce'}).primary"
        ),
        "shard0000"
    );
}

#[test]
fn book_chapter_7_inbox_designs() {
    let mut s = shell();
    // B7-C11 … C15: fan-out on read, sharded by sender; reading by recipient broadcasts.
    run(&mut s, "sh.enableSharding('social')");
    run(&mut s, "use social");
    run(&mut s, "sh.shardCollection('social.inbox', {from: 1})");
    run(&mut s, "db.inbox.createIndex({to: 1, sent: 1})");
    run(
        &mut s,
        "var msg = {from: 'John', to: ['Mike', 'Billie'], sent: new Date(), message: 'Hey Mike, Billie'}; db.inbox.insert(msg);",
    );
    assert_eq!(
        run(
            &mut s,
            "db.inbox.find({to: 'Mike'}).sort({sent: -1}).toArray().length"
        ),
        "1"
    );
    // One chunk: every query goes to the one shard holding it.
    assert_eq!(
        run(
            &mut s,
            "db.inbox.find({to: 'Mike'}).sort({sent: -1}).explain().queryPlanner.winningPlan.stage"
        ),
        "SINGLE_SHARD"
    );
    run(
        &mut s,
        "sh.splitAt('social.inbox', {from: 'M'}); sh.moveChunk('social.inbox', {from: 'Z'}, 'shard0001')",
    );
    assert_eq!(
        run(
            &mut s,
            "db.inbox.find({to: 'Mike'}).sort({sent: -1}).explain().queryPlanner.winningPlan.stage"
        ),
        "SHARD_MERGE_SORT"
    );
    assert_eq!(
        run(
            &mut s,
            "db.inbox.find({from: 'John'}).explain().queryPlanner.winningPlan.stage"
        ),
        "SINGLE_SHARD"
    );
    // B7-C16: sharding the same collection again with another key fails (the book's erratum).
    let e = error(
        &mut s,
        "sh.shardCollection('social.inbox', {recipient: 1, sent: 1})",
    );
    assert!(e.contains("AlreadyInitialized"), "{e}");
    // B7-C17 … C19 on a fresh collection: fan-out on write, one document per recipient.
    run(
        &mut s,
        "sh.shardCollection('social.inbox2', {recipient: 1, sent: 1})",
    );
    run(
        &mut s,
        "var msg = {from: 'John', to: ['Mike', 'Billie'], sent: new Date(), message: 'Hey Mike, Billie'}",
    );
    run(
        &mut s,
        "for (recipient in msg.to) { msg.recipient = msg.to[recipient]; db.inbox2.insert(msg); }",
    );
    assert_eq!(
        run(
            &mut s,
            "db.inbox2.find({recipient: 'Mike'}).sort({sent: -1}).toArray()[0].recipient"
        ),
        "Mike"
    );
    assert_eq!(run(&mut s, "db.inbox2.countDocuments()"), "2");
    let shards = run(
        &mut s,
        "db.inbox2.find({recipient: 'Billie'}).explain().queryPlanner.winningPlan.shards.length",
    );
    assert_eq!(shards, "1");
    // B7-C20 … C22: buckets, with findAndModify upserts and update upserts on the full key.
    run(
        &mut s,
        "sh.shardCollection('social.inbox3', {owner: 1, sequence: 1})",
    );
    run(&mut s, "sh.shardCollection('social.users', {user_name: 1})");
    run(
        &mut s,
        "for (recipient in msg.to) { var count = db.users.findAndModify({query: {user_name: msg.to[recipient]}, update: {'$inc': {'msg_count': 1}}, upsert: true, new: true}).msg_count; var sequence = Math.floor(count/50); db.inbox3.update({owner: msg.to[recipient], sequence: sequence}, {$push: {'messages': msg}}, {upsert: true}); }",
    );
    assert_eq!(
        run(
            &mut s,
            "db.users.find().sort({user_name: 1}).toArray().map(u => u.user_name + ':' + u.msg_count).join()"
        ),
        "Billie:1,Mike:1"
    );
    assert_eq!(
        run(
            &mut s,
            "db.inbox3.find({owner: 'Mike'}).toArray()[0].messages.length"
        ),
        "1"
    );
    assert_eq!(
        run(&mut s, "db.inbox3.findOne({owner: 'Mike'}).sequence"),
        "0"
    );
}

#[test]
fn chunks_balancer_and_zones_over_simulated_time() {
    let mut s = shell();
    run(&mut s, "use logs");
    run(&mut s, "sh.shardCollection('logs.events', {t: 1})");
    run(
        &mut s,
        "for (var i = 0; i < 300; i++) db.events.insertOne({t: i, pad: 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'})",
    );
    let chunks: i32 = run(&mut s, "db.getSiblingDB('config').chunks.countDocuments()")
        .parse()
        .unwrap();
    assert!(chunks > 2, "{chunks}");
    assert_eq!(run(&mut s, "sh.getBalancerState()"), "true");
    run(&mut s, "sprout.advanceClock(120)");
    assert_eq!(
        run(
            &mut s,
            "db.getSiblingDB('config').chunks.countDocuments({shard: 'shard0001'}) > 0"
        ),
        "true"
    );
    assert_eq!(run(&mut s, "db.events.countDocuments()"), "300");
    run(&mut s, "sh.stopBalancer()");
    assert_eq!(run(&mut s, "sh.getBalancerState()"), "false");
    assert_eq!(run(&mut s, "sh.isBalancerRunning().mode"), "off");
    // splitAt, moveChunk and a zone (legacy tag names).
    run(&mut s, "use test");
    run(
        &mut s,
        "sh.shardCollection('test.c', {x: 1}); for (var i = 0; i < 10; i++) db.c.insertOne({x: i})",
    );
    run(&mut s, "sh.splitAt('test.c', {x: 5})");
    run(&mut s, "sh.moveChunk('test.c', {x: 7}, 'shard0001')");
    assert_eq!(
        run(
            &mut s,
            "db.c.find({x: 7}).explain().queryPlanner.winningPlan.shards[0].shardName"
        ),
        "shard0001"
    );
    assert_eq!(
        run(
            &mut s,
            "db.c.find().sort({x: -1}).limit(3).toArray().map(d => d.x).join()"
        ),
        "9,8,7"
    );
    run(
        &mut s,
        "sh.startBalancer(); sh.addShardTag('shard0001', 'EU'); sh.addTagRange('test.c', {x: 0}, {x: 2}, 'EU')",
    );
    run(&mut s, "sprout.advanceClock(30)");
    assert_eq!(
        run(
            &mut s,
            "db.c.find({x: 1}).explain().queryPlanner.winningPlan.shards[0].shardName"
        ),
        "shard0001"
    );
    assert_eq!(
        run(
            &mut s,
            "db.c.aggregate([{$group: {_id: null, n: {$sum: 1}, top: {$max: '$x'}}}]).toArray()[0].n"
        ),
        "10"
    );
    assert_eq!(run(&mut s, "db.c.distinct('x').length"), "10");
}

#[test]
fn status_and_distribution_print_as_mongosh() {
    let mut s = shell();
    run(
        &mut s,
        "sh.enableSharding('ecommerce'); sh.shardCollection('ecommerce.orders', {n: 1})",
    );
    run(&mut s, "use ecommerce");
    run(
        &mut s,
        "for (var i = 0; i < 4; i++) db.orders.insertOne({n: i}); sh.splitAt('ecommerce.orders', {n: 2}); sh.moveChunk('ecommerce.orders', {n: 3}, 'shard0001')",
    );
    let status = run(&mut s, "sh.status()");
    assert!(
        status.starts_with("shardingVersion\n{ _id: 1, clusterId: ObjectId("),
        "{status}"
    );
    for section in [
        "\n---\nshards\n[",
        "\n---\nautosplit\n{ 'Currently enabled': 'yes' }",
        "\n---\nbalancer\n",
        "'Migration Results for the last 24 hours': { '1': 'Success' }",
        "\n---\ndatabases\n[",
    ] {
        assert!(status.contains(section), "{section} in {status}");
    }
    assert!(status.contains("shardKey: { n: 1 }"), "{status}");
    assert!(
        status.contains("{ shard: 'shard0001', nChunks: 1 }"),
        "{status}"
    );
    let dist = run(&mut s, "db.orders.getShardDistribution()");
    assert!(
        dist.starts_with("Shard shard0000 at localhost:27018\n{\n  data: '"),
        "{dist}"
    );
    assert!(dist.contains("docs: 2,\n  chunks: 1,"), "{dist}");
    assert!(dist.contains("\n---\nTotals\n{"), "{dist}");
    assert!(dist.contains("'50 % docs in cluster'"), "{dist}");
    let e = error(&mut s, "db.other.getShardDistribution()");
    assert!(e.contains("Collection other is not sharded"), "{e}");
}

#[test]
fn the_cli_starts_connected_to_a_router() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sprout"))
        .args(["--sharded", "3", "--nodes", "2", "--eval"])
        .arg("db.getSiblingDB('config').shards.countDocuments() + ' shards, ' + db.hello().msg")
        .output()
        .expect("sprout runs");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("3 shards, isdbgrid"), "{text}");
    let bad = std::process::Command::new(env!("CARGO_BIN_EXE_sprout"))
        .args(["--sharded", "0", "--eval", "1"])
        .output()
        .expect("sprout runs");
    assert_eq!(bad.status.code(), Some(2));
}

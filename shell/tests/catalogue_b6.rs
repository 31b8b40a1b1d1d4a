//! Book B, chapter 6 ("Managing Data"): the capped-collection and TTL snippets (B6-C19 to C26),
//! through `Shell::eval` (mongosh style) and once through `sprout --eval`; and the replica-set
//! snippets (B6-C1 to C18: `rs.conf()`, tag sets, tag-targeted reads, custom write concerns) on
//! the simulated replica set (`engine::replication`).
//!
//! Where MongoDB 8.0 differs from the 3.0 book: a capped collection's `size` is stored as given
//! (10000), not rounded up to a multiple of 256 (SERVER-67246, 6.2); deletes from a capped
//! collection are allowed (since 5.3). Errata applied in the input: B6-C21's `" ordersQueue "` (E28)
//! is run as written, to show the error it gives, and then with the name corrected.

pub mod common;

use shell::Style;

#[test]
pub fn capped_collections() {
    let mut sh = common::shell(Style::Mongosh);
    let rows: Vec<(&str, &str, &str)> = vec![
        (
            "B6-C19",
            "db.createCollection(\"ordersQueue\",{capped: true, size: 10000})",
            "{ ok: 1 }",
        ),
        (
            "B6-C19",
            "var s = db.ordersQueue.stats(); [s.capped, s.maxSize].join()",
            "true,10000",
        ),
        ("B6-C19", "db.ordersQueue.isCapped()", "true"),
        // The book offers C20 as an alternative to C19: the name is taken now.
        (
            "B6-C20",
            "db.createCollection(\n \"ordersQueue\",\n {capped: true, size: 10000, max: 5000}\n)",
            "MongoServerError[NamespaceExists]: Collection test.ordersQueue already exists.",
        ),
        (
            "B6-C20",
            "db.createCollection(\n \"ordersQueue2\",\n {capped: true, size: 10000, max: 5000}\n)",
            "{ ok: 1 }",
        ),
        ("B6-C20", "db.ordersQueue2.stats().max", "5000"),
        // B6-C22's five orders, inserted in order.
        (
            "B6-C22",
            "for (var i = 1; i <= 5; i++) db.ordersQueue.insertOne({orderId: 'order_' + i, time: 1423539633910 + i}); db.ordersQueue.find().map(function (d) { return d.orderId }).join()",
            "order_1,order_2,order_3,order_4,order_5",
        ),
        (
            "B6-C23",
            "db.ordersQueue.find().sort({$natural: 1}).map(function (d) { return d.orderId }).join()",
            "order_1,order_2,order_3,order_4,order_5",
        ),
        (
            "B6-C24",
            "db.ordersQueue.find().sort({$natural: -1}).map(function (d) { return d.orderId }).join()",
            "order_5,order_4,order_3,order_2,order_1",
        ),
        // B6-C21 as printed: the padded name names no collection.
        (
            "B6-C21",
            "db.runCommand(\n {\"convertToCapped\": \" ordersQueue \", size: 100000}\n)",
            "MongoServerError[NamespaceNotFound]: source collection test. ordersQueue  does not exist",
        ),
        (
            "B6-C21",
            "db.plain.insertOne({a: 1}); db.runCommand({convertToCapped: \"plain\", size: 100000}).ok",
            "1",
        ),
        ("B6-C21", "db.plain.isCapped()", "true"),
    ];
    common::assert_rows(&mut sh, &rows);
}

#[test]
pub fn capped_collections_evict_the_oldest() {
    let mut sh = common::shell(Style::Mongosh);
    let rows: Vec<(&str, &str, &str)> = vec![
        (
            "B6-C20",
            "db.createCollection('q', {capped: true, size: 10000, max: 3})",
            "{ ok: 1 }",
        ),
        (
            "B6-C20",
            "for (var i = 1; i <= 5; i++) db.q.insertOne({n: i}); db.q.find().map(function (d) { return d.n }).join()",
            "3,4,5",
        ),
    ];
    common::assert_rows(&mut sh, &rows);
}

#[test]
pub fn ttl_indexes() {
    let mut sh = common::shell(Style::Mongosh);
    let rows: Vec<(&str, &str, &str)> = vec![
        (
            "B6-C25",
            "db.customers.createIndex(\n {accountConfirmationExpireAt: 1}, \n {expireAfterSeconds: 3600}\n)",
            "accountConfirmationExpireAt_1",
        ),
        // Confirmation deadlines 2 hours and 10 minutes ago, relative to the shell's clock.
        (
            "B6-C25",
            "db.customers.insertMany([{_id: 1, accountConfirmationExpireAt: new Date(sprout.clock().getTime() - 7200000)}, {_id: 2, accountConfirmationExpireAt: new Date(sprout.clock().getTime() - 600000)}]).acknowledged",
            "true",
        ),
        (
            "B6-C25",
            "sprout.advanceClock(60); db.customers.find().map(function (d) { return d._id }).join()",
            "2",
        ),
        (
            "B6-C26",
            "db.customers.dropIndexes(); db.customers.createIndex(\n {accountConfirmationExpireAt: 1}, \n {expireAfterSeconds: 0}\n)",
            "accountConfirmationExpireAt_1",
        ),
        (
            "B6-C26",
            "sprout.advanceClock(60); db.customers.countDocuments()",
            "0",
        ),
    ];
    common::assert_rows(&mut sh, &rows);
}

#[test]
pub fn capped_snippets_through_the_binary() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sprout"))
        .args([
            "--eval",
            "db.createCollection('ordersQueue', {capped: true, size: 10000}); for (var i = 1; i <= 3; i++) db.ordersQueue.insertOne({orderId: 'order_' + i}); db.ordersQueue.find().sort({$natural: -1}).map(function (d) { return d.orderId }).join()",
        ])
        .output()
        .expect("sprout runs");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "order_3,order_2,order_1\n"
    );
}

/// B6-C1 … C18: tag sets, tag-targeted reads and custom write concerns on the simulated
/// replica set `rs1`, with the book's later host addresses (172.17.0.7/.5/.6; the first
/// listing's .2/.3/.4 differ, as the catalogue notes). `rs.conf()` starts at version 1 here
/// (the book's set had been reconfigured three times before) and lists tag keys sorted, as
/// the book's output shows. The book's `readPref({tags: […]})` has no mode; the shell refuses
/// it, and the standard `readPref(mode, tagSets)` form is run instead, with the member that
/// served the read read from `explain().serverInfo.host`.
#[test]
pub fn replica_set_tags_and_write_concerns() {
    let mut sh = common::shell(Style::Mongosh);
    let initiate = "rs.initiate({_id: 'rs1', members: [{_id: 0, host: '172.17.0.7:27017'}, {_id: 1, host: '172.17.0.5:27017'}, {_id: 2, host: '172.17.0.6:27017'}]})";
    let served = |tags: &str, mode: &str| {
        format!(
            "db.customers.find({{username: 'customer5'}}).readPref('{mode}', [{tags}]).explain().serverInfo.host"
        )
    };
    let rows: Vec<(&str, String, &str)> = vec![
        ("B6-C1", initiate.to_string(), "{ ok: 1 }"),
        (
            "B6-C1",
            "rs.conf()._id + ' ' + rs.conf().members.map(function (m) { return m.host }).join()".into(),
            "rs1 172.17.0.7:27017,172.17.0.5:27017,172.17.0.6:27017",
        ),
        ("B6-C2", "cfg = rs.conf(); cfg.version".into(), "1"),
        (
            "B6-C3",
            "cfg.members[0].tags = {\"media\": \"ssd\", \"application\": \"main\"}\ncfg.members[1].tags = {\"media\": \"ssd\", \"application\": \"main\"}\ncfg.members[2].tags = {\"media\": \"ssd\", \"application\": \"report\"}".into(),
            "{ media: 'ssd', application: 'report' }",
        ),
        ("B6-C4", "rs.reconfig(cfg)".into(), "{ ok: 1 }"),
        (
            "B6-C5",
            "cfg = rs.conf(); [cfg.version, cfg.members[2].tags]".into(),
            "[ 2, { application: 'report', media: 'ssd' } ]",
        ),
        (
            "B6-C6",
            "db.customers.insertOne({username: 'customer5', email: 'customer5@customer.com'}).acknowledged".into(),
            "true",
        ),
        (
            "B6-C6",
            "db.customers.find(\n {username: \"customer5\"}\n).readPref(\n {\n tags: [{application: \"report\", media: \"ssd\"}]\n }\n)".into(),
            "MongoInvalidArgumentError: Invalid read preference: [object Object]",
        ),
        (
            "B6-C6",
            served("{application: 'report', media: 'ssd'}", "secondary"),
            "172.17.0.6",
        ),
        (
            "B6-C6",
            "db.customers.find({username: 'customer5'}).readPref('secondary', [{application: 'report', media: 'ssd'}]).toArray().length".into(),
            "1",
        ),
        (
            "B6-C7",
            "cfg = rs.conf(); cfg.members.length".into(),
            "3",
        ),
        (
            "B6-C7",
            "cfg.members[0].tags = {\"media\": \"ssd\", \"application\": \"main\", \"datacenter\": \"A\"}\ncfg.members[1].tags = {\"media\": \"ssd\", \"application\": \"main\", \"datacenter\": \"B\"}\ncfg.members[2].tags = {\"media\": \"ssd\", \"application\": \"report\", \"datacenter\": \"A\"}".into(),
            "{ media: 'ssd', application: 'report', datacenter: 'A' }",
        ),
        ("B6-C9", "rs.reconfig(cfg)".into(), "{ ok: 1 }"),
        (
            "B6-C10",
            "[rs.conf().version, rs.conf().members[1].tags]".into(),
            "[ 3, { application: 'main', datacenter: 'B', media: 'ssd' } ]",
        ),
        // The book's comments name the member that serves each read: 0, 2, 1.
        (
            "B6-C11",
            served("{application: 'main', media: 'ssd', datacenter: 'A'}", "nearest"),
            "172.17.0.7",
        ),
        (
            "B6-C11",
            served("{application: 'report', media: 'ssd', datacenter: 'A'}", "nearest"),
            "172.17.0.6",
        ),
        (
            "B6-C11",
            served("{application: 'main', media: 'ssd', datacenter: 'B'}", "nearest"),
            "172.17.0.5",
        ),
        // C12 tags five members: two more join first.
        (
            "B6-C12",
            "rs.add('172.17.0.8:27017'); rs.add('172.17.0.9:27017'); rs.conf().members.length".into(),
            "5",
        ),
        (
            "B6-C12",
            "cfg = rs.conf()\ncfg.members[0].tags = {\"riodc\": \"rack1\"}\ncfg.members[1].tags = {\"riodc\": \"rack2\"}\ncfg.members[2].tags = {\"riodc\": \"rack3\"}\ncfg.members[3].tags = {\"spdc\": \"rack1\"}\ncfg.members[4].tags = {\"spdc\": \"rack2\"}\nrs.reconfig(cfg)".into(),
            "{ ok: 1 }",
        ),
        (
            "B6-C13",
            "cfg = rs.conf()\ncfg.settings = {getLastErrorModes: {MultipleDC: {\"riodc\": 1, \"spdc\":1}}}".into(),
            "{ getLastErrorModes: { MultipleDC: { riodc: 1, spdc: 1 } } }",
        ),
        ("B6-C14", "rs.reconfig(cfg)".into(), "{ ok: 1 }"),
        (
            "B6-C14",
            "rs.conf().settings.getLastErrorModes".into(),
            "{ MultipleDC: { riodc: 1, spdc: 1 } }",
        ),
        (
            "B6-C15",
            "db.customers.insertOne(\n {\n username: \"customer6\", \n email: \"customer6@customer.com\",\n password: \"1185031ff57bfdaae7812dd705383c74\", \n followedSellers: [\"seller1\", \"seller3\"]\n }, \n {\n writeConcern: {w: \"MultipleDC\"} \n }\n).acknowledged".into(),
            "true",
        ),
        (
            "B6-C16",
            "cfg = rs.conf()\ncfg.settings = {getLastErrorModes: {MultipleDC: {\"riodc\": 2, \"spdc\":2}}}\nrs.reconfig(cfg)".into(),
            "{ ok: 1 }",
        ),
        (
            "B6-C17",
            "cfg = rs.conf()\ncfg.members[0].tags = {\"riodc\": \"rack1\", \"ssd\": \"ok\"}\ncfg.members[3].tags = {\"spdc\": \"rack1\", \"ssd\": \"ok\"}\nrs.reconfig(cfg)".into(),
            "{ ok: 1 }",
        ),
        (
            "B6-C17",
            "cfg.settings = {getLastErrorModes: {MultipleDC: {\"riodc\": 2, \"spdc\":2}, ssd: {\"ssd\": 1}}}\nrs.reconfig(cfg)".into(),
            "{ ok: 1 }",
        ),
        (
            "B6-C18",
            "db.customers.insertOne(\n {\n username: \"customer6\", \n email: \"customer6@customer.com\", \n password: \"1185031ff57bfdaae7812dd705383c74\", \n followedSellers: [\"seller1\", \"seller3\"]\n }, \n {\n writeConcern: {w: \"ssd\"} \n }\n).acknowledged".into(),
            "true",
        ),
        // With both spdc members stopped, MultipleDC cannot be met: the write is kept on the
        // members that are up, and the wait ends with MongoDB's write concern timeout (64).
        (
            "B6-C16",
            "sprout.replSet.stop('172.17.0.8:27017'); sprout.replSet.stop('172.17.0.9:27017'); db.customers.insertOne({username: 'customer7'}, {writeConcern: {w: 'MultipleDC', wtimeout: 1000}})".into(),
            "MongoWriteConcernError: waiting for replication timed out",
        ),
        (
            "B6-C16",
            "db.customers.countDocuments({username: 'customer7'})".into(),
            "1",
        ),
    ];
    common::assert_rows(&mut sh, &rows);
}

/// The book writes B6-C15 and C18 with the 3.0 shell's `insert`; in the legacy style it
/// answers with a `WriteResult`.
#[test]
pub fn custom_write_concern_with_the_legacy_insert() {
    let mut sh = common::shell(Style::Legacy);
    let rows: Vec<(&str, &str, &str)> = vec![
        (
            "B6-C13",
            "rs.initiate({_id: 'rs1', members: [{_id: 0, host: '172.17.0.2:27017', tags: {riodc: 'rack1', ssd: 'ok'}}, {_id: 1, host: '172.17.0.3:27017', tags: {riodc: 'rack2'}}, {_id: 2, host: '172.17.0.4:27017', tags: {spdc: 'rack1', ssd: 'ok'}}], settings: {getLastErrorModes: {MultipleDC: {riodc: 1, spdc: 1}, ssd: {ssd: 1}}}}).ok",
            "1",
        ),
        (
            "B6-C15",
            "db.customers.insert(\n {\n username: \"customer6\", \n email: \"customer6@customer.com\",\n password: \"1185031ff57bfdaae7812dd705383c74\", \n followedSellers: [\"seller1\", \"seller3\"]\n }, \n {\n writeConcern: {w: \"MultipleDC\"} \n }\n)",
            "WriteResult({ \"nInserted\" : 1 })",
        ),
        (
            "B6-C18",
            "db.customers.insert(\n {\n username: \"customer6\", \n email: \"customer6@customer.com\", \n password: \"1185031ff57bfdaae7812dd705383c74\", \n followedSellers: [\"seller1\", \"seller3\"]\n }, \n {\n writeConcern: {w: \"ssd\"} \n }\n)",
            "WriteResult({ \"nInserted\" : 1 })",
        ),
    ];
    common::assert_rows(&mut sh, &rows);
}

//! Book B, chapter 6 ("Managing Data"): the capped-collection and TTL snippets (B6-C19 to C26),
//! through `Shell::eval` (mongosh style) and once through `sprout --eval`. The replica-set
//! snippets (B6-C1 to C18: `rs.conf()`, tag sets, custom write concerns) need the simulated
//! replica set of a later issue and are not here.
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

//! Book B, chapter 3 ("Querying Documents"), snippet by snippet through `Shell::eval` (legacy
//! style, as the book prints), checked against MongoDB's results: which documents a query
//! returns, in order, and what a write leaves behind. Snippet ids are the catalogue's (B3-Cn);
//! templates (C2, C23, C25) are not runnable and are left out. C32 runs with its `writeConcert`
//! typo corrected (E15). C34 and C35 (`w: 3`) need a three-member replica set: here they get the
//! answer a standalone MongoDB 8.0 gives. 34 snippets run: 16 queries, 5 with the book's shown
//! output, 13 writes.

pub mod common;

use bson::Bson;
use shell::Style;

const PRODUCTS: &str = r#"db.products.insert([
{_id: ObjectId("54837b61f059b08503e200db"), name: "Product 1", description: "Product 1 description", price: 10,
 supplier: {name: "Supplier 1", telephone: "+552199998888"},
 review: [{customer: {email: "customer@customer.com"}, stars: 5}, {customer: {email: "customer2@customer.com"}, stars: 6}]},
{_id: ObjectId("54837b65f059b08503e200dc"), name: "Product 2", description: "Product 2 description", price: 20,
 supplier: {name: "Supplier 2", telephone: "+552188887777"},
 review: [{customer: {email: "customer@customer.com"}, stars: 10}, {customer: {email: "customer2@customer.com"}, stars: 2}]},
{_id: ObjectId("54837b69f059b08503e200dd"), name: "Product 3", description: "Product 3 description", price: 30,
 supplier: {name: "Supplier 3", telephone: "+552177776666"},
 review: [{customer: {email: "customer@customer.com"}, stars: 5}, {customer: {email: "customer2@customer.com"}, stars: 9}]}
])"#;

const JOHNCLAY: &str = r#"db.customers.insert({_id: ObjectId("54835d0ff059b08503e200d4"), username: "johnclay",
 email: "johnclay@crgv.com", password: "bf383e8469e98b44895d61b821748ae1",
 details: {firstName: "John", lastName: "Clay", gender: "male", age: 25},
 billingAddress: [{street: "Address 1, 111", city: "City One", state: "State One"}]})"#;

/// (id, snippet, names of the products returned, in order)
const QUERIES: &[(&str, &str, &[&str])] = &[
    (
        "B3-C4",
        "db.products.find()",
        &["Product 1", "Product 2", "Product 3"],
    ),
    (
        "B3-C5",
        "db.products.find({name: \"Product 1\"});",
        &["Product 1"],
    ),
    (
        "B3-C6",
        "db.products.find({price: {$gt: 10}});",
        &["Product 2", "Product 3"],
    ),
    (
        "B3-C7",
        "db.products.find({price: {$gte: 20}})",
        &["Product 2", "Product 3"],
    ),
    (
        "B3-C8",
        "db.products.find({price: {$lt: 20}})",
        &["Product 1"],
    ),
    (
        "B3-C9",
        "db.products.find({price: {$lte: 20}})",
        &["Product 1", "Product 2"],
    ),
    (
        "B3-C10",
        "db.products.find({price:{$in: [5, 10, 15]}})",
        &["Product 1"],
    ),
    (
        "B3-C11",
        "db.products.find({price:{$nin: [10, 20]}})",
        &["Product 3"],
    ),
    (
        "B3-C12",
        "db.products.find({name: {$ne: \"Product 1\"}})",
        &["Product 2", "Product 3"],
    ),
    (
        "B3-C13",
        "db.products.find({$and: [{price: {$lt: 30}}, {name: \"Product 2\"}]})",
        &["Product 2"],
    ),
    (
        "B3-C14",
        "db.products.find({$or: [{price: {$gt: 50}}, {name: \"Product 3\"}]})",
        &["Product 3"],
    ),
    (
        "B3-C15",
        "db.products.find({price: {$not: {$gt: 10}}})",
        &["Product 1"],
    ),
    (
        "B3-C16",
        "db.products.find({$nor:[{price:{$gt: 35}}, {price:{$lte: 20}}]})",
        &["Product 3"],
    ),
    ("B3-C17", "db.products.find({sku: {$exists: true}})", &[]),
    (
        "B3-C18",
        "db.products.find({name: {$regex: /2/}})",
        &["Product 2"],
    ),
    (
        "B3-C19",
        "db.products.find({review: {$elemMatch: {stars: {$gt: 5}, customer: {email: \"customer@customer.com\"}}}})",
        &["Product 2"],
    ),
];

fn names(v: &Option<Bson>) -> Vec<String> {
    match v {
        Some(Bson::Array(docs)) => docs
            .iter()
            .filter_map(|d| d.as_document())
            .map(|d| d.get_str("name").unwrap_or("?").to_string())
            .collect(),
        _ => Vec::new(),
    }
}

fn seeded() -> shell::Shell {
    let mut sh = common::shell(Style::Legacy);
    for seed in [PRODUCTS, JOHNCLAY] {
        let ev = sh.eval(seed);
        assert!(ev.error.is_none(), "{ev:?}");
    }
    sh
}

#[test]
pub fn chapter_3_queries() {
    let mut sh = seeded();
    let mut failures = Vec::new();
    for (id, snippet, expected) in QUERIES {
        let ev = sh.eval(snippet);
        let got = names(&ev.value);
        if ev.error.is_some() || got != *expected {
            failures.push(format!(
                "{id}: {snippet}\n  expected {expected:?}\n  got {got:?} {:?}",
                ev.error
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} snippets differ:\n{}",
        failures.len(),
        QUERIES.len(),
        failures.join("\n")
    );
}

/// Snippets whose printed output the book shows, compared as text (legacy style).
const SHOWN: &[(&str, &str, &str)] = &[
    (
        "B3-C1",
        "db.customers.find({\"username\": \"johnclay\"}).count()",
        "1",
    ),
    (
        "B3-C3",
        "db.customers.find(\n{\"username\": \"johnclay\"}, \n{_id: 1, username: 1, details: 1}\n).pretty()",
        "{\n\t\"_id\" : ObjectId(\"54835d0ff059b08503e200d4\"),\n\t\"username\" : \"johnclay\",\n\t\"details\" : {\n\t\t\"firstName\" : \"John\",\n\t\t\"lastName\" : \"Clay\",\n\t\t\"gender\" : \"male\",\n\t\t\"age\" : 25\n\t}\n}",
    ),
    (
        "B0-C3",
        "db.customers.find(\n{\"username\": \"johnclay\"},\n{_id: 1, username: 1, details: 1}\n)",
        "{ \"_id\" : ObjectId(\"54835d0ff059b08503e200d4\"), \"username\" : \"johnclay\", \"details\" : { \"firstName\" : \"John\", \"lastName\" : \"Clay\", \"gender\" : \"male\", \"age\" : 25 } }",
    ),
    (
        "B3-C20",
        "db.products.find({price: {$not: {$gt: 10}}}, {name: 1, description: 1}).pretty()",
        "{\n\t\"_id\" : ObjectId(\"54837b61f059b08503e200db\"),\n\t\"name\" : \"Product 1\",\n\t\"description\" : \"Product 1 description\"\n}",
    ),
    (
        "B3-C21",
        "db.products.find({price: {$not: {$gt: 10}}}, {_id: 0, name: 1, \"supplier.name\": 1})",
        "{ \"name\" : \"Product 1\", \"supplier\" : { \"name\" : \"Supplier 1\" } }",
    ),
    (
        "B3-C22",
        "db.products.find({price: {$gt: 20}}, {review: {$elemMatch: {stars: 5}}}).pretty()",
        "{\n\t\"_id\" : ObjectId(\"54837b69f059b08503e200dd\"),\n\t\"review\" : [\n\t\t{\n\t\t\t\"customer\" : {\n\t\t\t\t\"email\" : \"customer@customer.com\"\n\t\t\t},\n\t\t\t\"stars\" : 5\n\t\t}\n\t]\n}",
    ),
];

#[test]
pub fn chapter_3_shown_output() {
    let mut sh = seeded();
    let mut failures = Vec::new();
    for (id, snippet, expected) in SHOWN {
        let got = sh.eval(snippet).text();
        if got != *expected {
            failures.push(format!(
                "{id}: {snippet}\n  expected {expected:?}\n  got      {got:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The write snippets in the book's order, each with what the shell shows, then the
/// documents they leave (checked with tojson of a projection-free findOne).
const WRITES: &[(&str, &str, &str)] = &[
    (
        "B3-C24",
        "db.customers.insert({\n username: \"customer1\", \n email: \"customer1@customer.com\", \n password: hex_md5(\"customer1paswd\")\n})",
        "WriteResult({ \"nInserted\" : 1 })",
    ),
    (
        "B3-C24 check",
        "db.customers.findOne({username: \"customer1\"}, {_id: 0})",
        "{\n\t\"username\" : \"customer1\",\n\t\"email\" : \"customer1@customer.com\",\n\t\"password\" : \"b1c5098d0c6074db325b0b9dddb068e1\"\n}",
    ),
    (
        "B3-C26",
        "db.customers.update(\n {username: \"customer1\"}, \n {$set: {email: \"customer1@customer1.com\"}}\n)",
        "WriteResult({ \"nMatched\" : 1, \"nUpserted\" : 0, \"nModified\" : 1 })",
    ),
    (
        "B3-C26 check",
        "db.customers.findOne({username: \"customer1\"}, {_id: 0}).email",
        "customer1@customer1.com",
    ),
    (
        "B3-C27",
        "db.customers.update(\n {username: \"customer1\"}, \n {email: \"customer1@customer1.com\"}\n)",
        "WriteResult({ \"nMatched\" : 1, \"nUpserted\" : 0, \"nModified\" : 1 })",
    ),
    (
        "B3-C27 check",
        "db.customers.findOne({email: \"customer1@customer1.com\"}, {_id: 0})",
        "{ \"email\" : \"customer1@customer1.com\" }",
    ),
    (
        "B3-C28",
        "db.customers.update(\n {username: \"johnclay\"}, \n {$inc: {\"details.age\": 1}}\n)",
        "WriteResult({ \"nMatched\" : 1, \"nUpserted\" : 0, \"nModified\" : 1 })",
    ),
    (
        "B3-C28 check",
        "db.customers.findOne({username: \"johnclay\"}).details.age",
        "26",
    ),
    (
        "B3-C29",
        "db.customers.update(\n {email: \"customer1@customer1.com\"}, \n {$rename: {username: \"login\"}}\n)",
        "WriteResult({ \"nMatched\" : 1, \"nUpserted\" : 0, \"nModified\" : 0 })",
    ),
    (
        "B3-C30",
        "db.customers.update(\n {email: \"customer1@customer1.com\"}, \n {$unset: {login: \"\"}}\n)",
        "WriteResult({ \"nMatched\" : 1, \"nUpserted\" : 0, \"nModified\" : 0 })",
    ),
    (
        "B3-C31",
        "db.customers.insert(\n{username: \"customer1\", email: \"customer1@customer.com\", password: hex_md5(\"customer1paswd\")}, \n{writeConcern: {w: 0}}\n)",
        // Unacknowledged: the legacy shell prints the result empty (bulk_api.js WriteResult).
        "WriteResult({ })",
    ),
    // E15: the book's `writeConcert` is run as `writeConcern`.
    (
        "B3-C32",
        "db.customers.insert(\n{username: \"customer1\", email: \"customer1@customer.com\", password: hex_md5(\"customer1paswd\")}, \n{writeConcern: {w: 1}}\n)",
        "WriteResult({ \"nInserted\" : 1 })",
    ),
    (
        "B3-C33",
        "db.customers.insert(\n{username: \"customer1\", email: \"customer1@customer.com\", password: hex_md5(\"customer1paswd\")}, \n{writeConcern: {w: 1, j: true}}\n\n)",
        "WriteResult({ \"nInserted\" : 1 })",
    ),
    (
        "B3-C36",
        "db.customers.insert(\n[\n{username: \"customer3\", email: \"customer3@customer.com\", password: hex_md5(\"customer3paswd\")}, \n{username: \"customer2\", email: \"customer2@customer.com\", password: hex_md5(\"customer2paswd\")}, \n{username: \"customer1\", email: \"customer1@customer.com\", password: hex_md5(\"customer1paswd\")}\n]\n).nInserted",
        "3",
    ),
    (
        "B3-C36 check",
        "db.customers.findOne({username: \"customer2\"}).password",
        "9f6a4a5540b8ebdd3bec8a8d23efe6bb",
    ),
    (
        "B3-C37",
        "var bulk = db.customers.initializeUnorderedBulkOp();\nbulk.insert({username: \"customer1\", email: \"customer1@customer.com\", password: hex_md5(\"customer1paswd\")});\nbulk.insert({username: \"customer2\", email: \"customer2@customer.com\", password: hex_md5(\"customer2paswd\")});\nbulk.insert({username: \"customer3\", email: \"customer3@customer.com\", password: hex_md5(\"customer3paswd\")});\nbulk.execute({w: \"majority\", wtimeout: 3000}).nInserted;",
        "3",
    ),
    (
        "B3-C37 check",
        "db.customers.count({username: \"customer3\"})",
        "2",
    ),
];

#[test]
pub fn chapter_3_writes() {
    let mut sh = seeded();
    let mut failures = Vec::new();
    for (id, snippet, expected) in WRITES {
        let got = sh.eval(snippet).text();
        if got != *expected {
            failures.push(format!(
                "{id}:\n  expected {expected:?}\n  got      {got:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// B3-C34 and C35 ask three members to acknowledge; a standalone server refuses any `w` above 1.
#[test]
pub fn chapter_3_replica_write_concerns_on_a_standalone() {
    let mut sh = common::shell(Style::Mongosh);
    common::assert_rows(
        &mut sh,
        &[
            (
                "B3-C34",
                "db.customers.insert(\n{username: \"customer1\", email: \"customer1@customer.com\", password: hex_md5(\"customer1paswd\")}, \n{writeConcern: {w: 3}}\n)",
                // mongosh's warning, the first time insert runs in the session (not again below).
                "DeprecationWarning: Collection.insert() is deprecated. Use insertOne, insertMany, or bulkWrite.\nMongoServerError[BadValue]: cannot use 'w' > 1 when a host is not replicated",
            ),
            (
                "B3-C35",
                "db.customers.insert(\n{username: \"customer1\", email: \"customer1@customer.com\", password: hex_md5(\"customer1paswd\")}, \n{writeConcern: {w: 3, wtimeout: 3000}}\n)",
                "MongoServerError[BadValue]: cannot use 'w' > 1 when a host is not replicated",
            ),
            ("B3-C35", "db.customers.countDocuments()", "0"),
        ],
    );
}

/// The chapter through the real binary: B3-C24 and the B3-C21 projection in `sprout --eval`.
#[test]
pub fn chapter_3_runs_in_sprout_eval() {
    let script = format!(
        "{PRODUCTS};\ndb.customers.insert({{\n username: \"customer1\", \n email: \"customer1@customer.com\", \n password: hex_md5(\"customer1paswd\")\n}});\nprint(db.customers.findOne().password);\ndb.products.find({{price: {{$not: {{$gt: 10}}}}}}, {{_id: 0, name: 1, \"supplier.name\": 1}})"
    );
    let (out, err, code) = common::sprout(&["--quiet", "--legacy", "--eval", &script]);
    assert_eq!(err, "");
    assert_eq!(
        out,
        "b1c5098d0c6074db325b0b9dddb068e1\n{ \"name\" : \"Product 1\", \"supplier\" : { \"name\" : \"Supplier 1\" } }\n"
    );
    assert_eq!(code, Some(0));
}

/// With `w: 0` the write happens but nothing is acknowledged: mongosh's results say
/// `acknowledged: false` (the driver answers from the `_id`s it sent, and leaves the server's
/// counts undefined), the legacy shell prints an empty `WriteResult({ })`.
#[test]
pub fn unacknowledged_writes() {
    let w0 = "{writeConcern: {w: 0}}";
    let mut sh = common::shell(Style::Mongosh);
    common::assert_rows(
        &mut sh,
        &[
            (
                "insertOne",
                format!("db.c.insertOne({{_id: 1, a: 1}}, {w0})"),
                "{ acknowledged: false, insertedId: 1 }".to_string(),
            ),
            (
                "insertOne duplicate: no error comes back",
                format!("db.c.insertOne({{_id: 1, a: 1}}, {w0}).acknowledged"),
                "false".to_string(),
            ),
            (
                "insertMany",
                format!("db.c.insertMany([{{_id: 2}}, {{_id: 3}}], {w0})"),
                "{ acknowledged: false, insertedIds: { '0': 2, '1': 3 } }".to_string(),
            ),
            (
                "updateOne",
                format!(
                    "var r = db.c.updateOne({{_id: 1}}, {{$set: {{a: 2}}}}, {w0}); [r.acknowledged, r.insertedId, r.matchedCount, r.modifiedCount, r.upsertedCount].join()"
                ),
                "false,,,,0".to_string(),
            ),
            (
                "updateMany",
                format!("db.c.updateMany({{}}, {{$set: {{b: 1}}}}, {w0}).acknowledged"),
                "false".to_string(),
            ),
            (
                "replaceOne",
                format!("db.c.replaceOne({{_id: 3}}, {{c: 1}}, {w0}).acknowledged"),
                "false".to_string(),
            ),
            (
                "deleteOne",
                format!(
                    "var r = db.c.deleteOne({{_id: 2}}, {w0}); [r.acknowledged, r.deletedCount === undefined].join()"
                ),
                "false,true".to_string(),
            ),
            (
                "the writes happened",
                "JSON.stringify(db.c.find().toArray())".to_string(),
                r#"[{"_id":1,"a":2,"b":1},{"_id":3,"c":1}]"#.to_string(),
            ),
            (
                "deleteMany",
                format!("db.c.deleteMany({{}}, {w0}).acknowledged"),
                "false".to_string(),
            ),
            (
                "deleted",
                "db.c.countDocuments()".to_string(),
                "0".to_string(),
            ),
        ],
    );
    let mut sh = common::shell(Style::Legacy);
    common::assert_rows(
        &mut sh,
        &[
            (
                "legacy insert",
                format!("db.c.insert({{_id: 1}}, {w0})"),
                "WriteResult({ })".to_string(),
            ),
            (
                "its count is still there",
                format!("db.c.insert({{_id: 2}}, {w0}).nInserted"),
                "1".to_string(),
            ),
            (
                "legacy insert of an array",
                format!("db.c.insert([{{_id: 3}}, {{_id: 4}}], {w0})"),
                "BulkWriteResult({ })".to_string(),
            ),
            (
                "legacy update",
                format!("db.c.update({{_id: 1}}, {{$set: {{a: 1}}}}, {w0})"),
                "WriteResult({ })".to_string(),
            ),
            ("written", "db.c.count({a: 1})".to_string(), "1".to_string()),
            (
                "acknowledged as before",
                "db.c.insert({_id: 5})".to_string(),
                "WriteResult({ \"nInserted\" : 1 })".to_string(),
            ),
        ],
    );
}

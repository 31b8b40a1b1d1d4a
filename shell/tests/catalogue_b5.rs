//! Book B, chapter 5 ("Optimizing Queries"), every snippet in the book's order, through
//! `Shell::eval` (mongosh style) in the `ecommerce` database on the chapter's 10 products
//! (B5-D1) and 5 customers (B5-D2): results, winning plans (stage chain and index), and the
//! explain counters `nReturned`, `totalKeysExamined`, `totalDocsExamined`.
//!
//! Where MongoDB 8.0 differs from the 3.0 book (the rows assert 8.0):
//! - a COLLSCAN's `works` is documents + 1 (11), not + 2 (12), and `needTime` 7, not 8;
//! - projections are `PROJECTION_COVERED` / `PROJECTION_SIMPLE`, not `PROJECTION`;
//! - there is no `KEEP_MUTATIONS` stage: the hinted plan (B5-C16) is SORT > FETCH > IXSCAN;
//! - the multikey `$in` (B5-C8) examines 5 keys, not 4: both seller1 keys, the seller2 key that
//!   ends the first interval, the seller3 key, and the seller4 key that ends the scan;
//! - a projection of an embedded field (B5-C10) is covered since MongoDB 3.6: no FETCH,
//!   `totalDocsExamined` 0, where the book says it is not covered.
//!
//! Errata applied in the input: B5-C17's `readPref({mode: 'secondary'})` (E24) is run as
//! `readPref('secondary')`; the book's form is checked to fail as the Node driver fails it.

pub mod common;

use shell::Style;

const PRODUCTS: &str = r#"db.products.insert([
{"_id": ObjectId("54bee5c49a5bc523007bb779"), "name": "Product 1", "price": 56},
{"_id": ObjectId("54bee5c49a5bc523007bb77a"), "name": "Product 2", "price": 64},
{"_id": ObjectId("54bee5c49a5bc523007bb77b"), "name": "Product 3", "price": 53},
{"_id": ObjectId("54bee5c49a5bc523007bb77c"), "name": "Product 4", "price": 50},
{"_id": ObjectId("54bee5c49a5bc523007bb77d"), "name": "Product 5", "price": 89},
{"_id": ObjectId("54bee5c49a5bc523007bb77e"), "name": "Product 6", "price": 69},
{"_id": ObjectId("54bee5c49a5bc523007bb77f"), "name": "Product 7", "price": 71},
{"_id": ObjectId("54bee5c49a5bc523007bb780"), "name": "Product 8", "price": 40},
{"_id": ObjectId("54bee5c49a5bc523007bb781"), "name": "Product 9", "price": 41},
{"_id": ObjectId("54bee5c49a5bc523007bb782"), "name": "Product 10", "price": 53}
])"#;

const CUSTOMERS: &str = r#"db.customers.insert([
{"_id": ObjectId("54bf0d719a5bc523007bb78f"), "username": "customer1", "email": "customer1@customer.com", "password": "1185031ff57bfdaae7812dd705383c74", "followedSellers": ["seller3", "seller1"]},
{"_id": ObjectId("54bf0d719a5bc523007bb790"), "username": "customer2", "email": "customer2@customer.com", "password": "6362e1832398e7d8e83d3582a3b0c1ef", "followedSellers": ["seller2", "seller4"]},
{"_id": ObjectId("54bf0d719a5bc523007bb791"), "username": "customer3", "email": "customer3@customer.com", "password": "f2394e387b49e2fdda1b4c8a6c58ae4b", "followedSellers": ["seller2", "seller4"]},
{"_id": ObjectId("54bf0d719a5bc523007bb792"), "username": "customer4", "email": "customer4@customer.com", "password": "10619c6751a0169653355bb92119822a", "followedSellers": ["seller1", "seller2"]},
{"_id": ObjectId("54bf0d719a5bc523007bb793"), "username": "customer5", "email": "customer5@customer.com", "password": "30c25cf1d31cbccbd2d7f2100ffbc6b5", "followedSellers": ["seller2", "seller4"]}
])"#;

fn session() -> shell::Shell {
    let mut sh = common::shell(Style::Mongosh);
    for seed in ["use ecommerce", common::PLAN_HELPERS, PRODUCTS, CUSTOMERS] {
        let ev = sh.eval(seed);
        assert!(ev.error.is_none(), "{ev:?}");
    }
    sh
}

const C1: &str = "db.products.find({price: {$gt: 65}})";
const C2: &str = "db.products.find({price: {$gt: 65}}).explain(\"executionStats\")";
const C5: &str =
    "db.products.explain(\"executionStats\")\n.find({price: {$gt: 65}}, {price: 1, _id: 0})";
const C7: &str = "db.customers.find(\n{\n followedSellers: {\n $in : [\"seller1\", \"seller3\"]\n }\n}, \n{followedSellers: 1, _id: 0}\n)";
const C8: &str = "db.customers.explain(\"executionStats\").find(\n{\n followedSellers: {\n $in : [\"seller1\", \"seller3\"]\n }\n}, \n{followedSellers: 1, _id: 0}\n)";
const C13: &str = "db.products.find({price: {$gt: 10}}).sort({name: -1})";
const C14: &str =
    "db.products.explain(\"executionStats\").find({price: {$gt: 10}}).sort({name: -1})";
const C15: &str = "db.products.find(\n {price: {$gt: 10}}\n).sort({name: -1}).hint({price: -1})";
const C16: &str = "db.products.explain(\"executionStats\").find(\n {price: {$gt: 10}}).sort({name: -1}\n).hint({price: -1})";
const NAMES_DESC: &str = "Product 9,Product 8,Product 7,Product 6,Product 5,Product 4,Product 3,Product 2,Product 10,Product 1";

#[test]
pub fn collection_scan_index_scan_and_covered_query() {
    let mut sh = session();
    let c2 = format!("var c2 = {C2}");
    let c5 = format!("var c5 = ({C5}).finish()");
    let rows: Vec<(&str, String, &str)> = vec![
        // Natural order without an index.
        ("B5-C1", format!("field({C1}, 'name')"), "Product 5,Product 6,Product 7"),
        ("B5-C1", format!("plan({C1})"), "COLLSCAN"),
        ("B5-C2", c2, ""),
        ("B5-C2", "counters(c2)".into(), "3,0,10"),
        ("B5-C2", "c2.queryPlanner.namespace".into(), "ecommerce.products"),
        ("B5-C2", "c2.queryPlanner.parsedQuery".into(), "{ price: { '$gt': 65 } }"),
        ("B5-C2", "c2.queryPlanner.rejectedPlans.length".into(), "0"),
        ("B5-C2", "var s = c2.executionStats.executionStages; [s.stage, s.direction, s.nReturned, s.works, s.advanced, s.needTime, s.isEOF, s.docsExamined].join()".into(), "COLLSCAN,forward,3,11,3,7,1,10"),
        ("B5-C2", "c2.executionStats.executionStages.filter".into(), "{ price: { '$gt': 65 } }"),
        ("B5-C3", "db.products.createIndex({price: 1})".into(), "price_1"),
        ("B5-C3", format!("plan({C1})"), "FETCH > IXSCAN price_1"),
        ("B5-C3", format!("counters({C2})"), "3,3,3"),
        ("B5-C3", format!("{C2}.executionStats.executionStages.inputStage.nReturned"), "3"),
        // The same three documents, now in index order.
        ("B5-C3", format!("field({C1}, 'price')"), "69,71,89"),
        ("B5-C4", "db.products.find({price: {$gt: 65}}, {price: 1, _id: 0})".into(), "[ { price: 69 }, { price: 71 }, { price: 89 } ]"),
        ("B5-C5", c5, ""),
        ("B5-C5", "stagesOf(c5.queryPlanner.winningPlan)".into(), "PROJECTION_COVERED > IXSCAN price_1"),
        ("B5-C5", "counters(c5)".into(), "3,3,0"),
    ];
    common::assert_rows(&mut sh, &rows);
    // The book's two-line form is one input; it shows the explain document.
    assert!(
        sh.eval(C5).text().starts_with(
            "{\n  explainVersion: '1',\n  queryPlanner: {\n    namespace: 'ecommerce.products',"
        ),
        "B5-C5 shows the explain document"
    );
}

#[test]
pub fn multikey_index_is_not_covering() {
    let mut sh = session();
    let c8 = format!("var c8 = ({C8}).finish()");
    let rows: Vec<(&str, String, &str)> = vec![
        (
            "B5-C6",
            "db.customers.createIndex({followedSellers: 1})".into(),
            "followedSellers_1",
        ),
        (
            "B5-C7",
            C7.into(),
            "[\n  { followedSellers: [ 'seller3', 'seller1' ] },\n  { followedSellers: [ 'seller1', 'seller2' ] }\n]",
        ),
        ("B5-C8", c8, ""),
        (
            "B5-C8",
            "stagesOf(c8.queryPlanner.winningPlan)".into(),
            "PROJECTION_SIMPLE > FETCH > IXSCAN followedSellers_1",
        ),
        (
            "B5-C8",
            "c8.queryPlanner.namespace".into(),
            "ecommerce.customers",
        ),
        (
            "B5-C8",
            "c8.queryPlanner.winningPlan.inputStage.inputStage.keyPattern".into(),
            "{ followedSellers: 1 }",
        ),
        ("B5-C8", "counters(c8)".into(), "2,5,2"),
        ("B5-C8", "c8.queryPlanner.rejectedPlans.length".into(), "0"),
    ];
    common::assert_rows(&mut sh, &rows);
}

#[test]
pub fn embedded_field_index() {
    // B5-C9/C10 need products with a supplier (catalogue Part F): chapter 3's three.
    let mut sh = common::shell(Style::Mongosh);
    for seed in [
        "use ecommerce",
        common::PLAN_HELPERS,
        "db.products.insertMany([1, 2, 3].map(function (i) { return {name: 'Product ' + i, price: 10 * i, supplier: {name: 'Supplier ' + i}}; }))",
    ] {
        assert!(sh.eval(seed).error.is_none());
    }
    let c10 = "db.products.find(\n {\"supplier.name\": \"Supplier 1\"}, \n {\"supplier.name\": 1, _id: 0}\n)";
    let rows: Vec<(&str, String, &str)> = vec![
        (
            "B5-C9",
            "db.products.createIndex({\"supplier.name\": 1})".into(),
            "supplier.name_1",
        ),
        (
            "B5-C10",
            c10.into(),
            "[ { supplier: { name: 'Supplier 1' } } ]",
        ),
        (
            "B5-C10",
            format!("stagesOf({c10}.explain().queryPlanner.winningPlan)"),
            "PROJECTION_COVERED > IXSCAN supplier.name_1",
        ),
        (
            "B5-C10",
            format!("counters({c10}.explain('executionStats'))"),
            "1,1,0",
        ),
    ];
    common::assert_rows(&mut sh, &rows);
}

#[test]
pub fn sort_plans_and_hint() {
    let mut sh = session();
    sh.eval("db.products.createIndex({price: 1})");
    let c14 = format!("var c14 = ({C14}).finish()");
    let c16 = format!("var c16 = ({C16}).finish()");
    let rows: Vec<(&str, String, &str)> = vec![
        // One query shape, one plan: the name queries scan the collection alike.
        ("B5-C11", "db.products.find({name: 'Product 1'})\ndb.products.find({name: 'Product 5'})".into(), "[\n  {\n    _id: ObjectId('54bee5c49a5bc523007bb77d'),\n    name: 'Product 5',\n    price: 89\n  }\n]"),
        ("B5-C11", "plan(db.products.find({name: 'Product 1'})) + ' ' + plan(db.products.find({name: 'Product 5'}))".into(), "COLLSCAN COLLSCAN"),
        ("B5-C12", "db.products.createIndex({name: 1, price: -1})\ndb.products.createIndex({price: -1})".into(), "price_-1"),
        ("B5-C12", "db.products.getIndexes().map(function (i) { return i.name }).join()".into(), "_id_,price_1,name_1_price_-1,price_-1"),
        // Names sort as strings: "Product 10" comes before "Product 2".
        ("B5-C13", format!("field({C13}, 'name')"), NAMES_DESC),
        ("B5-C14", c14, ""),
        ("B5-C14", "stagesOf(c14.queryPlanner.winningPlan)".into(), "FETCH > IXSCAN name_1_price_-1"),
        ("B5-C14", "c14.queryPlanner.winningPlan.inputStage.keyPattern".into(), "{ name: 1, price: -1 }"),
        ("B5-C14", "counters(c14)".into(), "10,10,10"),
        ("B5-C14", "c14.queryPlanner.rejectedPlans.map(stagesOf).sort().join(' | ')".into(), "SORT > FETCH > IXSCAN price_-1 | SORT > FETCH > IXSCAN price_1"),
        ("B5-C15", format!("field({C15}, 'name')"), NAMES_DESC),
        ("B5-C16", c16, ""),
        ("B5-C16", "stagesOf(c16.queryPlanner.winningPlan)".into(), "SORT > FETCH > IXSCAN price_-1"),
        ("B5-C16", "counters(c16)".into(), "10,10,10"),
        ("B5-C16", "c16.queryPlanner.rejectedPlans.length".into(), "0"),
    ];
    common::assert_rows(&mut sh, &rows);
}

#[test]
pub fn read_preference() {
    let mut sh = session();
    common::assert_rows(
        &mut sh,
        &[
            (
                "B5-C17",
                "field(db.customers.find().readPref('secondary'), 'username')",
                "customer1,customer2,customer3,customer4,customer5",
            ),
            (
                "B5-C17",
                "db.customers.find().readPref({mode: 'secondary'})",
                "MongoInvalidArgumentError: Invalid read preference: [object Object]",
            ),
            (
                "B5-C17",
                "db.customers.find().readPref('secondaries')",
                "MongoInvalidArgumentError: Invalid read preference mode \"secondaries\"",
            ),
        ],
    );
}

/// The chapter through the real binary: B5-C1 to C5 in `sprout --eval`.
#[test]
pub fn chapter_5_runs_in_sprout_eval() {
    let script = format!(
        "{PRODUCTS};\nprint({C1}.toArray().length);\nvar e = {C2};\nprint(e.queryPlanner.winningPlan.stage, e.executionStats.totalDocsExamined);\nprint(db.products.createIndex({{price: 1}}));\nvar x = ({C5}).finish();\nprint(x.queryPlanner.winningPlan.stage, x.executionStats.totalDocsExamined);\ndb.products.find({{price: {{$gt: 65}}}}, {{price: 1, _id: 0}})"
    );
    let (out, err, code) = common::sprout(&["--quiet", "--eval", &script]);
    assert_eq!(err, "");
    // The book's `insert` in mongosh's style: mongosh's warning comes first.
    assert_eq!(
        out,
        "DeprecationWarning: Collection.insert() is deprecated. Use insertOne, insertMany, or bulkWrite.\n3\nCOLLSCAN 10\nprice_1\nPROJECTION_COVERED 0\n[ { price: 69 }, { price: 71 }, { price: 89 } ]\n"
    );
    assert_eq!(code, Some(0));
}

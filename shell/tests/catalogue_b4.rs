//! Book B, chapter 4 ("Indexing"), every snippet in the book's order, through `Shell::eval`
//! (mongosh style) on the chapter's `customers` document (B4-D3, which is B4-D2 plus the two
//! arrays), checked against MongoDB 8.0: the index names `createIndex` answers, what each query
//! returns and which plan it gets. The text-index snippets (B4-C21 to C27) are in
//! catalogue_b4_text.rs. Errata applied in the input: B4-C13's `#Query n` lines become `//`
//! comments (E18), B4-C20 gets its missing `)` (E19), B4-C25 is `{"$**": "text"}` (E20).
//!
//! Where MongoDB 8.0 differs from the 3.0 book: a query on a whole sub-document (B4-C9, C10)
//! does use the `{address: 1}` index — its bounds are the sub-document itself — and finds
//! nothing, where the book says the index is not used. With one document every candidate plan
//! ties; MongoDB 8.0 then prefers the plan whose index bounds have the longest equality prefix
//! (then the shortest key pattern), so B4-C14b moves to the `{state, street}` index once B4-C15
//! creates it, as the book says it should. The rows check both the candidate set (which indexes
//! *can* serve a query) and the winner.

pub mod common;

use shell::Style;

const CUSTOMER: &str = r#"db.customers.insert({
 "_id" : ObjectId("54aecd26867124b88608b4c9"),
 "username" : "customer1",
 "email" : "customer1@customer.com",
 "password" : "b1c5098d0c6074db325b0b9dddb068e1",
 "age" : 25,
 "address" : {
 "street" : "Street 1",
 "zipcode" : "87654321",
 "state" : "RJ"
 },
 "followedSellers" : [
 "seller1",
 "seller2",
 "seller3"
 ],
 "wishList" : [
 {
 "sku" : 123,
 "seller" : "seller1"
 },
 {
 "sku" : 456,
 "seller" : "seller2"
 },
 {
 "sku" : 678,
 "seller" : "seller3"
 }
 ]
})"#;

fn session() -> shell::Shell {
    let mut sh = common::shell(Style::Mongosh);
    for seed in [common::PLAN_HELPERS, CUSTOMER] {
        let ev = sh.eval(seed);
        assert!(ev.error.is_none(), "{ev:?}");
    }
    sh
}

const C7: &str = "db.customers.find(\n{\n \"address\" : \n { \n \"street\" : \"Street 1\", \n \"zipcode\" : \"87654321\", \n \"state\" : \"RJ\"\n }\n}\n)";
const C10: &str = "db.customers.find(\n{\n \"address\" : \n { \n \"state\" : \"RJ\", \n \"street\" : \"Street 1\", \n \"zipcode\" : \"87654321\" \n }\n}\n)";
const C11: &str = "db.customers.find(\n{\nusername: \"customer1\", \npassword: \"b1c5098d0c6074db325b0b9dddb068e1\"\n}\n)";
const C13_QUERY_1: &str = "db.customers.find({username: \"customer1\"})";
const C13_QUERY_2: &str = "db.customers.find({password: \"b1c5098d0c6074db325b0b9dddb068e1\"})";
const C13_QUERY_3: &str = "db.customers.find(\n{\n password: \"b1c5098d0c6074db325b0b9dddb068e1\", \n username: \"customer1\"\n}\n)";
const C14B: &str =
    "db.customers.find(\n{\n \"address.state\": \"RJ\", \n \"address.street\": \"Street 1\"\n}\n)";

fn wrap(f: &str, query: &str) -> String {
    format!("{f}({query})")
}

#[test]
pub fn single_field_and_sub_document_indexes() {
    let mut sh = session();
    let c7_found = wrap("field", &format!("{C7}, 'username'"));
    let c10_found = wrap("field", &format!("{C10}, 'username'"));
    let rows: Vec<(&str, String, &str)> = vec![
        ("B4-C1", "db.customers.createIndex({username: 1})".into(), "username_1"),
        ("B4-C2", "field(db.customers.find({username: \"customer1\"}), 'email')".into(), "customer1@customer.com"),
        ("B4-C2", "plan(db.customers.find({username: \"customer1\"}))".into(), "FETCH > IXSCAN username_1"),
        ("B4-C3", "db.customers.createIndex({username: -1})".into(), "username_-1"),
        ("B4-C4", "db.customers.createIndex({\"address.state\": 1})".into(), "address.state_1"),
        ("B4-C5", "field(db.customers.find({\"address.state\": \"RJ\"}), 'username')".into(), "customer1"),
        ("B4-C5", "plan(db.customers.find({\"address.state\": \"RJ\"}))".into(), "FETCH > IXSCAN address.state_1"),
        ("B4-C6", "db.customers.createIndex({address: 1})".into(), "address_1"),
        ("B4-C7", c7_found, "customer1"),
        ("B4-C7", wrap("plan", C7), "FETCH > IXSCAN address_1"),
        ("B4-C8", "db.customers.find({state: \"RJ\"}).toArray().length".into(), "0"),
        ("B4-C8", "plan(db.customers.find({state: \"RJ\"}))".into(), "COLLSCAN"),
        // 8.0: the partial sub-document is an index bound of its own; nothing matches it.
        ("B4-C9", "db.customers.find({address: {zipcode: \"87654321\"}}).toArray().length".into(), "0"),
        ("B4-C9", "plan(db.customers.find({address: {zipcode: \"87654321\"}}))".into(), "FETCH > IXSCAN address_1"),
        ("B4-C9", "counters(db.customers.find({address: {zipcode: \"87654321\"}}).explain('executionStats'))".into(), "0,0,0"),
        // The same fields in another order are another value: no match.
        ("B4-C10", c10_found, ""),
        ("B4-C10", wrap("plan", C10), "FETCH > IXSCAN address_1"),
    ];
    common::assert_rows(&mut sh, &rows);
}

#[test]
pub fn compound_indexes_and_prefixes() {
    let mut sh = session();
    sh.eval("db.customers.createIndex({username: 1}); db.customers.createIndex({username: -1}); db.customers.createIndex({\"address.state\": 1})");
    let c13 = format!(
        "// Query 1\n{C13_QUERY_1}\n// Query 2\n{C13_QUERY_2}\n// Query 3\n{C13_QUERY_3}\n.toArray().length"
    );
    let rows: Vec<(&str, String, &str)> = vec![
        ("B4-C11", wrap("field", &format!("{C11}, 'email'")), "customer1@customer.com"),
        ("B4-C11", wrap("candidates", C11), "username_-1 username_1"),
        ("B4-C11", wrap("plan", C11), "FETCH > IXSCAN username_1"),
        ("B4-C12", "db.customers.createIndex({username: 1, password: 1})".into(), "username_1_password_1"),
        // Query 1 and Query 3 can use the compound index (a prefix; field order in the query
        // does not matter), Query 2 cannot (password is not a prefix).
        ("B4-C13", c13, "1"),
        ("B4-C13", wrap("candidates", C13_QUERY_1), "username_-1 username_1 username_1_password_1"),
        ("B4-C13", wrap("candidates", C13_QUERY_2), "COLLSCAN"),
        ("B4-C13", wrap("candidates", C13_QUERY_3), "username_-1 username_1 username_1_password_1"),
        ("B4-C13", wrap("plan", C13_QUERY_1), "FETCH > IXSCAN username_1"),
        ("B4-C13", wrap("plan", C13_QUERY_3), "FETCH > IXSCAN username_1_password_1"),
        ("B4-C13", wrap("plan", C13_QUERY_2), "COLLSCAN"),
        ("B4-C14", "db.customers.createIndex(\n{\n \"address.state\":1, \n \"address.zipcode\": 1, \n \"address.street\": 1\n})".into(), "address.state_1_address.zipcode_1_address.street_1"),
        // The prefixes of the three-field index serve state, state+zipcode, state+zipcode+street
        // and state+street; zipcode, street and zipcode+street are not prefixes.
        ("B4-C14", "candidates(db.customers.find({\"address.state\": \"RJ\", \"address.zipcode\": \"87654321\"}))".into(), "address.state_1 address.state_1_address.zipcode_1_address.street_1"),
        ("B4-C14", "candidates(db.customers.find({\"address.zipcode\": \"87654321\"}))".into(), "COLLSCAN"),
        ("B4-C14", "candidates(db.customers.find({\"address.street\": \"Street 1\"}))".into(), "COLLSCAN"),
        ("B4-C14", "candidates(db.customers.find({\"address.zipcode\": \"87654321\", \"address.street\": \"Street 1\"}))".into(), "COLLSCAN"),
        ("B4-C14b", wrap("field", &format!("{C14B}, 'username'")), "customer1"),
        ("B4-C14b", wrap("candidates", C14B), "address.state_1 address.state_1_address.zipcode_1_address.street_1"),
        ("B4-C14b", wrap("plan", C14B), "FETCH > IXSCAN address.state_1"),
        ("B4-C15", "db.customers.createIndex({\"address.state\": 1, \"address.street\": 1})".into(), "address.state_1_address.street_1"),
        ("B4-C14b", wrap("candidates", C14B), "address.state_1 address.state_1_address.street_1 address.state_1_address.zipcode_1_address.street_1"),
        ("B4-C15", wrap("plan", C14B), "FETCH > IXSCAN address.state_1_address.street_1"),
        // The three-field index scans every zipcode for the state; the two-field one does not.
        ("B4-C15", "db.customers.find({\"address.state\": \"RJ\", \"address.street\": \"Street 1\"}).hint({\"address.state\": 1, \"address.street\": 1}).explain().queryPlanner.winningPlan.inputStage.indexBounds".into(), "{\n  'address.state': [ '[\"RJ\", \"RJ\"]' ],\n  'address.street': [ '[\"Street 1\", \"Street 1\"]' ]\n}"),
        ("B4-C15", "db.customers.find({\"address.state\": \"RJ\", \"address.street\": \"Street 1\"}).hint(\"address.state_1_address.zipcode_1_address.street_1\").explain().queryPlanner.winningPlan.inputStage.indexBounds['address.zipcode']".into(), "[ '[MinKey, MaxKey]' ]"),
    ];
    common::assert_rows(&mut sh, &rows);
}

#[test]
pub fn multikey_indexes_and_parallel_arrays() {
    let mut sh = session();
    common::assert_rows(
        &mut sh,
        &[
            (
                "B4-C16",
                "db.customers.createIndex({followedSellers: 1})",
                "followedSellers_1",
            ),
            (
                "B4-C17",
                "db.customers.createIndex({wishList: 1})",
                "wishList_1",
            ),
            (
                "B4-C18",
                "db.customers.createIndex({\"wishList.sku\": 1})",
                "wishList.sku_1",
            ),
            (
                "B4-C19",
                "db.customers.createIndex({\"wishList.seller\": 1})",
                "wishList.seller_1",
            ),
            (
                "B4-C18",
                "db.customers.find({\"wishList.sku\": 456}).explain().queryPlanner.winningPlan.inputStage.isMultiKey",
                "true",
            ),
            (
                "B4-C16",
                "field(db.customers.find({followedSellers: 'seller2'}), 'username')",
                "customer1",
            ),
            (
                "B4-C16",
                "plan(db.customers.find({followedSellers: 'seller2'}))",
                "FETCH > IXSCAN followedSellers_1",
            ),
            // Two array fields in one key: MongoDB names the array it met second first.
            (
                "B4-C20",
                "db.customers.createIndex({followedSellers: 1, wishList: 1})",
                "MongoServerError[CannotIndexParallelArrays]: cannot index parallel arrays [wishList] [followedSellers]",
            ),
            ("B4-C20", "db.customers.getIndexes().length", "5"),
        ],
    );
}

#[test]
pub fn ttl_unique_and_sparse_indexes() {
    let mut sh = common::shell(Style::Mongosh);
    sh.eval(common::PLAN_HELPERS);
    sh.eval(r#"db.customers.insert({ "_id" : ObjectId("5498da405d0ffdd8a07a87ba"), "username" : "customer1", "email" : "customer1@customer.com", "password" : "b1c5098d0c6074db325b0b9dddb068e1", "accountConfirmationExpireAt" : ISODate("2015-01-11T20:27:02.138Z") })"#);
    common::assert_rows(
        &mut sh,
        &[
            (
                "B4-C28",
                "db.customers.createIndex(\n{accountConfirmationExpireAt: 1}, {expireAfterSeconds: 3600}\n)",
                "accountConfirmationExpireAt_1",
            ),
            (
                "B4-C28",
                "db.customers.getIndexes()[1].expireAfterSeconds",
                "3600",
            ),
            // B4-C29 is the alternative to C28: on the same key with other options it conflicts.
            (
                "B4-C29",
                "db.customers.createIndex({\naccountConfirmationExpireAt: 1}, {expireAfterSeconds: 0}\n)",
                "MongoServerError[IndexOptionsConflict]: An equivalent index already exists with the same name but different options. Requested index: { v: 2, key: { accountConfirmationExpireAt: 1 }, name: \"accountConfirmationExpireAt_1\", expireAfterSeconds: 0 }, existing index: { v: 2, key: { accountConfirmationExpireAt: 1 }, name: \"accountConfirmationExpireAt_1\", expireAfterSeconds: 3600 }",
            ),
            (
                "B4-C29",
                "db.customers.dropIndex('accountConfirmationExpireAt_1').ok",
                "1",
            ),
            (
                "B4-C29",
                "db.customers.createIndex({\naccountConfirmationExpireAt: 1}, {expireAfterSeconds: 0}\n)",
                "accountConfirmationExpireAt_1",
            ),
            (
                "B4-C29",
                "db.customers.getIndexes()[1].expireAfterSeconds",
                "0",
            ),
        ],
    );

    let mut sh = common::shell(Style::Mongosh);
    sh.eval(common::PLAN_HELPERS);
    sh.eval(r#"db.customers.insert([
{ "_id" : ObjectId("54b2e184bc471cf3f4c0a314"), "username" : "customer1", "email" : "customer1@customer.com", "password" : "b1c5098d0c6074db325b0b9dddb068e1" },
{ "_id" : ObjectId("54b2e618bc471cf3f4c0a316"), "username" : "customer2", "email" : "customer2@customer.com", "password" : "9f6a4a5540b8ebdd3bec8a8d23efe6bb" },
{ "_id" : ObjectId("54b2e629bc471cf3f4c0a317"), "username" : "customer3", "email" : "customer3@customer.com" }
])"#);
    common::assert_rows(
        &mut sh,
        &[
            (
                "B4-C30",
                "db.customers.createIndex({username: 1}, {unique: true})",
                "username_1",
            ),
            (
                "B4-C30",
                "db.customers.insertOne({username: 'customer1'})",
                "MongoServerError: E11000 duplicate key error collection: test.customers index: username_1 dup key: { username: \"customer1\" }",
            ),
            (
                "B4-C31",
                "db.customers.createIndex({password: 1}, {sparse: true})",
                "password_1",
            ),
            // customer3 has no password: the sparse index holds two keys.
            (
                "B4-C31",
                "db.customers.find().hint({password: 1}).toArray().length",
                "2",
            ),
            (
                "B4-C32",
                "field(db.customers.find({password: \"9f6a4a5540b8ebdd3bec8a8d23efe6bb\"}), 'username')",
                "customer2",
            ),
            (
                "B4-C32",
                "plan(db.customers.find({password: \"9f6a4a5540b8ebdd3bec8a8d23efe6bb\"}))",
                "FETCH > IXSCAN password_1",
            ),
            // A sort may not use the sparse index: it would lose customer3.
            (
                "B4-C33",
                "field(db.customers.find().sort({password: -1}), 'username')",
                "customer1,customer2,customer3",
            ),
            (
                "B4-C33",
                "plan(db.customers.find().sort({password: -1}))",
                "SORT > COLLSCAN",
            ),
        ],
    );
}

/// The chapter through the real binary: `sprout --eval` runs B4-C1, C2 and the corrected C20.
#[test]
pub fn chapter_4_runs_in_sprout_eval() {
    let script = format!(
        "{CUSTOMER};\nprint(db.customers.createIndex({{username: 1}}));\nprint(db.customers.find({{username: \"customer1\"}}).explain().queryPlanner.winningPlan.inputStage.indexName);\ndb.customers.createIndex({{followedSellers: 1, wishList: 1}})"
    );
    let (out, err, code) = common::sprout(&["--quiet", "--eval", &script]);
    // The book's `insert` in mongosh's style: mongosh's warning comes first.
    assert_eq!(
        out,
        "DeprecationWarning: Collection.insert() is deprecated. Use insertOne, insertMany, or bulkWrite.\nusername_1\nusername_1\n"
    );
    assert_eq!(
        err,
        "MongoServerError[CannotIndexParallelArrays]: cannot index parallel arrays [wishList] [followedSellers]\n"
    );
    assert_eq!(code, Some(1));
}

/// Creating an index again under its default name with `unique` added changes its signature,
/// so MongoDB 8.0 answers IndexKeySpecsConflict (86), not IndexOptionsConflict; under another
/// name the unique index is a second index (`IndexDescriptor::compareIndexOptions`).
#[test]
pub fn index_conflicts_answer_as_mongodb_8_0() {
    let mut sh = common::shell(Style::Mongosh);
    common::assert_rows(
        &mut sh,
        &[
            ("same spec", "db.c.createIndex({username: 1})", "username_1"),
            (
                "same spec again",
                "db.c.createIndex({username: 1})",
                "username_1",
            ),
            (
                "unique added",
                "db.c.createIndex({username: 1}, {unique: true})",
                "MongoServerError[IndexKeySpecsConflict]: An existing index has the same name as the requested index. When index names are not specified, they are auto generated and can cause conflicts. Please refer to our documentation. Requested index: { v: 2, key: { username: 1 }, name: \"username_1\", unique: true }, existing index: { v: 2, key: { username: 1 }, name: \"username_1\" }",
            ),
            (
                "same key, other name",
                "db.c.createIndex({username: 1}, {name: \"login\"})",
                "MongoServerError[IndexOptionsConflict]: Index already exists with a different name: username_1",
            ),
            (
                "unique under another name",
                "db.c.createIndex({username: 1}, {unique: true, name: \"username_unique\"})",
                "username_unique",
            ),
            ("both exist", "db.c.getIndexes().length", "3"),
        ],
    );
}

//! Book B, chapter 4's text indexes (B4-C21 to B4-C27), through `Shell::eval` in mongosh style,
//! on the chapter 3 `products` (P1–P3), then `$text` searches with `{$meta: "textScore"}` in
//! projection and sort. Expected values are MongoDB 8.0's: index names from the key, one text
//! index per collection (code 67), the normalised spec `getIndexes` lists, and scores from
//! MongoDB's formula (term frequency × weight × (0.5 × count / tokens + 0.5)).

pub mod common;

use shell::Style;

const PRODUCTS: &str = r#"db.products.insertMany([
{_id: 1, name: "Product 1", description: "Product 1 description", price: 10, keywords: ["cheap", "blue"]},
{_id: 2, name: "Product 2", description: "Product 2 description", price: 20, keywords: ["blue"]},
{_id: 3, name: "Product 3", description: "Product 3 description", price: 30, keywords: ["expensive"]}
])"#;

fn session() -> shell::Shell {
    let mut sh = common::shell(Style::Mongosh);
    assert_eq!(sh.eval(PRODUCTS).error, None);
    sh
}

#[test]
pub fn c21_to_c23_one_text_index_per_collection() {
    let mut sh = session();
    assert_eq!(
        sh.eval(r#"db.products.createIndex({name: "text"})"#).text(),
        "name_text",
        "B4-C21"
    );
    // Every text index has the key {_fts: "text", _ftsx: 1}: MongoDB 8.0 finds the existing one
    // as an equivalent index whose weights differ, before its one-text-index check.
    let second = sh.eval(r#"db.products.createIndex({description: "text"})"#);
    assert_eq!(
        second.text(),
        "MongoServerError[IndexOptionsConflict]: An equivalent index already exists with a different name and options. Requested index: { v: 2, key: { _fts: \"text\", _ftsx: 1 }, name: \"description_text\", weights: { description: 1 }, default_language: \"english\", language_override: \"language\", textIndexVersion: 3 }, existing index: { v: 2, key: { _fts: \"text\", _ftsx: 1 }, name: \"name_text\", weights: { name: 1 }, default_language: \"english\", language_override: \"language\", textIndexVersion: 3 }",
        "B4-C22"
    );
    let third = sh.eval(r#"db.products.createIndex({keywords: "text"})"#);
    assert!(third.text().starts_with(
        "MongoServerError[IndexOptionsConflict]: An equivalent index already exists with a different name and options."
    ));
    assert_eq!(
        sh.eval("db.products.getIndexes()[1]").text(),
        "{\n  v: 2,\n  key: { _fts: 'text', _ftsx: 1 },\n  name: 'name_text',\n  weights: { name: 1 },\n  default_language: 'english',\n  language_override: 'language',\n  textIndexVersion: 3\n}"
    );
}

#[test]
pub fn c23_array_of_strings_is_searchable() {
    let mut sh = session();
    assert_eq!(
        sh.eval(r#"db.products.createIndex({keywords: "text"})"#)
            .text(),
        "keywords_text",
        "B4-C23"
    );
    assert_eq!(
        sh.eval(r#"db.products.find({$text: {$search: "blue"}}, {_id: 1}).sort({_id: 1})"#)
            .text(),
        "[ { _id: 1 }, { _id: 2 } ]"
    );
}

#[test]
pub fn c24_compound_and_c25_wildcard() {
    let mut sh = session();
    assert_eq!(
        sh.eval(r#"db.products.createIndex({name: "text", description: "text"})"#)
            .text(),
        "name_text_description_text",
        "B4-C24"
    );
    assert_eq!(
        sh.eval("db.products.getIndexes()[1].weights").text(),
        "{ description: 1, name: 1 }"
    );
    assert_eq!(
        sh.eval(r#"db.products.countDocuments({$text: {$search: "descriptions"}})"#)
            .text(),
        "3"
    );
    let mut sh = session();
    // The book prints {"$**","text"} (E20); the intended wildcard form:
    assert_eq!(
        sh.eval(r#"db.products.createIndex({"$**": "text"})"#)
            .text(),
        "$**_text",
        "B4-C25"
    );
    assert_eq!(
        sh.eval(r#"db.products.find({$text: {$search: "expensive"}}, {_id: 1})"#)
            .text(),
        "[ { _id: 3 } ]"
    );
}

#[test]
pub fn c26_portuguese_and_c27_none() {
    let mut sh = session();
    assert_eq!(
        sh.eval(r#"db.products.createIndex({name: "text"}, {default_language: "pt"})"#)
            .text(),
        "name_text",
        "B4-C26"
    );
    assert_eq!(
        sh.eval("db.products.getIndexes()[1].default_language")
            .text(),
        "pt"
    );
    let mut sh = session();
    assert_eq!(
        sh.eval(r#"db.products.createIndex({description: "text"}, {default_language: "none"})"#)
            .text(),
        "description_text",
        "B4-C27"
    );
    // No stemming with "none": "descriptions" is not "description".
    assert_eq!(
        sh.eval(r#"db.products.countDocuments({$text: {$search: "descriptions"}})"#)
            .text(),
        "0"
    );
    assert_eq!(
        sh.eval(r#"db.products.countDocuments({$text: {$search: "description"}})"#)
            .text(),
        "3"
    );
}

#[test]
pub fn text_score_in_projection_and_sort() {
    let mut sh = session();
    sh.eval(r#"db.products.createIndex({name: "text", description: "text"})"#);
    // "Product 1": 2 tokens, "1" once: 0.75. "Product 1 description": 3 tokens: 0.5/3 + 0.5.
    let expected = 0.75 + (0.5 / 3.0 + 0.5);
    assert_eq!(
        sh.eval(r#"db.products.find({$text: {$search: "1"}}, {_id: 0, name: 1, score: {$meta: "textScore"}})"#).text(),
        format!("[ {{ name: 'Product 1', score: {expected} }} ]")
    );
    assert_eq!(
        sh.eval(
            r#"db.products.find({$text: {$search: "product 2"}}, {_id: 1, score: {$meta: "textScore"}}).sort({score: {$meta: "textScore"}}).limit(1)"#
        )
        .text(),
        // Both terms ("2" and "product") score 0.75 + 2/3 in document 2; the others lack "2".
        format!("[ {{ _id: 2, score: {} }} ]", expected + expected)
    );
    let missing = sh.eval(r#"db.other.find({$text: {$search: "x"}})"#);
    assert_eq!(
        missing.text(),
        "MongoServerError[IndexNotFound]: text index required for $text query"
    );
}

//! Tests of collations: locales, strength levels and options against MongoDB's orders.

use std::cmp::Ordering;

use bson::{Bson, doc};

use super::*;
use crate::value::compare_values;

fn collation(spec: bson::Document) -> Rc<Collation> {
    Collation::from_document(&spec).unwrap().unwrap()
}

#[test]
fn simple_is_no_collation() {
    assert!(
        Collation::from_document(&doc! {"locale": "simple"})
            .unwrap()
            .is_none()
    );
}

#[test]
fn strength_decides_what_differences_count() {
    let primary = collation(doc! {"locale": "en", "strength": 1});
    let secondary = collation(doc! {"locale": "en_US", "strength": 2});
    let tertiary = collation(doc! {"locale": "en"});
    assert_eq!(primary.compare("cafe", "Café"), Ordering::Equal);
    assert_eq!(secondary.compare("ping", "PING"), Ordering::Equal);
    assert_ne!(secondary.compare("cafe", "café"), Ordering::Equal);
    assert_eq!(tertiary.compare("a", "A"), Ordering::Less);
    assert_eq!(tertiary.compare("A", "b"), Ordering::Less);
}

#[test]
fn options_reach_the_collator() {
    let numeric = collation(doc! {"locale": "en", "numericOrdering": true});
    assert_eq!(numeric.compare("10", "9"), Ordering::Greater);
    let upper = collation(doc! {"locale": "en", "caseFirst": "upper"});
    assert_eq!(upper.compare("A", "a"), Ordering::Less);
    let shifted = collation(doc! {"locale": "en", "alternate": "shifted", "strength": 3});
    assert_eq!(shifted.compare("a b", "ab"), Ordering::Equal);
}

#[test]
fn locale_errors_are_mongodbs() {
    let err = Collation::from_document(&doc! {"locale": "xx"}).unwrap_err();
    assert_eq!(err.code(), 2);
    assert_eq!(
        err.message,
        "Field 'locale' is invalid in: { locale: \"xx\" }"
    );
    let err = Collation::from_document(&doc! {"locale": "en-US"}).unwrap_err();
    assert_eq!(
        err.message,
        "Field 'locale' is invalid in: { locale: \"en-US\" }. Did you mean 'en_US'?"
    );
    let err = Collation::parse(&Bson::String("en".into()), "find.collation").unwrap_err();
    assert_eq!(err.code(), 14);
}

#[test]
fn the_resolved_spec_lists_every_option() {
    let c = collation(doc! {"locale": "fr_CA", "strength": 2});
    assert_eq!(
        c.to_document(),
        doc! {
            "locale": "fr_CA", "caseLevel": false, "caseFirst": "off", "strength": 2,
            "numericOrdering": false, "alternate": "non-ignorable", "maxVariable": "punct",
            "normalization": false, "backwards": true, "version": "57.1",
        }
    );
    // A stored spec parses back to the same collation.
    let again = collation(c.to_document());
    assert!(again == c);
}

#[test]
fn the_scope_puts_a_collation_in_force_and_restores_the_previous() {
    let a = Bson::String("ping".into());
    let b = Bson::String("PING".into());
    assert_ne!(compare_values(&a, &b), Ordering::Equal);
    {
        let _outer = CollationScope::enter(Some(collation(doc! {"locale": "en", "strength": 2})));
        assert_eq!(compare_values(&a, &b), Ordering::Equal);
        assert_eq!(
            compare_values(&Bson::Array(vec![a.clone()]), &Bson::Array(vec![b.clone()])),
            Ordering::Equal
        );
        assert_ne!(crate::value::compare_values_simple(&a, &b), Ordering::Equal);
        {
            let _inner = CollationScope::enter(None);
            assert_ne!(compare_values(&a, &b), Ordering::Equal);
        }
        assert_eq!(compare_values(&a, &b), Ordering::Equal);
    }
    assert!(active_is_simple());
}

#[test]
fn collated_queries_do_not_read_binary_index_keys() {
    let mut e = crate::Engine::new();
    e.run_command(
        "t",
        &doc! {"insert": "c", "documents": [{"_id": 1, "n": "bob"}, {"_id": 2, "n": "Bob"}, {"_id": 3, "n": "al"}]},
    );
    e.run_command(
        "t",
        &doc! {"createIndexes": "c", "indexes": [{"key": {"n": 1}, "name": "n_1"}, {"key": {"n": -1}, "name": "n_ci", "collation": {"locale": "en", "strength": 2}}]},
    );
    let ids = |r: bson::Document| -> Vec<Bson> {
        r.get_document("cursor")
            .unwrap()
            .get_array("firstBatch")
            .unwrap()
            .iter()
            .map(|d| d.as_document().unwrap().get("_id").unwrap().clone())
            .collect()
    };
    let r = e.run_command(
        "t",
        &doc! {"find": "c", "filter": {"n": "BOB"}, "sort": {"_id": 1}, "collation": {"locale": "en", "strength": 2}},
    );
    assert_eq!(ids(r), vec![Bson::Int32(1), Bson::Int32(2)]);
    // The simple-collation query may use n_1 but not the collated index.
    let r = e.run_command(
        "t",
        &doc! {"find": "c", "filter": {"n": "Bob"}, "hint": "n_1"},
    );
    assert_eq!(ids(r), vec![Bson::Int32(2)]);
    let listed = e.run_command("t", &doc! {"listIndexes": "c"});
    let specs = listed
        .get_document("cursor")
        .unwrap()
        .get_array("firstBatch")
        .unwrap();
    let collated = specs[2].as_document().unwrap();
    assert_eq!(
        collated
            .get_document("collation")
            .unwrap()
            .get_i32("strength")
            .unwrap(),
        2
    );
}

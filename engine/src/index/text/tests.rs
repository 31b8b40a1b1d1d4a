//! Text index specs, keys and scores against MongoDB 8.0's answers.

use bson::{Bson, Document, doc};

use super::query::ParsedTextQuery;
use super::score::score_document;
use super::spec::fix_spec;
use super::{Language, TextSpec};
use crate::index::{Index, IndexSpec};
use crate::matcher::TextQuery;

fn parse(spec: Document) -> IndexSpec {
    IndexSpec::parse(&spec).unwrap()
}

fn err(spec: Document) -> (i32, String) {
    let e = IndexSpec::parse(&spec).unwrap_err();
    (e.code(), e.message)
}

#[test]
fn specs_are_normalised_like_list_indexes_shows_them() {
    let s = parse(doc! {"key": {"content": "text"}});
    assert_eq!(s.name, "content_text");
    assert_eq!(
        s.document,
        doc! {"v": 2, "key": {"_fts": "text", "_ftsx": 1}, "name": "content_text",
        "weights": {"content": 1}, "default_language": "english",
        "language_override": "language", "textIndexVersion": 3}
    );
    let s = parse(
        doc! {"key": {"a": 1, "title": "text", "body": "text", "z": -1}, "name": "t",
        "default_language": "pt", "weights": {"title": 10.7}},
    );
    assert_eq!(
        s.document,
        doc! {"v": 2, "key": {"a": 1, "_fts": "text", "_ftsx": 1, "z": -1}, "name": "t",
        "default_language": "pt", "weights": {"body": 1, "title": 10},
        "language_override": "language", "textIndexVersion": 3}
    );
    let t = s.text.as_ref().unwrap();
    assert_eq!(t.prefix, ["a"]);
    assert_eq!(t.suffix, ["z"]);
    assert_eq!(t.default_language, Language::Portuguese);
    // The stored document parses back to the same index (what Engine::load does).
    let again = parse(s.document.clone());
    assert_eq!(again.document, s.document);
    assert_eq!(again.text, s.text);
    let w = parse(doc! {"key": {"$**": "text"}, "name": "$**_text"});
    assert!(w.text.as_ref().unwrap().wildcard);
    assert_eq!(
        w.document.get_document("weights").unwrap(),
        &doc! {"$**": 1}
    );
}

#[test]
fn bad_text_specs_fail_like_mongodb() {
    let cases = [
        (
            doc! {"key": {"a": "text", "b": 1, "c": "text"}, "name": "x"},
            "'text' fields in index must all be adjacent",
        ),
        (
            doc! {"key": {"a": "text"}, "name": "x", "weights": {"a": 0}},
            "text index weight must be in the exclusive interval (0,100000) but found: 0",
        ),
        (
            doc! {"key": {"a": "text"}, "name": "x", "weights": {"a": "x"}},
            "weight for text index needs numeric type",
        ),
        (
            doc! {"key": {"a": "text"}, "name": "x", "weights": 5},
            "text index option 'weights' must be an object",
        ),
        (
            doc! {"key": {"a": "text"}, "name": "x", "default_language": "klingon"},
            "default_language is not valid",
        ),
        (
            doc! {"key": {"a": "text"}, "name": "x", "default_language": 1},
            "default_language needs a string type",
        ),
        (
            doc! {"key": {"a": "text"}, "name": "x", "language_override": "$l"},
            "language_override is not valid",
        ),
        (
            doc! {"key": {"a": "text"}, "name": "x", "textIndexVersion": 7},
            "bad textIndexVersion: 7",
        ),
        (
            doc! {"key": {"a": "text", "b": 2}, "name": "x"},
            "expected value 1 or -1 for non-text key in compound index",
        ),
        (
            doc! {"key": {"_ftsx": 1, "a": "text"}, "name": "x"},
            "text index with reserved fields _fts/_ftsx not allowed",
        ),
        (
            doc! {"key": {"a": "text"}, "name": "x", "weights": {"b.$c": 2}},
            "weight cannot have path component with $ prefix",
        ),
    ];
    for (spec, message) in cases {
        assert_eq!(err(spec), (67, message.to_string()));
    }
    assert_eq!(
        err(doc! {"key": {"a": 1}, "name": "x", "weights": {"a": 1}}).0,
        197
    );
}

fn text_spec(spec: Document) -> TextSpec {
    TextSpec::from_fixed(&fix_spec(&spec).unwrap()).unwrap()
}

#[test]
fn scores_follow_mongodb_formula() {
    let spec = text_spec(doc! {"key": {"content": "text"}, "name": "c"});
    // One token "coffee" of one: coefficient 1, and the raw-string boost does not apply
    // ("coffe" differs from "coffee").
    let s = score_document(&spec, &doc! {"content": "coffee"}).unwrap();
    assert_eq!(s.get("coffe"), Some(&1.0));
    // "shop" twice in three tokens: freq 1.5, coeff 0.5*2/3+0.5.
    let s = score_document(&spec, &doc! {"content": "coffee shop shop"}).unwrap();
    let want = 1.5 * (0.5 * 2.0 / 3.0 + 0.5);
    assert!((s["shop"] - want).abs() < 1e-12);
    // The exact raw string gets the 1.1 boost.
    let s = score_document(&spec, &doc! {"content": "tea"}).unwrap();
    assert!((s["tea"] - 1.1).abs() < 1e-12);
    // Weights multiply; arrays of strings are read element by element.
    let spec =
        text_spec(doc! {"key": {"a": "text", "b": "text"}, "name": "c", "weights": {"a": 3}});
    let s = score_document(&spec, &doc! {"a": "java", "b": ["java", "cake"]}).unwrap();
    assert!((s["java"] - (3.0 * 1.1 + 1.1)).abs() < 1e-12);
}

#[test]
fn language_override_switches_stemming_and_stop_words() {
    let spec = text_spec(doc! {"key": {"t": "text"}, "name": "c"});
    let s = score_document(&spec, &doc! {"t": "the cats", "language": "none"}).unwrap();
    assert!(s.contains_key("the") && s.contains_key("cats"));
    let s = score_document(&spec, &doc! {"t": "the cats"}).unwrap();
    assert_eq!(s.keys().collect::<Vec<_>>(), ["cat"]);
    let e = score_document(&spec, &doc! {"t": "x", "language": "xx"}).unwrap_err();
    assert_eq!(
        (e.code(), e.message.as_str()),
        (17262, "language override unsupported: xx")
    );
    let e = score_document(&spec, &doc! {"t": "x", "language": 1}).unwrap_err();
    assert_eq!(e.code(), 17261);
}

fn query(search: &str) -> ParsedTextQuery {
    let q = TextQuery {
        search: search.to_string(),
        language: None,
        case_sensitive: false,
        diacritic_sensitive: false,
    };
    ParsedTextQuery::parse(&q, Language::English).unwrap()
}

#[test]
fn search_strings_parse_like_mongodb() {
    let q = query("coffee -shop \"cold brew\" -\"iced tea\" the");
    assert_eq!(
        q.to_document(),
        doc! {"terms": ["brew", "coffe", "cold"], "negatedTerms": ["shop"],
        "phrases": ["cold brew"], "negatedPhrases": ["iced tea"]}
    );
    // "- foo" does not negate; "-foo-bar" negates both.
    let q = query("- foo -bar-baz");
    assert_eq!(q.terms.iter().collect::<Vec<_>>(), ["foo"]);
    assert_eq!(q.negated_terms.iter().collect::<Vec<_>>(), ["bar", "baz"]);
    let bad = TextQuery {
        search: "x".into(),
        language: Some("xx".into()),
        case_sensitive: false,
        diacritic_sensitive: false,
    };
    let e = ParsedTextQuery::parse(&bad, Language::English).unwrap_err();
    assert_eq!(
        (e.code(), e.message.as_str()),
        (2, "unsupported language: \"xx\" for text index version 3")
    );
}

#[test]
fn index_keys_are_terms_with_scores() {
    let spec = parse(doc! {"key": {"store": 1, "content": "text"}, "name": "t"});
    let mut ix = Index::new(spec);
    let k = ix
        .keys_for(&doc! {"store": "A", "content": "coffee and cakes"})
        .unwrap()
        .unwrap();
    assert_eq!(
        k.keys,
        vec![
            vec![
                Bson::String("A".into()),
                Bson::String("cake".into()),
                Bson::Double(0.75)
            ],
            vec![
                Bson::String("A".into()),
                Bson::String("coffe".into()),
                Bson::Double(0.75)
            ],
        ]
    );
    ix.insert(&k, 1);
    assert!(ix.is_multikey());
    let e = ix
        .keys_for(&doc! {"store": [1], "content": "x"})
        .unwrap_err();
    assert_eq!(e.code(), 201);
    let none = ix.keys_for(&doc! {"content": 5}).unwrap().unwrap();
    assert!(none.keys.is_empty());
}

/// A text index's other fields may not run through or hold an array, unless through a
/// position: CannotBuildIndexKeys naming the field and the document, as MongoDB 8.0's
/// `extractNonFTSKeyElement` (jstests/core/fts_array.js).
#[test]
fn arrays_along_the_other_fields_are_refused() {
    let prefixed = Index::new(parse(
        doc! {"key": {"a.b": 1, "words": "text"}, "name": "t"},
    ));
    for d in [
        doc! {"a": {"b": []}, "words": "omnibus"},
        doc! {"a": {"b": [1, 2]}, "words": "omnibus"},
        doc! {"a": [], "words": "omnibus"},
        doc! {"a": [{"b": 1}], "words": "omnibus"},
    ] {
        let e = prefixed.keys_for(&d).unwrap_err();
        assert_eq!(e.code(), 201, "{d}");
    }
    let e = prefixed
        .keys_for(&doc! {"a": {"b": [1]}, "words": "omnibus"})
        .unwrap_err();
    assert_eq!(
        e.message,
        "Field 'a.b' of text index contains an array in document: { a: { b: [ 1 ] }, words: \"omnibus\" }"
    );
    let suffixed = Index::new(parse(
        doc! {"key": {"words": "text", "y.z": 1}, "name": "t"},
    ));
    let e = suffixed
        .keys_for(&doc! {"words": "macerate", "y": [{"z": 1}]})
        .unwrap_err();
    assert_eq!(e.code(), 201);
    // Through a position: the element, which may not itself be an array.
    let positional = Index::new(parse(
        doc! {"key": {"a.0": 1, "words": "text"}, "name": "t"},
    ));
    let k = positional
        .keys_for(&doc! {"a": [0, 1, 2], "words": "dander"})
        .unwrap()
        .unwrap();
    assert_eq!(k.keys[0][0], Bson::Int32(0));
    let e = positional
        .keys_for(&doc! {"a": [[8, 9], 1, 2], "words": "dander"})
        .unwrap_err();
    assert_eq!(e.code(), 201);
    let deeper = Index::new(parse(
        doc! {"key": {"a.0.1": 1, "words": "text"}, "name": "t"},
    ));
    let k = deeper
        .keys_for(&doc! {"a": [[8, 9], 1, 2], "words": "dander"})
        .unwrap()
        .unwrap();
    assert_eq!(k.keys[0][0], Bson::Int32(9));
}

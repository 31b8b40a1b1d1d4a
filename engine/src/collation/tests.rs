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
fn french_backwards_follows_the_spec_not_the_locale() {
    // The classic French example: accents compared from the end of the word when backwards.
    let words = ["cote", "côte", "coté", "côté"];
    let sorted = |spec: bson::Document| {
        let c = collation(spec);
        let mut w = words.to_vec();
        w.sort_by(|a, b| c.compare(a, b));
        w
    };
    let forward = ["cote", "coté", "côte", "côté"];
    assert_eq!(sorted(doc! {"locale": "fr"}), forward);
    assert_eq!(sorted(doc! {"locale": "fr", "backwards": true}), words);
    assert_eq!(sorted(doc! {"locale": "fr_CA"}), words);
    assert_eq!(
        sorted(doc! {"locale": "fr_CA", "backwards": false}),
        forward
    );
    let c = collation(doc! {"locale": "fr", "backwards": true});
    assert_eq!(c.compare("côte", "coté"), Ordering::Less);
    // The spec keeps the locale as given.
    assert_eq!(c.to_document().get_str("locale").unwrap(), "fr");
    assert!(c.to_document().get_bool("backwards").unwrap());
    // Other locales cannot change the direction.
    let err = Collation::parse(
        &Bson::Document(doc! {"locale": "de", "backwards": true}),
        "c",
    )
    .unwrap_err();
    assert_eq!(err.code(), 238);
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

/// The shipped tailoring files (engine/data/collation/), by name.
fn shipped_files() -> std::collections::BTreeMap<String, Vec<u8>> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/collation");
    let mut files = std::collections::BTreeMap::new();
    for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.ends_with(".postcard") {
            files.insert(name, std::fs::read(entry.path()).unwrap());
        }
    }
    files
}

/// The browser fetches the tailoring files that `data::export` writes from the compiled data; they
/// must be those of the ICU4X version and locale table built here. `SPROUT_WRITE_COLLATION_DATA=1`
/// rewrites them.
#[test]
fn shipped_tailoring_files_are_current() {
    let wanted = data::export::tailoring_files();
    if std::env::var_os("SPROUT_WRITE_COLLATION_DATA").is_some() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/collation");
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for (name, bytes) in &wanted {
            std::fs::write(dir.join(name), bytes).unwrap();
        }
    }
    let shipped = shipped_files();
    assert_eq!(
        shipped.keys().collect::<Vec<_>>(),
        wanted.keys().collect::<Vec<_>>(),
        "engine/data/collation/ is out of date: run this test with SPROUT_WRITE_COLLATION_DATA=1"
    );
    for (name, bytes) in &wanted {
        assert!(
            shipped[name] == *bytes,
            "engine/data/collation/{name} is out of date: run this test with SPROUT_WRITE_COLLATION_DATA=1"
        );
    }
    // The tailorings of the CJK locales are most of the data; `en` and `fr_CA` (its accent order
    // is a metadata flag) have none.
    assert!(wanted.contains_key("zh.postcard") && wanted.contains_key("sv.postcard"));
    assert!(!wanted.contains_key("en.postcard") && !wanted.contains_key("fr_CA.postcard"));
    // `fr` has no tailoring either, so `fr` with `backwards` is `fr_CA`'s order.
    assert!(!wanted.contains_key("fr.postcard"));
}

/// Reads the tailoring files from memory, noting which were asked for.
fn load_from(
    files: std::collections::BTreeMap<String, Vec<u8>>,
) -> Rc<std::cell::RefCell<Vec<String>>> {
    let asked = Rc::new(std::cell::RefCell::new(Vec::new()));
    let seen = Rc::clone(&asked);
    data::set_tailoring_loader(Box::new(move |name| {
        seen.borrow_mut().push(name.to_string());
        files
            .get(name)
            .cloned()
            .ok_or_else(|| format!("{name}: 404 Not Found"))
    }));
    asked
}

/// Words that tell locales apart: accents and their order (French Canadian), letters that
/// tailorings add or move (ß, å, ñ, ch, ll, ı), scripts whose order differs by locale (Han, kana,
/// Hangul, Cyrillic, Arabic, Thai), digits and punctuation.
const WORDS: &[&str] = &[
    "a", "A", "á", "à", "ä", "å", "æ", "b", "c", "č", "ch", "Ch", "cote", "coté", "côte", "côté",
    "d", "ð", "e", "é", "ê", "f", "g", "ğ", "h", "i", "ı", "İ", "j", "l", "ll", "ł", "n", "ñ", "o",
    "ö", "ø", "œ", "r", "ř", "s", "ß", "ss", "š", "t", "þ", "u", "ü", "v", "w", "y", "z", "ž",
    "10", "9", "-", " ", "a b", "ab", "中", "文", "汉", "字", "阿", "啊", "日本", "か", "カ", "が",
    "한", "국", "가", "а", "б", "ё", "е", "ї", "ا", "ب", "ก", "ข", "ᄀ", "ㄅ", "ㄆ",
];

/// Every MongoDB locale collates the same with its tailorings read from the files as with the
/// compiled data, at every strength and with the options that change the order.
#[test]
fn tailoring_files_collate_as_the_compiled_data() {
    let asked = load_from(data::export::tailoring_files());
    let specs = [
        doc! {},
        doc! {"strength": 1},
        doc! {"strength": 2},
        doc! {"strength": 4, "alternate": "shifted"},
        doc! {"strength": 5},
        doc! {"caseFirst": "upper", "numericOrdering": true},
        doc! {"caseLevel": true, "strength": 1},
    ];
    let mut checked = 0;
    for base in locales::bases() {
        for locale in locales::with_variants(base) {
            for extra in &specs {
                let mut spec = doc! {"locale": locale.clone()};
                spec.extend(extra.clone());
                let parsed = CollationSpec::parse(&spec).unwrap();
                let compiled = build_collator(&parsed).unwrap();
                let (prefs, options) = icu_inputs(&parsed);
                let loaded = build_split(&parsed, prefs, options).unwrap();
                assert!(matches!(loaded, IcuCollation::Loaded(_)));
                assert_eq!(
                    format!("{:?}", compiled.resolved_options()),
                    format!("{:?}", loaded.resolved_options()),
                    "{spec:?}"
                );
                for a in WORDS {
                    for b in WORDS {
                        assert_eq!(
                            compiled.compare(a, b),
                            loaded.compare(a, b),
                            "{spec:?}: {a:?} vs {b:?}"
                        );
                    }
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 7 * 150, "{checked}");
    // Each file is read once, and only for locales with a tailoring.
    let asked = asked.borrow();
    let mut unique = asked.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), asked.len(), "{asked:?}");
    assert!(asked.iter().any(|f| f == "de.postcard"));
    assert!(!asked.iter().any(|f| f == "en.postcard"));
}

/// A tailoring file that cannot be read fails the collation with a clear error; a locale without
/// a tailoring needs no file; the next use of the failed locale tries again.
#[test]
fn an_unreadable_tailoring_file_is_a_clear_error() {
    let mut files = data::export::tailoring_files();
    let sv = files.remove("sv.postcard").unwrap();
    let asked = load_from(files);
    let parsed = CollationSpec::parse(&doc! {"locale": "sv"}).unwrap();
    let (prefs, options) = icu_inputs(&parsed);
    let err = build_split(&parsed, prefs, options).err().unwrap();
    assert_eq!(err.code(), 96);
    assert_eq!(
        err.message,
        "Failed to create collator: the collation data of locale 'sv' (sv.postcard) could not be \
         loaded: sv.postcard: 404 Not Found"
    );
    assert_eq!(*asked.borrow(), ["sv.postcard"]);
    let en = CollationSpec::parse(&doc! {"locale": "en_US"}).unwrap();
    let (prefs, options) = icu_inputs(&en);
    assert!(build_split(&en, prefs, options).is_ok());
    assert_eq!(asked.borrow().len(), 1);
    // Served now: the same locale builds.
    let mut served = std::collections::BTreeMap::new();
    served.insert("sv.postcard".to_string(), sv);
    load_from(served);
    let (prefs, options) = icu_inputs(&parsed);
    let sv = build_split(&parsed, prefs, options).unwrap();
    assert_eq!(sv.compare("ö", "z"), Ordering::Greater);
    // Garbage is refused, not trusted.
    let mut garbage = std::collections::BTreeMap::new();
    garbage.insert("da.postcard".to_string(), b"not a blob".to_vec());
    load_from(garbage);
    let da = CollationSpec::parse(&doc! {"locale": "da"}).unwrap();
    let (prefs, options) = icu_inputs(&da);
    let err = build_split(&da, prefs, options).err().unwrap();
    assert!(
        err.message.contains("is not collation data"),
        "{}",
        err.message
    );
}

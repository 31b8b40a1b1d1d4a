//! A text index's specification. `createIndexes` normalises the user's spec as MongoDB's
//! `FTSSpec::fixSpec` does: the text fields of the key pattern become `_fts: "text", _ftsx: 1`
//! (ordinary fields before and after stay as prefix and suffix), the fields move into
//! `weights` (sorted by name, integer weights), and `default_language` (default `english`),
//! `language_override` (default `language`) and `textIndexVersion` (3) are filled in.

use std::collections::BTreeMap;

use bson::{Bson, Document};

use super::language::Language;
use crate::error::{Error, ErrorCode, Result};

/// The largest weight a field may have (exclusive).
pub const MAX_WORD_WEIGHT: i64 = 100_000;
/// The weights key that indexes every string field.
pub const WILDCARD: &str = "$**";

/// A validated, normalised text index specification.
#[derive(Debug, Clone, PartialEq)]
pub struct TextSpec {
    /// Field weights by dotted path (the wildcard is not among them).
    pub weights: BTreeMap<String, f64>,
    pub wildcard: bool,
    pub default_language: Language,
    pub language_override: String,
    pub version: i32,
    /// Ordinary key fields before and after the text part.
    pub prefix: Vec<String>,
    pub suffix: Vec<String>,
}

/// Whether a key pattern describes a text index (a `"text"` field, or the normalised `_fts`).
pub fn is_text_key(key: &Document) -> bool {
    key.iter()
        .any(|(k, v)| k == "_fts" || matches!(v, Bson::String(s) if s == "text"))
}

fn cannot_create(message: impl Into<String>) -> Error {
    Error::new(ErrorCode::CannotCreateIndex, message)
}

/// `numberInt()` of a BSON number: truncation toward zero, saturating.
fn number_int(v: &Bson) -> Option<i64> {
    match v {
        Bson::Int32(i) => Some(i64::from(*i)),
        Bson::Int64(i) => Some(i64::from(*i as i32)),
        Bson::Double(d) => Some(if d.is_nan() {
            0
        } else {
            d.clamp(f64::from(i32::MIN), f64::from(i32::MAX)) as i64
        }),
        Bson::Decimal128(_) => {
            Some(crate::value::as_i64_signed(v).clamp(i64::from(i32::MIN), i64::from(i32::MAX)))
        }
        _ => None,
    }
}

fn number_f64(v: &Bson) -> Option<f64> {
    match v {
        Bson::Int32(i) => Some(f64::from(*i)),
        Bson::Int64(i) => Some(*i as f64),
        Bson::Double(d) => Some(*d),
        _ => None,
    }
}

/// The normalised spec document of a text index (MongoDB's `fixSpec`), from one element of
/// `createIndexes.indexes` whose key has text fields.
pub fn fix_spec(spec: &Document) -> Result<Document> {
    let key = match spec.get("key") {
        Some(Bson::Document(k)) => k,
        _ => return Err(cannot_create("text index spec needs a key pattern")),
    };
    let mut weights: BTreeMap<String, i64> = BTreeMap::new();
    let mut normalised = Document::new();
    let mut added_fts = false;
    for (k, v) in key {
        if k == "_fts" {
            if !matches!(v, Bson::String(s) if s == "text") {
                return Err(cannot_create("expecting _fts:\"text\""));
            }
            added_fts = true;
            normalised.insert(k.clone(), v.clone());
        } else if k == "_ftsx" {
            if number_int(v) != Some(1) {
                return Err(cannot_create("expecting _ftsx:1"));
            }
            normalised.insert(k.clone(), v.clone());
        } else if matches!(v, Bson::String(s) if s == "text") {
            if !added_fts {
                normalised.insert("_fts", "text");
                normalised.insert("_ftsx", 1);
                added_fts = true;
            }
            weights.insert(k.clone(), 1);
        } else {
            let n = number_int(v);
            if n != Some(1) && n != Some(-1) {
                return Err(cannot_create(
                    "expected value 1 or -1 for non-text key in compound index",
                ));
            }
            normalised.insert(k.clone(), v.clone());
        }
    }
    check_layout(key)?;
    match spec.get("weights") {
        Some(Bson::Document(w)) => {
            for (k, v) in w {
                let Some(n) = number_int(v) else {
                    return Err(cannot_create("weight for text index needs numeric type"));
                };
                weights.insert(k.clone(), n);
            }
        }
        Some(Bson::String(s)) if s == WILDCARD => {
            weights.insert(WILDCARD.to_string(), 1);
        }
        None => {}
        Some(_) => {
            return Err(cannot_create(
                "text index option 'weights' must be an object",
            ));
        }
    }
    if weights.is_empty() {
        return Err(cannot_create(
            "text index option 'weights' must specify fields or the wildcard",
        ));
    }
    let mut weights_doc = Document::new();
    for (field, w) in &weights {
        if *w <= 0 || *w >= MAX_WORD_WEIGHT {
            return Err(cannot_create(format!(
                "text index weight must be in the exclusive interval (0,{MAX_WORD_WEIGHT}) but found: {w}"
            )));
        }
        if field != WILDCARD {
            check_weight_path(field)?;
        }
        weights_doc.insert(field.clone(), *w as i32);
    }
    let default_language = match spec.get("default_language") {
        None => "english".to_string(),
        Some(Bson::String(s)) => s.clone(),
        Some(_) => return Err(cannot_create("default_language needs a string type")),
    };
    if Language::parse(&default_language).is_none() {
        return Err(cannot_create("default_language is not valid"));
    }
    let language_override = match spec.get("language_override") {
        None => "language".to_string(),
        Some(Bson::String(s)) => s.clone(),
        Some(_) => return Err(cannot_create("language_override must be a string")),
    };
    if language_override.is_empty()
        || language_override.starts_with('$')
        || language_override.contains('.')
    {
        return Err(cannot_create("language_override is not valid"));
    }
    let mut version = 3;
    let mut out = Document::new();
    let (mut weights_left, mut language_left, mut override_left) = (true, true, true);
    for (k, v) in spec {
        match k.as_str() {
            "key" => {
                out.insert("key", normalised.clone());
            }
            "weights" => {
                out.insert("weights", weights_doc.clone());
                weights_left = false;
            }
            "default_language" => {
                out.insert("default_language", default_language.clone());
                language_left = false;
            }
            "language_override" => {
                out.insert("language_override", language_override.clone());
                override_left = false;
            }
            "textIndexVersion" => {
                let Some(n) = number_int(v) else {
                    return Err(cannot_create(
                        "text index option 'textIndexVersion' must be a number",
                    ));
                };
                if n != 2 && n != 3 {
                    return Err(cannot_create(format!("bad textIndexVersion: {n}")));
                }
                version = n as i32;
            }
            _ => {
                out.insert(k.clone(), v.clone());
            }
        }
    }
    if weights_left {
        out.insert("weights", weights_doc);
    }
    if language_left {
        out.insert("default_language", default_language);
    }
    if override_left {
        out.insert("language_override", language_override);
    }
    if version != 3 {
        return Err(Error::new(
            ErrorCode::CannotCreateIndex,
            "Sprout builds text indexes of textIndexVersion 3 only",
        ));
    }
    out.insert("textIndexVersion", version);
    Ok(out)
}

/// Prefix fields, then adjacent text fields, then suffix fields; `_fts`/`_ftsx` are reserved.
fn check_layout(key: &Document) -> Result<()> {
    let is_text = |v: &Bson| matches!(v, Bson::String(_));
    let reserved = |k: &str| -> Result<()> {
        if k == "_fts" || k == "_ftsx" {
            return Err(cannot_create(
                "text index with reserved fields _fts/_ftsx not allowed",
            ));
        }
        Ok(())
    };
    let entries: Vec<(&String, &Bson)> = key.iter().collect();
    let mut i = 0;
    while i < entries.len() && !is_text(entries[i].1) {
        reserved(entries[i].0)?;
        i += 1;
    }
    if i == entries.len() {
        return Err(cannot_create(
            "expected additional fields in text index key pattern",
        ));
    }
    if entries[i].0 == "_fts" {
        if entries
            .get(i + 1)
            .is_none_or(|(k, _)| k.as_str() != "_ftsx")
        {
            return Err(cannot_create("expected _ftsx after _fts"));
        }
        i += 2;
    } else {
        while i < entries.len() && is_text(entries[i].1) {
            reserved(entries[i].0)?;
            i += 1;
        }
    }
    for (k, v) in &entries[i..] {
        if is_text(v) {
            return Err(cannot_create("'text' fields in index must all be adjacent"));
        }
        reserved(k)?;
    }
    Ok(())
}

fn check_weight_path(field: &str) -> Result<()> {
    if field.is_empty() {
        return Err(cannot_create("weight cannot be on an empty field"));
    }
    for part in field.split('.') {
        if part.is_empty() {
            return Err(cannot_create("weight cannot have empty path component"));
        }
        if part.starts_with('$') {
            return Err(cannot_create(
                "weight cannot have path component with $ prefix",
            ));
        }
    }
    Ok(())
}

impl TextSpec {
    /// Reads a normalised spec document (what [`fix_spec`] returns).
    pub fn from_fixed(spec: &Document) -> Result<TextSpec> {
        let invalid = || Error::location(16739, "found invalid spec for text index");
        let Some(Bson::Document(w)) = spec.get("weights") else {
            return Err(invalid());
        };
        let mut weights = BTreeMap::new();
        let mut wildcard = false;
        for (k, v) in w {
            if k == WILDCARD {
                wildcard = true;
            } else {
                weights.insert(k.clone(), number_f64(v).ok_or_else(invalid)?);
            }
        }
        let default_language = match spec.get("default_language") {
            Some(Bson::String(s)) => Language::parse(s).ok_or_else(invalid)?,
            _ => return Err(invalid()),
        };
        let language_override = match spec.get("language_override") {
            Some(Bson::String(s)) => s.clone(),
            _ => return Err(invalid()),
        };
        let version = spec
            .get("textIndexVersion")
            .and_then(number_int)
            .ok_or_else(invalid)? as i32;
        let Some(Bson::Document(key)) = spec.get("key") else {
            return Err(invalid());
        };
        let (mut prefix, mut suffix, mut passed) = (Vec::new(), Vec::new(), false);
        for (k, _) in key {
            if k == "_fts" || k == "_ftsx" {
                passed = true;
            } else if passed {
                suffix.push(k.clone());
            } else {
                prefix.push(k.clone());
            }
        }
        Ok(TextSpec {
            weights,
            wildcard,
            default_language,
            language_override,
            version,
            prefix,
            suffix,
        })
    }
}

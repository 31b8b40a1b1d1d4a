//! The strings a text index reads from a document, each with its language and weight, as
//! MongoDB's `FTSElementIterator` walks them: the weighted paths (through sub-documents and
//! one level of arrays), or every string for a wildcard index. A sub-document with a string
//! in the `language_override` field switches the language for everything below it.

use bson::{Bson, Document};

use super::language::Language;
use super::spec::TextSpec;
use crate::error::{Error, Result};

/// One string to index.
#[derive(Debug, Clone, Copy)]
pub struct TextValue<'a> {
    pub text: &'a str,
    pub language: Language,
    pub weight: f64,
}

/// Calls `f` for every string of `doc` the index reads, in document order.
pub fn for_each_value<'a>(
    spec: &TextSpec,
    doc: &'a Document,
    f: &mut dyn FnMut(TextValue<'a>),
) -> Result<()> {
    let language = language_of(spec, doc, spec.default_language)?;
    walk(spec, doc.iter(), language, "", false, f)
}

/// The language of a (sub-)document: its override field, or the inherited one.
fn language_of(spec: &TextSpec, doc: &Document, inherited: Language) -> Result<Language> {
    match doc.get(&spec.language_override) {
        None => Ok(inherited),
        Some(Bson::String(s)) => Language::parse(s)
            .ok_or_else(|| Error::location(17262, format!("language override unsupported: {s}"))),
        Some(_) => Err(Error::location(
            17261,
            "found language override field in document with non-string type",
        )),
    }
}

fn walk<'a, 'n, I>(
    spec: &TextSpec,
    fields: I,
    language: Language,
    parent: &str,
    in_array: bool,
    f: &mut dyn FnMut(TextValue<'a>),
) -> Result<()>
where
    I: Iterator<Item = (&'n String, &'a Bson)>,
{
    for (name, value) in fields {
        if spec.wildcard && *name == spec.language_override {
            continue;
        }
        let dotted = if parent.is_empty() {
            name.clone()
        } else if in_array {
            parent.to_string()
        } else {
            format!("{parent}.{name}")
        };
        // The first weight at or after the path: an exact match, or a path below it.
        let probe = if matches!(value, Bson::Document(_)) {
            format!("{dotted}.")
        } else {
            dotted.clone()
        };
        let candidate = spec.weights.range(probe..).next();
        if !spec.wildcard {
            match candidate {
                Some((w, _)) if *w == dotted || w.starts_with(&format!("{dotted}.")) => {}
                _ => continue,
            }
        }
        let exact = candidate.is_some_and(|(w, _)| *w == dotted);
        // MongoDB's quirk, kept: a wildcard index weighs a field by the first weight at or
        // after its path even when that weight names another field.
        let weight = candidate.map_or(1.0, |(_, w)| *w);
        match value {
            Bson::String(s) if exact || spec.wildcard => f(TextValue {
                text: s,
                language,
                weight,
            }),
            Bson::Document(d) if !exact || spec.wildcard => {
                let lang = language_of(spec, d, language)?;
                walk(spec, d.iter(), lang, &dotted, false, f)?;
            }
            Bson::Array(items) if !in_array || spec.wildcard => {
                let keys: Vec<String> = (0..items.len()).map(|i| i.to_string()).collect();
                walk(
                    spec,
                    keys.iter().zip(items.iter()),
                    language,
                    &dotted,
                    true,
                    f,
                )?;
            }
            _ => {}
        }
    }
    Ok(())
}

//! The checks a text index cannot answer, run on each fetched document (MongoDB's
//! `FTSMatcher`): a positive term must appear (re-checked only for case- or
//! diacritic-sensitive queries, since the index scan found the document by a term), no
//! negated term may appear, every phrase must appear and no negated phrase may. Phrases are
//! substring matches in the indexed strings, folded as the query asks.

use bson::Document;

use super::elements::{TextValue, for_each_value};
use super::query::ParsedTextQuery;
use super::spec::TextSpec;
use super::tokenizer::tokens;
use super::unicode::comparable;
use crate::error::Result;

/// Whether the document satisfies the query.
pub fn matches(spec: &TextSpec, query: &ParsedTextQuery, doc: &Document) -> Result<bool> {
    let mut values: Vec<TextValue<'_>> = Vec::new();
    for_each_value(spec, doc, &mut |v| values.push(v))?;
    let has_term = |terms: &std::collections::BTreeSet<String>| {
        !terms.is_empty()
            && values.iter().any(|v| {
                tokens(v.text, v.language, query.matcher_options())
                    .iter()
                    .any(|t| terms.contains(t))
            })
    };
    let sensitive = query.case_sensitive || query.diacritic_sensitive;
    if sensitive && !has_term(&query.terms) {
        return Ok(false);
    }
    if has_term(&query.negated_terms) {
        return Ok(false);
    }
    let phrase_in = |phrase: &str| {
        values.iter().any(|v| {
            let turkish = v.language.turkish_case();
            let c =
                |s: &str| comparable(s, query.case_sensitive, query.diacritic_sensitive, turkish);
            c(v.text).contains(&c(phrase))
        })
    };
    if !query.phrases.iter().all(|p| phrase_in(p)) {
        return Ok(false);
    }
    Ok(!query.negated_phrases.iter().any(|p| phrase_in(p)))
}

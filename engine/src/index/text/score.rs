//! Term scores (MongoDB's `FTSSpec::scoreDocument`, version 2 and 3 formula). For each string a
//! document contributes, with `n` its number of (non-stop-word) tokens: a term seen `c` times
//! has frequency `1 + 1/2 + ... + 1/2^(c-1)`, coefficient `0.5 * c / n + 0.5`, a 1.1 boost when
//! the term is the whole string, and adds `weight * frequency * coefficient * boost` to the
//! term's score for the document.

use std::collections::BTreeMap;

use bson::Document;

use super::elements::for_each_value;
use super::spec::TextSpec;
use super::tokenizer::{TokenOptions, tokens};
use crate::error::Result;

/// The score of every distinct term of the document (sorted by term).
pub fn score_document(spec: &TextSpec, doc: &Document) -> Result<BTreeMap<String, f64>> {
    let mut scores: BTreeMap<String, f64> = BTreeMap::new();
    for_each_value(spec, doc, &mut |value| {
        score_string(value.text, value.language, value.weight, &mut scores)
    })?;
    Ok(scores)
}

fn score_string(
    raw: &str,
    language: super::Language,
    weight: f64,
    scores: &mut BTreeMap<String, f64>,
) {
    // Per term: (count, frequency, current exponent).
    let mut terms: BTreeMap<String, (f64, f64, f64)> = BTreeMap::new();
    let mut num_tokens = 0u32;
    for term in tokens(raw, language, TokenOptions::INDEX) {
        let data = terms.entry(term).or_insert((0.0, 0.0, 0.0));
        data.2 = if data.2 == 0.0 { 1.0 } else { data.2 * 2.0 };
        data.0 += 1.0;
        data.1 += 1.0 / data.2;
        num_tokens += 1;
    }
    for (term, (count, freq, _)) in terms {
        let coeff = (0.5 * count / f64::from(num_tokens)) + 0.5;
        let adjustment = if raw.len() == term.len() && raw.eq_ignore_ascii_case(&term) {
            1.1
        } else {
            1.0
        };
        *scores.entry(term).or_insert(0.0) += weight * freq * coeff * adjustment;
    }
}

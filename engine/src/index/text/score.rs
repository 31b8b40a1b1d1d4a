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
    // The tokens sorted, so each term's occurrences are one run (a sorted list, not a map per
    // term: that compiled its own B-tree, issue #22). Per term: count, frequency and the
    // current exponent, summed in the order a map's entry would have.
    let mut all: Vec<String> = tokens(raw, language, TokenOptions::INDEX);
    let num_tokens = all.len() as f64;
    crate::sort_slice::sort(&mut all);
    let mut at = 0;
    while at < all.len() {
        let start = at;
        let (mut count, mut freq, mut exp) = (0.0, 0.0, 0.0);
        while at < all.len() && all[at] == all[start] {
            exp = if exp == 0.0 { 1.0 } else { exp * 2.0 };
            count += 1.0;
            freq += 1.0 / exp;
            at += 1;
        }
        let term = std::mem::take(&mut all[start]);
        let coeff = (0.5 * count / num_tokens) + 0.5;
        let adjustment = if raw.len() == term.len() && raw.eq_ignore_ascii_case(&term) {
            1.1
        } else {
            1.0
        };
        *scores.entry(term).or_insert(0.0) += weight * freq * coeff * adjustment;
    }
}

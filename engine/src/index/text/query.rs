//! A `$search` string parsed as MongoDB's `FTSQueryImpl` does: words separated by spaces;
//! `"..."` a phrase (its words also count as terms); `-` before a word or phrase (with nothing
//! between) negates it until the next space; phrase words under negation are not terms. Terms
//! go through the language's tokenizer (stop words dropped, stemmed), so `terms` are index
//! terms; with `$caseSensitive` or `$diacriticSensitive` the matcher compares sensitive tokens.

use std::collections::BTreeSet;

use bson::{Bson, Document, doc};

use super::language::Language;
use super::tokenizer::{TokenOptions, tokens};
use crate::error::Result;
use crate::matcher::TextQuery;

/// A parsed text query.
#[derive(Debug, Clone, PartialEq)]
pub struct ParsedTextQuery {
    pub language: Language,
    pub case_sensitive: bool,
    pub diacritic_sensitive: bool,
    /// Positive terms as the matcher compares them.
    pub terms: BTreeSet<String>,
    pub negated_terms: BTreeSet<String>,
    pub phrases: Vec<String>,
    pub negated_phrases: Vec<String>,
    /// Positive terms as the index stores them (one index scan each).
    pub terms_for_bounds: BTreeSet<String>,
}

#[derive(Debug, PartialEq)]
enum Token<'a> {
    Text(&'a str),
    Minus,
    Quote,
}

/// Splits the search string: `(token, byte offset, whether whitespace preceded it)`.
fn query_tokens(search: &str) -> Vec<(Token<'_>, usize, bool)> {
    let is_space = |c: char| matches!(c, '\n' | '\u{b}' | '\u{c}' | '\r' | ' ');
    let mut out = Vec::new();
    let mut chars = search.char_indices().peekable();
    let mut previous_space = true;
    while let Some(&(_, c)) = chars.peek() {
        if is_space(c) {
            chars.next();
        } else {
            break;
        }
    }
    while let Some((start, c)) = chars.next() {
        let token = match c {
            '-' => Token::Minus,
            '"' => Token::Quote,
            _ => {
                let mut end = start + c.len_utf8();
                while let Some(&(i, n)) = chars.peek() {
                    if is_space(n) || n == '-' || n == '"' {
                        break;
                    }
                    end = i + n.len_utf8();
                    chars.next();
                }
                Token::Text(&search[start..end])
            }
        };
        let mut space = false;
        while let Some(&(_, n)) = chars.peek() {
            if is_space(n) {
                space = true;
                chars.next();
            } else {
                break;
            }
        }
        out.push((token, start, previous_space));
        previous_space = space;
    }
    out
}

impl ParsedTextQuery {
    /// Parses a `$text` query for an index whose default language is `default_language`.
    pub fn parse(q: &TextQuery, default_language: Language) -> Result<ParsedTextQuery> {
        let language = match &q.language {
            Some(l) => Language::parse_or_error(l)?,
            None => default_language,
        };
        let mut positive = String::new();
        let mut negative = String::new();
        let mut phrases = Vec::new();
        let mut negated_phrases = Vec::new();
        let (mut in_negation, mut in_phrase, mut quote_offset) = (false, false, 0usize);
        for (token, offset, previous_space) in query_tokens(&q.search) {
            match token {
                Token::Text(s) => {
                    if in_phrase && in_negation {
                        continue;
                    }
                    if in_negation && previous_space {
                        in_negation = false;
                    }
                    let sentence = if in_negation {
                        &mut negative
                    } else {
                        &mut positive
                    };
                    sentence.push_str(s);
                    sentence.push(' ');
                }
                Token::Minus => {
                    if !in_phrase && previous_space {
                        in_negation = true;
                    }
                }
                Token::Quote => {
                    if in_phrase {
                        let phrase = q.search[quote_offset + 1..offset].to_string();
                        if in_negation {
                            negated_phrases.push(phrase);
                        } else {
                            phrases.push(phrase);
                        }
                        in_phrase = false;
                    } else {
                        in_phrase = true;
                        if in_negation && previous_space {
                            in_negation = false;
                        }
                        quote_offset = offset;
                    }
                }
            }
        }
        let mut parsed = ParsedTextQuery {
            language,
            case_sensitive: q.case_sensitive,
            diacritic_sensitive: q.diacritic_sensitive,
            terms: BTreeSet::new(),
            negated_terms: BTreeSet::new(),
            phrases,
            negated_phrases,
            terms_for_bounds: BTreeSet::new(),
        };
        parsed.add_terms(&positive, false);
        parsed.add_terms(&negative, true);
        Ok(parsed)
    }

    fn add_terms(&mut self, sentence: &str, negated: bool) {
        let index_tokens = tokens(sentence, self.language, TokenOptions::INDEX);
        if !negated {
            self.terms_for_bounds.extend(index_tokens.iter().cloned());
        }
        let matcher_tokens = if !self.case_sensitive && !self.diacritic_sensitive {
            index_tokens
        } else {
            tokens(sentence, self.language, self.matcher_options())
        };
        let active = if negated {
            &mut self.negated_terms
        } else {
            &mut self.terms
        };
        active.extend(matcher_tokens);
    }

    /// The tokenizer options the matcher compares document tokens with.
    pub fn matcher_options(&self) -> TokenOptions {
        TokenOptions {
            filter_stop_words: true,
            case_sensitive: self.case_sensitive,
            diacritic_sensitive: self.diacritic_sensitive,
        }
    }

    /// explain's `parsedTextQuery`.
    pub fn to_document(&self) -> Document {
        let list = |items: &mut dyn Iterator<Item = &String>| -> Vec<Bson> {
            items.map(|s| Bson::String(s.clone())).collect()
        };
        doc! {
            "terms": list(&mut self.terms.iter()),
            "negatedTerms": list(&mut self.negated_terms.iter()),
            "phrases": list(&mut self.phrases.iter()),
            "negatedPhrases": list(&mut self.negated_phrases.iter()),
        }
    }
}

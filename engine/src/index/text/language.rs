//! The languages of text indexes: the fifteen Snowball languages MongoDB supports (by name or
//! two-letter code, case-insensitively) and `none`. Each gives a Snowball stemmer
//! (`rust-stemmers`) and a stop-word list: the `stop-words` crate's NLTK lists, which come from
//! the Snowball project's lists like MongoDB's; for English, NLTK's additions are taken back out
//! so the list is Snowball's `english.stop`, the 174 words MongoDB uses.

use std::borrow::Cow;
use std::collections::HashSet;
use std::sync::OnceLock;

use rust_stemmers::{Algorithm, Stemmer};

use crate::error::{Error, Result};

/// A text-search language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Language {
    None,
    Danish,
    Dutch,
    English,
    Finnish,
    French,
    German,
    Hungarian,
    Italian,
    Norwegian,
    Portuguese,
    Romanian,
    Russian,
    Spanish,
    Swedish,
    Turkish,
}

/// (language, canonical name, MongoDB's alias, the stop-word list's code)
const TABLE: [(Language, &str, &str, &str); 15] = [
    (Language::Danish, "danish", "da", "da"),
    (Language::Dutch, "dutch", "nl", "nl"),
    (Language::English, "english", "en", "en"),
    (Language::Finnish, "finnish", "fi", "fi"),
    (Language::French, "french", "fr", "fr"),
    (Language::German, "german", "de", "de"),
    (Language::Hungarian, "hungarian", "hu", "hu"),
    (Language::Italian, "italian", "it", "it"),
    (Language::Norwegian, "norwegian", "nb", "no"),
    (Language::Portuguese, "portuguese", "pt", "pt"),
    (Language::Romanian, "romanian", "ro", "ro"),
    (Language::Russian, "russian", "ru", "ru"),
    (Language::Spanish, "spanish", "es", "es"),
    (Language::Swedish, "swedish", "sv", "sv"),
    (Language::Turkish, "turkish", "tr", "tr"),
];

/// NLTK's English list is Snowball's `english.stop` (the list MongoDB indexes with) plus some
/// contraction fragments and a few words; these are NLTK's additions, which MongoDB indexes.
const ENGLISH_NLTK_ONLY: &[&str] = &[
    "ain",
    "aren",
    "can",
    "couldn",
    "d",
    "didn",
    "doesn",
    "don",
    "hadn",
    "hasn",
    "haven",
    "isn",
    "it'd",
    "it'll",
    "just",
    "ll",
    "m",
    "ma",
    "mightn",
    "mightn't",
    "mustn",
    "needn",
    "needn't",
    "now",
    "o",
    "re",
    "s",
    "shan",
    "should've",
    "shouldn",
    "t",
    "that'll",
    "ve",
    "wasn",
    "weren",
    "will",
    "won",
    "wouldn",
    "y",
];

/// Snowball's `english.stop` words NLTK's list leaves out.
const ENGLISH_SNOWBALL_ONLY: &[&str] = &[
    "can't", "cannot", "could", "here's", "how's", "let's", "ought", "that's", "there's", "what's",
    "when's", "where's", "who's", "why's", "would",
];

/// A language's stop words.
fn stop_word_set(language: Language, code: &str) -> HashSet<&'static str> {
    let mut set: HashSet<&'static str> = stop_words::lookup(code)
        .unwrap_or(&[])
        .iter()
        .copied()
        .collect();
    if language == Language::English {
        for w in ENGLISH_NLTK_ONLY {
            set.remove(w);
        }
        set.extend(ENGLISH_SNOWBALL_ONLY);
    }
    set
}

impl Language {
    /// The language a name or alias designates (ASCII case-insensitive, as MongoDB compares).
    pub fn parse(name: &str) -> Option<Language> {
        if name.eq_ignore_ascii_case("none") {
            return Some(Language::None);
        }
        TABLE
            .iter()
            .find(|(_, n, alias, _)| {
                name.eq_ignore_ascii_case(n) || name.eq_ignore_ascii_case(alias)
            })
            .map(|(l, ..)| *l)
    }

    /// Parses a language, failing with MongoDB's error for an unknown one.
    pub fn parse_or_error(name: &str) -> Result<Language> {
        Language::parse(name).ok_or_else(|| {
            Error::bad_value(format!(
                "unsupported language: \"{name}\" for text index version 3"
            ))
        })
    }

    /// The canonical name (`english`, `none`).
    pub fn name(self) -> &'static str {
        self.entry().map_or("none", |(_, n, _, _)| *n)
    }

    fn entry(self) -> Option<&'static (Language, &'static str, &'static str, &'static str)> {
        TABLE.iter().find(|(l, ..)| *l == self)
    }

    fn algorithm(self) -> Option<Algorithm> {
        Some(match self {
            Language::None => return None,
            Language::Danish => Algorithm::Danish,
            Language::Dutch => Algorithm::Dutch,
            Language::English => Algorithm::English,
            Language::Finnish => Algorithm::Finnish,
            Language::French => Algorithm::French,
            Language::German => Algorithm::German,
            Language::Hungarian => Algorithm::Hungarian,
            Language::Italian => Algorithm::Italian,
            Language::Norwegian => Algorithm::Norwegian,
            Language::Portuguese => Algorithm::Portuguese,
            Language::Romanian => Algorithm::Romanian,
            Language::Russian => Algorithm::Russian,
            Language::Spanish => Algorithm::Spanish,
            Language::Swedish => Algorithm::Swedish,
            Language::Turkish => Algorithm::Turkish,
        })
    }

    /// The Snowball stem of a word (`none` leaves words alone).
    pub fn stem(self, word: &str) -> String {
        match self.algorithm() {
            Some(a) => match Stemmer::create(a).stem(word) {
                Cow::Borrowed(s) => s.to_string(),
                Cow::Owned(s) => s,
            },
            None => word.to_string(),
        }
    }

    /// Whether a lower-cased word is one of the language's stop words.
    pub fn is_stop_word(self, word: &str) -> bool {
        static SETS: OnceLock<Vec<(Language, HashSet<&'static str>)>> = OnceLock::new();
        let sets = SETS.get_or_init(|| {
            TABLE
                .iter()
                .map(|(l, _, _, code)| (*l, stop_word_set(*l, code)))
                .collect()
        });
        sets.iter()
            .find(|(l, _)| *l == self)
            .is_some_and(|(_, set)| set.contains(word))
    }

    /// Whether apostrophes belong to words (MongoDB's English delimiter list).
    pub fn keeps_apostrophes(self) -> bool {
        self == Language::English
    }

    /// Whether case folding follows Turkish rules (dotted and dotless i).
    pub fn turkish_case(self) -> bool {
        self == Language::Turkish
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_codes_and_stop_words() {
        assert_eq!(Language::parse("PT"), Some(Language::Portuguese));
        assert_eq!(Language::parse("Norwegian"), Some(Language::Norwegian));
        assert_eq!(Language::parse("nb"), Some(Language::Norwegian));
        assert_eq!(Language::parse("None"), Some(Language::None));
        assert_eq!(Language::parse("no"), None);
        assert_eq!(Language::Turkish.name(), "turkish");
        assert!(Language::English.is_stop_word("the"));
        assert!(Language::English.is_stop_word("would"));
        assert!(!Language::English.is_stop_word("will"));
        assert!(Language::Portuguese.is_stop_word("que"));
        assert!(!Language::None.is_stop_word("the"));
        assert_eq!(Language::English.stem("running"), "run");
        assert_eq!(Language::Spanish.stem("leche"), "lech");
    }
}

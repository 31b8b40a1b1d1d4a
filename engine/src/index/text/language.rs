//! The languages of text indexes: the fifteen Snowball languages MongoDB supports (by name or
//! two-letter code, case-insensitively) and `none`. Each gives a Snowball stemmer
//! (`rust-stemmers`) and a stop-word list: NLTK's lists (`stop_words/`, copied from the
//! `stop-words` crate), which come from the Snowball project's lists like MongoDB's; for
//! English, NLTK's additions are taken back out so the list is Snowball's `english.stop`, the
//! 174 words MongoDB uses.

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

/// (language, canonical name, MongoDB's alias, the stop-word list: one word a line)
///
/// The lists are NLTK's stop-word corpus (Snowball's lists), copied from the `stop-words`
/// crate for the fifteen languages only: the crate links all of its 34 lists (about 50 KB gzip
/// of the shipped wasm) behind one lookup. A test checks the copies against the crate.
const TABLE: [(Language, &str, &str, &str); 15] = [
    (
        Language::Danish,
        "danish",
        "da",
        include_str!("stop_words/danish.txt"),
    ),
    (
        Language::Dutch,
        "dutch",
        "nl",
        include_str!("stop_words/dutch.txt"),
    ),
    (
        Language::English,
        "english",
        "en",
        include_str!("stop_words/english.txt"),
    ),
    (
        Language::Finnish,
        "finnish",
        "fi",
        include_str!("stop_words/finnish.txt"),
    ),
    (
        Language::French,
        "french",
        "fr",
        include_str!("stop_words/french.txt"),
    ),
    (
        Language::German,
        "german",
        "de",
        include_str!("stop_words/german.txt"),
    ),
    (
        Language::Hungarian,
        "hungarian",
        "hu",
        include_str!("stop_words/hungarian.txt"),
    ),
    (
        Language::Italian,
        "italian",
        "it",
        include_str!("stop_words/italian.txt"),
    ),
    (
        Language::Norwegian,
        "norwegian",
        "nb",
        include_str!("stop_words/norwegian.txt"),
    ),
    (
        Language::Portuguese,
        "portuguese",
        "pt",
        include_str!("stop_words/portuguese.txt"),
    ),
    (
        Language::Romanian,
        "romanian",
        "ro",
        include_str!("stop_words/romanian.txt"),
    ),
    (
        Language::Russian,
        "russian",
        "ru",
        include_str!("stop_words/russian.txt"),
    ),
    (
        Language::Spanish,
        "spanish",
        "es",
        include_str!("stop_words/spanish.txt"),
    ),
    (
        Language::Swedish,
        "swedish",
        "sv",
        include_str!("stop_words/swedish.txt"),
    ),
    (
        Language::Turkish,
        "turkish",
        "tr",
        include_str!("stop_words/turkish.txt"),
    ),
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
fn stop_word_set(language: Language, list: &'static str) -> HashSet<&'static str> {
    let mut set: HashSet<&'static str> = list.lines().filter(|w| !w.is_empty()).collect();
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
                .map(|(l, _, _, list)| (*l, stop_word_set(*l, list)))
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

    /// The copied lists are exactly the `stop-words` crate's NLTK lists they came from.
    #[test]
    fn stop_word_lists_match_the_crate() {
        let codes = [
            "da", "nl", "en", "fi", "fr", "de", "hu", "it", "no", "pt", "ro", "ru", "es", "sv",
            "tr",
        ];
        for ((_, name, _, list), code) in TABLE.iter().zip(codes) {
            let ours: Vec<&str> = list.lines().filter(|w| !w.is_empty()).collect();
            assert_eq!(ours, stop_words::get(code), "{name}");
        }
    }

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

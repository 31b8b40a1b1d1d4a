//! Text index version 3's tokenizer: words are the runs of non-delimiter characters; each word
//! is case-folded to check it against the stop words, then (case-folded unless the query is
//! case-sensitive) stemmed, then stripped of diacritics unless the query is diacritic-sensitive.

use super::language::Language;
use super::unicode::{fold_case, is_delimiter, strip_diacritics};

/// How tokens are produced.
#[derive(Debug, Clone, Copy, Default)]
pub struct TokenOptions {
    pub filter_stop_words: bool,
    pub case_sensitive: bool,
    pub diacritic_sensitive: bool,
}

impl TokenOptions {
    /// The options index keys are made with.
    pub const INDEX: TokenOptions = TokenOptions {
        filter_stop_words: true,
        case_sensitive: false,
        diacritic_sensitive: false,
    };
}

/// The words of `text`, as they appear (delimiters removed).
pub fn words(text: &str, language: Language) -> impl Iterator<Item = &str> {
    let keep = language.keeps_apostrophes();
    text.split(move |c| is_delimiter(c, keep))
        .filter(|w| !w.is_empty())
}

/// The tokens of `text` in order (with repeats).
pub fn tokens(text: &str, language: Language, options: TokenOptions) -> Vec<String> {
    let turkish = language.turkish_case();
    let mut out = Vec::new();
    for word in words(text, language) {
        let lower = fold_case(word, turkish);
        if options.filter_stop_words && language.is_stop_word(&lower) {
            continue;
        }
        let cased = if options.case_sensitive {
            word
        } else {
            lower.as_str()
        };
        // The stemmer is diacritic-sensitive: stem first, then strip.
        let stem = language.stem(cased);
        out.push(if options.diacritic_sensitive {
            stem
        } else {
            strip_diacritics(&stem)
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn english_tokens() {
        let t = tokens(
            "The Coffee shops, and the coffee-houses!",
            Language::English,
            TokenOptions::INDEX,
        );
        assert_eq!(t, ["coffe", "shop", "coffe", "hous"]);
        let t = tokens("don't stop", Language::English, TokenOptions::INDEX);
        assert_eq!(t, ["stop"]);
        let t = tokens("Café", Language::French, TokenOptions::INDEX);
        assert_eq!(t, ["caf"]);
        let t = tokens("the a", Language::None, TokenOptions::INDEX);
        assert_eq!(t, ["the", "a"]);
    }

    #[test]
    fn sensitive_tokens() {
        let opts = TokenOptions {
            filter_stop_words: true,
            case_sensitive: true,
            diacritic_sensitive: true,
        };
        assert_eq!(tokens("Café", Language::None, opts), ["Café"]);
    }
}

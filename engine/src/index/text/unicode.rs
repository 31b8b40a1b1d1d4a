//! The Unicode rules of text index version 3: which characters separate words (MongoDB's list
//! is every character with one of the properties White_Space, Dash, Hyphen, Quotation_Mark,
//! Terminal_Punctuation, Pattern_Syntax or Sentence_Terminal, except that English keeps the
//! apostrophe inside words), case folding (with Turkish's dotted and dotless i), and diacritic
//! removal (decompose, drop the characters with the Diacritic property, recompose). The
//! character properties and normalisation come from ICU4X (`icu_properties`, `icu_normalizer`).

use icu_normalizer::{ComposingNormalizerBorrowed, DecomposingNormalizerBorrowed};
use icu_properties::CodePointSetData;
use icu_properties::props::{
    Dash, Diacritic, Hyphen, PatternSyntax, QuotationMark, SentenceTerminal, TerminalPunctuation,
    WhiteSpace,
};

/// Whether `c` separates words.
pub fn is_delimiter(c: char, keep_apostrophe: bool) -> bool {
    if c == '\'' && keep_apostrophe {
        return false;
    }
    CodePointSetData::new::<WhiteSpace>().contains(c)
        || CodePointSetData::new::<Dash>().contains(c)
        || CodePointSetData::new::<Hyphen>().contains(c)
        || CodePointSetData::new::<QuotationMark>().contains(c)
        || CodePointSetData::new::<TerminalPunctuation>().contains(c)
        || CodePointSetData::new::<PatternSyntax>().contains(c)
        || CodePointSetData::new::<SentenceTerminal>().contains(c)
}

/// Simple case folding of one character (`turkish`: I → ı, İ → i).
fn fold_char(c: char, turkish: bool) -> char {
    match c {
        'I' if turkish => 'ı',
        '\u{130}' if turkish => 'i',
        // Simple case folding maps final sigma to sigma; lower-casing keeps it.
        'ς' => 'σ',
        _ => {
            let mut lower = c.to_lowercase();
            match (lower.next(), lower.next()) {
                (Some(l), None) => l,
                // Multi-character lower cases (İ) are full foldings, which MongoDB does not use.
                _ => c,
            }
        }
    }
}

/// Case-folds a string.
pub fn fold_case(s: &str, turkish: bool) -> String {
    s.chars().map(|c| fold_char(c, turkish)).collect()
}

/// Removes diacritics: `café` → `cafe`, `Ñandú` → `Nandu`.
pub fn strip_diacritics(s: &str) -> String {
    if s.is_ascii() {
        return s.to_string();
    }
    let decomposed = DecomposingNormalizerBorrowed::new_nfd().normalize(s);
    let kept: String = decomposed
        .chars()
        .filter(|c| !CodePointSetData::new::<Diacritic>().contains(*c))
        .collect();
    ComposingNormalizerBorrowed::new_nfc()
        .normalize(&kept)
        .into_owned()
}

/// The form phrases are compared in: folded and/or stripped as the query asks.
pub fn comparable(
    s: &str,
    case_sensitive: bool,
    diacritic_sensitive: bool,
    turkish: bool,
) -> String {
    let folded = if case_sensitive {
        s.to_string()
    } else {
        fold_case(s, turkish)
    };
    if diacritic_sensitive {
        folded
    } else {
        strip_diacritics(&folded)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delimiters() {
        for c in [
            ' ', '\t', ',', '.', '!', '?', '-', '"', '(', '/', '\u{2014}', '\u{3002}', '¿',
        ] {
            assert!(is_delimiter(c, false), "{c:?}");
        }
        for c in ['a', 'Z', '0', '_', 'é', '中'] {
            assert!(!is_delimiter(c, false), "{c:?}");
        }
        assert!(is_delimiter('\'', false));
        assert!(!is_delimiter('\'', true));
    }

    #[test]
    fn folding_and_diacritics() {
        assert_eq!(fold_case("CaFÉ", false), "café");
        assert_eq!(fold_case("IİI", true), "ıiı");
        assert_eq!(strip_diacritics("café Ñandú naïve"), "cafe Nandu naive");
        assert_eq!(strip_diacritics("한국어"), "한국어");
        assert_eq!(comparable("Café", false, false, false), "cafe");
        assert_eq!(comparable("Café", true, false, false), "Cafe");
    }
}

//! The locales MongoDB 8.0 accepts (its "Collation Locales and Default Parameters" table, in
//! ICU's `lang_Region@collation=variant` spelling) and their translation to the BCP-47 tags
//! ICU4X takes.

use icu_locale_core::Locale;

/// `(locale, variants)`: each locale alone and `locale@collation=<variant>` are accepted.
const SUPPORTED: &[(&str, &[&str])] = &[
    ("af", &[]),
    ("am", &[]),
    ("ar", &["compat"]),
    ("as", &[]),
    ("az", &["search"]),
    ("be", &[]),
    ("bg", &[]),
    ("bn", &["traditional"]),
    ("bo", &[]),
    ("bs", &["search"]),
    ("bs_Cyrl", &[]),
    ("ca", &["search"]),
    ("chr", &[]),
    ("cs", &["search"]),
    ("cy", &[]),
    ("da", &["search"]),
    ("de", &["search", "eor", "phonebook"]),
    ("de_AT", &["phonebook"]),
    ("dsb", &[]),
    ("dz", &[]),
    ("ee", &[]),
    ("el", &[]),
    ("en", &[]),
    ("en_US", &[]),
    ("en_US_POSIX", &[]),
    ("eo", &[]),
    ("es", &["search", "traditional"]),
    ("et", &[]),
    ("fa", &[]),
    ("fa_AF", &[]),
    ("fi", &["search", "traditional"]),
    ("fil", &[]),
    ("fo", &["search"]),
    ("fr", &[]),
    ("fr_CA", &[]),
    ("ga", &[]),
    ("gl", &["search"]),
    ("gu", &[]),
    ("ha", &[]),
    ("haw", &[]),
    ("he", &["search"]),
    ("hi", &[]),
    ("hr", &["search"]),
    ("hsb", &[]),
    ("hu", &[]),
    ("hy", &[]),
    ("id", &[]),
    ("ig", &[]),
    ("is", &["search"]),
    ("it", &[]),
    ("ja", &["unihan"]),
    ("ka", &[]),
    ("kk", &[]),
    ("kl", &["search"]),
    ("km", &[]),
    ("kn", &["traditional"]),
    ("ko", &["search", "searchjl", "unihan"]),
    ("kok", &[]),
    ("ky", &[]),
    ("lb", &[]),
    ("lkt", &[]),
    ("ln", &["phonetic"]),
    ("lo", &[]),
    ("lt", &[]),
    ("lv", &[]),
    ("mk", &[]),
    ("ml", &[]),
    ("mn", &[]),
    ("mr", &[]),
    ("ms", &[]),
    ("mt", &[]),
    ("my", &[]),
    ("nb", &["search"]),
    ("ne", &[]),
    ("nl", &[]),
    ("nn", &[]),
    ("om", &[]),
    ("or", &[]),
    ("pa", &[]),
    ("pl", &[]),
    ("ps", &[]),
    ("pt", &[]),
    ("ro", &[]),
    ("ru", &[]),
    ("se", &["search"]),
    ("si", &["dictionary"]),
    ("sk", &["search"]),
    ("sl", &[]),
    ("smn", &["search"]),
    ("sq", &[]),
    ("sr", &[]),
    ("sr_Latn", &["search"]),
    ("sv", &["search"]),
    ("sw", &[]),
    ("ta", &[]),
    ("te", &[]),
    ("th", &[]),
    ("to", &[]),
    ("tr", &["search"]),
    ("ug", &[]),
    ("uk", &[]),
    ("ur", &[]),
    ("vi", &["traditional"]),
    ("wae", &[]),
    ("xh", &[]),
    ("yi", &["search"]),
    ("yo", &[]),
    ("zh", &["big5han", "gb2312han", "unihan", "zhuyin"]),
    ("zh_Hant", &[]),
    ("zu", &[]),
];

/// Whether MongoDB accepts this locale id.
pub fn is_supported(locale: &str) -> bool {
    let (base, variant) = match locale.split_once("@collation=") {
        Some((b, v)) => (b, Some(v)),
        None => (locale, None),
    };
    SUPPORTED
        .iter()
        .any(|(name, variants)| *name == base && variant.is_none_or(|v| variants.contains(&v)))
}

/// Every MongoDB locale id without a `@collation=` variant (`de`, `de_AT`, `zh_Hant`).
#[cfg(test)]
pub fn bases() -> impl Iterator<Item = &'static str> {
    SUPPORTED.iter().map(|(name, _)| *name)
}

/// A base locale id and its `@collation=` variants, as MongoDB spells them.
#[cfg(test)]
pub fn with_variants(base: &str) -> Vec<String> {
    SUPPORTED
        .iter()
        .filter(|(name, _)| *name == base)
        .flat_map(|(name, variants)| {
            std::iter::once(name.to_string()).chain(
                variants
                    .iter()
                    .map(move |v| format!("{name}@collation={v}")),
            )
        })
        .collect()
}

/// The locale MongoDB suggests for an id ICU would canonicalise (`en-US` → `en_US`).
pub fn suggestion(locale: &str) -> Option<String> {
    let canonical = locale.replace('-', "_");
    (canonical != locale && is_supported(&canonical)).then_some(canonical)
}

/// The ICU4X locale for a supported MongoDB locale id: `_` becomes `-`, and a
/// `@collation=<variant>` becomes the `-u-co-<type>` extension. `en_US_POSIX` has no ICU4X
/// tailoring of its own; it collates as `en_US`.
pub fn icu_locale(locale: &str) -> Locale {
    let (base, variant) = match locale.split_once("@collation=") {
        Some((b, v)) => (b, Some(v)),
        None => (locale, None),
    };
    let base = base
        .strip_suffix("_POSIX")
        .unwrap_or(base)
        .replace('_', "-");
    let tag = match variant {
        Some(v) => format!("{base}-u-co-{}", collation_type(v)),
        None => base,
    };
    Locale::try_from_str(&tag).unwrap_or(Locale::UNKNOWN)
}

/// ICU's long collation type names as the BCP-47 `co` keyword spells them.
fn collation_type(variant: &str) -> &str {
    match variant {
        "phonebook" => "phonebk",
        "traditional" => "trad",
        "dictionary" => "dict",
        "gb2312han" => "gb2312",
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_mongodb_locales_and_their_variants() {
        assert!(is_supported("en_US"));
        assert!(is_supported("de@collation=phonebook"));
        assert!(!is_supported("de@collation=pinyin"));
        assert!(!is_supported("xx"));
        assert!(!is_supported("en-US"));
        assert_eq!(suggestion("en-US").as_deref(), Some("en_US"));
        assert_eq!(suggestion("xx"), None);
    }

    #[test]
    fn translates_to_bcp47() {
        assert_eq!(icu_locale("en_US").to_string(), "en-US");
        assert_eq!(
            icu_locale("de@collation=phonebook").to_string(),
            "de-u-co-phonebk"
        );
        assert_eq!(icu_locale("zh_Hant").to_string(), "zh-Hant");
        assert_eq!(icu_locale("en_US_POSIX").to_string(), "en-US");
    }
}

//! Collation: MongoDB's locale-aware string comparison (the `collation` option of find, count,
//! distinct, the write commands, aggregate, and the default of a collection or index), done by
//! ICU4X's collator: natively with its compiled data, in the browser with the locales' tailorings
//! fetched when first used (`data`).
//!
//! A [`Collation`] compares strings; `{locale: "simple"}` is no collation at all (binary order),
//! so it parses to `None`. A command puts its collation *in force* for its duration with
//! [`CollationScope`]; the value comparator (`value::compare_values`) then compares strings with
//! it. The scope is a thread-local because the comparator is reached from every query,
//! sort, group and update path: passing the collation down each of them would thread one
//! argument through most of the engine, while a command runs start to finish on one thread.
//!
//! What stays binary whatever the collation: index keys (their byte encoding) and the `_id`
//! lookup, which is why the planner does not use an index for a query whose collation differs
//! from the index's (and, since index keys are always binary here, does not use a collated
//! index at all; see `planner`), and why `_id` uniqueness is binary.
//!
//! ICU4X cannot set `backwards` (French secondary ordering) through its API, only take it from
//! the locale's data. ICU's `fr_CA` tailoring is `[backwards 2]` over the root order and `fr`
//! has no tailoring of its own, so `fr` with `backwards: true` collates with `fr_CA`'s data and
//! `fr_CA` with `backwards: false` with `fr`'s (the spec keeps the locale as given); any other
//! `backwards` that differs from the locale's is refused (NotImplemented) rather than ignored. ICU4X always normalises (NFD), which is what
//! `normalization: true` asks for; with `normalization: false` MongoDB's answers differ only on
//! text that is not in FCD form.

mod active;
pub mod data;
mod locales;
mod spec;

use std::cmp::Ordering;
use std::rc::Rc;

use bson::{Bson, Document, doc};
use icu_collator::options::{self as icu, CollatorOptions};
use icu_collator::preferences::{CollationCaseFirst, CollationNumericOrdering};
use icu_collator::{Collator as IcuCollator, CollatorBorrowed, CollatorPreferences};

pub use active::{CollationScope, active, active_is_simple};
pub use spec::{Alternate, CaseFirst, CollationSpec, MaxVariable};

use crate::error::{Error, ErrorCode, Result};
use crate::value::display::type_name;

/// A non-simple collation: the parsed options and the ICU4X collator built from them.
pub struct Collation {
    spec: CollationSpec,
    collator: IcuCollation,
}

/// The ICU4X collator: borrowing the compiled data, or owning data read at run time.
enum IcuCollation {
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    Compiled(CollatorBorrowed<'static>),
    Loaded(Box<IcuCollator>),
}

impl IcuCollation {
    fn compare(&self, a: &str, b: &str) -> Ordering {
        match self {
            IcuCollation::Compiled(c) => c.compare(a, b),
            IcuCollation::Loaded(c) => c.as_borrowed().compare(a, b),
        }
    }

    fn resolved_options(&self) -> icu::ResolvedCollatorOptions {
        match self {
            IcuCollation::Compiled(c) => c.resolved_options(),
            IcuCollation::Loaded(c) => c.as_borrowed().resolved_options(),
        }
    }
}

impl std::fmt::Debug for Collation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Collation")
            .field("spec", &self.spec)
            .finish()
    }
}

/// Two collations are the same when their resolved specs are (the index-use rule compares them).
impl PartialEq for Collation {
    fn eq(&self, other: &Self) -> bool {
        self.to_document() == other.to_document()
    }
}

impl Collation {
    /// Parses a command's `collation` value (`qualified` names it in type errors, e.g.
    /// `find.collation`). `Ok(None)` is the simple collation.
    pub fn parse(value: &Bson, qualified: &str) -> Result<Option<Rc<Collation>>> {
        let Bson::Document(spec) = value else {
            return Err(Error::type_mismatch(format!(
                "BSON field '{qualified}' is the wrong type '{}', expected type 'object'",
                type_name(value)
            )));
        };
        Self::from_document(spec)
    }

    /// Parses a collation document (as stored in a collection's or an index's options).
    pub fn from_document(spec: &Document) -> Result<Option<Rc<Collation>>> {
        let parsed = CollationSpec::parse(spec)?;
        if parsed.locale == "simple" {
            return Ok(None);
        }
        if parsed.locale.is_empty() {
            return Err(Error::bad_value(format!(
                "Field 'locale' cannot be the empty string in: {}",
                spec::display(spec)
            )));
        }
        if !locales::is_supported(&parsed.locale) {
            let mut message = format!("Field 'locale' is invalid in: {}", spec::display(spec));
            if let Some(s) = locales::suggestion(&parsed.locale) {
                message.push_str(&format!(". Did you mean '{s}'?"));
            }
            return Err(Error::bad_value(message));
        }
        parsed.check_combinations(spec)?;
        let collator = build_collator(&parsed)?;
        let implied_backwards = data_locale(&parsed) == "fr_CA";
        if parsed.backwards.is_some_and(|b| b != implied_backwards) {
            return Err(Error::new(
                ErrorCode::NotImplemented,
                format!(
                    "Sprout's collator (ICU4X) cannot set 'backwards' to {} for locale '{}'",
                    !implied_backwards, parsed.locale
                ),
            ));
        }
        Ok(Some(Rc::new(Collation {
            spec: parsed,
            collator,
        })))
    }

    /// Compares two strings under this collation.
    pub fn compare(&self, a: &str, b: &str) -> Ordering {
        self.collator.compare(a, b)
    }

    /// The locale id as the user wrote it.
    pub fn locale(&self) -> &str {
        &self.spec.locale
    }

    /// The full spec with the locale's defaults filled in, as listIndexes, listCollections and
    /// explain show it.
    pub fn to_document(&self) -> Document {
        let resolved = self.collator.resolved_options();
        let strength = match resolved.strength {
            icu::Strength::Primary => 1,
            icu::Strength::Secondary => 2,
            icu::Strength::Tertiary => 3,
            icu::Strength::Quaternary => 4,
            _ => 5,
        };
        let case_first = match resolved.case_first {
            CollationCaseFirst::Upper => "upper",
            CollationCaseFirst::Lower => "lower",
            _ => "off",
        };
        let alternate = match resolved.alternate_handling {
            icu::AlternateHandling::Shifted => "shifted",
            _ => "non-ignorable",
        };
        let max_variable = match resolved.max_variable {
            icu::MaxVariable::Space => "space",
            _ => "punct",
        };
        doc! {
            "locale": self.spec.locale.clone(),
            "caseLevel": resolved.case_level == icu::CaseLevel::On,
            "caseFirst": case_first,
            "strength": strength,
            "numericOrdering": resolved.numeric == CollationNumericOrdering::True,
            "alternate": alternate,
            "maxVariable": max_variable,
            "normalization": self.spec.normalization.unwrap_or(false),
            "backwards": self.spec.backwards.unwrap_or(self.spec.locale == "fr_CA"),
            "version": spec::ICU_VERSION,
        }
    }
}

/// The locale whose collation data serves `spec`: its own, except that French's secondary
/// direction picks between `fr` (root order) and `fr_CA` (root order, secondary backwards).
fn data_locale(spec: &CollationSpec) -> &str {
    match (spec.locale.as_str(), spec.backwards) {
        ("fr", Some(true)) => "fr_CA",
        ("fr_CA", Some(false)) => "fr",
        (locale, _) => locale,
    }
}

fn build_collator(spec: &CollationSpec) -> Result<IcuCollation> {
    let (prefs, options) = icu_inputs(spec);
    #[cfg(not(target_arch = "wasm32"))]
    return CollatorBorrowed::try_new(prefs, options)
        .map(IcuCollation::Compiled)
        .map_err(|e| failed(spec, &e));
    #[cfg(target_arch = "wasm32")]
    build_split(spec, prefs, options)
}

/// ICU4X's preferences and options for a MongoDB collation spec.
fn icu_inputs(spec: &CollationSpec) -> (CollatorPreferences, CollatorOptions) {
    let locale = locales::icu_locale(data_locale(spec));
    let mut prefs: CollatorPreferences = (&locale).into();
    if let Some(case_first) = spec.case_first {
        prefs.case_first = Some(match case_first {
            CaseFirst::Upper => CollationCaseFirst::Upper,
            CaseFirst::Lower => CollationCaseFirst::Lower,
            CaseFirst::Off => CollationCaseFirst::False,
        });
    }
    if let Some(numeric) = spec.numeric_ordering {
        prefs.numeric_ordering = Some(if numeric {
            CollationNumericOrdering::True
        } else {
            CollationNumericOrdering::False
        });
    }
    let mut options = CollatorOptions::default();
    options.strength = Some(match spec.strength.unwrap_or(3) {
        1 => icu::Strength::Primary,
        2 => icu::Strength::Secondary,
        3 => icu::Strength::Tertiary,
        4 => icu::Strength::Quaternary,
        _ => icu::Strength::Identical,
    });
    options.case_level = spec.case_level.map(|on| {
        if on {
            icu::CaseLevel::On
        } else {
            icu::CaseLevel::Off
        }
    });
    options.alternate_handling = spec.alternate.map(|a| match a {
        Alternate::NonIgnorable => icu::AlternateHandling::NonIgnorable,
        Alternate::Shifted => icu::AlternateHandling::Shifted,
    });
    options.max_variable = spec.max_variable.map(|m| match m {
        MaxVariable::Punct => icu::MaxVariable::Punctuation,
        MaxVariable::Space => icu::MaxVariable::Space,
    });
    (prefs, options)
}

fn failed(spec: &CollationSpec, e: &dyn std::fmt::Display) -> Error {
    Error::new(
        ErrorCode::OperationFailed,
        format!(
            "Failed to create collator: {e}. Collation spec: {{ locale: \"{}\" }}",
            spec.locale
        ),
    )
}

/// The collator with the tailorings read from the locale's data file (`data`): what the wasm
/// build uses, so that the compiled tailorings are not linked into it.
#[cfg_attr(all(not(target_arch = "wasm32"), not(test)), allow(dead_code))]
fn build_split(
    spec: &CollationSpec,
    prefs: CollatorPreferences,
    options: CollatorOptions,
) -> Result<IcuCollation> {
    let provider = data::SplitProvider::new(data_locale(spec));
    IcuCollator::try_new_unstable(&provider, prefs, options)
        .map(|c| IcuCollation::Loaded(Box::new(c)))
        .map_err(|e| match provider.failure.into_inner() {
            Some(why) => Error::new(
                ErrorCode::OperationFailed,
                format!(
                    "Failed to create collator: the collation data of locale '{}' ({}) could not \
                     be loaded: {why}",
                    spec.locale,
                    data::file_name(&spec.locale)
                ),
            ),
            None => failed(spec, &e),
        })
}

#[cfg(test)]
mod tests;

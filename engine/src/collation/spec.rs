//! The collation document (`{locale, strength, caseLevel, …}`) parsed as MongoDB 8.0's IDL
//! `Collation` struct parses it: fields in document order, each type-checked as met, unknown
//! fields refused, then the cross-field rules of `validateCollationSpec`.

use bson::{Bson, Document};

use crate::error::{Error, ErrorCode, Result};
use crate::value::display::{key_value, type_name};

/// The ICU version MongoDB 8.0 bundles; listIndexes and listCollections show it as `version`.
pub const ICU_VERSION: &str = "57.1";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CaseFirst {
    Upper,
    Lower,
    Off,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Alternate {
    NonIgnorable,
    Shifted,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MaxVariable {
    Punct,
    Space,
}

/// The options as the user wrote them; `None` means "the locale's default".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CollationSpec {
    pub locale: String,
    pub strength: Option<i32>,
    pub case_level: Option<bool>,
    pub case_first: Option<CaseFirst>,
    pub numeric_ordering: Option<bool>,
    pub alternate: Option<Alternate>,
    pub max_variable: Option<MaxVariable>,
    pub normalization: Option<bool>,
    pub backwards: Option<bool>,
}

impl CollationSpec {
    /// Parses a collation document. The locale is checked by the caller (it needs the locale
    /// table); everything else is checked here.
    pub fn parse(spec: &Document) -> Result<CollationSpec> {
        let mut out = CollationSpec {
            locale: String::new(),
            strength: None,
            case_level: None,
            case_first: None,
            numeric_ordering: None,
            alternate: None,
            max_variable: None,
            normalization: None,
            backwards: None,
        };
        let mut locale = None;
        for (name, value) in spec {
            match name.as_str() {
                "locale" => locale = Some(string_field(name, value)?.to_string()),
                "strength" => out.strength = Some(strength_field(value)?),
                "caseLevel" => out.case_level = Some(bool_field(name, value)?),
                "caseFirst" => {
                    out.case_first = Some(match string_field(name, value)? {
                        "upper" => CaseFirst::Upper,
                        "lower" => CaseFirst::Lower,
                        "off" => CaseFirst::Off,
                        other => return Err(bad_enum(name, other)),
                    })
                }
                "numericOrdering" => out.numeric_ordering = Some(bool_field(name, value)?),
                "alternate" => {
                    out.alternate = Some(match string_field(name, value)? {
                        "non-ignorable" => Alternate::NonIgnorable,
                        "shifted" => Alternate::Shifted,
                        other => return Err(bad_enum(name, other)),
                    })
                }
                "maxVariable" => {
                    out.max_variable = Some(match string_field(name, value)? {
                        "punct" => MaxVariable::Punct,
                        "space" => MaxVariable::Space,
                        other => return Err(bad_enum(name, other)),
                    })
                }
                "normalization" => out.normalization = Some(bool_field(name, value)?),
                "backwards" => out.backwards = Some(bool_field(name, value)?),
                "version" => {
                    let version = string_field(name, value)?;
                    if version != ICU_VERSION {
                        return Err(Error::new(
                            ErrorCode::IncompatibleCollationVersion,
                            format!(
                                "Requested collation version {version} but the only available collator version was {ICU_VERSION}. Requested collation spec: {}",
                                display(spec)
                            ),
                        ));
                    }
                }
                other => {
                    return Err(Error::location(
                        40415,
                        format!("BSON field 'collation.{other}' is an unknown field."),
                    ));
                }
            }
        }
        out.locale = locale.ok_or_else(|| {
            Error::location(
                40414,
                "BSON field 'collation.locale' is missing but a required field",
            )
        })?;
        if out.locale.contains('\0') {
            return Err(Error::bad_value(format!(
                "Field 'locale' cannot contain null byte. Collation spec: {}",
                display(spec)
            )));
        }
        Ok(out)
    }

    /// The cross-field rules MongoDB checks once the locale is known (`validateCollationSpec`).
    pub fn check_combinations(&self, spec: &Document) -> Result<()> {
        let strength = self.strength.unwrap_or(3);
        if self.backwards == Some(true) && strength == 1 {
            return Err(Error::bad_value(format!(
                "'backwards' is invalid with 'strength' of 1 in: {}",
                display(spec)
            )));
        }
        if matches!(self.case_first, Some(CaseFirst::Upper | CaseFirst::Lower))
            && self.case_level != Some(true)
            && strength <= 2
        {
            return Err(Error::bad_value(format!(
                "'caseFirst' is invalid unless 'caseLevel' is on or 'strength' is greater than 2 in: {}",
                display(spec)
            )));
        }
        Ok(())
    }
}

/// A collation document as the server prints it in messages (`{ locale: "xx" }`).
pub fn display(spec: &Document) -> String {
    key_value(&Bson::Document(spec.clone()))
}

fn string_field<'a>(name: &str, value: &'a Bson) -> Result<&'a str> {
    match value {
        Bson::String(s) => Ok(s),
        other => Err(wrong_type(name, other, "string")),
    }
}

fn bool_field(name: &str, value: &Bson) -> Result<bool> {
    match value {
        Bson::Boolean(b) => Ok(*b),
        other => Err(wrong_type(name, other, "bool")),
    }
}

/// `strength` is a number from 1 to 5 (doubles are truncated, as IDL's safeInt does).
fn strength_field(value: &Bson) -> Result<i32> {
    let n = match value {
        Bson::Int32(i) => i64::from(*i),
        Bson::Int64(i) => *i,
        Bson::Double(d) if d.is_finite() => d.trunc() as i64,
        Bson::Decimal128(_) => crate::value::as_i64_signed(value),
        other => {
            return Err(Error::type_mismatch(format!(
                "BSON field 'collation.strength' is the wrong type '{}', expected types '[long, int, decimal, double]'",
                type_name(other)
            )));
        }
    };
    if n < 0 {
        return Err(Error::location(
            51024,
            format!("BSON field 'strength' value must be >= 0, actual value '{n}'"),
        ));
    }
    if n > 5 {
        return Err(Error::location(
            51024,
            format!("BSON field 'strength' value must be <= 5, actual value '{n}'"),
        ));
    }
    if n == 0 {
        return Err(Error::bad_value(
            "Enumeration value '0' for field 'collation.strength' is not a valid value.",
        ));
    }
    Ok(n as i32)
}

fn wrong_type(name: &str, value: &Bson, expected: &str) -> Error {
    Error::type_mismatch(format!(
        "BSON field 'collation.{name}' is the wrong type '{}', expected type '{expected}'",
        type_name(value)
    ))
}

fn bad_enum(name: &str, value: &str) -> Error {
    Error::bad_value(format!(
        "Enumeration value '{value}' for field 'collation.{name}' is not a valid value."
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    fn code(spec: Document) -> i32 {
        CollationSpec::parse(&spec)
            .and_then(|s| s.check_combinations(&spec))
            .unwrap_err()
            .code()
    }

    #[test]
    fn reads_every_option() {
        let spec = CollationSpec::parse(&doc! {
            "locale": "fr", "strength": 2.9, "caseLevel": true, "caseFirst": "upper",
            "numericOrdering": true, "alternate": "shifted", "maxVariable": "space",
            "normalization": true, "backwards": false, "version": "57.1",
        })
        .unwrap();
        assert_eq!(spec.locale, "fr");
        assert_eq!(spec.strength, Some(2));
        assert_eq!(spec.case_first, Some(CaseFirst::Upper));
        assert_eq!(spec.alternate, Some(Alternate::Shifted));
        assert_eq!(spec.max_variable, Some(MaxVariable::Space));
    }

    #[test]
    fn errors_carry_mongodb_codes() {
        assert_eq!(code(doc! {"strength": 2}), 40414);
        assert_eq!(code(doc! {"locale": 1}), 14);
        assert_eq!(code(doc! {"locale": "en", "bogus": 1}), 40415);
        assert_eq!(code(doc! {"locale": "en", "strength": 6}), 51024);
        assert_eq!(code(doc! {"locale": "en", "strength": 0}), 2);
        assert_eq!(code(doc! {"locale": "en", "caseFirst": "first"}), 2);
        assert_eq!(code(doc! {"locale": "en", "caseLevel": 1}), 14);
        assert_eq!(code(doc! {"locale": "en", "version": "1.0"}), 161);
        assert_eq!(
            code(doc! {"locale": "en", "strength": 1, "backwards": true}),
            2
        );
        assert_eq!(
            code(doc! {"locale": "en", "strength": 2, "caseFirst": "upper"}),
            2
        );
    }

    #[test]
    fn case_first_is_allowed_with_case_level() {
        let spec = doc! {"locale": "en", "strength": 1, "caseLevel": true, "caseFirst": "lower"};
        let parsed = CollationSpec::parse(&spec).unwrap();
        assert!(parsed.check_combinations(&spec).is_ok());
    }
}

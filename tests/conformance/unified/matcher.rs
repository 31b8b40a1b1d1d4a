//! The unified test format's rules for matching an actual value against an expected one.
//!
//! - Documents at the root (and directly inside a root array) may hold extra fields; nested
//!   documents may not. Key order is not compared.
//! - int32, int64 and double compare as numbers.
//! - Special operators: `$$exists`, `$$type`, `$$unsetOrMatches`, `$$matchesHexBytes`, `$$lte`.
//!   `$$matchesEntity` and `$$sessionLsid` need entities this runner does not keep, and fail.

use bson::{Bson, Document};

use crate::conformance::ejson::{as_f64, canonical};

/// Whether the unmatched extra fields of a document are allowed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Level {
    Root,
    Nested,
}

/// Checks `actual` (absent when `None`) against `expected`; `Err` says where and how they differ.
pub fn matches(expected: &Bson, actual: Option<&Bson>, level: Level) -> Result<(), String> {
    match_at(expected, actual, level, "")
}

fn show(value: Option<&Bson>) -> String {
    match value {
        Some(v) => crate::conformance::report::clip(&canonical(v), 200),
        None => "(absent)".to_string(),
    }
}

fn at(path: &str) -> &str {
    if path.is_empty() { "(root)" } else { path }
}

fn special_operator(doc: &Document) -> Option<(&str, &Bson)> {
    if doc.len() != 1 {
        return None;
    }
    let (key, value) = doc.iter().next()?;
    key.starts_with("$$").then_some((key.as_str(), value))
}

fn match_at(
    expected: &Bson,
    actual: Option<&Bson>,
    level: Level,
    path: &str,
) -> Result<(), String> {
    if let Bson::Document(exp) = expected
        && let Some((op, arg)) = special_operator(exp)
    {
        return match_operator(op, arg, actual, level, path);
    }
    let Some(actual) = actual else {
        return Err(format!(
            "{}: expected {}, got nothing",
            at(path),
            show(Some(expected))
        ));
    };
    match expected {
        Bson::Document(exp) => {
            let Bson::Document(act) = actual else {
                return Err(format!(
                    "{}: expected a document {}, got {}",
                    at(path),
                    show(Some(expected)),
                    show(Some(actual))
                ));
            };
            for (key, value) in exp {
                let child = if path.is_empty() {
                    key.clone()
                } else {
                    format!("{path}.{key}")
                };
                if let Bson::Document(d) = value
                    && let Some(("$$exists", flag)) = special_operator(d)
                {
                    let want = matches!(flag, Bson::Boolean(true));
                    if act.contains_key(key) != want {
                        return Err(format!(
                            "{child}: expected the field to {}exist",
                            if want { "" } else { "not " }
                        ));
                    }
                    continue;
                }
                match_at(value, act.get(key), Level::Nested, &child)?;
            }
            if level == Level::Nested
                && let Some(extra) = act.keys().find(|k| !exp.contains_key(k.as_str()))
            {
                return Err(format!(
                    "{}: unexpected field {extra:?} in {}",
                    at(path),
                    show(Some(actual))
                ));
            }
            Ok(())
        }
        Bson::Array(exp) => {
            let Bson::Array(act) = actual else {
                return Err(format!(
                    "{}: expected an array {}, got {}",
                    at(path),
                    show(Some(expected)),
                    show(Some(actual))
                ));
            };
            if exp.len() != act.len() {
                return Err(format!(
                    "{}: expected {} elements {}, got {} {}",
                    at(path),
                    exp.len(),
                    show(Some(expected)),
                    act.len(),
                    show(Some(actual))
                ));
            }
            let element_level = if level == Level::Root && path.is_empty() {
                Level::Root
            } else {
                Level::Nested
            };
            for (i, (e, a)) in exp.iter().zip(act).enumerate() {
                match_at(e, Some(a), element_level, &format!("{path}[{i}]"))?;
            }
            Ok(())
        }
        Bson::Int32(_) | Bson::Int64(_) | Bson::Double(_) => {
            if numbers_equal(expected, actual) {
                Ok(())
            } else {
                Err(format!(
                    "{}: expected {}, got {}",
                    at(path),
                    show(Some(expected)),
                    show(Some(actual))
                ))
            }
        }
        _ => {
            if expected == actual {
                Ok(())
            } else {
                Err(format!(
                    "{}: expected {}, got {}",
                    at(path),
                    show(Some(expected)),
                    show(Some(actual))
                ))
            }
        }
    }
}

/// int32/int64/double compare by value (int64 against int64 exactly).
pub fn numbers_equal(a: &Bson, b: &Bson) -> bool {
    match (a, b) {
        (Bson::Int64(x), Bson::Int64(y)) => x == y,
        (Bson::Int32(x), Bson::Int64(y)) | (Bson::Int64(y), Bson::Int32(x)) => i64::from(*x) == *y,
        _ => match (as_f64(a), as_f64(b)) {
            (Some(x), Some(y)) => x == y,
            _ => false,
        },
    }
}

fn match_operator(
    op: &str,
    arg: &Bson,
    actual: Option<&Bson>,
    level: Level,
    path: &str,
) -> Result<(), String> {
    match op {
        "$$unsetOrMatches" => match actual {
            None => Ok(()),
            Some(a) => match_at(arg, Some(a), level, path),
        },
        "$$exists" => {
            let want = matches!(arg, Bson::Boolean(true));
            if actual.is_some() == want {
                Ok(())
            } else {
                Err(format!("{}: expected exists = {want}", at(path)))
            }
        }
        "$$type" => {
            let Some(actual) = actual else {
                return Err(format!("{}: expected a value of type {arg}", at(path)));
            };
            let names: Vec<&str> = match arg {
                Bson::String(s) => vec![s.as_str()],
                Bson::Array(items) => items.iter().filter_map(Bson::as_str).collect(),
                _ => return Err(format!("{}: malformed $$type {arg}", at(path))),
            };
            let name = type_name(actual);
            if names
                .iter()
                .any(|n| *n == name || (*n == "number" && is_number(actual)))
            {
                Ok(())
            } else {
                Err(format!(
                    "{}: expected type {names:?}, got {name} {}",
                    at(path),
                    show(Some(actual))
                ))
            }
        }
        "$$matchesHexBytes" => {
            let want = arg.as_str().unwrap_or("").to_ascii_lowercase();
            match actual {
                Some(Bson::Binary(b)) => {
                    let got: String = b.bytes.iter().map(|x| format!("{x:02x}")).collect();
                    if got == want {
                        Ok(())
                    } else {
                        Err(format!("{}: expected bytes {want}, got {got}", at(path)))
                    }
                }
                other => Err(format!(
                    "{}: expected binary, got {}",
                    at(path),
                    show(other)
                )),
            }
        }
        "$$lte" => match actual {
            Some(a) => match (as_f64(a), as_f64(arg)) {
                (Some(x), Some(y)) if x <= y => Ok(()),
                _ => Err(format!(
                    "{}: expected <= {arg}, got {}",
                    at(path),
                    show(Some(a))
                )),
            },
            None => Err(format!("{}: expected <= {arg}, got nothing", at(path))),
        },
        other => Err(format!(
            "{}: matching operator {other} is not supported by this runner",
            at(path)
        )),
    }
}

fn is_number(v: &Bson) -> bool {
    matches!(
        v,
        Bson::Int32(_) | Bson::Int64(_) | Bson::Double(_) | Bson::Decimal128(_)
    )
}

/// The unified format's (and `$type`'s) name for a value's type: the engine's own table.
pub use engine::value::display::type_name;

#[cfg(test)]
mod tests {
    use super::*;
    use bson::{bson, doc};

    #[test]
    fn root_documents_allow_extra_fields_nested_do_not() {
        let expected = bson!({"a": 1, "b": {"c": 2}});
        let extra_root = bson!({"a": 1_i64, "b": {"c": 2.0}, "z": 0});
        assert!(matches(&expected, Some(&extra_root), Level::Root).is_ok());
        let extra_nested = bson!({"a": 1, "b": {"c": 2, "d": 3}});
        assert!(matches(&expected, Some(&extra_nested), Level::Root).is_err());
        assert!(matches(&expected, Some(&extra_root), Level::Nested).is_err());
    }

    #[test]
    fn special_operators() {
        let expected = Bson::Document(doc! {
            "a": {"$$unsetOrMatches": 1},
            "b": {"$$exists": false},
            "c": {"$$type": ["int", "long"]},
        });
        assert!(matches(&expected, Some(&bson!({"c": 5_i64})), Level::Root).is_ok());
        assert!(matches(&expected, Some(&bson!({"a": 1, "c": 5})), Level::Root).is_ok());
        assert!(matches(&expected, Some(&bson!({"a": 2, "c": 5})), Level::Root).is_err());
        assert!(matches(&expected, Some(&bson!({"b": 1, "c": 5})), Level::Root).is_err());
        assert!(matches(&expected, Some(&bson!({"c": "x"})), Level::Root).is_err());
    }
}

//! `$type` operands: BSON type names and numbers, the `"number"` alias, and arrays of them.

use bson::Bson;

use crate::error::{Error, Result};

/// The set of types a `$type` predicate accepts.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TypeSet {
    /// BSON type numbers (`-1` for minKey, `127` for maxKey).
    codes: Vec<i32>,
    all_numbers: bool,
}

/// MongoDB's type aliases and their numbers.
pub(crate) const ALIASES: &[(&str, i32)] = &[
    ("double", 1),
    ("string", 2),
    ("object", 3),
    ("array", 4),
    ("binData", 5),
    ("undefined", 6),
    ("objectId", 7),
    ("bool", 8),
    ("date", 9),
    ("null", 10),
    ("regex", 11),
    ("dbPointer", 12),
    ("javascript", 13),
    ("symbol", 14),
    ("javascriptWithScope", 15),
    ("int", 16),
    ("timestamp", 17),
    ("long", 18),
    ("decimal", 19),
    ("minKey", -1),
    ("maxKey", 127),
];

impl TypeSet {
    /// Parses a `$type` operand (a name, a number, or an array of them).
    pub fn parse(operand: &Bson) -> Result<TypeSet> {
        let mut set = TypeSet::default();
        match operand {
            Bson::Array(items) => {
                for item in items {
                    set.add(item)?;
                }
            }
            other => set.add(other)?,
        }
        Ok(set)
    }

    /// Parses a type given by name only (`$jsonSchema`'s `bsonType`).
    pub fn from_alias(name: &str) -> Option<TypeSet> {
        let mut set = TypeSet::default();
        if name == "number" {
            set.all_numbers = true;
            return Some(set);
        }
        let (_, code) = ALIASES.iter().find(|(n, _)| *n == name)?;
        set.codes.push(*code);
        Some(set)
    }

    fn add(&mut self, item: &Bson) -> Result<()> {
        match item {
            Bson::String(name) => {
                let Some(set) = TypeSet::from_alias(name) else {
                    return Err(Error::bad_value(format!("Unknown type name alias: {name}")));
                };
                self.all_numbers |= set.all_numbers;
                self.codes.extend(set.codes);
                Ok(())
            }
            Bson::Int32(_) | Bson::Int64(_) | Bson::Double(_) | Bson::Decimal128(_) => {
                let code = integral(item).ok_or_else(|| {
                    Error::bad_value(format!(
                        "Invalid numerical type code: {}",
                        crate::value::display::key_value(item)
                    ))
                })?;
                if !ALIASES.iter().any(|(_, c)| i64::from(*c) == code) {
                    return Err(Error::bad_value(format!(
                        "Invalid numerical type code: {code}"
                    )));
                }
                self.codes.push(code as i32);
                Ok(())
            }
            _ => Err(Error::type_mismatch(
                "type must be represented as a number or a string",
            )),
        }
    }

    /// The set as `$type` operands: `"number"` and type numbers.
    pub fn to_bson(&self) -> Bson {
        let mut items: Vec<Bson> = Vec::new();
        if self.all_numbers {
            items.push(Bson::String("number".into()));
        }
        items.extend(self.codes.iter().map(|c| Bson::Int32(*c)));
        Bson::Array(items)
    }

    /// Whether a value's type is in the set.
    pub fn contains(&self, v: &Bson) -> bool {
        if self.all_numbers
            && matches!(
                v,
                Bson::Int32(_) | Bson::Int64(_) | Bson::Double(_) | Bson::Decimal128(_)
            )
        {
            return true;
        }
        self.codes.contains(&type_code(v))
    }

    /// Whether the set names no type at all.
    pub fn is_empty(&self) -> bool {
        self.codes.is_empty() && !self.all_numbers
    }
}

fn integral(v: &Bson) -> Option<i64> {
    match v {
        Bson::Int32(i) => Some(i64::from(*i)),
        Bson::Int64(i) => Some(*i),
        Bson::Double(d) if d.fract() == 0.0 && d.abs() < 9.0e15 => Some(*d as i64),
        Bson::Decimal128(d) => {
            let f: f64 = d.to_string().parse().ok()?;
            (f.fract() == 0.0 && f.abs() < 9.0e15).then_some(f as i64)
        }
        _ => None,
    }
}

/// A value's BSON type number.
pub fn type_code(v: &Bson) -> i32 {
    match v {
        Bson::Double(_) => 1,
        Bson::String(_) => 2,
        Bson::Document(_) => 3,
        Bson::Array(_) => 4,
        Bson::Binary(_) => 5,
        Bson::Undefined => 6,
        Bson::ObjectId(_) => 7,
        Bson::Boolean(_) => 8,
        Bson::DateTime(_) => 9,
        Bson::Null => 10,
        Bson::RegularExpression(_) => 11,
        Bson::DbPointer(_) => 12,
        Bson::JavaScriptCode(_) => 13,
        Bson::Symbol(_) => 14,
        Bson::JavaScriptCodeWithScope(_) => 15,
        Bson::Int32(_) => 16,
        Bson::Timestamp(_) => 17,
        Bson::Int64(_) => 18,
        Bson::Decimal128(_) => 19,
        Bson::MinKey => -1,
        Bson::MaxKey => 127,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::bson;

    #[test]
    fn names_numbers_and_number_alias() {
        let s = TypeSet::parse(&bson!("number")).unwrap();
        assert!(s.contains(&bson!(1.5)) && s.contains(&bson!(1_i64)));
        assert!(!s.contains(&bson!("x")));
        let s = TypeSet::parse(&bson!([2, "bool"])).unwrap();
        assert!(s.contains(&bson!("x")) && s.contains(&bson!(true)));
        assert!(TypeSet::parse(&bson!(-1)).unwrap().contains(&Bson::MinKey));
    }

    #[test]
    fn errors() {
        let e = TypeSet::parse(&bson!("foo")).unwrap_err();
        assert_eq!(e.message, "Unknown type name alias: foo");
        let e = TypeSet::parse(&bson!(100)).unwrap_err();
        assert_eq!(e.message, "Invalid numerical type code: 100");
        let e = TypeSet::parse(&bson!({"a": 1})).unwrap_err();
        assert_eq!(e.code(), 14);
    }
}

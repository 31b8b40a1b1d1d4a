//! The `collation` option of write and read commands. Sprout compares strings by code point
//! (MongoDB's "simple" collation) only; any other collation is refused with an error rather
//! than silently ignored.

use bson::Bson;

use crate::error::{Error, ErrorCode, Result};
use crate::value::display::type_name;

/// Checks a command's `collation` value (`qualified` names the field in messages, e.g.
/// `update.updates.collation`).
pub fn check_collation(value: Option<&Bson>, qualified: &str) -> Result<()> {
    let spec = match value {
        None => return Ok(()),
        Some(Bson::Document(d)) => d,
        Some(other) => {
            return Err(Error::type_mismatch(format!(
                "BSON field '{qualified}' is the wrong type '{}', expected type 'object'",
                type_name(other)
            )));
        }
    };
    match spec.get("locale") {
        None => Err(Error::location(
            40414,
            "BSON field 'locale' is missing but a required field",
        )),
        Some(Bson::String(locale)) if locale == "simple" => Ok(()),
        Some(Bson::String(locale)) => Err(Error::new(
            ErrorCode::NotImplemented,
            format!(
                "collation with locale '{locale}' is not supported by Sprout yet; only the simple collation is"
            ),
        )),
        Some(other) => Err(Error::type_mismatch(format!(
            "BSON field 'locale' is the wrong type '{}', expected type 'string'",
            type_name(other)
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::bson;

    #[test]
    fn only_the_simple_collation_passes() {
        assert!(check_collation(None, "count.collation").is_ok());
        assert!(check_collation(Some(&bson!({"locale": "simple"})), "count.collation").is_ok());
        let code = |v: Bson| {
            check_collation(Some(&v), "count.collation")
                .unwrap_err()
                .code()
        };
        assert_eq!(code(bson!({"locale": "en", "strength": 2})), 238);
        assert_eq!(code(bson!({"strength": 2})), 40414);
        assert_eq!(code(bson!(1)), 14);
        assert_eq!(code(bson!({"locale": 1})), 14);
    }
}

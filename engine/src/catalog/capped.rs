//! Capped collections: the `capped`, `size` and `max` options as MongoDB 8.0 validates and
//! stores them, and the limits that make an insert evict the oldest documents (natural order).
//!
//! MongoDB 8.0 allows deletes from capped collections (since 5.3, SERVER-63201) and updates that
//! change a document's size (since 5.3, SERVER-58865), so neither is refused here. It also keeps
//! `size` as given: the old rounding up to a multiple of 256 bytes (and the documented 4096-byte
//! floor the books mention) went away in 6.2 (SERVER-67246, SERVER-67036).

use bson::{Bson, Document};

use crate::error::{Error, ErrorCode, Result};
use crate::value::display::type_name;

/// The largest `size` MongoDB accepts: 1 PB.
pub const MAX_CAPPED_SIZE: i64 = 1024 * 1024 * 1024 * 1024 * 1024;

/// A capped collection's limits, read from its catalog options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CappedLimits {
    /// Bytes of BSON the documents may take together.
    pub max_size: i64,
    /// Documents the collection may hold (`None`: no count limit).
    pub max_docs: Option<i64>,
}

impl CappedLimits {
    /// The limits of a collection whose options say `capped: true`; `None` otherwise.
    pub fn from_options(options: &Document) -> Option<CappedLimits> {
        if !matches!(options.get("capped"), Some(Bson::Boolean(true))) {
            return None;
        }
        let max_size = options.get("size").and_then(as_whole).unwrap_or(0);
        let max_docs = options.get("max").and_then(as_whole).filter(|m| *m > 0);
        Some(CappedLimits { max_size, max_docs })
    }

    /// Whether a collection of `count` documents taking `bytes` is over the limits.
    pub fn exceeded(&self, count: usize, bytes: i64) -> bool {
        bytes > self.max_size || self.max_docs.is_some_and(|m| count as i64 > m)
    }
}

fn as_whole(v: &Bson) -> Option<i64> {
    match v {
        Bson::Int32(i) => Some(i64::from(*i)),
        Bson::Int64(i) => Some(*i),
        // `as` saturates (infinities to the i64 bounds) and turns NaN into 0, as the server's
        // safeNumberLong does.
        Bson::Double(d) => Some(*d as i64),
        Bson::Decimal128(_) => crate::value::as_i64(v),
        _ => None,
    }
}

/// Reads a numeric capped option (`size`, `max`) of command `cmd`; `None` when absent or null.
pub fn numeric_option(command: &Document, cmd: &str, field: &str) -> Result<Option<i64>> {
    match command.get(field) {
        None | Some(Bson::Null) => Ok(None),
        Some(v) => match as_whole(v) {
            Some(n) => Ok(Some(n)),
            None => Err(Error::type_mismatch(format!(
                "BSON field '{cmd}.{field}' is the wrong type '{}', expected types '[long, int, decimal, double]'",
                type_name(v)
            ))),
        },
    }
}

/// Checks a capped size (`size`, collMod's `cappedSize`) as the server's IDL does: 1 byte to
/// 1 PB.
pub fn validated_size(field: &str, size: i64) -> Result<i64> {
    if size < 1 {
        return Err(Error::bad_value(format!(
            "BSON field '{field}' value must be >= 1, actual value '{size}'"
        )));
    }
    if size > MAX_CAPPED_SIZE {
        return Err(Error::bad_value(format!(
            "BSON field '{field}' value must be <= {MAX_CAPPED_SIZE}, actual value '{size}'"
        )));
    }
    Ok(size)
}

/// Checks a capped document count (`max`, `cappedMax`): below 2^31; zero or less means no limit,
/// which the server stores as 2^31 - 1 (`adjustCappedMaxDocs`).
pub fn validated_max(field: &str, max: i64) -> Result<i64> {
    if max >= 1 << 31 {
        return Err(Error::bad_value(format!(
            "BSON field '{field}' value must be < 2147483648, actual value '{max}'"
        )));
    }
    Ok(if max <= 0 { i64::from(i32::MAX) } else { max })
}

/// The capped part of `create`'s options: `(capped, size, max)` checked together as mongod
/// does, with the size rounded. Returns the options to store, in `capped, size, max` order.
pub fn create_options(command: &Document) -> Result<Document> {
    let capped = match command.get("capped") {
        None | Some(Bson::Null) => false,
        Some(Bson::Boolean(b)) => *b,
        Some(v @ (Bson::Int32(_) | Bson::Int64(_) | Bson::Double(_) | Bson::Decimal128(_))) => {
            as_whole(v).is_none_or(|n| n != 0)
        }
        Some(other) => {
            return Err(Error::type_mismatch(format!(
                "BSON field 'create.capped' is the wrong type '{}', expected types '[bool, long, int, decimal, double]'",
                type_name(other)
            )));
        }
    };
    // The ranges are checked before the rules that tie size and max to capped.
    let size = numeric_option(command, "create", "size")?
        .map(|n| validated_size("size", n))
        .transpose()?;
    let max = numeric_option(command, "create", "max")?
        .map(|n| validated_max("max", n))
        .transpose()?;
    let mut out = Document::new();
    if !capped {
        if size.is_some() || max.is_some() {
            return Err(Error::new(
                ErrorCode::InvalidOptions,
                "the 'capped' field needs to be true when either the 'size' or 'max' fields are present",
            ));
        }
        return Ok(out);
    }
    let Some(size) = size else {
        return Err(Error::new(
            ErrorCode::InvalidOptions,
            "the 'size' field is required when 'capped' is true",
        ));
    };
    out.insert("capped", true);
    out.insert("size", stored_number(size));
    if let Some(max) = max {
        out.insert("max", stored_number(max));
    }
    Ok(out)
}

/// A stored size or count as the server's `appendNumber` writes it: an int when it fits.
pub fn stored_number(n: i64) -> Bson {
    i32::try_from(n).map_or(Bson::Int64(n), Bson::Int32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    #[test]
    fn sizes_are_kept_and_max_normalised() {
        let opts = |extra: Document| {
            let mut cmd = doc! {"create": "c"};
            cmd.extend(extra);
            create_options(&cmd)
        };
        assert_eq!(
            opts(doc! {"capped": true, "size": 10000, "max": 5000}).unwrap(),
            doc! {"capped": true, "size": 10000, "max": 5000}
        );
        assert_eq!(
            opts(doc! {"capped": 1, "size": 1000.7, "max": 3.7}).unwrap(),
            doc! {"capped": true, "size": 1000, "max": 3}
        );
        assert_eq!(
            opts(doc! {"capped": true, "size": 10, "max": -5_i64}).unwrap(),
            doc! {"capped": true, "size": 10, "max": i32::MAX}
        );
        assert_eq!(
            opts(doc! {"capped": true, "size": 1_i64 << 50}).unwrap(),
            doc! {"capped": true, "size": 1_i64 << 50}
        );
        assert_eq!(opts(doc! {}).unwrap(), doc! {});
    }

    #[test]
    fn option_errors_are_mongodbs() {
        let err = |extra: Document| {
            let mut cmd = doc! {"create": "c"};
            cmd.extend(extra);
            let e = create_options(&cmd).unwrap_err();
            (e.code(), e.message)
        };
        assert_eq!(
            err(doc! {"capped": true}),
            (
                72,
                "the 'size' field is required when 'capped' is true".into()
            )
        );
        assert_eq!(
            err(doc! {"max": 100}),
            (72, "the 'capped' field needs to be true when either the 'size' or 'max' fields are present".into())
        );
        assert_eq!(
            err(doc! {"size": 0}),
            (
                2,
                "BSON field 'size' value must be >= 1, actual value '0'".into()
            )
        );
        assert_eq!(
            err(doc! {"capped": true, "size": f64::INFINITY}),
            (2, "BSON field 'size' value must be <= 1125899906842624, actual value '9223372036854775807'".into())
        );
        assert_eq!(
            err(doc! {"capped": true, "size": 1, "max": 1_i64 << 31}),
            (
                2,
                "BSON field 'max' value must be < 2147483648, actual value '2147483648'".into()
            )
        );
        assert_eq!(err(doc! {"capped": true, "size": "x"}).0, 14);
    }

    #[test]
    fn limits_from_options() {
        let l = CappedLimits::from_options(&doc! {"capped": true, "size": 4096, "max": 3}).unwrap();
        assert!(l.exceeded(4, 10));
        assert!(l.exceeded(1, 4097));
        assert!(!l.exceeded(3, 4096));
        assert!(CappedLimits::from_options(&doc! {"size": 4096}).is_none());
        let no_max =
            CappedLimits::from_options(&doc! {"capped": true, "size": 256, "max": 0}).unwrap();
        assert_eq!(no_max.max_docs, None);
    }
}

//! Integral readings of numeric values: cursor ids, counts and numeric command options
//! (`limit`, `skip`, `$natural`, a projection's `1`/`0`), which accept any integral number type.

use bson::Bson;

/// `Bson::Int64` or `Int32` as i64, for cursor ids and counts.
pub fn as_i64(v: &Bson) -> Option<i64> {
    match v {
        Bson::Int32(i) => Some(i64::from(*i)),
        Bson::Int64(i) => Some(*i),
        Bson::Double(d) if d.fract() == 0.0 => Some(*d as i64),
        _ => None,
    }
}

/// A numeric option's value with its sign (a negative find `limit` means a single batch).
pub fn as_i64_signed(v: &Bson) -> i64 {
    match v {
        Bson::Double(d) => as_i64(v).unwrap_or(*d as i64),
        _ => as_i64(v).unwrap_or(0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integral_numbers_of_every_type() {
        assert_eq!(as_i64(&Bson::Int32(3)), Some(3));
        assert_eq!(as_i64(&Bson::Int64(-4)), Some(-4));
        assert_eq!(as_i64(&Bson::Double(5.0)), Some(5));
        assert_eq!(as_i64(&Bson::Double(5.5)), None);
        assert_eq!(as_i64(&Bson::String("5".into())), None);
        assert_eq!(as_i64_signed(&Bson::Double(-2.5)), -2);
        assert_eq!(as_i64_signed(&Bson::Null), 0);
    }
}

//! `$currentDate`: the engine clock's time as a date or a timestamp.

use bson::{Bson, Timestamp};

use super::apply::{LeafContext, Outcome};
use super::identical::identical;
use crate::error::{Error, Result};
use crate::value::display::type_name;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DateKind {
    Date,
    Timestamp,
}

/// `true`/`false` mean a date; `{$type: "date" | "timestamp"}` chooses.
pub fn parse(operand: &Bson) -> Result<DateKind> {
    match operand {
        Bson::Boolean(_) => Ok(DateKind::Date),
        Bson::Document(spec) => {
            let mut kind = None;
            for (k, v) in spec {
                if k != "$type" {
                    return Err(Error::bad_value(format!(
                        "Unrecognized $currentDate option: {k}"
                    )));
                }
                kind = match v {
                    Bson::String(s) if s == "date" => Some(DateKind::Date),
                    Bson::String(s) if s == "timestamp" => Some(DateKind::Timestamp),
                    _ => {
                        return Err(Error::bad_value(
                            "The '$type' string field is required to be 'date' or 'timestamp': {$currentDate: {field : {$type: 'date'}}}",
                        ));
                    }
                };
            }
            kind.ok_or_else(|| {
                Error::bad_value(
                    "The '$type' string field is required to be 'date' or 'timestamp': {$currentDate: {field : {$type: 'date'}}}",
                )
            })
        }
        other => Err(Error::bad_value(format!(
            "{} is not valid type for $currentDate. Please use a boolean ('true') or a $type expression ({{$type: 'timestamp/date'}}).",
            type_name(other)
        ))),
    }
}

pub fn apply(kind: DateKind, current: Option<&Bson>, cx: &LeafContext) -> Outcome {
    let now = match kind {
        DateKind::Date => Bson::DateTime(bson::DateTime::from_millis(cx.now_millis)),
        DateKind::Timestamp => Bson::Timestamp(Timestamp {
            time: u32::try_from(cx.now_millis.div_euclid(1000)).unwrap_or(0),
            increment: 1,
        }),
    };
    match current {
        Some(existing) if identical(existing, &now) => Outcome::Unchanged,
        _ => Outcome::Set(now),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    #[test]
    fn operands() {
        assert_eq!(parse(&Bson::Boolean(true)).unwrap(), DateKind::Date);
        assert_eq!(
            parse(&Bson::Document(doc! {"$type": "timestamp"})).unwrap(),
            DateKind::Timestamp
        );
        assert_eq!(
            parse(&Bson::Int32(1)).unwrap_err().message,
            "int is not valid type for $currentDate. Please use a boolean ('true') or a $type expression ({$type: 'timestamp/date'})."
        );
        assert_eq!(
            parse(&Bson::Document(doc! {"$type": "x"}))
                .unwrap_err()
                .code(),
            2
        );
        assert_eq!(
            parse(&Bson::Document(doc! {"foo": 1})).unwrap_err().message,
            "Unrecognized $currentDate option: foo"
        );
    }

    #[test]
    fn uses_the_engine_clock() {
        let original = doc! {"_id": 1};
        let mut cx = LeafContext::for_tests(&original, "d");
        cx.now_millis = 1_700_000_000_123;
        match apply(DateKind::Date, None, &cx) {
            Outcome::Set(Bson::DateTime(d)) => assert_eq!(d.timestamp_millis(), 1_700_000_000_123),
            other => panic!("{other:?}"),
        }
        match apply(DateKind::Timestamp, None, &cx) {
            Outcome::Set(Bson::Timestamp(t)) => assert_eq!(t.time, 1_700_000_000),
            other => panic!("{other:?}"),
        }
    }
}

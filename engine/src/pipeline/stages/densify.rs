//! `$densify: {field, partitionByFields, range: {step, unit, bounds}}`: documents added so that
//! the field takes every value of the step grid within the bounds, per partition. The grid is
//! anchored at the lower bound; `bounds` is `"full"` (the field's range over all documents),
//! `"partition"` (each partition's own range) or `[lower, upper)` explicitly. Generated
//! documents hold only the field and the partition fields. Output is sorted by partition, then
//! field; documents without the field pass through first (they sort lowest).

use std::collections::BTreeMap;

use bson::{Bson, DateTime, Document, doc};

use super::window_function::set_path;
use crate::error::{Error, Result};
use crate::path::{FieldPath, lookup};
use crate::pipeline::{ParseContext, RunContext, Stage};
use crate::value::display::type_name;
use crate::value::{OrderedValue, compare_values};

#[derive(Debug)]
pub struct Densify {
    field: String,
    partition_fields: Vec<String>,
    step: f64,
    unit: Option<Unit>,
    bounds: Bounds,
    spec: Document,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Unit {
    Millis(i64),
    Months(i32),
}

#[derive(Debug)]
enum Bounds {
    Full,
    Partition,
    Explicit(f64, f64),
}

fn fail(code: i32, message: impl Into<String>) -> Error {
    Error::location(code, message)
}

pub fn parse(arg: &Bson, _cx: &ParseContext<'_>) -> Result<Box<dyn Stage>> {
    let Bson::Document(spec) = arg else {
        return Err(fail(
            6246800,
            format!(
                "$densify specification must be an object, found {}",
                type_name(arg)
            ),
        ));
    };
    let (mut field, mut partition_fields, mut range) = (None, Vec::new(), None);
    for (k, v) in spec {
        match (k.as_str(), v) {
            ("field", Bson::String(f)) => field = Some(f.clone()),
            ("partitionByFields", Bson::Array(items)) => {
                for item in items {
                    let Bson::String(p) = item else {
                        return Err(Error::type_mismatch(
                            "BSON field '$densify.partitionByFields' must contain strings",
                        ));
                    };
                    partition_fields.push(p.clone());
                }
            }
            ("range", Bson::Document(r)) => range = Some(r),
            ("field" | "partitionByFields" | "range", other) => {
                return Err(Error::type_mismatch(format!(
                    "BSON field '$densify.{k}' is the wrong type '{}'",
                    type_name(other)
                )));
            }
            _ => {
                return Err(fail(
                    40415,
                    format!("BSON field '$densify.{k}' is an unknown field."),
                ));
            }
        }
    }
    let field = field.ok_or_else(|| {
        fail(
            40414,
            "BSON field '$densify.field' is missing but a required field",
        )
    })?;
    let range = range.ok_or_else(|| {
        fail(
            40414,
            "BSON field '$densify.range' is missing but a required field",
        )
    })?;
    if field.starts_with('$') {
        return Err(fail(16410, "FieldPath field names may not start with '$'"));
    }
    let step = match range.get("step").and_then(crate::accumulator::sum::as_f64) {
        Some(s) if s > 0.0 && s.is_finite() => s,
        Some(_) => {
            return Err(fail(
                5733401,
                "the step parameter in a range statement must be a strictly positive numeric value",
            ));
        }
        None => {
            return Err(fail(
                40414,
                "BSON field '$densify.range.step' is missing but a required field",
            ));
        }
    };
    let unit = match range.get("unit") {
        None => None,
        Some(Bson::String(u)) => Some(parse_unit(u)?),
        Some(other) => {
            return Err(Error::type_mismatch(format!(
                "BSON field '$densify.range.unit' is the wrong type '{}', expected type 'string'",
                type_name(other)
            )));
        }
    };
    if unit.is_some_and(|u| matches!(u, Unit::Months(_))) && step.fract() != 0.0 {
        return Err(fail(
            6586400,
            "The step parameter in a range satement must be a whole number when densifying a date range",
        ));
    }
    let bounds = match range.get("bounds") {
        Some(Bson::String(s)) if s == "full" => Bounds::Full,
        Some(Bson::String(s)) if s == "partition" => Bounds::Partition,
        Some(Bson::Array(b)) if b.len() == 2 => {
            let as_number = |v: &Bson| match (v, unit) {
                (Bson::DateTime(d), Some(_)) => Some(d.timestamp_millis() as f64),
                (Bson::DateTime(_), None) => None,
                (other, None) => crate::accumulator::sum::as_f64(other),
                (_, Some(_)) => None,
            };
            match (as_number(&b[0]), as_number(&b[1])) {
                (Some(lo), Some(hi)) if lo <= hi => Bounds::Explicit(lo, hi),
                _ => {
                    return Err(fail(
                        5733403,
                        "a bounding array in a range statement must be an ascending array of \
                         either two dates or two numbers, with a unit for dates",
                    ));
                }
            }
        }
        _ => {
            return Err(fail(
                5946802,
                "the bounds in a range statement must be the string 'full', 'partition', or an \
                 ascending array of two numbers or two dates",
            ));
        }
    };
    if !partition_fields.is_empty() && partition_fields.contains(&field) {
        return Err(fail(
            8993000,
            "The field to densify cannot be a partition field",
        ));
    }
    Ok(Box::new(Densify {
        field,
        partition_fields,
        step,
        unit,
        bounds,
        spec: spec.clone(),
    }))
}

fn parse_unit(u: &str) -> Result<Unit> {
    Ok(match u {
        "millisecond" => Unit::Millis(1),
        "second" => Unit::Millis(1_000),
        "minute" => Unit::Millis(60_000),
        "hour" => Unit::Millis(3_600_000),
        "day" => Unit::Millis(86_400_000),
        "week" => Unit::Millis(604_800_000),
        "month" => Unit::Months(1),
        "quarter" => Unit::Months(3),
        "year" => Unit::Months(12),
        other => {
            return Err(Error::bad_value(format!(
                "unknown time unit value: {other}"
            )));
        }
    })
}

/// The Julian day number of 1970-01-01.
const UNIX_EPOCH_JULIAN_DAY: i64 = 2_440_588;

/// `ms` plus `months` calendar months (the day clamped to the month's length), in UTC, with the
/// `time` crate's calendar; `None` outside the dates it represents.
fn add_months(ms: i64, months: i64) -> Option<i64> {
    let days = ms.div_euclid(86_400_000);
    let time_of_day = ms.rem_euclid(86_400_000);
    let date =
        time::Date::from_julian_day(i32::try_from(days + UNIX_EPOCH_JULIAN_DAY).ok()?).ok()?;
    let total = i64::from(date.year()) * 12 + i64::from(u8::from(date.month())) - 1 + months;
    let year = i32::try_from(total.div_euclid(12)).ok()?;
    let month = time::Month::try_from(u8::try_from(total.rem_euclid(12) + 1).ok()?).ok()?;
    let day = date.day().min(month.length(year));
    let target = time::Date::from_calendar_date(year, month, day).ok()?;
    Some((i64::from(target.to_julian_day()) - UNIX_EPOCH_JULIAN_DAY) * 86_400_000 + time_of_day)
}

impl Densify {
    /// The field's value as a grid coordinate: a number, or a date's milliseconds with a unit.
    fn coordinate(&self, v: &Bson) -> Result<f64> {
        match (v, self.unit) {
            (Bson::DateTime(d), Some(_)) => Ok(d.timestamp_millis() as f64),
            (other, None) => crate::accumulator::sum::as_f64(other).ok_or_else(|| {
                fail(
                    5733201,
                    format!(
                        "Densify field type must be numeric, but found {}",
                        type_name(other)
                    ),
                )
            }),
            (other, Some(_)) => Err(fail(
                5733200,
                format!(
                    "Densify field type must be a date when a unit is given, but found {}",
                    type_name(other)
                ),
            )),
        }
    }

    /// The grid value after `x`.
    fn next(&self, x: f64) -> f64 {
        match self.unit {
            None => x + self.step,
            Some(Unit::Millis(ms)) => x + self.step * ms as f64,
            Some(Unit::Months(m)) => add_months(x as i64, i64::from(m) * self.step as i64)
                .map_or(f64::INFINITY, |v| v as f64),
        }
    }

    fn value_at(&self, x: f64) -> Bson {
        match self.unit {
            Some(_) => Bson::DateTime(DateTime::from_millis(x as i64)),
            None if x.fract() == 0.0 && x.abs() < 2_147_483_648.0 && self.step.fract() == 0.0 => {
                Bson::Int32(x as i32)
            }
            None => Bson::Double(x),
        }
    }

    /// Grid values in `[lo, hi)` not already present (`existing` is sorted). `generated`
    /// counts the documents made so far by the whole stage, against MongoDB's limit.
    fn generate(
        &self,
        (lo, hi): (f64, f64),
        existing: &[f64],
        template: &Document,
        generated: &mut usize,
        out: &mut Vec<Document>,
    ) -> Result<()> {
        let mut x = lo;
        while x < hi {
            if existing.binary_search_by(|e| e.total_cmp(&x)).is_err() {
                if *generated == MAX_GENERATED_DOCS {
                    return Err(too_many_generated());
                }
                *generated += 1;
                let mut d = template.clone();
                set_path(&mut d, &self.field, self.value_at(x));
                out.push(d);
            }
            let next = self.next(x);
            // A step below the precision of a double at `x` (or a date past the calendar's
            // end) would not move: the grid ends there.
            if next.partial_cmp(&x) != Some(std::cmp::Ordering::Greater) {
                break;
            }
            x = next;
        }
        Ok(())
    }
}

/// MongoDB's `internalQueryMaxAllowedDensifyDocs` default: the most documents one `$densify`
/// may generate.
pub const MAX_GENERATED_DOCS: usize = 500_000;

/// MongoDB's error 5897900 (document_source_densify.cpp), raised when the stage is about to
/// return one generated document more than the limit. Sprout has no server parameters to raise
/// it, so the message ends with what to change in the stage instead.
fn too_many_generated() -> Error {
    fail(
        5897900,
        format!(
            "Generated {} documents in $densify, which is over the limit of \
             {MAX_GENERATED_DOCS}. Increase the 'internalQueryMaxAllowedDensifyDocs' parameter \
             to allow more generated documents (Sprout cannot change this parameter: use a \
             larger step, narrower bounds or fewer partitions)",
            MAX_GENERATED_DOCS + 1
        ),
    )
}

impl Stage for Densify {
    fn name(&self) -> &'static str {
        "$densify"
    }

    fn apply(&self, input: Vec<Document>, _cx: &RunContext<'_>) -> Result<Vec<Document>> {
        let path = FieldPath::parse(&self.field);
        let mut without_field = Vec::new();
        let mut partitions: BTreeMap<OrderedValue, (Document, Vec<(f64, Document)>)> =
            BTreeMap::new();
        for doc in input {
            let Some(v) = lookup(&doc, &path)
                .filter(|v| !matches!(v, Bson::Null))
                .cloned()
            else {
                without_field.push(doc);
                continue;
            };
            let x = self.coordinate(&v)?;
            let mut template = Document::new();
            for p in &self.partition_fields {
                if let Some(pv) = lookup(&doc, &FieldPath::parse(p)) {
                    set_path(&mut template, p, pv.clone());
                }
            }
            let key = OrderedValue(Bson::Document(template.clone()));
            partitions
                .entry(key)
                .or_insert_with(|| (template, Vec::new()))
                .1
                .push((x, doc));
        }
        let all: Vec<f64> = partitions
            .values()
            .flat_map(|p| p.1.iter().map(|e| e.0))
            .collect();
        let full = (
            all.iter().copied().fold(f64::INFINITY, f64::min),
            all.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        );
        let mut out = without_field;
        let mut generated_count = 0;
        for (_, (template, mut docs)) in partitions {
            crate::sort_slice::sort_by(&mut docs, |a, b| a.0.total_cmp(&b.0));
            let existing: Vec<f64> = docs.iter().map(|d| d.0).collect();
            let (lo, hi) = match self.bounds {
                Bounds::Full => full,
                Bounds::Partition => (existing[0], existing[existing.len() - 1]),
                Bounds::Explicit(lo, hi) => (lo, hi),
            };
            let mut generated = Vec::new();
            self.generate(
                (lo, hi),
                &existing,
                &template,
                &mut generated_count,
                &mut generated,
            )?;
            let mut merged: Vec<Document> = docs.into_iter().map(|d| d.1).collect();
            merged.extend(generated);
            crate::sort_slice::sort_by(&mut merged, |a, b| {
                let va = lookup(a, &path).cloned().unwrap_or(Bson::Null);
                let vb = lookup(b, &path).cloned().unwrap_or(Bson::Null);
                compare_values(&va, &vb)
            });
            out.extend(merged);
        }
        Ok(out)
    }

    fn serialize(&self) -> Document {
        doc! {"$densify": self.spec.clone()}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calendar_months_clamp_the_day() {
        let day = 86_400_000i64;
        // 2024-01-31 + 1 month = 2024-02-29; 2023-11-05 + 3 months = 2024-02-05.
        assert_eq!(add_months(19_753 * day, 1), Some(19_782 * day));
        assert_eq!(add_months(19_666 * day + 5, 3), Some(19_758 * day + 5));
        assert_eq!(add_months(0, -1), Some(-31 * day));
    }
}

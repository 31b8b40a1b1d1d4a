//! The one-argument accumulators: `$sum $avg $min $max $first $last $push $addToSet
//! $mergeObjects $stdDevPop $stdDevSamp` (and `$count`, which is `$sum: 1`).

use std::cmp::Ordering;
use std::collections::BTreeSet;

use bson::{Bson, Document};

use super::FoldOp as Op;
use super::sum::NumericSum;
use crate::error::{Error, Result};
use crate::value::display::type_name;
use crate::value::{OrderedValue, compare_values};

#[derive(Debug, Clone)]
pub enum SimpleState {
    Sum(NumericSum),
    /// Welford's running mean and sum of squared deviations, as MongoDB computes `$stdDev*`.
    Deviation {
        count: u64,
        mean: f64,
        m2: f64,
    },
    /// `$min`/`$max`/`$first`/`$last`: the value so far. For `$first`, `Some(None)` records a
    /// missing first value.
    One(Option<Option<Bson>>),
    List(Vec<Bson>),
    Set(SetState),
    Merged(Document),
}

/// `$addToSet`: the values in first-seen order, with an ordered index for membership.
#[derive(Debug, Clone, Default)]
pub struct SetState {
    order: Vec<Bson>,
    seen: BTreeSet<OrderedValue>,
}

impl SimpleState {
    pub fn numeric(sum: bool) -> SimpleState {
        if sum {
            SimpleState::Sum(NumericSum::default())
        } else {
            SimpleState::Deviation {
                count: 0,
                mean: 0.0,
                m2: 0.0,
            }
        }
    }

    pub fn process(&mut self, op: Op, value: Option<Bson>) -> Result<()> {
        match self {
            SimpleState::Sum(s) => {
                if let Some(v) = &value {
                    s.add(v);
                }
            }
            SimpleState::Deviation { count, mean, m2 } => {
                if let Some(x) = value.as_ref().and_then(number_as_f64) {
                    *count += 1;
                    let delta = x - *mean;
                    if delta != 0.0 {
                        *mean += delta / *count as f64;
                        *m2 += delta * (x - *mean);
                    }
                }
            }
            SimpleState::One(current) => match op {
                Op::First => {
                    if current.is_none() {
                        *current = Some(value);
                    }
                }
                Op::Last => *current = Some(value),
                _ => {
                    let Some(v) = value else { return Ok(()) };
                    if matches!(v, Bson::Null | Bson::Undefined) {
                        return Ok(());
                    }
                    let wanted = if matches!(op, Op::Min) {
                        Ordering::Less
                    } else {
                        Ordering::Greater
                    };
                    let replace = match current {
                        Some(Some(best)) => compare_values(&v, best) == wanted,
                        _ => true,
                    };
                    if replace {
                        *current = Some(Some(v));
                    }
                }
            },
            SimpleState::List(items) => {
                if let Some(v) = value {
                    items.push(v);
                }
            }
            SimpleState::Set(set) => {
                if let Some(v) = value
                    && set.seen.insert(OrderedValue(v.clone()))
                {
                    set.order.push(v);
                }
            }
            SimpleState::Merged(out) => match value {
                None | Some(Bson::Null | Bson::Undefined) => {}
                Some(Bson::Document(d)) => {
                    for (k, v) in d {
                        out.insert(k, v);
                    }
                }
                Some(other) => {
                    return Err(Error::location(
                        40400,
                        format!(
                            "$mergeObjects requires object inputs, but input {} is of type {}",
                            crate::value::display::key_value(&other),
                            type_name(&other)
                        ),
                    ));
                }
            },
        }
        Ok(())
    }

    pub fn value(&self, op: Op) -> Bson {
        match self {
            SimpleState::Sum(s) => match op {
                Op::Avg => s.mean(),
                _ => s.total(),
            },
            SimpleState::Deviation { count, m2, .. } => {
                let n = match (op, *count) {
                    (_, 0) | (Op::StdDevSamp, 1) => return Bson::Null,
                    (Op::StdDevSamp, c) => (c - 1) as f64,
                    (_, c) => c as f64,
                };
                Bson::Double((m2 / n).sqrt())
            }
            SimpleState::One(v) => v.clone().flatten().unwrap_or(Bson::Null),
            SimpleState::List(items) => Bson::Array(items.clone()),
            SimpleState::Set(set) => Bson::Array(set.order.clone()),
            SimpleState::Merged(d) => Bson::Document(d.clone()),
        }
    }
}

pub use super::sum::as_f64 as number_as_f64;

//! The accumulators that keep up to `n` values: `$firstN $lastN $minN $maxN` (`{input, n}`)
//! and `$top $bottom $topN $bottomN` (`{output, sortBy[, n]}`), with MongoDB's argument
//! errors.

use std::cmp::Ordering;
use std::collections::VecDeque;

use bson::Bson;

use super::describe;
use crate::error::{Error, Result};
use crate::expression::{Expression, Scope};
use crate::sort::SortSpec;
use crate::value::compare_values;

/// MongoDB's checks on an evaluated `n`: a positive integral number.
pub fn validate_n(n: &Option<Bson>) -> Result<usize> {
    let not_integral = || {
        Error::location(
            5787902,
            format!(
                "Value for 'n' must be of integral type, but found {}",
                describe(n)
            ),
        )
    };
    let value = match n {
        Some(Bson::Int32(i)) => i64::from(*i),
        Some(Bson::Int64(i)) => *i,
        Some(Bson::Double(d)) => {
            if !d.is_finite() || d.fract() != 0.0 {
                return Err(not_integral());
            }
            *d as i64
        }
        Some(Bson::Decimal128(d)) => {
            let d = crate::value::Decimal::from_bson(d);
            let truncated = d.to_i64_truncated().ok_or_else(not_integral)?;
            if crate::value::Decimal::from_i64(truncated).total_cmp(&d) != Ordering::Equal {
                return Err(not_integral());
            }
            truncated
        }
        _ => return Err(not_integral()),
    };
    if value <= 0 {
        return Err(Error::location(
            5787908,
            format!("'n' must be greater than 0, found {value}"),
        ));
    }
    Ok(usize::try_from(value).unwrap_or(usize::MAX))
}

/// `{input, n}` of `$firstN $lastN $minN $maxN`.
pub fn parse_n_input(name: &str, spec: &Bson, scope: &Scope) -> Result<(Expression, Expression)> {
    let Bson::Document(d) = spec else {
        let code = if matches!(name, "$minN" | "$maxN") {
            5787900
        } else {
            5787801
        };
        return Err(Error::location(
            code,
            format!(
                "specification must be an object; found {}",
                crate::value::display::key_value(spec)
            ),
        ));
    };
    let (mut n, mut input) = (None, None);
    for (k, v) in d {
        match k.as_str() {
            "input" => input = Some(Expression::parse_in(v, scope)?),
            "n" => n = Some(Expression::parse_in(v, scope)?),
            _ => {
                return Err(Error::location(
                    5787901,
                    format!("Unknown argument for 'n' operator: {k}"),
                ));
            }
        }
    }
    let n = n.ok_or_else(|| Error::location(5787906, "Missing value for 'n'"))?;
    let input = input.ok_or_else(|| Error::location(5787907, "Missing value for 'input'"))?;
    Ok((n, input))
}

pub struct TopBottomSpec {
    pub sort: SortSpec,
    pub output: Expression,
    pub n: Option<Expression>,
}

/// `{output, sortBy[, n]}` of `$top $bottom $topN $bottomN`.
pub fn parse_top_bottom(
    name: &str,
    single: bool,
    spec: &Bson,
    scope: &Scope,
) -> Result<TopBottomSpec> {
    let Bson::Document(d) = spec else {
        return Err(Error::location(
            5788001,
            format!(
                "specification must be an object; found {}",
                crate::value::display::key_value(spec)
            ),
        ));
    };
    let (mut n, mut output, mut sort) = (None, None, None);
    for (k, v) in d {
        match k.as_str() {
            "n" if !single => n = Some(Expression::parse_in(v, scope)?),
            "output" => output = Some(Expression::parse_in(v, scope)?),
            "sortBy" => {
                let Bson::Document(s) = v else {
                    return Err(Error::location(
                        10065,
                        format!("invalid parameter: expected an object ({k})"),
                    ));
                };
                sort = Some(SortSpec::parse(s)?);
            }
            _ => {
                return Err(Error::location(
                    5788002,
                    format!("Unknown argument to {name} '{k}'"),
                ));
            }
        }
    }
    if !single && n.is_none() {
        return Err(Error::location(5788003, "Missing value for 'n'"));
    }
    let output = output.ok_or_else(|| Error::location(5788004, "Missing value for 'output'"))?;
    let sort = sort.ok_or_else(|| Error::location(5788005, "Missing value for 'sortBy'"))?;
    Ok(TopBottomSpec { sort, output, n })
}

/// The kept values of an N-accumulator.
#[derive(Debug, Clone)]
pub struct NState {
    n: usize,
    values: VecDeque<Bson>,
    /// For `$top`-like accumulators: each kept value's sort key, parallel to `values`.
    keys: VecDeque<Vec<Bson>>,
}

impl NState {
    pub fn new(n: usize) -> NState {
        NState {
            n,
            values: VecDeque::new(),
            keys: VecDeque::new(),
        }
    }

    pub fn push_first(&mut self, v: Bson) {
        if self.values.len() < self.n {
            self.values.push_back(v);
        }
    }

    pub fn push_last(&mut self, v: Bson) {
        if self.values.len() == self.n {
            self.values.pop_front();
        }
        self.values.push_back(v);
    }

    /// `$minN`/`$maxN`: values are kept ascending; nullish values are ignored.
    pub fn offer_extreme(&mut self, v: Option<Bson>, max: bool) {
        let Some(v) = v else { return };
        if matches!(v, Bson::Null | Bson::Undefined) {
            return;
        }
        if self.values.len() == self.n {
            let (edge, wanted) = if max {
                (self.values.front(), Ordering::Greater)
            } else {
                (self.values.back(), Ordering::Less)
            };
            match edge {
                Some(e) if compare_values(&v, e) == wanted => {}
                _ => return,
            }
            if max {
                self.values.pop_front();
            } else {
                self.values.pop_back();
            }
        }
        let at = self
            .values
            .partition_point(|x| compare_values(x, &v) != Ordering::Greater);
        self.values.insert(at, v);
    }

    /// `$top`/`$bottom`: entries kept in sort order; on a tie the first seen stays.
    pub fn offer_sorted(&mut self, sort: &SortSpec, key: Vec<Bson>, v: Bson, bottom: bool) {
        if self.values.len() == self.n {
            if bottom {
                match self.keys.front() {
                    Some(first) if sort.compare_keys(&key, first) == Ordering::Greater => {
                        self.keys.pop_front();
                        self.values.pop_front();
                    }
                    _ => return,
                }
            } else {
                match self.keys.back() {
                    Some(last) if sort.compare_keys(last, &key) == Ordering::Greater => {
                        self.keys.pop_back();
                        self.values.pop_back();
                    }
                    _ => return,
                }
            }
        }
        let at = self
            .keys
            .partition_point(|k| sort.compare_keys(k, &key) != Ordering::Greater);
        self.keys.insert(at, key);
        self.values.insert(at, v);
    }

    pub fn items(&self) -> Bson {
        Bson::Array(self.values.iter().cloned().collect())
    }

    /// `$maxN` gives its values largest first.
    pub fn extremes(&self, max: bool) -> Bson {
        if max {
            Bson::Array(self.values.iter().rev().cloned().collect())
        } else {
            self.items()
        }
    }

    /// `$top`/`$bottom` give the value itself (null when nothing was seen); the N forms an array.
    pub fn sorted_output(&self, single: bool) -> Bson {
        if single {
            self.values.front().cloned().unwrap_or(Bson::Null)
        } else {
            self.items()
        }
    }
}

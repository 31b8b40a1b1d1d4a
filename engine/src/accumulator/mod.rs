//! Accumulators: the operators that fold many documents into one value (`$sum`, `$push`,
//! `$topN`...), used by `$group`, `$bucket`, `$bucketAuto` and `$setWindowFields`.
//!
//! An [`Accumulator`] is parsed once from `{$op: <spec>}`; each group (or window) gets a fresh
//! [`State`] from [`Accumulator::start`], is fed documents with [`Accumulator::accumulate`] and
//! gives its result with [`Accumulator::value`]. Arguments are aggregation expressions evaluated
//! against each document. Semantics follow MongoDB 8.0:
//! - missing values are skipped by `$push`/`$addToSet`; nullish ones by `$min`/`$max`/`$minN`/
//!   `$maxN`/`$mergeObjects`; `$first`/`$last`/`$firstN`/`$lastN` keep them (as null);
//! - numeric accumulators ignore non-numbers (see [`crate::fold::sum::NumericSum`] for result types);
//! - `n` is evaluated once per group against the group's `_id` (so it may depend on it).

mod n_family;
mod quantile;
pub use crate::fold::sum;

#[cfg(test)]
mod tests;

use bson::{Bson, Document};

use crate::error::{Error, ErrorCode, Result};
use crate::expression::{Expression, Scope, Vars};
use crate::fold::{FoldOp, SimpleState};
use crate::sort::SortSpec;
use crate::value::display::key_value;

pub use n_family::validate_n;

/// Which accumulator, with its operator-specific parsed arguments.
#[derive(Debug, Clone)]
enum Op {
    Sum,
    Avg,
    Min,
    Max,
    First,
    Last,
    Push,
    AddToSet,
    MergeObjects,
    StdDevPop,
    StdDevSamp,
    FirstN,
    LastN,
    MinN,
    MaxN,
    /// `$top`, `$bottom`, `$topN`, `$bottomN`.
    TopBottom {
        sort: SortSpec,
        bottom: bool,
        single: bool,
    },
    /// `$median` (one value) and `$percentile` (an array, one per `p`).
    Quantile {
        ps: Vec<f64>,
        median: bool,
    },
}

impl Op {
    /// The fold of a one-argument accumulator (the others never reach a simple state).
    fn fold(&self) -> FoldOp {
        match self {
            Op::Sum => FoldOp::Sum,
            Op::Avg => FoldOp::Avg,
            Op::Min => FoldOp::Min,
            Op::Max => FoldOp::Max,
            Op::First => FoldOp::First,
            Op::Last => FoldOp::Last,
            Op::Push => FoldOp::Push,
            Op::AddToSet => FoldOp::AddToSet,
            Op::MergeObjects => FoldOp::MergeObjects,
            Op::StdDevSamp => FoldOp::StdDevSamp,
            _ => FoldOp::StdDevPop,
        }
    }
}

/// A parsed accumulator, `{$sum: "$qty"}`.
#[derive(Debug, Clone)]
pub struct Accumulator {
    name: &'static str,
    op: Op,
    /// The per-document input (`output` for `$top`-like accumulators).
    argument: Expression,
    /// `n` of the N-accumulators.
    n: Option<Expression>,
    /// The specification as written (explain shows the object forms as given).
    spec: Bson,
}

/// The accumulator names, as MongoDB spells them.
pub const NAMES: &[&str] = &[
    "$sum",
    "$avg",
    "$min",
    "$max",
    "$first",
    "$last",
    "$push",
    "$addToSet",
    "$count",
    "$mergeObjects",
    "$stdDevPop",
    "$stdDevSamp",
    "$top",
    "$bottom",
    "$topN",
    "$bottomN",
    "$firstN",
    "$lastN",
    "$maxN",
    "$minN",
    "$median",
    "$percentile",
];

/// The running state of one accumulator for one group or window.
#[derive(Debug, Clone)]
pub struct State(StateKind);

#[derive(Debug, Clone)]
enum StateKind {
    Simple(SimpleState),
    N(n_family::NState),
    Quantile(Vec<f64>),
}

impl Accumulator {
    /// Parses `{<name>: <spec>}`'s parts. Unknown names give `None`: the caller knows which
    /// error its stage reports.
    pub fn parse(name: &str, spec: &Bson, scope: &Scope) -> Result<Option<Accumulator>> {
        let Some(&name) = NAMES.iter().find(|n| **n == name) else {
            return Ok(None);
        };
        let unary = |op: Op| -> Result<Accumulator> {
            Ok(Accumulator {
                name,
                op,
                argument: Expression::parse_in(spec, scope)?,
                n: None,
                spec: spec.clone(),
            })
        };
        Ok(Some(match name {
            "$sum" => unary(Op::Sum)?,
            "$avg" => unary(Op::Avg)?,
            "$min" => unary(Op::Min)?,
            "$max" => unary(Op::Max)?,
            "$first" => unary(Op::First)?,
            "$last" => unary(Op::Last)?,
            "$push" => unary(Op::Push)?,
            "$addToSet" => unary(Op::AddToSet)?,
            "$mergeObjects" => unary(Op::MergeObjects)?,
            "$stdDevPop" => unary(Op::StdDevPop)?,
            "$stdDevSamp" => unary(Op::StdDevSamp)?,
            "$count" => {
                if !matches!(spec, Bson::Document(d) if d.is_empty()) {
                    return Err(Error::new(
                        ErrorCode::TypeMismatch,
                        "$count takes no arguments, i.e. $count:{}",
                    ));
                }
                Accumulator {
                    name,
                    op: Op::Sum,
                    argument: Expression::Constant(Bson::Int32(1)),
                    n: None,
                    spec: spec.clone(),
                }
            }
            "$firstN" | "$lastN" | "$minN" | "$maxN" => {
                let (n, input) = n_family::parse_n_input(name, spec, scope)?;
                let op = match name {
                    "$firstN" => Op::FirstN,
                    "$lastN" => Op::LastN,
                    "$minN" => Op::MinN,
                    _ => Op::MaxN,
                };
                Accumulator {
                    name,
                    op,
                    argument: input,
                    n: Some(n),
                    spec: spec.clone(),
                }
            }
            "$top" | "$bottom" | "$topN" | "$bottomN" => {
                let single = matches!(name, "$top" | "$bottom");
                let parsed = n_family::parse_top_bottom(name, single, spec, scope)?;
                Accumulator {
                    name,
                    op: Op::TopBottom {
                        sort: parsed.sort,
                        bottom: name.starts_with("$bottom"),
                        single,
                    },
                    argument: parsed.output,
                    n: parsed.n,
                    spec: spec.clone(),
                }
            }
            _ => {
                let median = name == "$median";
                let (input, ps) = quantile::parse(name, spec, scope)?;
                Accumulator {
                    name,
                    op: Op::Quantile { ps, median },
                    argument: input,
                    n: None,
                    spec: spec.clone(),
                }
            }
        }))
    }

    /// The accumulator's name (`"$sum"`).
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The accumulator as explain shows it (`{$sum: {$const: 1}}`).
    pub fn serialize(&self) -> Bson {
        let arg = match (&self.op, self.name) {
            (_, "$count") => Bson::Document(Document::new()),
            (Op::Sum | Op::Avg | Op::Min | Op::Max | Op::First | Op::Last, _)
            | (Op::Push | Op::AddToSet | Op::MergeObjects, _)
            | (Op::StdDevPop | Op::StdDevSamp, _) => self.argument.serialize(),
            _ => self.spec.clone(),
        };
        let mut d = Document::new();
        d.insert(self.name, arg);
        Bson::Document(d)
    }

    /// A fresh state for a group whose `_id` is `group_id` (`n` may refer to its fields).
    pub fn start(&self, group_id: &Bson) -> Result<State> {
        let n = match &self.n {
            None => 1,
            Some(expr) => {
                let empty = Document::new();
                let root = match group_id {
                    Bson::Document(d) => d,
                    _ => &empty,
                };
                validate_n(&expr.evaluate(root)?)?
            }
        };
        Ok(State(match &self.op {
            op @ (Op::Sum
            | Op::Avg
            | Op::Min
            | Op::Max
            | Op::First
            | Op::Last
            | Op::Push
            | Op::AddToSet
            | Op::MergeObjects
            | Op::StdDevPop
            | Op::StdDevSamp) => StateKind::Simple(op.fold().start()),
            Op::FirstN | Op::LastN | Op::MinN | Op::MaxN | Op::TopBottom { .. } => {
                StateKind::N(n_family::NState::new(n))
            }
            Op::Quantile { .. } => StateKind::Quantile(Vec::new()),
        }))
    }

    /// Whether feeding a document reads its fields (the argument, or the `sortBy` of
    /// `$top`/`$bottom`); `n` is evaluated against the group's `_id`, not the document.
    pub fn reads_document(&self) -> bool {
        self.argument.reads_document() || matches!(self.op, Op::TopBottom { .. })
    }

    /// The top-level fields feeding a document reads ([`Expression::top_level_fields`]);
    /// `false` when it may read more (the whole document, or `$top`/`$bottom`'s `sortBy`).
    pub fn top_level_fields<'e>(&'e self, out: &mut Vec<&'e str>) -> bool {
        !matches!(self.op, Op::TopBottom { .. }) && self.argument.top_level_fields(out)
    }

    /// The expression each document is fed through (`$qty` of `{$sum: "$qty"}`).
    pub fn argument(&self) -> &Expression {
        &self.argument
    }

    /// Whether [`Accumulator::fold`] can feed a document: every accumulator but
    /// `$top`/`$bottom`, whose `sortBy` reads the document itself.
    pub fn folds_values(&self) -> bool {
        !matches!(self.op, Op::TopBottom { .. })
    }

    /// Whether this is `$sum` (or `$count`), which ignores every value but numbers.
    pub fn is_sum(&self) -> bool {
        matches!(self.op, Op::Sum)
    }

    /// [`Accumulator::fold`] of a value that stays where it is: `$sum` adds it without a
    /// copy (the fused `$group`'s constants, `{$sum: 1}`); the others take a copy.
    pub fn fold_ref(&self, state: &mut State, value: Option<&Bson>) -> Result<()> {
        if let (Op::Sum, StateKind::Simple(SimpleState::Sum(s))) = (&self.op, &mut state.0) {
            if let Some(v) = value {
                s.add(v);
            }
            return Ok(());
        }
        self.fold(state, value.cloned())
    }

    /// Feeds one document (`vars.current`) to a state.
    pub fn accumulate(&self, state: &mut State, vars: &Vars<'_>) -> Result<()> {
        let value = self.argument.eval(vars)?;
        if let (Op::TopBottom { sort, bottom, .. }, StateKind::N(s)) = (&self.op, &mut state.0) {
            let key = sort.key_values(vars.current);
            s.offer_sorted(sort, key, value.unwrap_or(Bson::Null), *bottom);
            return Ok(());
        }
        self.fold(state, value)
    }

    /// Feeds a document's value of the argument (`None`: missing) to a state, as
    /// [`Accumulator::accumulate`] does after evaluating it; not for `$top`/`$bottom`
    /// ([`Accumulator::folds_values`]).
    pub fn fold(&self, state: &mut State, value: Option<Bson>) -> Result<()> {
        match (&self.op, &mut state.0) {
            (Op::TopBottom { .. }, StateKind::N(_)) => Ok(()),
            (_, StateKind::N(s)) => {
                match self.op {
                    Op::FirstN => s.push_first(value.unwrap_or(Bson::Null)),
                    Op::LastN => s.push_last(value.unwrap_or(Bson::Null)),
                    Op::MinN => s.offer_extreme(value, false),
                    _ => s.offer_extreme(value, true),
                }
                Ok(())
            }
            (_, StateKind::Quantile(samples)) => {
                if let Some(x) = value.as_ref().and_then(quantile::as_number) {
                    samples.push(x);
                }
                Ok(())
            }
            (op, StateKind::Simple(s)) => s.process(op.fold(), value),
        }
    }

    /// The accumulated value (null where MongoDB's would be missing).
    pub fn value(&self, state: &State) -> Bson {
        match (&self.op, &state.0) {
            (Op::TopBottom { single, .. }, StateKind::N(s)) => s.sorted_output(*single),
            (Op::MaxN, StateKind::N(s)) => s.extremes(true),
            (_, StateKind::N(s)) => s.items(),
            (Op::Quantile { ps, median }, StateKind::Quantile(samples)) => {
                quantile::value(samples, ps, *median)
            }
            (op, StateKind::Simple(s)) => s.value(op.fold()),
            _ => Bson::Null,
        }
    }
}

/// One `field: {$acc: spec}` of `$group` (and `$bucket`'s `output`).
#[derive(Debug, Clone)]
pub struct AccumulationStatement {
    pub field: String,
    pub accumulator: Accumulator,
}

impl AccumulationStatement {
    /// Parses a field of a `$group` specification, with MongoDB's errors.
    pub fn parse(field: &str, spec: &Bson, scope: &Scope) -> Result<AccumulationStatement> {
        let inner = match spec {
            Bson::Document(d) if d.keys().next().is_some_and(|k| k.starts_with('$')) => d,
            _ => {
                return Err(Error::location(
                    40234,
                    format!("The field '{field}' must be an accumulator object"),
                ));
            }
        };
        if field.contains('.') {
            return Err(Error::location(
                40235,
                format!("The field name '{field}' cannot contain '.'"),
            ));
        }
        if field.starts_with('$') {
            return Err(Error::location(
                40236,
                format!("The field name '{field}' cannot be an operator name"),
            ));
        }
        if inner.len() != 1 {
            return Err(Error::location(
                40238,
                format!("The field '{field}' must specify one accumulator"),
            ));
        }
        let Some((name, arg)) = inner.iter().next() else {
            return Err(Error::location(
                40234,
                format!("The field '{field}' must be an accumulator object"),
            ));
        };
        if matches!(arg, Bson::Array(_)) {
            return Err(Error::location(
                40237,
                format!("The {name} accumulator is a unary operator"),
            ));
        }
        let Some(accumulator) = Accumulator::parse(name, arg, scope)? else {
            return Err(Error::location(
                15952,
                format!("unknown group operator '{name}'"),
            ));
        };
        Ok(AccumulationStatement {
            field: field.to_string(),
            accumulator,
        })
    }
}

/// How a value prints inside accumulator error messages (`Value::toString`).
fn describe(v: &Option<Bson>) -> String {
    match v {
        None => "MISSING".into(),
        Some(v) => key_value(v),
    }
}

//! Folds: the running value of `$sum $avg $min $max $first $last $push $addToSet $mergeObjects
//! $stdDevPop $stdDevSamp`, fed one value at a time. No expressions here: `accumulator` feeds a
//! fold each document's evaluated argument (`$group`, `$setWindowFields`), and `expression`
//! feeds it the elements of an array (`{$sum: "$a"}` as an expression), so both sit above this
//! module and neither needs the other.

pub mod simple;
pub mod sum;

pub use simple::{SimpleState, number_as_f64};

/// Which fold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FoldOp {
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
}

impl FoldOp {
    /// A fresh state for this fold.
    pub fn start(self) -> SimpleState {
        match self {
            FoldOp::Sum | FoldOp::Avg | FoldOp::StdDevPop | FoldOp::StdDevSamp => {
                SimpleState::numeric(matches!(self, FoldOp::Sum | FoldOp::Avg))
            }
            FoldOp::Min | FoldOp::Max | FoldOp::First | FoldOp::Last => SimpleState::One(None),
            FoldOp::Push => SimpleState::List(Vec::new()),
            FoldOp::AddToSet => SimpleState::Set(Default::default()),
            FoldOp::MergeObjects => SimpleState::Merged(bson::Document::new()),
        }
    }
}

//! What a wrong exercise answer gets beside its verdict: the documents it returned that the
//! exercise does not expect, the expected ones it did not return (for result and state
//! exercises), and the plan facts that differ (for plan exercises). Documents are shown as the
//! shell prints them, on one line (`lesson_runner::comparison` prints them; this crate only
//! holds the result).

/// The answer beside the expected outcome.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Comparison {
    /// Expected documents (or values) the answer did not give.
    pub missing: Vec<String>,
    /// Documents the answer gave that the exercise does not expect.
    pub extra: Vec<String>,
    /// How many are missing and extra in all (the lists keep the first [`SHOWN`]).
    pub missing_total: usize,
    pub extra_total: usize,
    /// How many documents the answer gave, and how many were expected.
    pub got_count: usize,
    pub expected_count: usize,
    /// For plan exercises: (fact, expected, the answer's).
    pub plan: Vec<PlanFactDifference>,
}

/// One fact of a query plan that is not what the exercise asks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanFactDifference {
    pub fact: String,
    pub expected: String,
    pub got: String,
}

/// At most this many documents of each list are kept (the learner sees counts for the rest).
pub const SHOWN: usize = 10;

impl Comparison {
    pub fn is_empty(&self) -> bool {
        self.missing.is_empty() && self.extra.is_empty() && self.plan.is_empty()
    }
}

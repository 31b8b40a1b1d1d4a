//! The lesson model.

/// One lesson: a chapter of book B or a tip of book A.
#[derive(Debug, Clone, PartialEq)]
pub struct Lesson {
    pub id: String,
    pub title: String,
    /// The title in simplified Chinese.
    pub title_zh: Option<String>,
    /// Which book and part it covers, e.g. "B1" or "A3".
    pub source: String,
    /// The dataset loaded before the first step and on "reset" (`lessons/datasets/<name>.json`).
    pub dataset: Option<String>,
    /// Prose shown above the first step.
    pub intro: Prose,
    pub steps: Vec<Step>,
    pub exercises: Vec<Exercise>,
}

/// Prose in English, with its simplified-Chinese version when the author wrote one.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Prose {
    pub en: String,
    pub zh: Option<String>,
}

/// One runnable step.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    pub title: String,
    pub title_zh: Option<String>,
    /// What to notice, in our own words (English).
    pub prose: String,
    pub prose_zh: Option<String>,
    pub command: String,
    /// What the shell shows, when the step is verified (compared as values, not text: see
    /// [`crate::compare_output`]).
    pub expect: Option<String>,
    /// For an `explain()` step: what to look at in the plan (`stages`, `index`, the counters),
    /// as `(fact, value)` pairs that the lesson test checks and the page shows.
    pub look: Vec<(String, String)>,
}

/// An exercise: the learner writes code; the engine checks it.
#[derive(Debug, Clone, PartialEq)]
pub struct Exercise {
    pub title: String,
    pub title_zh: Option<String>,
    pub prose: String,
    pub prose_zh: Option<String>,
    /// Graded hints, revealed one at a time: a direction, then the operator or shape, then a
    /// near-complete example; each in English and simplified Chinese (a ```` ```hint-zh ````
    /// block after its ```` ```hint ```` block).
    pub hints: Vec<Prose>,
    /// A correct answer: it must pass the check (verified by the lesson tests).
    pub solution: String,
    /// Other correct answers, written differently: each must pass the check too.
    pub right: Vec<String>,
    /// Answers that look plausible but are wrong: each must fail the check.
    pub wrong: Vec<String>,
    pub check: Check,
    /// What the check asks of the answer beyond its result (see [`AnswerRules`]).
    pub rules: AnswerRules,
}

/// Constraints a check puts on how an answer is written and where it is tried.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AnswerRules {
    /// Operators or words the answer must not use (`forbid: $where`), when the exercise says so.
    pub forbid: Vec<String>,
    /// Operators the answer must use (`require: $expr`), when the exercise asks for them.
    pub require: Vec<String>,
    /// Shell code run before the answer and the solution alike (`setup:`): test documents near
    /// the question's edges (a price exactly at a bound), so an answer that only happens to
    /// match the lesson's data is told apart from one that answers the question.
    pub setup: Option<String>,
}

/// How an exercise's answer is checked. Every check runs the answer in a fresh shell with the
/// lesson's dataset, so it never depends on what the learner did before.
#[derive(Debug, Clone, PartialEq)]
pub enum Check {
    /// The value of the answer's last expression (a cursor counts as its documents) must equal
    /// the solution's; as a multiset unless `ordered`.
    Result { ordered: bool },
    /// After the answer runs, each collection must hold the same documents as after the
    /// solution (`collection: a, b` names several, for a change that must reach all of them).
    State {
        db: Option<String>,
        collections: Vec<String>,
    },
    /// After the answer runs (typically `createIndex`), `query`'s plan must meet `plan`.
    Plan {
        query: String,
        plan: PlanRequirement,
    },
}

/// What an index exercise asks of a query's winning plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlanRequirement {
    /// An index scan and no collection scan.
    UsesIndex,
    /// Answered from the index alone: no FETCH, no COLLSCAN, no document examined.
    Covered,
}

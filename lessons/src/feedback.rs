//! What a wrong exercise answer gets beside its verdict: the documents it returned that the
//! exercise does not expect, the expected ones it did not return (for result and state
//! exercises), and the plan facts that differ (for plan exercises). Documents are shown as the
//! shell prints them, on one line.

use bson::Bson;
use shell::printer::{PrintOptions, Style, format_value};

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
    /// The multiset difference of two lists of values, both ways.
    pub fn of_values(got: &[Bson], want: &[Bson]) -> Comparison {
        let mut unmatched: Vec<&Bson> = want.iter().collect();
        let mut extra = Vec::new();
        for g in got {
            match unmatched.iter().position(|w| *w == g) {
                Some(i) => {
                    unmatched.remove(i);
                }
                None => extra.push(g),
            }
        }
        Comparison {
            missing_total: unmatched.len(),
            extra_total: extra.len(),
            missing: unmatched.into_iter().take(SHOWN).map(one_line).collect(),
            extra: extra.into_iter().take(SHOWN).map(one_line).collect(),
            got_count: got.len(),
            expected_count: want.len(),
            plan: Vec::new(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.missing.is_empty() && self.extra.is_empty() && self.plan.is_empty()
    }
}

/// A value as mongosh prints it, its lines joined into one.
pub fn one_line(v: &Bson) -> String {
    let text = format_value(
        v,
        &PrintOptions {
            style: Style::Mongosh,
            pretty: false,
        },
    );
    text.lines().map(str::trim).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    #[test]
    fn missing_and_extra_documents_are_told_apart() {
        let a = Bson::Document(doc! {"name": "a"});
        let b = Bson::Document(doc! {"name": "b"});
        let c = Bson::Document(doc! {"name": "c"});
        let cmp = Comparison::of_values(&[a.clone(), c.clone(), c.clone()], &[a, b, c]);
        assert_eq!(cmp.missing, [one_line(&Bson::Document(doc! {"name": "b"}))]);
        assert_eq!(cmp.extra.len(), 1);
        assert!(cmp.extra[0].contains("'c'"), "{:?}", cmp.extra);
        assert_eq!((cmp.got_count, cmp.expected_count), (3, 3));
        assert!(!cmp.is_empty());
        assert!(Comparison::of_values(&[], &[]).is_empty());
    }
}

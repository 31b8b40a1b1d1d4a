//! The comparison of a wrong exercise answer with the expected outcome
//! (`lessons::Comparison`), as it travels from the worker to the page: JSON in the answer's
//! `result` (a `StructuredResult::Document`), read back here for the exercise pane.

use lessons::{Comparison, PlanFactDifference};
use serde_json::{Value, json};

/// The comparison as JSON.
pub fn to_json(c: &Comparison) -> Value {
    json!({
        "missing": c.missing,
        "extra": c.extra,
        "missingTotal": c.missing_total,
        "extraTotal": c.extra_total,
        "gotCount": c.got_count,
        "expectedCount": c.expected_count,
        "plan": c.plan.iter().map(|f| json!({"fact": f.fact, "expected": f.expected, "got": f.got})).collect::<Vec<_>>(),
    })
}

/// The comparison back from JSON (`None` for anything else).
pub fn from_json(v: &Value) -> Option<Comparison> {
    let strings = |key: &str| -> Option<Vec<String>> {
        v.get(key)?
            .as_array()?
            .iter()
            .map(|s| s.as_str().map(str::to_string))
            .collect()
    };
    let count = |key: &str| v.get(key).and_then(Value::as_u64).unwrap_or(0) as usize;
    let plan = v
        .get("plan")?
        .as_array()?
        .iter()
        .map(|f| {
            let field = |k: &str| f.get(k).and_then(Value::as_str).map(str::to_string);
            Some(PlanFactDifference {
                fact: field("fact")?,
                expected: field("expected")?,
                got: field("got")?,
            })
        })
        .collect::<Option<Vec<_>>>()?;
    Some(Comparison {
        missing: strings("missing")?,
        extra: strings("extra")?,
        missing_total: count("missingTotal"),
        extra_total: count("extraTotal"),
        got_count: count("gotCount"),
        expected_count: count("expectedCount"),
        plan,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_comparison_survives_the_trip() {
        let c = Comparison {
            missing: vec!["{ name: 'b' }".into()],
            extra: vec!["{ name: 'c' }".into()],
            missing_total: 1,
            extra_total: 1,
            got_count: 2,
            expected_count: 2,
            plan: vec![PlanFactDifference {
                fact: "stages".into(),
                expected: "no FETCH".into(),
                got: "FETCH → IXSCAN".into(),
            }],
        };
        assert_eq!(from_json(&to_json(&c)), Some(c));
        assert_eq!(from_json(&json!({"acknowledged": true})), None);
    }
}

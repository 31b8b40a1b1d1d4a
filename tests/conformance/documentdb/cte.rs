//! `WITH` statements whose common table expression is one command or one stage, read back
//! whole:
//!
//! | SQL | Engine |
//! |---|---|
//! | `WITH c AS (SELECT document FROM bson_aggregation_pipeline/find('db', '<cmd>')) SELECT * FROM c [ORDER BY document -> '_id']` | the command; the `ORDER BY` as a last `$sort` stage (a find's `sort`) |
//! | `WITH r AS (SELECT bson_dollar_project('<doc>', '<spec>') AS result) SELECT * FROM r WHERE result @= '{"p": v}'` | `aggregate` with `$documents`, `$project` and `$match: {p: {$eq: v}}` |
//!
//! Other `WITH` statements (DocumentDB's `$lookup` and `$facet` internals spelled out in SQL,
//! `format(…)` specifications) stay skipped.

use bson::{Bson, doc};

use super::transcript::{Arg, call_args};
use super::{Actual, Replay, SCRATCH_DB, Translated, where_and_order};
use crate::conformance::ejson::parse_lenient_doc;

const NOT_TRANSLATED: &str = "SQL WITH (CTE) statement";

impl Replay {
    pub(super) fn with_statement(&mut self, text: &str) -> Translated {
        let Some((name, body, outer)) = split_with(text) else {
            return Translated::Skip(NOT_TRANSLATED.into());
        };
        let body_lower = body.to_ascii_lowercase();
        let outer_lower: String = outer
            .to_ascii_lowercase()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let select_all = format!("select * from {}", name.to_ascii_lowercase());
        let Some(outer_rest) = outer_lower.strip_prefix(&select_all) else {
            return Translated::Skip(NOT_TRANSLATED.into());
        };
        let outer_rest = outer_rest.trim().trim_end_matches(';').trim();
        if body_lower.trim_start().starts_with("select document")
            && let Some(kind) = [
                ("bson_aggregation_pipeline", "aggregate"),
                ("bson_aggregation_find", "find"),
            ]
            .into_iter()
            .find(|(f, _)| body_lower.contains(f))
        {
            let by_id = match outer_rest.replace(' ', "").as_str() {
                "" => false,
                "orderbydocument->'_id'" => true,
                _ => return Translated::Skip(NOT_TRANSLATED.into()),
            };
            return self.command_read_back(body, kind, by_id);
        }
        if let Some((args, end)) = call_args(body, "bson_dollar_project")
            && body[end..]
                .trim()
                .to_ascii_lowercase()
                .strip_prefix("as")
                .is_some_and(|column| outer_rest.starts_with(&format!("where {}", column.trim())))
        {
            // `WHERE <column> @= '…'` is the filter over the projected documents.
            let Some(condition) = after_where_column(outer) else {
                return Translated::Skip(NOT_TRANSLATED.into());
            };
            return self.projected_match(&args, &format!("WHERE document {condition}"));
        }
        Translated::Skip(NOT_TRANSLATED.into())
    }

    /// The command of `bson_aggregation_pipeline/find('db', '<cmd>')`, sorted by `_id` when
    /// the outer query orders by it.
    fn command_read_back(
        &mut self,
        body: &str,
        (function, kind): (&str, &str),
        by_id: bool,
    ) -> Translated {
        let Some((args, _)) = call_args(body, function) else {
            return Translated::Skip(NOT_TRANSLATED.into());
        };
        let (Some(Arg::Str(db)), Some(Arg::Str(cmd_text))) = (args.first(), args.get(1)) else {
            return Translated::Skip(format!("{kind} with non-literal arguments"));
        };
        let Ok(mut cmd) = parse_lenient_doc(cmd_text) else {
            return Translated::Skip("input not parseable as Extended JSON".into());
        };
        if by_id {
            if kind == "find" {
                if ["sort", "limit", "skip"]
                    .iter()
                    .any(|k| cmd.contains_key(k))
                {
                    // The outer ORDER BY applies after them; one find cannot say that.
                    return Translated::Skip("find under an ORDER BY of its own".into());
                }
                cmd.insert("sort", doc! {"_id": 1});
            } else {
                let Ok(pipeline) = cmd.get_array_mut("pipeline") else {
                    return Translated::Skip("aggregate without a pipeline".into());
                };
                pipeline.push(Bson::Document(doc! {"$sort": {"_id": 1}}));
            }
        }
        if kind == "aggregate" && !cmd.contains_key("cursor") {
            cmd.insert("cursor", bson::Document::new());
        }
        match self.cursor(db, &cmd) {
            Ok(docs) => Translated::Ran(
                Actual::Docs {
                    docs,
                    ordered: by_id,
                },
                false,
            ),
            Err(e) => Translated::Ran(Actual::Error(e), false),
        }
    }

    /// `bson_dollar_project('<doc>', '<spec>')` filtered by `filter_text` (`WHERE document …`).
    fn projected_match(&mut self, args: &[Arg], filter_text: &str) -> Translated {
        let (Some(Arg::Str(source)), Some(Arg::Str(spec))) = (args.first(), args.get(1)) else {
            return Translated::Skip("$project with a non-literal specification".into());
        };
        let (Ok(source), Ok(spec)) = (parse_lenient_doc(source), parse_lenient_doc(spec)) else {
            return Translated::Skip("input not parseable as Extended JSON".into());
        };
        let clauses = match where_and_order(filter_text) {
            Ok(c) => c,
            Err(reason) => return Translated::Skip(reason),
        };
        let Some(filter) = clauses.filter else {
            return Translated::Skip(NOT_TRANSLATED.into());
        };
        let cmd = doc! {
            "aggregate": 1,
            "pipeline": [
                {"$documents": {"$literal": [source]}},
                {"$project": spec},
                {"$match": filter},
            ],
            "cursor": {},
        };
        match self.cursor(SCRATCH_DB, &cmd) {
            Ok(docs) => Translated::Ran(
                Actual::Docs {
                    docs,
                    ordered: true,
                },
                false,
            ),
            Err(e) => Translated::Ran(Actual::Error(e), false),
        }
    }
}

/// The text after `WHERE <column>` in the outer query: the operator and its literal.
fn after_where_column(outer: &str) -> Option<&str> {
    let at = outer.to_ascii_lowercase().find("where")?;
    let rest = outer[at + 5..].trim_start();
    let column_end = rest.find(|c: char| c.is_whitespace())?;
    Some(&rest[column_end..])
}

/// `WITH <name> AS ( <body> ) <outer>`: the name, the body and the outer query.
fn split_with(text: &str) -> Option<(&str, &str, &str)> {
    let rest = text.trim_start();
    let rest = rest
        .get(4..)
        .filter(|_| rest[..4].eq_ignore_ascii_case("with"))?;
    let rest = rest.trim_start();
    let name_end = rest.find(|c: char| c.is_whitespace())?;
    let name = rest[..name_end].trim_matches('"');
    let after = rest[name_end..].trim_start();
    let after = after
        .get(2..)
        .filter(|_| after[..2].eq_ignore_ascii_case("as"))?;
    let after = after.trim_start().strip_prefix('(')?;
    // The matching parenthesis, outside string literals.
    let mut depth = 1;
    let mut in_string = false;
    for (i, c) in after.char_indices() {
        match c {
            '\'' => in_string = !in_string,
            '(' if !in_string => depth += 1,
            ')' if !in_string => {
                depth -= 1;
                if depth == 0 {
                    let outer = &after[i + 1..];
                    // A second common table expression is not translated.
                    if outer.trim_start().starts_with(',') {
                        return None;
                    }
                    return Some((name, &after[..i], outer));
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn with_statements_split() {
        let (name, body, outer) = split_with(
            "WITH c1 AS (\n SELECT document FROM f('db', '{ \"a\": \")\" }')\n)\nSELECT * FROM c1 ORDER BY document -> '_id';",
        )
        .unwrap();
        assert_eq!(name, "c1");
        assert!(body.trim().ends_with("}')"));
        assert!(outer.trim().starts_with("SELECT * FROM c1"));
        assert_eq!(
            after_where_column(" SELECT * FROM r1 WHERE result @= '{\"a\": 1}';"),
            Some(" @= '{\"a\": 1}';")
        );
    }
}

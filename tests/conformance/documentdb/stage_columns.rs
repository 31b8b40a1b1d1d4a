//! A select list of several one-stage functions over the same collection:
//! `SELECT bson_dollar_project(document, '<a>'), bson_dollar_project(document, '<b>') FROM
//! documentdb_api.collection('db', 'c') [WHERE …] [ORDER BY …]`. Each column is its own
//! `aggregate` (the same filter and sort, then the stage); row `i` of the result is row `i` of
//! every column, compared cell by cell.

use bson::Bson;

use super::sql_aggregate::select_items;
use super::transcript::{Arg, call_args};
use super::{Actual, Replay, SINGLE_STAGE_FUNCTIONS, Translated};

impl Replay {
    /// `None` unless the select list has several items, each a one-stage function of
    /// `document`.
    pub(super) fn stage_columns(&mut self, text: &str) -> Option<Translated> {
        let (items, from_at) = select_items(text)?;
        if items.len() < 2 {
            return None;
        }
        let calls: Vec<(&str, Vec<Arg>)> = items
            .iter()
            .map(|item| {
                let Arg::Other(item) = item else {
                    return None;
                };
                let lower = item.trim_start().to_ascii_lowercase();
                let lower = lower.trim_start_matches("documentdb_api_catalog.");
                let (name, stage) = SINGLE_STAGE_FUNCTIONS
                    .iter()
                    .find(|(name, _)| lower.starts_with(&format!("{name}(")))?;
                let (args, _) = call_args(item, name)?;
                matches!(args.first(), Some(Arg::Other(d)) if d.eq_ignore_ascii_case("document"))
                    .then_some((*stage, args))
            })
            .collect::<Option<_>>()?;
        let mut columns: Vec<Vec<Bson>> = Vec::new();
        let mut ordered = true;
        for (stage, args) in &calls {
            match self.single_stage(text, args, from_at, stage, None) {
                Translated::Ran(Actual::Docs { docs, ordered: o }, _) => {
                    ordered &= o;
                    columns.push(docs);
                }
                other => return Some(other),
            }
        }
        let rows = columns.first().map_or(0, Vec::len);
        if columns.iter().any(|c| c.len() != rows) {
            // A stage that changes the row count ($unwind) has no row-by-row pairing.
            return Some(Translated::Skip(
                "several one-stage functions with different row counts".into(),
            ));
        }
        let rows = (0..rows)
            .map(|i| columns.iter().map(|c| c[i].clone()).collect())
            .collect();
        Some(Translated::Ran(Actual::Columns { rows, ordered }, false))
    }
}

//! SQL aggregates over a collection, one `$group`:
//! `SELECT BSONSUM(document -> 'a'), BSONMAX(bson_expression_get(document, '{ "": <e> }')), …
//! FROM documentdb_api.collection('db', 'c') [WHERE …] [GROUP BY bson_expression_get(document,
//! '{ "": <key> }')]`.
//!
//! | SQL | `$group` |
//! |---|---|
//! | `BSONSUM` / `BSONAVERAGE` / `BSONMAX` / `BSONMIN` (`x`) | `$sum` / `$avg` / `$max` / `$min` |
//! | `x` = `document -> 'f'` · `bson_expression_get(document, '{"": e}'[, …])` · `'{"": v}'` | `"$f"` · `e` · `{$literal: v}` |
//! | `bson_repath_and_build('k1'::text, agg1, …)` (the whole select list) | fields `k1`, … of the output document |
//! | `bson_array_agg(document, 'k'::text)` / `bson_object_agg(document)` | `{k: {$push: "$$ROOT"}}` / `{$mergeObjects: "$$ROOT"}` |
//!
//! Each plain aggregate is a column `{ "": value }`; the columns are compared one by one. A SQL
//! aggregate without `GROUP BY` answers one row even over no rows, where `$group` outputs no
//! document: such a statement is skipped when the filter leaves nothing to aggregate.

use bson::{Bson, Document, doc};

use super::transcript::{Arg, call_args};
use super::{Actual, Replay, Translated, group_key, where_and_order};
use crate::conformance::ejson::parse_lenient_doc;

/// What one select-list item becomes in the `$group` stage and in the result row.
enum Column {
    /// A plain aggregate: the row's cell is `{ "": <field> }`.
    Wrapped(String),
    /// The whole output document of the `$group` (without `_id`) is the cell.
    Document,
    /// `bson_object_agg`: the merged document in the field is the cell.
    Value(String),
}

/// The accumulators a select list asks for, and how each column is read back.
struct Plan {
    accumulators: Document,
    columns: Vec<Column>,
}

const AGGREGATES: &[(&str, &str)] = &[
    ("bsonsum", "$sum"),
    ("bsonaverage", "$avg"),
    ("bsonmax", "$max"),
    ("bsonmin", "$min"),
];

impl Replay {
    /// The statement as one `$group` over its collection; `None` when its select list is not
    /// made of SQL aggregates only (another translation then applies).
    pub(super) fn sql_aggregates(&mut self, text: &str) -> Option<Translated> {
        let (items, _) = select_items(text)?;
        let plan = match plan(&items)? {
            Ok(p) => p,
            Err(reason) => return Some(Translated::Skip(reason)),
        };
        Some(self.run_plan(text, plan))
    }

    fn run_plan(&mut self, text: &str, plan: Plan) -> Translated {
        let Some((cargs, cend)) = call_args(text, "documentdb_api.collection") else {
            return Translated::Skip("collection() with unparseable arguments".into());
        };
        let (Some(Arg::Str(db)), Some(Arg::Str(coll))) = (cargs.first(), cargs.get(1)) else {
            return Translated::Skip("collection() with non-literal arguments".into());
        };
        let tail = text[cend..].trim().trim_end_matches(';').trim();
        let (filter_text, group_text) = match tail.to_ascii_lowercase().find("group by") {
            Some(at) => (&tail[..at], Some(&tail[at..])),
            None => (tail, None),
        };
        let clauses = match where_and_order(filter_text) {
            Ok(c) => c,
            Err(reason) => return Translated::Skip(reason),
        };
        if clauses.let_vars.is_some() || clauses.sort.is_some() {
            return Translated::Skip("SQL aggregate with let or ORDER BY".into());
        }
        let group_id = match group_text {
            Some(g) => match group_key(g) {
                Ok(k) => k,
                Err(reason) => return Translated::Skip(reason),
            },
            None => Bson::Null,
        };
        let mut group = doc! {"_id": group_id};
        group.extend(plan.accumulators);
        let mut pipeline = Vec::new();
        if let Some(f) = clauses.filter {
            pipeline.push(Bson::Document(doc! {"$match": f}));
        }
        pipeline.push(Bson::Document(doc! {"$group": group}));
        let cmd = doc! {"aggregate": coll.as_str(), "pipeline": pipeline, "cursor": {}};
        let docs = match self.cursor(db, &cmd) {
            Ok(d) => d,
            Err(e) => return Translated::Ran(Actual::Error(e), false),
        };
        if docs.is_empty() && group_text.is_none() {
            return Translated::Skip(
                "SQL aggregate over no rows (MongoDB's $group outputs no document)".into(),
            );
        }
        let rows = docs
            .iter()
            .map(|d| {
                let mut out = d.as_document().cloned().unwrap_or_default();
                out.remove("_id");
                plan.columns
                    .iter()
                    .map(|column| match column {
                        Column::Wrapped(f) => {
                            Bson::Document(doc! {"": out.get(f).cloned().unwrap_or(Bson::Null)})
                        }
                        Column::Document => Bson::Document(out.clone()),
                        Column::Value(f) => out.get(f).cloned().unwrap_or(Bson::Null),
                    })
                    .collect()
            })
            .collect();
        Translated::Ran(
            Actual::Columns {
                rows,
                ordered: false,
            },
            false,
        )
    }
}

/// The items of `SELECT <items> FROM documentdb_api.collection(…)…`, and the byte offset of
/// that `FROM`.
pub(super) fn select_items(text: &str) -> Option<(Vec<Arg>, usize)> {
    let lower = text.to_ascii_lowercase();
    let collection_at = lower.find("documentdb_api.collection")?;
    let from_at = lower[..collection_at].rfind("from")?;
    let list = text.get(..from_at)?.trim();
    let list = strip_prefix_ignore_case(list, "select")?.trim();
    let (items, _) = call_args(&format!("f({list})"), "f")?;
    Some((items, from_at))
}

/// `None` when an item is not a SQL aggregate; `Some(Err)` when it is one that cannot be
/// translated.
fn plan(items: &[Arg]) -> Option<Result<Plan, String>> {
    let mut accumulators = Document::new();
    let mut columns = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let Arg::Other(item) = item else {
            return None;
        };
        let item = item.trim();
        let lower = item.to_ascii_lowercase();
        if lower.starts_with("bson_repath_and_build") && items.len() == 1 {
            let (args, _) = call_args(item, "bson_repath_and_build")?;
            if args.len() % 2 != 0 {
                return Some(Err("bson_repath_and_build with a non-literal key".into()));
            }
            for pair in args.chunks(2) {
                let [Arg::Str(key), Arg::Other(value)] = pair else {
                    return Some(Err("bson_repath_and_build with a non-literal key".into()));
                };
                match aggregate(value)? {
                    Ok(acc) => {
                        accumulators.insert(key.clone(), acc);
                    }
                    Err(reason) => return Some(Err(reason)),
                }
            }
            columns.push(Column::Document);
        } else if lower.starts_with("bson_array_agg") && items.len() == 1 {
            let (args, _) = call_args(item, "bson_array_agg")?;
            let [Arg::Other(d), Arg::Str(key)] = &args[..] else {
                return Some(Err("bson_array_agg of a computed input".into()));
            };
            if !d.eq_ignore_ascii_case("document") {
                return Some(Err("bson_array_agg of a computed input".into()));
            }
            accumulators.insert(key.clone(), doc! {"$push": "$$ROOT"});
            columns.push(Column::Document);
        } else if lower.starts_with("bson_object_agg") {
            let (args, _) = call_args(item, "bson_object_agg")?;
            if !matches!(&args[..], [Arg::Other(d)] if d.eq_ignore_ascii_case("document")) {
                return Some(Err("bson_object_agg of a computed input".into()));
            }
            let field = format!("c{i}");
            accumulators.insert(field.clone(), doc! {"$mergeObjects": "$$ROOT"});
            columns.push(Column::Value(field));
        } else {
            let field = format!("c{i}");
            match aggregate(item)? {
                Ok(acc) => {
                    accumulators.insert(field.clone(), acc);
                }
                Err(reason) => return Some(Err(reason)),
            }
            columns.push(Column::Wrapped(field));
        }
    }
    Some(Ok(Plan {
        accumulators,
        columns,
    }))
}

/// `BSONSUM(x)` and the like as a `$group` accumulator.
fn aggregate(item: &str) -> Option<Result<Document, String>> {
    let lower = item.trim().to_ascii_lowercase();
    let (name, accumulator) = AGGREGATES
        .iter()
        .find(|(name, _)| lower.starts_with(&format!("{name}(")))?;
    let (args, _) = call_args(item, name)?;
    let [arg] = &args[..] else {
        return Some(Err(format!("{name} with several arguments")));
    };
    Some(input(arg).map(|operand| {
        let mut acc = Document::new();
        acc.insert(*accumulator, operand);
        acc
    }))
}

/// The operand an aggregate's argument denotes.
fn input(arg: &Arg) -> Result<Bson, String> {
    match arg {
        Arg::Str(literal) => {
            let value = parse_lenient_doc(literal)
                .ok()
                .and_then(|d| d.get("").cloned())
                .ok_or("SQL aggregate of an unparseable literal")?;
            Ok(Bson::Document(doc! {"$literal": value}))
        }
        Arg::Other(expr) => {
            let compact: String = expr.split_whitespace().collect();
            if compact.eq_ignore_ascii_case("document") {
                return Err("SQL aggregate of the whole document".into());
            }
            if let Some(field) =
                strip_prefix_ignore_case(&compact, "document->'").and_then(|f| f.strip_suffix('\''))
            {
                // `->` reads one top-level key, which a dotted or `$` path would not denote.
                // The key as written (spaces kept): find it in the original text.
                let original = expr
                    .find('\'')
                    .and_then(|at| expr[at + 1..].split('\'').next())
                    .unwrap_or(field);
                if original.contains('.') || original.starts_with('$') || original.is_empty() {
                    return Err("SQL aggregate of a dotted or $ key".into());
                }
                return Ok(Bson::String(format!("${original}")));
            }
            if let Some((gargs, _)) = call_args(expr, "bson_expression_get")
                && matches!(gargs.first(), Some(Arg::Other(d)) if d.eq_ignore_ascii_case("document"))
                && let Some(Arg::Str(spec)) = gargs.get(1)
            {
                return parse_lenient_doc(spec)
                    .ok()
                    .and_then(|d| d.get("").cloned())
                    .ok_or_else(|| "bson_expression_get of an unparseable spec".into());
            }
            Err("SQL aggregate of a computed input".into())
        }
        Arg::Null => Err("SQL aggregate of NULL".into()),
    }
}

fn strip_prefix_ignore_case<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    let head = text.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &text[prefix.len()..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn select_lists_become_accumulators() {
        let (items, _) = call_args(
            "f(BSONSUM(document-> 'i32'), BSONAVERAGE(document -> 'nao existe'), BSONSUM('{ \"\": 1 }'))",
            "f",
        )
        .unwrap();
        let planned = super::plan(&items).unwrap().unwrap();
        assert_eq!(
            planned.accumulators,
            doc! {"c0": {"$sum": "$i32"}, "c1": {"$avg": "$nao existe"}, "c2": {"$sum": {"$literal": 1}}}
        );
        let (items, _) = call_args(
            "f(bson_repath_and_build('max'::text, BSONMAX(bson_expression_get(document, '{ \"\": \"$a.b\" }'))))",
            "f",
        )
        .unwrap();
        let planned = super::plan(&items).unwrap().unwrap();
        assert_eq!(planned.accumulators, doc! {"max": {"$max": "$a.b"}});
        // Not aggregates: another translation applies.
        let (items, _) = call_args("f(document)", "f").unwrap();
        assert!(super::plan(&items).is_none());
        // The whole document cannot be summed in MongoDB.
        let (items, _) = call_args("f(BSONSUM(document))", "f").unwrap();
        assert!(matches!(super::plan(&items), Some(Err(_))));
    }
}

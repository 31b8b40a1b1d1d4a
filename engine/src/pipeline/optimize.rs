//! The pipeline rewrites MongoDB's optimizer makes (and explain shows), applied until none
//! applies any more:
//!
//! - `$match` moves ahead of `$sort`, `$project`, `$addFields`/`$set` and `$unset` when the
//!   paths it reads are not ones the stage changes; a `$match` whose top-level conditions
//!   partly depend on such paths is split, the independent part moving ahead.
//! - adjacent `$match` stages merge into one (`{$and: [first, second]}`).
//! - `$sort` followed by `$limit` becomes a top-k `$sort` (`{$sort: {sortKey, limit}}`).
//! - `$skip: n` followed by `$limit: l` becomes `$limit: n + l`, `$skip: n`; adjacent `$limit`s
//!   keep the smaller, adjacent `$skip`s add up.
//!
//! `$_internalInhibitOptimization` takes part in no rule, so nothing moves across it.
//!
//! Then each stage is told which top-level fields of its output the next stage reads, when
//! that one reads only some (`Stage::input_fields_read`: an inclusion `$project`), as
//! MongoDB's dependency analysis narrows what earlier stages produce.

use bson::{Bson, Document};

use super::stages::{limit::Limit, match_stage::Match, skip::Skip, sort::Sort};
use super::{ModifiedPaths, Pipeline, QueryPart, Stage};
use crate::error::Result;
use crate::expression::Scope;

/// A bound on rewrites, far above what any real pipeline needs (each rule shortens the
/// pipeline or moves a `$match` towards the front).
const MAX_REWRITES: usize = 10_000;

impl Pipeline {
    /// The pipeline rewritten as MongoDB's optimizer does (`scope`: the command's `let`
    /// variables, to re-parse merged and split filters).
    pub fn optimize(mut self, scope: &Scope) -> Result<Pipeline> {
        let mut stages = std::mem::take(&mut self.stages);
        let mut rewrites = 0;
        let mut i = 0;
        while i + 1 < stages.len() && rewrites < MAX_REWRITES {
            match rewrite_pair(stages[i].as_ref(), stages[i + 1].as_ref(), scope)? {
                Some(Rewrite::Replace(replacement)) => {
                    stages.splice(i..i + 2, replacement);
                }
                Some(Rewrite::MatchAhead { ahead, behind }) => {
                    match behind {
                        Some(rest) => stages[i + 1] = rest,
                        None => {
                            stages.remove(i + 1);
                        }
                    }
                    stages.insert(i, ahead);
                }
                None => {
                    i += 1;
                    continue;
                }
            }
            rewrites += 1;
            // A rewrite may enable one with the stage before.
            i = i.saturating_sub(1);
        }
        // Each stage learns which of its output's fields the next one reads (`$lookup`
        // followed by an inclusion `$project` then copies only those of its input).
        for i in 1..stages.len() {
            if let Some(fields) = stages[i].input_fields_read() {
                stages[i - 1].output_read_only(fields);
            }
        }
        Ok(Pipeline {
            stages,
            reads_meta: self.reads_meta,
            reads_sort_key: self.reads_sort_key,
            unavailable: self.unavailable,
        })
    }
}

/// What replaces a pair of adjacent stages.
enum Rewrite {
    /// Both stages, by these.
    Replace(Vec<Box<dyn Stage>>),
    /// `first, $match` → `ahead, first[, behind]`.
    MatchAhead {
        ahead: Box<dyn Stage>,
        behind: Option<Box<dyn Stage>>,
    },
}

/// The rewrite of `first, second`, when a rule applies.
fn rewrite_pair(first: &dyn Stage, second: &dyn Stage, scope: &Scope) -> Result<Option<Rewrite>> {
    let boxed = |s: Box<dyn Stage>| Some(Rewrite::Replace(vec![s]));
    Ok(match (first.query_part(), second.query_part()) {
        // A filter reading metadata (`$expr` with `{$meta: "textScore"}`) stays a stage of its
        // own: merged into a leading `$text` match it would run in the find, before any score.
        (Some(QueryPart::Filter(_)), Some(QueryPart::Filter(b))) if reads_meta(b) => None,
        (Some(QueryPart::Filter(a)), Some(QueryPart::Filter(b))) => {
            boxed(Box::new(Match::new(&merged_filter(a, b), scope)?))
        }
        (Some(QueryPart::Sort(spec)), Some(QueryPart::Limit(n))) => {
            boxed(Box::new(Sort::with_limit(spec, n)?))
        }
        (Some(QueryPart::SortLimit(spec, m)), Some(QueryPart::Limit(n))) => {
            boxed(Box::new(Sort::with_limit(spec, m.min(n))?))
        }
        (Some(QueryPart::Limit(m)), Some(QueryPart::Limit(n))) => {
            boxed(Box::new(Limit { limit: m.min(n) }))
        }
        (Some(QueryPart::Skip(m)), Some(QueryPart::Skip(n))) => boxed(Box::new(Skip {
            skip: m.saturating_add(n),
        })),
        (Some(QueryPart::Skip(m)), Some(QueryPart::Limit(n))) => Some(Rewrite::Replace(vec![
            Box::new(Limit {
                limit: m.saturating_add(n),
            }),
            Box::new(Skip { skip: m }),
        ])),
        (_, Some(QueryPart::Filter(spec))) => split_match(first, spec, scope)?,
        _ => None,
    })
}

/// Two adjacent `$match` filters as one: `{$and: [a, b]}`, flattened as MongoDB's
/// match-expression optimizer flattens nested `$and`s, and without empty (always true) filters,
/// so that a long run of `$match` stages does not nest one level per stage.
fn merged_filter(a: &Document, b: &Document) -> Document {
    if a.is_empty() {
        return b.clone();
    }
    if b.is_empty() {
        return a.clone();
    }
    let mut clauses = match a.get("$and") {
        Some(Bson::Array(items)) if a.len() == 1 => items.clone(),
        _ => vec![Bson::Document(a.clone())],
    };
    clauses.push(Bson::Document(b.clone()));
    bson::doc! {"$and": clauses}
}

/// For `first, $match`: the part of the match that reads no path `first` changes (to go
/// ahead of `first`) and the rest (to stay behind it, if any). `None` when nothing can move.
fn split_match(first: &dyn Stage, spec: &Document, scope: &Scope) -> Result<Option<Rewrite>> {
    let modified = first.modified_paths();
    if modified == ModifiedPaths::All {
        return Ok(None);
    }
    let renames = first.renamed_paths();
    let (mut ahead, mut behind) = (Document::new(), Document::new());
    for (key, value) in spec {
        let condition = bson::doc! {key.clone(): value.clone()};
        let independent =
            read_paths(&condition).is_some_and(|paths| !paths.iter().any(|p| modified.touches(p)));
        // A key already ahead (a rename's target) stays behind: one document holds a key once.
        if independent && !ahead.contains_key(key) {
            ahead.insert(key.clone(), value.clone());
        } else if !independent
            && let Some(renamed) = renamed_key(key, &renames)
            && !ahead.contains_key(&renamed)
        {
            // `{$project: {z: "$a"}}, {$match: {z: …}}`: the condition reads `a` ahead of the
            // stage (MongoDB's DocumentSourceMatch::splitMatchByModifiedFields with renames).
            ahead.insert(renamed, value.clone());
        } else {
            behind.insert(key.clone(), value.clone());
        }
    }
    if ahead.is_empty() {
        return Ok(None);
    }
    let behind: Option<Box<dyn Stage>> = if behind.is_empty() {
        None
    } else {
        Some(Box::new(Match::new(&behind, scope)?))
    };
    Ok(Some(Rewrite::MatchAhead {
        ahead: Box::new(Match::new(&ahead, scope)?),
        behind,
    }))
}

/// A field condition's path read through a rename `(new, old)` of the stage before it: `z` or
/// `z.x` after `{z: "$a"}` is `a` or `a.x` before it. `None` for an operator key or a path no
/// rename gives.
fn renamed_key(key: &str, renames: &[(String, String)]) -> Option<String> {
    if key.starts_with('$') {
        return None;
    }
    let (head, rest) = match key.split_once('.') {
        Some((h, r)) => (h, Some(r)),
        None => (key, None),
    };
    let (_, old) = renames.iter().find(|(new, _)| new == head)?;
    Some(match rest {
        Some(r) => format!("{old}.{r}"),
        None => old.clone(),
    })
}

/// Whether a filter reads metadata with `{$meta: …}` (in `$expr`).
fn reads_meta(filter: &Document) -> bool {
    let mut found = Vec::new();
    crate::expression::meta::metas_in(&Bson::Document(filter.clone()), &[], &mut found);
    !found.is_empty()
}

/// The paths a filter reads, or `None` when it reads the whole document or cannot be
/// analysed (`$expr`, `$where`, `$text`, `$jsonSchema`, `$sampleRate`, ...).
fn read_paths(filter: &Document) -> Option<Vec<String>> {
    let mut paths = Vec::new();
    for (key, value) in filter {
        match key.as_str() {
            "$and" | "$or" | "$nor" => {
                let Bson::Array(items) = value else {
                    return None;
                };
                for item in items {
                    let Bson::Document(d) = item else { return None };
                    paths.extend(read_paths(d)?);
                }
            }
            "$comment" => {}
            k if k.starts_with('$') => return None,
            k => paths.push(k.to_string()),
        }
    }
    Some(paths)
}

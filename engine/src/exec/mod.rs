//! Query execution: a query solution becomes a tree of stages, each in its own file with its
//! own statistics, driven one `work()` call at a time as in MongoDB's classic engine. Each call
//! returns ADVANCED (with a working-set member), NEED_TIME or IS_EOF; every stage keeps the
//! common counters (works, advanced, needTime, needYield, isEOF) and its specific ones, and
//! reports them as a [`StageStats`] tree from which `explain` is built.
//!
//! [`find`] is the entry point for the find command: plan, race the candidates
//! ([`multi_plan`]), run the winner to the end.

pub mod cached_plan;
pub mod collection_scan;
pub mod count;
pub mod count_scan;
pub mod delete;
pub mod distinct_scan;
pub mod eof;
pub mod express;
pub mod fetch;
pub mod geo_near;
pub mod idhack;
pub mod index_scan;
pub mod limit;
pub mod multi_plan;
pub mod or;
pub mod projection;
pub mod skip;
pub mod sort;
pub mod sort_merge;
pub mod stats_document;
pub mod subplan;
pub mod text;
pub mod text_match;
pub mod text_or;
pub mod text_scan;
pub mod text_union;
mod tie_break;
pub mod update;

use bson::{Bson, Document};

use crate::catalog::Collection;
use crate::error::{Error, ErrorCode, Result};
use crate::matcher::MatchContext;
use crate::path::insert_dotted;
use crate::planner::{CanonicalQuery, Solution, plan_find};

/// A document (or index key) moving between stages.
#[derive(Debug, Clone, Default)]
pub struct Member {
    pub record_id: Option<u64>,
    pub doc: Option<Document>,
    /// The index key, by key-pattern field, when the member came from an index.
    pub key: Option<Vec<(String, Bson)>>,
    /// The text score, in a `$text` plan.
    pub text_score: Option<f64>,
    /// A near search's distance and the location it was measured to (`{$meta:
    /// "geoNearDistance"}`, `{$meta: "geoNearPoint"}`), when the find wants them.
    pub geo_near: Option<Box<(f64, Bson)>>,
}

impl Member {
    /// A copy of the document, or one built from the index key (covered plans).
    pub fn document(&self) -> Document {
        self.view().into_owned()
    }

    /// The document, borrowed when the member holds one (built from the index key when the
    /// plan is covered): what a stage that only reads it needs, without a copy.
    pub fn view(&self) -> std::borrow::Cow<'_, Document> {
        match &self.doc {
            Some(d) => std::borrow::Cow::Borrowed(d),
            None => std::borrow::Cow::Owned(self.key_document()),
        }
    }

    /// The result a find returns for the member: its document, with `$recordId` (a long)
    /// appended when the find asks `showRecordId` (MongoDB adds it after the projection, also
    /// to documents built from index keys).
    /// The result of a find: [`Member::into_result`], or with `returnKey` the index key the
    /// document was found through, its fields named as the key pattern's (`{"a.b": 1}`,
    /// `{"$_path": "a", a: 1}` for a wildcard index), `{}` when the plan used no index.
    pub fn into_find_result(self, spec: &crate::query::FindSpec) -> Document {
        if !spec.return_key {
            return self.into_result(spec.show_record_id);
        }
        let mut doc: Document = self.key.unwrap_or_default().into_iter().collect();
        if spec.show_record_id
            && let Some(rid) = self.record_id
        {
            doc.insert("$recordId", Bson::Int64(rid as i64));
        }
        doc
    }

    pub fn into_result(self, show_record_id: bool) -> Document {
        let record_id = self.record_id;
        let mut doc = self.into_document();
        if show_record_id && let Some(rid) = record_id {
            doc.insert("$recordId", Bson::Int64(rid as i64));
        }
        doc
    }

    /// The metadata a pipeline reads with `$meta`: the text score, a near search's distance
    /// and point, the index key and the record id.
    pub fn metadata(&self) -> crate::expression::DocumentMeta {
        crate::expression::DocumentMeta {
            text_score: self.text_score,
            geo_near_distance: self.geo_near.as_ref().map(|g| g.0),
            geo_near_point: self.geo_near.as_ref().map(|g| g.1.clone()),
            // MongoDB keeps the key of a non-text index scan (`{$meta: "indexKey"}`); a
            // text plan's members carry no key here.
            index_key: self.key.as_ref().map(|k| k.iter().cloned().collect()),
            record_id: self.record_id.map(|r| r as i64),
            ..Default::default()
        }
    }

    /// The document, moved out of the member (the result of a plan, at its root).
    pub fn into_document(self) -> Document {
        match self.doc {
            Some(d) => d,
            None => self.key_document(),
        }
    }

    fn key_document(&self) -> Document {
        let mut out = Document::new();
        for (k, v) in self.key.iter().flatten() {
            insert_dotted(&mut out, k, v.clone());
        }
        out
    }
}

/// The outcome of one unit of work.
#[derive(Debug)]
pub enum State {
    Advanced(Member),
    NeedTime,
    IsEof,
}

/// Counters every stage keeps (MongoDB's CommonStats).
#[derive(Debug, Clone, Default)]
pub struct CommonStats {
    pub works: u64,
    pub advanced: u64,
    pub need_time: u64,
    pub need_yield: u64,
    pub is_eof: bool,
}

impl CommonStats {
    /// Counts one `work()` outcome.
    pub fn count(&mut self, state: &State) {
        self.works += 1;
        match state {
            State::Advanced(_) => self.advanced += 1,
            State::NeedTime => self.need_time += 1,
            State::IsEof => self.is_eof = true,
        }
    }
}

/// One stage's statistics, with its children's: the tree explain is generated from.
#[derive(Debug, Clone)]
pub struct StageStats {
    pub stage: &'static str,
    pub common: CommonStats,
    /// The filter the stage applies, as explain prints it.
    pub filter: Option<Document>,
    /// Fields describing the plan (shown in every verbosity), in MongoDB's order.
    pub plan: Document,
    /// Execution counters specific to the stage, in MongoDB's order.
    pub exec: Document,
    pub keys_examined: u64,
    pub docs_examined: u64,
    pub children: Vec<StageStats>,
    /// Whether explain shows the execution counters before the plan fields (COUNT_SCAN).
    pub exec_first: bool,
}

impl StageStats {
    pub fn new(stage: &'static str, common: &CommonStats) -> StageStats {
        StageStats {
            stage,
            common: common.clone(),
            filter: None,
            plan: Document::new(),
            exec: Document::new(),
            keys_examined: 0,
            docs_examined: 0,
            children: Vec::new(),
            exec_first: false,
        }
    }

    /// Keys examined in the whole tree (explain's totalKeysExamined).
    pub fn total_keys_examined(&self) -> u64 {
        self.keys_examined
            + self
                .children
                .iter()
                .map(StageStats::total_keys_examined)
                .sum::<u64>()
    }

    /// Documents examined in the whole tree (explain's totalDocsExamined).
    pub fn total_docs_examined(&self) -> u64 {
        self.docs_examined
            + self
                .children
                .iter()
                .map(StageStats::total_docs_examined)
                .sum::<u64>()
    }
}

/// An executable stage.
pub trait Stage {
    fn work(&mut self) -> Result<State>;
    fn stats(&self) -> StageStats;
}

/// What stages read: the collection, the find, and the match context.
#[derive(Clone, Copy)]
pub struct ExecContext<'a> {
    pub coll: Option<&'a Collection>,
    pub query: &'a CanonicalQuery<'a>,
    pub match_ctx: &'a MatchContext<'a>,
}

/// Builds the stage tree of a solution.
pub fn build<'a>(sol: &Solution, cx: ExecContext<'a>) -> Result<Box<dyn Stage + 'a>> {
    let Some(coll) = cx.coll else {
        return Ok(Box::new(eof::Eof::new()));
    };
    // A top-k sort straight over a collection scan reads each document in place and copies
    // only those that enter the best `limit` (most of a large collection never do).
    if let Solution::Sort {
        pattern,
        limit: Some(limit),
        child,
    } = sol
        && let Solution::CollScan { forward, filter } = &**child
    {
        let scan =
            collection_scan::CollectionScan::new(coll, *forward, filter.clone(), cx.match_ctx)
                .without_documents();
        let sort = sort::Sort::new(cx.query.spec, pattern.clone(), Some(*limit), Box::new(scan));
        return Ok(Box::new(sort.reading_from(coll)));
    }
    Ok(match sol {
        Solution::Eof => Box::new(eof::Eof::new()),
        Solution::CollScan { forward, filter } => Box::new(collection_scan::CollectionScan::new(
            coll,
            *forward,
            filter.clone(),
            cx.match_ctx,
        )),
        Solution::IdHack { id } => Box::new(idhack::IdHack::new(coll, id.clone())),
        Solution::IxScan(plan) => Box::new(index_scan::IndexScan::new(
            planned_index(coll, &plan.index_name)?,
            plan.clone(),
        )),
        Solution::Fetch { filter, child } => Box::new(fetch::Fetch::new(
            coll,
            filter.clone(),
            build(child, cx)?,
            cx.match_ctx,
        )),
        Solution::Sort {
            pattern,
            limit,
            child,
        } => Box::new(sort::Sort::new(
            cx.query.spec,
            pattern.clone(),
            *limit,
            build(child, cx)?,
        )),
        Solution::Skip { n, child } => Box::new(skip::Skip::new(*n, build(child, cx)?)),
        Solution::Limit { n, child } => Box::new(limit::Limit::new(*n, build(child, cx)?)),
        Solution::Text(plan) => text::build(plan, coll, cx)?,
        Solution::GeoNear(plan) => Box::new(geo_near::GeoNear::new(
            coll,
            planned_index(coll, &plan.index_name)?,
            (**plan).clone(),
            cx.match_ctx,
            cx.query.spec.wants_metadata
                || cx
                    .query
                    .spec
                    .projection
                    .as_ref()
                    .is_some_and(crate::projection::Projection::needs_geo_near),
        )),
        Solution::Projection {
            kind,
            transform_by,
            child,
        } => Box::new(projection::Projection::new(
            *kind,
            transform_by.clone(),
            cx.query.spec,
            cx.match_ctx,
            build(child, cx)?,
        )),
        Solution::Or { children } => Box::new(or::Or::new(build_all(children, cx)?)),
        Solution::SortMerge { pattern, children } => Box::new(sort_merge::SortMerge::new(
            cx.query.spec,
            pattern.clone(),
            build_all(children, cx)?,
        )),
        Solution::CountScan(plan) => Box::new(count_scan::CountScan::new(
            planned_index(coll, &plan.index_name)?,
            plan.clone(),
        )),
        Solution::DistinctScan(plan) => Box::new(distinct_scan::DistinctScan::new(
            planned_index(coll, &plan.index_name)?,
            plan.clone(),
        )),
        Solution::Subplan { child } => Box::new(subplan::Subplan::new(
            build(child, cx)?,
            CommonStats::default(),
        )),
    })
}

fn planned_index<'a>(coll: &'a Collection, name: &str) -> Result<&'a crate::index::Index> {
    coll.index(name)
        .ok_or_else(|| Error::new(ErrorCode::InternalError, "planned index is gone"))
}

fn build_all<'a>(children: &[Solution], cx: ExecContext<'a>) -> Result<Vec<Box<dyn Stage + 'a>>> {
    children.iter().map(|c| build(c, cx)).collect()
}

/// The outcome of planning and running a find.
pub struct Execution {
    pub docs: Vec<Document>,
    /// Each document's metadata (text score, near distance and point), when the find
    /// `wants_metadata` (`None` otherwise).
    pub meta: Option<Vec<crate::expression::DocumentMeta>>,
    /// The record id of each result (`None` for results built from index keys alone).
    pub record_ids: Vec<Option<u64>>,
    pub winner: Solution,
    pub winner_stats: StageStats,
    /// Losing candidates with the statistics of their trial.
    pub rejected: Vec<(Solution, StageStats)>,
    /// All candidates' trial statistics, in candidate order (allPlansExecution).
    pub trials: Vec<StageStats>,
}

impl Execution {
    /// An execution with one plan and nothing returned (commands whose root is not a find).
    pub fn single(winner: Solution, winner_stats: StageStats) -> Execution {
        Execution {
            meta: None,
            docs: Vec::new(),
            record_ids: Vec::new(),
            winner,
            winner_stats,
            rejected: Vec::new(),
            trials: Vec::new(),
        }
    }
}

/// Plans and runs a find, returning its documents in result order. `run_to_end = false` stops
/// after choosing the plan (explain's queryPlanner verbosity).
pub fn execute(
    coll: Option<&Collection>,
    query: &CanonicalQuery<'_>,
    match_ctx: &MatchContext<'_>,
    run_to_end: bool,
) -> Result<Execution> {
    let ran = plan_and_run(coll, query, match_ctx, run_to_end)?;
    let record_ids = ran.members.iter().map(|m| m.record_id).collect();
    let meta = query
        .spec
        .wants_metadata
        .then(|| ran.members.iter().map(Member::metadata).collect());
    Ok(Execution {
        meta,
        docs: ran
            .members
            .into_iter()
            .map(|m| m.into_find_result(query.spec))
            .collect(),
        record_ids,
        winner: ran.winner,
        winner_stats: ran.stage.stats(),
        rejected: ran.rejected,
        trials: ran.trials,
    })
}

/// What planning and running a find leaves, before any statistics are taken: commands that
/// only want the results skip building the winner's statistics tree (documents of its
/// filters and bounds, for explain), a fixed cost per command.
struct Ran<'a> {
    members: Vec<Member>,
    winner: Solution,
    stage: Box<dyn Stage + 'a>,
    rejected: Vec<(Solution, StageStats)>,
    trials: Vec<StageStats>,
}

fn plan_and_run<'a>(
    coll: Option<&'a Collection>,
    query: &'a CanonicalQuery<'a>,
    match_ctx: &'a MatchContext<'a>,
    run_to_end: bool,
) -> Result<Ran<'a>> {
    let cx = ExecContext {
        coll,
        query,
        match_ctx,
    };
    // A `$text` query is planned whole, by the text planner.
    let rooted_or = coll
        .filter(|_| query.spec.filter.text_query().is_none())
        .zip(crate::planner::or::rooted_or_branches(query));
    let candidates = match &rooted_or {
        Some((c, branches)) => match subplan::plan_rooted_or(c, branches, cx)? {
            Some(composed) => vec![composed],
            None => plan_find(coll, query)?,
        },
        None => plan_find(coll, query)?,
    };
    let mut stages = Vec::with_capacity(candidates.len());
    for c in &candidates {
        stages.push(build(c, cx)?);
    }
    let coll_len = coll.map_or(0, Collection::len);
    let mut race = multi_plan::MultiPlan::new(candidates, stages, coll_len);
    race.pick_best()?;
    let mut members = race.take_buffered();
    let (mut winner, mut stage, rejected, trials) = race.into_parts();
    if rooted_or.is_some() {
        let trial = stage.stats().common;
        stage = Box::new(subplan::Subplan::new(stage, trial));
        winner = Solution::Subplan {
            child: Box::new(winner),
        };
    }
    if run_to_end {
        run_into(stage.as_mut(), &mut members)?;
        record_index_use(coll, &winner);
    }
    Ok(Ran {
        members,
        winner,
        stage,
        rejected,
        trials,
    })
}

/// Runs a query's only candidate plan (`None`: no plan, nothing to return) to the end, as
/// [`execute`] does when planning gives one candidate (no race): the documents in result
/// order. For a caller that has planned already.
pub(crate) fn run_only(
    coll: Option<&Collection>,
    query: &CanonicalQuery<'_>,
    match_ctx: &MatchContext<'_>,
    plan: Option<&Solution>,
) -> Result<Vec<Document>> {
    let Some(plan) = plan else {
        return Ok(Vec::new());
    };
    let cx = ExecContext {
        coll,
        query,
        match_ctx,
    };
    let mut stage = build(plan, cx)?;
    let mut members = Vec::new();
    run_into(stage.as_mut(), &mut members)?;
    record_index_use(coll, plan);
    Ok(members
        .into_iter()
        .map(|m| m.into_find_result(query.spec))
        .collect())
}

/// The direction and filter of a find's plan when it is a lone collection scan (`None` for
/// anything else: an index, a sort, a text search, a rooted `$or`).
fn lone_collection_scan(
    coll: &Collection,
    query: &CanonicalQuery<'_>,
) -> Result<Option<(bool, Option<crate::planner::predicates::Residual>)>> {
    if query.spec.filter.text_query().is_some()
        || crate::planner::or::rooted_or_branches(query).is_some()
    {
        return Ok(None);
    }
    let mut candidates = plan_find(Some(coll), query)?;
    match (candidates.len(), candidates.pop()) {
        (1, Some(Solution::CollScan { forward, filter })) => Ok(Some((forward, filter))),
        _ => Ok(None),
    }
}

/// Whether no index of `coll` could serve `filter`, judged cheaply before planning (planning
/// decides; this spares planning twice when a caller would plan again after a `None` from
/// [`scanned_count`] or a find's stored-bytes reply): the filter is made of one-field paths
/// (`Filter::raw_field_names`), none of them in any index's key, and no index is a wildcard.
pub fn no_index_could_serve(coll: &Collection, filter: &crate::matcher::Filter) -> bool {
    let Some(fields) = filter.raw_field_names() else {
        return false;
    };
    !coll.indexes().iter().any(|index| {
        index.spec.wildcard.is_some()
            || index.spec.key.keys().any(|k| {
                let head = k.split('.').next().unwrap_or(k);
                fields.contains(&head)
            })
    })
}

/// Runs a lone collection scan's filter over the stored records in scan order, calling `each`
/// with every match's record id, BSON bytes (empty when none are kept) and document, as
/// [`collection_scan::CollectionScan`] decides them (from the bytes when they answer, else
/// from the document) without a stage's `work` call and member per record. `each` returns
/// whether to go on. Without a filter, `bytes` walks the stored bytes (no document is
/// looked up), otherwise the documents. `each` is called through a reference, not as a type
/// parameter: the loop is compiled once for its callers (a copy per caller was 3 KB of the
/// shipped wasm), and it is called only for the documents that match.
fn for_each_scanned<'a>(
    coll: &'a Collection,
    forward: bool,
    filter: Option<&crate::planner::predicates::Residual>,
    ctx: &MatchContext<'_>,
    bytes: bool,
    each: &mut dyn FnMut(u64, &'a [u8], Option<&'a Document>) -> bool,
) -> Result<()> {
    if filter.is_none() && bytes {
        let mut stored = coll.iter_bytes();
        while let Some((rid, b)) = if forward {
            stored.next()
        } else {
            stored.next_back()
        } {
            if !each(rid, b, None) {
                break;
            }
        }
        return Ok(());
    }
    let Some(f) = filter else {
        let mut records = coll.iter();
        while let Some((rid, doc)) = if forward {
            records.next()
        } else {
            records.next_back()
        } {
            if !each(rid, &[], Some(doc)) {
                break;
            }
        }
        return Ok(());
    };
    if !f.filter.raw_capable() {
        let mut records = coll.iter();
        while let Some((rid, doc)) = if forward {
            records.next()
        } else {
            records.next_back()
        } {
            if f.filter.matches_with(doc, ctx)? && !each(rid, &[], Some(doc)) {
                break;
            }
        }
        return Ok(());
    }
    let mut result = Ok(());
    // A scan run again on unchanged data decides from its fields' value columns (see
    // `column_decisions`); one loop either way, so that this function, compiled once per
    // caller, stays small in the shipped wasm.
    let decisions = column_decisions(coll, &f.filter);
    coll.for_each_bytes_at(forward, |at, rid, bytes| {
        let decided = match &decisions {
            Some(d) => match d.get(at) {
                Some(&DECIDED_TRUE) => Some(true),
                Some(&DECIDED_FALSE) => Some(false),
                _ => None,
            },
            None => f.filter.matches_raw(bytes),
        };
        let (matched, doc) = match decided {
            Some(m) => (m, None),
            None => match coll.get(rid) {
                Some(d) => match f.filter.matches_with(d, ctx) {
                    Ok(m) => (m, Some(d)),
                    Err(e) => {
                        result = Err(e);
                        return false;
                    }
                },
                None => (false, None),
            },
        };
        !matched || each(rid, bytes, doc)
    });
    result
}

const DECIDED_FALSE: u8 = 0;
const DECIDED_TRUE: u8 = 1;
const UNDECIDED: u8 = 2;

/// For a scan whose filter is a conjunction of predicates on top-level fields that scans read
/// before with no write since (`catalog::scan_columns`): per record position in the store, what
/// the filter decides from the fields' value columns ([`DECIDED_TRUE`], [`DECIDED_FALSE`], or
/// [`UNDECIDED`]: read the document), each clause decided once per distinct value and then by one lookup per
/// record, as [`crate::matcher::Filter::matches_raw`] decides it from the bytes. `None`: read
/// the bytes.
fn column_decisions(coll: &Collection, filter: &crate::matcher::Filter) -> Option<Vec<u8>> {
    use crate::catalog::scan_columns::ColumnValue;
    let clauses = filter.column_clauses()?;
    let names = clauses.names();
    let store = coll.scan_columns(&names)?;
    let columns = store.columns_for(&names)?;
    let mut decisions = vec![DECIDED_TRUE; columns.first()?.ids.len()];
    // Clause by clause, over the records still true: as `matches_raw`, the first clause not
    // decided true decides.
    for (i, column) in columns.iter().enumerate() {
        let table = clauses.table(
            i,
            &mut column.values.iter().map(|v| match v {
                ColumnValue::Missing => None,
                ColumnValue::Present(tag, value) => Some((*tag, &value[..])),
            }),
        );
        for (d, id) in decisions.iter_mut().zip(&column.ids) {
            if *d == DECIDED_TRUE {
                *d = match table.get(usize::from(*id)) {
                    Some(Some(true)) => DECIDED_TRUE,
                    Some(Some(false)) => DECIDED_FALSE,
                    _ => UNDECIDED,
                };
            }
        }
    }
    Some(decisions)
}

/// The stored documents a find returns, in order and borrowed, when its plan is a lone
/// collection scan (an aggregation's `$group` then reads them in place); `None` when the plan
/// is anything else: the caller runs the find as usual.
pub fn scanned_documents<'a>(
    coll: Option<&'a Collection>,
    query: &CanonicalQuery<'_>,
    match_ctx: &MatchContext<'_>,
) -> Result<Option<Vec<&'a Document>>> {
    let Some(c) = coll else {
        return Ok(None);
    };
    let Some((forward, filter)) = lone_collection_scan(c, query)? else {
        return Ok(None);
    };
    let mut docs = Vec::new();
    for_each_scanned(
        c,
        forward,
        filter.as_ref(),
        match_ctx,
        false,
        &mut |rid, _, doc| {
            if let Some(d) = doc.or_else(|| c.get(rid)) {
                docs.push(d);
            }
            true
        },
    )?;
    Ok(Some(docs))
}

/// A stored document: its record id and BSON bytes.
pub type Stored<'a> = (u64, &'a [u8]);

/// The record ids and stored BSON bytes of the documents a find returns, in order, when its
/// plan is a lone collection scan and every matched document's bytes are kept (a find's reply
/// is then written from them); `None` otherwise.
pub fn scanned_bytes<'a>(
    coll: Option<&'a Collection>,
    query: &CanonicalQuery<'_>,
    match_ctx: &MatchContext<'_>,
) -> Result<Option<Vec<Stored<'a>>>> {
    let Some(c) = coll else {
        return Ok(None);
    };
    let Some((forward, filter)) = lone_collection_scan(c, query)? else {
        return Ok(None);
    };
    let mut found = Vec::new();
    let mut complete = true;
    for_each_scanned(
        c,
        forward,
        filter.as_ref(),
        match_ctx,
        true,
        &mut |rid, bytes, _| {
            let bytes = if bytes.is_empty() {
                c.bytes(rid)
            } else {
                Some(bytes)
            };
            match bytes {
                Some(b) => found.push((rid, b)),
                None => complete = false,
            }
            complete
        },
    )?;
    Ok(complete.then_some(found))
}

/// How many documents a lone collection scan with a filter matches (a count without skip or
/// limit: what `countDocuments` without an index asks); `None` when the plan is anything else
/// or there is no filter (the count then takes the collection's size).
pub fn scanned_count(
    coll: Option<&Collection>,
    query: &CanonicalQuery<'_>,
    match_ctx: &MatchContext<'_>,
) -> Result<Option<u64>> {
    let Some(c) = coll else {
        return Ok(None);
    };
    if query.conjuncts().is_empty()
        || query.hint.is_some()
        || !no_index_could_serve(c, &query.spec.filter)
    {
        return Ok(None);
    }
    let Some((forward, filter @ Some(_))) = lone_collection_scan(c, query)? else {
        return Ok(None);
    };
    let mut n = 0;
    for_each_scanned(
        c,
        forward,
        filter.as_ref(),
        match_ctx,
        true,
        &mut |_, _, _| {
            n += 1;
            true
        },
    )?;
    Ok(Some(n))
}

/// Counts one access (for `$indexStats`) on each index the plan that ran to the end used.
pub(crate) fn record_index_use(coll: Option<&Collection>, plan: &Solution) {
    let Some(coll) = coll else {
        return;
    };
    let mut names: Vec<&str> = Vec::new();
    collect_index_names(plan, &mut names);
    for name in names {
        if let Some(index) = coll.index(name) {
            index.usage.record();
        }
    }
}

fn collect_index_names<'a>(plan: &'a Solution, names: &mut Vec<&'a str>) {
    let name = match plan {
        Solution::IxScan(p) | Solution::CountScan(p) | Solution::DistinctScan(p) => {
            Some(p.index_name.as_str())
        }
        Solution::Text(t) => Some(t.index_name.as_str()),
        Solution::GeoNear(g) => Some(g.index_name.as_str()),
        Solution::IdHack { .. } => Some(crate::index::ID_INDEX_NAME),
        _ => None,
    };
    if let Some(n) = name
        && !names.contains(&n)
    {
        names.push(n);
    }
    for child in plan.children() {
        collect_index_names(child, names);
    }
}

/// Works a stage to EOF, collecting what it returns.
fn run_into(stage: &mut dyn Stage, members: &mut Vec<Member>) -> Result<()> {
    loop {
        match stage.work()? {
            State::Advanced(m) => members.push(m),
            State::NeedTime => {}
            State::IsEof => return Ok(()),
        }
    }
}

/// Runs a find through the planner: the documents in result order. Same results as
/// [`crate::query::run_find_with`], with index access where an index serves the query.
pub fn find(
    coll: Option<&Collection>,
    query: &CanonicalQuery<'_>,
    match_ctx: &MatchContext<'_>,
) -> Result<Vec<Document>> {
    let ran = plan_and_run(coll, query, match_ctx, true)?;
    Ok(ran
        .members
        .into_iter()
        .map(|m| m.into_find_result(query.spec))
        .collect())
}

/// Plans and runs a `distinct`: DISTINCT_SCAN when an index on the key answers the query
/// alone, else the find plan of the query. The documents carry the key's values.
pub fn execute_distinct(
    coll: Option<&Collection>,
    key: &str,
    query: &CanonicalQuery<'_>,
    match_ctx: &MatchContext<'_>,
    run_to_end: bool,
) -> Result<Execution> {
    let text = query.spec.filter.text_query().is_some();
    let scan = match coll {
        Some(c) if query.hint.is_none() && !text => {
            crate::planner::count::distinct_scan(c, key, query)?
        }
        _ => None,
    };
    let Some(solution) = scan else {
        return execute(coll, query, match_ctx, run_to_end);
    };
    let cx = ExecContext {
        coll,
        query,
        match_ctx,
    };
    let mut stage = build(&solution, cx)?;
    let mut members = Vec::new();
    if run_to_end {
        run_into(stage.as_mut(), &mut members)?;
        record_index_use(coll, &solution);
    }
    let record_ids = members.iter().map(|m| m.record_id).collect();
    Ok(Execution {
        meta: None,
        docs: members
            .into_iter()
            .map(|m| m.into_find_result(query.spec))
            .collect(),
        record_ids,
        ..Execution::single(solution, stage.stats())
    })
}

/// Explains a delete: the plan is chosen as for a find with the delete's filter, then run
/// under a DELETE stage that counts what it would delete (nothing is removed).
pub fn explain_delete(
    coll: Option<&Collection>,
    query: &CanonicalQuery<'_>,
    multi: bool,
    match_ctx: &MatchContext<'_>,
    run_to_end: bool,
) -> Result<Execution> {
    explain_write(coll, query, match_ctx, run_to_end, |input| {
        Box::new(delete::Delete::new(multi, input))
    })
}

/// Explains a write: the plan is chosen as for a find with the write's filter, then run under
/// the write's root stage (`root`), which counts what it would change without changing it.
pub fn explain_write<'a>(
    coll: Option<&'a Collection>,
    query: &'a CanonicalQuery<'a>,
    match_ctx: &'a MatchContext<'a>,
    run_to_end: bool,
    root: impl FnOnce(Box<dyn Stage + 'a>) -> Box<dyn Stage + 'a>,
) -> Result<Execution> {
    let planned = execute(coll, query, match_ctx, false)?;
    let cx = ExecContext {
        coll,
        query,
        match_ctx,
    };
    let mut root = root(build(&planned.winner, cx)?);
    if run_to_end {
        while !matches!(root.work()?, State::IsEof) {}
    }
    Ok(Execution {
        meta: None,
        docs: Vec::new(),
        record_ids: Vec::new(),
        winner_stats: root.stats(),
        ..planned
    })
}

/// The record ids of the documents a write's filter selects, in the order the chosen plan
/// returns them (what `updateOne`/`deleteOne` take the first of). For the update, delete and
/// findAndModify commands' document selection.
pub fn matching_record_ids(
    coll: Option<&Collection>,
    spec: &FindSpec,
    match_ctx: &MatchContext<'_>,
) -> Result<Vec<u64>> {
    let query = CanonicalQuery::new(spec);
    let ran = plan_and_run(coll, &query, match_ctx, true)?;
    Ok(ran.members.iter().filter_map(|m| m.record_id).collect())
}

/// [`matching_record_ids`] with each record's metadata (text score, near distance and point)
/// when the find `wants_metadata`: what a pipeline stage reads a collection through
/// (`RunContext::find_records`).
pub fn matching_records(
    coll: Option<&Collection>,
    spec: &FindSpec,
    match_ctx: &MatchContext<'_>,
) -> Result<crate::query::FoundRecords> {
    let query = CanonicalQuery::new(spec);
    let ran = plan_and_run(coll, &query, match_ctx, true)?;
    let with_id = || ran.members.iter().filter(|m| m.record_id.is_some());
    Ok(crate::query::FoundRecords {
        ids: with_id().filter_map(|m| m.record_id).collect(),
        meta: spec
            .wants_metadata
            .then(|| with_id().map(Member::metadata).collect()),
    })
}

use crate::query::FindSpec;

#[cfg(test)]
mod tests;

#[cfg(test)]
mod or_tests;

#[cfg(test)]
mod count_tests;

#[cfg(test)]
mod geo_tests;
#[cfg(test)]
mod text_tests;

#[cfg(test)]
mod multikey_tests;

#[cfg(test)]
mod wildcard_tests;

//! Issue #5's book half. While the book runner (`tests/book_index_correctness.rs`) plays a
//! catalogue suite on its thread, every find-like command a session's engine answers is re-run
//! on a copy of its collection with indexes on the paths it filters and sorts on — hinted onto
//! each index, then left to the planner with all of them — and must return the same documents
//! as a collection scan of the copy (`sprout_tests::conformance::index_shadow`).
//!
//! What is re-run: a `find`'s filter, sort and projection (not its limit, skip or hint: with
//! ties another plan may legitimately pick other documents); a `count`'s or `distinct`'s
//! `query`; an `aggregate`'s leading `$match` stages with a `$sort` right after them; and the
//! command an `explain` explains. Anywhere else (the suites' own test binaries) nothing is
//! recorded and the engine gets no observer.

use std::cell::RefCell;

use bson::{Bson, Document, doc};
use engine::Engine;
use engine::catalog::Namespace;
use engine::clock::SimulatedClock;
use engine::storage::Snapshot;
use sprout_tests::conformance::documentdb::read_cursor;
use sprout_tests::conformance::ejson::relaxed;
use sprout_tests::conformance::index_shadow;
use sprout_tests::conformance::report::Outcome;

/// One re-checked command: a short description (database, collection, the find re-run) and
/// how the re-run went.
pub type Checked = (String, Outcome);

thread_local! {
    /// `Some` while the runner records on this thread.
    static RECORDED: RefCell<Option<Vec<Checked>>> = const { RefCell::new(None) };
}

/// Starts recording on this thread: engines made by `common::shell` from now on re-check
/// their reads.
pub fn start() {
    RECORDED.with(|r| *r.borrow_mut() = Some(Vec::new()));
}

/// Stops recording and returns what was checked since [`start`].
pub fn stop() -> Vec<Checked> {
    RECORDED.with(|r| r.borrow_mut().take().unwrap_or_default())
}

/// Gives `engine` the re-checking observer when this thread records.
pub fn attach(engine: &mut Engine) {
    if RECORDED.with(|r| r.borrow().is_none()) {
        return;
    }
    engine.set_command_observer(Some(Box::new(|engine, db, command, reply| {
        if !engine::reply_ok(reply) {
            return;
        }
        let Some(find) = as_find(command) else {
            return;
        };
        let outcome = recheck(engine, db, &find);
        let label = format!("{db}: {}", relaxed(&Bson::Document(find)));
        RECORDED.with(|r| {
            if let Some(list) = r.borrow_mut().as_mut() {
                list.push((label, outcome));
            }
        });
    })));
}

/// The `find` command that reads what `command` reads, if it is a find-like command.
fn as_find(command: &Document) -> Option<Document> {
    let (name, target) = command.iter().next()?;
    let coll = || target.as_str().map(|c| doc! {"find": c});
    let mut find = match name.as_str() {
        "explain" => return as_find(target.as_document()?),
        // min/max need a hint of their own index.
        "find" if !command.contains_key("min") && !command.contains_key("max") => {
            let mut find = coll()?;
            copy_fields(command, &mut find, &["filter", "sort", "projection"]);
            find
        }
        "count" | "distinct" => {
            let mut find = coll()?;
            if let Ok(query) = command.get_document("query") {
                find.insert("filter", query.clone());
            }
            find
        }
        "aggregate" => {
            let mut find = coll()?;
            let (filter, sort) = leading_match_and_sort(command.get_array("pipeline").ok()?);
            if let Some(filter) = filter {
                find.insert("filter", filter);
            }
            if let Some(sort) = sort {
                find.insert("sort", sort);
            }
            find
        }
        _ => return None,
    };
    copy_fields(command, &mut find, &["collation", "let"]);
    let reads_something = find.get_document("filter").is_ok_and(|f| !f.is_empty())
        || find.get_document("sort").is_ok_and(|s| !s.is_empty());
    reads_something.then_some(find)
}

fn copy_fields(from: &Document, to: &mut Document, names: &[&str]) {
    for name in names {
        if let Some(v) = from.get(*name) {
            to.insert(*name, v.clone());
        }
    }
}

/// The pipeline's leading `$match` stages (as one filter) and a `$sort` right after them.
fn leading_match_and_sort(pipeline: &[Bson]) -> (Option<Document>, Option<Document>) {
    let mut filters = Vec::new();
    let mut sort = None;
    for stage in pipeline.iter().filter_map(Bson::as_document) {
        match (stage.get_document("$match"), stage.get_document("$sort")) {
            (Ok(m), _) if stage.len() == 1 => filters.push(Bson::Document(m.clone())),
            (_, Ok(s)) if stage.len() == 1 => {
                sort = Some(s.clone());
                break;
            }
            _ => break,
        }
    }
    let filter = match filters.len() {
        0 => None,
        1 => filters.pop().and_then(|f| f.as_document().cloned()),
        _ => Some(doc! {"$and": filters}),
    };
    (filter, sort)
}

/// Re-runs `find` on a copy of its collection: a collection scan gives the expected documents,
/// then the index shadow runs it on each index and on the planner's choice.
fn recheck(engine: &Engine, db: &str, find: &Document) -> Outcome {
    if mentions(&Bson::Document(find.clone()), "$where") {
        return Outcome::Skip("$where needs the shell's evaluator".into());
    }
    let coll = find.get_str("find").unwrap_or_default();
    let mut copy = match copy_of(engine, db, coll) {
        Ok(copy) => copy,
        Err(reason) => return Outcome::Skip(reason),
    };
    let mut scan = find.clone();
    scan.insert("hint", doc! {"$natural": 1});
    let expected = match read_cursor(&mut copy, db, &scan) {
        Ok(docs) => docs,
        Err(e) => return Outcome::Fail(format!("the copy's collection scan failed: {e}")),
    };
    index_shadow::check(&mut copy, db, find, &expected, &mut |e, cmd| {
        read_cursor(e, db, cmd)
    })
    .unwrap_or_else(|| Outcome::Skip("no path an ordinary index can serve".into()))
}

/// A fresh engine holding collection `coll` of `db` as `engine` has it now: options, indexes
/// and documents under their record ids, on a clock at the same time.
fn copy_of(engine: &Engine, db: &str, coll: &str) -> Result<Engine, String> {
    let ns = Namespace::new(db, coll);
    let source = engine
        .catalog()
        .collection(&ns)
        .ok_or_else(|| "the collection does not exist".to_string())?;
    let mut snapshot = Snapshot::default();
    snapshot
        .collections
        .push((ns.clone(), source.catalog_options()));
    for (record_id, d) in source.iter() {
        let bytes = d
            .to_vec()
            .map_err(|e| format!("cannot encode a document: {e}"))?;
        snapshot.documents.push((ns.clone(), record_id, bytes));
    }
    let clock = SimulatedClock::new(engine.now_millis());
    Engine::with_clock(Box::new(clock), 7)
        .load(snapshot)
        .map_err(|e| format!("cannot load the copy: {}", e.message))
}

fn mentions(v: &Bson, operator: &str) -> bool {
    match v {
        Bson::Document(d) => d
            .iter()
            .any(|(k, v)| k == operator || mentions(v, operator)),
        Bson::Array(items) => items.iter().any(|i| mentions(i, operator)),
        _ => false,
    }
}

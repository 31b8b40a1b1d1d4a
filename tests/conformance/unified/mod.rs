//! The CRUD subset of the unified test format (`mongodb-specifications/source/crud/tests/unified`).
//!
//! Each test runs on a fresh [`engine::Engine`]: `initialData` is inserted, the operations are
//! translated by [`ops`] into the commands a driver sends, their results checked with
//! [`matcher`] (`expectResult`, `expectError`), then `outcome` (the collections' contents,
//! compared exactly apart from key order and numeric type) is checked.
//!
//! Skipped, with the reason recorded per test: unmet `runOnRequirements` (this engine is a
//! single 8.0 server), fail points, sessions and transactions, client bulkWrite, the
//! driver-only `rawData` option, unacknowledged (`w: 0`) collections and operations the runner
//! does not translate. `expectEvents` (command monitoring) is not asserted: the operations of
//! those tests still run and their results and outcome are still checked.

pub mod matcher;
pub mod ops;

use std::collections::HashMap;

use bson::{Bson, Document, doc};
use serde_json::Value;

use super::report::{Outcome, Report, catch_panic, quiet_panics};
use matcher::{Level, matches};
use ops::{OpError, Target};

/// The server version this engine stands for.
const SERVER_VERSION: [u64; 3] = [8, 0, 0];

/// Areas, from the file names.
const AREAS: &[&str] = &[
    "insert",
    "find",
    "update",
    "replace",
    "delete",
    "findOneAnd*",
    "count",
    "distinct",
    "bulkWrite",
    "aggregate",
    "other",
    "clientBulkWrite",
];

/// Runs every file and returns the report.
pub fn run() -> Result<Report, String> {
    let dir = super::data_dir()?.join("mongodb-specifications/source/crud/tests/unified");
    let files = super::list_files(&dir, ".json")?;
    if files.is_empty() {
        return Err(format!("no unified test files in {}", dir.display()));
    }
    let mut report = Report::new(
        "crud_unified",
        "Spec CRUD unified tests",
        "Data: `mongodb-specifications/source/crud/tests/unified/*.json`, one case per test, \
         areas from the file names. Event assertions (`expectEvents`) are not checked, but \
         the operations of those tests run and their results and outcome are checked.",
        AREAS,
    );
    let _quiet = quiet_panics();
    let mut events_not_checked = 0;
    for path in files {
        let file = super::file_name(&path);
        let area = area_of(&file);
        let suite = std::fs::read_to_string(&path)
            .map_err(|e| format!("cannot read: {e}"))
            .and_then(|t| {
                serde_json::from_str::<Value>(&t).map_err(|e| format!("malformed test file: {e}"))
            })
            .and_then(|v| Bson::try_from(v).map_err(|e| format!("malformed Extended JSON: {e}")));
        let suite = match suite {
            Ok(Bson::Document(d)) => d,
            Ok(_) => {
                report.push(
                    &format!("{file}: load"),
                    area,
                    Outcome::Fail("test file is not a JSON object".into()),
                );
                continue;
            }
            Err(e) => {
                report.push(&format!("{file}: load"), area, Outcome::Fail(e));
                continue;
            }
        };
        let tests = match suite.get_array("tests") {
            Ok(t) => t.clone(),
            Err(_) => {
                report.push(
                    &format!("{file}: load"),
                    area,
                    Outcome::Fail("malformed test file: no tests array".into()),
                );
                continue;
            }
        };
        for test in tests {
            let Bson::Document(test) = test else {
                report.push(
                    &format!("{file}: load"),
                    area,
                    Outcome::Fail("malformed test: not a document".into()),
                );
                continue;
            };
            let description = test.get_str("description").unwrap_or("(no description)");
            if test.contains_key("expectEvents") {
                events_not_checked += 1;
            }
            let outcome = match catch_panic(|| run_test(&suite, &test)) {
                Ok(outcome) => outcome,
                Err(panic) => Outcome::Fail(format!("runner {panic}")),
            };
            report.push(&format!("{file}: {description}"), area, outcome);
        }
    }
    report.add_output_line(format!(
        "crud_unified: expectEvents assertions not checked in {events_not_checked} tests \
         (their operations, results and outcome are checked)"
    ));
    Ok(report)
}

fn area_of(file: &str) -> &'static str {
    let stem = file.trim_end_matches(".json");
    let prefixes: &[(&str, &str)] = &[
        ("client-bulkWrite", "clientBulkWrite"),
        ("bulkWrite", "bulkWrite"),
        ("insert", "insert"),
        ("create-null-ids", "insert"),
        ("findOneAnd", "findOneAnd*"),
        ("find", "find"),
        ("update", "update"),
        ("replace", "replace"),
        ("delete", "delete"),
        ("countDocuments", "count"),
        ("count", "count"),
        ("estimatedDocumentCount", "count"),
        ("distinct", "distinct"),
        ("aggregate", "aggregate"),
        ("db-aggregate", "aggregate"),
    ];
    prefixes
        .iter()
        .find(|(p, _)| stem.starts_with(p))
        .map(|(_, a)| *a)
        .unwrap_or("other")
}

/// An entity of `createEntities`.
enum Entity {
    Client,
    Database {
        name: String,
    },
    Collection {
        db: String,
        name: String,
        unacknowledged: bool,
        read_concern: Option<Document>,
    },
}

fn run_test(suite: &Document, test: &Document) -> Outcome {
    if let Some(reason) = requirements_unmet(suite.get("runOnRequirements"))
        .or_else(|| requirements_unmet(test.get("runOnRequirements")))
    {
        return Outcome::Skip(reason);
    }
    if test.contains_key("skipReason") {
        return Outcome::Skip("skipReason given by the test file".into());
    }
    let entities = match create_entities(suite) {
        Ok(e) => e,
        Err(e) => return Outcome::Fail(format!("malformed createEntities: {e}")),
    };
    let operations = match test.get_array("operations") {
        Ok(ops) => ops.clone(),
        Err(_) => return Outcome::Fail("malformed test: no operations".into()),
    };
    // Decide on skips before running anything.
    for op in &operations {
        let Bson::Document(op) = op else {
            return Outcome::Fail("malformed operation: not a document".into());
        };
        let name = op.get_str("name").unwrap_or("");
        let object = op.get_str("object").unwrap_or("");
        let args = op.get_document("arguments").ok();
        if name == "clientBulkWrite" {
            return Outcome::Skip("client bulkWrite (clientBulkWrite)".into());
        }
        if object == "testRunner" {
            return Outcome::Skip(match name {
                "failPoint" | "targetedFailPoint" => "fail points".to_string(),
                other => format!("testRunner operation {other}"),
            });
        }
        if args.is_some_and(|a| a.contains_key("session"))
            || name.contains("Transaction")
            || name == "startSession"
        {
            return Outcome::Skip("sessions/transactions".into());
        }
        if args.is_some_and(|a| a.contains_key("rawData")) {
            return Outcome::Skip("driver-only rawData option".into());
        }
        if let Some(Entity::Collection {
            unacknowledged: true,
            ..
        }) = entities.get(object)
        {
            return Outcome::Skip("unacknowledged writes (w: 0), driver-only".into());
        }
        if !ops::SUPPORTED.contains(&name) {
            return Outcome::Skip(format!("operation {name} not translated by the runner"));
        }
        if !entities.contains_key(object) {
            return Outcome::Fail(format!("operation on unknown entity {object:?}"));
        }
    }

    let mut engine = engine::Engine::new();
    if let Ok(initial) = suite.get_array("initialData")
        && let Err(e) = load_initial_data(&mut engine, initial)
    {
        return Outcome::Fail(format!("initialData: {e}"));
    }

    for (i, op) in operations.iter().enumerate() {
        let Bson::Document(op) = op else {
            continue;
        };
        if let Err(e) = run_operation(&mut engine, &entities, op) {
            let name = op.get_str("name").unwrap_or("?");
            return Outcome::Fail(format!("operation {i} ({name}): {e}"));
        }
    }

    if let Ok(outcome) = test.get_array("outcome")
        && let Err(e) = check_outcome(&mut engine, outcome)
    {
        return Outcome::Fail(format!("outcome: {e}"));
    }
    Outcome::Pass
}

/// `None` when any requirement of the list is met (or there is no list); otherwise the reason.
fn requirements_unmet(requirements: Option<&Bson>) -> Option<String> {
    let Some(Bson::Array(list)) = requirements else {
        return None;
    };
    if list.is_empty() {
        return None;
    }
    let mut reasons = Vec::new();
    for req in list {
        let Bson::Document(req) = req else {
            reasons.push("malformed runOnRequirements".to_string());
            continue;
        };
        match requirement_unmet(req) {
            None => return None,
            Some(reason) => reasons.push(reason),
        }
    }
    Some(format!("runOnRequirements: {}", reasons.join(" / ")))
}

fn requirement_unmet(req: &Document) -> Option<String> {
    for (key, value) in req {
        match key.as_str() {
            "minServerVersion" => {
                let v = parse_version(value.as_str().unwrap_or(""));
                if v > SERVER_VERSION {
                    return Some(format!(
                        "minServerVersion {} > 8.0",
                        value.as_str().unwrap_or("?")
                    ));
                }
            }
            "maxServerVersion" => {
                let v = parse_version(value.as_str().unwrap_or(""));
                if v < SERVER_VERSION {
                    return Some(format!(
                        "maxServerVersion {} < 8.0",
                        value.as_str().unwrap_or("?")
                    ));
                }
            }
            "topologies" => {
                let ok = value.as_array().is_some_and(|t| {
                    t.iter()
                        .any(|x| matches!(x.as_str(), Some("single") | Some("replicaset")))
                });
                if !ok {
                    return Some(format!("topologies {value} (single only)"));
                }
            }
            "serverless" => {
                if value.as_str() == Some("require") {
                    return Some("serverless required".into());
                }
            }
            "auth" => {
                if value.as_bool() == Some(true) {
                    return Some("auth required".into());
                }
            }
            other => return Some(format!("requirement {other}")),
        }
    }
    None
}

fn parse_version(text: &str) -> [u64; 3] {
    let mut out = [0u64; 3];
    for (i, part) in text.split('.').take(3).enumerate() {
        out[i] = part.parse().unwrap_or(0);
    }
    out
}

fn create_entities(suite: &Document) -> Result<HashMap<String, Entity>, String> {
    let mut entities = HashMap::new();
    let list = suite
        .get_array("createEntities")
        .cloned()
        .unwrap_or_default();
    for entry in list {
        let Bson::Document(entry) = entry else {
            return Err("entity is not a document".into());
        };
        let Some((kind, Bson::Document(spec))) = entry.iter().next() else {
            return Err("empty entity".into());
        };
        let id = spec
            .get_str("id")
            .map_err(|_| "entity without id")?
            .to_string();
        let entity = match kind.as_str() {
            "client" => Entity::Client,
            "database" => Entity::Database {
                name: spec
                    .get_str("databaseName")
                    .map_err(|_| "database without databaseName")?
                    .to_string(),
            },
            "collection" => {
                let db_id = spec
                    .get_str("database")
                    .map_err(|_| "collection without database")?;
                let db = match entities.get(db_id) {
                    Some(Entity::Database { name }) => name.clone(),
                    _ => return Err(format!("collection on unknown database {db_id}")),
                };
                let unacknowledged = spec
                    .get_document("collectionOptions")
                    .ok()
                    .and_then(|o| o.get_document("writeConcern").ok())
                    .and_then(|w| w.get("w"))
                    .and_then(super::ejson::as_i64)
                    == Some(0);
                let read_concern = spec
                    .get_document("collectionOptions")
                    .ok()
                    .and_then(|o| o.get_document("readConcern").ok())
                    .cloned();
                Entity::Collection {
                    db,
                    read_concern,
                    name: spec
                        .get_str("collectionName")
                        .map_err(|_| "collection without collectionName")?
                        .to_string(),
                    unacknowledged,
                }
            }
            other => return Err(format!("entity type {other} not supported")),
        };
        entities.insert(id, entity);
    }
    Ok(entities)
}

fn load_initial_data(engine: &mut engine::Engine, initial: &[Bson]) -> Result<(), String> {
    for entry in initial {
        let Bson::Document(entry) = entry else {
            return Err("entry is not a document".into());
        };
        let db = entry
            .get_str("databaseName")
            .map_err(|_| "no databaseName")?;
        let coll = entry
            .get_str("collectionName")
            .map_err(|_| "no collectionName")?;
        let docs = entry.get_array("documents").cloned().unwrap_or_default();
        let _ = ops::command(engine, db, doc! {"drop": coll});
        let mut create = doc! {"create": coll};
        if let Ok(options) = entry.get_document("createOptions") {
            create.extend(options.clone());
        }
        ops::command(engine, db, create).map_err(|e| e.describe())?;
        if !docs.is_empty() {
            let reply = ops::command(engine, db, doc! {"insert": coll, "documents": docs})
                .map_err(|e| e.describe())?;
            if reply.contains_key("writeErrors") {
                return Err(format!(
                    "insert failed: {}",
                    super::ejson::canonical_doc(&reply)
                ));
            }
        }
    }
    Ok(())
}

fn run_operation(
    engine: &mut engine::Engine,
    entities: &HashMap<String, Entity>,
    op: &Document,
) -> Result<(), String> {
    let name = op.get_str("name").unwrap_or("");
    let object = op.get_str("object").unwrap_or("");
    let args = op.get_document("arguments").cloned().unwrap_or_default();
    let (db, collection, read_concern) = match entities.get(object) {
        Some(Entity::Database { name }) => (name.clone(), None, None),
        Some(Entity::Collection {
            db,
            name,
            read_concern,
            ..
        }) => (db.clone(), Some(name.clone()), read_concern.clone()),
        Some(Entity::Client) | None => {
            return Err(format!("operation on unsupported entity {object:?}"));
        }
    };
    let target = Target {
        db: &db,
        collection: collection.as_deref(),
        read_concern: read_concern.as_ref(),
    };
    let result = ops::run(engine, &target, name, &args);
    if matches!(op.get("ignoreResultAndError"), Some(Bson::Boolean(true))) {
        return match result {
            Err(OpError::Panic(p)) => Err(format!("engine {p}")),
            _ => Ok(()),
        };
    }
    if let Ok(expect_error) = op.get_document("expectError") {
        return match result {
            Ok(value) => Err(format!(
                "expected an error, got result {}",
                value
                    .map(|v| super::report::clip(&super::ejson::canonical(&v), 300))
                    .unwrap_or_else(|| "(none)".into())
            )),
            Err(e) => check_error(expect_error, &e),
        };
    }
    let value = result.map_err(|e| e.describe())?;
    if let Some(expected) = op.get("expectResult") {
        matches(expected, value.as_ref(), Level::Root).map_err(|e| format!("result: {e}"))?;
    }
    Ok(())
}

fn check_error(expected: &Document, actual: &OpError) -> Result<(), String> {
    if let OpError::Panic(p) = actual {
        return Err(format!("engine {p}"));
    }
    if let OpError::Server(e) = actual
        && super::is_unimplemented(i64::from(e.code), &e.message)
    {
        return Err(format!(
            "expected an error; the engine lacks the feature: {}",
            actual.describe()
        ));
    }
    let is_client = matches!(actual, OpError::Client(_));
    let describe = actual.describe();
    for (key, value) in expected {
        match key.as_str() {
            "isError" => {}
            "isClientError" => {
                let want = value.as_bool().unwrap_or(false);
                if want != is_client {
                    return Err(format!(
                        "expected {}a client error, got {describe}",
                        if want { "" } else { "not " }
                    ));
                }
            }
            "errorContains" => {
                let needle = value.as_str().unwrap_or("").to_lowercase();
                let message = match actual {
                    OpError::Server(e) => &e.message,
                    OpError::Client(message) => message,
                    OpError::Panic(m) => m,
                };
                if !message.to_lowercase().contains(&needle) {
                    return Err(format!(
                        "expected an error containing {needle:?}, got {describe}"
                    ));
                }
            }
            "errorCode" => {
                let want = super::ejson::as_i64(value).unwrap_or(-1);
                match actual {
                    OpError::Server(e) if i64::from(e.code) == want => {}
                    _ => return Err(format!("expected error code {want}, got {describe}")),
                }
            }
            "errorCodeName" => {
                let want = value.as_str().unwrap_or("");
                match actual {
                    OpError::Server(e) if e.code_name == want => {}
                    _ => return Err(format!("expected error {want}, got {describe}")),
                }
            }
            "errorResponse" => match actual {
                OpError::Server(e) => {
                    matches(
                        value,
                        Some(&Bson::Document(e.response.clone())),
                        Level::Root,
                    )
                    .map_err(|e| format!("errorResponse: {e}"))?;
                }
                _ => return Err(format!("expected a server error response, got {describe}")),
            },
            "expectResult" => match actual {
                OpError::Server(e) if e.partial.is_some() => {
                    let partial = e.partial.as_ref().unwrap_or(&Bson::Null);
                    matches(value, Some(partial), Level::Root)
                        .map_err(|e| format!("partial result: {e}"))?;
                }
                _ => return Err(format!("expected a partial result, got {describe}")),
            },
            "errorLabelsContain" | "errorLabelsOmit" => {
                // Labels mark retryable/transient errors, which a single in-process engine
                // never raises: nothing to contain, and everything is omitted.
                if key == "errorLabelsContain"
                    && value.as_array().is_some_and(|labels| !labels.is_empty())
                {
                    return Err(format!("expected error labels {value}, got {describe}"));
                }
            }
            other => {
                return Err(format!(
                    "expectError.{other} is not supported by this runner"
                ));
            }
        }
    }
    Ok(())
}

fn check_outcome(engine: &mut engine::Engine, outcome: &[Bson]) -> Result<(), String> {
    for entry in outcome {
        let Bson::Document(entry) = entry else {
            return Err("outcome entry is not a document".into());
        };
        let db = entry
            .get_str("databaseName")
            .map_err(|_| "no databaseName")?;
        let coll = entry
            .get_str("collectionName")
            .map_err(|_| "no collectionName")?;
        let expected = entry.get_array("documents").cloned().unwrap_or_default();
        let target = Target {
            db,
            collection: Some(coll),
            read_concern: None,
        };
        // Fetch without a server-side sort and order by _id here, so the outcome check does
        // not depend on the engine's sort.
        let actual = match ops::run(engine, &target, "find", &doc! {"filter": {}}) {
            Ok(Some(Bson::Array(docs))) => docs,
            Ok(other) => return Err(format!("{db}.{coll}: unexpected find result {other:?}")),
            Err(e) => return Err(format!("{db}.{coll}: {}", e.describe())),
        };
        let mut actual = actual;
        actual.sort_by(id_order);
        let expected = Bson::Array(expected);
        let actual = Bson::Array(actual);
        matches(&expected, Some(&actual), Level::Nested)
            .map_err(|e| format!("{db}.{coll}: {e}"))?;
    }
    Ok(())
}

/// Orders documents by `_id` for the outcome check: by type rank, then by value, enough for
/// the ids the CRUD tests use (numbers, strings, ObjectIds, documents).
fn id_order(a: &Bson, b: &Bson) -> std::cmp::Ordering {
    let id = |d: &Bson| match d {
        Bson::Document(d) => d.get("_id").cloned().unwrap_or(Bson::Null),
        _ => Bson::Null,
    };
    let (a, b) = (id(a), id(b));
    let rank = |v: &Bson| match v {
        Bson::MinKey => 0,
        Bson::Null | Bson::Undefined => 1,
        Bson::Int32(_) | Bson::Int64(_) | Bson::Double(_) | Bson::Decimal128(_) => 2,
        Bson::String(_) | Bson::Symbol(_) => 3,
        Bson::Document(_) => 4,
        Bson::Array(_) => 5,
        Bson::Binary(_) => 6,
        Bson::ObjectId(_) => 7,
        Bson::Boolean(_) => 8,
        Bson::DateTime(_) => 9,
        Bson::Timestamp(_) => 10,
        Bson::RegularExpression(_) => 11,
        Bson::MaxKey => 13,
        _ => 12,
    };
    rank(&a).cmp(&rank(&b)).then_with(|| match (&a, &b) {
        (Bson::String(x), Bson::String(y)) => x.cmp(y),
        (Bson::ObjectId(x), Bson::ObjectId(y)) => x.bytes().cmp(&y.bytes()),
        (Bson::Boolean(x), Bson::Boolean(y)) => x.cmp(y),
        (Bson::DateTime(x), Bson::DateTime(y)) => x.cmp(y),
        _ => match (super::ejson::as_f64(&a), super::ejson::as_f64(&b)) {
            (Some(x), Some(y)) => x.total_cmp(&y),
            _ => super::ejson::canonical(&a).cmp(&super::ejson::canonical(&b)),
        },
    })
}

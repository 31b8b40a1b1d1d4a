//! The writes of `$out` and `$merge`, the stages that end a pipeline by writing its results.
//! They go through the same paths as the write commands (`insert`'s document preparation,
//! `update`'s record update and upsert, the catalog swap of `renameCollection`), so every
//! change lands in the command's change batch.
//!
//! - `$out` builds the new collection aside (with the target's options and indexes), and swaps
//!   it in only when every document went in: a duplicate key leaves the target untouched.
//! - `$merge` writes document by document like MongoDB's unordered batch: a failing document
//!   does not stop the others, and the first error is reported at the end.

use bson::{Bson, Document, doc};

use super::admin::install_collection;
use super::insert::prepare_for_insert;
use super::update::{insert_upsert, update_record};
use crate::Engine;
use crate::catalog::{Collection, Namespace, validate_collection_name, validate_db_name};
use crate::error::{Error, ErrorCode, Result};
use crate::expression::{EvalContext, Expression, Scope};
use crate::matcher::{Filter, MatchContext};
use crate::pipeline::stages::{MergeSpec, OutSpec, WhenMatched, WhenNotMatched};
use crate::pipeline::{Pipeline, RunContext, WriteStage, WriteTarget};
use crate::update::{ArrayFilters, UpdateSpec};

/// Databases no `$out` or `$merge` may write to.
const INTERNAL_DATABASES: &[&str] = &["admin", "local", "config"];

/// The checks MongoDB makes when it parses the stage, before anything runs: the target
/// namespace, and for `$merge` on other fields than `_id`, a unique index on exactly them.
pub(super) fn check_target(engine: &Engine, db: &str, target: WriteTarget<'_>) -> Result<()> {
    match target {
        WriteTarget::Out(spec) => {
            out_namespace(db, spec)?;
        }
        WriteTarget::Merge(spec) => {
            let ns = merge_namespace(db, spec)?;
            supporting_index_is_sparse(engine, &ns, spec)?;
        }
    }
    Ok(())
}

/// A writing stage cannot run under a `linearizable` read concern (MongoDB's
/// `supportsReadConcern` of `$out` and `$merge`).
pub(super) fn check_read_concern(command: &Document, writer: &dyn WriteStage) -> Result<()> {
    let level = command
        .get_document("readConcern")
        .ok()
        .and_then(|rc| rc.get_str("level").ok());
    if level == Some("linearizable") {
        let stage = match writer.target() {
            WriteTarget::Out(_) => "$out",
            WriteTarget::Merge(_) => "$merge",
        };
        return Err(Error::new(
            ErrorCode::InvalidOptions,
            format!("{stage} cannot be used with a 'linearizable' read concern level"),
        ));
    }
    Ok(())
}

/// Writes the pipeline's results.
pub(super) fn write(
    engine: &mut Engine,
    db: &str,
    target: WriteTarget<'_>,
    docs: Vec<Document>,
    run: &WriteRun<'_>,
) -> Result<()> {
    match target {
        WriteTarget::Out(spec) => write_out(engine, &out_namespace(db, spec)?, docs),
        WriteTarget::Merge(spec) => {
            let ns = merge_namespace(db, spec)?;
            let sparse = supporting_index_is_sparse(engine, &ns, spec)?;
            Merger {
                ns: &ns,
                db,
                spec,
                on: spec.on_fields(),
                sparse,
                run,
            }
            .write_all(engine, docs)
        }
    }
}

/// What a `whenMatched` pipeline needs from the command.
pub(super) struct WriteRun<'a> {
    pub scope: &'a Scope,
    pub eval: &'a EvalContext,
    pub match_ctx: &'a MatchContext<'a>,
}

fn target_namespace(db: &str, spec_db: Option<&String>, coll: &str) -> Namespace {
    Namespace::new(spec_db.map_or(db, String::as_str), coll)
}

/// MongoDB's `NamespaceString::isValid`: a valid database name and a collection name.
fn namespace_is_valid(ns: &Namespace) -> bool {
    validate_db_name(&ns.db).is_ok()
        && !ns.coll.is_empty()
        && !ns.coll.starts_with('.')
        && !ns.coll.contains('\0')
}

fn out_namespace(db: &str, spec: &OutSpec) -> Result<Namespace> {
    let ns = target_namespace(db, spec.db.as_ref(), &spec.coll);
    if !namespace_is_valid(&ns) {
        return Err(Error::new(
            ErrorCode::InvalidNamespace,
            format!("Invalid $out target namespace, {ns}"),
        ));
    }
    if ns.coll.starts_with("system.") {
        return Err(Error::location(
            17385,
            format!("Can't $out to special collection: {}", ns.coll),
        ));
    }
    if INTERNAL_DATABASES.contains(&ns.db.as_str()) {
        return Err(Error::location(
            31321,
            format!("Can't $out to internal database: {}", ns.db),
        ));
    }
    validate_collection_name(&ns)?;
    Ok(ns)
}

fn merge_namespace(db: &str, spec: &MergeSpec) -> Result<Namespace> {
    let ns = target_namespace(db, spec.db.as_ref(), &spec.coll);
    if !namespace_is_valid(&ns) {
        return Err(Error::new(
            ErrorCode::InvalidNamespace,
            format!("Invalid $merge target namespace: '{ns}'"),
        ));
    }
    if ns.coll.starts_with("system.") {
        return Err(Error::location(
            31319,
            format!("Cannot $merge to special collection: {}", ns.coll),
        ));
    }
    if INTERNAL_DATABASES.contains(&ns.db.as_str()) {
        return Err(Error::location(
            31320,
            format!("Cannot $merge to internal database: {}", ns.db),
        ));
    }
    validate_collection_name(&ns)?;
    Ok(ns)
}

/// `$merge`'s `on` fields must be backed by a unique, non-partial index on exactly those fields
/// (`_id` always is). Returns whether that index is sparse (then a missing or null `on` value
/// is an error, as it could match several documents).
fn supporting_index_is_sparse(engine: &Engine, ns: &Namespace, spec: &MergeSpec) -> Result<bool> {
    let on = spec.on_fields();
    let mut seen: Vec<&str> = Vec::with_capacity(on.len());
    for field in &on {
        crate::pipeline::stages::check_field_path(field)?;
        if seen.contains(&field.as_str()) {
            return Err(Error::location(
                31465,
                format!("Found a duplicate field '{field}'"),
            ));
        }
        seen.push(field);
    }
    if on.len() == 1 && on[0] == "_id" {
        return Ok(false);
    }
    let supporting = engine.catalog().collection(ns).and_then(|coll| {
        coll.indexes().iter().find(|ix| {
            let spec = &ix.spec;
            (spec.unique || spec.is_id())
                && spec.partial.is_none()
                && spec.parts.len() == on.len()
                && spec.parts.iter().all(|p| on.contains(&p.dotted))
        })
    });
    match supporting {
        Some(ix) => Ok(ix.spec.sparse),
        None => Err(Error::location(
            51183,
            "Cannot find index to verify that join fields will be unique",
        )),
    }
}

/// A UUID-shaped name part for `$out`'s temporary collection (`tmp.agg_out.<uuid>`), from the
/// engine's ObjectId generator so seeded engines repeat it.
fn temporary_name(engine: &mut Engine) -> String {
    let mut bytes = [0u8; 16];
    let a = engine.new_object_id().bytes();
    let b = engine.new_object_id().bytes();
    bytes[..12].copy_from_slice(&a);
    bytes[12..].copy_from_slice(&b[8..12]);
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!(
        "tmp.agg_out.{}-{}-{}-{}-{}",
        &hex[..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..]
    )
}

/// `$out`: the results become the whole collection, which keeps the target's options and
/// indexes. Built aside under a temporary name, so a failure changes nothing.
fn write_out(engine: &mut Engine, ns: &Namespace, docs: Vec<Document>) -> Result<()> {
    let existing = engine.catalog().collection(ns);
    if existing.is_some_and(Collection::is_capped) {
        return Err(Error::location(
            17152,
            format!("namespace '{ns}' is capped so it can't be used for $out"),
        ));
    }
    let mut coll = existing.map_or_else(Collection::new, |c| {
        Collection::with_options(c.catalog_options())
    });
    let temp = Namespace::new(ns.db.clone(), temporary_name(engine)).to_string();
    for d in docs {
        let doc = prepare_for_insert(engine, &d)?;
        coll.insert(&temp, doc)?;
    }
    install_collection(engine, ns, coll);
    Ok(())
}

/// One `$merge` run.
struct Merger<'a> {
    ns: &'a Namespace,
    db: &'a str,
    spec: &'a MergeSpec,
    on: Vec<String>,
    sparse: bool,
    run: &'a WriteRun<'a>,
}

/// Whether a document found a match (for `whenNotMatched: "fail"`).
enum Outcome {
    Written,
    Unmatched,
}

impl Merger<'_> {
    fn write_all(&self, engine: &mut Engine, docs: Vec<Document>) -> Result<()> {
        let mut first_error = None;
        let mut unmatched = false;
        for doc in docs {
            match self.write_one(engine, doc) {
                Ok(Outcome::Written) => {}
                Ok(Outcome::Unmatched) => unmatched = true,
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        if let Some(e) = first_error {
            return Err(e);
        }
        if unmatched {
            return Err(Error::new(
                ErrorCode::MergeStageNoMatchingDocument,
                "$merge could not find a matching document in the target collection for at \
                 least one document in the source collection",
            ));
        }
        Ok(())
    }

    fn write_one(&self, engine: &mut Engine, mut doc: Document) -> Result<Outcome> {
        if self.on.iter().any(|f| f == "_id") && !doc.contains_key("_id") {
            doc.insert("_id", engine.new_object_id());
        }
        let no_filters = ArrayFilters::default();
        if self.spec.when_matched == WhenMatched::Fail {
            // A plain insert: a match is a duplicate key error.
            insert_upsert(
                engine,
                self.ns,
                &UpdateSpec::Replacement(doc),
                &Document::new(),
                &no_filters,
                self.run.eval,
            )?;
            return Ok(Outcome::Written);
        }
        let query = self.on_values(&doc)?;
        let (filter, matched) = self.find_match(engine, &query)?;
        match matched {
            Some(record_id) => {
                let update = match &self.spec.when_matched {
                    WhenMatched::KeepExisting => return Ok(Outcome::Written),
                    WhenMatched::Replace => UpdateSpec::Replacement(doc),
                    WhenMatched::Merge => operator_update("$set", doc)?,
                    WhenMatched::Pipeline(items) => {
                        UpdateSpec::Replacement(self.run_pipeline(engine, items, &doc, record_id)?)
                    }
                    WhenMatched::Fail => return Ok(Outcome::Written),
                };
                update_record(
                    engine,
                    self.ns,
                    record_id,
                    &update,
                    &filter,
                    &no_filters,
                    self.run.eval,
                )
                .map_err(update_context)?;
                Ok(Outcome::Written)
            }
            None => match self.spec.when_not_matched {
                WhenNotMatched::Discard => Ok(Outcome::Written),
                WhenNotMatched::Fail => Ok(Outcome::Unmatched),
                WhenNotMatched::Insert => {
                    let (update, seed) = match &self.spec.when_matched {
                        WhenMatched::Merge => (operator_update("$set", doc)?, query),
                        WhenMatched::KeepExisting => (operator_update("$setOnInsert", doc)?, query),
                        // The result itself is inserted.
                        WhenMatched::Pipeline(_) => (UpdateSpec::Replacement(doc), Document::new()),
                        _ => (UpdateSpec::Replacement(doc), query),
                    };
                    insert_upsert(engine, self.ns, &update, &seed, &no_filters, self.run.eval)?;
                    Ok(Outcome::Written)
                }
            },
        }
    }

    /// The `on` fields' values as an equality query (`{a: 1, "b.c": 2}`); arrays are refused,
    /// and a missing or null value is null unless the supporting index is sparse.
    fn on_values(&self, doc: &Document) -> Result<Document> {
        let mut query = Document::new();
        for field in &self.on {
            let mut value = Some(Bson::Document(doc.clone()));
            for part in field.split('.') {
                value = match value {
                    Some(Bson::Document(d)) => d.get(part).cloned(),
                    _ => None,
                };
                if matches!(value, Some(Bson::Array(_))) {
                    return Err(Error::location(
                        51185,
                        format!("$merge write error: 'on' field '{field}' is an array"),
                    ));
                }
            }
            let nullish = matches!(value, None | Some(Bson::Null | Bson::Undefined));
            if nullish && self.sparse {
                return Err(Error::location(
                    51132,
                    format!(
                        "$merge write error: 'on' field '{field}' cannot be missing, null or \
                         undefined if supporting index is sparse"
                    ),
                ));
            }
            query.insert(
                field.clone(),
                if nullish {
                    Bson::Null
                } else {
                    value.unwrap_or(Bson::Null)
                },
            );
        }
        Ok(query)
    }

    /// The first target document (natural order) whose `on` fields equal the query's.
    fn find_match(&self, engine: &Engine, query: &Document) -> Result<(Filter, Option<u64>)> {
        let eq: Document = query
            .iter()
            .map(|(k, v)| (k.clone(), Bson::Document(doc! {"$eq": v.clone()})))
            .collect();
        let filter = Filter::parse(&eq)?;
        let Some(coll) = engine.catalog().collection(self.ns) else {
            return Ok((filter, None));
        };
        let found = match (query.len(), query.get("_id")) {
            (1, Some(id)) => coll.find_by_id(id),
            _ => coll
                .iter()
                .find(|(_, d)| filter.matches(d))
                .map(|(rid, _)| rid),
        };
        Ok((filter, found))
    }

    /// Runs a `whenMatched` pipeline on the matched document, with the `let` variables
    /// (`$$new` included) evaluated against the result document.
    fn run_pipeline(
        &self,
        engine: &Engine,
        items: &[Bson],
        new: &Document,
        record_id: u64,
    ) -> Result<Document> {
        let mut scope = self.run.scope.clone();
        for (name, value) in &self.spec.let_vars {
            let v = Expression::parse_in(value, self.run.scope)?
                .evaluate_in(new, self.run.eval)?
                .unwrap_or(Bson::Null);
            scope.constants.push((name.clone(), Some(v)));
        }
        let pipeline = Pipeline::parse_sub(items, &scope, 0)?;
        let current = engine
            .catalog()
            .collection(self.ns)
            .and_then(|c| c.get(record_id))
            .cloned()
            .unwrap_or_default();
        let cx = RunContext {
            catalog: engine.catalog(),
            db: self.db,
            collection: Some(self.ns.coll.as_str()),
            sessions: engine.sessions(),
            match_ctx: self.run.match_ctx,
            eval: self.run.eval,
            find_records: Some(crate::exec::matching_records),
            joined_limit: None,
            allow_disk_use: true,
        };
        pipeline
            .run(vec![current], &cx)?
            .into_iter()
            .next()
            .ok_or_else(|| {
                Error::new(
                    ErrorCode::InternalError,
                    "the $merge whenMatched pipeline produced no document",
                )
            })
    }
}

/// `{$set: doc}` or `{$setOnInsert: doc}`: how `merge` and `keepExisting` write.
fn operator_update(operator: &str, doc: Document) -> Result<UpdateSpec> {
    let mut update = Document::new();
    update.insert(operator, doc);
    UpdateSpec::parse(&Bson::Document(update), &ArrayFilters::default())
}

/// MongoDB's context on a failed `$merge` update that touched the `_id`.
fn update_context(mut e: Error) -> Error {
    if e.code == ErrorCode::ImmutableField {
        e.message = format!(
            "$merge failed to update the matching document, did you attempt to modify the _id \
             or the shard key? :: caused by :: {}",
            e.message
        );
    }
    e
}

#[cfg(test)]
mod tests {
    use bson::{Bson, Document, doc};

    use crate::Engine;
    use crate::catalog::Namespace;
    use crate::storage::Change;

    fn engine_with(coll: &str, docs: Vec<Document>) -> Engine {
        let mut e = Engine::new();
        e.run_command("t", &doc! {"insert": coll, "documents": docs});
        e.take_changes();
        e
    }

    fn aggregate(e: &mut Engine, coll: impl Into<Bson>, pipeline: Vec<Document>) -> Document {
        e.run_command(
            "t",
            &doc! {"aggregate": coll.into(), "pipeline": pipeline, "cursor": {}},
        )
    }

    fn contents(e: &Engine, coll: &str) -> Vec<Document> {
        e.catalog()
            .collection(&Namespace::new("t", coll))
            .map(|c| c.iter().map(|(_, d)| d.clone()).collect())
            .unwrap_or_default()
    }

    fn code(reply: &Document) -> i32 {
        reply.get_i32("code").unwrap_or(0)
    }

    #[test]
    fn out_replaces_the_target_and_keeps_its_indexes() {
        let mut e = engine_with(
            "src",
            vec![doc! {"_id": 1, "x": 11}, doc! {"_id": 2, "x": 22}],
        );
        e.run_command("t", &doc! {"insert": "dst", "documents": [{"_id": 9}]});
        e.run_command(
            "t",
            &doc! {"createIndexes": "dst", "indexes": [{"key": {"x": 1}, "name": "x_1", "unique": true}]},
        );
        e.take_changes();
        let r = aggregate(
            &mut e,
            "src",
            vec![doc! {"$match": {"_id": {"$gt": 0}}}, doc! {"$out": "dst"}],
        );
        let cursor = r.get_document("cursor").unwrap();
        assert_eq!(cursor.get_array("firstBatch").unwrap().len(), 0);
        assert_eq!(cursor.get_i64("id").unwrap(), 0);
        assert_eq!(
            contents(&e, "dst"),
            [doc! {"_id": 1, "x": 11}, doc! {"_id": 2, "x": 22}]
        );
        let dst = e.catalog().collection(&Namespace::new("t", "dst")).unwrap();
        assert!(dst.index("x_1").is_some());
        let batch = e.take_changes();
        assert!(matches!(batch.changes[0], Change::DropCollection { .. }));
        assert_eq!(batch.changes.len(), 1 + 1 + 2);
        // A duplicate under the kept unique index: nothing is replaced.
        e.run_command(
            "t",
            &doc! {"insert": "src", "documents": [{"_id": 3, "x": 11}]},
        );
        e.take_changes();
        let r = aggregate(&mut e, "src", vec![doc! {"$out": "dst"}]);
        assert_eq!(code(&r), 11000);
        assert!(r.get_str("errmsg").unwrap().contains("tmp.agg_out."));
        assert_eq!(contents(&e, "dst").len(), 2);
        assert!(e.take_changes().is_empty());
    }

    #[test]
    fn out_rules() {
        let mut e = engine_with("src", vec![doc! {"_id": 1}]);
        e.run_command(
            "t",
            &doc! {"create": "capped", "capped": true, "size": 1000},
        );
        let r = aggregate(&mut e, "src", vec![doc! {"$out": "capped"}]);
        assert_eq!(code(&r), 17152);
        let r = aggregate(&mut e, "src", vec![doc! {"$out": "x"}, doc! {"$match": {}}]);
        assert_eq!(
            r.get_str("errmsg").unwrap(),
            "$out can only be the final stage in the pipeline"
        );
        let r = aggregate(
            &mut e,
            "src",
            vec![doc! {"$lookup": {"from": "x", "as": "y", "pipeline": [{"$out": "z"}]}}],
        );
        assert_eq!(code(&r), 51047);
        let r = aggregate(&mut e, "src", vec![doc! {"$out": 1}]);
        assert_eq!(code(&r), 16990);
        let r = aggregate(&mut e, "src", vec![doc! {"$out": "system.x"}]);
        assert_eq!(code(&r), 17385);
        let r = aggregate(
            &mut e,
            "src",
            vec![doc! {"$out": {"db": "admin", "coll": "x"}}],
        );
        assert_eq!(code(&r), 31321);
        let r = aggregate(
            &mut e,
            "src",
            vec![doc! {"$out": {"db": "other", "coll": "x"}}],
        );
        assert_eq!(r.get_f64("ok").unwrap(), 1.0);
        assert!(
            e.catalog()
                .collection(&Namespace::new("other", "x"))
                .is_some()
        );
        // An empty result still creates (or empties) the target.
        let r = aggregate(
            &mut e,
            "src",
            vec![doc! {"$match": {"no": 1}}, doc! {"$out": "empty"}],
        );
        assert_eq!(r.get_f64("ok").unwrap(), 1.0);
        assert!(
            e.catalog()
                .collection(&Namespace::new("t", "empty"))
                .is_some()
        );
    }

    #[test]
    fn merge_modes() {
        let mut e = engine_with("dst", vec![doc! {"_id": 1, "a": 1, "b": 1}]);
        e.run_command(
            "t",
            &doc! {"insert": "src", "documents": [{"_id": 1, "c": 2, "a": 5}, {"_id": 2, "z": 1, "y": 2}]},
        );
        let run = |e: &mut Engine, spec: Document| aggregate(e, "src", vec![doc! {"$merge": spec}]);
        // Default: merge + insert; new fields of an upsert come in lexicographic order.
        let r = run(&mut e, doc! {"into": "dst"});
        assert_eq!(r.get_f64("ok").unwrap(), 1.0, "{r}");
        assert_eq!(
            contents(&e, "dst"),
            [
                doc! {"_id": 1, "a": 5, "b": 1, "c": 2},
                doc! {"_id": 2, "y": 2, "z": 1}
            ]
        );
        let r = run(&mut e, doc! {"into": "dst", "whenMatched": "replace"});
        assert_eq!(r.get_f64("ok").unwrap(), 1.0);
        assert_eq!(contents(&e, "dst")[0], doc! {"_id": 1, "c": 2, "a": 5});
        let r = run(
            &mut e,
            doc! {"into": "dst", "whenMatched": [{"$set": {"n": {"$add": ["$a", "$$new.c"]}}}]},
        );
        assert_eq!(r.get_f64("ok").unwrap(), 1.0, "{r}");
        assert_eq!(
            contents(&e, "dst")[0],
            doc! {"_id": 1, "c": 2, "a": 5, "n": 7}
        );
        let r = run(&mut e, doc! {"into": "dst", "whenMatched": "fail"});
        assert_eq!(code(&r), 11000);
        assert_eq!(r.get_document("keyValue").unwrap(), &doc! {"_id": 1});
        let r = run(
            &mut e,
            doc! {"into": "fresh", "whenMatched": "replace", "whenNotMatched": "fail"},
        );
        assert_eq!(code(&r), 13113);
        assert_eq!(
            r.get_str("codeName").unwrap(),
            "MergeStageNoMatchingDocument"
        );
        let r = run(&mut e, doc! {"into": "dst", "on": "a"});
        assert_eq!(code(&r), 51183);
        let r = run(
            &mut e,
            doc! {"into": "dst", "whenMatched": "keepExisting", "whenNotMatched": "discard"},
        );
        assert_eq!(code(&r), 51181);
        let r = run(
            &mut e,
            doc! {"into": "dst", "whenMatched": [{"$group": {"_id": 1}}]},
        );
        assert_eq!(code(&r), 72);
        let r = run(&mut e, doc! {"into": "dst", "let": {"x": 1}});
        assert_eq!(code(&r), 51199);
    }

    #[test]
    fn writing_into_the_aggregated_collection_sees_each_document_once() {
        let mut e = engine_with("c", vec![doc! {"_id": 1, "n": 1}, doc! {"_id": 2, "n": 2}]);
        let r = aggregate(
            &mut e,
            "c",
            vec![
                doc! {"$set": {"n": {"$multiply": ["$n", 10]}}},
                doc! {"$merge": {"into": "c", "whenMatched": "replace"}},
            ],
        );
        assert_eq!(r.get_f64("ok").unwrap(), 1.0, "{r}");
        assert_eq!(
            contents(&e, "c"),
            [doc! {"_id": 1, "n": 10}, doc! {"_id": 2, "n": 20}]
        );
        let r = aggregate(
            &mut e,
            "c",
            vec![doc! {"$match": {"n": 20}}, doc! {"$out": "c"}],
        );
        assert_eq!(r.get_f64("ok").unwrap(), 1.0, "{r}");
        assert_eq!(contents(&e, "c"), [doc! {"_id": 2, "n": 20}]);
        // Explaining a writing pipeline writes nothing.
        e.take_changes();
        let r = e.run_command(
            "t",
            &doc! {"explain": {"aggregate": "c", "pipeline": [{"$out": "other"}], "cursor": {}}},
        );
        assert_eq!(r.get_f64("ok").unwrap(), 1.0, "{r}");
        let stages = r.get_array("stages").unwrap();
        assert_eq!(
            stages.last().unwrap().as_document().unwrap(),
            &doc! {"$out": {"db": "t", "coll": "other"}}
        );
        assert!(e.take_changes().is_empty());
        let r = aggregate(
            &mut e,
            "c",
            vec![doc! {"$merge": {"into": "x", "on": "$a"}}],
        );
        assert_eq!(code(&r), 16410);
        let r = aggregate(
            &mut e,
            "c",
            vec![doc! {"$merge": {"into": "x", "on": ["_id", "_id"]}}],
        );
        assert_eq!(code(&r), 31465);
    }

    #[test]
    fn merge_keep_existing_and_pipeline_with_let() {
        let mut e = engine_with("dst", vec![doc! {"_id": 1, "total": 5}]);
        let merge = |e: &mut Engine, docs: Vec<Document>, spec: Document| {
            e.run_command(
                "t",
                &doc! {"aggregate": 1, "pipeline": [{"$documents": docs}, {"$merge": spec}], "cursor": {}},
            )
        };
        let r = merge(
            &mut e,
            vec![doc! {"_id": 1, "total": 99}, doc! {"_id": 2, "total": 1}],
            doc! {"into": "dst", "whenMatched": "keepExisting"},
        );
        assert_eq!(r.get_f64("ok").unwrap(), 1.0, "{r}");
        assert_eq!(
            contents(&e, "dst"),
            [doc! {"_id": 1, "total": 5}, doc! {"_id": 2, "total": 1}]
        );
        // A pipeline with its own variable; an unmatched result is inserted as it is.
        let r = merge(
            &mut e,
            vec![doc! {"_id": 1, "add": 3}, doc! {"_id": 3, "add": 7}],
            doc! {
                "into": "dst",
                "let": {"inc": "$add"},
                "whenMatched": [{"$set": {"total": {"$add": ["$total", "$$inc"]}}}],
            },
        );
        assert_eq!(r.get_f64("ok").unwrap(), 1.0, "{r}");
        assert_eq!(
            contents(&e, "dst"),
            [
                doc! {"_id": 1, "total": 8},
                doc! {"_id": 2, "total": 1},
                doc! {"_id": 3, "add": 7},
            ]
        );
        let r = merge(
            &mut e,
            vec![doc! {"_id": 1}],
            doc! {"into": "dst", "let": {"new": 1}, "whenMatched": [{"$set": {"x": 1}}]},
        );
        assert_eq!(code(&r), 51273);
    }

    #[test]
    fn merge_on_a_unique_index_and_from_documents() {
        let mut e = engine_with("dst", vec![doc! {"_id": 1, "k": "a", "v": 1}]);
        e.run_command(
            "t",
            &doc! {"createIndexes": "dst", "indexes": [{"key": {"k": 1}, "name": "k_1", "unique": true}]},
        );
        let r = e.run_command(
            "t",
            &doc! {"aggregate": 1, "pipeline": [
                {"$documents": [{"k": "a", "v": 2}, {"k": "b", "v": 3}]},
                {"$merge": {"into": "dst", "on": "k", "whenMatched": "merge"}},
            ], "cursor": {}},
        );
        assert_eq!(r.get_f64("ok").unwrap(), 1.0, "{r}");
        let docs = contents(&e, "dst");
        assert_eq!(docs[0], doc! {"_id": 1, "k": "a", "v": 2});
        assert_eq!(docs[1].get_str("k").unwrap(), "b");
        assert!(matches!(docs[1].get("_id"), Some(Bson::ObjectId(_))));
        let r = e.run_command(
            "t",
            &doc! {"aggregate": 1, "pipeline": [
                {"$documents": [{"_id": 5, "k": "a"}]},
                {"$merge": {"into": "dst", "on": "k", "whenMatched": "replace"}},
            ], "cursor": {}},
        );
        assert_eq!(code(&r), 66);
        assert!(
            r.get_str("errmsg")
                .unwrap()
                .contains("$merge failed to update the matching document")
        );
    }
}

//! The aggregation pipeline: a `pipeline` array parsed once into typed stages (with MongoDB's
//! errors), then run over the documents of a collection or of a leading `$documents`.
//!
//! # The stage interface
//! A stage is a value implementing [`Stage`]: it takes the documents that flow in and returns
//! the documents that flow out. Stages are parsed by a [`ParseStage`] function listed in
//! [`stages::REGISTRY`] under their name. Adding a stage is one file under `stages/` with a
//! `parse` function and a type implementing [`Stage`], plus one line in the registry:
//!
//! ```text
//! ("$group", group::parse),
//! ```
//!
//! The parse function receives the stage's argument (`{$limit: 5}` → `5`) and a
//! [`ParseContext`] (the `let` variables as an expression [`Scope`], the stage's position,
//! whether the pipeline runs without a collection). Evaluation gets a [`RunContext`] with the
//! catalog (read-only; for `$lookup`-like stages), the database name and the `$where` context.
//!
//! Per-document metadata (`{$meta: "textScore"}`, a near search's distance and point) travels
//! beside the documents in pipelines that read it: see [`Stage::apply_with_meta`].
//!
//! Documents are materialised between stages (`Vec<Document>`): Sprout's collections live in
//! memory, and a vector keeps the interface simple for stage authors.

pub mod memory;
mod optimize;
mod preview;
mod projection;
pub mod stages;

pub use preview::StagePreview;

#[cfg(test)]
mod count_input_tests;
#[cfg(test)]
mod error_table_tests;
#[cfg(test)]
mod limits_tests;
#[cfg(test)]
mod meta_stage_tests;
#[cfg(test)]
mod meta_tests;
#[cfg(test)]
pub(crate) mod test_support {
    use bson::Document;

    /// The documents of a cursor reply's first batch.
    pub fn first_batch(reply: &Document) -> Vec<Document> {
        reply
            .get_document("cursor")
            .and_then(|c| c.get_array("firstBatch"))
            .map(|items| {
                items
                    .iter()
                    .filter_map(|d| d.as_document().cloned())
                    .collect()
            })
            .unwrap_or_default()
    }
}
#[cfg(test)]
mod tests;

use bson::{Bson, Document};

use crate::catalog::Catalog;
use crate::error::{Error, ErrorCode, Result};
use crate::expression::{DocumentMeta, EvalContext, MetaAvailable, MetaField, Scope};
use crate::matcher::MatchContext;

/// One parsed pipeline stage.
///
/// Not `Debug` as a supertrait: every stage's vtable would then hold its derived `Debug`, which
/// kept them and what they reach in the shipped wasm though nothing prints a stage (issue #22).
/// `dyn Stage` prints as its name.
pub trait Stage {
    /// The stage's name with its `$` (`"$match"`).
    fn name(&self) -> &'static str;

    /// Transforms the documents that flow in into the documents that flow out.
    fn apply(&self, input: Vec<Document>, cx: &RunContext<'_>) -> Result<Vec<Document>>;

    /// [`Stage::apply`] in a pipeline that reads metadata (`{$meta: "textScore"}`): `meta`, when
    /// given, holds each input document's (MongoDB's `DocumentMetadataFields`), and the stage
    /// returns its output's. By default the stage's documents carry none (MongoDB's `$group`,
    /// `$bucket`…: new documents); a stage that keeps its documents (`$match`, `$sort`,
    /// `$limit`, `$project`…) keeps their metadata, one that makes it (`$geoNear`) sets it.
    /// The aggregate calls it only for pipelines that read metadata, so the others pay nothing.
    fn apply_with_meta(
        &self,
        input: Vec<Document>,
        meta: Option<Vec<DocumentMeta>>,
        cx: &RunContext<'_>,
    ) -> Result<Batch> {
        let _ = meta;
        Ok((self.apply(input, cx)?, None))
    }

    /// Whether the stage reads its input without keeping it ([`Stage::apply_in_place`] is
    /// cheaper than a copy of the documents handed to [`Stage::apply`]).
    fn reads_in_place(&self) -> bool {
        false
    }

    /// [`Stage::apply`] over documents that stay where they are (a collection's, read in place
    /// as the first stage after the find); the same output.
    fn apply_in_place(&self, input: &[&Document], cx: &RunContext<'_>) -> Result<Vec<Document>> {
        self.apply(input.iter().map(|d| (*d).clone()).collect(), cx)
    }

    /// Whether [`Stage::apply_to_stored`] reads the stored documents' bytes (rather than
    /// their trees).
    fn reads_stored_bytes(&self) -> bool {
        false
    }

    /// [`Stage::apply_in_place`] over a collection's stored documents given by record id and
    /// BSON bytes (`$group` reads the fields it needs from the bytes); the same output.
    fn apply_to_stored(
        &self,
        coll: &crate::catalog::Collection,
        stored: &[(u64, &[u8])],
        cx: &RunContext<'_>,
    ) -> Result<Vec<Document>> {
        let docs: Vec<&Document> = stored
            .iter()
            .filter_map(|(rid, _)| coll.get(*rid))
            .collect();
        self.apply_in_place(&docs, cx)
    }

    /// The top-level fields of its input documents this stage reads, when its output
    /// depends on no other field of them (`None`: it may read or pass on whole documents):
    /// what the stage before it has to keep (MongoDB's dependency analysis, `DepsTracker`).
    fn input_fields_read(&self) -> Option<Vec<String>> {
        None
    }

    /// Told (by [`Pipeline::optimize`]) that the stage after it reads only these top-level
    /// fields of its output ([`Stage::input_fields_read`]), so it may leave the others out.
    fn output_read_only(&mut self, _fields: Vec<String>) {}

    /// The stage as explain shows it (`{$match: {a: {$eq: 1}}}`).
    fn serialize(&self) -> Document;

    /// Whether the stage produces its own documents rather than reading the collection
    /// (`$documents`): such a stage must come first.
    fn is_source(&self) -> bool {
        false
    }

    /// Whether the stage may run in a collectionless pipeline (`aggregate: 1`) that does not
    /// begin with a source.
    fn runs_without_collection(&self) -> bool {
        true
    }

    /// The stage's part in the query that reads the collection, for the stages MongoDB pushes
    /// down into the find layer (`$match`, `$sort`, `$skip`, `$limit`).
    fn query_part(&self) -> Option<QueryPart<'_>> {
        None
    }

    /// Whether the stage's output depends only on how many documents flow in, not on any of
    /// their fields (a `$group` whose `_id` and accumulators are constants, as the shell's
    /// `countDocuments` sends). The find before such a stage need not fetch documents: like
    /// MongoDB's cursor stage when the rest of the pipeline has no dependencies, it hands on
    /// empty documents, and its plan may count index keys (COUNT_SCAN).
    fn depends_only_on_input_count(&self) -> bool {
        false
    }

    /// The paths whose values the stage may change, so the optimizer knows which `$match`
    /// conditions can move ahead of it. By default every path (nothing moves).
    fn modified_paths(&self) -> ModifiedPaths {
        ModifiedPaths::All
    }

    /// The top-level fields the stage sets to an input field's value unchanged (`{z: "$a"}`),
    /// as `(z, a)`: a `$match` on `z` after the stage is a `$match` on `a` before it
    /// (MongoDB's `GetModPathsReturn::renames`).
    fn renamed_paths(&self) -> Vec<(String, String)> {
        Vec::new()
    }

    /// The stage as a writer (`$out`, `$merge`): it must come last, and the aggregate command
    /// runs it with write access instead of calling [`Stage::apply`].
    fn as_writer(&self) -> Option<&dyn WriteStage> {
        None
    }
}

/// Documents and, in a pipeline that reads metadata, each one's ([`Stage::apply_with_meta`]).
pub type Batch = (Vec<Document>, Option<Vec<DocumentMeta>>);

/// A stage that keeps or drops documents without changing them (`$match`) keeps the metadata
/// of those it keeps.
pub fn filter_meta(
    input: Vec<Document>,
    meta: Option<Vec<DocumentMeta>>,
    mut keep: impl FnMut(&Document, Option<&DocumentMeta>) -> Result<bool>,
) -> Result<Batch> {
    let Some(meta) = meta else {
        let mut out = Vec::with_capacity(input.len());
        for d in input {
            if keep(&d, None)? {
                out.push(d);
            }
        }
        return Ok((out, None));
    };
    let mut out = Vec::with_capacity(input.len());
    let mut out_meta = Vec::with_capacity(input.len());
    for (d, m) in input.into_iter().zip(meta) {
        if keep(&d, Some(&m))? {
            out.push(d);
            out_meta.push(m);
        }
    }
    Ok((out, Some(out_meta)))
}

/// A stage that makes one document of each (`$project`, `$addFields`) gives it the metadata of
/// the document it was made from (MongoDB's projections copy the input's metadata).
pub fn map_meta(
    input: Vec<Document>,
    meta: Option<Vec<DocumentMeta>>,
    mut f: impl FnMut(Document, Option<&DocumentMeta>) -> Result<Document>,
) -> Result<Batch> {
    match meta {
        None => {
            let out = input
                .into_iter()
                .map(|d| f(d, None))
                .collect::<Result<_>>()?;
            Ok((out, None))
        }
        Some(meta) => {
            let out = input
                .into_iter()
                .zip(&meta)
                .map(|(d, m)| f(d, Some(m)))
                .collect::<Result<_>>()?;
            Ok((out, Some(meta)))
        }
    }
}

/// [`Stage::apply_with_meta`] for a stage whose every output comes from one input document and
/// keeps its metadata (`$unwind` copies it to each element's document): the stage runs one
/// document at a time when there is metadata to copy.
pub fn apply_each_with_meta(
    stage: &dyn Stage,
    input: Vec<Document>,
    meta: Option<Vec<DocumentMeta>>,
    cx: &RunContext<'_>,
) -> Result<Batch> {
    let Some(meta) = meta else {
        return Ok((stage.apply(input, cx)?, None));
    };
    let (mut out, mut out_meta) = (Vec::with_capacity(input.len()), Vec::new());
    for (d, m) in input.into_iter().zip(meta) {
        let made = stage.apply(vec![d], cx)?;
        out_meta.extend(std::iter::repeat_n(m, made.len()));
        out.extend(made);
    }
    Ok((out, Some(out_meta)))
}

/// The paths a stage may change (MongoDB's `DocumentSource::GetModPathsReturn`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModifiedPaths {
    /// Any path.
    All,
    /// Only these dotted paths (and what lies under or above them).
    Only(Vec<String>),
    /// Every path except these ones and what lies under them.
    AllExcept(Vec<String>),
}

impl ModifiedPaths {
    /// Whether reading `path` after the stage may give another value than before it.
    pub fn touches(&self, path: &str) -> bool {
        match self {
            ModifiedPaths::All => true,
            ModifiedPaths::Only(paths) => paths
                .iter()
                .any(|m| path_prefix(m, path) || path_prefix(path, m)),
            ModifiedPaths::AllExcept(kept) => !kept.iter().any(|k| path_prefix(k, path)),
        }
    }
}

/// Whether dotted path `prefix` is `path` or one of its ancestors.
fn path_prefix(prefix: &str, path: &str) -> bool {
    path == prefix
        || path
            .strip_prefix(prefix)
            .is_some_and(|rest| rest.starts_with('.'))
}

impl std::fmt::Debug for dyn Stage + '_ {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A stage that writes the pipeline's results to a collection (`$out`, `$merge`). The
/// aggregate command executes it through the engine's write path (`commands/aggregate_write.rs`).
pub trait WriteStage {
    /// Which write this is, with its parsed options.
    fn target(&self) -> WriteTarget<'_>;

    /// The stage as explain shows it, its target database resolved against the command's.
    fn serialize_in(&self, db: &str) -> Document;
}

/// What a writing stage asks the aggregate command to do.
#[derive(Debug, Clone, Copy)]
pub enum WriteTarget<'a> {
    Out(&'a stages::OutSpec),
    Merge(&'a stages::MergeSpec),
}

/// The stage whose sub-pipeline is being parsed: each refuses some stages with its own error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SubPipelineOwner {
    Lookup,
    UnionWith,
    /// `$facet` (it names the stages it refuses itself), `$merge`'s `whenMatched`.
    Other,
}

/// A stage as part of the collection query (see [`Pipeline::pushdown`]).
#[derive(Debug, Clone, Copy)]
pub enum QueryPart<'a> {
    Filter(&'a Document),
    Sort(&'a Document),
    /// A `$sort` that absorbed a following `$limit`.
    SortLimit(&'a Document, i64),
    Skip(i64),
    Limit(i64),
}

/// The leading stages a find runs (through the planner, so indexes serve them), and how many
/// stages that is.
#[derive(Debug, Default, Clone, Copy)]
pub struct Pushdown<'a> {
    pub filter: Option<&'a Document>,
    pub sort: Option<&'a Document>,
    pub skip: Option<i64>,
    pub limit: Option<i64>,
    pub stages: usize,
}

/// Parses one stage's argument.
pub type ParseStage = fn(&Bson, &ParseContext<'_>) -> Result<Box<dyn Stage>>;

/// What parsing a stage may need.
#[derive(Debug)]
pub struct ParseContext<'a> {
    /// The command's `let` variables (substituted into expressions at parse time).
    pub scope: &'a Scope,
    /// The stage's position in the pipeline (0 for the first).
    pub position: usize,
    /// Whether the command named no collection (`aggregate: 1`).
    pub collectionless: bool,
    /// How many sub-pipelines deep this pipeline is (0 for the command's own).
    pub depth: usize,
}

impl ParseContext<'_> {
    /// The depth of a sub-pipeline that a `$lookup`, `$unionWith` or `$graphLookup` at this
    /// level opens. MongoDB checks the limit when such a stage is created
    /// (`makeCopyForSubPipelineFromExpressionContext` in expression_context.cpp), so a too-deep
    /// nesting fails while parsing, before anything runs.
    pub fn sub_pipeline_depth(&self) -> Result<usize> {
        if self.depth >= MAX_SUB_PIPELINE_DEPTH {
            return Err(sub_pipeline_depth_exceeded());
        }
        Ok(self.depth + 1)
    }
}

fn sub_pipeline_depth_exceeded() -> Error {
    Error::new(
        ErrorCode::MaxSubPipelineDepthExceeded,
        format!(
            "Maximum number of nested sub-pipelines exceeded. Limit is {MAX_SUB_PIPELINE_DEPTH}"
        ),
    )
}

/// MongoDB's `internalMaxSubPipelineViewDepth` default: how deep `$lookup`/`$unionWith`
/// sub-pipelines may nest (20 nested `$lookup`s run, a 21st fails with code 232).
pub const MAX_SUB_PIPELINE_DEPTH: usize = 20;

/// What running a stage may need.
#[derive(Debug, Clone, Copy)]
pub struct RunContext<'a> {
    pub catalog: &'a Catalog,
    pub db: &'a str,
    /// The collection the pipeline runs on (`None` for `aggregate: 1`).
    pub collection: Option<&'a str>,
    /// The server's logical sessions (`$listLocalSessions`).
    pub sessions: &'a crate::sessions::SessionCache,
    pub match_ctx: &'a MatchContext<'a>,
    /// The command's `$$NOW` and `$rand` generator.
    pub eval: &'a EvalContext,
    /// How a stage selects a collection's documents through the planner (`$graphLookup`):
    /// the executor's entry point, handed in by the command so that `pipeline` does not depend
    /// on `exec` (whose UPDATE stage reaches `pipeline` through pipeline-style updates).
    /// `None` where no such stage can run (a pipeline-style update's restricted stages).
    pub find_records: Option<RecordFinder>,
    /// Set for the last stage of a `$lookup`'s sub-pipeline: the documents it returns become
    /// that `$lookup`'s array, whose size limit the stage may check as it goes.
    pub joined_limit: Option<stages::JoinedLimit<'a>>,
    /// Whether blocking stages may go past the 100 MB memory limit (`allowDiskUse`, true
    /// unless the command says false, as MongoDB 8.0's `allowDiskUseByDefault`).
    pub allow_disk_use: bool,
}

/// The record ids a parsed filter selects in a collection, in the chosen plan's order, with
/// their metadata when the spec `wants_metadata` (`crate::exec::matching_records`).
pub type RecordFinder = for<'c, 'm> fn(
    Option<&'c crate::catalog::Collection>,
    &crate::query::FindSpec,
    &MatchContext<'m>,
) -> Result<crate::query::FoundRecords>;

/// Where a pipeline's documents come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Input {
    /// `aggregate: "<coll>"`: the collection.
    Collection,
    /// `aggregate: 1`: a leading `$documents`.
    Collectionless,
    /// A sub-pipeline: the documents its stage hands it, or its own `$documents`.
    Sub(SubPipelineOwner),
}

impl RunContext<'_> {
    /// The documents of a collection of the command's database, in natural order (none when
    /// the collection does not exist).
    ///
    /// When `coll` names a view, the documents the view's pipeline makes of its source
    /// collection's: MongoDB resolves a view that a `$lookup` or `$unionWith` reads and puts its
    /// pipeline before the stage's sub-pipeline, parsed at that sub-pipeline's `depth`, so the
    /// view's own `$lookup`s count toward the sub-pipeline depth limit
    /// (jstests/aggregation/sources/lookup/lookup_subpipeline.js: "maximum $lookup sub-pipeline
    /// depth is respected when aggregating views whose combined nesting depth exceeds the
    /// limit").
    pub fn collection_documents(&self, coll: &str, depth: usize) -> Result<Vec<Document>> {
        let ns = crate::catalog::Namespace::new(self.db, coll);
        let Some(view) = crate::catalog::view::resolve_in(self.catalog, &ns)? else {
            return Ok(self
                .catalog
                .collection(&ns)
                .map(|c| c.iter().map(|(_, d)| d.clone()).collect())
                .unwrap_or_default());
        };
        let pipeline = Pipeline::parse_sub(&view.pipeline, &Scope::default(), depth)?;
        let source: Vec<Document> = self
            .catalog
            .collection(&view.source)
            .map(|c| c.iter().map(|(_, d)| d.clone()).collect())
            .unwrap_or_default();
        let cx = RunContext {
            collection: Some(view.source.coll.as_str()),
            joined_limit: None,
            ..*self
        };
        pipeline.run(source, &cx)
    }

    /// Checks the depth that views reached through `$lookup` and `$unionWith` add to a stage
    /// that reads `from` with the sub-pipeline `items` at sub-pipeline `depth`. MongoDB resolves
    /// those views while it parses, so a too-deep nesting fails whether or not documents reach
    /// the stages (jstests/aggregation/sources/lookup/lookup_subpipeline.js runs it on an empty
    /// collection); Sprout resolves views when the stage runs, and checks here, once a run, the
    /// stages no document may reach.
    pub fn check_view_depth(&self, from: Option<&str>, items: &[Bson], depth: usize) -> Result<()> {
        if let Some(coll) = from {
            let ns = crate::catalog::Namespace::new(self.db, coll);
            if let Some(view) = crate::catalog::view::resolve_in(self.catalog, &ns)? {
                self.check_stages_depth(&view.pipeline, depth)?;
            }
        }
        self.check_stages_depth(items, depth)
    }

    fn check_stages_depth(&self, items: &[Bson], depth: usize) -> Result<()> {
        for item in items {
            let Bson::Document(stage) = item else {
                continue;
            };
            for (name, arg) in stage {
                let (from, sub) = match (name.as_str(), arg) {
                    ("$lookup", Bson::Document(d)) => {
                        (d.get_str("from").ok(), d.get_array("pipeline").ok())
                    }
                    ("$unionWith", Bson::String(s)) => (Some(s.as_str()), None),
                    ("$unionWith", Bson::Document(d)) => {
                        (d.get_str("coll").ok(), d.get_array("pipeline").ok())
                    }
                    ("$facet", Bson::Document(d)) => {
                        for facet in d.values() {
                            if let Bson::Array(p) = facet {
                                self.check_stages_depth(p, depth)?;
                            }
                        }
                        continue;
                    }
                    _ => continue,
                };
                if depth >= MAX_SUB_PIPELINE_DEPTH {
                    return Err(sub_pipeline_depth_exceeded());
                }
                self.check_view_depth(from, sub.map(Vec::as_slice).unwrap_or_default(), depth + 1)?;
            }
        }
        Ok(())
    }
}

/// The most stages one pipeline may have (MongoDB's `internalPipelineLengthLimit` default).
pub const MAX_PIPELINE_LENGTH: usize = 1000;

/// A parsed pipeline.
#[derive(Debug)]
pub struct Pipeline {
    stages: Vec<Box<dyn Stage>>,
    /// Whether a stage reads metadata with `{$meta: …}` (the stages then carry it).
    reads_meta: bool,
    /// Whether a stage reads `{$meta: "sortKey"}` (a sort the find runs then gives it).
    reads_sort_key: bool,
    /// The first metadata a stage reads that neither a leading `$text` search nor a leading
    /// `$geoNear` makes available (error 40218 when the pipeline is prepared).
    unavailable: Option<MetaField>,
}

impl Pipeline {
    /// Parses a `pipeline` value: an array of one-field stage documents.
    pub fn parse(pipeline: &Bson, scope: &Scope, collectionless: bool) -> Result<Pipeline> {
        let Bson::Array(items) = pipeline else {
            return Err(Error::type_mismatch(
                "'pipeline' option must be specified as an array",
            ));
        };
        Pipeline::parse_stages(items, scope, collectionless)
    }

    /// Parses the stage documents of a pipeline array.
    pub fn parse_stages(items: &[Bson], scope: &Scope, collectionless: bool) -> Result<Pipeline> {
        let input = if collectionless {
            Input::Collectionless
        } else {
            Input::Collection
        };
        Pipeline::parse_with(items, scope, input, 0)
    }

    /// Parses a sub-pipeline (`$lookup`, `$unionWith`, `$facet`) at sub-pipeline `depth`: it
    /// reads the documents it is given, or produces its own with a leading `$documents`.
    pub fn parse_sub(items: &[Bson], scope: &Scope, depth: usize) -> Result<Pipeline> {
        Pipeline::parse_with(items, scope, Input::Sub(SubPipelineOwner::Other), depth)
    }

    /// [`Pipeline::parse_sub`] for a `$lookup` or `$unionWith`, which refuse writing stages
    /// with their own errors.
    pub fn parse_sub_of(
        items: &[Bson],
        scope: &Scope,
        owner: SubPipelineOwner,
        depth: usize,
    ) -> Result<Pipeline> {
        Pipeline::parse_with(items, scope, Input::Sub(owner), depth)
    }

    fn parse_with(items: &[Bson], scope: &Scope, input: Input, depth: usize) -> Result<Pipeline> {
        // MongoDB's `internalPipelineLengthLimit`, checked for every pipeline and sub-pipeline
        // (Pipeline::validateCommon in src/mongo/db/pipeline/pipeline.cpp).
        if items.len() > MAX_PIPELINE_LENGTH {
            return Err(Error::new(
                ErrorCode::FailedToParse,
                format!("Pipeline length must be no longer than {MAX_PIPELINE_LENGTH} stages"),
            ));
        }
        let mut stages: Vec<Box<dyn Stage>> = Vec::with_capacity(items.len());
        for (position, item) in items.iter().enumerate() {
            let Bson::Document(spec) = item else {
                return Err(Error::type_mismatch(
                    "Each element of the 'pipeline' array must be an object",
                ));
            };
            let cx = ParseContext {
                scope,
                position,
                collectionless: input == Input::Collectionless,
                depth,
            };
            stages.push(parse_stage(spec, &cx)?);
        }
        let reads = metadata_reads(items);
        let pipeline = Pipeline {
            stages,
            reads_meta: reads.any,
            reads_sort_key: reads.sort_key,
            unavailable: reads.unavailable,
        };
        pipeline.validate(input)?;
        Ok(pipeline)
    }

    /// Whether a stage reads metadata (`{$meta: …}`): the find before the stages then keeps
    /// it (`FindSpec::wants_metadata`) and the stages carry it.
    pub fn reads_meta(&self) -> bool {
        self.reads_meta
    }

    /// Whether a stage reads `{$meta: "sortKey"}`: a sort pushed into the find then gives
    /// each document its sort key, as the `$sort` stage would have.
    pub fn reads_sort_key(&self) -> bool {
        self.reads_sort_key
    }

    /// Error 40218 when a stage reads the text score without a leading `$text` search, or a
    /// near search's distance or point without a leading `$geoNear` (MongoDB's
    /// `Pipeline::getDependencies` with `DepsTracker::kDefaultUnavailableMetadata`, when the
    /// executor is prepared: for a `$lookup`'s or `$unionWith`'s sub-pipeline, when it runs).
    pub fn check_metadata(&self) -> Result<()> {
        match self.unavailable {
            Some(field) => Err(field.unavailable_error()),
            None => Ok(()),
        }
    }

    /// Position rules that need the whole pipeline, in MongoDB's order: the owner of a
    /// sub-pipeline checks its stages first, then every stage's position.
    fn validate(&self, input: Input) -> Result<()> {
        if let Input::Sub(owner) = input
            && let Some(writer) = self.stages.iter().find(|s| s.as_writer().is_some())
        {
            match owner {
                SubPipelineOwner::Lookup => {
                    return Err(Error::location(
                        51047,
                        format!(
                            "{} is not allowed within a $lookup's sub-pipeline",
                            writer.name()
                        ),
                    ));
                }
                SubPipelineOwner::UnionWith => {
                    return Err(Error::location(
                        31441,
                        format!(
                            "{} is not allowed within a $unionWith's sub-pipeline",
                            writer.name()
                        ),
                    ));
                }
                SubPipelineOwner::Other => {}
            }
        }
        for (i, stage) in self.stages.iter().enumerate() {
            // MongoDB 8.0's Pipeline::validateCommon: a text search is the query the pipeline
            // starts from (jstests/aggregation/bugs/server11675.js).
            if i > 0
                && let Some(QueryPart::Filter(f)) = stage.query_part()
                && stages::filter_has_text(f)
            {
                return Err(Error::location(
                    17313,
                    "$match with $text is only allowed as the first pipeline stage",
                ));
            }
            if stage.is_source() && i > 0 {
                return Err(Error::location(
                    40602,
                    format!(
                        "{} is only valid as the first stage in a pipeline",
                        stage.name()
                    ),
                ));
            }
            if stage.as_writer().is_some() && i + 1 != self.stages.len() {
                return Err(Error::location(
                    40601,
                    format!(
                        "{} can only be the final stage in the pipeline",
                        stage.name()
                    ),
                ));
            }
        }
        let first_is_source = self.starts_with_source();
        match input {
            Input::Collectionless if !first_is_source => {
                if let Some(stage) = self.stages.iter().find(|s| !s.runs_without_collection()) {
                    return Err(collection_required(stage.name()));
                }
                if let Some(first) = self.stages.first() {
                    return Err(collection_required(first.name()));
                }
            }
            // A source that reads the collection itself (`$indexStats`) needs one.
            Input::Collectionless
                if self
                    .stages
                    .first()
                    .is_some_and(|first| !first.runs_without_collection()) =>
            {
                return Err(collection_required(self.stages[0].name()));
            }
            Input::Collection
                if first_is_source
                    && self
                        .stages
                        .first()
                        .is_some_and(|s| s.runs_without_collection()) =>
            {
                return Err(Error::new(
                    ErrorCode::InvalidNamespace,
                    "$documents' is not allowed in user requests",
                ));
            }
            _ => {}
        }
        Ok(())
    }

    pub fn stages(&self) -> &[Box<dyn Stage>] {
        &self.stages
    }

    /// The final stage when it writes to a collection (`$out`, `$merge`).
    pub fn writer(&self) -> Option<&dyn WriteStage> {
        self.stages.last().and_then(|s| s.as_writer())
    }

    /// Whether the first stage produces the documents (so the collection is not read).
    pub fn starts_with_source(&self) -> bool {
        self.stages.first().is_some_and(|s| s.is_source())
    }

    /// The leading `$match`, `$sort`, `$skip` and `$limit` a find can run: one `$match` first,
    /// then one `$sort`, then `$skip` and `$limit` in that order (a `$limit` before a `$skip`
    /// is not a find's skip-then-limit, so it ends the prefix).
    pub fn pushdown(&self) -> Pushdown<'_> {
        let mut p = Pushdown::default();
        for stage in &self.stages {
            match stage.query_part() {
                Some(QueryPart::Filter(f)) if p.stages == 0 => p.filter = Some(f),
                Some(QueryPart::Sort(s))
                    if p.sort.is_none() && p.skip.is_none() && p.limit.is_none() =>
                {
                    p.sort = Some(s)
                }
                Some(QueryPart::SortLimit(s, n))
                    if p.sort.is_none() && p.skip.is_none() && p.limit.is_none() =>
                {
                    p.sort = Some(s);
                    p.limit = Some(n);
                }
                Some(QueryPart::Skip(n)) if p.skip.is_none() && p.limit.is_none() => {
                    p.skip = Some(n)
                }
                // `$limit: l` then `$skip: n` (the optimizer's order for a skip then a limit)
                // is the find's skip n, limit l - n.
                Some(QueryPart::Skip(n)) if p.skip.is_none() && p.limit.is_some_and(|l| l > n) => {
                    p.skip = Some(n);
                    p.limit = p.limit.map(|l| l - n);
                }
                Some(QueryPart::Limit(n)) if p.limit.is_none() => p.limit = Some(n),
                _ => break,
            }
            p.stages += 1;
        }
        p
    }

    /// Runs the stages from `first` on over `input`.
    pub fn run_from(
        &self,
        first: usize,
        input: Vec<Document>,
        cx: &RunContext<'_>,
    ) -> Result<Vec<Document>> {
        Ok(self.run_from_with_meta(first, input, None, cx)?.0)
    }

    /// [`Pipeline::run_from`] over documents with their metadata (`meta`, when a query made
    /// some): a pipeline that reads metadata carries it from stage to stage.
    pub fn run_from_with_meta(
        &self,
        first: usize,
        input: Vec<Document>,
        meta: Option<Vec<DocumentMeta>>,
        cx: &RunContext<'_>,
    ) -> Result<Batch> {
        // Only the last stage's documents are the pipeline's result (see `joined_limit`).
        let inner = RunContext {
            joined_limit: None,
            ..*cx
        };
        let last = self.stages.len().saturating_sub(1);
        let mut batch = (input, meta);
        for (i, stage) in self.stages.iter().enumerate().skip(first) {
            let scx = if i == last { cx } else { &inner };
            batch = if self.reads_meta {
                stage.apply_with_meta(batch.0, batch.1, scx)?
            } else {
                (stage.apply(batch.0, scx)?, None)
            };
        }
        Ok(batch)
    }

    /// Runs every stage in order over `input`.
    pub fn run(&self, input: Vec<Document>, cx: &RunContext<'_>) -> Result<Vec<Document>> {
        self.run_from(0, input, cx)
    }

    /// The stages as explain shows them.
    pub fn serialize(&self) -> Vec<Bson> {
        self.stages
            .iter()
            .map(|s| Bson::Document(s.serialize()))
            .collect()
    }
}

/// Stages after which no metadata is left: they make new documents (MongoDB's dependency
/// analysis stops at their `EXHAUSTIVE_ALL`).
const DROPS_METADATA: &[&str] = &[
    "$group",
    "$bucket",
    "$bucketAuto",
    "$count",
    "$sortByCount",
    "$facet",
];

/// Whether a pipeline's stages read metadata, and the first they read that is not available
/// (see [`Pipeline::check_metadata`]). A leading `$match` with `$text` makes the text score
/// available, a leading `$geoNear` the distance and point; a `$lookup`'s or `$unionWith`'s
/// sub-pipeline is its own pipeline, with its own leading stage (the outer document's
/// metadata does not reach it: jstests/aggregation/sources/lookup/lookup_contains_text.js).
fn metadata_reads(items: &[Bson]) -> MetadataReads {
    let mut available = MetaAvailable::default();
    let mut reads = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let Some((name, arg)) = item.as_document().and_then(|d| d.iter().next()) else {
            continue;
        };
        if i == 0 {
            available = MetaAvailable {
                text_score: name == "$match"
                    && arg.as_document().is_some_and(stages::filter_has_text),
                geo_near: name == "$geoNear",
            };
        }
        crate::expression::meta::metas_in(item, &[], &mut reads);
        if DROPS_METADATA.contains(&name.as_str()) {
            break;
        }
    }
    MetadataReads {
        any: !reads.is_empty(),
        sort_key: reads.contains(&MetaField::SortKey),
        unavailable: reads.iter().copied().find(|f| !available.allows(*f)),
    }
}

/// What [`metadata_reads`] finds in a pipeline's stages.
struct MetadataReads {
    any: bool,
    sort_key: bool,
    unavailable: Option<MetaField>,
}

fn collection_required(stage: &str) -> Error {
    Error::new(
        ErrorCode::InvalidNamespace,
        format!("{{aggregate: 1}} is not valid for '{stage}'; a collection is required."),
    )
}

/// Parses one `{$name: argument}` stage document.
fn parse_stage(spec: &Document, cx: &ParseContext<'_>) -> Result<Box<dyn Stage>> {
    if spec.len() != 1 {
        return Err(Error::location(
            40323,
            "A pipeline stage specification object must contain exactly one field.",
        ));
    }
    let Some((name, arg)) = spec.iter().next() else {
        return Err(Error::location(
            40323,
            "A pipeline stage specification object must contain exactly one field.",
        ));
    };
    let Some((_, parse)) = stages::REGISTRY.iter().find(|(n, _)| *n == name) else {
        return Err(Error::location(
            40324,
            format!("Unrecognized pipeline stage name: '{name}'"),
        ));
    };
    parse(arg, cx)
}

//! `$lookup`: joins each document with matching documents of another collection, as an array
//! field. Forms: equality (`localField`/`foreignField`), sub-pipeline (`let` + `pipeline`),
//! and both combined (the equality match runs first, then the pipeline).
//!
//! The equality form joins through a table built once per execution: the foreign documents by
//! each value at `foreignField` (array elements and the array itself, compared in MongoDB's
//! order, so `1` finds `1.0`), which answers `{foreignField: {$in: <local values>}}` exactly.
//! Local values the table cannot answer (null, which also matches a missing field, and
//! regexes) fall back to that filter over the whole foreign side.
//!
//! A sub-pipeline with `let` variables is parsed again for each input document with the
//! variables' values as constants: the values differ per document, and parsing is cheap next to
//! running the pipeline.

use std::borrow::Cow;
use std::collections::BTreeMap;

use bson::{Bson, Document};

use super::unwind::set_nested;
use crate::error::{Error, ErrorCode, Result};
use crate::expression::{Expression, Scope};
use crate::matcher::Filter;
use crate::path::{FieldPath, LeafArrays};
use crate::pipeline::memory::OutputBudget;
use crate::pipeline::{ParseContext, Pipeline, RunContext, Stage, SubPipelineOwner};
use crate::value::OrderedValue;
use crate::value::display::{key_value, type_name};

#[derive(Debug)]
pub struct Lookup {
    from: Option<String>,
    as_path: Vec<String>,
    equality: Option<(String, String)>,
    /// `localField` and `foreignField` parsed once.
    equality_paths: Option<(FieldPath, FieldPath)>,
    let_vars: Vec<(String, Expression)>,
    /// The pipeline as written, parsed per document when it uses `let` variables.
    pipeline_spec: Option<Vec<Bson>>,
    /// The pipeline parsed once, when no `let` variables need substituting.
    pipeline: Option<Pipeline>,
    outer_scope: Scope,
    /// The sub-pipeline depth of `pipeline` (checked against the limit when parsed).
    sub_depth: usize,
    /// The top-level fields the next stage reads of this one's output, when it reads only
    /// some ([`Stage::output_read_only`]): documents read in place are copied with only
    /// those (and the `as` array).
    keep: Option<Vec<String>>,
}

/// MongoDB's `internalLookupStageIntermediateDocumentMaxSizeBytes` default: the most bytes of
/// documents one `$lookup` gathers into one `as` array.
pub const MAX_JOINED_BYTES: usize = 100 * 1024 * 1024;

/// Where the documents a sub-pipeline returns go: the `as` array of a `$lookup` on `from`,
/// which MongoDB fails (code 4568) once its documents pass [`MAX_JOINED_BYTES`]. The last stage
/// of the sub-pipeline receives this, so a nested `$lookup` stops while it builds the
/// documents instead of after the whole sub-pipeline has been held in memory.
#[derive(Debug, Clone, Copy)]
pub struct JoinedLimit<'a> {
    pub from: &'a str,
}

/// Adds the documents `docs` one by one to a running total, with MongoDB's check: the total so
/// far must not be over the limit when another document arrives (document_source_lookup.cpp).
pub fn add_joined(total: &mut usize, docs: &[Document], limit: &JoinedLimit<'_>) -> Result<()> {
    for d in docs {
        if *total > MAX_JOINED_BYTES {
            return Err(Error::location(
                4568,
                format!(
                    "Total size of documents in {} matching pipeline's $lookup stage exceeds \
                     {MAX_JOINED_BYTES} bytes",
                    limit.from
                ),
            ));
        }
        *total += crate::value::bson_size::document_size(d);
    }
    Ok(())
}

fn failed_to_parse(message: impl Into<String>) -> Error {
    Error::new(ErrorCode::FailedToParse, message)
}

fn string_argument(name: &str, v: &Bson) -> Result<String> {
    match v {
        Bson::String(s) => Ok(s.clone()),
        other => Err(failed_to_parse(format!(
            "$lookup argument '{name}' must be a string, found {name}: {}: {}",
            key_value(other),
            type_name(other)
        ))),
    }
}

/// Parses `$lookup` with the checks (and order of checks) of MongoDB's `createFromBson`.
pub fn parse(arg: &Bson, cx: &ParseContext<'_>) -> Result<Box<dyn Stage>> {
    let Bson::Document(spec) = arg else {
        return Err(failed_to_parse(
            "the $lookup specification must be an Object",
        ));
    };
    let mut from = None;
    let mut as_field = String::new();
    let mut local = String::new();
    let mut foreign = String::new();
    let mut let_doc = None;
    let mut pipeline_spec = None;
    for (k, v) in spec {
        match k.as_str() {
            "pipeline" => match v {
                Bson::Array(items) => pipeline_spec = Some(items.clone()),
                _ => {
                    return Err(Error::type_mismatch(
                        "'pipeline' option must be specified as an array",
                    ));
                }
            },
            "let" => match v {
                Bson::Document(d) => let_doc = Some(d.clone()),
                other => {
                    return Err(failed_to_parse(format!(
                        "$lookup argument 'let: {}' must be an object, is type {}",
                        key_value(other),
                        type_name(other)
                    )));
                }
            },
            "from" => match v {
                Bson::String(s) => from = Some(s.clone()),
                Bson::Document(_) => {
                    return Err(Error::new(
                        ErrorCode::NotImplemented,
                        "$lookup from another database is not supported by Sprout",
                    ));
                }
                other => {
                    return Err(failed_to_parse(format!(
                        "$lookup 'from' field must be a string or an object, but found {}",
                        type_name(other)
                    )));
                }
            },
            "as" => as_field = string_argument(k, v)?,
            "localField" => local = string_argument(k, v)?,
            "foreignField" => foreign = string_argument(k, v)?,
            other => {
                string_argument(other, v)?;
                return Err(failed_to_parse(format!(
                    "unknown argument to $lookup: {other}"
                )));
            }
        }
    }
    if from.is_none() {
        let starts_with_documents = pipeline_spec
            .as_ref()
            .and_then(|p| p.first())
            .and_then(Bson::as_document)
            .is_some_and(|d| d.contains_key("$documents"));
        if !starts_with_documents {
            return Err(failed_to_parse("must specify 'from' field for a $lookup"));
        }
    }
    if as_field.is_empty() {
        return Err(failed_to_parse("must specify 'as' field for a $lookup"));
    }
    let equality = if local.is_empty() && foreign.is_empty() {
        None
    } else {
        Some((local, foreign))
    };
    match (&pipeline_spec, &equality) {
        (Some(_), Some((l, f))) if l.is_empty() || f.is_empty() => {
            return Err(failed_to_parse(
                "$lookup requires both or neither of 'localField' and 'foreignField' to be specified",
            ));
        }
        (None, eq)
            if !eq
                .as_ref()
                .is_some_and(|(l, f)| !l.is_empty() && !f.is_empty()) =>
        {
            return Err(failed_to_parse(
                "$lookup requires either 'pipeline' or both 'localField' and 'foreignField' to be specified",
            ));
        }
        (None, _) if let_doc.is_some() => {
            return Err(failed_to_parse(
                "$lookup with a 'let' argument must also specify 'pipeline'",
            ));
        }
        _ => {}
    }
    let mut let_vars = Vec::new();
    let mut inner_scope = cx.scope.clone();
    if let Some(vars) = &let_doc {
        // The names follow a command's `let` rules.
        let names: Document = vars.keys().map(|n| (n.clone(), Bson::Null)).collect();
        Scope::from_let(&names)?;
    }
    for (name, v) in let_doc.iter().flatten() {
        let_vars.push((name.clone(), Expression::parse_in(v, cx.scope)?));
        // Checked with a placeholder so errors in the pipeline surface at parse time.
        inner_scope.constants.push((name.clone(), Some(Bson::Null)));
    }
    let sub_depth = cx.sub_pipeline_depth()?;
    let pipeline = match &pipeline_spec {
        Some(items) => Some(Pipeline::parse_sub_of(
            items,
            &inner_scope,
            SubPipelineOwner::Lookup,
            sub_depth,
        )?),
        None => None,
    };
    check_path(&as_field)?;
    Ok(Box::new(Lookup {
        from,
        as_path: as_field.split('.').map(str::to_string).collect(),
        equality_paths: equality
            .as_ref()
            .map(|(l, f)| (FieldPath::parse(l), FieldPath::parse(f))),
        equality,
        pipeline: if let_vars.is_empty() { pipeline } else { None },
        let_vars,
        pipeline_spec,
        outer_scope: cx.scope.clone(),
        sub_depth,
        keep: None,
    }))
}

pub fn check_path(path: &str) -> Result<()> {
    if path.is_empty() || path.split('.').any(str::is_empty) {
        return Err(Error::location(
            40352,
            "FieldPath cannot be constructed with empty string",
        ));
    }
    if path.starts_with('$') {
        return Err(Error::location(
            16410,
            "FieldPath field names may not start with '$'. Consider using $getField or $setField.",
        ));
    }
    Ok(())
}

impl Lookup {
    /// The foreign collection's name as errors show it (empty for a `$documents` pipeline).
    fn foreign_name(&self) -> &str {
        self.from.as_deref().unwrap_or_default()
    }

    /// The values the equality form looks for: every value at `localField` (array elements
    /// one by one), or null when there is none.
    fn local_values(doc: &Document, local: &FieldPath) -> Vec<Bson> {
        // A top-level field that holds no array (the usual `localField`) is its one value,
        // without the path walker.
        if let [name] = local.parts() {
            match crate::path::field(doc, name) {
                None => return vec![Bson::Null],
                Some(Bson::Array(_)) => {}
                Some(v) => return vec![v.clone()],
            }
        }
        let mut values: Vec<Bson> = Vec::new();
        let _ = crate::path::for_each_item(doc, local, LeafArrays::Expand, &mut |item| {
            match item.value {
                Some(Bson::Array(a)) if !a.is_empty() => {}
                Some(v) => values.push(v.clone()),
                None => {}
            }
            std::ops::ControlFlow::Continue(())
        });
        if values.is_empty() {
            values.push(Bson::Null);
        }
        values
    }

    /// The documents of `from` that a sub-pipeline's leading `$match` with `$text` selects,
    /// found through the planner (the text index); `None` when the sub-pipeline does not start
    /// so, or `from` is a view (whose documents the pipeline reads as they come).
    fn leading_text_search(
        &self,
        pipeline: &Pipeline,
        cx: &RunContext<'_>,
    ) -> Result<Option<crate::pipeline::Batch>> {
        let (Some(from), Some(first)) = (&self.from, pipeline.stages().first()) else {
            return Ok(None);
        };
        let Some(crate::pipeline::QueryPart::Filter(spec)) = first.query_part() else {
            return Ok(None);
        };
        // Looked for in the spec first: a filter that reads `let` variables parses only in
        // the sub-pipeline's scope (and one with `$text` and such variables keeps the old path).
        if !mentions_text(spec) {
            return Ok(None);
        }
        let Ok(filter) = Filter::parse(spec) else {
            return Ok(None);
        };
        if filter.text_query().is_none() {
            return Ok(None);
        }
        let ns = crate::catalog::Namespace::new(cx.db, from);
        if crate::catalog::view::resolve_in(cx.catalog, &ns)?.is_some() {
            return Ok(None);
        }
        let Some(find_records) = cx.find_records else {
            return Ok(None);
        };
        let coll = cx.catalog.collection(&ns);
        // The sub-pipeline's own `$text` scores its documents when a later stage reads them.
        let spec = crate::query::FindSpec {
            wants_metadata: pipeline.reads_meta(),
            ..crate::query::FindSpec::of_filter(filter)
        };
        let found = find_records(coll, &spec, cx.match_ctx)?;
        let mut docs = Vec::with_capacity(found.ids.len());
        let mut meta = found.meta.as_ref().map(|_| Vec::new());
        for (i, rid) in found.ids.iter().enumerate() {
            if let Some(d) = coll.and_then(|c| c.get(*rid)) {
                docs.push(d.clone());
                if let (Some(out), Some(all)) = (meta.as_mut(), found.meta.as_ref()) {
                    out.push(all[i].clone());
                }
            }
        }
        Ok(Some((docs, meta)))
    }

    /// `text_search`: the leading `$text` search of a sub-pipeline parsed once (no `let`
    /// variables), made for the first outer document and reused for the others: it reads
    /// only `from`, which the join does not change.
    fn joined(
        &self,
        doc: &Document,
        foreign: &[Document],
        table: Option<&ForeignTable>,
        text_search: &mut Option<Option<crate::pipeline::Batch>>,
        cx: &RunContext<'_>,
    ) -> Result<Vec<Document>> {
        let mut matched: Vec<Document> = match (&self.equality, &self.equality_paths) {
            (Some((_, foreign_field)), Some((local, _))) => {
                let values = Lookup::local_values(doc, local);
                match table.and_then(|t| t.matches(&values)) {
                    Some(positions) => positions.iter().map(|&i| foreign[i].clone()).collect(),
                    None => {
                        let mut filter = Document::new();
                        filter.insert(foreign_field.clone(), bson::doc! {"$in": values});
                        let filter = Filter::parse(&filter)?;
                        foreign
                            .iter()
                            .filter(|d| filter.matches(d))
                            .cloned()
                            .collect()
                    }
                }
            }
            _ => foreign.to_vec(),
        };
        if let Some(items) = &self.pipeline_spec {
            let per_doc;
            let pipeline = match &self.pipeline {
                Some(p) => p,
                None => {
                    let mut scope = self.outer_scope.clone();
                    for (name, e) in &self.let_vars {
                        // A missing value stays missing (`$$v` then reads as missing).
                        let v = e.evaluate_in(doc, cx.eval)?;
                        scope.constants.push((name.clone(), v));
                    }
                    per_doc = Pipeline::parse_sub_of(
                        items,
                        &scope,
                        SubPipelineOwner::Lookup,
                        self.sub_depth,
                    )?;
                    &per_doc
                }
            };
            if pipeline.starts_with_source() {
                matched = Vec::new();
            }
            // A sub-pipeline that starts with a `$text` search reads `from` through its text
            // index (as MongoDB runs the sub-pipeline against the foreign collection, whose
            // first `$match` the query layer answers): the documents' matching alone cannot
            // answer `$text` (jstests/aggregation/sources/match/text_search_requires_index.js).
            let mut first = 0;
            let mut meta = None;
            let found = if self.equality.is_none() {
                match (&self.pipeline, &*text_search) {
                    (Some(_), Some(cached)) => cached.clone(),
                    _ => {
                        let found = self.leading_text_search(pipeline, cx)?;
                        if self.pipeline.is_some() {
                            *text_search = Some(found.clone());
                        }
                        found
                    }
                }
            } else {
                None
            };
            if let Some((found, found_meta)) = found {
                matched = found;
                meta = found_meta;
                first = 1;
            }
            // The sub-pipeline reads only the metadata its own first stage makes: the outer
            // document's is not available to it (lookup_contains_text.js, 40218).
            pipeline.check_metadata()?;
            // A sub-pipeline that reads the collection itself (`$geoNear`) reads `from`.
            let collection = match &self.from {
                Some(from) if pipeline.starts_with_source() => Some(from.as_str()),
                _ => cx.collection,
            };
            let sub_cx = RunContext {
                joined_limit: Some(JoinedLimit {
                    from: self.foreign_name(),
                }),
                collection,
                ..*cx
            };
            matched = pipeline
                .run_from_with_meta(first, matched, meta, &sub_cx)?
                .0;
        }
        add_joined(
            &mut 0,
            &matched,
            &JoinedLimit {
                from: self.foreign_name(),
            },
        )?;
        Ok(matched)
    }
}

/// Whether a filter document has `$text` at its top level or under `$and`/`$or`/`$nor`.
pub fn mentions_text(spec: &Document) -> bool {
    spec.iter().any(|(k, v)| match (k.as_str(), v) {
        ("$text", _) => true,
        ("$and" | "$or" | "$nor", Bson::Array(items)) => items
            .iter()
            .any(|i| i.as_document().is_some_and(mentions_text)),
        _ => false,
    })
}

/// The foreign documents' positions by each value at `foreignField` (array elements and the
/// array itself, as equality sees them).
#[derive(Debug, Default)]
struct ForeignTable {
    by_value: BTreeMap<OrderedValue, Vec<usize>>,
}

impl ForeignTable {
    fn build(foreign: &[Document], path: &FieldPath) -> ForeignTable {
        let mut by_value: BTreeMap<OrderedValue, Vec<usize>> = BTreeMap::new();
        for (i, d) in foreign.iter().enumerate() {
            for item in crate::path::items(d, path, LeafArrays::Expand) {
                if let Some(v) = item.value {
                    let positions = by_value.entry(OrderedValue(v.clone())).or_default();
                    if positions.last() != Some(&i) {
                        positions.push(i);
                    }
                }
            }
        }
        ForeignTable { by_value }
    }

    /// The positions (in natural order) of the foreign documents equal at `foreignField` to
    /// one of `values` (what `{foreignField: {$in: values}}` matches), or `None` when a value
    /// needs the full scan (null also matches a missing field, a regex matches by pattern).
    fn matches(&self, values: &[Bson]) -> Option<Cow<'_, [usize]>> {
        if let [v] = values {
            // One value (a scalar local field): its positions, in natural order already.
            if matches!(v, Bson::Null | Bson::Undefined | Bson::RegularExpression(_)) {
                return None;
            }
            return Some(match self.by_value.get(&OrderedValue(v.clone())) {
                Some(found) => Cow::Borrowed(found.as_slice()),
                None => Cow::Borrowed(&[]),
            });
        }
        let mut positions = Vec::new();
        for v in values {
            if matches!(v, Bson::Null | Bson::Undefined | Bson::RegularExpression(_)) {
                return None;
            }
            if let Some(found) = self.by_value.get(&OrderedValue(v.clone())) {
                positions.extend_from_slice(found);
            }
        }
        crate::sort_slice::sort(&mut positions);
        positions.dedup();
        Some(Cow::Owned(positions))
    }
}

impl Lookup {
    /// Joins each input document (moved, or copied from where it is: then with only the
    /// fields in [`Lookup::keep`] when the next stage reads only those) with its matches.
    fn join<'d>(
        &self,
        input: impl Iterator<Item = Cow<'d, Document>>,
        len: usize,
        cx: &RunContext<'_>,
    ) -> Result<Vec<Document>> {
        let foreign = match &self.from {
            Some(from) => {
                cx.check_view_depth(
                    Some(from),
                    self.pipeline_spec.as_deref().unwrap_or_default(),
                    self.sub_depth,
                )?;
                cx.collection_documents(from, self.sub_depth)?
            }
            None => Vec::new(),
        };
        let table = self
            .equality_paths
            .as_ref()
            .map(|(_, foreign_field)| ForeignTable::build(&foreign, foreign_field));
        let mut out = Vec::with_capacity(len);
        // As the last stage of an outer `$lookup`'s sub-pipeline, the documents made here are
        // that `$lookup`'s array: its size limit is checked as they are made.
        let mut outer_total = 0;
        let mut budget = OutputBudget::new("$lookup");
        // A leading `$text` search of the sub-pipeline, made once (see `joined`).
        let mut text_search = None;
        for doc in input {
            let joined = self.joined(&doc, &foreign, table.as_ref(), &mut text_search, cx)?;
            let mut doc = match (doc, &self.keep) {
                (Cow::Owned(doc), _) => doc,
                (Cow::Borrowed(doc), Some(keep)) => {
                    // Made from the hasher state of an empty document made once (a new one
                    // draws a new state).
                    let mut out = crate::value::empty_document();
                    for (k, v) in doc.iter().filter(|(k, _)| keep.iter().any(|f| f == *k)) {
                        out.insert(k.clone(), v.clone());
                    }
                    out
                }
                (Cow::Borrowed(doc), None) => doc.clone(),
            };
            let array = Bson::Array(joined.into_iter().map(Bson::Document).collect());
            set_nested(&mut doc, &self.as_path, array);
            // Counted in Sprout's memory, where small documents take ten times their BSON
            // size: 12 nested `$lookup`s, each joining 8 documents, reached the 4 GiB cap
            // before the 100 MiB joined limit (BSON) of the outer ones.
            budget.add(crate::expression::memory::document_memory(&doc))?;
            if let Some(limit) = &cx.joined_limit {
                add_joined(&mut outer_total, std::slice::from_ref(&doc), limit)?;
            }
            out.push(doc);
        }
        Ok(out)
    }
}

impl Stage for Lookup {
    fn name(&self) -> &'static str {
        "$lookup"
    }

    fn apply(&self, input: Vec<Document>, cx: &RunContext<'_>) -> Result<Vec<Document>> {
        let n = input.len();
        self.join(input.into_iter().map(Cow::Owned), n, cx)
    }

    fn reads_in_place(&self) -> bool {
        self.keep.is_some()
    }

    /// The collection's documents where they are: each output document is a copy of only
    /// the fields the next stage reads ([`Lookup::keep`]), instead of the whole document
    /// copied by the scan and then carried to the next stage.
    fn apply_in_place(&self, input: &[&Document], cx: &RunContext<'_>) -> Result<Vec<Document>> {
        self.join(input.iter().map(|d| Cow::Borrowed(*d)), input.len(), cx)
    }

    fn output_read_only(&mut self, fields: Vec<String>) {
        self.keep = Some(fields);
    }

    /// The outer documents keep their metadata (MongoDB's `$lookup` adds a field to each).
    fn apply_with_meta(
        &self,
        input: Vec<Document>,
        meta: Option<Vec<crate::expression::DocumentMeta>>,
        cx: &RunContext<'_>,
    ) -> Result<crate::pipeline::Batch> {
        let n = input.len();
        Ok((self.join(input.into_iter().map(Cow::Owned), n, cx)?, meta))
    }

    fn serialize(&self) -> Document {
        let mut spec = Document::new();
        if let Some(from) = &self.from {
            spec.insert("from", from.clone());
        }
        spec.insert("as", self.as_path.join("."));
        if let Some((l, f)) = &self.equality {
            spec.insert("localField", l.clone());
            spec.insert("foreignField", f.clone());
        }
        if !self.let_vars.is_empty() {
            let vars: Document = self
                .let_vars
                .iter()
                .map(|(n, e)| (n.clone(), e.serialize()))
                .collect();
            spec.insert("let", vars);
        }
        if let Some(items) = &self.pipeline_spec {
            spec.insert("pipeline", items.clone());
        }
        let mut d = Document::new();
        d.insert("$lookup", spec);
        d
    }
}

//! `$graphLookup`: a recursive search of a collection. From each input document's `startWith`
//! values it finds the documents whose `connectToField` equals one of them, then follows their
//! `connectFromField` values level by level (up to `maxDepth`), and puts every document reached
//! in the `as` array (with its level in `depthField`).
//!
//! Each level is one query `{connectToField: {$in: frontier}}` (and `restrictSearchWithMatch`)
//! through the planner, so an index on `connectToField` serves it. A document is visited once
//! (by `_id`), which ends cycles. MongoDB leaves the order of `as` unspecified; Sprout gives the
//! documents in the collection's natural order, so results are stable.

use std::collections::BTreeMap;

use bson::{Bson, Document, doc};

use super::unwind::set_nested;
use crate::catalog::Namespace;
use crate::error::{Error, ErrorCode, Result};
use crate::expression::Expression;
use crate::matcher::Filter;
use crate::path::{FieldPath, LeafArrays};
use crate::pipeline::{ParseContext, RunContext, Stage};
use crate::query::FindSpec;
use crate::value::bson_size::{document_size, value_size};
use crate::value::display::type_name;
use crate::value::{OrderedValue, SimpleOrderedValue};

#[derive(Debug)]
pub struct GraphLookup {
    /// The sub-pipeline depth a view named by `from` has its pipeline parsed at.
    sub_depth: usize,
    from: String,
    as_field: String,
    start_with: Expression,
    connect_from: String,
    connect_to: String,
    depth_field: Option<String>,
    max_depth: Option<i64>,
    restrict: Option<Document>,
}

/// The `from` collection, checked first as MongoDB's `LiteParsedGraphLookUp::parse` does before
/// the stage itself is parsed (document_source_graph_lookup.cpp,
/// parseGraphLookupFromAndResolveNamespace): FailedToParse when it is missing or not a string,
/// InvalidNamespace when it is empty (jstests/aggregation/sources/graphLookup/error.js).
fn parse_from(spec: &Document) -> Result<String> {
    match spec.get("from") {
        None => Err(Error::new(
            ErrorCode::FailedToParse,
            "missing 'from' option to $graphLookup stage specification",
        )),
        Some(Bson::String(s)) if s.is_empty() => Err(Error::new(
            ErrorCode::InvalidNamespace,
            "invalid $graphLookup namespace: an empty collection name",
        )),
        Some(Bson::String(s)) => Ok(s.clone()),
        Some(other) => Err(Error::new(
            ErrorCode::FailedToParse,
            format!(
                "$graphLookup 'from' field must be a string, but found {}",
                type_name(other)
            ),
        )),
    }
}

pub fn parse(arg: &Bson, cx: &ParseContext<'_>) -> Result<Box<dyn Stage>> {
    let Bson::Document(spec) = arg else {
        return Err(Error::new(
            ErrorCode::FailedToParse,
            format!(
                "the $graphLookup stage specification must be an object, but found {}",
                type_name(arg)
            ),
        ));
    };
    let from = parse_from(spec)?;
    let mut as_field = String::new();
    let mut start_with = None;
    let mut connect_from = String::new();
    let mut connect_to = String::new();
    let mut depth_field = None;
    let mut max_depth = None;
    let mut restrict = None;
    for (name, v) in spec {
        match name.as_str() {
            "startWith" => start_with = Some(Expression::parse_in(v, cx.scope)?),
            "maxDepth" => max_depth = Some(parse_max_depth(v)?),
            "restrictSearchWithMatch" => {
                let Bson::Document(filter) = v else {
                    return Err(Error::location(
                        40185,
                        format!(
                            "restrictSearchWithMatch must be an object, found {}",
                            type_name(v)
                        ),
                    ));
                };
                crate::matcher::ban_features(filter, false)
                    .and_then(|()| Filter::parse_in(filter, cx.scope).map(drop))
                    .map_err(|mut e| {
                        e.message = format!(
                            "Failed to parse 'restrictSearchWithMatch' option to $graphLookup :: \
                         caused by :: {}",
                            e.message
                        );
                        e
                    })?;
                restrict = Some(filter.clone());
            }
            "from" => {}
            "as" | "connectFromField" | "connectToField" | "depthField" => {
                let Bson::String(s) = v else {
                    return Err(Error::location(
                        40103,
                        format!(
                            "expected string as argument for {name}, found: {}",
                            type_name(v)
                        ),
                    ));
                };
                match name.as_str() {
                    "as" => as_field = s.clone(),
                    "connectFromField" => connect_from = s.clone(),
                    "connectToField" => connect_to = s.clone(),
                    _ => {
                        super::lookup::check_path(s)?;
                        depth_field = Some(s.clone());
                    }
                }
            }
            other => {
                return Err(Error::location(
                    40104,
                    format!("Unknown argument to $graphLookup: {other}"),
                ));
            }
        }
    }
    let Some(start_with) = start_with else {
        return Err(missing_required());
    };
    if from.is_empty() || as_field.is_empty() || connect_from.is_empty() || connect_to.is_empty() {
        return Err(missing_required());
    }
    for path in [&as_field, &connect_from, &connect_to] {
        super::lookup::check_path(path)?;
    }
    // MongoDB gives $graphLookup a sub-pipeline context of its own, so it counts (and is
    // refused) at the sub-pipeline depth limit like $lookup.
    let sub_depth = cx.sub_pipeline_depth()?;
    Ok(Box::new(GraphLookup {
        sub_depth,
        from,
        as_field,
        start_with,
        connect_from,
        connect_to,
        depth_field,
        max_depth,
        restrict,
    }))
}

/// MongoDB's limit on what one `$graphLookup` holds (the documents found and the values still
/// to look for): 100 MiB, and it cannot spill (`checkMemoryUsage` in
/// document_source_graph_lookup.cpp, error 40099).
pub const MAX_GRAPH_LOOKUP_BYTES: usize = 100 * 1024 * 1024;

fn check_memory(bytes: usize) -> Result<()> {
    if bytes >= MAX_GRAPH_LOOKUP_BYTES {
        return Err(Error::location(
            40099,
            "$graphLookup reached maximum memory consumption",
        ));
    }
    Ok(())
}

fn missing_required() -> Error {
    Error::location(
        40105,
        "$graphLookup requires 'from', 'as', 'startWith', 'connectFromField', and \
         'connectToField' to be specified.",
    )
}

fn parse_max_depth(v: &Bson) -> Result<i64> {
    let (n, exact) = match v {
        Bson::Int32(i) => (i64::from(*i), true),
        Bson::Int64(i) => (*i, true),
        Bson::Double(d) => {
            // safeNumberLong: NaN is 0, out-of-range saturates.
            let n = if d.is_nan() { 0 } else { *d as i64 };
            (n, n as f64 == *d)
        }
        Bson::Decimal128(d) => {
            let dec = crate::value::Decimal::from_bson(d);
            let n = dec.to_i64_truncated().unwrap_or(0);
            (n, n as f64 == dec.to_f64())
        }
        other => {
            return Err(Error::location(
                40100,
                format!("maxDepth must be numeric, found type: {}", type_name(other)),
            ));
        }
    };
    if n < 0 {
        return Err(Error::location(
            40101,
            format!("maxDepth requires a nonnegative argument, found: {n}"),
        ));
    }
    if !exact {
        return Err(Error::location(
            40102,
            format!("maxDepth could not be represented as a long long: {n}"),
        ));
    }
    Ok(n)
}

/// The values at a path, array elements one by one (as `$in` compares them).
fn values_at(doc: &Document, path: &str) -> Vec<Bson> {
    let path = FieldPath::parse(path);
    crate::path::items(doc, &path, LeafArrays::Expand)
        .into_iter()
        .filter_map(|item| item.value.cloned())
        .filter(|v| !matches!(v, Bson::Array(_)))
        .collect()
}

impl GraphLookup {
    /// The documents reached from one input document, with their depths, by record id.
    /// `view`: the documents of `from` when it names a view (their positions are the record
    /// ids), searched here rather than through the planner.
    fn search(
        &self,
        doc: &Document,
        view: Option<&[Document]>,
        cx: &RunContext<'_>,
    ) -> Result<BTreeMap<u64, (Document, i64)>> {
        let ns = Namespace::new(cx.db, self.from.clone());
        let coll = cx.catalog.collection(&ns);
        let mut visited: BTreeMap<u64, (Document, i64)> = BTreeMap::new();
        // Visited documents are told apart by `_id` under the simple order, whatever the
        // collation (MongoDB's `_visited` is `ValueComparator::kInstance`'s map, where the frontier
        // uses the aggregation's comparator): `_id`s "foo" and "FOO" are two documents.
        let mut seen_ids: std::collections::BTreeSet<SimpleOrderedValue> = Default::default();
        let mut frontier: Vec<Bson> = match self.start_with.evaluate_in(doc, cx.eval)? {
            Some(Bson::Array(items)) => items,
            Some(v) => vec![v],
            None => vec![Bson::Null],
        };
        let mut depth = 0_i64;
        let mut visited_bytes = 0usize;
        while !frontier.is_empty() && self.max_depth.is_none_or(|max| depth <= max) {
            let frontier_bytes: usize = frontier.iter().map(value_size).sum();
            check_memory(visited_bytes + frontier_bytes)?;
            let mut query = Document::new();
            query.insert(self.connect_to.clone(), doc! {"$in": frontier});
            if let Some(restrict) = &self.restrict {
                query = doc! {"$and": [query, restrict.clone()]};
            }
            let spec = FindSpec::of_filter(Filter::parse(&query)?);
            let found: Vec<u64> = match view {
                Some(docs) => {
                    let mut found = Vec::new();
                    for (i, d) in docs.iter().enumerate() {
                        if spec.filter.matches_with(d, cx.match_ctx)? {
                            found.push(i as u64);
                        }
                    }
                    found
                }
                None => {
                    let find_records = cx.find_records.ok_or_else(|| {
                        Error::new(
                            ErrorCode::InternalError,
                            "$graphLookup cannot run here: no planner access",
                        )
                    })?;
                    find_records(coll, &spec, cx.match_ctx)?.ids
                }
            };
            let mut next: Vec<Bson> = Vec::new();
            // The frontier's values once each, without a scan per value (a wide graph made
            // this quadratic in the frontier's size).
            let mut in_next: std::collections::BTreeSet<OrderedValue> = Default::default();
            for record_id in found {
                let found_doc = match view {
                    Some(docs) => usize::try_from(record_id).ok().and_then(|i| docs.get(i)),
                    None => coll.and_then(|c| c.get(record_id)),
                };
                let Some(found_doc) = found_doc else {
                    continue;
                };
                let id = SimpleOrderedValue(found_doc.get("_id").cloned().unwrap_or(Bson::Null));
                if !seen_ids.insert(id) {
                    continue;
                }
                for v in values_at(found_doc, &self.connect_from) {
                    if in_next.insert(OrderedValue(v.clone())) {
                        next.push(v);
                    }
                }
                visited_bytes += document_size(found_doc);
                check_memory(visited_bytes)?;
                visited.insert(record_id, (found_doc.clone(), depth));
            }
            frontier = next;
            depth += 1;
        }
        Ok(visited)
    }
}

impl Stage for GraphLookup {
    fn name(&self) -> &'static str {
        "$graphLookup"
    }

    fn apply(&self, input: Vec<Document>, cx: &RunContext<'_>) -> Result<Vec<Document>> {
        let as_path: Vec<String> = self.as_field.split('.').map(str::to_string).collect();
        let depth_path: Option<Vec<String>> = self
            .depth_field
            .as_ref()
            .map(|d| d.split('.').map(str::to_string).collect());
        // A view is searched through its documents, which its pipeline makes once a run (MongoDB
        // resolves a view named by `from` and matches each level on the view's output).
        let ns = Namespace::new(cx.db, self.from.clone());
        let view = match crate::catalog::view::resolve_in(cx.catalog, &ns)? {
            Some(_) => Some(cx.collection_documents(&self.from, self.sub_depth)?),
            None => None,
        };
        let mut out = Vec::with_capacity(input.len());
        for mut doc in input {
            let reached = self.search(&doc, view.as_deref(), cx)?;
            let results: Vec<Bson> = reached
                .into_values()
                .map(|(mut d, depth)| {
                    if let Some(path) = &depth_path {
                        set_nested(&mut d, path, Bson::Int64(depth));
                    }
                    Bson::Document(d)
                })
                .collect();
            set_nested(&mut doc, &as_path, Bson::Array(results));
            out.push(doc);
        }
        Ok(out)
    }

    /// Each document comes out once, in order, with its found documents added: it keeps its
    /// metadata (MongoDB builds the output from the input document).
    fn apply_with_meta(
        &self,
        input: Vec<Document>,
        meta: Option<Vec<crate::expression::DocumentMeta>>,
        cx: &RunContext<'_>,
    ) -> Result<crate::pipeline::Batch> {
        Ok((self.apply(input, cx)?, meta))
    }

    fn serialize(&self) -> Document {
        let mut spec = doc! {
            "from": self.from.clone(),
            "as": self.as_field.clone(),
            "connectToField": self.connect_to.clone(),
            "connectFromField": self.connect_from.clone(),
            "startWith": self.start_with.serialize(),
        };
        if let Some(d) = &self.depth_field {
            spec.insert("depthField", d.clone());
        }
        if let Some(m) = self.max_depth {
            spec.insert("maxDepth", m);
        }
        if let Some(r) = &self.restrict {
            spec.insert("restrictSearchWithMatch", r.clone());
        }
        doc! {"$graphLookup": spec}
    }
}

#[cfg(test)]
mod tests {
    use bson::{Bson, Document, doc};

    use crate::Engine;

    fn run(e: &mut Engine, stage: Document) -> Document {
        e.run_command(
            "t",
            &doc! {"aggregate": "people", "pipeline": [{"$match": {"_id": 1}}, {"$graphLookup": stage}], "cursor": {}},
        )
    }

    fn reached(reply: &Document) -> Vec<Bson> {
        let first = reply
            .get_document("cursor")
            .unwrap()
            .get_array("firstBatch")
            .unwrap()[0]
            .as_document()
            .unwrap()
            .clone();
        first.get_array("net").unwrap().clone()
    }

    fn ids(items: &[Bson]) -> Vec<i32> {
        items
            .iter()
            .map(|d| d.as_document().unwrap().get_i32("_id").unwrap())
            .collect()
    }

    #[test]
    fn follows_edges_with_cycles_depths_and_arrays() {
        let mut e = Engine::new();
        e.run_command(
            "t",
            &doc! {"insert": "people", "documents": [
                {"_id": 1, "name": "a", "friends": ["b", "c"]},
                {"_id": 2, "name": "b", "friends": ["a", "d"], "active": false},
                {"_id": 3, "name": "c", "friends": []},
                {"_id": 4, "name": "d", "friends": "e"},
                {"_id": 5, "name": "e"},
            ]},
        );
        e.run_command(
            "t",
            &doc! {"createIndexes": "people", "indexes": [{"key": {"name": 1}, "name": "name_1"}]},
        );
        let spec = doc! {
            "from": "people", "startWith": "$friends", "connectFromField": "friends",
            "connectToField": "name", "as": "net", "depthField": "hops",
        };
        let r = run(&mut e, spec.clone());
        let net = reached(&r);
        assert_eq!(ids(&net), [1, 2, 3, 4, 5]);
        let depth_of = |id: i32| {
            net.iter()
                .map(|d| d.as_document().unwrap())
                .find(|d| d.get_i32("_id").unwrap() == id)
                .unwrap()
                .get_i64("hops")
                .unwrap()
        };
        assert_eq!((depth_of(2), depth_of(1), depth_of(5)), (0, 1, 2));
        let mut limited = spec.clone();
        limited.insert("maxDepth", 0);
        assert_eq!(ids(&reached(&run(&mut e, limited))), [2, 3]);
        let mut restricted = spec;
        restricted.insert("restrictSearchWithMatch", doc! {"active": {"$ne": false}});
        assert_eq!(ids(&reached(&run(&mut e, restricted))), [3]);
    }

    #[test]
    fn argument_errors() {
        let mut e = Engine::new();
        e.run_command("t", &doc! {"insert": "people", "documents": [{"_id": 1}]});
        let base = doc! {"from": "people", "startWith": "$x", "connectFromField": "a", "connectToField": "b", "as": "net"};
        let cases = [
            ("maxDepth", Bson::Int32(-1), 40101),
            ("maxDepth", Bson::String("x".into()), 40100),
            ("maxDepth", Bson::Double(1.5), 40102),
            ("as", Bson::Int32(1), 40103),
            ("from", Bson::Int32(-1), 9),
            ("from", Bson::String(String::new()), 73),
            ("restrictSearchWithMatch", Bson::Int32(1), 40185),
            // MongoDB's default match parsing refuses $where and $text (BadValue).
            (
                "restrictSearchWithMatch",
                Bson::Document(doc! {"$where": "3 > 2"}),
                2,
            ),
            ("bogus", Bson::Int32(1), 40104),
        ];
        for (field, value, code) in cases {
            let mut spec = base.clone();
            spec.insert(field, value);
            assert_eq!(run(&mut e, spec).get_i32("code").unwrap(), code, "{field}");
        }
        let mut spec = base.clone();
        spec.remove("as");
        assert_eq!(run(&mut e, spec).get_i32("code").unwrap(), 40105);
        // A missing `from` is found before the other fields are read.
        let mut spec = base.clone();
        spec.remove("from");
        spec.remove("as");
        assert_eq!(run(&mut e, spec).get_i32("code").unwrap(), 9);
    }

    #[test]
    fn ids_that_differ_only_by_case_are_two_documents_under_a_collation() {
        let mut e = Engine::new();
        e.run_command(
            "t",
            &doc! {"insert": "people", "documents": [
                {"_id": 1, "name": "erica", "friends": ["jeremy"]},
                {"_id": "foo", "name": "jeremy"},
                {"_id": "FOO", "name": "JEREMY"},
            ]},
        );
        let stage = doc! {"from": "people", "startWith": "$friends", "connectFromField": "friends",
        "connectToField": "name", "as": "net"};
        let reply = e.run_command(
            "t",
            &doc! {"aggregate": "people",
            "pipeline": [{"$match": {"_id": 1}}, {"$graphLookup": stage}], "cursor": {},
            "collation": {"locale": "en_US", "strength": 2}},
        );
        assert_eq!(reached(&reply).len(), 2);
    }
}

//! The graph of a database's views, checked when a view is defined (`create`, `collMod`): as
//! MongoDB's `ViewGraph::insertAndValidate`, a view depends on its `viewOn` and on every
//! namespace its pipeline reads (`$lookup`, `$graphLookup`, `$unionWith`, inside `$facet` and
//! sub-pipelines too); a definition that makes a view depend on itself is refused with
//! GraphContainsCycle, one that makes a chain of views deeper than [`MAX_VIEW_DEPTH`] with
//! ViewDepthLimitExceeded (jstests/core/views/views_validation.js).

use std::collections::BTreeSet;

use bson::Bson;

use super::Catalog;
use super::view::MAX_VIEW_DEPTH;
use crate::error::{Error, ErrorCode, Result};

/// The collection names of the same database that a view defined on `view_on` with `pipeline`
/// reads.
pub fn dependencies(view_on: &str, pipeline: &[Bson]) -> BTreeSet<String> {
    let mut out = BTreeSet::from([view_on.to_string()]);
    pipeline_dependencies(pipeline, &mut out);
    out
}

fn pipeline_dependencies(pipeline: &[Bson], out: &mut BTreeSet<String>) {
    for stage in pipeline {
        let Bson::Document(stage) = stage else {
            continue;
        };
        for (name, arg) in stage {
            match (name.as_str(), arg) {
                ("$lookup" | "$graphLookup", Bson::Document(spec)) => {
                    if let Ok(from) = spec.get_str("from") {
                        out.insert(from.to_string());
                    }
                    if let Ok(sub) = spec.get_array("pipeline") {
                        pipeline_dependencies(sub, out);
                    }
                }
                ("$unionWith", Bson::String(coll)) => {
                    out.insert(coll.clone());
                }
                ("$unionWith", Bson::Document(spec)) => {
                    if let Ok(coll) = spec.get_str("coll") {
                        out.insert(coll.to_string());
                    }
                    if let Ok(sub) = spec.get_array("pipeline") {
                        pipeline_dependencies(sub, out);
                    }
                }
                ("$facet", Bson::Document(facets)) => {
                    for facet in facets.values() {
                        if let Bson::Array(sub) = facet {
                            pipeline_dependencies(sub, out);
                        }
                    }
                }
                _ => {}
            }
        }
    }
}

/// The views of one database and the names each depends on, sorted by view name (a vector
/// searched by halves: a `BTreeMap` of these types, with its memo of heights, compiled its own
/// B-tree and sort code into the shipped wasm for this one check).
type Graph = Vec<(String, BTreeSet<String>)>;

fn position(graph: &Graph, view: &str) -> Option<usize> {
    graph.binary_search_by(|(v, _)| v.as_str().cmp(view)).ok()
}

/// Checks that defining view `name` of database `db` on `view_on` with `pipeline` (a new view,
/// or a new definition of an existing one) leaves the database's views without a cycle and no
/// deeper than [`MAX_VIEW_DEPTH`].
pub fn check_definition(
    catalog: &Catalog,
    db: &str,
    name: &str,
    view_on: &str,
    pipeline: &[Bson],
) -> Result<()> {
    // The catalog lists a database's collections by name, so the graph comes out sorted.
    let mut graph: Graph = catalog
        .collections(db)
        .filter_map(|(coll, c)| {
            let on = c.options.get_str("viewOn").ok()?;
            let stages = c
                .options
                .get_array("pipeline")
                .map(Vec::as_slice)
                .unwrap_or_default();
            Some((coll.to_string(), dependencies(on, stages)))
        })
        .collect();
    debug_assert!(graph.windows(2).all(|w| w[0].0 < w[1].0));
    let defined = dependencies(view_on, pipeline);
    match graph.binary_search_by(|(v, _)| v.as_str().cmp(name)) {
        Ok(i) => graph[i].1 = defined,
        Err(i) => graph.insert(i, (name.to_string(), defined)),
    }
    if let Some(cycle) = cycle_through(&graph, name) {
        return Err(Error::new(
            ErrorCode::GraphContainsCycle,
            format!("View cycle detected: {}", cycle.join(" => ")),
        ));
    }
    let mut heights = vec![None; graph.len()];
    for view in 0..graph.len() {
        if height(&graph, view, &mut heights) > MAX_VIEW_DEPTH {
            return Err(Error::new(
                ErrorCode::ViewDepthLimitExceeded,
                format!("View depth limit exceeded; maximum depth is {MAX_VIEW_DEPTH}"),
            ));
        }
    }
    Ok(())
}

/// A path of views from `start` back to itself, when there is one. Each view is walked once.
fn cycle_through(graph: &Graph, start: &str) -> Option<Vec<String>> {
    let mut visited = BTreeSet::new();
    let mut path = vec![start.to_string()];
    if walk(graph, start, start, &mut visited, &mut path) {
        Some(path)
    } else {
        None
    }
}

fn walk(
    graph: &Graph,
    start: &str,
    node: &str,
    visited: &mut BTreeSet<String>,
    path: &mut Vec<String>,
) -> bool {
    let Some(at) = position(graph, node) else {
        return false;
    };
    for child in &graph[at].1 {
        path.push(child.clone());
        if child == start {
            return true;
        }
        if visited.insert(child.clone()) && walk(graph, start, child, visited, path) {
            return true;
        }
        path.pop();
    }
    false
}

/// How many views deep the view at `view` in the graph is: 1 for a view on collections only,
/// one more than its deepest view dependency otherwise. Memoised in `heights` (by position in
/// the graph), so each view is walked once however many views share it. A cycle (definitions
/// written to `system.views` directly are not checked) counts as deeper than the limit.
fn height(graph: &Graph, view: usize, heights: &mut [Option<usize>]) -> usize {
    if let Some(h) = heights[view] {
        return h;
    }
    // Marks the walk in progress: meeting `view` again below is a cycle.
    heights[view] = Some(MAX_VIEW_DEPTH + 1);
    let deepest = graph[view]
        .1
        .iter()
        .filter_map(|c| position(graph, c))
        .map(|c| height(graph, c, heights))
        .max()
        .unwrap_or(0);
    let h = (deepest + 1).min(MAX_VIEW_DEPTH + 1);
    heights[view] = Some(h);
    h
}

#[cfg(test)]
mod tests {
    use bson::{Document, doc};

    use super::*;
    use crate::catalog::{Collection, Namespace};

    fn catalog_with(views: &[(&str, &str, Vec<Bson>)]) -> Catalog {
        let mut catalog = Catalog::default();
        for (name, on, pipeline) in views {
            let options: Document = doc! {"viewOn": *on, "pipeline": pipeline.clone()};
            catalog.insert_collection(
                &Namespace::new("db", *name),
                Collection::with_options(options),
            );
        }
        catalog
    }

    fn lookup(from: &str) -> Bson {
        Bson::Document(
            doc! {"$lookup": {"from": from, "as": "x", "localField": "a", "foreignField": "b"}},
        )
    }

    fn code(r: Result<()>) -> Option<ErrorCode> {
        r.err().map(|e| e.code)
    }

    #[test]
    fn a_view_on_itself_or_through_others_is_a_cycle() {
        let empty = catalog_with(&[]);
        assert_eq!(
            code(check_definition(&empty, "db", "a", "a", &[])),
            Some(ErrorCode::GraphContainsCycle)
        );
        assert_eq!(
            code(check_definition(&empty, "db", "a", "b", &[lookup("a")])),
            Some(ErrorCode::GraphContainsCycle)
        );
        let chain = catalog_with(&[("a", "b", vec![]), ("b", "c", vec![])]);
        assert_eq!(
            code(check_definition(&chain, "db", "c", "a", &[])),
            Some(ErrorCode::GraphContainsCycle)
        );
        let facet = Bson::Document(doc! {"$facet": {"f": [lookup("a")]}});
        assert_eq!(
            code(check_definition(&chain, "db", "c", "x", &[facet])),
            Some(ErrorCode::GraphContainsCycle)
        );
        assert_eq!(code(check_definition(&chain, "db", "c", "d", &[])), None);
    }

    #[test]
    fn a_cycle_already_stored_ends_the_walk() {
        // Written through system.views, unchecked: x and y read each other.
        let catalog = catalog_with(&[("x", "y", vec![]), ("y", "x", vec![])]);
        assert_eq!(
            code(check_definition(&catalog, "db", "z", "c", &[])),
            Some(ErrorCode::ViewDepthLimitExceeded)
        );
    }

    #[test]
    fn twenty_views_deep_is_the_limit() {
        // v1 on v2 ... v20 on v21 (a collection): each also reads its child three more times.
        let views: Vec<(String, String)> = (1..=20)
            .map(|i| (format!("v{i}"), format!("v{}", i + 1)))
            .collect();
        let defs: Vec<(&str, &str, Vec<Bson>)> = views
            .iter()
            .map(|(n, on)| (n.as_str(), on.as_str(), vec![lookup(on), lookup(on)]))
            .collect();
        let catalog = catalog_with(&defs);
        let too_deep = Some(ErrorCode::ViewDepthLimitExceeded);
        assert_eq!(
            code(check_definition(&catalog, "db", "v21", "v22", &[])),
            too_deep
        );
        assert_eq!(
            code(check_definition(&catalog, "db", "v0", "v1", &[])),
            too_deep
        );
        assert_eq!(
            code(check_definition(
                &catalog,
                "db",
                "v0",
                "ok",
                &[lookup("v1")]
            )),
            too_deep
        );
        assert_eq!(
            code(check_definition(&catalog, "db", "vMid", "v10", &[])),
            None
        );
    }
}

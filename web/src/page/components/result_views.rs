//! The tree and table views of a result set (relaxed Extended JSON documents).

use leptos::prelude::*;
use serde_json::Value;

use crate::protocol::doc_text::{columns, compact, key_text, kind, leaf_text};

/// Documents as collapsible trees: a document or array opens to its fields; Extended JSON
/// wrappers (`ObjectId(…)`, `ISODate(…)`) are leaves.
#[component]
pub fn DocumentTree(docs: Vec<Value>) -> impl IntoView {
    view! {
        <div class="doc-tree" data-testid="tree">
            {docs.iter().map(|d| node(None, d, 0)).collect_view()}
        </div>
    }
}

/// One value of the tree; `label` is the field name (as mongosh writes it) or array index.
fn node(label: Option<String>, value: &Value, depth: usize) -> AnyView {
    let label = label.map(|k| view! { <span class="tree-key">{k}": "</span> });
    if let Some(text) = leaf_text(value) {
        return view! {
            <div class="tree-leaf">{label}<span class=format!("v-{}", kind(value))>{text}</span></div>
        }
        .into_any();
    }
    let (brief, children): (String, Vec<AnyView>) = match value {
        Value::Array(items) => (
            format!("Array ({})", items.len()),
            items
                .iter()
                .enumerate()
                .map(|(i, v)| node(Some(i.to_string()), v, depth + 1))
                .collect(),
        ),
        Value::Object(fields) => (
            format!(
                "{{ {} field{} }}",
                fields.len(),
                if fields.len() == 1 { "" } else { "s" }
            ),
            fields
                .iter()
                .map(|(k, v)| node(Some(key_text(k)), v, depth + 1))
                .collect(),
        ),
        _ => (String::new(), Vec::new()),
    };
    // Top-level documents and their first level are open; deeper levels start closed.
    view! {
        <details class="tree-node" open={depth < 2}>
            <summary>{label}<span class="tree-brief">{brief}</span></summary>
            <div class="tree-children">{children}</div>
        </details>
    }
    .into_any()
}

/// Documents as a table: one column per top-level field (the union over the documents), nested
/// values written compactly on one line.
#[component]
pub fn DocumentTable(docs: Vec<Value>) -> impl IntoView {
    let cols = columns(&docs);
    let head = cols
        .iter()
        .map(|c| view! { <th>{c.clone()}</th> })
        .collect_view();
    let rows = docs
        .iter()
        .map(|d| {
            let cells =
                cols.iter()
                    .map(|c| match d.get(c) {
                        Some(v) => view! { <td class=format!("v-{}", kind(v))>{compact(v)}</td> }
                            .into_any(),
                        None => view! { <td class="missing"></td> }.into_any(),
                    })
                    .collect_view();
            view! { <tr>{cells}</tr> }
        })
        .collect_view();
    view! {
        <div class="doc-table-wrap" tabindex="0">
            <table class="doc-table" data-testid="table">
                <thead><tr>{head}</tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}

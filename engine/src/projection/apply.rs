//! Applying a parsed projection to a document.

use bson::{Bson, Document};

use super::{Action, MetaKind, Mode, Node, Projection, ProjectionInput};
use crate::error::{Error, Result};
use crate::expression::Vars;

struct Ctx<'a> {
    root: &'a Document,
    input: &'a ProjectionInput<'a>,
}

pub fn apply(p: &Projection, doc: &Document, input: &ProjectionInput<'_>) -> Result<Document> {
    let ctx = Ctx { root: doc, input };
    match p.mode {
        Mode::Inclusion => include_doc(&p.root, doc, &ctx, p.positional),
        Mode::Exclusion => exclude_doc(&p.root, doc, &ctx),
    }
}

fn action<'n>(node: &'n Node, key: &str) -> Option<&'n Action> {
    node.fields.iter().find(|(k, _)| k == key).map(|(_, a)| a)
}

/// Inclusion: the included fields in document order, then computed, `$elemMatch` and `$meta`
/// fields in specification order. `positional` is whether the positional projection still has
/// to cut the first array on its path.
fn include_doc(node: &Node, src: &Document, ctx: &Ctx<'_>, positional: bool) -> Result<Document> {
    let mut out = Document::new();
    for (k, v) in src {
        match action(node, k) {
            Some(Action::Include) => {
                out.insert(k.clone(), v.clone());
            }
            Some(Action::Sub(child)) => match v {
                Bson::Document(d) => {
                    out.insert(k.clone(), include_doc(child, d, ctx, positional)?);
                }
                Bson::Array(items) if positional && child.positional => {
                    let kept = match positional_element(items, ctx)? {
                        Bson::Document(d) => {
                            vec![Bson::Document(include_doc(child, d, ctx, false)?)]
                        }
                        Bson::Array(inner) => vec![include_array(child, inner, ctx)?],
                        _ => Vec::new(),
                    };
                    out.insert(k.clone(), Bson::Array(kept));
                }
                Bson::Array(items) => {
                    out.insert(k.clone(), include_array(child, items, ctx)?);
                }
                _ => {}
            },
            Some(Action::Slice { skip, limit }) => {
                out.insert(k.clone(), slice(v, *skip, *limit));
            }
            Some(Action::Positional) => match v {
                Bson::Array(items) if positional => {
                    let el = positional_element(items, ctx)?;
                    out.insert(k.clone(), Bson::Array(vec![el.clone()]));
                }
                other => {
                    out.insert(k.clone(), other.clone());
                }
            },
            _ => {}
        }
    }
    add_computed(node, src, ctx, &mut out, true)?;
    Ok(out)
}

fn include_array(node: &Node, items: &[Bson], ctx: &Ctx<'_>) -> Result<Bson> {
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        match item {
            Bson::Document(d) => out.push(Bson::Document(include_doc(node, d, ctx, false)?)),
            Bson::Array(inner) => out.push(include_array(node, inner, ctx)?),
            _ => {}
        }
    }
    Ok(Bson::Array(out))
}

/// Computed fields, `$elemMatch` and `$meta`, in specification order. In an inclusion,
/// sub-projections that hold computed fields create their documents when missing.
fn add_computed(
    node: &Node,
    src: &Document,
    ctx: &Ctx<'_>,
    out: &mut Document,
    inclusion: bool,
) -> Result<()> {
    for (k, a) in &node.fields {
        match a {
            // In an inclusion, `$elemMatch` fields come last (see below); in an exclusion they
            // were placed in document order.
            Action::ElemMatch(_) => {}
            Action::Computed(e) => match e.eval(&Vars::new(ctx.root))? {
                Some(v) => {
                    out.insert(k.clone(), v);
                }
                None => {
                    out.remove(k);
                }
            },
            Action::Meta(kind) => match kind {
                MetaKind::TextScore => match ctx.input.text_score {
                    Some(score) => {
                        out.insert(k.clone(), score);
                    }
                    None => {
                        return Err(Error::location(
                            40218,
                            "query requires text score metadata, but it is not available",
                        ));
                    }
                },
                MetaKind::IndexKey => {
                    if let Some(key) = &ctx.input.index_key {
                        out.insert(k.clone(), key.clone());
                    }
                }
                MetaKind::RecordId => {
                    if let Some(id) = ctx.input.record_id {
                        out.insert(k.clone(), id);
                    }
                }
                MetaKind::SortKey => {
                    if let Some(key) = &ctx.input.sort_key {
                        out.insert(k.clone(), key.clone());
                    }
                }
                // The find checked that a near search computes them (40218 otherwise).
                MetaKind::GeoNearDistance => {
                    if let Some((d, _)) = ctx.input.geo_near {
                        out.insert(k.clone(), *d);
                    }
                }
                MetaKind::GeoNearPoint => {
                    if let Some((_, point)) = ctx.input.geo_near {
                        out.insert(k.clone(), point.clone());
                    }
                }
            },
            Action::Sub(child) if inclusion && has_computed(child) && !src.contains_key(k) => {
                let sub = include_doc(child, &Document::new(), ctx, false)?;
                out.insert(k.clone(), sub);
            }
            _ => {}
        }
    }
    if inclusion {
        for (k, a) in &node.fields {
            if let Action::ElemMatch(matcher) = a {
                out.remove(k);
                if let Some(el) = elem_match(matcher, src.get(k)) {
                    out.insert(k.clone(), el);
                }
            }
        }
    }
    Ok(())
}

/// `[first matching element]`, or `None` when the value is not an array or nothing matches.
fn elem_match(matcher: &crate::matcher::ElemMatch, v: Option<&Bson>) -> Option<Bson> {
    let v = v?;
    let Bson::Array(items) = v else {
        return None;
    };
    let el = items.get(matcher.first_match(v)?)?;
    Some(Bson::Array(vec![el.clone()]))
}

fn has_computed(node: &Node) -> bool {
    node.fields.iter().any(|(_, a)| match a {
        Action::Computed(_) => true,
        Action::Sub(child) => has_computed(child),
        _ => false,
    })
}

/// Exclusion: everything but the excluded fields, with `$slice` applied.
fn exclude_doc(node: &Node, src: &Document, ctx: &Ctx<'_>) -> Result<Document> {
    let mut out = Document::new();
    for (k, v) in src {
        match action(node, k) {
            Some(Action::Exclude) => {}
            Some(Action::Sub(child)) => match v {
                Bson::Document(d) => {
                    out.insert(k.clone(), exclude_doc(child, d, ctx)?);
                }
                Bson::Array(items) => {
                    out.insert(k.clone(), exclude_array(child, items, ctx)?);
                }
                other => {
                    out.insert(k.clone(), other.clone());
                }
            },
            Some(Action::Slice { skip, limit }) => {
                out.insert(k.clone(), slice(v, *skip, *limit));
            }
            Some(Action::ElemMatch(matcher)) => {
                if let Some(el) = elem_match(matcher, Some(v)) {
                    out.insert(k.clone(), el);
                }
            }
            _ => {
                out.insert(k.clone(), v.clone());
            }
        }
    }
    add_computed(node, src, ctx, &mut out, false)?;
    Ok(out)
}

fn exclude_array(node: &Node, items: &[Bson], ctx: &Ctx<'_>) -> Result<Bson> {
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        out.push(match item {
            Bson::Document(d) => Bson::Document(exclude_doc(node, d, ctx)?),
            Bson::Array(inner) => exclude_array(node, inner, ctx)?,
            other => other.clone(),
        });
    }
    Ok(Bson::Array(out))
}

/// `$slice`: `n` first elements, `-n` last, `[skip, limit]` (negative skip counts from the end).
fn slice(v: &Bson, skip: Option<i64>, limit: i64) -> Bson {
    let Bson::Array(items) = v else {
        return v.clone();
    };
    let len = items.len() as i64;
    let (start, count) = match skip {
        None if limit >= 0 => (0, limit),
        None => ((len + limit).max(0), len),
        Some(s) if s >= 0 => (s.min(len), limit),
        Some(s) => ((len + s).max(0), limit),
    };
    let start = usize::try_from(start).unwrap_or(0);
    let count = usize::try_from(count.max(0)).unwrap_or(0);
    Bson::Array(items.iter().skip(start).take(count).cloned().collect())
}

/// The element at the query's elemMatchKey, for the positional projection.
fn positional_element<'a>(items: &'a [Bson], ctx: &Ctx<'_>) -> Result<&'a Bson> {
    let key = ctx.input.elem_match_key.ok_or_else(|| {
        Error::location(
            51246,
            "Executor error during find command :: caused by :: positional operator '.$' \
             couldn't find a matching element in the array",
        )
    })?;
    items.get(key).ok_or_else(|| {
        Error::location(
            51247,
            "Executor error during find command :: caused by :: positional operator '.$' \
             element mismatch",
        )
    })
}

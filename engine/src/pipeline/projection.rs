//! Aggregation projections: the field trees behind `$project`, `$addFields`/`$set` and `$unset`.
//!
//! They differ from find's projections (`crate::projection`): no `$slice`, `$elemMatch` or
//! positional `a.$` (those are find-only; `$slice` here is the expression), errors carry the
//! stage's "Invalid $project :: caused by ::" context, nested arrays are recursed into, and a
//! computed field under a path is applied to every element of an array on the way
//! (`{"a.b": 1}` on `{a: [{}, 2]}` gives `{a: [{b: 1}, {b: 1}]}` in `$addFields`).

use bson::{Bson, Document};

use crate::error::{Error, Result};
use crate::expression::{EvalContext, Expression, Scope, Vars};

/// What a projection does with the fields it does not name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Keeps only the named fields (and `_id`), then adds computed fields.
    Inclusion,
    /// Keeps everything but the named fields.
    Exclusion,
    /// Keeps everything and sets computed fields (`$addFields`).
    AddFields,
}

/// One level of the projection: its fields in specification order.
#[derive(Debug, Clone, Default)]
struct Node {
    fields: Vec<(String, Field)>,
}

#[derive(Debug, Clone)]
enum Field {
    Include,
    Exclude,
    Computed(Box<Expression>),
    Child(Node),
}

/// A parsed aggregation projection.
#[derive(Debug, Clone)]
pub struct AggProjection {
    kind: Kind,
    root: Node,
}

impl AggProjection {
    /// Parses a `$project` specification.
    pub fn parse_project(spec: &Bson, scope: &Scope) -> Result<AggProjection> {
        let Bson::Document(spec) = spec else {
            return Err(Error::location(
                15969,
                "$project specification must be an object",
            ));
        };
        with_context("$project", parse_project_doc(spec, scope))
    }

    /// Parses an `$addFields`/`$set` specification (`stage` names it in errors).
    pub fn parse_add_fields(spec: &Bson, scope: &Scope, stage: &str) -> Result<AggProjection> {
        let Bson::Document(spec) = spec else {
            return Err(Error::location(
                40272,
                format!(
                    "{stage} specification stage must be an object, got {}",
                    type_of(spec)
                ),
            ));
        };
        let mut parser = Parser::new(scope, Some(Kind::AddFields));
        parser.fields(spec, "")?;
        Ok(AggProjection {
            kind: Kind::AddFields,
            root: parser.root,
        })
    }

    /// An exclusion of the given dotted paths (`$unset`).
    pub fn exclusion_of(paths: &[String]) -> Result<AggProjection> {
        let scope = Scope::default();
        let mut parser = Parser::new(&scope, Some(Kind::Exclusion));
        for path in paths {
            parser.check_path(path)?;
            parser.insert(path, Field::Exclude)?;
        }
        Ok(AggProjection {
            kind: Kind::Exclusion,
            root: parser.root,
        })
    }

    /// Applies the projection to one document (`$$ROOT` is the document).
    pub fn apply(&self, doc: &Document, context: &EvalContext) -> Result<Document> {
        self.apply_with_meta(doc, context, None)
    }

    /// [`AggProjection::apply`] to a document carrying `meta` (`{$meta: "textScore"}`).
    pub fn apply_with_meta(
        &self,
        doc: &Document,
        context: &EvalContext,
        meta: Option<&crate::expression::DocumentMeta>,
    ) -> Result<Document> {
        let vars = Vars::with_context(doc, context).with_meta(meta);
        match self.kind {
            Kind::Inclusion => {
                let mut out = include(&self.root, doc);
                add_computed(&self.root, &mut out, &vars)?;
                Ok(out)
            }
            Kind::Exclusion => {
                let mut out = exclude(&self.root, doc);
                if has_computed(&self.root) {
                    add_computed(&self.root, &mut out, &vars)?;
                }
                Ok(out)
            }
            Kind::AddFields => {
                let mut out = doc.clone();
                add_computed(&self.root, &mut out, &vars)?;
                Ok(out)
            }
        }
    }

    /// The paths the projection may change, for moving a `$match` ahead of it.
    pub fn modified_paths(&self) -> crate::pipeline::ModifiedPaths {
        use crate::pipeline::ModifiedPaths;
        let mut included = Vec::new();
        let mut changed = Vec::new();
        collect_paths(&self.root, "", &mut included, &mut changed);
        match self.kind {
            // Everything but the plainly included paths changes (other fields are dropped).
            Kind::Inclusion => ModifiedPaths::AllExcept(included),
            Kind::Exclusion | Kind::AddFields => ModifiedPaths::Only(changed),
        }
    }

    /// The top-level fields of its input an inclusion projection reads (`_id`, the included
    /// fields, the fields its expressions read); `None` for the other kinds (they keep what
    /// they do not name) or when an expression may read the whole document (`$$ROOT`).
    pub fn inclusion_reads(&self) -> Option<Vec<String>> {
        if self.kind != Kind::Inclusion {
            return None;
        }
        fn node<'e>(n: &'e Node, top: bool, out: &mut Vec<&'e str>) -> bool {
            n.fields.iter().all(|(name, f)| {
                if top && !out.contains(&name.as_str()) {
                    out.push(name);
                }
                match f {
                    Field::Include | Field::Exclude => true,
                    Field::Computed(e) => e.top_level_fields(out),
                    Field::Child(child) => node(child, false, out),
                }
            })
        }
        let mut out = vec!["_id"];
        node(&self.root, true, &mut out).then(|| out.into_iter().map(str::to_owned).collect())
    }

    /// The top-level fields computed as one top-level input field's value (`{z: "$a"}`), as
    /// `(z, a)` (MongoDB's projection `reportRenames`, for single-field paths).
    pub fn renames(&self) -> Vec<(String, String)> {
        if matches!(self.kind, Kind::Exclusion) {
            return Vec::new();
        }
        self.root
            .fields
            .iter()
            .filter_map(|(k, f)| match f {
                Field::Computed(e) => match e.as_ref() {
                    Expression::Path(p) if p.reads_document() && p.fields().len() == 1 => {
                        Some((k.clone(), p.fields()[0].clone()))
                    }
                    _ => None,
                },
                _ => None,
            })
            .collect()
    }

    /// The specification as explain shows it (`{_id: true, a: true, b: {$add: …}}`).
    pub fn serialize(&self) -> Document {
        serialize_node(&self.root)
    }
}

/// The dotted paths of a node's leaves: included ones, and excluded or computed ones.
fn collect_paths(node: &Node, prefix: &str, included: &mut Vec<String>, changed: &mut Vec<String>) {
    for (k, f) in &node.fields {
        let path = if prefix.is_empty() {
            k.clone()
        } else {
            format!("{prefix}.{k}")
        };
        match f {
            Field::Include => included.push(path),
            Field::Exclude | Field::Computed(_) => changed.push(path),
            Field::Child(child) => collect_paths(child, &path, included, changed),
        }
    }
}

fn serialize_node(node: &Node) -> Document {
    node.fields
        .iter()
        .map(|(k, f)| {
            let v = match f {
                Field::Include => Bson::Boolean(true),
                Field::Exclude => Bson::Boolean(false),
                Field::Computed(e) => e.serialize(),
                Field::Child(child) => Bson::Document(serialize_node(child)),
            };
            (k.clone(), v)
        })
        .collect()
}

fn type_of(v: &Bson) -> &'static str {
    crate::value::display::type_name(v)
}

/// Adds MongoDB's "Invalid $project :: caused by ::" context to a parse error.
fn with_context<T>(stage: &str, r: Result<T>) -> Result<T> {
    r.map_err(|mut e| {
        e.message = format!("Invalid {stage} :: caused by :: {}", e.message);
        e
    })
}

fn parse_project_doc(spec: &Document, scope: &Scope) -> Result<AggProjection> {
    if spec.is_empty() {
        return Err(Error::location(
            51272,
            "projection specification must have at least one field",
        ));
    }
    let mut parser = Parser::new(scope, None);
    parser.fields(spec, "")?;
    let kind = match parser.kind {
        Some(k) => k,
        // Only `_id` was named: `{_id: 0}` is an exclusion, `{_id: 1}` an inclusion.
        None => match parser.root.fields.first() {
            Some((_, Field::Exclude)) => Kind::Exclusion,
            _ => Kind::Inclusion,
        },
    };
    if kind == Kind::Inclusion && !parser.root.fields.iter().any(|(k, _)| k == "_id") {
        parser.root.fields.insert(0, ("_id".into(), Field::Include));
    }
    Ok(AggProjection {
        kind,
        root: parser.root,
    })
}

struct Parser<'s> {
    scope: &'s Scope,
    kind: Option<Kind>,
    root: Node,
}

impl<'s> Parser<'s> {
    fn new(scope: &'s Scope, kind: Option<Kind>) -> Self {
        Parser {
            scope,
            kind,
            root: Node::default(),
        }
    }

    fn fields(&mut self, spec: &Document, prefix: &str) -> Result<()> {
        for (key, value) in spec {
            if key.is_empty() {
                return Err(Error::location(
                    40352,
                    "FieldPath cannot be constructed with empty string",
                ));
            }
            let path = if prefix.is_empty() {
                key.clone()
            } else {
                format!("{prefix}.{key}")
            };
            self.field(&path, value)?;
        }
        Ok(())
    }

    fn check_path(&self, path: &str) -> Result<()> {
        if path.is_empty() {
            return Err(Error::location(
                40352,
                "FieldPath cannot be constructed with empty string",
            ));
        }
        if path.split('.').any(str::is_empty) {
            return Err(Error::location(
                15998,
                "FieldPath field names may not be empty strings.",
            ));
        }
        if self.kind != Some(Kind::AddFields) && path.split('.').any(|p| p == "$") {
            return Err(Error::location(
                31324,
                "Cannot use positional projection in aggregation projection",
            ));
        }
        if path.split('.').any(|p| p.starts_with('$')) {
            return Err(Error::location(
                16410,
                "FieldPath field names may not start with '$'. Consider using $getField or \
                 $setField.",
            ));
        }
        Ok(())
    }

    fn field(&mut self, path: &str, value: &Bson) -> Result<()> {
        self.check_path(path)?;
        if self.kind == Some(Kind::AddFields) {
            return self.add_field(path, value);
        }
        match value {
            Bson::Boolean(_)
            | Bson::Int32(_)
            | Bson::Int64(_)
            | Bson::Double(_)
            | Bson::Decimal128(_) => {
                if crate::expression::value_truthy(value) {
                    self.set_kind(path, Kind::Inclusion)?;
                    self.insert(path, Field::Include)
                } else {
                    self.set_kind(path, Kind::Exclusion)?;
                    self.insert(path, Field::Exclude)
                }
            }
            Bson::Document(d) => match d.keys().next() {
                None => Err(Error::location(
                    51270,
                    "An empty sub-projection is not a valid value. Found empty object at path",
                )),
                Some(op) if op.starts_with('$') => self.computed(path, value),
                Some(_) => self.fields(d, path),
            },
            _ => self.computed(path, value),
        }
    }

    /// `$addFields`: every value is an expression; plain sub-documents nest.
    fn add_field(&mut self, path: &str, value: &Bson) -> Result<()> {
        match value {
            Bson::Document(d) if d.keys().next().is_some_and(|k| !k.starts_with('$')) => {
                self.fields(d, path)
            }
            _ => {
                let expr = Expression::parse_in(value, self.scope)?;
                self.insert(path, Field::Computed(Box::new(expr)))
            }
        }
    }

    fn computed(&mut self, path: &str, value: &Bson) -> Result<()> {
        let expr = Expression::parse_in(value, self.scope)?;
        // `$meta` fits an exclusion as well as an inclusion (MongoDB's projection AST: a
        // metadata field is neither), `{a: 0, score: {$meta: "textScore"}}`.
        if let Bson::Document(d) = value
            && d.len() == 1
            && d.contains_key("$meta")
        {
            return self.insert(path, Field::Computed(Box::new(expr)));
        }
        if self.kind == Some(Kind::Exclusion) {
            return Err(Error::location(
                31252,
                "Cannot use expression other than $meta in exclusion projection",
            ));
        }
        self.set_kind(path, Kind::Inclusion)?;
        self.insert(path, Field::Computed(Box::new(expr)))
    }

    /// The inclusion/exclusion rule; the top-level `_id` may be excluded in either kind.
    fn set_kind(&mut self, path: &str, kind: Kind) -> Result<()> {
        if path == "_id" {
            return Ok(());
        }
        match self.kind {
            None => {
                self.kind = Some(kind);
                Ok(())
            }
            Some(k) if k == kind => Ok(()),
            Some(Kind::Inclusion) => Err(Error::location(
                31254,
                format!("Cannot do exclusion on field {path} in inclusion projection"),
            )),
            Some(_) => Err(Error::location(
                31253,
                format!("Cannot do inclusion on field {path} in exclusion projection"),
            )),
        }
    }

    /// Places a leaf at a dotted path, reporting collisions as MongoDB does.
    fn insert(&mut self, path: &str, field: Field) -> Result<()> {
        let parts: Vec<&str> = path.split('.').collect();
        let mut node = &mut self.root;
        for (i, part) in parts.iter().enumerate() {
            let pos = node.fields.iter().position(|(k, _)| k == part);
            if i + 1 == parts.len() {
                if pos.is_some() {
                    return Err(Error::location(31250, format!("Path collision at {path}")));
                }
                node.fields.push(((*part).to_string(), field));
                return Ok(());
            }
            let idx = match pos {
                Some(idx) => idx,
                None => {
                    node.fields
                        .push(((*part).to_string(), Field::Child(Node::default())));
                    node.fields.len() - 1
                }
            };
            match node.fields.get_mut(idx) {
                Some((_, Field::Child(child))) => node = child,
                _ => {
                    let remaining = parts.get(i + 1..).unwrap_or_default().join(".");
                    return Err(Error::location(
                        31249,
                        format!("Path collision at {path} remaining portion {remaining}"),
                    ));
                }
            }
        }
        Ok(())
    }
}

fn find_field<'n>(node: &'n Node, key: &str) -> Option<&'n Field> {
    node.fields.iter().find(|(k, _)| k == key).map(|(_, f)| f)
}

/// Inclusion: the included fields, in the input document's order.
fn include(node: &Node, src: &Document) -> Document {
    let mut out = crate::value::empty_document();
    for (k, v) in src {
        match find_field(node, k) {
            Some(Field::Include) => {
                out.insert(k.clone(), v.clone());
            }
            Some(Field::Child(child)) => {
                if let Some(v) = include_value(child, v) {
                    out.insert(k.clone(), v);
                }
            }
            _ => {}
        }
    }
    out
}

/// A sub-projection applied to a value: documents are projected, arrays element by element,
/// other values vanish. In an array, an element that vanishes leaves a hole that the
/// sub-projection's computed fields fill with a new document (MongoDB keeps the missing value
/// in the array until expressions run): `{"a.b": 1, "a.g": [1]}` on `{a: [{c: 0}, 2]}` gives
/// `{a: [{g: [1]}, {g: [1]}]}`; without computed fields the hole is dropped.
fn include_value(node: &Node, v: &Bson) -> Option<Bson> {
    match v {
        Bson::Document(d) => Some(Bson::Document(include(node, d))),
        Bson::Array(items) => {
            let fill = has_computed(node);
            let hole = || fill.then(|| Bson::Document(Document::new()));
            Some(Bson::Array(
                items
                    .iter()
                    .filter_map(|i| include_value(node, i).or_else(hole))
                    .collect(),
            ))
        }
        _ => None,
    }
}

/// Exclusion: everything but the excluded fields.
fn exclude(node: &Node, src: &Document) -> Document {
    let mut out = crate::value::empty_document();
    for (k, v) in src {
        match find_field(node, k) {
            Some(Field::Exclude) => {}
            Some(Field::Child(child)) => {
                out.insert(k.clone(), exclude_value(child, v));
            }
            _ => {
                out.insert(k.clone(), v.clone());
            }
        }
    }
    out
}

fn exclude_value(node: &Node, v: &Bson) -> Bson {
    match v {
        Bson::Document(d) => Bson::Document(exclude(node, d)),
        Bson::Array(items) => Bson::Array(items.iter().map(|i| exclude_value(node, i)).collect()),
        other => other.clone(),
    }
}

fn has_computed(node: &Node) -> bool {
    node.fields.iter().any(|(_, f)| match f {
        Field::Computed(_) => true,
        Field::Child(child) => has_computed(child),
        _ => false,
    })
}

/// Sets the computed fields of `node` in `out`, in specification order: an existing field keeps
/// its place, a new one is appended, and a missing result (`$$REMOVE`) removes the field.
fn add_computed(node: &Node, out: &mut Document, vars: &Vars<'_>) -> Result<()> {
    for (k, f) in &node.fields {
        match f {
            Field::Computed(e) => match e.eval(vars)? {
                Some(v) => {
                    // An existing field keeps its place (`insert` replaces in place).
                    out.insert(k.clone(), v);
                }
                None => {
                    out.remove(k);
                }
            },
            Field::Child(child) if has_computed(child) => {
                let v = computed_value(child, out.get(k), vars)?;
                out.insert(k.clone(), v);
            }
            _ => {}
        }
    }
    Ok(())
}

/// Applies a sub-tree's computed fields to an existing value: into a document, into each element
/// of an array, and otherwise into a new document that replaces the value.
fn computed_value(node: &Node, existing: Option<&Bson>, vars: &Vars<'_>) -> Result<Bson> {
    match existing {
        Some(Bson::Document(d)) => {
            let mut d = d.clone();
            add_computed(node, &mut d, vars)?;
            Ok(Bson::Document(d))
        }
        Some(Bson::Array(items)) => {
            let mut out = Vec::with_capacity(items.len());
            for item in items {
                out.push(computed_value(node, Some(item), vars)?);
            }
            Ok(Bson::Array(out))
        }
        _ => {
            let mut d = Document::new();
            add_computed(node, &mut d, vars)?;
            Ok(Bson::Document(d))
        }
    }
}

//! Aggregation expressions (`{$add: ["$a", 1]}`, `"$field"`, `{$literal: ...}`), parsed once into
//! an [`Expression`] tree and evaluated against a document. `$expr` in filters and computed
//! fields in projections use it; the aggregation framework adds operators to it.
//!
//! Adding operators: write a family file (`string.rs`, `date.rs`...) with an `OPERATORS` table
//! of [`operators::OperatorDef`] and list the table in `operators::FAMILIES`. Nothing else
//! changes: parsing, arity checks and evaluation go through the table.
//!
//! A value an expression produces may be *missing* (`None`), which differs from null as in
//! MongoDB: `{$eq: ["$nope", null]}` is false.

mod accumulators;
mod arithmetic;
mod array;
mod bin_data;
mod bitwise;
mod comparison;
mod conditional;
mod context;
mod convert;
pub(crate) mod date;
mod field_path;
mod logical;
mod math;
pub mod memory;
pub mod meta;
mod named_args;
mod object;
pub mod operators;
mod set;
mod string;
mod trigonometry;
mod type_ops;
mod variables;

#[cfg(test)]
mod tests;

use bson::{Bson, Document};

use crate::error::{Error, Result};
pub use context::EvalContext;
pub use field_path::FieldPathExpr;
pub use field_path::check_variable_name_for_write;
pub use meta::{DocumentMeta, MetaAvailable, MetaField};
use operators::OperatorDef;

/// Operators that give a new value on every evaluation, never folded into constants.
/// `$meta` reads the document's metadata, which a constant argument does not show.
const NOT_FOLDABLE: &[&str] = &["$rand", "$meta"];

/// A parsed expression.
#[derive(Debug, Clone)]
pub enum Expression {
    /// A constant (including `{$literal: v}`).
    Constant(Bson),
    /// `"$a.b"`, `"$$ROOT.a"`, `"$$CURRENT"`.
    Path(FieldPathExpr),
    /// `[e1, e2]`: an array of expressions.
    Array(Vec<Expression>),
    /// `{a: e1, b: e2}`: a document of expressions.
    Object(Vec<(String, Expression)>),
    /// `{$op: args}`.
    Operator {
        def: &'static OperatorDef,
        args: Vec<Expression>,
    },
}

/// What an expression is evaluated against.
#[derive(Debug, Clone, Copy)]
pub struct Vars<'a> {
    /// `$$ROOT`.
    pub root: &'a Document,
    /// `$$CURRENT` (the root unless a stage rebinds it).
    pub current: &'a Document,
    /// Variables bound while evaluating (`$let`, `$map`'s `as`...), innermost last.
    pub bound: &'a [(String, Bson)],
    /// The command's time (`$$NOW`) and random generator (`$rand`).
    pub context: &'a EvalContext,
    /// The document's metadata (`{$meta: "textScore"}`), when a query computed some.
    pub meta: Option<&'a DocumentMeta>,
}

impl<'a> Vars<'a> {
    /// Variables for a document, without an engine's context (`$$NOW` is unavailable).
    pub fn new(doc: &'a Document) -> Self {
        Vars::with_context(doc, EvalContext::detached())
    }

    /// Variables for a document in a command's evaluation context.
    pub fn with_context(doc: &'a Document, context: &'a EvalContext) -> Self {
        Vars {
            root: doc,
            current: doc,
            bound: &[],
            context,
            meta: None,
        }
    }

    /// The same variables reading `meta` for `{$meta: …}`.
    pub fn with_meta(self, meta: Option<&'a DocumentMeta>) -> Vars<'a> {
        Vars { meta, ..self }
    }

    /// The same variables with more bound on top (`$let`, `$map`'s `as`): `bound` holds
    /// the outer bindings followed by the new ones.
    pub fn rebound(&self, bound: &'a [(String, Bson)]) -> Vars<'a> {
        Vars { bound, ..*self }
    }

    /// The value of a bound variable.
    pub fn variable(&self, name: &str) -> Option<&'a Bson> {
        self.bound
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v)
    }
}

/// The variables an expression may name when it is parsed: constants from a command's `let`
/// (substituted at parse time) and names that operators bind while evaluating.
#[derive(Debug, Clone, Default)]
pub struct Scope {
    /// `None` is a constant whose expression evaluated to missing (`$$name` is then missing).
    pub constants: Vec<(String, Option<Bson>)>,
    pub bound: Vec<String>,
    /// `$$NOW` and `$$CLUSTER_TIME` fixed at parse time, for commands whose evaluation has no
    /// context of its own (`find` projections and filters).
    pub clock: Option<(Bson, Bson)>,
}

impl Scope {
    /// A scope from a command's `let` document: each value is an expression evaluated once,
    /// against an empty document, as MongoDB does; one that reads the document (`"$a"`,
    /// `"$$ROOT"`) is error 4890500.
    pub fn from_let(let_vars: &Document) -> Result<Scope> {
        Scope::from_let_in(let_vars, EvalContext::detached())
    }

    /// [`Scope::from_let`] in a command's evaluation context (`let: {t: "$$NOW"}`).
    pub fn from_let_in(let_vars: &Document, context: &EvalContext) -> Result<Scope> {
        let mut scope = Scope::default();
        let empty = Document::new();
        for (name, value) in let_vars {
            field_path::check_user_variable_name(name)?;
            let expression = Expression::parse_in(value, &scope)?;
            if expression.reads_document() {
                // MongoDB's message lacks the space after "because".
                return Err(Error::location(
                    4890500,
                    "Command let Expression tried to access a field, but this is not allowed \
                     becauseCommand let Expressions run before the query examines any documents.",
                ));
            }
            let v = expression.evaluate_in(&empty, context)?;
            scope.constants.push((name.clone(), v));
        }
        Ok(scope)
    }

    /// Fixes `$$NOW` and `$$CLUSTER_TIME` to the context's values for everything parsed in
    /// this scope.
    pub fn with_clock(mut self, context: &EvalContext) -> Result<Scope> {
        self.clock = Some((context.now()?, context.cluster_time()?));
        Ok(self)
    }

    /// Binds `name` for an inner expression (`$let`, `$map`'s `as`): it shadows a command
    /// `let` constant of the same name.
    pub fn bind(&mut self, name: &str) {
        self.constants.retain(|(n, _)| n != name);
        self.bound.push(name.to_string());
    }
}

/// The operators besides array and object literals whose result can nest deeper than their
/// arguments (a `$reduce` repeating one of them would otherwise build an unbounded depth).
const NESTING_OPERATORS: &[&str] = &["$setField", "$objectToArray", "$arrayToObject", "$zip"];

impl Expression {
    /// Parses an expression that names no user variables.
    pub fn parse(v: &Bson) -> Result<Expression> {
        Expression::parse_in(v, &Scope::default())
    }

    /// Parses an expression in a variable scope.
    pub fn parse_in(v: &Bson, scope: &Scope) -> Result<Expression> {
        match v {
            Bson::String(s) if s.starts_with('$') => {
                Ok(Expression::Path(FieldPathExpr::parse_in(s, scope)?))
            }
            Bson::Array(items) => {
                let items: Vec<Expression> = items
                    .iter()
                    .map(|i| Expression::parse_in(i, scope))
                    .collect::<Result<_>>()?;
                // An array of constants is itself a constant (MongoDB's optimize step).
                if items.iter().all(|i| i.as_constant().is_some()) {
                    let values = items.into_iter().filter_map(Expression::into_constant);
                    return Ok(Expression::Constant(Bson::Array(values.collect())));
                }
                Ok(Expression::Array(items))
            }
            Bson::Document(d) => Expression::parse_document(d, scope),
            other => Ok(Expression::Constant(other.clone())),
        }
    }

    fn parse_document(d: &Document, scope: &Scope) -> Result<Expression> {
        let Some((first, arg)) = d.iter().next() else {
            return Ok(Expression::Object(Vec::new()));
        };
        if first.starts_with('$') {
            if d.len() != 1 {
                return Err(Error::location(
                    15983,
                    format!(
                        "an expression specification must contain exactly one field, the name \
                         of the expression. Found {} fields in {}",
                        d.len(),
                        crate::value::display::key_value(&Bson::Document(d.clone()))
                    ),
                ));
            }
            // `$const` is MongoDB's older name for `$literal` (both parse to ExpressionConstant).
            if first == "$literal" || first == "$const" {
                return Ok(Expression::Constant(arg.clone()));
            }
            let Some(def) = operators::lookup(first) else {
                return Err(Error::location(
                    168,
                    format!("Unrecognized expression '{first}'"),
                ));
            };
            let args = (def.parse_args)(def, arg, scope)?;
            return Expression::Operator { def, args }.fold_constants();
        }
        let mut fields = Vec::with_capacity(d.len());
        for (k, v) in d {
            // MongoDB's ExpressionObject checks each name as a field path component.
            if k.is_empty() {
                return Err(Error::location(
                    15998,
                    "FieldPath field names may not be empty strings.",
                ));
            }
            if k.starts_with('$') {
                return Err(Error::location(
                    16404,
                    format!(
                        "FieldPath field names may not start with '$'. Consider using \
                         $getField or $setField. Found: {k}"
                    ),
                ));
            }
            fields.push((k.clone(), Expression::parse_in(v, scope)?));
        }
        if fields.iter().all(|(_, e)| e.as_constant().is_some()) {
            let doc = fields
                .into_iter()
                .filter_map(|(k, e)| Some((k, e.into_constant()?)))
                .collect();
            return Ok(Expression::Constant(Bson::Document(doc)));
        }
        Ok(Expression::Object(fields))
    }

    /// MongoDB's optimize step: an operator whose arguments are all constants is evaluated
    /// once, when it is parsed, so `{$and: [false, {$divide: [1, 0]}]}` fails even though the
    /// division would never run. `$rand` stays an operator.
    fn fold_constants(self) -> Result<Expression> {
        let Expression::Operator { def, args } = &self else {
            return Ok(self);
        };
        if NOT_FOLDABLE.contains(&def.name) {
            return Ok(self);
        }
        if !args.iter().all(|a| a.as_constant().is_some()) {
            return self.short_circuit();
        }
        match self.evaluate(&Document::new())? {
            Some(v) => Ok(Expression::Constant(v)),
            None => Ok(self),
        }
    }

    /// MongoDB's ExpressionAnd/ExpressionOr::optimize when some arguments are constant: the
    /// constants (gathered at the end by ExpressionNary::optimize) decide the whole
    /// expression when one is false for `$and` (true for `$or`); otherwise they change nothing
    /// and are dropped, leaving the other arguments (jstests/aggregation/bugs/
    /// server6192_server6193.js reads the result in explain).
    fn short_circuit(self) -> Result<Expression> {
        let Expression::Operator { def, args } = self else {
            return Ok(self);
        };
        let decisive = match def.name {
            "$and" => false,
            "$or" => true,
            _ => return Ok(Expression::Operator { def, args }),
        };
        let (constants, others): (Vec<Expression>, Vec<Expression>) =
            args.into_iter().partition(|a| a.as_constant().is_some());
        if constants.is_empty() {
            return Ok(Expression::Operator { def, args: others });
        }
        let folded = Expression::Operator {
            def,
            args: constants,
        }
        .evaluate(&Document::new())?;
        if folded == Some(Bson::Boolean(decisive)) {
            return Ok(Expression::Constant(Bson::Boolean(decisive)));
        }
        Ok(Expression::Operator { def, args: others })
    }

    fn into_constant(self) -> Option<Bson> {
        match self {
            Expression::Constant(v) => Some(v),
            _ => None,
        }
    }

    /// Evaluates against a document (`$$ROOT` and `$$CURRENT` are the document).
    pub fn evaluate(&self, doc: &Document) -> Result<Option<Bson>> {
        self.eval(&Vars::new(doc))
    }

    /// Evaluates against a document in a command's evaluation context.
    pub fn evaluate_in(&self, doc: &Document, context: &EvalContext) -> Result<Option<Bson>> {
        self.eval(&Vars::with_context(doc, context))
    }

    /// Evaluates with explicit variables. `None` is a missing value.
    pub fn eval(&self, vars: &Vars<'_>) -> Result<Option<Bson>> {
        match self {
            Expression::Constant(v) => Ok(Some(v.clone())),
            Expression::Path(p) => p.evaluate(vars),
            Expression::Array(items) => {
                let mut out = Vec::with_capacity(items.len());
                let mut budget = memory::ArrayBudget::new("an array literal");
                for e in items {
                    // A missing value in an array literal becomes null.
                    let v = e.eval(vars)?.unwrap_or(Bson::Null);
                    crate::value::nesting::check_built_value_depth(&v)?;
                    budget.add(memory::value_memory(&v))?;
                    out.push(v);
                }
                Ok(Some(Bson::Array(out)))
            }
            Expression::Object(fields) => {
                let mut out = Document::new();
                let mut budget = memory::ArrayBudget::new("an object literal");
                for (k, e) in fields {
                    if let Some(v) = e.eval(vars)? {
                        crate::value::nesting::check_built_value_depth(&v)?;
                        budget.add(memory::value_memory(&v))?;
                        out.insert(k.clone(), v);
                    }
                }
                Ok(Some(Bson::Document(out)))
            }
            Expression::Operator { def, args } => {
                let out = (def.eval)(args, vars)?;
                // Operators that put a value one or two levels inside a new container.
                if NESTING_OPERATORS.contains(&def.name)
                    && let Some(v) = &out
                {
                    crate::value::nesting::check_value_depth(v)?;
                }
                Ok(out)
            }
        }
    }

    /// Whether evaluating the expression reads the document (a field path, `$$ROOT`,
    /// `$$CURRENT`).
    pub fn reads_document(&self) -> bool {
        match self {
            Expression::Constant(_) => false,
            Expression::Path(p) => p.reads_document(),
            Expression::Array(items) => items.iter().any(Expression::reads_document),
            Expression::Object(fields) => fields.iter().any(|(_, e)| e.reads_document()),
            // `$meta` reads the document's metadata (a count-only find would hand on none).
            Expression::Operator { def, .. } if def.name == "$meta" => true,
            Expression::Operator { args, .. } => args.iter().any(Expression::reads_document),
        }
    }

    /// Collects the top-level fields of the document the expression reads (`"$a.b"` reads
    /// `a`); `false` when it reads the whole document (`$$ROOT`, `$$CURRENT`), so that no
    /// set of fields stands for it. An expression that reads only these fields evaluates the
    /// same against a document holding only them (`$group` over stored bytes).
    pub fn top_level_fields<'e>(&'e self, out: &mut Vec<&'e str>) -> bool {
        match self {
            Expression::Constant(_) => true,
            Expression::Path(p) => {
                if !p.reads_document() {
                    return true;
                }
                match p.fields().first() {
                    Some(first) => {
                        if !out.contains(&first.as_str()) {
                            out.push(first);
                        }
                        true
                    }
                    None => false,
                }
            }
            Expression::Array(items) => items.iter().all(|e| e.top_level_fields(out)),
            Expression::Object(fields) => fields.iter().all(|(_, e)| e.top_level_fields(out)),
            Expression::Operator { args, .. } => args.iter().all(|e| e.top_level_fields(out)),
        }
    }

    /// The expression as MongoDB's explain prints it (constants as `{$const: v}`).
    pub fn serialize(&self) -> Bson {
        match self {
            Expression::Constant(v) => Bson::Document(bson::doc! {"$const": v.clone()}),
            Expression::Path(p) => p.serialize(),
            Expression::Array(items) => {
                Bson::Array(items.iter().map(Expression::serialize).collect())
            }
            Expression::Object(fields) => Bson::Document(
                fields
                    .iter()
                    .map(|(k, e)| (k.clone(), e.serialize()))
                    .collect(),
            ),
            Expression::Operator { def, args } => {
                if let Some(named) = array::serialize_named(def.name, args) {
                    return named;
                }
                let args: Vec<Bson> = args.iter().map(Expression::serialize).collect();
                Bson::Document(bson::doc! {def.name: args})
            }
        }
    }

    /// Whether the expression is a constant (for projections: `{a: 1}` is not a computed field).
    pub fn as_constant(&self) -> Option<&Bson> {
        match self {
            Expression::Constant(v) => Some(v),
            _ => None,
        }
    }
}

/// MongoDB's truthiness: false, null, missing, undefined and numeric zero are false.
pub fn truthy(v: &Option<Bson>) -> bool {
    match v {
        None => false,
        Some(v) => value_truthy(v),
    }
}

/// Truthiness of a present value.
pub fn value_truthy(v: &Bson) -> bool {
    match v {
        Bson::Boolean(b) => *b,
        Bson::Null | Bson::Undefined => false,
        Bson::Int32(i) => *i != 0,
        Bson::Int64(i) => *i != 0,
        Bson::Double(d) => *d != 0.0,
        Bson::Decimal128(d) => crate::value::Decimal::from_bson(d).to_f64() != 0.0,
        _ => true,
    }
}

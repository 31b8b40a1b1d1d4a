//! The operator table: each family file lists its operators; lookup goes through [`FAMILIES`].

use bson::Bson;

use super::{Expression, Scope, Vars};
use crate::error::{Error, Result};

/// How many arguments an operator takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arity {
    Exactly(usize),
    AtLeast(usize),
    /// Between the two bounds, inclusive.
    Range(usize, usize),
    Any,
}

/// Parses an operator's argument into argument expressions.
pub type ParseArgs = fn(&'static OperatorDef, &Bson, &Scope) -> Result<Vec<Expression>>;
/// Evaluates an operator over its parsed arguments.
pub type Eval = fn(&[Expression], &Vars<'_>) -> Result<Option<Bson>>;

/// One expression operator.
#[derive(Debug)]
pub struct OperatorDef {
    pub name: &'static str,
    pub arity: Arity,
    pub parse_args: ParseArgs,
    pub eval: Eval,
}

/// Every operator family. Add a family file's table here.
pub const FAMILIES: &[&[OperatorDef]] = &[
    super::arithmetic::OPERATORS,
    super::math::OPERATORS,
    super::trigonometry::OPERATORS,
    super::object::OPERATORS,
    super::variables::OPERATORS,
    super::comparison::OPERATORS,
    super::logical::OPERATORS,
    super::conditional::OPERATORS,
    super::array::OPERATORS,
    super::array::iterate::OPERATORS,
    super::array::n_elements::OPERATORS,
    super::array::sort::OPERATORS,
    super::array::zip::OPERATORS,
    super::set::OPERATORS,
    super::accumulators::OPERATORS,
    super::type_ops::OPERATORS,
    super::bitwise::OPERATORS,
    super::convert::OPERATORS,
    super::string::OPERATORS,
    super::date::OPERATORS,
    super::meta::OPERATORS,
];

/// The operator named `name` (with its `$`).
pub fn lookup(name: &str) -> Option<&'static OperatorDef> {
    FAMILIES
        .iter()
        .flat_map(|family| family.iter())
        .find(|def| def.name == name)
}

/// An operator whose arguments take the usual form (see [`positional`]).
pub const fn positional_def(name: &'static str, arity: Arity, eval: Eval) -> OperatorDef {
    OperatorDef {
        name,
        arity,
        parse_args: positional,
        eval,
    }
}

/// The usual argument form: an array of expressions, or one expression standing alone.
pub fn positional(def: &'static OperatorDef, arg: &Bson, scope: &Scope) -> Result<Vec<Expression>> {
    let args = parse_list(arg, scope)?;
    check_arity(def, args.len())?;
    Ok(args)
}

/// An array of argument expressions, or one expression standing alone.
pub fn parse_list(arg: &Bson, scope: &Scope) -> Result<Vec<Expression>> {
    match arg {
        Bson::Array(items) => items
            .iter()
            .map(|i| Expression::parse_in(i, scope))
            .collect(),
        other => Ok(vec![Expression::parse_in(other, scope)?]),
    }
}

/// MongoDB's arity errors.
pub fn check_arity(def: &OperatorDef, n: usize) -> Result<()> {
    match def.arity {
        Arity::Exactly(k) if n != k => Err(Error::location(
            16020,
            format!(
                "Expression {} takes exactly {k} arguments. {n} were passed in.",
                def.name
            ),
        )),
        Arity::AtLeast(k) if n < k => Err(Error::location(
            16021,
            format!(
                "Expression {} takes at least {k} arguments, and {n} were passed in.",
                def.name
            ),
        )),
        Arity::Range(min, _) if n < min => Err(Error::location(
            28667,
            format!(
                "Expression {} takes at least {min} arguments, and {n} were passed in.",
                def.name
            ),
        )),
        Arity::Range(_, max) if n > max => Err(Error::location(
            28667,
            format!(
                "Expression {} takes at most {max} arguments, and {n} were passed in.",
                def.name
            ),
        )),
        _ => Ok(()),
    }
}

/// Evaluates argument `i` (missing when absent).
pub fn arg(args: &[Expression], i: usize, vars: &Vars<'_>) -> Result<Option<Bson>> {
    match args.get(i) {
        Some(e) => e.eval(vars),
        None => Ok(None),
    }
}

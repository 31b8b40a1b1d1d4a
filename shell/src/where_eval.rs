//! `$where` in the shell: the engine calls back into Boa to run the learner's predicate with
//! `this` (and `obj`) bound to each document, as the server's JavaScript engine does.
//!
//! The predicate may be a function (`function() { return this.a > 1 }`, or a function value
//! converted to BSON code) or an expression string (`"this.a > 1"`). Each distinct source is
//! compiled once per command. Shell functions that need the session (db access, print) are
//! refused inside `$where`, as MongoDB gives `$where` no `db`.

use std::cell::RefCell;
use std::collections::HashMap;

use boa_engine::{Context, JsObject, js_string};
use bson::{Bson, Document};
use engine::matcher::WhereEvaluator;
use engine::{Error, ErrorCode};

use crate::convert;

pub(crate) struct BoaWhere<'a> {
    ctx: RefCell<&'a mut Context>,
    compiled: RefCell<HashMap<String, JsObject>>,
}

impl<'a> BoaWhere<'a> {
    pub(crate) fn new(ctx: &'a mut Context) -> Self {
        BoaWhere {
            ctx: RefCell::new(ctx),
            compiled: RefCell::new(HashMap::new()),
        }
    }
}

fn failure(message: String) -> Error {
    Error::new(ErrorCode::JSInterpreterFailure, message)
}

fn describe(e: boa_engine::JsError, ctx: &mut Context) -> String {
    match e.try_native(ctx) {
        Ok(native) => format!("{}: {}", native.kind(), native.message()),
        Err(_) => e.to_string(),
    }
}

fn compile(code: &str, ctx: &mut Context) -> Result<JsObject, String> {
    let trimmed = code.trim();
    let attempts: Vec<String> = if trimmed.starts_with("function") {
        vec![format!("({trimmed})")]
    } else {
        // A lone expression may end with `;` ("this.a == 5;"): MongoDB answers its value, as the
        // completion value of the code (jstests/core/where3.js).
        let expression = trimmed.trim_end_matches(';').trim_end();
        let mut forms = vec![format!("(function() {{ return ({expression}); }})")];
        // Statements with no `return` ("x = this.a; x == 5;") answer their completion value, as
        // a script's; code that parses as a script cannot hold a `return`.
        if crate::nesting::parses_as_script(ctx, trimmed)
            && let Ok(quoted) = serde_json::to_string(trimmed)
        {
            forms.push(format!("(function() {{ return eval({quoted}); }})"));
        }
        forms.push(format!("(function() {{ {trimmed} }})"));
        forms
    };
    let mut last = String::new();
    for src in attempts {
        match crate::nesting::eval_checked(ctx, &src) {
            Ok(v) => match v.as_object().filter(|o| o.is_callable()) {
                Some(f) => return Ok(f),
                None => last = "$where code is not a function".into(),
            },
            Err(e) => last = describe(e, ctx),
        }
    }
    Err(last)
}

impl WhereEvaluator for BoaWhere<'_> {
    fn evaluate(&self, code: &str, doc: &Document) -> engine::Result<bool> {
        let Ok(mut ctx) = self.ctx.try_borrow_mut() else {
            return Err(failure("$where cannot run inside another $where".into()));
        };
        let ctx: &mut Context = &mut ctx;
        let cached = self.compiled.borrow().get(code).cloned();
        let function = match cached {
            Some(f) => f,
            None => {
                let f = compile(code, ctx).map_err(failure)?;
                self.compiled
                    .borrow_mut()
                    .insert(code.to_string(), f.clone());
                f
            }
        };
        let this = convert::to_js(&Bson::Document(doc.clone()), ctx)
            .map_err(|e| failure(describe(e, ctx)))?;
        let global = ctx.global_object();
        let _ = global.set(js_string!("obj"), this.clone(), false, ctx);
        let result = function.call(&this, &[], ctx);
        let _ = global.delete_property_or_throw(js_string!("obj"), ctx);
        match result {
            Ok(v) => Ok(v.to_boolean()),
            Err(e) => Err(failure(describe(e, ctx))),
        }
    }
}

/// Runs a command with this context's `$where` evaluator.
pub(crate) fn run_with_where(
    engine: &mut engine::Engine,
    db: &str,
    cmd: &Document,
    ctx: &mut Context,
) -> Document {
    let evaluator = BoaWhere::new(ctx);
    let match_ctx = engine::matcher::MatchContext {
        where_evaluator: Some(&evaluator),
    };
    engine.run_command_with(db, cmd, &match_ctx)
}

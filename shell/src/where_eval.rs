//! `$where` and mapReduce in the shell: the engine calls back into Boa to run the learner's
//! predicate with `this` (and `obj`) bound to each document, and mapReduce's map (with `this`
//! bound to each document and a global `emit`), reduce and finalize functions, as the server's
//! JavaScript engine does. Boa's loop and recursion limits bound each call, so a function
//! that never ends fails instead of hanging the page.
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
use engine::{EmitBudget, Error, ErrorCode, MapReduceEvaluator};

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

/// A predicate's error as MongoDB reports it: the message, then the JavaScript stack in
/// SpiderMonkey's `name@file:line:column` form (`ReferenceError: a is not defined :\nmyFunction@:2:24\n`;
/// jstests/core/where_tolerates_js_exception.js looks for `myFunction@`).
/// `outer_frames` is how many frames were on the stack when the predicate was called (the
/// shell's own, which the server's stack would not have).
fn describe_thrown(e: boa_engine::JsError, outer_frames: usize, ctx: &mut Context) -> String {
    let mut frames = spidermonkey_frames(&e.to_string());
    frames.truncate(frames.len().saturating_sub(outer_frames));
    let message = describe(e, ctx);
    if frames.is_empty() {
        message
    } else {
        format!("{message} :\n{}\n", frames.join("\n"))
    }
}

/// Boa's backtrace lines (`    at myFunction (unknown at :1:29)`) as SpiderMonkey's frames
/// (`myFunction@:1:29`), innermost first.
fn spidermonkey_frames(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| line.trim_start().strip_prefix("at "))
        .filter_map(|frame| {
            let (name, place) = frame.split_once(" (")?;
            let place = place.strip_suffix(')')?;
            let position = place.rsplit_once(" at ").map_or(place, |(_, p)| p);
            let mut parts = position.rsplitn(3, ':');
            let column = parts.next()?;
            let line = parts.next()?;
            // Boa names an anonymous function's frame `<main>`; SpiderMonkey leaves it empty.
            let name = if matches!(name, "<anonymous>" | "<main>") {
                ""
            } else {
                name
            };
            Some(format!("{name}@:{line}:{column}"))
        })
        .collect()
}

fn compile(code: &str, ctx: &mut Context) -> Result<JsObject, String> {
    let trimmed = code.trim();
    let attempts: Vec<String> = if trimmed.starts_with("function") {
        // A function's text may end with semicolons and spaces (drivers without a function
        // type send strings; jstests/core/function_string_representations.js).
        let function = trimmed.trim_end_matches(|c: char| c == ';' || c.is_whitespace());
        vec![format!("({function})")]
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
        let function = self.function(code, ctx)?;
        let this = convert::to_js(&Bson::Document(doc.clone()), ctx)
            .map_err(|e| failure(describe(e, ctx)))?;
        let global = ctx.global_object();
        let _ = global.set(js_string!("obj"), this.clone(), false, ctx);
        let outer_frames = ctx.stack_trace().count();
        let result = function.call(&this, &[], ctx);
        let _ = global.delete_property_or_throw(js_string!("obj"), ctx);
        match result {
            Ok(v) => Ok(v.to_boolean()),
            Err(e) => Err(failure(describe_thrown(e, outer_frames, ctx))),
        }
    }
}

impl BoaWhere<'_> {
    fn function(&self, code: &str, ctx: &mut Context) -> engine::Result<JsObject> {
        let cached = self.compiled.borrow().get(code).cloned();
        match cached {
            Some(f) => Ok(f),
            None => {
                let f = compile(code, ctx).map_err(failure)?;
                self.compiled
                    .borrow_mut()
                    .insert(code.to_string(), f.clone());
                Ok(f)
            }
        }
    }
}

/// What the map function has emitted for the document it runs on.
#[derive(Default)]
struct Emitted {
    pairs: Vec<(Bson, Bson)>,
    budget: EmitBudget,
    /// The engine error `emit` threw (wrong arguments, too much emitted), reported as itself
    /// rather than as the JavaScript exception it became.
    error: Option<Error>,
}

thread_local! {
    /// The map call running on this thread (the engine runs one at a time).
    static EMITTED: RefCell<Option<Emitted>> = const { RefCell::new(None) };
}

/// The map function's `emit(key, value)` (expression_js_emit.cpp `emitFromJS`).
fn emit(
    _: &boa_engine::JsValue,
    args: &[boa_engine::JsValue],
    ctx: &mut Context,
) -> boa_engine::JsResult<boa_engine::JsValue> {
    let fail = |error: Error| {
        let message = error.message.clone();
        EMITTED.with(|e| {
            if let Some(state) = e.borrow_mut().as_mut() {
                state.error = Some(error);
            }
        });
        Err(boa_engine::JsNativeError::error()
            .with_message(message)
            .into())
    };
    if args.len() != 2 {
        return fail(EmitBudget::arguments_error());
    }
    let key = if args[0].is_undefined() {
        Bson::Null
    } else {
        convert::to_bson_as_server(&args[0], ctx)?
    };
    let value = convert::to_bson_as_server(&args[1], ctx)?;
    let counted = EMITTED.with(|e| match e.borrow_mut().as_mut() {
        Some(state) => {
            let counted = state.budget.add(&key, &value);
            if counted.is_ok() {
                state.pairs.push((key, value));
            }
            counted
        }
        None => Ok(()),
    });
    if let Err(error) = counted {
        return fail(error);
    }
    Ok(boa_engine::JsValue::undefined())
}

impl MapReduceEvaluator for BoaWhere<'_> {
    fn map(&self, code: &str, doc: &Document) -> engine::Result<Vec<(Bson, Bson)>> {
        let Ok(mut ctx) = self.ctx.try_borrow_mut() else {
            return Err(failure(
                "mapReduce cannot run inside another function".into(),
            ));
        };
        let ctx: &mut Context = &mut ctx;
        let function = self.function(code, ctx)?;
        let this = convert::to_js(&Bson::Document(doc.clone()), ctx)
            .map_err(|e| failure(describe(e, ctx)))?;
        let global = ctx.global_object();
        let key = js_string!("emit");
        let before = if global.has_own_property(key.clone(), ctx).unwrap_or(false) {
            global.get(key.clone(), ctx).ok()
        } else {
            None
        };
        let native = boa_engine::object::FunctionObjectBuilder::new(
            ctx.realm(),
            boa_engine::NativeFunction::from_fn_ptr(emit),
        )
        .name(js_string!("emit"))
        .length(2)
        .build();
        let _ = global.set(key.clone(), native, false, ctx);
        EMITTED.with(|e| *e.borrow_mut() = Some(Emitted::default()));
        let outer_frames = ctx.stack_trace().count();
        let result = function.call(&this, &[], ctx);
        let emitted = EMITTED.with(|e| e.borrow_mut().take()).unwrap_or_default();
        match before {
            Some(v) => {
                let _ = global.set(key, v, false, ctx);
            }
            None => {
                let _ = global.delete_property_or_throw(key, ctx);
            }
        }
        match (result, emitted.error) {
            (_, Some(error)) => Err(error),
            (Ok(_), None) => Ok(emitted.pairs),
            (Err(e), None) => Err(failure(describe_thrown(e, outer_frames, ctx))),
        }
    }

    fn call(&self, code: &str, args: &[Bson]) -> engine::Result<Bson> {
        let Ok(mut ctx) = self.ctx.try_borrow_mut() else {
            return Err(failure(
                "mapReduce cannot run inside another function".into(),
            ));
        };
        let ctx: &mut Context = &mut ctx;
        let function = self.function(code, ctx)?;
        let mut values = Vec::with_capacity(args.len());
        for arg in args {
            values.push(convert::to_js(arg, ctx).map_err(|e| failure(describe(e, ctx)))?);
        }
        // The server calls reduce and finalize with an empty object as `this`.
        let this = boa_engine::JsValue::from(boa_engine::object::JsObject::with_object_proto(
            ctx.intrinsics(),
        ));
        let outer_frames = ctx.stack_trace().count();
        match function.call(&this, &values, ctx) {
            Ok(v) => convert::to_bson_as_server(&v, ctx).map_err(|e| failure(describe(e, ctx))),
            Err(e) => Err(failure(describe_thrown(e, outer_frames, ctx))),
        }
    }
}

/// Runs a command with this context's `$where` evaluator. The database's stored functions
/// (`system.js`: `{_id: name, value: code}`) are globals while it runs, as the server's scope
/// loads them before a `$where` (mongo's `Scope::loadStored`; jstests/core/where4.js).
pub(crate) fn run_with_where(
    engine: &mut engine::Engine,
    db: &str,
    cmd: &Document,
    ctx: &mut Context,
) -> Document {
    let mut stored = stored_functions(engine, db);
    stored.extend(map_reduce_scope(cmd));
    let saved = match install_globals(&stored, ctx) {
        Ok(saved) => saved,
        Err(message) => {
            return engine::error_reply(&failure(message));
        }
    };
    let reply = {
        let evaluator = BoaWhere::new(ctx);
        let match_ctx = engine::matcher::MatchContext {
            where_evaluator: Some(&evaluator),
            map_reduce: Some(&evaluator),
            meta: None,
        };
        engine.run_command_with(db, cmd, &match_ctx)
    };
    restore_globals(saved, ctx);
    reply
}

/// A mapReduce command's `scope`: its variables are globals while the command runs, after the
/// stored functions (map_reduce_agg.cpp sets the scope as the JavaScript scope's globals).
fn map_reduce_scope(cmd: &Document) -> Vec<(String, Bson)> {
    let is_map_reduce = cmd
        .keys()
        .next()
        .is_some_and(|k| k == "mapReduce" || k == "mapreduce");
    match cmd.get("scope") {
        Some(Bson::Document(scope)) if is_map_reduce => {
            scope.iter().map(|(k, v)| (k.clone(), v.clone())).collect()
        }
        _ => Vec::new(),
    }
}

/// The `(name, value)` pairs of `db.system.js` whose `_id` is a string.
fn stored_functions(engine: &engine::Engine, db: &str) -> Vec<(String, Bson)> {
    let ns = engine::catalog::Namespace::new(db, "system.js");
    let Some(coll) = engine.catalog().collection(&ns) else {
        return Vec::new();
    };
    coll.iter()
        .filter_map(|(_, d)| match (d.get("_id"), d.get("value")) {
            (Some(Bson::String(name)), Some(value)) => Some((name.clone(), value.clone())),
            _ => None,
        })
        .collect()
}

/// A global's value before a stored function replaced it (`None`: it had none).
type SavedGlobal = (String, Option<boa_engine::JsValue>);

fn install_globals(
    stored: &[(String, Bson)],
    ctx: &mut Context,
) -> Result<Vec<SavedGlobal>, String> {
    let global = ctx.global_object();
    let mut saved = Vec::with_capacity(stored.len());
    for (name, value) in stored {
        let key = boa_engine::JsString::from(name.as_str());
        let value = match value {
            Bson::JavaScriptCode(code) => compile(code, ctx).map(boa_engine::JsValue::from),
            other => convert::to_js(other, ctx).map_err(|e| describe(e, ctx)),
        };
        let value = match value {
            Ok(v) => v,
            Err(message) => {
                restore_globals(saved, ctx);
                return Err(format!("stored function {name}: {message}"));
            }
        };
        let before = if global.has_own_property(key.clone(), ctx).unwrap_or(false) {
            global.get(key.clone(), ctx).ok()
        } else {
            None
        };
        saved.push((name.clone(), before));
        let _ = global.set(key, value, false, ctx);
    }
    Ok(saved)
}

fn restore_globals(saved: Vec<SavedGlobal>, ctx: &mut Context) {
    let global = ctx.global_object();
    for (name, before) in saved.into_iter().rev() {
        let key = boa_engine::JsString::from(name.as_str());
        match before {
            Some(v) => {
                let _ = global.set(key, v, false, ctx);
            }
            None => {
                let _ = global.delete_property_or_throw(key, ctx);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::spidermonkey_frames;

    #[test]
    fn boa_frames_read_as_spidermonkey_frames() {
        let text = "ReferenceError: a is not defined\n    at myFunction (unknown at :2:24)\n    at <anonymous> (unknown at :1:3)\n    at <main> (unknown at :1:45)";
        assert_eq!(
            spidermonkey_frames(text),
            vec![
                "myFunction@:2:24".to_string(),
                "@:1:3".to_string(),
                "@:1:45".to_string()
            ]
        );
        assert!(spidermonkey_frames("TypeError: no stack").is_empty());
    }
}

//! `EJSON` as mongosh has it (js-bson's Extended JSON helpers): `EJSON.stringify(value,
//! replacer?, space?, {relaxed})`, `EJSON.parse(text, {relaxed})`, `EJSON.serialize(value,
//! {relaxed})` and `EJSON.deserialize(object, {relaxed})`. The natives here turn a shell value into
//! Extended JSON text (the printer's `extjson` module, shared with `--json`) and text back into
//! a shell value (the engine's Extended JSON parser); `js/ejson.js` builds the object on them.

use boa_engine::{Context, JsNativeError, JsResult, JsValue};

use crate::convert;
use crate::printer::{JsonMode, format_extjson_indented};

/// `__sproutNative.ejsonStringify(value, relaxed, indent)`: the Extended JSON text of a value,
/// `indent` spaces per level (0: on one line, as `JSON.stringify` without `space`).
pub(crate) fn stringify(_: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let value = convert::to_bson(&args.first().cloned().unwrap_or_default(), ctx)?;
    let relaxed = args
        .get(1)
        .is_none_or(|v| v.is_undefined() || v.to_boolean());
    let indent = args
        .get(2)
        .map(|v| v.to_number(ctx))
        .transpose()?
        .filter(|n| n.is_finite() && *n > 0.0)
        // JSON.stringify caps `space` at 10.
        .map_or(0, |n| n.min(10.0) as usize);
    let mode = if relaxed {
        JsonMode::Relaxed
    } else {
        JsonMode::Canonical
    };
    Ok(JsValue::from(boa_engine::JsString::from(
        format_extjson_indented(&value, mode, indent).as_str(),
    )))
}

/// `__sproutNative.ejsonParse(text)`: the shell value of an Extended JSON text (canonical or
/// relaxed, both are read); a SyntaxError for text that is not JSON, as js-bson throws.
pub(crate) fn parse(_: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let text = args
        .first()
        .cloned()
        .unwrap_or_default()
        .to_string(ctx)?
        .to_std_string_escaped();
    let json: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
        JsNativeError::syntax().with_message(format!("Unexpected token in JSON: {e}"))
    })?;
    let value = engine::value::extjson::parse_value(json)
        .map_err(|e| JsNativeError::typ().with_message(e.message))?;
    convert::to_js(&value, ctx)
}

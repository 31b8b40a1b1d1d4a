//! Sprout patch: V8's wording for reading or setting a property of `null` or `undefined`,
//! naming the property (`Cannot read properties of null (reading 'name')`), where Boa said
//! `cannot convert 'null' or 'undefined' to object` without naming anything. A learner's most
//! common slip, `db.people.findOne({...}).name` when nothing matched, then says what it read,
//! as it does in mongosh (Node.js, V8's `kNonObjectPropertyLoadWithProperty` and
//! `kNonObjectPropertyStoreWithProperty`).

use crate::{Context, JsError, JsNativeError, JsString, JsValue, value::JsVariant};

/// What a property access on `base` (`null` or `undefined`) throws; `key` is the property's
/// name when it is known without running user code (a name, or a primitive key).
pub(crate) fn nullish_access(base: &JsValue, key: Option<String>, write: bool) -> JsError {
    let what = if base.is_null() { "null" } else { "undefined" };
    let (verb, ing) = if write {
        ("set", "setting")
    } else {
        ("read", "reading")
    };
    let message = match key {
        Some(k) => format!("Cannot {verb} properties of {what} ({ing} '{k}')"),
        None => format!("Cannot {verb} properties of {what}"),
    };
    JsNativeError::typ().with_message(message).into()
}

/// A property name as V8's message shows it.
pub(crate) fn name_key(name: &JsString) -> Option<String> {
    Some(name.to_std_string_escaped())
}

/// A computed key as V8's message shows it, when showing it runs no user code (an object key
/// would be converted by its own `toString`).
pub(crate) fn value_key(key: &JsValue, context: &mut Context) -> Option<String> {
    match key.variant() {
        JsVariant::Symbol(s) => Some(s.descriptive_string().to_std_string_escaped()),
        JsVariant::Object(_) => None,
        // A primitive's `ToString`: no user code runs.
        _ => key
            .to_string(context)
            .ok()
            .map(|s| s.to_std_string_escaped()),
    }
}

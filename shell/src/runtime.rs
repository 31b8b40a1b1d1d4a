//! `add_runtime`: every global the shell defines, registered in one place. Native functions form
//! the hidden `__sproutNative` bridge; the shell API itself is JavaScript (`js/*.js`).

use std::cell::RefCell;
use std::rc::Rc;

use base64::Engine as _;
use boa_engine::object::ObjectInitializer;
use boa_engine::property::Attribute;
// Every parse goes through Boa's `sprout_limits::source`: one reader type, one copy of the
// parser in the wasm module (vendor/boa_engine/src/sprout_limits.rs).
use boa_engine::sprout_limits::source;
use boa_engine::{Context, JsNativeError, JsResult, JsValue, NativeFunction, js_string};
use md5::{Digest, Md5};

use crate::convert;
use crate::printer::{self, PrintOptions, Style};
use crate::session::Session;

/// The handle native functions use to reach the session (stored as context host data).
#[derive(Clone)]
pub(crate) struct SessionRef(pub Rc<RefCell<Session>>);

// The prelude, `src/js/*.js` without comments and indentation, line for line (`build.rs`).
const BSON_TYPES_JS: &str = include_str!(concat!(env!("OUT_DIR"), "/js/bson_types.js"));
const SHELL_API_JS: &str = include_str!(concat!(env!("OUT_DIR"), "/js/shell_api.js"));
const CONNECTION_JS: &str = include_str!(concat!(env!("OUT_DIR"), "/js/connection.js"));
const LIMITS_JS: &str = include_str!(concat!(env!("OUT_DIR"), "/js/limits.js"));
const BULK_JS: &str = include_str!(concat!(env!("OUT_DIR"), "/js/bulk.js"));
const INDEXES_JS: &str = include_str!(concat!(env!("OUT_DIR"), "/js/indexes.js"));
const AGGREGATE_JS: &str = include_str!(concat!(env!("OUT_DIR"), "/js/aggregate.js"));
const PLAN_CACHE_JS: &str = include_str!(concat!(env!("OUT_DIR"), "/js/plan_cache.js"));
const GLOBALS_JS: &str = include_str!(concat!(env!("OUT_DIR"), "/js/globals.js"));
const NODE_SHIM_JS: &str = include_str!(concat!(env!("OUT_DIR"), "/js/node_shim.js"));
const LAZY_MODULES_JS: &str = include_str!(concat!(env!("OUT_DIR"), "/js/lazy_modules.js"));
const HELP_JS: &str = include_str!(concat!(env!("OUT_DIR"), "/js/help.js"));
const EJSON_JS: &str = include_str!(concat!(env!("OUT_DIR"), "/js/ejson.js"));
const REPLSET_JS: &str = include_str!(concat!(env!("OUT_DIR"), "/js/replset.js"));
const SHARDING_JS: &str = include_str!(concat!(env!("OUT_DIR"), "/js/sharding.js"));
const TEST_HELPERS_JS: &str = include_str!(concat!(env!("OUT_DIR"), "/js/test_helpers.js"));
const LEGACY_HELPERS_JS: &str = include_str!(concat!(env!("OUT_DIR"), "/js/legacy_helpers.js"));

pub(crate) fn add_runtime(ctx: &mut Context, session: Rc<RefCell<Session>>) -> JsResult<()> {
    ctx.insert_data(SessionRef(session));
    let natives: &[(
        &str,
        usize,
        boa_engine::native_function::NativeFunctionPointer,
    )] = &[
        ("runCommand", 2, run_command),
        ("newObjectId", 0, new_object_id),
        ("objectIdFromTime", 1, object_id_from_time),
        ("checkInt64", 1, check_int64),
        ("checkDecimal", 1, check_decimal),
        ("checkBase64", 1, check_base64),
        ("base64Length", 1, base64_length),
        ("base64ToHex", 1, base64_to_hex),
        ("hexToBase64", 1, hex_to_base64),
        ("randomUuidHex", 0, random_uuid_hex),
        ("now", 0, now),
        ("parseIsoDate", 1, parse_iso_date),
        ("parseLooseDate", 1, parse_loose_date),
        ("print", 1, print),
        ("format", 2, format),
        ("hexMd5", 1, hex_md5),
        ("bsonSize", 1, bson_size),
        ("bsonBinaryEqual", 2, bson_binary_equal),
        ("sleep", 1, sleep),
        ("random", 0, random),
        ("setRandomSeed", 1, set_random_seed),
        ("loadScript", 1, load_script),
        ("scriptNames", 0, script_names),
        ("setStyle", 1, set_style),
        ("getStyle", 0, get_style),
        ("advanceClock", 1, advance_clock),
        ("lazyModuleSource", 1, lazy_module_source),
        ("replSetInitiate", 1, crate::replset::initiate_native),
        ("setReadPref", 1, crate::replset::set_read_pref_native),
        ("shardingStart", 1, crate::sharding::start_native),
        ("regexLimitHit", 0, crate::regex_limit::limit_hit),
        ("ejsonStringify", 3, crate::ejson::stringify),
        ("ejsonParse", 1, crate::ejson::parse),
    ];
    let mut init = ObjectInitializer::new(ctx);
    for (name, len, f) in natives {
        init.function(NativeFunction::from_fn_ptr(*f), js_string!(*name), *len);
    }
    let native = init.build();
    ctx.register_global_property(js_string!("__sproutNative"), native, Attribute::empty())?;
    ctx.eval(source(
        "Object.freeze(__sproutNative); Object.defineProperty(globalThis, '__sproutKeys', { value: Object.keys });",
    ))?;
    ctx.eval(source(LIMITS_JS))?;
    ctx.eval(source(BSON_TYPES_JS))?;
    ctx.eval(source(SHELL_API_JS))?;
    ctx.eval(source(CONNECTION_JS))?;
    ctx.eval(source(AGGREGATE_JS))?;
    ctx.eval(source(PLAN_CACHE_JS))?;
    ctx.eval(source(GLOBALS_JS))?;
    ctx.eval(source(HELP_JS))?;
    ctx.eval(source(EJSON_JS))?;
    // bulk.js, indexes.js and node_shim.js: on first use (js/lazy_modules.js).
    ctx.eval(source(LAZY_MODULES_JS))?;
    Ok(())
}

const NOT_IN_WHERE: &str = "this shell function is not available inside $where";

/// The error for a shell function used while the session is busy running a command (that is,
/// from inside a `$where` predicate).
fn busy(message: &str) -> boa_engine::JsError {
    JsNativeError::typ()
        .with_message(message.to_string())
        .into()
}

pub(crate) fn session(ctx: &Context) -> JsResult<Rc<RefCell<Session>>> {
    ctx.get_data::<SessionRef>()
        .map(|s| s.0.clone())
        .ok_or_else(|| {
            JsNativeError::error()
                .with_message("shell session missing")
                .into()
        })
}

fn arg(args: &[JsValue], i: usize) -> JsValue {
    args.get(i).cloned().unwrap_or_default()
}

fn arg_string(args: &[JsValue], i: usize, ctx: &mut Context) -> JsResult<String> {
    Ok(arg(args, i).to_string(ctx)?.to_std_string_escaped())
}

fn js_string_value(s: &str) -> JsValue {
    JsValue::from(boa_engine::JsString::from(s))
}

fn type_error(msg: impl Into<String>) -> boa_engine::JsError {
    JsNativeError::typ().with_message(msg.into()).into()
}

fn run_command(_: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let db = arg_string(args, 0, ctx)?;
    let s = session(ctx)?;
    let legacy = s.try_borrow().is_ok_and(|s| s.style == Style::Legacy);
    let cmd = if legacy {
        convert::to_legacy_document(&arg(args, 1), ctx)?
    } else {
        convert::to_document(&arg(args, 1), ctx)?
    };
    let reply = {
        // Busy means this call comes from inside a $where predicate: MongoDB gives $where no db.
        let mut s = s
            .try_borrow_mut()
            .map_err(|_| busy("database commands are not available inside $where"))?;
        if let Some(reply) = crate::sharding::run_command(&mut s, &db, &cmd) {
            reply
        } else {
            match crate::replset::run_command(&mut s, &db, &cmd) {
                Some(reply) => reply,
                None => crate::where_eval::run_with_where(&mut s.engine, &db, &cmd, ctx),
            }
        }
    };
    if legacy {
        convert::to_js_legacy(&bson::Bson::Document(reply), ctx)
    } else {
        convert::to_js(&bson::Bson::Document(reply), ctx)
    }
}

fn new_object_id(_: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let id = session(ctx)?
        .try_borrow_mut()
        .map_err(|_| busy(NOT_IN_WHERE))?
        .engine
        .new_object_id();
    Ok(js_string_value(&id.to_hex()))
}

fn object_id_from_time(_: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let secs = arg(args, 0).to_number(ctx)? as u32;
    Ok(js_string_value(&format!("{secs:08x}0000000000000000")))
}

fn check_int64(_: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let text = arg_string(args, 0, ctx)?;
    let v: i64 = text
        .parse()
        .map_err(|_| type_error(format!("Long value out of range: {text}")))?;
    Ok(js_string_value(&v.to_string()))
}

fn check_decimal(_: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let text = arg_string(args, 0, ctx)?;
    let d =
        engine::value::decimal_parse::parse_decimal128(&text).map_err(|e| type_error(e.message))?;
    Ok(js_string_value(&d.to_string()))
}

fn decode_base64(text: &str) -> JsResult<Vec<u8>> {
    base64::engine::general_purpose::STANDARD
        .decode(text.as_bytes())
        .map_err(|e| type_error(format!("invalid base64 string: {e}")))
}

fn check_base64(_: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let text = arg_string(args, 0, ctx)?;
    decode_base64(&text)?;
    Ok(js_string_value(&text))
}

fn base64_length(_: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let text = arg_string(args, 0, ctx)?;
    Ok(JsValue::from(decode_base64(&text)?.len() as f64))
}

fn base64_to_hex(_: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let text = arg_string(args, 0, ctx)?;
    let hex: String = decode_base64(&text)?
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    Ok(js_string_value(&hex))
}

fn hex_to_base64(_: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let text = arg_string(args, 0, ctx)?;
    if text.len() % 2 != 0 || !text.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(type_error(format!("invalid hex string: {text}")));
    }
    let bytes: Vec<u8> = (0..text.len())
        .step_by(2)
        .filter_map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect();
    Ok(js_string_value(
        &base64::engine::general_purpose::STANDARD.encode(bytes),
    ))
}

fn random_uuid_hex(_: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let s = session(ctx)?;
    let mut s = s.try_borrow_mut().map_err(|_| busy(NOT_IN_WHERE))?;
    let mut bytes = [0u8; 16];
    bytes[..8].copy_from_slice(&s.next_random().to_be_bytes());
    bytes[8..].copy_from_slice(&s.next_random().to_be_bytes());
    bytes[6] = (bytes[6] & 0x0f) | 0x40; // version 4
    bytes[8] = (bytes[8] & 0x3f) | 0x80; // RFC 4122 variant
    Ok(js_string_value(
        &bytes.iter().map(|b| format!("{b:02x}")).collect::<String>(),
    ))
}

fn now(_: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    Ok(JsValue::from(
        session(ctx)?
            .try_borrow()
            .map_err(|_| busy(NOT_IN_WHERE))?
            .engine
            .now_millis() as f64,
    ))
}

fn parse_iso_date(_: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let text = arg_string(args, 0, ctx)?;
    Ok(match crate::dates::parse_iso_date(&text) {
        Some(ms) => JsValue::from(ms as f64),
        None => JsValue::null(),
    })
}

/// A date string only V8's legacy parser reads (`08/27/2010`, `Aug 27, 2010`): its parts
/// `[year, month, day, hour, minute, second, millisecond, offsetMinutes | null]`, or null.
fn parse_loose_date(_: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let text = arg_string(args, 0, ctx)?;
    let Some(d) = crate::loose_dates::parse_loose_date(&text) else {
        return Ok(JsValue::null());
    };
    let parts = [
        JsValue::from(d.year as f64),
        JsValue::from(d.month),
        JsValue::from(d.day),
        JsValue::from(d.hour),
        JsValue::from(d.minute),
        JsValue::from(d.second),
        JsValue::from(d.millisecond),
        d.offset_minutes
            .map_or(JsValue::null(), |m| JsValue::from(m as f64)),
    ];
    Ok(boa_engine::object::builtins::JsArray::from_iter(parts, ctx).into())
}

fn print(_: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let text = arg_string(args, 0, ctx)?;
    // Busy: the call comes from JavaScript the server runs (`$where`, mapReduce's functions),
    // whose `print` writes to the server's log, not to the learner's shell.
    if let Ok(mut s) = session(ctx)?.try_borrow_mut() {
        s.print(text);
    }
    Ok(JsValue::undefined())
}

fn format(_: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let how = arg_string(args, 1, ctx)?;
    // Busy: JavaScript the server runs (`$where`, mapReduce's functions), whose `tojson` and
    // `printjson` are the legacy shell's.
    let style = session(ctx)?
        .try_borrow()
        .map_or(Style::Legacy, |s| s.style);
    // mongosh shows JavaScript `undefined` as `undefined` (print, printjson, nested fields), and
    // so does the legacy style (`tojson({a: undefined})` is `{ "a" : undefined }`, json1.js):
    // it sends `undefined` to the server as BSON undefined and reads it back as `undefined`.
    // mongosh's legacy forms (tojson, printjsononeline) keep converting it to null.
    let mongosh_display = how == "shell" && style == Style::Mongosh;
    let keep_undefined = mongosh_display || style == Style::Legacy;
    let value =
        convert::to_bson_for_printing(&arg(args, 0), ctx, keep_undefined, style == Style::Legacy)?;
    if value == bson::Bson::Undefined {
        // The result printer shows nothing for a bare `undefined`; print() and printjson()
        // spell it out, as mongosh does.
        return Ok(js_string_value("undefined"));
    }
    if how == "tojson" {
        // tojson() quotes a string; every other value prints as the legacy shell shows it.
        if let bson::Bson::String(text) = &value {
            return Ok(js_string_value(
                &serde_json::to_string(text).unwrap_or_default(),
            ));
        }
    }
    let opts = match how.as_str() {
        "legacy" | "tojson" => PrintOptions {
            style: Style::Legacy,
            pretty: true,
        },
        "legacy-oneline" => PrintOptions {
            style: Style::Legacy,
            pretty: false,
        },
        _ => PrintOptions {
            style,
            pretty: true,
        },
    };
    let text = if how == "tojson" && style == Style::Legacy {
        // tojson(v, indent, nolint): the legacy shell's layout arguments.
        let indent = if arg(args, 2).is_null_or_undefined() {
            String::new()
        } else {
            arg_string(args, 2, ctx)?
        };
        let nolint = arg(args, 3);
        let nolint = (!nolint.is_null_or_undefined()).then(|| nolint.to_boolean());
        printer::legacy_tojson(&value, &indent, nolint)
    } else {
        printer::format_value(&value, &opts)
    };
    drop(value);
    // The walk's count is a lower bound; the text itself must fit the longest string too.
    if text.encode_utf16().count() > crate::value_caps::MAX_STRING_LENGTH {
        return Err(convert::too_long_to_print());
    }
    let printed = js_string_value(&text);
    // Printing a large value leaves the walk's garbage (the key lists Object.keys made, one
    // string per key) to Boa's collector, which runs by allocation count: a loop printing
    // large values held several rounds of it at once (the shell_program fuzzer's 2 GiB).
    if text.len() >= LARGE_PRINT {
        boa_engine::gc::force_collect();
    }
    Ok(printed)
}

/// Printed text from which on the garbage of printing is collected at once (bytes).
const LARGE_PRINT: usize = 1 << 22;

fn hex_md5(_: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let text = arg_string(args, 0, ctx)?;
    let digest = Md5::digest(text.as_bytes());
    Ok(js_string_value(
        &digest
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>(),
    ))
}

/// `bsonsize(doc)` (mongosh) and `Object.bsonsize(doc)` (legacy shell): the document's size
/// in bytes as BSON, what the 16 MB limit counts. `null` is 0, as the legacy shell's
/// `bsonsize` answers for a null argument (shell_utils.cpp; jstests/core/objid5.js). In the
/// legacy style a number counts as the double the legacy shell would write
/// (find_getmore_bsonsize.js builds a document of exactly 16 MiB around `_id: 0`).
/// A value as the shell writes it to the server: in the legacy style every number a double.
fn written_bson(value: &JsValue, ctx: &mut Context) -> JsResult<bson::Bson> {
    let legacy = session(ctx)?
        .try_borrow()
        .is_ok_and(|s| s.style == Style::Legacy);
    if legacy {
        convert::to_bson_as_server(value, ctx)
    } else {
        convert::to_bson(value, ctx)
    }
}

fn bson_bytes(d: &bson::Document) -> JsResult<Vec<u8>> {
    d.to_vec()
        .map_err(|e| JsNativeError::typ().with_message(e.to_string()).into())
}

fn bson_size(_: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    match written_bson(&arg(args, 0), ctx)? {
        bson::Bson::Null => Ok(JsValue::from(0)),
        bson::Bson::Document(d) => Ok(JsValue::from(bson_bytes(&d)?.len() as f64)),
        _ => Err(JsNativeError::typ()
            .with_message("bsonsize requires a document")
            .into()),
    }
}

/// `bsonBinaryEqual(a, b)`: whether the two values are the same BSON bytes, each written as
/// the one field of a document (the legacy shell's `bsonBinaryEqual` wraps a value that is not
/// a document the same way): types, values, bits of a NaN and field order all count.
fn bson_binary_equal(_: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let mut bytes = [Vec::new(), Vec::new()];
    for (i, b) in bytes.iter_mut().enumerate() {
        let v = written_bson(&arg(args, i), ctx)?;
        *b = bson_bytes(&bson::doc! {"": v})?;
    }
    Ok(JsValue::from(bytes[0] == bytes[1]))
}

fn sleep(_: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let ms = arg(args, 0).to_number(ctx)?.clamp(0.0, 10_000.0) as u64;
    // The browser cannot block; natively the shell really waits, like mongosh.
    #[cfg(not(target_arch = "wasm32"))]
    std::thread::sleep(std::time::Duration::from_millis(ms));
    #[cfg(target_arch = "wasm32")]
    let _ = ms;
    Ok(JsValue::undefined())
}

fn random(_: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let bits = session(ctx)?
        .try_borrow_mut()
        .map_err(|_| busy(NOT_IN_WHERE))?
        .next_random()
        >> 11;
    Ok(JsValue::from(bits as f64 / (1u64 << 53) as f64))
}

/// `Random.setRandomSeed(n)`: the session's generator restarts from `n` (any number; its
/// integer part's bits, so the same seed gives the same sequence).
fn set_random_seed(_: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let seed = arg(args, 0).to_number(ctx)?;
    let bits = if seed.is_finite() {
        seed.trunc() as i64 as u64
    } else {
        0
    };
    session(ctx)?
        .try_borrow_mut()
        .map_err(|_| busy(NOT_IN_WHERE))?
        .set_seed(bits);
    Ok(JsValue::undefined())
}

/// `load(name)`: runs a registered script (or, in the CLI, the file the user named) as a global
/// script. The text never reaches JavaScript, so shell code cannot read files through it.
fn load_script(_: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let name = arg_string(args, 0, ctx)?;
    let found = session(ctx)?
        .try_borrow()
        .map_err(|_| busy(NOT_IN_WHERE))?
        .script(&name);
    let Some(source) = found else {
        return Ok(JsValue::from(false));
    };
    crate::nesting::eval_checked(ctx, &source)?;
    Ok(JsValue::from(true))
}

/// The source of a module `js/lazy_modules.js` evaluates on first use.
fn lazy_module_source(_: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let source = match arg_string(args, 0, ctx)?.as_str() {
        "node_shim" => NODE_SHIM_JS,
        "bulk" => BULK_JS,
        "indexes" => INDEXES_JS,
        "replset" => REPLSET_JS,
        "sharding" => SHARDING_JS,
        "test_helpers" => TEST_HELPERS_JS,
        "legacy_helpers" => LEGACY_HELPERS_JS,
        other => return Err(type_error(format!("no shell module '{other}'"))),
    };
    Ok(js_string_value(source))
}

fn script_names(_: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let names = session(ctx)?
        .try_borrow()
        .map_err(|_| busy(NOT_IN_WHERE))?
        .script_names();
    let items: Vec<JsValue> = names.iter().map(|n| js_string_value(n)).collect();
    Ok(boa_engine::object::builtins::JsArray::from_iter(items, ctx).into())
}

fn set_style(_: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let name = arg_string(args, 0, ctx)?;
    let style = match name.as_str() {
        "legacy" => Style::Legacy,
        "mongosh" => Style::Mongosh,
        other => {
            return Err(type_error(format!(
                "unknown style '{other}': use 'mongosh' or 'legacy'"
            )));
        }
    };
    session(ctx)?
        .try_borrow_mut()
        .map_err(|_| busy(NOT_IN_WHERE))?
        .style = style;
    Ok(js_string_value(&format!("printing in the {name} style")))
}

/// The last instant a JavaScript `Date` holds (ECMA-262 §21.4.1.22: 8.64e15 ms after the epoch).
const MAX_DATE_MILLIS: f64 = 8.64e15;

/// `sprout.advanceClock(seconds)`: moves the engine's clock forward (whole milliseconds), no
/// further than the last date `new Date()` can show.
fn advance_clock(_: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let value = arg(args, 0);
    let seconds = value.to_number(ctx)?;
    if !seconds.is_finite() || seconds < 0.0 {
        return Err(type_error(
            "sprout.advanceClock(seconds) needs a number of seconds >= 0",
        ));
    }
    let s = session(ctx)?;
    let mut s = s.try_borrow_mut().map_err(|_| busy(NOT_IN_WHERE))?;
    let target = s.engine.now_millis() as f64 + (seconds * 1000.0).round();
    if target > MAX_DATE_MILLIS {
        return Err(JsNativeError::range()
            .with_message(format!(
                "sprout.advanceClock({}) would move the clock past the last date a JavaScript \
                 Date can hold (+275760-09-13T00:00:00Z); advance it by at most {} seconds",
                value.to_string(ctx)?.to_std_string_escaped(),
                ((MAX_DATE_MILLIS - s.engine.now_millis() as f64) / 1000.0).floor()
            ))
            .into());
    }
    s.engine.advance_clock((seconds * 1000.0).round() as i64);
    if let Some(set) = s.replica_set.as_mut() {
        set.advance_clock((seconds * 1000.0).round() as i64);
    }
    if let Some(router) = s.router.as_mut() {
        router.advance_clock((seconds * 1000.0).round() as i64);
    }
    Ok(JsValue::undefined())
}

fn get_style(_: &JsValue, _: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    Ok(js_string_value(
        match session(ctx)?
            .try_borrow()
            .map_err(|_| busy(NOT_IN_WHERE))?
            .style
        {
            Style::Legacy => "legacy",
            Style::Mongosh => "mongosh",
        },
    ))
}

//! The only crossing between JavaScript values and BSON.
//!
//! JS → BSON follows js-bson as mongosh uses it: integral numbers in int32 range become Int32,
//! other numbers Double (a command the legacy style sends makes every number a Double and an
//! `undefined` in its values BSON undefined, as the legacy shell does; `NumberInt` stays
//! Int32); `Date` → date; `RegExp` → regex; functions → JavaScript code; objects carrying a
//! `_bsontype` marker (ObjectId, Long, Decimal128, …, from `js/bson_types.js`) → that type;
//! other objects → documents of their enumerable own keys, in order.
//! BSON → JS builds the same shell types back, so a round trip keeps types where JS can.

use std::str::FromStr;

use base64::Engine as _;
use boa_engine::object::builtins::{JsArray, JsDate, JsRegExp, JsTypedArray};
use boa_engine::value::JsVariant;
use boa_engine::{Context, JsError, JsNativeError, JsObject, JsResult, JsValue, js_string};
use bson::oid::ObjectId;
use bson::spec::BinarySubtype;
use bson::{Binary, Bson, Document, Regex, Timestamp};

use crate::value_caps::MAX_STRING_LENGTH;

/// Deeper values are refused rather than risking the native stack (cycles end here too).
pub const MAX_DEPTH: usize = 150;

/// The most BSON one conversion may produce: MongoDB's `maxMessageSizeBytes` (48,000,000), the
/// largest command a client may send. Counting as the walk goes keeps a sparse array
/// (`a[1e8] = 1`) or a huge object from being walked element by element into memory.
pub const MAX_CONVERTED_BYTES: usize = 48_000_000;

/// State of one JS → BSON conversion.
struct Walk {
    keys_fn: JsObject,
    /// BSON bytes the conversion may still produce.
    remaining: std::cell::Cell<usize>,
    /// Keep JavaScript `undefined` as BSON undefined (for printing) instead of null (for the server).
    keep_undefined: bool,
    /// The legacy shell's conversions (its SpiderMonkey ValueWriter): every JavaScript number is
    /// a double (mongosh's js-bson makes integral ones int32), and `undefined` inside a
    /// command's values is BSON undefined (a command's own options stay null, as the legacy
    /// helpers never send undefined ones).
    legacy: bool,
    /// For printing: UTF-16 units the printed text may still take, counted as a lower bound of
    /// what each value prints as. A printed value cannot be longer than the shell's longest
    /// string, and without this a value printed into a string, read back as an object and
    /// printed again grows tenfold a round (`a = Object(tojson(this))`) until memory runs out.
    printable: Option<std::cell::Cell<usize>>,
    /// The legacy shell's reading of its `MinKey` and `MaxKey` globals: the constructor itself
    /// stands for the value (its ValueWriter stores `{_id: MinKey}` as MinKey and its `tojson`
    /// prints the constructor as `{ "$minKey" : 1 }`; jstests/core/type8.js). js-bson, in
    /// mongosh, drops a function-valued field instead.
    legacy_min_max: bool,
    /// Printing in the legacy style: a JavaScript regex keeps its `g` flag, which the legacy
    /// shell's `tojson` shows (`/xd?/gi`, jstests/core/json1.js) and BSON cannot hold.
    legacy_print: bool,
}

impl Walk {
    /// Counts `bytes` of output against [`MAX_CONVERTED_BYTES`].
    fn charge(&self, bytes: usize) -> JsResult<()> {
        match self.remaining.get().checked_sub(bytes) {
            Some(left) => {
                self.remaining.set(left);
                Ok(())
            }
            None => Err(self.over_budget()),
        }
    }

    /// The error for a value past the BSON budget: printing, the text is what would be too long.
    fn over_budget(&self) -> JsError {
        if self.printable.is_some() {
            too_long_to_print()
        } else {
            too_large()
        }
    }

    /// Counts `units` of printed text, when printing, against the shell's longest string.
    fn charge_printed(&self, units: usize) -> JsResult<()> {
        let Some(left) = &self.printable else {
            return Ok(());
        };
        match left.get().checked_sub(units) {
            Some(rest) => {
                left.set(rest);
                Ok(())
            }
            None => Err(too_long_to_print()),
        }
    }
}

/// V8's error for a string past its longest, which a printed value would be.
pub fn too_long_to_print() -> JsError {
    JsNativeError::range()
        .with_message(format!(
            "Invalid string length: the printed value would pass {MAX_STRING_LENGTH} characters, \
             the longest string the shell holds; print a part of it (a projection, a slice)"
        ))
        .into()
}

fn too_large() -> JsError {
    JsNativeError::range()
        .with_message(format!(
            "the value is too large to send to the database: its BSON would pass \
             {MAX_CONVERTED_BYTES} bytes (MongoDB's maxMessageSizeBytes; a document may hold at \
             most 16 MB)"
        ))
        .into()
}

/// A JavaScript string as UTF-8. Lone surrogates become U+FFFD, as js-bson's UTF-8 encoder
/// (the platform's TextEncoder or Buffer) writes them for mongosh.
fn utf8(s: &boa_engine::JsString) -> String {
    s.to_std_string_lossy()
}

/// A field name: BSON keys are NUL-terminated, so a NUL inside one is refused (js-bson's rule).
fn field_name(key: &boa_engine::JsString) -> JsResult<String> {
    let name = utf8(key);
    if name.contains('\0') {
        return Err(type_error(format!(
            "key {} must not contain null bytes",
            name.replace('\0', "\\0")
        )));
    }
    Ok(name)
}

fn type_error(msg: impl Into<String>) -> JsError {
    JsNativeError::typ().with_message(msg.into()).into()
}

fn get(obj: &JsObject, key: &str, ctx: &mut Context) -> JsResult<JsValue> {
    obj.get(js_string!(key), ctx)
}

fn get_string(obj: &JsObject, key: &str, ctx: &mut Context) -> JsResult<String> {
    Ok(get(obj, key, ctx)?.to_string(ctx)?.to_std_string_escaped())
}

/// Converts a JS value to BSON. `undefined` becomes null, as js-bson does by default.
pub fn to_bson(v: &JsValue, ctx: &mut Context) -> JsResult<Bson> {
    convert(v, ctx, false, false, false, false)
}

/// Converts a JS value to BSON for printing: with `keep_undefined`, `undefined` stays undefined,
/// so the shell shows `undefined` where mongosh does (`print(undefined)`, `{ a: undefined }`).
/// A value whose printed text would pass the shell's longest string is refused as it is walked.
pub fn to_bson_for_printing(
    v: &JsValue,
    ctx: &mut Context,
    keep_undefined: bool,
    legacy_style: bool,
) -> JsResult<Bson> {
    convert(v, ctx, keep_undefined, true, false, legacy_style)
}

fn convert(
    v: &JsValue,
    ctx: &mut Context,
    keep_undefined: bool,
    printing: bool,
    legacy: bool,
    legacy_style: bool,
) -> JsResult<Bson> {
    let keys_fn = ctx
        .global_object()
        .get(js_string!("__sproutKeys"), ctx)?
        .as_object()
        .ok_or_else(|| type_error("shell runtime is damaged: __sproutKeys missing"))?;
    let walk = Walk {
        keys_fn,
        remaining: std::cell::Cell::new(MAX_CONVERTED_BYTES),
        keep_undefined,
        legacy,
        printable: printing.then(|| std::cell::Cell::new(MAX_STRING_LENGTH)),
        legacy_min_max: legacy || legacy_style,
        legacy_print: printing && legacy_style,
    };
    to_bson_at(v, ctx, &walk, 0)
}

/// Converts a JS value that must be an object into a BSON document.
pub fn to_document(v: &JsValue, ctx: &mut Context) -> JsResult<Document> {
    document_of(convert(v, ctx, false, false, false, false)?)
}

/// A command document as the legacy shell sends it: every number a double, `undefined` in its
/// values BSON undefined.
pub fn to_legacy_document(v: &JsValue, ctx: &mut Context) -> JsResult<Document> {
    document_of(convert(v, ctx, false, false, true, true)?)
}

/// A value as the server's JavaScript engine stores it: every number a double (`NumberInt`
/// and `NumberLong` stay themselves), `undefined` BSON undefined (mapReduce's emitted keys and
/// values, reduce and finalize results).
pub fn to_bson_as_server(v: &JsValue, ctx: &mut Context) -> JsResult<Bson> {
    convert(v, ctx, false, false, true, true)
}

fn document_of(value: Bson) -> JsResult<Document> {
    match value {
        Bson::Document(d) => Ok(d),
        other => Err(type_error(format!(
            "expected an object, got {}",
            engine::value::display::type_name(&other)
        ))),
    }
}

fn to_bson_at(v: &JsValue, ctx: &mut Context, walk: &Walk, depth: usize) -> JsResult<Bson> {
    if depth > MAX_DEPTH {
        return Err(type_error(format!(
            "value is nested more than {MAX_DEPTH} levels deep (or refers to itself)"
        )));
    }
    Ok(match v.variant() {
        JsVariant::Undefined if walk.keep_undefined || (walk.legacy && depth >= 2) => {
            Bson::Undefined
        }
        JsVariant::Null | JsVariant::Undefined => Bson::Null,
        JsVariant::Boolean(b) => Bson::Boolean(b),
        JsVariant::String(s) => {
            walk.charge_printed(s.len())?;
            let text = utf8(&s);
            walk.charge(text.len() + 5)?;
            Bson::String(text)
        }
        JsVariant::Integer32(i) if walk.legacy => Bson::Double(f64::from(i)),
        JsVariant::Integer32(i) => Bson::Int32(i),
        JsVariant::Float64(f) if walk.legacy => Bson::Double(f),
        JsVariant::Float64(f) => number(f),
        JsVariant::BigInt(b) => {
            let text = b.to_string();
            Bson::Int64(
                i64::from_str(&text)
                    .map_err(|_| type_error("BigInt is out of range for a 64-bit integer"))?,
            )
        }
        JsVariant::Symbol(_) => return Err(type_error("a Symbol cannot be converted to BSON")),
        JsVariant::Object(obj) => object_to_bson(&obj, ctx, walk, depth)?,
    })
}

/// A BSON regex with its options in the alphabetical order BSON requires.
fn make_regex(pattern: &str, options: &str) -> JsResult<Regex> {
    let mut flags: Vec<char> = options.chars().collect();
    engine::sort_slice::sort(&mut flags);
    flags.dedup();
    Ok(Regex {
        pattern: pattern
            .to_string()
            .try_into()
            .map_err(|_| type_error("a regex pattern cannot contain a NUL character"))?,
        options: flags
            .into_iter()
            .collect::<String>()
            .try_into()
            .map_err(|_| type_error("invalid regex options"))?,
    })
}

fn decimal_digits(i: u64) -> usize {
    i.checked_ilog10().map_or(1, |d| d as usize + 1)
}

fn number(f: f64) -> Bson {
    if f.fract() == 0.0 && f >= f64::from(i32::MIN) && f <= f64::from(i32::MAX) {
        Bson::Int32(f as i32)
    } else {
        Bson::Double(f)
    }
}

fn object_to_bson(obj: &JsObject, ctx: &mut Context, walk: &Walk, depth: usize) -> JsResult<Bson> {
    let converted = plain_object_to_bson(obj, ctx, walk, depth)?;
    if walk.legacy {
        // The legacy shell writes an object read from the server and not altered from its BSON.
        return crate::bson_backed::written(obj, converted, ctx);
    }
    Ok(converted)
}

fn plain_object_to_bson(
    obj: &JsObject,
    ctx: &mut Context,
    walk: &Walk,
    depth: usize,
) -> JsResult<Bson> {
    walk.charge(5)?;
    if obj.is_array() {
        let len = get(obj, "length", ctx)?.to_length(ctx)?;
        // Every element costs at least its type byte, a one-digit key and its NUL, holes of a
        // sparse array included (they become nulls): refuse before walking them one by one.
        if len.saturating_mul(3) > walk.remaining.get() as u64 {
            return Err(too_large());
        }
        // Printed, every element takes at least one character and a separator.
        walk.charge_printed(usize::try_from(len.saturating_mul(2)).unwrap_or(usize::MAX))?;
        let mut out = Vec::with_capacity(len.min(1 << 16) as usize);
        for i in 0..len {
            walk.charge(2 + decimal_digits(i))?;
            let item = obj.get(i, ctx)?;
            out.push(to_bson_at(&item, ctx, walk, depth + 1)?);
        }
        return Ok(Bson::Array(out));
    }
    if let Ok(date) = JsDate::from_object(obj.clone()) {
        let ms = date.get_time(ctx)?.to_number(ctx)?;
        if !ms.is_finite() {
            return Err(type_error("Invalid Date cannot be stored"));
        }
        return Ok(Bson::DateTime(bson::DateTime::from_millis(ms as i64)));
    }
    if let Ok(re) = JsRegExp::from_object(obj.clone()) {
        let flags: String = re
            .flags(ctx)?
            .chars()
            .filter(|c| "imsux".contains(*c) || (walk.legacy_print && *c == 'g'))
            .collect();
        return Ok(Bson::RegularExpression(make_regex(
            &re.source(ctx)?,
            &flags,
        )?));
    }
    if obj.is_callable() {
        if walk.legacy_min_max
            && let Some(key) = min_max_constructor(obj, ctx)?
        {
            return Ok(key);
        }
        let src = JsValue::from(obj.clone())
            .to_string(ctx)?
            .to_std_string_escaped();
        return Ok(Bson::JavaScriptCode(src));
    }
    // Only an own marker counts, so `Object.prototype._bsontype = …` cannot retype every object.
    let marker = if obj.has_own_property(js_string!("_bsontype"), ctx)? {
        get(obj, "_bsontype", ctx)?
    } else {
        JsValue::undefined()
    };
    if let Some(kind) = marker.as_string() {
        return typed_to_bson(&kind.to_std_string_escaped(), obj, ctx, walk, depth);
    }
    // A String object or a typed array has one key per character or element, made only when
    // asked for: count them first, so `Object(s)` of a 30-million-character string is refused
    // before 30 million keys are built.
    if let Some((count, value_bytes, value_printed)) = indexed_keys(obj, ctx)? {
        // What the walk below would charge at least (checked, not charged: it charges each key
        // as it goes): per key its digits, the BSON type byte and NUL and the value, or, printed,
        // `: `, a separator and the value (a character in quotes, or a digit).
        let digits = index_digits(count);
        if digits.saturating_add(count.saturating_mul(2 + value_bytes)) > walk.remaining.get() {
            return Err(walk.over_budget());
        }
        if let Some(printable) = &walk.printable
            && digits.saturating_add(count.saturating_mul(3 + value_printed)) > printable.get()
        {
            return Err(too_long_to_print());
        }
    }
    let keys = walk
        .keys_fn
        .call(&JsValue::undefined(), &[JsValue::from(obj.clone())], ctx)?;
    let keys = keys
        .as_object()
        .ok_or_else(|| type_error("Object.keys failed"))?;
    let n = get(&keys, "length", ctx)?.to_length(ctx)?;
    let mut doc = Document::new();
    for i in 0..n {
        let key = keys.get(i, ctx)?.to_string(ctx)?;
        // Printed, a field takes at least its name, `: ` and one character.
        walk.charge_printed(key.len() + 3)?;
        let name = field_name(&key)?;
        walk.charge(2 + name.len())?;
        let value = obj.get(key.clone(), ctx)?;
        // Functions as field values are dropped, as js-bson does without serializeFunctions,
        // except where they are the value (e.g. $where), handled above. The legacy shell's
        // ValueWriter keeps them as BSON code (how `system.js` is filled: jstests/core/where4.js).
        if let Some(f) = value.as_object().filter(|o| o.is_callable())
            && name != "$where"
            && !walk.legacy
            && !(walk.legacy_min_max && min_max_constructor(&f, ctx)?.is_some())
        {
            continue;
        }
        doc.insert(name, to_bson_at(&value, ctx, walk, depth + 1)?);
    }
    Ok(Bson::Document(doc))
}

/// MinKey or MaxKey when `obj` is the shell's `MinKey` or `MaxKey` constructor.
fn min_max_constructor(obj: &JsObject, ctx: &mut Context) -> JsResult<Option<Bson>> {
    for (name, key) in [("MinKey", Bson::MinKey), ("MaxKey", Bson::MaxKey)] {
        let global = ctx.global_object().get(js_string!(name), ctx)?;
        if global
            .as_object()
            .is_some_and(|g| JsObject::equals(&g, obj))
        {
            return Ok(Some(key));
        }
    }
    Ok(None)
}

/// The integer keys an exotic object reports without storing them, a String object's
/// characters or a typed array's elements: how many, and the least BSON bytes and printed
/// characters each one's value takes (`None` for any other object).
fn indexed_keys(obj: &JsObject, ctx: &mut Context) -> JsResult<Option<(usize, usize, usize)>> {
    if let Some(text) = obj.downcast_ref::<boa_engine::JsString>() {
        // A one-character string: length, the character, NUL; printed 'x'.
        return Ok(Some((text.len(), 6, 3)));
    }
    match JsTypedArray::from_object(obj.clone()) {
        // A number: at least an int32; printed, a digit.
        Ok(typed) => Ok(Some((typed.length(ctx)?, 4, 1))),
        Err(_) => Ok(None),
    }
}

/// The digits of the decimal keys `0` to `count - 1`, all together.
fn index_digits(count: usize) -> usize {
    let mut total = 0usize;
    let mut width = 1;
    let mut start = 0usize;
    while start < count {
        let end = start.saturating_mul(10).max(10).min(count);
        total = total.saturating_add((end - start).saturating_mul(width));
        start = end;
        width += 1;
    }
    total
}

fn typed_to_bson(
    kind: &str,
    obj: &JsObject,
    ctx: &mut Context,
    walk: &Walk,
    depth: usize,
) -> JsResult<Bson> {
    Ok(match kind {
        "ObjectId" => {
            let hex = get_string(obj, "_hex", ctx)?;
            Bson::ObjectId(ObjectId::parse_str(&hex).map_err(|e| type_error(e.to_string()))?)
        }
        "Long" => Bson::Int64(
            get_string(obj, "_v", ctx)?
                .parse()
                .map_err(|_| type_error("invalid Long value"))?,
        ),
        "Int32" => Bson::Int32(get(obj, "_v", ctx)?.to_i32(ctx)?),
        "Double" => Bson::Double(get(obj, "_v", ctx)?.to_number(ctx)?),
        "Decimal128" => Bson::Decimal128(
            engine::value::decimal_parse::parse_decimal128(&get_string(obj, "_v", ctx)?)
                .map_err(|e| type_error(e.message))?,
        ),
        "Timestamp" => Bson::Timestamp(Timestamp {
            time: get(obj, "t", ctx)?.to_u32(ctx)?,
            increment: get(obj, "i", ctx)?.to_u32(ctx)?,
        }),
        "Binary" => {
            let b64 = get_string(obj, "_base64", ctx)?;
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(b64.as_bytes())
                .map_err(|e| type_error(format!("invalid base64: {e}")))?;
            let sub = get(obj, "sub_type", ctx)?.to_u32(ctx)? as u8;
            Bson::Binary(Binary {
                subtype: BinarySubtype::from(sub),
                bytes,
            })
        }
        "MinKey" => Bson::MinKey,
        "MaxKey" => Bson::MaxKey,
        "Code" => {
            let code = get_string(obj, "code", ctx)?;
            let scope = get(obj, "scope", ctx)?;
            if scope.is_undefined() {
                Bson::JavaScriptCode(code)
            } else {
                let Bson::Document(scope) = to_bson_at(&scope, ctx, walk, depth + 1)? else {
                    return Err(type_error("Code scope must be an object"));
                };
                Bson::JavaScriptCodeWithScope(bson::JavaScriptCodeWithScope { code, scope })
            }
        }
        "BSONRegExp" => Bson::RegularExpression(make_regex(
            &get_string(obj, "pattern", ctx)?,
            &get_string(obj, "options", ctx)?,
        )?),
        "BSONSymbol" => Bson::Symbol(get_string(obj, "value", ctx)?),
        "Raw" => {
            let text = get_string(obj, "_ejson", ctx)?;
            let json: serde_json::Value =
                serde_json::from_str(&text).map_err(|e| type_error(e.to_string()))?;
            engine::value::extjson::parse_value(json).map_err(|e| type_error(e.message))?
        }
        other => {
            return Err(type_error(format!(
                "unsupported BSON type marker '{other}'"
            )));
        }
    })
}

/// Builds the JS value for a BSON value, using the shell's BSON type constructors.
pub fn to_js(v: &Bson, ctx: &mut Context) -> JsResult<JsValue> {
    let types = ctx
        .global_object()
        .get(js_string!("__sproutBson"), ctx)?
        .as_object()
        .ok_or_else(|| type_error("shell runtime is damaged: __sproutBson missing"))?;
    to_js_with(v, ctx, &types, false)
}

/// A reply from the server as the legacy shell sees it: its documents are BSON-backed objects
/// whose string is `[object BSON]` (the mozjs shell's `BSONInfo` class, mongo/scripting/mozjs/
/// bson.cpp), so `String(doc)` and comparisons through strings (`assert.lt(docs, [{…}])`, which
/// compares "[object BSON]" with a literal's "[object Object]") behave as they do there, and
/// one written back unaltered is written as read (see `bson_backed`). The markers are
/// non-enumerable symbols: the fields, `Object.keys` and the printers see nothing else.
pub fn to_js_legacy(v: &Bson, ctx: &mut Context) -> JsResult<JsValue> {
    let types = ctx
        .global_object()
        .get(js_string!("__sproutBson"), ctx)?
        .as_object()
        .ok_or_else(|| type_error("shell runtime is damaged: __sproutBson missing"))?;
    to_js_with(v, ctx, &types, true)
}

fn make(types: &JsObject, name: &str, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let ctor = types.get(js_string!(name), ctx)?;
    let ctor = ctor
        .as_object()
        .ok_or_else(|| type_error(format!("missing BSON type {name}")))?;
    ctor.call(&JsValue::undefined(), args, ctx)
}

fn js_str(s: &str) -> JsValue {
    JsValue::from(boa_engine::JsString::from(s))
}

fn to_js_with(v: &Bson, ctx: &mut Context, types: &JsObject, tag: bool) -> JsResult<JsValue> {
    Ok(match v {
        Bson::Null => JsValue::null(),
        Bson::Undefined => JsValue::undefined(),
        Bson::Boolean(b) => JsValue::from(*b),
        Bson::Int32(i) => JsValue::from(*i),
        Bson::Double(d) => JsValue::from(*d),
        Bson::String(s) => js_str(s),
        Bson::Document(d) => JsValue::from(document_to_js(d, ctx, types, tag)?),
        Bson::Array(items) => {
            let mut out = Vec::with_capacity(items.len());
            for item in items {
                out.push(to_js_with(item, ctx, types, tag)?);
            }
            JsValue::from(JsArray::from_iter(out, ctx))
        }
        Bson::ObjectId(o) => make(types, "ObjectId", &[js_str(&o.to_hex())], ctx)?,
        Bson::Int64(i) => make(types, "Long", &[js_str(&i.to_string())], ctx)?,
        Bson::Decimal128(d) => make(types, "Decimal128", &[js_str(&d.to_string())], ctx)?,
        Bson::DateTime(d) => {
            let ctor = ctx.intrinsics().constructors().date().constructor();
            JsValue::from(ctor.construct(
                &[JsValue::from(d.timestamp_millis() as f64)],
                None,
                ctx,
            )?)
        }
        Bson::Timestamp(t) => make(
            types,
            "Timestamp",
            &[JsValue::from(t.time), JsValue::from(t.increment)],
            ctx,
        )?,
        Bson::Binary(b) => {
            let b64 = base64::engine::general_purpose::STANDARD.encode(&b.bytes);
            make(
                types,
                "Binary",
                &[js_str(&b64), JsValue::from(u8::from(b.subtype))],
                ctx,
            )?
        }
        Bson::RegularExpression(r) => {
            let js_flags = r.options.as_str().chars().all(|c| "imsu".contains(c));
            match js_flags
                .then(|| JsRegExp::new(js_str(r.pattern.as_str()), js_str(r.options.as_str()), ctx))
            {
                Some(Ok(re)) => JsValue::from(re),
                _ => make(
                    types,
                    "BSONRegExp",
                    &[js_str(r.pattern.as_str()), js_str(r.options.as_str())],
                    ctx,
                )?,
            }
        }
        Bson::MinKey => make(types, "MinKey", &[], ctx)?,
        Bson::MaxKey => make(types, "MaxKey", &[], ctx)?,
        Bson::JavaScriptCode(c) => make(types, "Code", &[js_str(c)], ctx)?,
        Bson::JavaScriptCodeWithScope(c) => {
            let scope = JsValue::from(document_to_js(&c.scope, ctx, types, tag)?);
            make(types, "Code", &[js_str(&c.code), scope], ctx)?
        }
        Bson::Symbol(s) => make(types, "BSONSymbol", &[js_str(s)], ctx)?,
        other @ Bson::DbPointer(_) => {
            let json = other.clone().into_canonical_extjson();
            let pointer = json.get("$dbPointer");
            let ns = pointer.and_then(|p| p.get("$ref")).and_then(|v| v.as_str());
            let oid = pointer
                .and_then(|p| p.get("$id"))
                .and_then(|i| i.get("$oid"))
                .and_then(|v| v.as_str());
            if let (Some(ns), Some(oid)) = (ns, oid) {
                let id = make(types, "ObjectId", &[js_str(oid)], ctx)?;
                return make(types, "DBPointer", &[js_str(ns), id], ctx);
            }
            let text = json.to_string();
            let obj = JsObject::with_object_proto(ctx.intrinsics());
            obj.create_data_property_or_throw(js_string!("_bsontype"), js_str("Raw"), ctx)?;
            obj.create_data_property_or_throw(js_string!("_ejson"), js_str(&text), ctx)?;
            JsValue::from(obj)
        }
    })
}

/// A document that is a DBRef by MongoDB's convention: `$ref` (a string) then `$id` first.
fn is_dbref(d: &Document) -> bool {
    let mut keys = d.keys();
    keys.next().map(String::as_str) == Some("$ref")
        && keys.next().map(String::as_str) == Some("$id")
        && d.get_str("$ref").is_ok()
}

fn document_to_js(
    d: &Document,
    ctx: &mut Context,
    types: &JsObject,
    tag: bool,
) -> JsResult<JsObject> {
    let obj = if is_dbref(d) {
        // Built by the shell's DBRef, so it has fetch() (js/bson_types.js); the fields follow.
        let made = make(types, "DBRef", &[], ctx)?;
        made.as_object()
            .ok_or_else(|| type_error("DBRef did not build an object"))?
            .clone()
    } else {
        JsObject::with_object_proto(ctx.intrinsics())
    };
    if tag {
        crate::bson_backed::mark(&obj, d, !is_dbref(d), ctx)?;
    }
    for (k, v) in d {
        let value = to_js_with(v, ctx, types, tag)?;
        obj.create_data_property_or_throw(boa_engine::JsString::from(k.as_str()), value, ctx)?;
    }
    Ok(obj)
}

#[cfg(test)]
mod tests {
    use super::index_digits;

    #[test]
    fn index_digits_counts_every_key_once() {
        assert_eq!(index_digits(0), 0);
        assert_eq!(index_digits(1), 1);
        assert_eq!(index_digits(10), 10);
        assert_eq!(index_digits(11), 12);
        assert_eq!(index_digits(1000), 10 + 180 + 2700);
        let slow: usize = (0..123_457usize).map(|i| i.to_string().len()).sum();
        assert_eq!(index_digits(123_457), slow);
        assert!(index_digits(usize::MAX) > 0);
    }
}

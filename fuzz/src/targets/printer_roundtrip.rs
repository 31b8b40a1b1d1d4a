//! The printers read back: a random document is printed as mongosh prints a cursor batch and as
//! the legacy shell prints it, and the lessons' output parser must read both as the same values
//! (`lessons::compare_output`, which ignores how each shell spells a BSON class); its
//! `mongosh --json=canonical` text must parse back, by the engine's Extended JSON parser, to the
//! same canonical value.

use arbitrary::{Result, Unstructured};
use bson::{Bson, Document, spec::BinarySubtype};
use shell::printer::{JsonMode, PrintOptions, Style, format_cursor_batch, format_extjson};

pub fn run(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let Ok(doc) = document(&mut u, 0) else {
        return;
    };
    // The legacy shell writes -0 as 0 (JavaScript's `toString`), mongosh as -0: both right.
    let docs = [match positive_zero(&Bson::Document(doc.clone())) {
        Bson::Document(d) => d,
        _ => doc.clone(),
    }];
    let mongosh = format_cursor_batch(
        &docs,
        &PrintOptions {
            style: Style::Mongosh,
            pretty: false,
        },
    );
    let legacy = format_cursor_batch(
        &docs,
        &PrintOptions {
            style: Style::Legacy,
            pretty: true,
        },
    );
    // mongosh prints a batch as an array of documents; legacy one document per line.
    let legacy_as_array = format!("[{legacy}]");
    if let Err(difference) = lessons::compare_output(&legacy_as_array, &mongosh) {
        panic!(
            "mongosh and legacy output read differently ({difference}):\n{mongosh}\n---\n{legacy}"
        );
    }
    let value = Bson::Document(doc);
    let canonical = format_extjson(&value, JsonMode::Canonical);
    let json: serde_json::Value = serde_json::from_str(&canonical)
        .unwrap_or_else(|e| panic!("--json=canonical output is not JSON ({e}): {canonical}"));
    let parsed = engine::value::extjson::parse_value(json)
        .unwrap_or_else(|e| panic!("--json=canonical output does not parse ({e}): {canonical}"));
    assert_eq!(
        engine::value::extjson::to_canonical(&js_view(&parsed)),
        engine::value::extjson::to_canonical(&js_view(&value)),
        "--json=canonical output reads back as another value: {canonical}"
    );
}

fn positive_zero(v: &Bson) -> Bson {
    match v {
        Bson::Double(f) if *f == 0.0 => Bson::Double(0.0),
        Bson::Document(d) => Bson::Document(
            d.iter()
                .map(|(k, v)| (k.clone(), positive_zero(v)))
                .collect(),
        ),
        Bson::Array(items) => Bson::Array(items.iter().map(positive_zero).collect()),
        other => other.clone(),
    }
}

/// What survives mongosh's trip through JavaScript (see `shell::printer::extjson`): Int32 and
/// Double are both JavaScript numbers (an integral one reads back as an integer), an object's keys come in JavaScript's order (so order is
/// not compared), a regular expression's source escapes `/` and its flags are sorted.
fn js_view(v: &Bson) -> Bson {
    match v {
        Bson::Int32(i) => Bson::Int64(i64::from(*i)),
        // js-bson writes an integral number as `$numberInt` or, past 32 bits, `$numberLong`.
        Bson::Double(f)
            if f.fract() == 0.0
                && !(*f == 0.0 && f.is_sign_negative())
                && (-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(f) =>
        {
            // The digits are JavaScript's `toString` (js-bson's `$numberLong: value.toString()`):
            // the shortest that read back as the same double, then zeros, so past 2^53 they are
            // not the double's exact value. Rust's `Display` writes the same digits.
            Bson::Int64(format!("{f}").parse::<i64>().unwrap_or(*f as i64))
        }
        Bson::Document(d) => {
            let mut pairs: Vec<(String, Bson)> =
                d.iter().map(|(k, v)| (k.to_string(), js_view(v))).collect();
            pairs.sort_by(|a, b| a.0.cmp(&b.0));
            Bson::Document(pairs.into_iter().collect())
        }
        Bson::Array(items) => Bson::Array(items.iter().map(js_view).collect()),
        Bson::RegularExpression(r) => {
            let mut flags: Vec<char> = r.options.as_str().chars().collect();
            flags.sort_unstable();
            let pattern = r.pattern.as_str().replace("\\/", "/");
            match (
                cstring(&pattern),
                cstring(&flags.into_iter().collect::<String>()),
            ) {
                (Ok(pattern), Ok(options)) => {
                    Bson::RegularExpression(bson::Regex { pattern, options })
                }
                _ => v.clone(),
            }
        }
        other => other.clone(),
    }
}

fn document(u: &mut Unstructured<'_>, depth: usize) -> Result<Document> {
    let n = u.int_in_range(0..=4)?;
    let mut d = Document::new();
    for _ in 0..n {
        // No integer-like keys: mongosh (a JavaScript object) lists them first, the legacy
        // shell in stored order, and both are right.
        let key: &str = u.choose(&["a", "b", "_id", "x y", "é", "$k", "a.b", "", "'q'"])?;
        d.insert(key, value(u, depth + 1)?);
    }
    Ok(d)
}

fn value(u: &mut Unstructured<'_>, depth: usize) -> Result<Bson> {
    let max = if depth >= 4 { 15 } else { 17 };
    Ok(match u.int_in_range(0..=max)? {
        0 => Bson::Int32(u.arbitrary()?),
        1 => Bson::Int64(u.arbitrary()?),
        2 => Bson::Double(u.arbitrary()?),
        3 => {
            Bson::Double(*u.choose(&[0.0, -0.0, 1.0, 0.1, 1e21, 1e-7, f64::NAN, f64::INFINITY])?)
        }
        4 => Bson::String(u.arbitrary()?),
        5 => Bson::Boolean(u.arbitrary()?),
        6 => Bson::Null,
        7 => Bson::ObjectId(bson::oid::ObjectId::from_bytes(u.arbitrary()?)),
        8 => Bson::DateTime(bson::DateTime::from_millis(
            u.int_in_range(-62_135_596_800_000..=253_402_300_799_999)?,
        )),
        9 => Bson::Decimal128(bson::Decimal128::from_bytes(u.arbitrary()?)),
        10 => Bson::Timestamp(bson::Timestamp {
            time: u.arbitrary()?,
            increment: u.arbitrary()?,
        }),
        11 => Bson::Binary(bson::Binary {
            subtype: *u.choose(&[
                BinarySubtype::Generic,
                BinarySubtype::Uuid,
                BinarySubtype::Md5,
            ])?,
            bytes: u.arbitrary()?,
        }),
        12 => Bson::RegularExpression(bson::Regex {
            pattern: cstring(u.choose(&["a", "^x$", "a/b", "[0-9]+", "\\d"])?)?,
            // Options in canonical order and without `s`/`x`: js-bson turns `s` into `g` and
            // drops `x` in mongosh, where the legacy shell prints them as stored.
            options: cstring(u.choose(&["", "i", "im", "m"])?)?,
        }),
        13 => Bson::MinKey,
        14 => Bson::MaxKey,
        15 => Bson::String(
            (*u.choose(&["", "it's", "a\"b", "line\nbreak", "tab\t", "\u{7f}", "𝄞"])?).into(),
        ),
        16 => {
            let len = u.int_in_range(0..=4)?;
            let mut items = Vec::with_capacity(len);
            for _ in 0..len {
                items.push(value(u, depth + 1)?);
            }
            Bson::Array(items)
        }
        _ => Bson::Document(document(u, depth + 1)?),
    })
}

fn cstring(s: &str) -> Result<bson::raw::CString> {
    s.to_string()
        .try_into()
        .map_err(|_| arbitrary::Error::IncorrectFormat)
}

//! The custom inspectors mongosh installs on the BSON classes (js-bson's `inspect` with the
//! leading `new ` removed, `UUID(…)` / `MD5(…)` for those binary subtypes, `ISODate(…)` for
//! dates). Arguments are inspected as a fresh `util.inspect` call would, from column zero.

use bson::{Binary, Bson, Document, spec::BinarySubtype};

use super::{Inspector, Limits, escape, typed_array_contents};
use crate::printer::base64;
use crate::printer::isodate::js_iso_string;
use crate::printer::jsview::{DbRefView, dbpointer_view};

/// The text of a BSON value that is a class instance in mongosh (not a number, string,
/// boolean, null, array, plain object or RegExp).
pub fn bson_class(v: &Bson, limits: Limits) -> String {
    match v {
        Bson::ObjectId(oid) => format!("ObjectId('{}')", oid.to_hex()),
        Bson::Int64(n) => format!("Long('{n}')"),
        Bson::Decimal128(d) => format!("Decimal128('{d}')"),
        Bson::Timestamp(ts) => format!("Timestamp({{ t: {}, i: {} }})", ts.time, ts.increment),
        Bson::DateTime(dt) => match js_iso_string(dt.timestamp_millis()) {
            Some(iso) => format!("ISODate('{iso}')"),
            None => "Invalid Date".to_string(),
        },
        Bson::Binary(b) => binary(b, limits),
        Bson::MinKey => "MinKey()".to_string(),
        Bson::MaxKey => "MaxKey()".to_string(),
        Bson::JavaScriptCode(code) => code_text(code, None, limits),
        Bson::JavaScriptCodeWithScope(c) => code_text(&c.code, Some(&c.scope), limits),
        Bson::DbPointer(p) => match dbpointer_view(p) {
            Some(r) => dbref(&r, limits),
            None => "DBRef()".to_string(),
        },
        other => fresh(other, limits),
    }
}

/// `DBRef('collection', <id>[, 'db'][, { fields }])`.
pub fn dbref(r: &DbRefView, limits: Limits) -> String {
    let mut args = vec![fresh_string(&r.collection, limits), fresh(&r.oid, limits)];
    if let Some(db) = r.db.as_deref().filter(|db| !db.is_empty()) {
        args.push(fresh_string(db, limits));
    }
    if !r.fields.is_empty() {
        args.push(fresh(&Bson::Document(r.fields.clone()), limits));
    }
    format!("DBRef({})", args.join(", "))
}

fn binary(b: &Binary, limits: Limits) -> String {
    match b.subtype {
        BinarySubtype::Uuid if b.bytes.len() == 16 => {
            let h = base64::hex(&b.bytes);
            return format!(
                "UUID('{}-{}-{}-{}-{}')",
                &h[..8],
                &h[8..12],
                &h[12..16],
                &h[16..20],
                &h[20..]
            );
        }
        BinarySubtype::Md5 => return format!("MD5('{}')", base64::hex(&b.bytes)),
        BinarySubtype::Vector => {
            if let Some(text) = vector(&b.bytes, limits) {
                return text;
            }
        }
        _ => {}
    }
    let code: u8 = b.subtype.into();
    let data = fresh_string(&base64::encode(&b.bytes), limits);
    format!("Binary.createFromBase64({data}, {code})")
}

/// A BSON vector (subtype 9): its dtype byte, padding byte and elements, shown as the js-bson
/// call that builds it. `None` for a malformed vector, which prints as plain binary.
fn vector(bytes: &[u8], limits: Limits) -> Option<String> {
    let (&dtype, rest) = bytes.split_first()?;
    let (&padding, data) = rest.split_first()?;
    match dtype {
        0x03 if padding == 0 => {
            let items: Vec<Bson> = data
                .iter()
                .map(|b| Bson::Int32(i32::from(*b as i8)))
                .collect();
            let list = typed_array_contents("Int8Array", &items, limits);
            Some(format!("Binary.fromInt8Array(new Int8Array({list}))"))
        }
        0x27 if padding == 0 && data.len() % 4 == 0 => {
            let items: Vec<Bson> = data
                .chunks_exact(4)
                .map(|c| Bson::Double(f64::from(f32::from_le_bytes([c[0], c[1], c[2], c[3]]))))
                .collect();
            let list = typed_array_contents("Float32Array", &items, limits);
            Some(format!("Binary.fromFloat32Array(new Float32Array({list}))"))
        }
        0x10 if padding <= 7 && (padding == 0 || !data.is_empty()) => {
            let items: Vec<Bson> = data.iter().map(|b| Bson::Int32(i32::from(*b))).collect();
            let list = typed_array_contents("Uint8Array", &items, limits);
            let padding = if padding == 0 {
                String::new()
            } else {
                format!(", {padding}")
            };
            Some(format!(
                "Binary.fromPackedBits(new Uint8Array({list}){padding})"
            ))
        }
        _ => None,
    }
}

/// js-bson's `Code` inspector: a code string that prints over several lines moves inside the
/// parentheses on its own lines.
fn code_text(code: &str, scope: Option<&Document>, limits: Limits) -> String {
    let mut params = fresh_string(code, limits);
    let multi_line = params.contains('\n');
    if let Some(scope) = scope {
        params.push(',');
        params.push(if multi_line { '\n' } else { ' ' });
        params.push_str(&fresh(&Bson::Document(scope.clone()), limits));
    }
    let open = if multi_line { "\n" } else { "" };
    let close = if multi_line && scope.is_none() {
        "\n"
    } else {
        ""
    };
    format!("Code({open}{params}{close})")
}

/// `inspect(value, options)` called from inside a custom inspector.
fn fresh(v: &Bson, limits: Limits) -> String {
    Inspector::new(limits).value(v, 0)
}

fn fresh_string(s: &str, limits: Limits) -> String {
    escape::string_primitive(s, 0, limits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::{DateTime, Decimal128, Timestamp, oid::ObjectId};

    fn show(v: Bson) -> String {
        bson_class(&v, Limits::RESULT)
    }

    #[test]
    fn classes() {
        let oid = ObjectId::parse_str("5563a3a3e9a1c6b1b41b1d1a").unwrap();
        assert_eq!(
            show(Bson::ObjectId(oid)),
            "ObjectId('5563a3a3e9a1c6b1b41b1d1a')"
        );
        assert_eq!(show(Bson::Int64(10)), "Long('10')");
        assert_eq!(
            show(Bson::Decimal128("1.5".parse::<Decimal128>().unwrap())),
            "Decimal128('1.5')"
        );
        assert_eq!(
            show(Bson::Timestamp(Timestamp {
                time: 1,
                increment: 2
            })),
            "Timestamp({ t: 1, i: 2 })"
        );
        assert_eq!(
            show(Bson::DateTime(DateTime::from_millis(0))),
            "ISODate('1970-01-01T00:00:00.000Z')"
        );
        assert_eq!(
            show(Bson::DateTime(DateTime::from_millis(i64::MAX))),
            "Invalid Date"
        );
        assert_eq!(show(Bson::MinKey), "MinKey()");
        assert_eq!(show(Bson::JavaScriptCode("x = 1".into())), "Code('x = 1')");
    }

    #[test]
    fn binaries() {
        let bin = |subtype, bytes: &[u8]| {
            Bson::Binary(Binary {
                subtype,
                bytes: bytes.to_vec(),
            })
        };
        assert_eq!(
            show(bin(BinarySubtype::Generic, b"Hello")),
            "Binary.createFromBase64('SGVsbG8=', 0)"
        );
        assert_eq!(
            show(bin(BinarySubtype::UserDefined(0x80), b"")),
            "Binary.createFromBase64('', 128)"
        );
        let uuid: Vec<u8> = (0u8..16).map(|i| i * 17).collect();
        assert_eq!(
            show(bin(BinarySubtype::Uuid, &uuid)),
            "UUID('00112233-4455-6677-8899-aabbccddeeff')"
        );
        assert_eq!(
            show(bin(BinarySubtype::Uuid, &[1, 2])),
            "Binary.createFromBase64('AQI=', 4)"
        );
        assert_eq!(show(bin(BinarySubtype::Md5, &[0xab, 0x01])), "MD5('ab01')");
    }
}

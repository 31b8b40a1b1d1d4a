//! The legacy shell's BSON-backed objects. Its documents from the server are objects of the
//! mozjs class `BSONInfo` (mongo/scripting/mozjs/bson.cpp) that keep the BSON they were read
//! from: their string is `[object BSON]`, and one that was not altered is written back from that
//! BSON, so an unchanged `NumberInt` stays an int32 where a JavaScript number would be written as
//! a double (SERVER-32072; jstests/core/dbref4.js re-saves a document whose DBRef holds an int
//! `$id`). Sprout's documents are plain objects with a hidden copy of their document; writing
//! one whose fields still equal the copy's (numbers compared by value) writes the copy.

use boa_engine::object::JsData;
use boa_engine::property::PropertyDescriptor;
use boa_engine::{Context, JsObject, JsResult, JsSymbol, JsValue, js_string};
use bson::{Bson, Document};

/// The document an object was read from.
struct Original(Document);

impl boa_engine::gc::Finalize for Original {}
// SAFETY: holds no garbage-collected values.
unsafe impl boa_engine::gc::Trace for Original {
    boa_engine::gc::empty_trace!();
}
impl JsData for Original {}

thread_local! {
    static ORIGINAL: JsSymbol = JsSymbol::new(Some(js_string!("sprout.bsonOriginal")))
        .expect("a symbol for the BSON-backed objects");
}

fn hidden(value: JsValue) -> PropertyDescriptor {
    PropertyDescriptor::builder()
        .value(value)
        .writable(false)
        .enumerable(false)
        .configurable(true)
        .build()
}

/// Marks `obj` as read from `doc`: `[object BSON]`, and `doc` kept for writing it back. A DBRef
/// keeps its own class name.
pub fn mark(obj: &JsObject, doc: &Document, tag: bool, ctx: &mut Context) -> JsResult<()> {
    if tag {
        obj.define_property_or_throw(
            JsSymbol::to_string_tag(),
            hidden(js_string!("BSON").into()),
            ctx,
        )?;
    }
    let holder = JsObject::from_proto_and_data(None, Original(doc.clone()));
    let key = ORIGINAL.with(Clone::clone);
    obj.define_property_or_throw(key, hidden(holder.into()), ctx)?;
    Ok(())
}

/// What to write for `obj`, converted as `converted`: the document it was read from when its
/// fields are still those (numbers compared by value, as the legacy shell writes every number
/// as a double), else `converted` with each whole number that replaced an int32 of the same
/// name written as an int32, as the legacy shell's ValueWriter does ("if previous type was
/// integer"; jstests/core/numberint.js adds to a read `NumberInt` and saves it back).
pub fn written(obj: &JsObject, converted: Bson, ctx: &mut Context) -> JsResult<Bson> {
    let key = ORIGINAL.with(Clone::clone);
    if !obj.has_own_property(key.clone(), ctx)? {
        return Ok(converted);
    }
    let holder = obj.get(key, ctx)?;
    let Some(holder) = holder.as_object() else {
        return Ok(converted);
    };
    let Some(original) = holder.downcast_ref::<Original>() else {
        return Ok(converted);
    };
    match &converted {
        Bson::Document(d) if same_document(d, &original.0) => {
            Ok(Bson::Document(original.0.clone()))
        }
        Bson::Document(d) => Ok(Bson::Document(keep_int32_fields(d, &original.0))),
        _ => Ok(converted),
    }
}

/// `converted` with each double field that holds a whole int32 value written as an int32 where
/// `original`'s field of that name is an int32.
fn keep_int32_fields(converted: &Document, original: &Document) -> Document {
    converted
        .iter()
        .map(|(k, v)| match (v, original.get(k)) {
            (Bson::Double(d), Some(Bson::Int32(_))) => match whole_int32(*d) {
                Some(i) => (k.clone(), Bson::Int32(i)),
                None => (k.clone(), v.clone()),
            },
            _ => (k.clone(), v.clone()),
        })
        .collect()
}

fn whole_int32(d: f64) -> Option<i32> {
    // The range check bounds the cast.
    let whole = d.fract() == 0.0 && d >= f64::from(i32::MIN) && d <= f64::from(i32::MAX);
    whole.then_some(d as i32)
}

fn same_document(a: &Document, b: &Document) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b.iter())
            .all(|((ka, va), (kb, vb))| ka == kb && same_value(va, vb))
}

fn same_value(a: &Bson, b: &Bson) -> bool {
    match (a, b) {
        (Bson::Double(x), Bson::Int32(y)) | (Bson::Int32(y), Bson::Double(x)) => {
            *x == f64::from(*y)
        }
        (Bson::Document(x), Bson::Document(y)) => same_document(x, y),
        (Bson::Array(x), Bson::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_value(p, q))
        }
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use bson::{Bson, doc};

    #[test]
    fn numbers_compare_by_value_and_fields_in_order() {
        let original = doc! {"a": 1, "b": {"c": [1, 2.5]}};
        assert!(super::same_document(
            &doc! {"a": 1.0, "b": {"c": [1.0, 2.5]}},
            &original
        ));
        assert!(!super::same_document(
            &doc! {"a": 1.5, "b": {"c": [1.0, 2.5]}},
            &original
        ));
        assert!(!super::same_document(
            &doc! {"b": {"c": [1.0, 2.5]}, "a": 1.0},
            &original
        ));
        assert!(!super::same_document(&doc! {"a": 1.0}, &original));
        assert!(!super::same_value(
            &Bson::String("1".into()),
            &Bson::Int32(1)
        ));
    }

    #[test]
    fn a_whole_double_replacing_an_int32_stays_an_int32() {
        let original = doc! {"_id": 1, "a": 42, "b": 2, "c": 1.5, "d": 7};
        let converted = doc! {"a": 52.0, "b": 2.5, "c": 3.0, "e": 4.0, "d": 1e10};
        assert_eq!(
            super::keep_int32_fields(&converted, &original),
            doc! {"a": 52, "b": 2.5, "c": 3.0, "e": 4.0, "d": 1e10}
        );
    }
}

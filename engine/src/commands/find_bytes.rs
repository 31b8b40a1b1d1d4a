//! A point `find` read straight from its command's BSON bytes: `{find: <coll>, filter:
//! {<field>: <scalar>}}` with at most `batchSize`, `limit` and `singleBatch` beside it, the
//! command the Node binding's users send most. It is answered by the express path
//! ([`crate::exec::express`]) and its reply written from the stored bytes, without decoding
//! the command into a tree, dispatching it, or entering a collation scope; the answer, the
//! reply's bytes, the cursor and the index's `$indexStats` count are those of the general path.
//!
//! Anything else falls back to the general path, which reads the command as before (and gives
//! its errors): another field (a sort, a projection, `lsid`, `readConcern`, `collation`, ...),
//! a field twice, an option of another type than the plain one (a double `limit`, a numeric
//! `singleBatch`), a negative `batchSize`, a filter that is not one field equal to a string,
//! number, ObjectId, boolean or date, malformed bytes, an invalid namespace, a collection that
//! is missing, a view or has a default collation, or a query the express path does not take.

use bson::Bson;

use super::Reply;
use crate::Engine;
use crate::catalog::{Namespace, validate_collection_name, validate_db_name};

/// The find's fields, borrowed from its bytes.
#[derive(Debug, PartialEq)]
pub(crate) struct PointFind<'b> {
    pub coll: &'b str,
    pub path: &'b str,
    pub value: Bson,
    /// A positive limit (`limit: 0` is none; a negative one also means a single batch).
    pub limit: Option<usize>,
    pub batch_size: Option<usize>,
    pub single_batch: bool,
}

impl<'b> PointFind<'b> {
    /// The find `bytes` hold, when they are one well-formed BSON document of exactly that shape.
    pub(crate) fn parse(bytes: &'b [u8]) -> Option<PointFind<'b>> {
        let mut coll = None;
        let mut filter = None;
        let mut batch_size = None;
        let mut limit = None;
        let mut single_batch = None;
        each_element(bytes, |tag, name, v| {
            match (name, tag) {
                // The command's name comes first, and only there.
                ("find", 0x02) if coll.is_none() => coll = Some(string(v)?),
                _ if coll.is_none() => return None,
                ("filter", 0x03) if filter.is_none() => filter = Some(v),
                ("batchSize", 0x10 | 0x12) if batch_size.is_none() => {
                    batch_size = Some(usize::try_from(integer(v)).ok()?);
                }
                ("limit", 0x10 | 0x12) if limit.is_none() => limit = Some(integer(v)),
                ("singleBatch", 0x08) if single_batch.is_none() => {
                    single_batch = Some(boolean(v)?);
                }
                _ => return None,
            }
            Some(())
        })?;
        let mut point = None;
        each_element(filter?, |tag, name, v| {
            if point.is_some() || name.starts_with('$') {
                return None;
            }
            point = Some((name, scalar(tag, v)?));
            Some(())
        })?;
        let (path, value) = point?;
        // As `FindRequest`: the limit's absolute value, a negative one a single batch too.
        let limit = limit.unwrap_or(0);
        let positive = limit.checked_abs()?;
        Some(PointFind {
            coll: coll?,
            path,
            value,
            limit: (positive > 0).then(|| usize::try_from(positive).unwrap_or(usize::MAX)),
            batch_size,
            single_batch: single_batch.unwrap_or(false) || limit < 0,
        })
    }
}

/// The reply to `find`, as [`super::find::find_reply`] gives it (with
/// `run_parts`' work around it left to the caller); `None` when the general path must read it.
pub(crate) fn point_find_reply(
    engine: &mut Engine,
    db: &str,
    find: PointFind<'_>,
) -> Option<Reply> {
    validate_db_name(db).ok()?;
    let ns = Namespace::new(db, find.coll);
    validate_collection_name(&ns).ok()?;
    let coll = engine.catalog().collection(&ns)?;
    // A view reads through its pipeline; a default collation compares strings its own way.
    let option = |name| crate::path::field(&coll.options, name).is_some();
    if option("viewOn") || option("collation") {
        return None;
    }
    let record_ids =
        crate::exec::express::point_record_ids(coll, find.path, &find.value, find.limit)?;
    Some(super::find::express_reply(
        engine,
        ns,
        &record_ids,
        find.batch_size,
        find.single_batch,
        true,
    ))
}

/// Calls `each` with every element of the document `doc` (its stated length exactly the
/// slice's, every element within it): its type, its name and its value's bytes. Only the types
/// a point find reads are measured; any other stops the walk (`None`), as does `each`'s `None`.
fn each_element<'b>(
    doc: &'b [u8],
    mut each: impl FnMut(u8, &'b str, &'b [u8]) -> Option<()>,
) -> Option<()> {
    let len = usize::try_from(i32::from_le_bytes(doc.get(..4)?.try_into().ok()?)).ok()?;
    if len < 5 || len != doc.len() || doc[len - 1] != 0 {
        return None;
    }
    let body = &doc[..len - 1];
    let mut at = 4;
    while at < body.len() {
        let tag = body[at];
        let rest = &body[at + 1..];
        let name_len = rest.iter().position(|&b| b == 0)?;
        let name = std::str::from_utf8(&rest[..name_len]).ok()?;
        let v = &rest[name_len + 1..];
        let size = match tag {
            0x01 | 0x09 | 0x12 => 8,
            0x10 => 4,
            0x08 => 1,
            0x07 => 12,
            0x02 => 4 + usize::try_from(i32::from_le_bytes(v.get(..4)?.try_into().ok()?)).ok()?,
            0x03 => usize::try_from(i32::from_le_bytes(v.get(..4)?.try_into().ok()?)).ok()?,
            _ => return None,
        };
        each(tag, name, v.get(..size)?)?;
        at += 1 + name_len + 1 + size;
    }
    Some(())
}

/// A string value's text: its stated length at least 1 (the NUL), UTF-8, NUL-terminated.
fn string(v: &[u8]) -> Option<&str> {
    let (&0, text) = v.get(4..)?.split_last()? else {
        return None;
    };
    std::str::from_utf8(text).ok()
}

/// An int32's or int64's value (the bytes are 4 or 8 long).
fn integer(v: &[u8]) -> i64 {
    match v.len() {
        4 => i64::from(i32::from_le_bytes([v[0], v[1], v[2], v[3]])),
        _ => i64::from_le_bytes(v.try_into().unwrap_or_default()),
    }
}

fn boolean(v: &[u8]) -> Option<bool> {
    match v {
        [0] => Some(false),
        [1] => Some(true),
        _ => None,
    }
}

/// The value of a scalar the express path takes (what the general decoder makes of it).
fn scalar(tag: u8, v: &[u8]) -> Option<Bson> {
    let eight = || v.try_into().ok();
    Some(match tag {
        0x01 => Bson::Double(f64::from_le_bytes(eight()?)),
        0x02 => Bson::String(string(v)?.to_owned()),
        0x07 => Bson::ObjectId(bson::oid::ObjectId::from_bytes(v.try_into().ok()?)),
        0x08 => Bson::Boolean(boolean(v)?),
        0x09 => Bson::DateTime(bson::DateTime::from_millis(i64::from_le_bytes(eight()?))),
        0x10 | 0x12 => {
            let n = integer(v);
            if tag == 0x10 {
                Bson::Int32(i32::try_from(n).ok()?)
            } else {
                Bson::Int64(n)
            }
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::{Document, doc};

    fn bytes(command: &Document) -> Vec<u8> {
        command.to_vec().unwrap()
    }

    #[test]
    fn reads_the_point_find_and_nothing_else() {
        let cmd = bytes(&doc! {"find": "c", "filter": {"a.b": "x"}, "batchSize": 1_000_000_000});
        assert_eq!(
            PointFind::parse(&cmd),
            Some(PointFind {
                coll: "c",
                path: "a.b",
                value: Bson::String("x".into()),
                limit: None,
                batch_size: Some(1_000_000_000),
                single_batch: false,
            })
        );
        let cmd = bytes(
            &doc! {"find": "c", "filter": {"a": 2_i64}, "limit": -3_i64, "singleBatch": false},
        );
        let p = PointFind::parse(&cmd).unwrap();
        assert_eq!(
            (p.limit, p.single_batch, p.value),
            (Some(3), true, Bson::Int64(2))
        );
        let cmd = bytes(&doc! {"find": "c", "filter": {"a": 1}, "limit": 0});
        assert_eq!(PointFind::parse(&cmd).unwrap().limit, None);
        for other in [
            doc! {"filter": {"a": 1}, "find": "c"},
            doc! {"find": "c"},
            doc! {"find": "c", "filter": {}},
            doc! {"find": 1, "filter": {"a": 1}},
            doc! {"find": "c", "filter": {"a": 1, "b": 1}},
            doc! {"find": "c", "filter": {"$and": [{"a": 1}]}},
            doc! {"find": "c", "filter": {"a": null}},
            doc! {"find": "c", "filter": {"a": {"$gt": 1}}},
            doc! {"find": "c", "filter": {"a": [1]}},
            doc! {"find": "c", "filter": {"a": 1}, "sort": {"a": 1}},
            doc! {"find": "c", "filter": {"a": 1}, "lsid": {"id": 1}},
            doc! {"find": "c", "filter": {"a": 1}, "batchSize": -1},
            doc! {"find": "c", "filter": {"a": 1}, "batchSize": 2.0},
            doc! {"find": "c", "filter": {"a": 1}, "limit": 2.0},
            doc! {"find": "c", "filter": {"a": 1}, "limit": i64::MIN},
            doc! {"find": "c", "filter": {"a": 1}, "singleBatch": 1},
            doc! {"find": "c", "filter": {"a": 1}, "tailable": true},
            doc! {"find": "c", "filter": {"a": 1}, "collation": {"locale": "en"}},
        ] {
            assert_eq!(PointFind::parse(&bytes(&other)), None, "{other}");
        }
        // A field twice (which a document cannot hold): the general path decides.
        let mut twice = bytes(&doc! {"find": "c", "filter": {"a": 1}, "limit": 1, "lima": 2});
        let at = twice.windows(4).position(|w| w == b"lima").unwrap();
        twice[at + 3] = b't';
        assert_eq!(PointFind::parse(&twice), None);
    }

    /// Two engines with the same collections: one answers through `run_command_encoded` (the
    /// point find read from its bytes), the other through the general path with the command
    /// decoded first.
    fn engines() -> (Engine, Engine) {
        let setup = |e: &mut Engine| {
            let docs: Vec<Document> = (0..6)
                .map(|i| doc! {"_id": i, "a": i % 3, "s": format!("s{}", i % 2), "m": [i, i + 1]})
                .collect();
            for (coll, idx) in [
                (
                    "c",
                    vec![
                        doc! {"key": {"a": 1}, "name": "a_1"},
                        doc! {"key": {"s": -1}, "name": "s_1"},
                        doc! {"key": {"m": 1}, "name": "m_1"},
                    ],
                ),
                (
                    "two",
                    vec![
                        doc! {"key": {"a": 1}, "name": "a_1"},
                        doc! {"key": {"a": 1, "s": 1}, "name": "as"},
                    ],
                ),
            ] {
                e.run_command("db", &doc! {"insert": coll, "documents": docs.clone()});
                e.run_command("db", &doc! {"createIndexes": coll, "indexes": idx});
            }
            e.run_command(
                "db",
                &doc! {"create": "coll8", "collation": {"locale": "en", "strength": 2}},
            );
            e.run_command("db", &doc! {"insert": "coll8", "documents": [{"_id": 1, "s": "X"}, {"_id": 2, "s": "x"}]});
            e.run_command(
                "db",
                &doc! {"createIndexes": "coll8", "indexes": [{"key": {"s": 1}, "name": "s_1"}]},
            );
            e.run_command(
                "db",
                &doc! {"create": "v", "viewOn": "c", "pipeline": [{"$match": {"a": 1}}]},
            );
        };
        let (mut a, mut b) = (Engine::new(), Engine::new());
        setup(&mut a);
        setup(&mut b);
        (a, b)
    }

    fn general(e: &mut Engine, db: &str, bytes: &[u8]) -> std::result::Result<Vec<u8>, String> {
        match crate::value::bson_bytes::decode_document(bytes) {
            Ok(cmd) => e.run_command_reply(db, &cmd).into_bytes(),
            Err(e) => Err(e.message),
        }
    }

    fn encoded(e: &mut Engine, db: &str, bytes: &[u8]) -> std::result::Result<Vec<u8>, String> {
        match e.run_command_encoded(db, bytes) {
            Ok(reply) => reply.into_bytes(),
            Err(e) => Err(e.message),
        }
    }

    fn index_stats(e: &mut Engine, coll: &str) -> Vec<Bson> {
        let r = e.run_command(
            "db",
            &doc! {"aggregate": coll, "pipeline": [{"$indexStats": {}}, {"$project": {"name": 1, "ops": "$accesses.ops"}}, {"$sort": {"name": 1}}], "cursor": {}},
        );
        r.get_document("cursor")
            .unwrap()
            .get_array("firstBatch")
            .unwrap()
            .clone()
    }

    #[test]
    fn answers_as_the_general_path() {
        let (mut a, mut b) = engines();
        let commands = [
            doc! {"find": "c", "filter": {"a": 1}},
            doc! {"find": "c", "filter": {"a": 1.0}, "batchSize": 1},
            doc! {"getMore": 7_000_000_000_000_000_001_i64, "collection": "c"},
            doc! {"find": "c", "filter": {"a": 2_i64}, "batchSize": 0},
            doc! {"find": "c", "filter": {"a": 0}, "limit": 1},
            doc! {"find": "c", "filter": {"a": 0}, "limit": -1, "batchSize": 1},
            doc! {"find": "c", "filter": {"a": 0}, "singleBatch": true, "batchSize": 1},
            doc! {"find": "c", "filter": {"a": 9}},
            doc! {"find": "c", "filter": {"s": "s1"}},
            doc! {"find": "c", "filter": {"_id": 4.0}},
            doc! {"find": "c", "filter": {"_id": 4}, "limit": 1},
            doc! {"find": "c", "filter": {"m": 2}},
            doc! {"find": "c", "filter": {"zz": 2}},
            doc! {"find": "two", "filter": {"a": 1}},
            doc! {"find": "coll8", "filter": {"s": "x"}},
            doc! {"find": "v", "filter": {"a": 1}},
            doc! {"find": "missing", "filter": {"a": 1}},
            doc! {"find": "system.x", "filter": {"a": 1}},
            doc! {"find": "", "filter": {"a": 1}},
        ];
        // The commands the point path answers itself (the others it leaves to the general path).
        let (mut c, _) = engines();
        let taken: Vec<bool> = commands
            .iter()
            .map(|cmd| c.point_find_encoded("db", &bytes(cmd)).is_some())
            .collect();
        assert_eq!(
            taken,
            [
                true, true, false, true, true, true, true, true, true, true, true, false, false,
                false, false, false, false, false, false
            ]
        );
        for cmd in &commands {
            let cmd = bytes(cmd);
            assert_eq!(encoded(&mut a, "db", &cmd), general(&mut b, "db", &cmd));
            assert_eq!(
                encoded(&mut a, "bad.db", &cmd),
                general(&mut b, "bad.db", &cmd)
            );
        }
        for coll in ["c", "two", "coll8"] {
            assert_eq!(index_stats(&mut a, coll), index_stats(&mut b, coll));
        }
        // Each byte of a point find changed, to each of a few values: the same reply or error.
        let cmd = bytes(&doc! {"find": "c", "filter": {"a": 1}, "limit": 2, "singleBatch": false});
        for at in 0..cmd.len() {
            for byte in [0x00, 0x01, 0x02, 0x08, 0x10, 0x12, 0x7f, 0xff, b'a'] {
                let mut changed = cmd.clone();
                changed[at] = byte;
                assert_eq!(
                    encoded(&mut a, "db", &changed),
                    general(&mut b, "db", &changed),
                    "byte {at} set to {byte:#x}"
                );
            }
        }
        assert_eq!(index_stats(&mut a, "c"), index_stats(&mut b, "c"));
    }
}

//! Differential check of the planner: random documents, random indexes and random filters over a
//! few fields. The same find must return the same documents from a collection without indexes,
//! from the indexed collection as the planner chooses, and with each index hinted (partial and
//! sparse indexes aside, which may rightly answer a hinted query with fewer documents).

use arbitrary::{Result, Unstructured};
use bson::{Bson, Document, doc};
use engine::Engine;

use super::{command, id_set};

const PLAIN: &str = "plain";
const INDEXED: &str = "indexed";

pub fn run(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let Ok(case) = Case::draw(&mut u) else {
        return;
    };
    let mut engine = Engine::new();
    for coll in [PLAIN, INDEXED] {
        let docs: Vec<Bson> = case.documents.iter().cloned().map(Bson::Document).collect();
        command(&mut engine, doc! {"insert": coll, "documents": docs});
    }
    let mut hintable = Vec::new();
    for (i, (key, sparse)) in case.indexes.iter().enumerate() {
        let name = format!("i{i}");
        let reply = command(
            &mut engine,
            doc! {"createIndexes": INDEXED, "indexes": [{"key": key.clone(), "name": name.clone(), "sparse": *sparse}]},
        );
        if engine::reply_ok(&reply) && !*sparse {
            hintable.push(name);
        }
    }
    for filter in &case.filters {
        let expected = command(&mut engine, doc! {"find": PLAIN, "filter": filter.clone()});
        let Some(expected) = id_set(&expected) else {
            continue;
        };
        let planned = command(
            &mut engine,
            doc! {"find": INDEXED, "filter": filter.clone()},
        );
        assert_eq!(
            id_set(&planned).as_ref(),
            Some(&expected),
            "planner's answer differs from a collection scan for {filter} with indexes {:?}: {planned}",
            case.indexes
        );
        for name in &hintable {
            let hinted = command(
                &mut engine,
                doc! {"find": INDEXED, "filter": filter.clone(), "hint": name.clone()},
            );
            if let Some(got) = id_set(&hinted) {
                assert_eq!(
                    got, expected,
                    "hinted index {name} differs from a collection scan for {filter} with indexes {:?}",
                    case.indexes
                );
            }
        }
    }
}

struct Case {
    documents: Vec<Document>,
    indexes: Vec<(Document, bool)>,
    filters: Vec<Document>,
}

const FIELDS: &[&str] = &["a", "b", "a.x", "a.y", "c"];

impl Case {
    fn draw(u: &mut Unstructured<'_>) -> Result<Case> {
        let n = u.int_in_range(1..=24)?;
        let mut documents = Vec::with_capacity(n);
        for id in 0..n {
            let mut d = doc! {"_id": id as i32};
            for f in ["a", "b", "c"] {
                if u.ratio(3, 4)? {
                    d.insert(f, value(u, 0)?);
                }
            }
            documents.push(d);
        }
        let k = u.int_in_range(1..=3)?;
        let mut indexes = Vec::with_capacity(k);
        for _ in 0..k {
            let mut key = Document::new();
            for _ in 0..u.int_in_range(1..=2)? {
                let dir = if u.arbitrary()? { 1 } else { -1 };
                key.insert(*u.choose(FIELDS)?, dir);
            }
            indexes.push((key, u.ratio(1, 6)?));
        }
        let m = u.int_in_range(1..=4)?;
        let mut filters = Vec::with_capacity(m);
        for _ in 0..m {
            filters.push(filter(u, 0)?);
        }
        Ok(Case {
            documents,
            indexes,
            filters,
        })
    }
}

/// A small value: numbers of each type (with ties across types), strings, null, booleans,
/// arrays (of scalars and of documents) and documents with `x`/`y`.
fn value(u: &mut Unstructured<'_>, depth: usize) -> Result<Bson> {
    let max = if depth >= 2 { 6 } else { 9 };
    Ok(match u.int_in_range(0..=max)? {
        0 => Bson::Int32(u.int_in_range(-2..=3)?),
        1 => Bson::Double(*u.choose(&[0.5, 1.0, -0.0, 2.0, f64::NAN, f64::INFINITY])?),
        2 => Bson::Int64(u.int_in_range(-1..=2)?),
        3 => Bson::String((*u.choose(&["", "a", "ab", "b", "A"])?).into()),
        4 => Bson::Null,
        5 => Bson::Boolean(u.arbitrary()?),
        6 => Bson::Decimal128(
            (*u.choose(&["1", "1.0", "0.5", "NaN"])?)
                .parse()
                .unwrap_or(bson::Decimal128::from_bytes([0; 16])),
        ),
        7 | 8 => {
            let len = u.int_in_range(0..=3)?;
            let mut items = Vec::with_capacity(len);
            for _ in 0..len {
                items.push(value(u, depth + 1)?);
            }
            Bson::Array(items)
        }
        _ => {
            let mut d = Document::new();
            for f in ["x", "y"] {
                if u.arbitrary()? {
                    d.insert(f, value(u, depth + 1)?);
                }
            }
            Bson::Document(d)
        }
    })
}

fn filter(u: &mut Unstructured<'_>, depth: usize) -> Result<Document> {
    if depth < 2 && u.ratio(1, 5)? {
        let op = *u.choose(&["$and", "$or", "$nor"])?;
        let n = u.int_in_range(1..=3)?;
        let mut parts = Vec::with_capacity(n);
        for _ in 0..n {
            parts.push(Bson::Document(filter(u, depth + 1)?));
        }
        return Ok(doc! {op: parts});
    }
    let path = *u.choose(FIELDS)?;
    let operand = predicate(u, depth)?;
    Ok(doc! {path: operand})
}

fn predicate(u: &mut Unstructured<'_>, depth: usize) -> Result<Bson> {
    Ok(match u.int_in_range(0..=12)? {
        0 => value(u, 1)?,
        1..=4 => {
            let op = *u.choose(&["$eq", "$ne", "$gt", "$gte", "$lt", "$lte"])?;
            Bson::Document(doc! {op: value(u, 1)?})
        }
        5 => {
            let op = *u.choose(&["$in", "$nin", "$all"])?;
            let len = u.int_in_range(0..=3)?;
            let mut items = Vec::with_capacity(len);
            for _ in 0..len {
                items.push(value(u, 2)?);
            }
            Bson::Document(doc! {op: items})
        }
        6 => Bson::Document(doc! {"$exists": u.arbitrary::<bool>()?}),
        7 => Bson::Document(
            doc! {"$type": *u.choose(&["number", "string", "array", "null", "object", "double"])?},
        ),
        8 => Bson::Document(doc! {"$size": u.int_in_range(0..=2)?}),
        9 if depth < 2 => Bson::Document(doc! {"$elemMatch": filter(u, depth + 1)?}),
        10 if depth < 2 => Bson::Document(doc! {"$not": {"$gt": value(u, 2)?}}),
        11 => Bson::Document(doc! {"$regex": *u.choose(&["^a", "b", "^$", "A"])?}),
        _ => {
            let lo = value(u, 2)?;
            let hi = value(u, 2)?;
            Bson::Document(doc! {"$gte": lo, "$lt": hi})
        }
    })
}

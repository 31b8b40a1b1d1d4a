//! Random filters, projections and sorts (from a fixed-seed generator) against random
//! documents: parsing may fail with an error, but nothing may panic.

use bson::{Bson, Document};

use crate::Engine;

struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items
            .get(self.below(items.len() as u64) as usize)
            .copied()
            .unwrap_or("a")
    }
}

const FIELDS: &[&str] = &["a", "b", "a.b", "a.0", "a.b.c", "c.1.d", "_id", "x.y"];
const OPS: &[&str] = &[
    "$eq",
    "$ne",
    "$gt",
    "$gte",
    "$lt",
    "$lte",
    "$in",
    "$nin",
    "$exists",
    "$type",
    "$mod",
    "$regex",
    "$options",
    "$elemMatch",
    "$all",
    "$size",
    "$not",
    "$bitsAllSet",
    "$bitsAnyClear",
    "$foo",
];
const TOP: &[&str] = &[
    "$and",
    "$or",
    "$nor",
    "$expr",
    "$comment",
    "$jsonSchema",
    "$where",
];

fn value(r: &mut Lcg, depth: u32) -> Bson {
    match r.below(if depth > 2 { 9 } else { 12 }) {
        0 => Bson::Int32(r.below(10) as i32 - 3),
        1 => Bson::Int64(r.below(1000) as i64 - 500),
        2 => Bson::Double([0.5, -1.0, f64::NAN, f64::INFINITY, 3.0][r.below(5) as usize]),
        3 => Bson::String(
            r.pick(&["x", "", "$a", "$$ROOT", "^a.*", "(", "number", "int"])
                .into(),
        ),
        4 => Bson::Null,
        5 => Bson::Boolean(r.below(2) == 0),
        6 => Bson::Decimal128(
            r.pick(&["1.5", "NaN", "-0", "1E+6000", "9223372036854775808"])
                .parse()
                .unwrap_or(bson::Decimal128::from_bytes([0; 16])),
        ),
        7 => Bson::Undefined,
        8 => Bson::MinKey,
        9 => Bson::Array((0..r.below(4)).map(|_| value(r, depth + 1)).collect()),
        10 => Bson::Document(operand_doc(r, depth + 1)),
        _ => Bson::Document(
            (0..r.below(3))
                .map(|_| (r.pick(FIELDS).to_string(), value(r, depth + 1)))
                .collect(),
        ),
    }
}

fn operand_doc(r: &mut Lcg, depth: u32) -> Document {
    (0..=r.below(2))
        .map(|_| (r.pick(OPS).to_string(), value(r, depth + 1)))
        .collect()
}

fn filter(r: &mut Lcg, depth: u32) -> Document {
    let mut f = Document::new();
    for _ in 0..=r.below(2) {
        if depth < 3 && r.below(4) == 0 {
            let op = r.pick(TOP);
            let v = match op {
                "$and" | "$or" | "$nor" => Bson::Array(
                    (0..r.below(3))
                        .map(|_| Bson::Document(filter(r, depth + 1)))
                        .collect(),
                ),
                _ => value(r, depth + 1),
            };
            f.insert(op, v);
        } else {
            f.insert(r.pick(FIELDS), value(r, depth));
        }
    }
    f
}

fn document(r: &mut Lcg) -> Document {
    (0..r.below(4))
        .map(|_| (r.pick(&["a", "b", "c", "x"]).to_string(), value(r, 1)))
        .collect()
}

#[test]
fn random_inputs_never_panic() {
    let mut r = Lcg(7);
    let docs: Vec<Document> = (0..40).map(|_| document(&mut r)).collect();
    let mut engine = Engine::new();
    let reply = engine.run_command("t", &bson::doc! {"insert": "c", "documents": docs.clone()});
    assert!(crate::reply_ok(&reply), "{reply}");
    let mut parsed = 0;
    for _ in 0..2000 {
        let f = filter(&mut r, 0);
        if let Ok(filter) = super::Filter::parse(&f) {
            parsed += 1;
            for d in &docs {
                let _ = filter.matches(d);
                let _ = filter.first_array_position(d);
            }
            let _ = filter.parsed_query();
        }
        let projection: Document = (0..=r.below(2))
            .map(|_| (r.pick(FIELDS).to_string(), value(&mut r, 1)))
            .collect();
        let sort: Document = (0..r.below(2))
            .map(|_| (r.pick(FIELDS).to_string(), value(&mut r, 2)))
            .collect();
        let reply = engine.run_command(
            "t",
            &bson::doc! {"find": "c", "filter": f, "projection": projection, "sort": sort},
        );
        assert!(reply.contains_key("ok"));
    }
    // The generator is not so hostile that nothing parses.
    assert!(parsed > 100, "only {parsed} filters parsed");
}

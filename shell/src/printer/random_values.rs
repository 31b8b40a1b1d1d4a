//! Random BSON values of every type, printed in every style: nothing may panic, Extended JSON
//! must be valid JSON, and a mongosh cursor batch is one array.

use bson::{
    Binary, Bson, DateTime, Decimal128, Document, JavaScriptCodeWithScope, Regex, Timestamp,
    oid::ObjectId, raw::CString, spec::BinarySubtype,
};

use super::{
    JsonMode, PrintOptions, Style, format_cursor_batch, format_extjson, format_named, format_value,
};

/// xorshift64*: deterministic, so a failure names its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    fn string(&mut self) -> String {
        const PIECES: [&str; 14] = [
            "a", "Product", " ", "'", "\"", "`", "${", "\\", "\n", "\t", "\u{1}", "\u{85}", "产品",
            "😀",
        ];
        (0..self.below(12))
            .map(|_| PIECES[self.below(PIECES.len() as u64) as usize])
            .collect()
    }

    fn key(&mut self) -> String {
        match self.below(5) {
            0 => self.below(20).to_string(),
            1 => "$ref".to_string(),
            2 => "$id".to_string(),
            _ => self.string(),
        }
    }

    fn value(&mut self, depth: u32) -> Bson {
        let kinds = if depth == 0 { 20 } else { 22 };
        match self.below(kinds) {
            0 => Bson::Double(f64::from_bits(self.next())),
            1 => Bson::Double([0.0, -0.0, 1.5, 10.0, 1e21, 1e-7][self.below(6) as usize]),
            2 => Bson::String(self.string()),
            3 => Bson::Boolean(self.below(2) == 0),
            4 => Bson::Null,
            5 => Bson::Undefined,
            6 => Bson::Int32(self.next() as i32),
            7 => Bson::Int64(self.next() as i64),
            8 => Bson::ObjectId(ObjectId::from_bytes(
                self.next().to_be_bytes().repeat(2)[..12]
                    .try_into()
                    .unwrap_or([0; 12]),
            )),
            9 => Bson::DateTime(DateTime::from_millis(self.next() as i64 >> self.below(20))),
            10 => Bson::Timestamp(Timestamp {
                time: self.next() as u32,
                increment: self.next() as u32,
            }),
            11 => Bson::Decimal128(Decimal128::from_bytes(
                (u128::from(self.next()) << 64 | u128::from(self.next())).to_le_bytes(),
            )),
            12 => {
                let subtype = [0u8, 2, 3, 4, 5, 9, 0x80][self.below(7) as usize];
                let bytes: Vec<u8> = (0..self.below(20)).map(|_| self.next() as u8).collect();
                Bson::Binary(Binary {
                    subtype: BinarySubtype::from(subtype),
                    bytes,
                })
            }
            13 => {
                let pattern = self.string().replace('\0', "");
                let options = ["", "i", "ms", "imsx", "u"][self.below(5) as usize];
                match (CString::try_from(pattern), CString::try_from(options)) {
                    (Ok(pattern), Ok(options)) => {
                        Bson::RegularExpression(Regex { pattern, options })
                    }
                    _ => Bson::Null,
                }
            }
            14 => Bson::JavaScriptCode(self.string()),
            15 => Bson::JavaScriptCodeWithScope(JavaScriptCodeWithScope {
                code: self.string(),
                scope: self.doc(0),
            }),
            16 => Bson::Symbol(self.string()),
            17 => Bson::MinKey,
            18 => Bson::MaxKey,
            19 => Bson::String(String::new()),
            20 => Bson::Document(self.doc(depth - 1)),
            _ => Bson::Array((0..self.below(12)).map(|_| self.value(depth - 1)).collect()),
        }
    }

    fn doc(&mut self, depth: u32) -> Document {
        (0..self.below(8))
            .map(|_| (self.key(), self.value(depth)))
            .collect()
    }
}

#[test]
fn random_values_print_in_every_style() {
    for seed in 1..400u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let doc = rng.doc(4);
        let value = Bson::Document(doc.clone());
        for style in [Style::Mongosh, Style::Legacy] {
            for pretty in [false, true] {
                let opts = PrintOptions { style, pretty };
                let _ = format_value(&value, &opts);
                let _ = format_named("WriteResult", &doc, &opts);
                let batch = format_cursor_batch(std::slice::from_ref(&doc), &opts);
                if style == Style::Mongosh {
                    assert!(
                        batch.starts_with('[') && batch.ends_with(']'),
                        "seed {seed}: {batch}"
                    );
                }
            }
        }
        for mode in [JsonMode::Relaxed, JsonMode::Canonical] {
            let json = format_extjson(&value, mode);
            assert!(
                serde_json::from_str::<serde_json::Value>(&json).is_ok(),
                "seed {seed}: invalid JSON\n{json}"
            );
        }
    }
}

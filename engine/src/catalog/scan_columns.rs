//! Value columns over a collection's stored bytes, for collection scans run again on unchanged
//! data (a learner re-running a query, a page polling one): for a top-level field that two
//! scans asked for with no write between them, each record's value kept as an index into the
//! field's distinct values. A scan then decides a filter's clause on that field once per
//! distinct value and, per record, by one lookup, instead of walking every record's bytes to
//! the field, which was most of such a scan (`docs/performance.md`, session 22). Any write
//! drops every column (see [`super::raw_store::RawStore`]); a field with too many distinct
//! values for a column to pay is noted and not built again until then.

/// The most fields a collection keeps columns (or "unfit" notes) for until its next write.
pub const MAX_COLUMN_FIELDS: usize = 8;

/// Scans of a field since the last write before the next one builds its column. Building
/// costs about two scans' walks (one walk of every record for all the fields built, and a
/// hash lookup per value); a column then makes the walk a lookup. Built on the third scan, the
/// rent-or-buy rule (buy once the rent paid reaches the price) keeps a write followed by any
/// number of scans within about 1.5 times what it cost without columns, and costs nothing
/// when a write comes every one or two scans (`docs/performance.md`, session 22).
pub const SCANS_BEFORE_BUILD: u8 = 2;

/// A record's value of one field as a column keeps it.
#[cfg_attr(test, derive(Debug, PartialEq))]
pub enum ColumnValue {
    /// The document has no such field.
    Missing,
    /// The BSON type byte and the value's bytes.
    Present(u8, Box<[u8]>),
}

/// One field's column.
pub struct Column {
    /// Per position in the store's record list: the index of its value in `values`.
    pub ids: Vec<u16>,
    /// The field's distinct values.
    pub values: Vec<ColumnValue>,
}

enum FieldState {
    /// Scans asked for it this many times since the last write (fewer than
    /// [`SCANS_BEFORE_BUILD`]).
    Asked(u8),
    Built(Column),
    /// More distinct values than a column is worth (see [`build`]).
    Unfit,
}

/// The columns of one collection, dropped at every write.
#[derive(Default)]
pub struct ScanColumns {
    fields: Vec<(Box<str>, FieldState)>,
}

impl std::fmt::Debug for ScanColumns {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ScanColumns({} fields)", self.fields.len())
    }
}

impl ScanColumns {
    pub fn clear(&mut self) {
        self.fields.clear();
    }

    /// Builds what `names` need and says whether every one has a column now. A field's asks
    /// since the last write are counted (a scan run once or twice builds nothing); at the
    /// ask after the [`SCANS_BEFORE_BUILD`]th, its column is built from the records' bytes
    /// (`record(position)`: `None` for a removed record).
    pub fn prepare<'b>(
        &mut self,
        names: &[&str],
        positions: usize,
        record: impl Fn(usize) -> Option<&'b [u8]>,
    ) -> bool {
        let mut all = true;
        for name in names {
            let i = match self.fields.iter().position(|(n, _)| &**n == *name) {
                Some(i) => i,
                None if self.fields.len() < MAX_COLUMN_FIELDS => {
                    self.fields.push(((*name).into(), FieldState::Asked(0)));
                    self.fields.len() - 1
                }
                None => {
                    all = false;
                    continue;
                }
            };
            let state = &mut self.fields[i].1;
            if let FieldState::Asked(n) = state {
                *n += 1;
                if *n > SCANS_BEFORE_BUILD {
                    *state = build(positions, |p| match record(p) {
                        None => Some(None),
                        Some(doc) => match crate::matcher::raw::element(doc, name)? {
                            Some(key) => Some(Some(key)),
                            None => Some(Some((MISSING, &[][..]))),
                        },
                    });
                }
            }
            all &= matches!(state, FieldState::Built(_));
        }
        all
    }

    /// The columns of `names`, in order, when [`Self::prepare`] said they all have one.
    pub fn columns_for(&self, names: &[&str]) -> Option<Vec<&Column>> {
        names
            .iter()
            .map(|name| {
                self.fields.iter().find_map(|(n, s)| match s {
                    FieldState::Built(c) if &**n == *name => Some(c),
                    _ => None,
                })
            })
            .collect()
    }
}

/// The type byte standing for a missing field (no BSON type has it).
const MISSING: u8 = 0x00;

/// A value as the build keys it: type byte and bytes, borrowed from the store.
type Key<'b> = (u8, &'b [u8]);

/// The distinct values of one column being built: their keys in id order and an open-addressing
/// table of ids (`EMPTY`: a free slot) by the keys' hash, at least twice as many slots as the
/// column may have values. Written out rather than a `HashMap` of borrowed keys: the shipped
/// wasm has no room to spare (issue #22's size bar).
struct Distinct<'b> {
    keys: Vec<Key<'b>>,
    slots: Vec<u16>,
}

const EMPTY: u16 = u16::MAX;
/// The longest run of slots a lookup walks (a table at most half full rarely needs ten).
const MAX_PROBES: usize = 64;

impl<'b> Distinct<'b> {
    /// The id of `key`, a new one if it is new; `None` when there would be more than `limit`
    /// (which the table has room for twice over), or when finding its slot walks more than
    /// [`MAX_PROBES`] slots: values crafted to collide (the hash is not keyed) end the build
    /// instead of making it quadratic.
    fn id(&mut self, key: Key<'b>, limit: usize) -> Option<u16> {
        // Fx's step a byte at a time (the values are a few bytes).
        let h = key.1.iter().fold(u32::from(key.0), |h, &b| {
            (h.rotate_left(5) ^ u32::from(b)).wrapping_mul(0x9e37_79b9)
        });
        let mask = self.slots.len() - 1;
        let mut at = (h ^ (h >> 16)) as usize & mask;
        for _ in 0..MAX_PROBES {
            match self.slots[at] {
                EMPTY if self.keys.len() < limit => {
                    let id = self.keys.len() as u16;
                    self.keys.push(key);
                    self.slots[at] = id;
                    return Some(id);
                }
                EMPTY => return None,
                id => {
                    let k = self.keys[usize::from(id)];
                    // Word-wise: the values are a few bytes, and `==` on slices was a `memcmp` call.
                    if k.0 == key.0 && crate::path::same_name(k.1, key.1) {
                        return Some(id);
                    }
                }
            }
            at = (at + 1) & mask;
        }
        None
    }
}

/// The column of one field over `positions` records (`value(position)`: the record's value,
/// `Some(None)` for a removed record, `None` when its bytes are not understood or not kept);
/// [`FieldState::Unfit`] when a record's bytes cannot be read, or when the field has more
/// distinct values than fit in a `u16` or than half the records: then deciding each distinct
/// value costs about what walking to the field would. Only distinct values are copied.
fn build<'b>(positions: usize, value: impl Fn(usize) -> Option<Option<Key<'b>>>) -> FieldState {
    let limit = (positions / 2 + 16).min(usize::from(EMPTY) - 1);
    let mut distinct = Distinct {
        keys: Vec::new(),
        slots: vec![EMPTY; (limit * 2).next_power_of_two()],
    };
    let mut ids = Vec::with_capacity(positions);
    for p in 0..positions {
        // A removed record is never read: any id.
        let id = match value(p) {
            Some(Some(key)) => distinct.id(key, limit),
            Some(None) => Some(0),
            None => None,
        };
        let Some(id) = id else {
            return FieldState::Unfit;
        };
        ids.push(id);
    }
    let mut values: Vec<ColumnValue> = distinct
        .keys
        .iter()
        .map(|&(tag, value)| match tag {
            MISSING => ColumnValue::Missing,
            _ => ColumnValue::Present(tag, value.into()),
        })
        .collect();
    if values.is_empty() {
        // Every record removed: one value for the positions to name.
        values.push(ColumnValue::Missing);
    }
    FieldState::Built(Column { ids, values })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int_doc(name: &str, n: i32) -> Vec<u8> {
        bson::doc! {name: n}.to_vec().unwrap()
    }

    fn value(n: i32) -> ColumnValue {
        ColumnValue::Present(0x10, n.to_le_bytes().to_vec().into())
    }

    #[test]
    fn built_after_a_few_asks_and_kept() {
        let mut c = ScanColumns::default();
        let data = [
            Some(int_doc("a", 1)),
            None,
            Some(int_doc("a", 2)),
            Some(int_doc("a", 1)),
            Some(int_doc("b", 1)),
        ];
        let reads = std::cell::Cell::new(0);
        let record = |p: usize| {
            reads.set(reads.get() + 1);
            data[p].as_deref()
        };
        for _ in 0..SCANS_BEFORE_BUILD {
            assert!(!c.prepare(&["a"], data.len(), record));
            assert!(c.columns_for(&["a"]).is_none());
        }
        assert_eq!(reads.get(), 0, "the first asks read nothing");
        assert!(c.prepare(&["a"], data.len(), record));
        assert!(c.prepare(&["a"], data.len(), record));
        assert_eq!(reads.get(), data.len(), "built once");
        let cols = c.columns_for(&["a"]).unwrap();
        let col = cols[0];
        assert_eq!(col.values, vec![value(1), value(2), ColumnValue::Missing]);
        assert_eq!(col.ids, vec![0, 0, 1, 0, 2]);
        c.clear();
        assert!(c.columns_for(&["a"]).is_none());
    }

    #[test]
    fn bytes_not_understood_make_a_field_unfit() {
        let mut c = ScanColumns::default();
        let good = int_doc("a", 1);
        let data = [Some(good.as_slice()), Some(&[9u8, 0, 0][..])];
        for _ in 0..=SCANS_BEFORE_BUILD {
            assert!(!c.prepare(&["a"], 2, |p| data[p]));
        }
        assert!(c.columns_for(&["a"]).is_none());
    }

    #[test]
    fn many_distinct_values_make_a_field_unfit_until_cleared() {
        let mut c = ScanColumns::default();
        let docs: Vec<Vec<u8>> = (0..200).map(|i| int_doc("u", i)).collect();
        let record = |p: usize| Some(docs[p].as_slice());
        for _ in 0..SCANS_BEFORE_BUILD {
            c.prepare(&["u"], 200, record);
        }
        assert!(!c.prepare(&["u"], 200, record));
        assert!(!c.prepare(&["u"], 200, record));
        assert!(c.columns_for(&["u"]).is_none());
    }

    #[test]
    fn values_that_collide_end_the_build_instead_of_slowing_it() {
        let mut d = Distinct {
            keys: Vec::new(),
            slots: vec![EMPTY; 1 << 12],
        };
        // Every slot taken by other values, as colliding hashes would take a run of them.
        let bytes: Vec<[u8; 2]> = (0..1u16 << 12).map(|i| i.to_le_bytes()).collect();
        for (i, b) in bytes.iter().enumerate() {
            d.keys.push((0x05, b));
            d.slots[i] = i as u16;
        }
        assert_eq!(d.id((0x02, &[1, 2]), 1 << 13), None);
        let mut d = Distinct {
            keys: Vec::new(),
            slots: vec![EMPTY; 8],
        };
        assert_eq!(d.id((0x02, &[1, 2]), 4), Some(0));
        assert_eq!(d.id((0x10, &[1, 2]), 4), Some(1));
        assert_eq!(d.id((0x02, &[1, 2]), 4), Some(0));
        assert_eq!(d.id((0x02, &[3]), 2), None, "over the limit");
    }

    #[test]
    fn a_few_fields_at_most() {
        let mut c = ScanColumns::default();
        let names: Vec<String> = (0..MAX_COLUMN_FIELDS + 3)
            .map(|i| format!("f{i}"))
            .collect();
        let doc = int_doc("x", 1);
        for n in &names {
            c.prepare(&[n.as_str()], 1, |_| Some(doc.as_slice()));
        }
        assert_eq!(c.fields.len(), MAX_COLUMN_FIELDS);
    }
}

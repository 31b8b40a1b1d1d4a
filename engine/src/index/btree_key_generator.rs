//! MongoDB's B-tree key generator (`BtreeKeyGenerator::_getKeysWithArray`): the key tuples one
//! document makes in an ascending/descending/hashed index, with the multikey path components.
//!
//! The rule, as MongoDB's `btree_key_generator.cpp` applies it: at each level all key fields
//! still being read are followed down to the first array on their path. Fields that reach a
//! value there are fixed; a field that reaches nothing indexes `null`. Every field that reaches
//! an array must reach the *same* array (otherwise `cannot index parallel arrays`, code 171);
//! that array is expanded once, and for each element all the fields through it continue into
//! that one element. So `{'a.x': 1, 'a.y': 1}` over `{a: [{x: 1, y: 2}, {x: 3, y: 4}]}` makes
//! the keys `(1, 2)` and `(3, 4)`, never `(1, 4)`: fields through one array are paired per
//! element, and the number of keys is linear in the array's size. An empty array indexes as
//! `undefined` where the path ends and `null` below it; an array of arrays is not traversed for
//! a field name. A numeric component (`a.0`) names one array element ("positional"), which does
//! not make the index multikey at that array; an element document that also has a field of
//! that name is ambiguous (code 16746). A sparse index skips each key whose fields were all
//! missing.

use std::collections::{BTreeSet, HashSet};

use bson::{Bson, Document};

use super::encode::encode_value;
use super::spec::{IndexSpec, KeyKind};
use crate::error::{Error, ErrorCode, Result};
use crate::path::array_index;
use crate::value::display::key_value;
use crate::value::hashed::hash_value;

static NULL: Bson = Bson::Null;
static UNDEFINED: Bson = Bson::Undefined;

/// The most memory one document's keys in one index may take, estimated as twice the keys'
/// encoded size (the encoded entry and the stored values) plus the per-key bookkeeping. MongoDB
/// has no such limit; in Sprout the index lives in the page's memory, and `{a: 1, 'a.b': 1}`
/// over one element holding a 20,000-element array copies that element into 20,000 keys.
pub const MAX_KEY_BYTES_PER_DOCUMENT: usize = 100 * 1024 * 1024;

/// Bookkeeping counted per key beside its encoding: the index entry, the record id and the
/// vectors holding the key.
const PER_KEY_OVERHEAD: usize = 96;

/// The keys and multikey path components of one document.
#[derive(Debug)]
pub struct GeneratedKeys {
    pub keys: Vec<Vec<Bson>>,
    pub multikey_paths: Vec<BTreeSet<usize>>,
}

/// Generates `doc`'s keys for the (non-text) index `spec`.
pub fn generate(spec: &IndexSpec, doc: &Document) -> Result<GeneratedKeys> {
    let paths: Vec<&[String]> = spec.parts.iter().map(|p| p.path.parts()).collect();
    let mut generator = Generator {
        spec,
        paths: &paths,
        multikey_paths: vec![BTreeSet::new(); paths.len()],
        keys: Vec::new(),
        seen: HashSet::new(),
        bytes: 0,
    };
    let mut fields: Vec<Field> = paths
        .iter()
        .map(|_| Field {
            next: Some(0),
            value: &NULL,
        })
        .collect();
    let positional = vec![None; paths.len()];
    generator.level(Some(doc), &mut fields, &positional, 0)?;
    for (i, part) in spec.parts.iter().enumerate() {
        if part.kind == KeyKind::Hashed && !generator.multikey_paths[i].is_empty() {
            return Err(Error::location(
                16766,
                "Error: hashed indexes do not currently support array values",
            ));
        }
    }
    Ok(GeneratedKeys {
        keys: generator.keys,
        multikey_paths: generator.multikey_paths,
    })
}

/// One key field during generation.
#[derive(Clone, Copy)]
struct Field<'d> {
    /// The path component to read next; `None` once the value is fixed.
    next: Option<usize>,
    value: &'d Bson,
}

/// A field whose next component names one element of the array being expanded (MongoDB's
/// `PositionalPathInfo`): what the rest of its path reaches from that element, found once for
/// the whole array.
#[derive(Clone, Copy)]
struct Positional<'d> {
    /// The named element.
    element: &'d Bson,
    /// The array, for the ambiguity error.
    array: &'d [Bson],
    /// The index of the named element (its field name in the array).
    index: usize,
    /// What the path reaches below the element (the element itself, a value, or an array met
    /// on the way), its field name, and the component after it.
    reached: Option<(&'d str, &'d Bson, usize)>,
}

struct Generator<'s> {
    spec: &'s IndexSpec,
    paths: &'s [&'s [String]],
    multikey_paths: Vec<BTreeSet<usize>>,
    keys: Vec<Vec<Bson>>,
    /// Encodings of the keys kept, to keep each key once (equal values of different numeric
    /// types encode alike, as in MongoDB's KeyString set).
    seen: HashSet<Vec<u8>>,
    bytes: usize,
}

/// The array being expanded at one level: the value and its field name.
struct Expanded<'d> {
    name: &'d str,
    items: &'d [Bson],
    value: &'d Bson,
}

impl<'d> Generator<'d> {
    /// One level of MongoDB's recursion over `obj` (an element that is not a document reads as
    /// an empty one: `None`).
    fn level(
        &mut self,
        obj: Option<&'d Document>,
        fields: &mut [Field<'d>],
        positional: &[Option<Positional<'d>>],
        mut not_found: usize,
    ) -> Result<()> {
        let mut expanded: Option<Expanded<'d>> = None;
        let mut through_array: Vec<usize> = Vec::new();
        let mut may_expand = true;
        for i in 0..fields.len() {
            let Some(pos) = fields[i].next else { continue };
            let path = self.paths[i];
            let name = path[pos].as_str();
            let have_field = obj.is_some_and(|d| d.contains_key(name));
            let found = match (have_field, positional[i]) {
                (true, Some(p)) => return Err(ambiguous(p)),
                (true, None) => obj.and_then(|d| field_or_array(d, path, pos)),
                (false, Some(p)) => {
                    if matches!(p.element, Bson::Array(_)) {
                        may_expand = false;
                    }
                    p.reached
                }
                (false, None) => None,
            };
            match found {
                None => {
                    fields[i] = Field {
                        next: None,
                        value: &NULL,
                    };
                    not_found += 1;
                }
                Some((name, value @ Bson::Array(items), after)) => {
                    through_array.push(i);
                    fields[i].next = Some(after);
                    match &expanded {
                        None => {
                            expanded = Some(Expanded { name, items, value });
                        }
                        Some(first) if !std::ptr::eq(first.value, value) => {
                            return Err(Error::new(
                                ErrorCode::CannotIndexParallelArrays,
                                format!("cannot index parallel arrays [{name}] [{}]", first.name),
                            ));
                        }
                        Some(_) => {}
                    }
                }
                Some((_, value, _)) => {
                    fields[i] = Field { next: None, value };
                }
            }
        }
        let Some(array) = expanded else {
            if self.spec.sparse && not_found == fields.len() {
                return Ok(());
            }
            return self.emit(fields);
        };
        let no_positional = vec![None; fields.len()];
        if array.items.is_empty() {
            if may_expand {
                for &i in &through_array {
                    self.record_multikey(i, fields[i].next);
                }
            }
            return self.element(
                &UNDEFINED,
                array.value,
                fields,
                &through_array,
                true,
                &no_positional,
                not_found,
            );
        }
        let mut sub_positional = no_positional;
        for &i in &through_array {
            let Some(next) = fields[i].next else { continue };
            let path = self.paths[i];
            if next == path.len() {
                if may_expand {
                    self.record_multikey(i, Some(next));
                }
                continue;
            }
            match array_index(&path[next]).and_then(|n| array.items.get(n).map(|e| (n, e))) {
                None => self.record_multikey(i, Some(next)),
                Some((index, element)) => {
                    sub_positional[i] = Some(Positional {
                        element,
                        array: array.items,
                        index,
                        reached: below_element(element, &path[next], path, next + 1),
                    });
                }
            }
        }
        for item in array.items {
            self.element(
                item,
                array.value,
                fields,
                &through_array,
                may_expand,
                &sub_positional,
                not_found,
            )?;
        }
        Ok(())
    }

    /// MongoDB's `_getKeysArrEltFixed`: continues into one element of the expanded array.
    #[allow(clippy::too_many_arguments)]
    fn element(
        &mut self,
        item: &'d Bson,
        array: &'d Bson,
        fields: &[Field<'d>],
        through_array: &[usize],
        may_expand: bool,
        positional: &[Option<Positional<'d>>],
        not_found: usize,
    ) -> Result<()> {
        let mut fields = fields.to_vec();
        for &i in through_array {
            if fields[i].next == Some(self.paths[i].len()) {
                fields[i] = Field {
                    next: None,
                    value: if may_expand { item } else { array },
                };
            }
        }
        let obj = match item {
            Bson::Document(d) => Some(d),
            _ => None,
        };
        self.level(obj, &mut fields, positional, not_found)
    }

    /// Records the array met just before component `after` of field `i`'s path.
    fn record_multikey(&mut self, i: usize, after: Option<usize>) {
        if let Some(after) = after.filter(|a| *a > 0) {
            self.multikey_paths[i].insert(after - 1);
        }
    }

    /// Keeps one key (once), counting its memory against the per-document limit.
    fn emit(&mut self, fields: &[Field<'d>]) -> Result<()> {
        let key: Vec<Bson> = fields
            .iter()
            .zip(&self.spec.parts)
            .map(|(f, part)| {
                if part.kind == KeyKind::Hashed {
                    hash_value(f.value)
                } else {
                    f.value.clone()
                }
            })
            .collect();
        let mut encoded = Vec::new();
        for v in &key {
            encode_value(v, &mut encoded);
        }
        let size = encoded.len() * 2 + PER_KEY_OVERHEAD;
        if self.seen.insert(encoded) {
            self.bytes += size;
            if self.bytes > MAX_KEY_BYTES_PER_DOCUMENT {
                return Err(too_much_key_memory(self.spec, self.keys.len() + 1));
            }
            self.keys.push(key);
        }
        Ok(())
    }
}

/// MongoDB's `getFieldDottedOrArray` from component `pos`: follows documents until the path
/// ends or an array is met. Returns the value's field name, the value and the component after
/// it; `None` when the path leads nowhere.
fn field_or_array<'d>(
    doc: &'d Document,
    path: &'d [String],
    mut pos: usize,
) -> Option<(&'d str, &'d Bson, usize)> {
    let mut doc = doc;
    loop {
        let name = path.get(pos)?;
        let child = doc.get(name)?;
        pos += 1;
        match child {
            Bson::Array(_) => return Some((name, child, pos)),
            _ if pos == path.len() => return Some((name, child, pos)),
            Bson::Document(d) => doc = d,
            _ => return None,
        }
    }
}

/// What a positional path reaches from its element (MongoDB's
/// `extractElementAtPathOrArrayAlongPath` over the array): the element itself when it is an
/// array or the path ends there, else the walk below it.
fn below_element<'d>(
    element: &'d Bson,
    name: &'d str,
    path: &'d [String],
    after: usize,
) -> Option<(&'d str, &'d Bson, usize)> {
    match element {
        Bson::Array(_) => Some((name, element, after)),
        _ if after == path.len() => Some((name, element, after)),
        Bson::Document(d) => field_or_array(d, path, after),
        _ => None,
    }
}

/// Code 16746: an element document has a field named like the positional component.
fn ambiguous(p: Positional<'_>) -> Error {
    let shown: Vec<String> = p
        .array
        .iter()
        .enumerate()
        .map(|(i, v)| format!("{i}: {}", key_value(v)))
        .collect();
    let mut array = format!("{{ {} }}", shown.join(", "));
    const MAX_SHOWN: usize = 1024;
    if array.len() >= MAX_SHOWN {
        let head: String = array.chars().take(MAX_SHOWN / 3).collect();
        let tail: Vec<char> = array.chars().rev().take(MAX_SHOWN / 3).collect();
        let tail: String = tail.into_iter().rev().collect();
        array = format!("{head} .......... {tail}");
    }
    Error::location(
        16746,
        format!(
            "Ambiguous field name found in array (do not use numeric field names in embedded \
             elements in an array), field: '{}' for array: {array}",
            p.index
        ),
    )
}

fn too_much_key_memory(spec: &IndexSpec, keys: usize) -> Error {
    Error::new(
        ErrorCode::ExceededMemoryLimit,
        format!(
            "cannot index the document in index '{}': its first {keys} keys already take more \
             than {MAX_KEY_BYTES_PER_DOCUMENT} bytes of memory, Sprout's limit for the keys of \
             one document in one index (MongoDB has none). Index a smaller field than a whole \
             array element, or shorten the array",
            spec.name
        ),
    )
}

#[cfg(test)]
#[path = "btree_key_generator_tests.rs"]
mod tests;

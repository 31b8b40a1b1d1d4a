//! `$unwind`: one output document per element of an array field (string form `"$path"` or
//! `{path, includeArrayIndex, preserveNullAndEmptyArrays}`).

use bson::{Bson, Document};

use crate::error::{Error, Result};
use crate::expression::memory::{document_memory, value_memory};
use crate::pipeline::memory::OutputBudget;
use crate::pipeline::{ParseContext, RunContext, Stage};
use crate::value::display::type_name;

#[derive(Debug)]
pub struct Unwind {
    path: Vec<String>,
    include_array_index: Option<Vec<String>>,
    preserve_null_and_empty: bool,
}

pub fn parse(arg: &Bson, _cx: &ParseContext<'_>) -> Result<Box<dyn Stage>> {
    let (path, index, preserve) = match arg {
        Bson::String(s) => (s.as_str(), None, false),
        Bson::Document(spec) => parse_options(spec)?,
        other => {
            return Err(Error::location(
                15981,
                format!(
                    "expected either a string or an object as specification for $unwind stage, \
                     got {}",
                    type_name(other)
                ),
            ));
        }
    };
    let Some(field_path) = path.strip_prefix('$') else {
        return Err(Error::location(
            28818,
            format!("path option to $unwind stage should be prefixed with a '$': {path}"),
        ));
    };
    Ok(Box::new(Unwind {
        path: field_names(field_path)?,
        include_array_index: index.map(field_names).transpose()?,
        preserve_null_and_empty: preserve,
    }))
}

fn parse_options(spec: &Document) -> Result<(&str, Option<&str>, bool)> {
    let mut path = None;
    let mut index = None;
    let mut preserve = false;
    for (k, v) in spec {
        match k.as_str() {
            "path" => match v {
                Bson::String(s) => path = Some(s.as_str()),
                other => {
                    return Err(Error::location(
                        28808,
                        format!(
                            "expected a string as the path for $unwind stage, got {}",
                            type_name(other)
                        ),
                    ));
                }
            },
            "includeArrayIndex" => match v {
                Bson::String(s) if !s.is_empty() => {
                    if s.starts_with('$') {
                        return Err(Error::location(
                            28822,
                            format!(
                                "includeArrayIndex option to $unwind stage should not be \
                                 prefixed with a '$': {s}"
                            ),
                        ));
                    }
                    index = Some(s.as_str());
                }
                other => {
                    return Err(Error::location(
                        28810,
                        format!(
                            "expected a non-empty string for the includeArrayIndex  option to \
                             $unwind stage, got {}",
                            type_name(other)
                        ),
                    ));
                }
            },
            "preserveNullAndEmptyArrays" => match v {
                Bson::Boolean(b) => preserve = *b,
                other => {
                    return Err(Error::location(
                        28809,
                        format!(
                            "expected a boolean for the preserveNullAndEmptyArrays option to \
                             $unwind stage, got {}",
                            type_name(other)
                        ),
                    ));
                }
            },
            other => {
                return Err(Error::location(
                    28811,
                    format!("unrecognized option to $unwind stage: {other}"),
                ));
            }
        }
    }
    let Some(path) = path else {
        return Err(Error::location(28812, "no path specified to $unwind stage"));
    };
    Ok((path, index, preserve))
}

/// A dotted path's field names, with FieldPath's rules.
fn field_names(path: &str) -> Result<Vec<String>> {
    if path.is_empty() {
        return Err(Error::location(
            40352,
            "FieldPath cannot be constructed with empty string",
        ));
    }
    path.split('.')
        .map(|p| {
            if p.is_empty() {
                Err(Error::location(
                    15998,
                    "FieldPath field names may not be empty strings.",
                ))
            } else if p.starts_with('$') {
                Err(Error::location(
                    16410,
                    "FieldPath field names may not start with '$'. Consider using $getField or \
                     $setField.",
                ))
            } else {
                Ok(p.to_string())
            }
        })
        .collect()
}

/// The value at a path through documents only (arrays are not traversed).
fn get_nested<'d>(doc: &'d Document, path: &[String]) -> Option<&'d Bson> {
    let (first, rest) = path.split_first()?;
    let mut cur = doc.get(first)?;
    for part in rest {
        match cur {
            Bson::Document(d) => cur = d.get(part)?,
            _ => return None,
        }
    }
    Some(cur)
}

/// Sets a value at a path, creating (or replacing non-documents with) documents on the way; an
/// existing field keeps its place.
pub(crate) fn set_nested(doc: &mut Document, path: &[String], value: Bson) {
    match path {
        [] => {}
        [last] => {
            doc.insert(last.clone(), value);
        }
        [first, rest @ ..] => match doc.get_mut(first) {
            Some(Bson::Document(child)) => set_nested(child, rest, value),
            _ => {
                let mut child = Document::new();
                set_nested(&mut child, rest, value);
                doc.insert(first.clone(), child);
            }
        },
    }
}

/// Takes the value at a path through documents, leaving `null` in its place (so the field keeps
/// its position when the value is put back).
fn take_nested(doc: &mut Document, path: &[String]) -> Option<Bson> {
    match path {
        [] => None,
        [last] => doc.get_mut(last).map(|v| std::mem::replace(v, Bson::Null)),
        [first, rest @ ..] => match doc.get_mut(first) {
            Some(Bson::Document(d)) => take_nested(d, rest),
            _ => None,
        },
    }
}

/// Removes the value at a path through documents.
fn remove_nested(doc: &mut Document, path: &[String]) {
    match path {
        [] => {}
        [last] => {
            doc.remove(last);
        }
        [first, rest @ ..] => {
            if let Some(Bson::Document(d)) = doc.get_mut(first) {
                remove_nested(d, rest);
            }
        }
    }
}

impl Unwind {
    fn with_index(&self, mut doc: Document, index: Option<usize>) -> Document {
        if let Some(path) = &self.include_array_index {
            let v = index.map_or(Bson::Null, |i| Bson::Int64(i as i64));
            set_nested(&mut doc, path, v);
        }
        doc
    }
}

impl Stage for Unwind {
    fn name(&self) -> &'static str {
        "$unwind"
    }

    fn apply_with_meta(
        &self,
        input: Vec<Document>,
        meta: Option<Vec<crate::expression::DocumentMeta>>,
        cx: &RunContext<'_>,
    ) -> Result<crate::pipeline::Batch> {
        crate::pipeline::apply_each_with_meta(self, input, meta, cx)
    }

    fn apply(&self, input: Vec<Document>, _cx: &RunContext<'_>) -> Result<Vec<Document>> {
        let mut out = Vec::with_capacity(input.len());
        let mut budget = OutputBudget::new("$unwind");
        for doc in input {
            match get_nested(&doc, &self.path) {
                Some(Bson::Array(items)) if !items.is_empty() => {
                    // Take the array out first, so each output copies the rest of the document
                    // and one element, not the whole array (which made a large array quadratic).
                    let mut rest = doc;
                    let Some(Bson::Array(items)) = take_nested(&mut rest, &self.path) else {
                        continue;
                    };
                    out.reserve(items.len());
                    // Counted in Sprout's memory (a `Bson` per value, a `String` per key): two
                    // `$unwind`s of 2,000-element arrays make 4 million small documents, 150 MB
                    // of BSON but 1.4 GB in memory.
                    let rest_bytes = document_memory(&rest);
                    for (i, item) in items.into_iter().enumerate() {
                        budget.add(rest_bytes + value_memory(&item))?;
                        let mut d = rest.clone();
                        set_nested(&mut d, &self.path, item);
                        out.push(self.with_index(d, Some(i)));
                    }
                }
                Some(Bson::Array(_)) => {
                    if self.preserve_null_and_empty {
                        let mut d = doc;
                        remove_nested(&mut d, &self.path);
                        out.push(self.with_index(d, None));
                    }
                }
                None | Some(Bson::Null) | Some(Bson::Undefined) => {
                    if self.preserve_null_and_empty {
                        out.push(self.with_index(doc, None));
                    }
                }
                Some(_) => out.push(self.with_index(doc, None)),
            }
        }
        Ok(out)
    }

    fn serialize(&self) -> Document {
        let mut spec = Document::new();
        spec.insert("path", format!("${}", self.path.join(".")));
        if let Some(index) = &self.include_array_index {
            spec.insert("includeArrayIndex", index.join("."));
        }
        if self.preserve_null_and_empty {
            spec.insert("preserveNullAndEmptyArrays", true);
        }
        let mut d = Document::new();
        d.insert("$unwind", spec);
        d
    }
}

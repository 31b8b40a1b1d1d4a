//! `$regexMatch`, `$regexFind`, `$regexFindAll`: `{input, regex, options}`, compiled through the
//! matcher's [`QueryRegex`] (the same PCRE translation as `$regex`).

use bson::{Bson, Document};

use super::super::memory::{ArrayBudget, value_memory};
use super::super::named_args::{NamedSpec, named_value, nullish};
use super::super::{Expression, Vars};
use crate::error::{Error, Result};
use crate::value::regex::QueryRegex;

pub const SPEC: NamedSpec = NamedSpec {
    fields: &["input", "regex", "options"],
    required: &[
        ("input", 31022, "{op} requires 'input' parameter"),
        ("regex", 31023, "{op} requires 'regex' parameter"),
    ],
    not_object: (
        51103,
        "{op} expects an object of named arguments but found: {}",
    ),
    unknown: (31024, "{op} found an unknown argument: {}"),
};

/// The input and the compiled pattern, or `None` when either is null or missing.
fn prepare(op: &str, args: &[Expression], vars: &Vars<'_>) -> Result<Option<(String, QueryRegex)>> {
    let input = named_value(args, 0, vars)?;
    let pattern = named_value(args, 1, vars)?;
    let options = named_value(args, 2, vars)?;
    let type_error = |code, what: &str| Error::location(code, format!("{op} needs {what}"));
    let (pattern, mut flags) = match pattern {
        v if nullish(&v) => (None, None),
        Some(Bson::String(s)) => (Some(s), None),
        Some(Bson::RegularExpression(r)) => {
            let options = r.options.to_string();
            let flags = (!options.is_empty()).then_some(options);
            (Some(r.pattern.to_string()), flags)
        }
        _ => return Err(type_error(51105, "'regex' to be of type string or regex")),
    };
    match options {
        v if nullish(&v) => {}
        Some(Bson::String(o)) => {
            if flags.is_some() {
                return Err(Error::location(
                    51107,
                    format!(
                        "{op}: found regex option(s) specified in both 'regex' and 'option' fields"
                    ),
                ));
            }
            flags = Some(o);
        }
        _ => return Err(type_error(51106, "'options' to be of type string")),
    }
    if pattern.as_deref().is_some_and(|p| p.contains('\0')) {
        return Err(Error::location(
            51109,
            format!("{op}: regular expression cannot contain an embedded null byte"),
        ));
    }
    if flags.as_deref().is_some_and(|f| f.contains('\0')) {
        return Err(Error::location(
            51110,
            format!("{op}: regular expression options cannot contain an embedded null byte"),
        ));
    }
    let compiled = match &pattern {
        Some(p) => Some(compile(op, p, flags.as_deref().unwrap_or(""))?),
        None => None,
    };
    let input = match input {
        v if nullish(&v) => None,
        Some(Bson::String(s)) => Some(s),
        _ => return Err(type_error(51104, "'input' to be of type string")),
    };
    Ok(input.zip(compiled))
}

fn compile(op: &str, pattern: &str, flags: &str) -> Result<QueryRegex> {
    if let Some(bad) = flags
        .chars()
        .find(|c| !matches!(c, 'i' | 'm' | 's' | 'x' | 'u'))
    {
        return Err(Error::location(
            51108,
            format!("{op} invalid flag in regex options: {bad}"),
        ));
    }
    QueryRegex::new(pattern, flags).map_err(|e| {
        let reason = e
            .message
            .strip_prefix("Regular expression is invalid: ")
            .unwrap_or(&e.message);
        Error::location(51111, format!("Invalid Regex in {op}: {reason}"))
    })
}

/// The match at or after `from` (UTF-16 code units of `text`, the input's code units), as
/// MongoDB's `{match, idx, captures}` (`idx` counts code points; a group that did not take part
/// is null), with the match's start and end. `counted` is how many code points the first
/// `counted.0` code units hold, moved up to the match's start, so that `$regexFindAll` reads
/// each code unit once (counting from the start for every match was quadratic: a million
/// empty matches did not end).
fn match_at(
    re: &QueryRegex,
    text: &[u16],
    from: usize,
    op: &str,
    counted: &mut (usize, usize),
) -> Result<Option<(Document, usize, usize)>> {
    let Some(m) = re.find_at(text, from, op)? else {
        return Ok(None);
    };
    let string = |r: std::ops::Range<usize>| String::from_utf16_lossy(&text[r]);
    let captures: Vec<Bson> = m
        .captures
        .iter()
        .map(|c| c.clone().map_or(Bson::Null, |r| Bson::String(string(r))))
        .collect();
    // Code points before the match: its code units less the second half of each pair.
    let (units, points) = *counted;
    let between = &text[units.min(m.start())..m.start()];
    let idx = points + between.len()
        - between
            .iter()
            .filter(|u| (0xDC00..0xE000).contains(*u))
            .count();
    *counted = (m.start(), idx);
    let mut doc = Document::new();
    doc.insert("match", string(m.range()));
    doc.insert("idx", i32::try_from(idx).unwrap_or(i32::MAX));
    doc.insert("captures", captures);
    Ok(Some((doc, m.start(), m.end())))
}

pub fn regex_match(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let Some((input, re)) = prepare("$regexMatch", args, vars)? else {
        return Ok(Some(Bson::Boolean(false)));
    };
    let text: Vec<u16> = input.encode_utf16().collect();
    Ok(Some(Bson::Boolean(
        re.find_at(&text, 0, "$regexMatch")?.is_some(),
    )))
}

pub fn regex_find(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let Some((input, re)) = prepare("$regexFind", args, vars)? else {
        return Ok(Some(Bson::Null));
    };
    let text: Vec<u16> = input.encode_utf16().collect();
    Ok(Some(
        match_at(&re, &text, 0, "$regexFind", &mut (0, 0))?
            .map_or(Bson::Null, |(d, _, _)| Bson::Document(d)),
    ))
}

pub fn regex_find_all(args: &[Expression], vars: &Vars<'_>) -> Result<Option<Bson>> {
    let Some((input, re)) = prepare("$regexFindAll", args, vars)? else {
        return Ok(Some(Bson::Array(Vec::new())));
    };
    let text: Vec<u16> = input.encode_utf16().collect();
    let mut out = Vec::new();
    // An empty match at every character of a long string makes a document per character.
    let mut budget = ArrayBudget::new("$regexFindAll");
    let mut pos = 0;
    let mut counted = (0, 0);
    // As MongoDB: matches do not overlap; after an empty match the search moves on one code
    // point; the search stops once the position reaches the end of the input.
    loop {
        let Some((doc, start, end)) = match_at(&re, &text, pos, "$regexFindAll", &mut counted)?
        else {
            break;
        };
        let found = Bson::Document(doc);
        budget.add(value_memory(&found))?;
        out.push(found);
        pos = if end > start {
            end
        } else {
            match text.get(start) {
                Some(u) if (0xD800..0xDC00).contains(u) => start + 2,
                Some(_) => start + 1,
                None => break,
            }
        };
        if pos >= text.len() {
            break;
        }
    }
    Ok(Some(Bson::Array(out)))
}

//! Errors that help: when a call fails because the method does not exist (`db.people.fnd()`),
//! Boa says only "not a callable function". mongosh (V8) names the callee —
//! "TypeError: db.people.fnd is not a function" — and this module finds it in the typed source
//! and suggests the nearest method of the receiver ("Did you mean find?"). The receiver's kind
//! (database, collection, cursor) follows from the call chain: `db.x` is a collection, a
//! `find()`/`aggregate()` or cursor modifier gives a cursor. Names are compared by edit
//! distance with swaps (no crate in the workspace has one; twenty lines here).

/// Method names by receiver kind, read from the shell's own prototypes.
pub(crate) struct Methods {
    pub db: Vec<String>,
    pub collection: Vec<String>,
    pub cursor: Vec<String>,
}

/// The call that cannot be a function: its callee text as V8 prints it and the nearest method.
#[derive(Debug, PartialEq)]
pub(crate) struct NotAFunction {
    pub callee: String,
    pub suggestion: Option<String>,
}

#[derive(Clone, Copy, PartialEq)]
enum Receiver {
    Db,
    Collection,
    Cursor,
    Unknown,
}

/// The first call in `source` on a `db.…` chain whose method the receiver does not have.
pub(crate) fn not_a_function(source: &str, methods: &Methods) -> Option<NotAFunction> {
    let bytes = source.as_bytes();
    let mut i = 0;
    while i + 2 <= bytes.len() {
        let starts_db = bytes[i..].starts_with(b"db")
            && (i == 0 || !is_ident(bytes[i - 1]) && bytes[i - 1] != b'.')
            && bytes.get(i + 2).is_none_or(|&b| !is_ident(b));
        if starts_db && let Some(found) = chain_at(source, i + 2, methods) {
            return Some(found);
        }
        i += 1;
    }
    None
}

/// Follows the chain after `db` at `at`: `.name` steps and `(…)` calls.
fn chain_at(source: &str, mut at: usize, methods: &Methods) -> Option<NotAFunction> {
    let bytes = source.as_bytes();
    let mut text = String::from("db");
    let mut receiver = Receiver::Db;
    let mut member: Option<String> = None;
    loop {
        let rest = skip_space(bytes, at);
        match bytes.get(rest) {
            Some(b'.') => {
                let start = skip_space(bytes, rest + 1);
                let end = (start..bytes.len())
                    .find(|&j| !is_ident(bytes[j]))
                    .unwrap_or(bytes.len());
                if end == start {
                    return None;
                }
                if let Some(m) = member.take() {
                    // A property read, not a call: on a database or collection it names a
                    // (sub-)collection.
                    receiver = match receiver {
                        Receiver::Db | Receiver::Collection => Receiver::Collection,
                        _ => Receiver::Unknown,
                    };
                    text.push('.');
                    text.push_str(&m);
                }
                member = Some(source[start..end].to_string());
                at = end;
            }
            Some(b'(') => {
                let name = member.take()?;
                let known = match receiver {
                    Receiver::Db => &methods.db,
                    Receiver::Collection => &methods.collection,
                    Receiver::Cursor => &methods.cursor,
                    Receiver::Unknown => return None,
                };
                if !known.contains(&name) {
                    return Some(NotAFunction {
                        callee: format!("{text}.{name}"),
                        suggestion: nearest(&name, known),
                    });
                }
                receiver = match (receiver, name.as_str()) {
                    (Receiver::Db, "getCollection") => Receiver::Collection,
                    (Receiver::Db, "getSiblingDB") => Receiver::Db,
                    (Receiver::Collection, "find" | "aggregate") => Receiver::Cursor,
                    (Receiver::Cursor, _) if CURSOR_CHAINING.contains(&name.as_str()) => {
                        Receiver::Cursor
                    }
                    _ => Receiver::Unknown,
                };
                text = format!("{text}.{name}(...)");
                at = closing_bracket(bytes, rest)? + 1;
            }
            _ => return None,
        }
    }
}

/// Cursor methods that return the cursor, so a chain goes on with cursor methods.
const CURSOR_CHAINING: &[&str] = &[
    "sort",
    "limit",
    "skip",
    "batchSize",
    "projection",
    "hint",
    "comment",
    "collation",
    "min",
    "max",
    "maxTimeMS",
    "pretty",
    "readPref",
];

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$'
}

fn skip_space(bytes: &[u8], mut at: usize) -> usize {
    while bytes.get(at).is_some_and(|b| b.is_ascii_whitespace()) {
        at += 1;
    }
    at
}

/// The `)` closing the `(` at `open`, skipping string literals.
fn closing_bracket(bytes: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut quote: Option<u8> = None;
    let mut j = open;
    while j < bytes.len() {
        let b = bytes[j];
        match quote {
            Some(_) if b == b'\\' => j += 1,
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None => match b {
                b'"' | b'\'' | b'`' => quote = Some(b),
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => {
                    depth = depth.checked_sub(1)?;
                    if depth == 0 {
                        return (b == b')').then_some(j);
                    }
                }
                _ => {}
            },
        }
        j += 1;
    }
    None
}

/// The known name nearest to `name`: same letters in another case, or at most two edits away
/// (one for names of four letters or fewer).
fn nearest(name: &str, known: &[String]) -> Option<String> {
    let lower = name.to_lowercase();
    if let Some(same) = known.iter().find(|k| k.to_lowercase() == lower) {
        return Some(same.clone());
    }
    let allowed = if name.chars().count() <= 4 { 1 } else { 2 };
    known
        .iter()
        .map(|k| (edit_distance(&lower, &k.to_lowercase()), k))
        .filter(|(d, _)| *d <= allowed)
        .min_by_key(|(d, k)| (*d, k.len()))
        .map(|(_, k)| k.clone())
}

/// Edit distance over characters, a swap of two neighbours counting as one edit (optimal
/// string alignment): `srot` is one edit from `sort`.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn methods() -> Methods {
        let names = |list: &[&str]| list.iter().map(|s| s.to_string()).collect();
        Methods {
            db: names(&["getName", "getCollection", "getSiblingDB", "stats", "help"]),
            collection: names(&[
                "find",
                "findOne",
                "insertOne",
                "aggregate",
                "countDocuments",
            ]),
            cursor: names(&["sort", "limit", "toArray", "pretty", "explain", "map"]),
        }
    }

    #[test]
    fn a_misspelt_collection_method_is_named_with_a_suggestion() {
        let found = not_a_function("db.people.fnd({a: 1})", &methods()).unwrap();
        assert_eq!(found.callee, "db.people.fnd");
        assert_eq!(found.suggestion.as_deref(), Some("find"));
        let found = not_a_function("x = db.people.insertone({})", &methods()).unwrap();
        assert_eq!(found.suggestion.as_deref(), Some("insertOne"));
    }

    #[test]
    fn cursor_and_database_methods_are_checked_on_their_receivers() {
        let found = not_a_function("db.people.find({}).srot({a: 1})", &methods()).unwrap();
        assert_eq!(found.callee, "db.people.find(...).srot");
        assert_eq!(found.suggestion.as_deref(), Some("sort"));
        let found = not_a_function("db.getNme()", &methods()).unwrap();
        assert_eq!(found.callee, "db.getNme");
        assert_eq!(found.suggestion.as_deref(), Some("getName"));
        let found = not_a_function("db.a.b.frobnicate()", &methods()).unwrap();
        assert_eq!(found.callee, "db.a.b.frobnicate");
        assert_eq!(found.suggestion, None);
    }

    #[test]
    fn valid_chains_and_other_code_find_nothing() {
        let m = methods();
        assert_eq!(
            not_a_function("db.people.find({n: ')'}).sort({a: 1}).toArray()", &m),
            None
        );
        assert_eq!(not_a_function("mydb.people.fnd()", &m), None);
        assert_eq!(not_a_function("foo()", &m), None);
        assert_eq!(not_a_function("db.people.find().map(f).foo()", &m), None);
    }

    #[test]
    fn edit_distance_counts_insertions_deletions_and_substitutions() {
        assert_eq!(edit_distance("fnd", "find"), 1);
        assert_eq!(edit_distance("find", "find"), 0);
        assert_eq!(edit_distance("sort", "srot"), 1);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
    }
}

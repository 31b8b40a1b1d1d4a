//! The translation of MongoDB's PCRE dialect into the JavaScript (`u` mode) syntax `regress`
//! parses (see the parent module).

/// PCRE2's limit on nested parentheses (`PARENS_NEST_LIMIT`).
const MAX_NESTING: usize = 250;

/// PCRE2's largest repetition count in `{n,m}`.
const MAX_REPEAT: u32 = 65_535;

/// PCRE's options. `i` is `regress`'s flag for the whole pattern; the translation applies the
/// others itself, so they can change inside the pattern as PCRE's inline options do.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Options {
    pub(super) i: bool,
    pub(super) m: bool,
    pub(super) s: bool,
    pub(super) x: bool,
}

type Translation<T> = std::result::Result<T, String>;

const ALL: &[(u32, u32)] = &[(0, 0xD7FF), (0xE000, 0x10FFFF)];
const DIGIT: &[(u32, u32)] = &[(0x30, 0x39)];
const WORD: &[(u32, u32)] = &[(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)];
/// PCRE2's `\s`: tab, newline, vertical tab, form feed, carriage return, space.
const SPACE: &[(u32, u32)] = &[(0x09, 0x0D), (0x20, 0x20)];
/// PCRE2's `\h` (horizontal white space; Unicode's even without UCP).
const HSPACE: &[(u32, u32)] = &[
    (0x09, 0x09),
    (0x20, 0x20),
    (0xA0, 0xA0),
    (0x1680, 0x1680),
    (0x180E, 0x180E),
    (0x2000, 0x200A),
    (0x202F, 0x202F),
    (0x205F, 0x205F),
    (0x3000, 0x3000),
];
/// PCRE2's `\v` (vertical white space).
const VSPACE: &[(u32, u32)] = &[(0x0A, 0x0D), (0x85, 0x85), (0x2028, 0x2029)];
const NEWLINE: &[(u32, u32)] = &[(0x0A, 0x0A)];
/// `\w` and `\s` under `(*UCP)` (PCRE2's `\p{Xwd}` and `\p{Xps}`).
const UCP_WORD: &[&str] = &["\\p{L}", "\\p{N}", "_"];
const UCP_SPACE: &[&str] = &["\\p{Z}", "\\u{9}-\\u{D}"];
/// `\b` under `(*UCP)`: JavaScript's `\b` knows only ASCII word characters.
const UCP_BOUNDARY: &str =
    "(?:(?<=[\\p{L}\\p{N}_])(?![\\p{L}\\p{N}_])|(?<![\\p{L}\\p{N}_])(?=[\\p{L}\\p{N}_]))";
const UCP_NOT_BOUNDARY: &str =
    "(?:(?<=[\\p{L}\\p{N}_])(?=[\\p{L}\\p{N}_])|(?<![\\p{L}\\p{N}_])(?![\\p{L}\\p{N}_]))";

/// The general categories, which JavaScript names without `gc=` (PCRE's other names are
/// scripts, which it spells `Script=…`).
const CATEGORIES: &[&str] = &[
    "C", "Cc", "Cf", "Cn", "Co", "Cs", "L", "LC", "Ll", "Lm", "Lo", "Lt", "Lu", "M", "Mc", "Me",
    "Mn", "N", "Nd", "Nl", "No", "P", "Pc", "Pd", "Pe", "Pf", "Pi", "Po", "Ps", "S", "Sc", "Sk",
    "Sm", "So", "Z", "Zl", "Zp", "Zs",
];

/// The code points an escape or a POSIX class stands for.
enum Set {
    Ranges(Vec<(u32, u32)>),
    /// Class items (`\p{…}`); negated only when there is one.
    Props(Vec<String>),
}

impl Set {
    fn ranges(r: &[(u32, u32)]) -> Set {
        Set::Ranges(r.to_vec())
    }

    /// The set as the inside of a JavaScript character class.
    fn class_items(&self, negated: bool) -> Translation<String> {
        match self {
            Set::Ranges(r) => {
                let r = if negated { complement(r) } else { r.clone() };
                Ok(r.iter().map(|&(a, b)| range_text(a, b)).collect())
            }
            Set::Props(items) if !negated => Ok(items.concat()),
            Set::Props(items) => match items.as_slice() {
                [one] if one.starts_with("\\p{") => Ok(format!("\\P{}", &one[2..])),
                _ => {
                    Err("a negated \\p{Xan}-style property inside a class is not supported".into())
                }
            },
        }
    }

    /// The set as a class of its own.
    fn class(&self, negated: bool) -> Translation<String> {
        Ok(match self {
            Set::Props(items) if negated => format!("[^{}]", items.concat()),
            _ => format!("[{}]", self.class_items(negated)?),
        })
    }
}

/// Every code point (but the surrogates) not in the sorted, disjoint `ranges`.
fn complement(ranges: &[(u32, u32)]) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    let mut next = 0u32;
    for &(a, b) in ranges {
        if a > next {
            out.push((next, a - 1));
        }
        next = b + 1;
    }
    if next <= 0x10FFFF {
        out.push((next, 0x10FFFF));
    }
    // Split around the surrogates, which a Rust string never holds.
    out.into_iter()
        .flat_map(|(a, b)| {
            if b < 0xD800 || a > 0xDFFF {
                vec![(a, b)]
            } else {
                let mut v = Vec::new();
                if a < 0xD800 {
                    v.push((a, 0xD7FF));
                }
                if b > 0xDFFF {
                    v.push((0xE000, b));
                }
                v
            }
        })
        .collect()
}

fn range_text(a: u32, b: u32) -> String {
    if a == b {
        format!("\\u{{{a:X}}}")
    } else {
        format!("\\u{{{a:X}}}-\\u{{{b:X}}}")
    }
}

/// A POSIX class's code points (ASCII only: PCRE without UCP).
fn posix(name: &str) -> Option<Vec<(u32, u32)>> {
    Some(match name {
        "alpha" => vec![(0x41, 0x5A), (0x61, 0x7A)],
        "digit" => DIGIT.to_vec(),
        "alnum" => vec![(0x30, 0x39), (0x41, 0x5A), (0x61, 0x7A)],
        "upper" => vec![(0x41, 0x5A)],
        "lower" => vec![(0x61, 0x7A)],
        "space" => SPACE.to_vec(),
        "blank" => vec![(0x09, 0x09), (0x20, 0x20)],
        "punct" => vec![(0x21, 0x2F), (0x3A, 0x40), (0x5B, 0x60), (0x7B, 0x7E)],
        "print" => vec![(0x20, 0x7E)],
        "graph" => vec![(0x21, 0x7E)],
        "cntrl" => vec![(0x00, 0x1F), (0x7F, 0x7F)],
        "xdigit" => vec![(0x30, 0x39), (0x41, 0x46), (0x61, 0x66)],
        "word" => WORD.to_vec(),
        "ascii" => vec![(0x00, 0x7F)],
        _ => return None,
    })
}

/// A POSIX class under `(*UCP)`, where PCRE2 makes some of them Unicode properties.
fn ucp_posix(name: &str) -> Option<&'static [&'static str]> {
    Some(match name {
        "alpha" => &["\\p{L}"],
        "digit" => &["\\p{Nd}"],
        "alnum" => &["\\p{L}", "\\p{N}"],
        "lower" => &["\\p{Ll}"],
        "upper" => &["\\p{Lu}"],
        "space" => UCP_SPACE,
        "word" => UCP_WORD,
        _ => return None,
    })
}

/// `\p{…}`'s name (after `\p` or `\P`): a general category, `L&`, `Any`, PCRE's `Xan`, `Xsp`,
/// `Xps`, `Xwd`, or a script.
fn property(chars: &mut Chars<'_>, mut negated: bool) -> Translation<(Set, bool)> {
    let name = match chars.next() {
        Some('{') => {
            let mut name = String::new();
            loop {
                match chars.next() {
                    Some('}') => break,
                    Some(c) => name.push(c),
                    None => return Err("malformed \\P or \\p sequence".into()),
                }
            }
            name
        }
        Some(c) if c.is_ascii_alphabetic() => c.to_string(),
        _ => return Err("malformed \\P or \\p sequence".into()),
    };
    let name = match name.strip_prefix('^') {
        Some(rest) => {
            negated = !negated;
            rest.to_string()
        }
        None => name,
    };
    let props = |items: &[&str]| Set::Props(items.iter().map(|s| s.to_string()).collect());
    let set = match name.as_str() {
        "Any" => Set::ranges(ALL),
        "L&" => props(&["\\p{LC}"]),
        "Xan" => props(&["\\p{L}", "\\p{N}"]),
        "Xwd" => props(&["\\p{L}", "\\p{N}", "_"]),
        "Xsp" | "Xps" => props(&["\\p{Z}", "\\u{9}-\\u{D}"]),
        n if CATEGORIES.contains(&n) => Set::Props(vec![format!("\\p{{{n}}}")]),
        n if !n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') => {
            Set::Props(vec![format!("\\p{{Script={n}}}")])
        }
        _ => return Err("unknown property after \\P or \\p".into()),
    };
    Ok((set, negated))
}

type Chars<'a> = std::iter::Peekable<std::str::Chars<'a>>;

/// What an escape stands for.
enum Escape {
    Char(char),
    Set(Set, bool),
    /// A letter whose meaning depends on where it is (`\b`, `\A`, `\Q`, `\k`, …).
    Letter(char),
}

fn code_point(v: u32) -> Translation<char> {
    char::from_u32(v).ok_or_else(|| {
        if v > 0x10FFFF {
            "character code point value in \\x{} or \\o{} is too large".to_string()
        } else {
            "disallowed Unicode code point (>= 0xd800 && <= 0xdfff)".to_string()
        }
    })
}

/// Up to `max` digits of `radix` (fewer if the text has fewer).
fn digits(chars: &mut Chars<'_>, radix: u32, max: usize) -> u32 {
    let mut v = 0u32;
    for _ in 0..max {
        match chars.peek().and_then(|c| c.to_digit(radix)) {
            Some(d) => {
                v = v.saturating_mul(radix).saturating_add(d);
                chars.next();
            }
            None => break,
        }
    }
    v
}

/// `{digits}` after `\x` or `\o`.
fn braced(chars: &mut Chars<'_>, radix: u32) -> Translation<char> {
    let mut v = 0u32;
    let mut any = false;
    loop {
        match chars.next() {
            Some('}') if any => return code_point(v),
            Some(c) => match c.to_digit(radix) {
                Some(d) => {
                    any = true;
                    v = v.saturating_mul(radix).saturating_add(d);
                }
                None => return Err("non-hex character in \\x{} (closing brace missing?)".into()),
            },
            None => return Err("missing closing brace in \\x{} or \\o{}".into()),
        }
    }
}

/// The escape after a backslash (not `\1`…`\9` outside a class: back references).
fn escape(chars: &mut Chars<'_>, in_class: bool, ucp: bool) -> Translation<Escape> {
    let Some(c) = chars.next() else {
        return Err("\\ at end of pattern".into());
    };
    let set = |r: &[(u32, u32)], negated| Ok(Escape::Set(Set::ranges(r), negated));
    let props = |items: &[&str], negated| {
        Ok(Escape::Set(
            Set::Props(items.iter().map(|s| s.to_string()).collect()),
            negated,
        ))
    };
    match c {
        // (*UCP): PCRE2's Unicode `\d` (`\p{Nd}`), `\w` (`\p{Xwd}`), `\s` (`\p{Xps}`).
        'd' | 'D' if ucp => props(&["\\p{Nd}"], c == 'D'),
        'w' | 'W' if ucp => props(UCP_WORD, c == 'W'),
        's' | 'S' if ucp => props(UCP_SPACE, c == 'S'),
        'd' | 'D' => set(DIGIT, c == 'D'),
        'w' | 'W' => set(WORD, c == 'W'),
        's' | 'S' => set(SPACE, c == 'S'),
        'h' | 'H' => set(HSPACE, c == 'H'),
        'v' | 'V' => set(VSPACE, c == 'V'),
        'N' if !in_class => set(NEWLINE, true),
        'p' | 'P' => {
            let (s, negated) = property(chars, c == 'P')?;
            Ok(Escape::Set(s, negated))
        }
        'a' => Ok(Escape::Char('\x07')),
        'e' => Ok(Escape::Char('\x1B')),
        'f' => Ok(Escape::Char('\x0C')),
        'n' => Ok(Escape::Char('\n')),
        'r' => Ok(Escape::Char('\r')),
        't' => Ok(Escape::Char('\t')),
        'b' if in_class => Ok(Escape::Char('\x08')),
        'x' => {
            if chars.peek() == Some(&'{') {
                chars.next();
                braced(chars, 16).map(Escape::Char)
            } else {
                code_point(digits(chars, 16, 2)).map(Escape::Char)
            }
        }
        'o' => {
            if chars.next() != Some('{') {
                return Err("missing opening brace after \\o".into());
            }
            braced(chars, 8).map(Escape::Char)
        }
        'c' => match chars.next() {
            Some(x) if (' '..='~').contains(&x) => {
                code_point(u32::from(x.to_ascii_uppercase()) ^ 0x40).map(Escape::Char)
            }
            _ => Err("\\c must be followed by a printable ASCII character".into()),
        },
        '0'..='7' if in_class || c == '0' => {
            // `\0` and up to two more octal digits; in a class `\1`…`\7` too.
            let mut v = c.to_digit(8).unwrap_or(0);
            for _ in 0..2 {
                match chars.peek().and_then(|d| d.to_digit(8)) {
                    Some(d) => {
                        v = v * 8 + d;
                        chars.next();
                    }
                    None => break,
                }
            }
            code_point(v).map(Escape::Char)
        }
        c if c.is_ascii_alphanumeric() => Ok(Escape::Letter(c)),
        c => Ok(Escape::Char(c)),
    }
}

/// A literal character outside a class.
fn push_literal(out: &mut String, c: char) {
    if "^$\\.*+?()[]{}|/".contains(c) {
        out.push('\\');
    }
    out.push(c);
}

/// A literal character inside a class.
fn class_literal(c: char) -> String {
    if "\\]-[^".contains(c) {
        format!("\\{c}")
    } else {
        c.to_string()
    }
}

/// `\Q…\E`'s text (the `\Q` read already).
fn quoted(chars: &mut Chars<'_>) -> Vec<char> {
    let mut out = Vec::new();
    while let Some(q) = chars.next() {
        if q == '\\' && chars.peek() == Some(&'E') {
            chars.next();
            break;
        }
        out.push(q);
    }
    out
}

/// A character class, the `[` read already: PCRE's leading `]` is literal, POSIX classes are
/// expanded, escapes translated, and a `-` that cannot make a range is literal.
fn class(chars: &mut Chars<'_>, ucp: bool) -> Translation<String> {
    enum Item {
        Char(char),
        Items(String),
        Dash,
    }
    let negated = chars.peek() == Some(&'^');
    if negated {
        chars.next();
    }
    let mut items = Vec::new();
    let mut first = true;
    loop {
        let Some(c) = chars.next() else {
            return Err("missing terminating ] for character class".into());
        };
        match c {
            ']' if !first => break,
            '[' if chars.peek() == Some(&':') => {
                let mut look = chars.clone();
                look.next();
                let neg = look.peek() == Some(&'^');
                if neg {
                    look.next();
                }
                let mut name = String::new();
                while let Some(&l) = look.peek().filter(|l| l.is_ascii_lowercase()) {
                    name.push(l);
                    look.next();
                }
                if look.next() == Some(':') && look.next() == Some(']') {
                    let set = match ucp_posix(&name).filter(|_| ucp) {
                        Some(items) => Set::Props(items.iter().map(|s| s.to_string()).collect()),
                        None => Set::Ranges(
                            posix(&name).ok_or_else(|| "unknown POSIX class name".to_string())?,
                        ),
                    };
                    items.push(Item::Items(set.class_items(neg)?));
                    *chars = look;
                } else {
                    items.push(Item::Char('['));
                }
            }
            '\\' => match chars.peek() {
                Some('Q') => {
                    chars.next();
                    items.extend(quoted(chars).into_iter().map(Item::Char));
                }
                Some('E') => {
                    chars.next();
                }
                _ => match escape(chars, true, ucp)? {
                    Escape::Char(c) => items.push(Item::Char(c)),
                    Escape::Set(s, negated) => items.push(Item::Items(s.class_items(negated)?)),
                    Escape::Letter(l) => {
                        return Err(format!(
                            "unrecognized character follows \\ (\\{l} in a class)"
                        ));
                    }
                },
            },
            '-' => items.push(Item::Dash),
            c => items.push(Item::Char(c)),
        }
        first = false;
    }
    let mut body = String::new();
    let mut i = 0;
    while i < items.len() {
        match (&items[i], items.get(i + 1), items.get(i + 2)) {
            (Item::Char(a), Some(Item::Dash), Some(Item::Char(b))) => {
                if a > b {
                    return Err("range out of order in character class".into());
                }
                body.push_str(&class_literal(*a));
                body.push('-');
                body.push_str(&class_literal(*b));
                i += 3;
                continue;
            }
            (Item::Char(a), ..) => body.push_str(&class_literal(*a)),
            (Item::Items(s), ..) => body.push_str(s),
            (Item::Dash, ..) => body.push_str("\\-"),
        }
        i += 1;
    }
    Ok(format!("[{}{body}]", if negated { "^" } else { "" }))
}

/// A group name up to `end`.
fn group_name(chars: &mut Chars<'_>, end: char) -> Translation<String> {
    let mut name = String::new();
    loop {
        match chars.next() {
            Some(c) if c == end && !name.is_empty() => return Ok(name),
            Some(c) if c.is_ascii_alphanumeric() || c == '_' => name.push(c),
            _ => return Err("syntax error in subpattern name (missing terminator?)".into()),
        }
    }
}

/// A `{n}`, `{n,}` or `{n,m}` quantifier at the front of `chars` (after its `{`), as text;
/// `None` when the brace is a literal, as PCRE reads it.
fn quantifier(chars: &Chars<'_>) -> Option<(String, u32, Option<u32>)> {
    let mut look = chars.clone();
    let mut text = String::new();
    let mut lo = None;
    let mut cur = String::new();
    loop {
        let c = look.next()?;
        text.push(c);
        match c {
            '0'..='9' => cur.push(c),
            ',' if lo.is_none() && !cur.is_empty() => lo = Some(std::mem::take(&mut cur)),
            '}' => {
                let (lo, hi) = match lo {
                    Some(lo) => (lo, (!cur.is_empty()).then_some(cur)),
                    None if !cur.is_empty() => (cur.clone(), Some(cur)),
                    None => return None,
                };
                let n = |s: &str| s.parse::<u32>().unwrap_or(u32::MAX);
                return Some((text, n(&lo), hi.as_deref().map(n)));
            }
            _ => return None,
        }
    }
}

/// The number of capturing groups (to tell `\12` the back reference from `\12` the octal).
fn count_groups(pattern: &str) -> usize {
    let mut n = 0;
    let mut chars = pattern.chars().peekable();
    let mut in_class = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            '[' => in_class = true,
            ']' => in_class = false,
            '(' if !in_class => {
                let mut look = chars.clone();
                match (look.next(), look.next(), look.next()) {
                    (Some('?'), Some('<'), Some(c)) if c != '=' && c != '!' => n += 1,
                    (Some('?'), Some('P'), Some('<')) | (Some('?'), Some('\''), _) => n += 1,
                    (Some('?'), ..) | (Some('*'), ..) => {}
                    _ => n += 1,
                }
            }
            _ => {}
        }
    }
    n
}

fn is_pattern_space(c: char) -> bool {
    matches!(
        c,
        ' ' | '\t'
            | '\n'
            | '\x0B'
            | '\x0C'
            | '\r'
            | '\u{85}'
            | '\u{200E}'
            | '\u{200F}'
            | '\u{2028}'
            | '\u{2029}'
    )
}

/// Rewrites a PCRE pattern as a JavaScript `u`-mode pattern with the same meaning, and says
/// whether it is case-insensitive as a whole; the error is PCRE-style text for 51091.
pub(super) fn translate(pattern: &str, options: Options) -> Translation<(String, bool)> {
    let total_groups = count_groups(pattern);
    let mut out = String::with_capacity(pattern.len() + 16);
    let mut icase = options.i;
    let mut cur = options;
    let mut stack: Vec<Options> = Vec::new();
    // Whether anything that case sensitivity changes was written (an inline `(?i)` before it
    // is the whole pattern's).
    let mut content = false;
    let mut after_quantifier = false;
    let mut groups = 0usize;
    // Start-of-pattern options: (*UTF) and (*UTF8) are MongoDB's mode anyway; (*UCP) makes
    // `\d`, `\w`, `\s`, `\b` and POSIX classes Unicode's (jstests/core/regex_unicode.js).
    let mut ucp = false;
    let mut rest = pattern;
    loop {
        if let Some(r) = rest
            .strip_prefix("(*UTF)")
            .or_else(|| rest.strip_prefix("(*UTF8)"))
        {
            rest = r;
        } else if let Some(r) = rest.strip_prefix("(*UCP)") {
            ucp = true;
            rest = r;
        } else {
            break;
        }
    }
    let mut chars = rest.chars().peekable();
    while let Some(c) = chars.next() {
        if cur.x && is_pattern_space(c) {
            continue;
        }
        if cur.x && c == '#' {
            for skipped in chars.by_ref() {
                if skipped == '\n' {
                    break;
                }
            }
            continue;
        }
        let was_quantifier = std::mem::replace(&mut after_quantifier, false);
        match c {
            '\\' => {
                content = true;
                if let Some(&d @ '1'..='9') = chars.peek() {
                    let mut look = chars.clone();
                    let mut text = String::new();
                    while let Some(&d) = look.peek().filter(|d| d.is_ascii_digit()) {
                        text.push(d);
                        look.next();
                    }
                    let n: usize = text.parse().unwrap_or(usize::MAX);
                    if n < 10 || n <= total_groups {
                        chars = look;
                        out.push_str(&format!("(?:\\{n})"));
                    } else if d <= '7' {
                        let v = digits(&mut chars, 8, 3);
                        push_literal(&mut out, code_point(v)?);
                    } else {
                        return Err("reference to non-existent subpattern".into());
                    }
                    continue;
                }
                match escape(&mut chars, false, ucp)? {
                    Escape::Char(c) => push_literal(&mut out, c),
                    Escape::Set(s, negated) => out.push_str(&s.class(negated)?),
                    Escape::Letter('b') if ucp => out.push_str(UCP_BOUNDARY),
                    Escape::Letter('B') if ucp => out.push_str(UCP_NOT_BOUNDARY),
                    Escape::Letter(l) => letter(l, &mut chars, &mut out, groups)?,
                }
            }
            '[' => {
                content = true;
                out.push_str(&class(&mut chars, ucp)?);
            }
            '(' => {
                if stack.len() >= MAX_NESTING {
                    return Err("parentheses are too deeply nested".into());
                }
                if chars.peek() == Some(&'*') {
                    return Err("(*VERB) sequences are not supported".into());
                }
                if chars.peek() != Some(&'?') {
                    groups += 1;
                    stack.push(cur);
                    out.push('(');
                    continue;
                }
                chars.next();
                let Some(kind) = chars.next() else {
                    return Err("unrecognized character after (? or (?-".into());
                };
                match kind {
                    '#' => {
                        if !chars.by_ref().any(|c| c == ')') {
                            return Err("missing ) after (?# comment".into());
                        }
                        after_quantifier = was_quantifier;
                    }
                    ':' | '=' | '!' => {
                        stack.push(cur);
                        out.push_str("(?");
                        out.push(kind);
                    }
                    '<' if matches!(chars.peek(), Some('=' | '!')) => {
                        stack.push(cur);
                        out.push_str("(?<");
                        out.extend(chars.next());
                    }
                    '<' | '\'' | 'P' => {
                        let end = match kind {
                            '\'' => '\'',
                            'P' => match chars.next() {
                                Some('<') => '>',
                                Some('=') => {
                                    content = true;
                                    let name = group_name(&mut chars, ')')?;
                                    out.push_str(&format!("\\k<{name}>"));
                                    continue;
                                }
                                _ => {
                                    return Err(
                                        "recursion and subroutine calls are not supported".into()
                                    );
                                }
                            },
                            _ => '>',
                        };
                        let name = group_name(&mut chars, end)?;
                        groups += 1;
                        stack.push(cur);
                        out.push_str(&format!("(?<{name}>"));
                    }
                    '>' => return Err("atomic groups (?>...) are not supported".into()),
                    '|' => return Err("branch reset groups (?|...) are not supported".into()),
                    '(' => return Err("conditional groups are not supported".into()),
                    'C' => return Err("callouts are not supported".into()),
                    'R' | '&' | '+' | '0'..='9' => {
                        return Err("recursion and subroutine calls are not supported".into());
                    }
                    '-' if chars.peek().is_some_and(char::is_ascii_digit) => {
                        return Err("recursion and subroutine calls are not supported".into());
                    }
                    _ => {
                        let mut new = cur;
                        let mut on = true;
                        let mut f = Some(kind);
                        let end = loop {
                            match f {
                                Some('-') if on => on = false,
                                Some('i') => new.i = on,
                                Some('m') => new.m = on,
                                Some('s') => new.s = on,
                                Some('x') => new.x = on,
                                Some(e @ (')' | ':')) => break e,
                                _ => return Err("unrecognized character after (? or (?-".into()),
                            }
                            f = chars.next();
                        };
                        if new.i != cur.i {
                            if content || !stack.is_empty() || end == ':' {
                                return Err(
                                    "a change of case sensitivity ((?i) or (?-i)) after the start \
                                     of the pattern is not supported"
                                        .into(),
                                );
                            }
                            icase = new.i;
                        }
                        if end == ':' {
                            stack.push(cur);
                            out.push_str("(?:");
                        }
                        cur = new;
                    }
                }
            }
            ')' => {
                cur = stack
                    .pop()
                    .ok_or_else(|| "unmatched closing parenthesis".to_string())?;
                out.push(')');
                content = true;
            }
            '.' => {
                content = true;
                out.push_str(if cur.s { "[\\s\\S]" } else { "[^\\n]" });
            }
            '^' => out.push_str(if cur.m {
                "(?:^|(?<=\\n)(?=[\\s\\S]))"
            } else {
                "^"
            }),
            '$' => out.push_str(if cur.m { "(?=\\n|$)" } else { "(?=\\n?$)" }),
            '*' | '+' | '?' => {
                if was_quantifier && c == '+' {
                    return Err(
                        "possessive quantifiers (*+, ++, ?+, {n}+) are not supported".into(),
                    );
                }
                out.push(c);
                // `??`, `*?`: lazy, and a `+` after it is an error for regress to report.
                after_quantifier = !(was_quantifier && c == '?');
            }
            '|' => {
                content = true;
                out.push('|');
            }
            '{' => match quantifier(&chars) {
                Some((text, lo, hi)) => {
                    if lo > MAX_REPEAT || hi.is_some_and(|h| h > MAX_REPEAT) {
                        return Err("number too big in {} quantifier".into());
                    }
                    if hi.is_some_and(|h| h < lo) {
                        return Err("numbers out of order in {} quantifier".into());
                    }
                    for _ in 0..text.chars().count() {
                        chars.next();
                    }
                    out.push('{');
                    out.push_str(&text);
                    after_quantifier = true;
                }
                None => {
                    content = true;
                    out.push_str("\\{");
                }
            },
            c => {
                content = true;
                push_literal(&mut out, c);
            }
        }
    }
    if !stack.is_empty() {
        return Err("missing closing parenthesis".into());
    }
    Ok((out, icase))
}

/// An escaped letter outside a class that is neither a character nor a set.
fn letter(l: char, chars: &mut Chars<'_>, out: &mut String, groups: usize) -> Translation<()> {
    match l {
        'b' => out.push_str("\\b"),
        'B' => out.push_str("\\B"),
        'A' => out.push_str("(?<![\\s\\S])"),
        'z' => out.push_str("(?![\\s\\S])"),
        'Z' => out.push_str("(?=\\n?(?![\\s\\S]))"),
        'Q' => {
            for q in quoted(chars) {
                push_literal(out, q);
            }
        }
        'E' => {}
        'R' => out.push_str("(?:\\r\\n|[\\n\\u{B}\\f\\r\\u{85}\\u{2028}\\u{2029}])"),
        'k' => {
            let end = match chars.next() {
                Some('<') => '>',
                Some('\'') => '\'',
                Some('{') => '}',
                _ => {
                    return Err(
                        "\\k is not followed by a braced, angle-bracketed, or quoted name".into(),
                    );
                }
            };
            let name = group_name(chars, end)?;
            out.push_str(&format!("\\k<{name}>"));
        }
        'g' => {
            let braced = chars.peek() == Some(&'{');
            if braced {
                chars.next();
            }
            let negative = chars.peek() == Some(&'-');
            if negative {
                chars.next();
            }
            if chars.peek().is_some_and(char::is_ascii_digit) {
                let n = digits(chars, 10, 9) as usize;
                if braced && chars.next() != Some('}') {
                    return Err("\\g is not followed by a braced, angle-bracketed, or quoted name/number or by a plain number".into());
                }
                let n = if negative {
                    (groups + 1)
                        .checked_sub(n)
                        .filter(|&n| n > 0 && n <= groups)
                } else {
                    Some(n)
                };
                match n {
                    Some(n) if n > 0 => out.push_str(&format!("(?:\\{n})")),
                    _ => return Err("reference to non-existent subpattern".into()),
                }
            } else if braced && !negative {
                let name = group_name(chars, '}')?;
                out.push_str(&format!("\\k<{name}>"));
            } else {
                return Err("recursion and subroutine calls are not supported".into());
            }
        }
        'G' | 'K' | 'X' | 'C' => return Err(format!("\\{l} is not supported")),
        _ => return Err("unrecognized character follows \\".into()),
    }
    Ok(())
}

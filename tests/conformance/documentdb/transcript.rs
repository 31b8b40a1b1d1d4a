//! Parsing `pg_regress` expected-output transcripts into statements and their results, and the
//! SQL literal arguments of a function call.

/// What the transcript shows after a statement.
#[derive(Debug, Clone, PartialEq)]
pub enum Expected {
    /// No output (SET, BEGIN, …).
    Nothing,
    /// A result table: the header line and one text per row (an empty text is NULL).
    Rows { header: String, rows: Vec<String> },
    /// `ERROR:  <message>`.
    Error(String),
}

/// One echoed statement, the line it starts on (1-based) and its result.
#[derive(Debug, Clone)]
pub struct Statement {
    pub line: usize,
    pub text: String,
    pub expected: Expected,
}

fn is_noise(line: &str) -> bool {
    let t = line.trim_start();
    let t = strip_psql_prefix(t);
    t.is_empty()
        || t.starts_with("--")
        || t.starts_with("NOTICE:")
        || t.starts_with("WARNING:")
        || t.starts_with("DEBUG:")
        || t.starts_with("INFO:")
        || t.starts_with("LOG:")
        || t.starts_with("\\")
}

/// `psql:file.sql:12: NOTICE: …` → `NOTICE: …`.
fn strip_psql_prefix(line: &str) -> &str {
    if let Some(rest) = line.strip_prefix("psql:") {
        let mut parts = rest.splitn(3, ':');
        let _file = parts.next();
        let _line = parts.next();
        if let Some(tail) = parts.next() {
            return tail.trim_start();
        }
    }
    line
}

fn is_error_detail(line: &str) -> bool {
    let t = strip_psql_prefix(line.trim_start());
    [
        "CONTEXT:",
        "DETAIL:",
        "HINT:",
        "QUERY:",
        "LINE ",
        "PL/pgSQL",
        "SQL statement",
    ]
    .iter()
    .any(|p| t.starts_with(p))
        || line.trim() == "^"
        || (line.starts_with(' ') && line.trim_start().starts_with('^'))
}

/// Scans one line of statement text, updating the quoting state; returns whether the line ends
/// the statement (a `;` outside quotes as its last character) and the text without comments.
fn scan_line(line: &str, in_string: &mut bool, in_dollar: &mut bool) -> (bool, String) {
    let chars: Vec<char> = line.chars().collect();
    let mut out = String::new();
    let mut ends = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if *in_string {
            out.push(c);
            if c == '\'' {
                *in_string = false;
            }
        } else if *in_dollar {
            out.push(c);
            if c == '$' && chars.get(i + 1) == Some(&'$') {
                out.push('$');
                i += 1;
                *in_dollar = false;
            }
        } else if c == '\'' {
            out.push(c);
            *in_string = true;
        } else if c == '$' && chars.get(i + 1) == Some(&'$') {
            out.push_str("$$");
            i += 1;
            *in_dollar = true;
        } else if c == '-' && chars.get(i + 1) == Some(&'-') {
            break;
        } else if c == '/' && chars.get(i + 1) == Some(&'*') {
            // A comment inside the line: skip to its end (or the end of the line).
            let mut j = i + 2;
            while j + 1 < chars.len() && !(chars[j] == '*' && chars[j + 1] == '/') {
                j += 1;
            }
            i = j + 2;
            continue;
        } else {
            out.push(c);
        }
        i += 1;
    }
    if !*in_string && !*in_dollar && out.trim_end().ends_with(';') {
        ends = true;
    }
    (ends, out)
}

/// Splits a transcript into statements with their expected results.
pub fn parse(text: &str) -> Vec<Statement> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if is_noise(lines[i]) {
            i += 1;
            continue;
        }
        if lines[i].trim_start().starts_with("/*") {
            // A block comment between statements, possibly over several lines.
            while i < lines.len() && !lines[i].contains("*/") {
                i += 1;
            }
            i += 1;
            continue;
        }
        let start = i;
        let mut stmt = String::new();
        let mut in_string = false;
        let mut in_dollar = false;
        loop {
            let (ends, part) = scan_line(lines[i], &mut in_string, &mut in_dollar);
            if !stmt.is_empty() {
                stmt.push('\n');
            }
            stmt.push_str(&part);
            i += 1;
            if ends || i >= lines.len() {
                break;
            }
        }
        // The result: notices first, then an error, a table or nothing.
        while i < lines.len() {
            let t = strip_psql_prefix(lines[i].trim_start());
            if t.starts_with("NOTICE:")
                || t.starts_with("WARNING:")
                || t.starts_with("DEBUG:")
                || t.starts_with("INFO:")
                || t.starts_with("LOG:")
            {
                i += 1;
            } else {
                break;
            }
        }
        let mut expected = Expected::Nothing;
        if i < lines.len() {
            let t = strip_psql_prefix(lines[i].trim_start());
            if let Some(msg) = t.strip_prefix("ERROR:") {
                expected = Expected::Error(msg.trim().to_string());
                i += 1;
                while i < lines.len() && is_error_detail(lines[i]) {
                    i += 1;
                    // CONTEXT text may continue on indented lines.
                    while i < lines.len()
                        && lines[i].starts_with(' ')
                        && !lines[i].trim().is_empty()
                        && !lines[i].trim_start().starts_with('{')
                    {
                        i += 1;
                    }
                }
            } else if i + 1 < lines.len() && lines[i + 1].starts_with("----") {
                let header = lines[i].trim().to_string();
                i += 2;
                let mut rows = Vec::new();
                while i < lines.len() {
                    let l = lines[i];
                    let trimmed = l.trim();
                    if trimmed.starts_with('(')
                        && (trimmed.ends_with(" rows)") || trimmed.ends_with(" row)"))
                    {
                        i += 1;
                        break;
                    }
                    let mut value = trimmed.to_string();
                    // psql marks a value continued on the next line with a trailing `+`.
                    while value.ends_with('+') && i + 1 < lines.len() {
                        value.pop();
                        i += 1;
                        value.push_str(lines[i].trim());
                    }
                    rows.push(value);
                    i += 1;
                }
                expected = Expected::Rows { header, rows };
            }
        }
        out.push(Statement {
            line: start + 1,
            text: stmt,
            expected,
        });
    }
    out
}

/// One argument of a function call in SQL text.
#[derive(Debug, Clone, PartialEq)]
pub enum Arg {
    /// A string literal, unescaped (`''` → `'`), any `::type` cast dropped.
    Str(String),
    Null,
    /// Anything else (a column name, a number, an expression), as written.
    Other(String),
}

/// Finds a call to `name` (case-insensitive, possibly schema-qualified) outside string literals
/// and returns its arguments and the byte offset just after its closing parenthesis.
pub fn call_args(text: &str, name: &str) -> Option<(Vec<Arg>, usize)> {
    let lower = text.to_ascii_lowercase();
    let name = name.to_ascii_lowercase();
    let bytes = text.as_bytes();
    let mut search = 0;
    while let Some(pos) = lower[search..].find(&name) {
        let at = search + pos;
        search = at + name.len();
        let before_ok = at == 0 || {
            let b = bytes[at - 1];
            !(b.is_ascii_alphanumeric() || b == b'_')
        };
        if !before_ok || outside_literal_at(text, at).is_none() {
            continue;
        }
        let mut j = at + name.len();
        while j < bytes.len() && bytes[j].is_ascii_whitespace() {
            j += 1;
        }
        if j < bytes.len() && bytes[j] == b'(' {
            return parse_args(text, j + 1);
        }
    }
    None
}

/// `Some(())` when byte `at` is outside any string literal.
fn outside_literal_at(text: &str, at: usize) -> Option<()> {
    let mut in_string = false;
    for (i, c) in text.char_indices() {
        if i >= at {
            break;
        }
        if c == '\'' {
            in_string = !in_string;
        }
    }
    (!in_string).then_some(())
}

/// A dollar-quoted string at the start of `text` (`$$…$$`, `$tag$…$tag$`): its body and the
/// bytes it spans.
fn dollar_quoted(text: &str) -> Option<(&str, usize)> {
    let rest = text.strip_prefix('$')?;
    let tag_len = rest.find('$')?;
    let tag = &rest[..tag_len];
    if !tag.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        || tag.starts_with(|c: char| c.is_ascii_digit())
    {
        return None;
    }
    let opener = &text[..tag_len + 2];
    let body_start = opener.len();
    let body_len = text[body_start..].find(opener)?;
    Some((
        &text[body_start..body_start + body_len],
        body_start + body_len + opener.len(),
    ))
}

/// The position after a `::type` cast (and the spaces before it) at `k`, or `k`'s first
/// non-space when there is none.
fn skip_cast(chars: &[(usize, char)], mut k: usize) -> usize {
    while k < chars.len() && chars[k].1.is_whitespace() {
        k += 1;
    }
    if k + 1 < chars.len() && chars[k].1 == ':' && chars[k + 1].1 == ':' {
        k += 2;
        while k < chars.len()
            && (chars[k].1.is_alphanumeric() || chars[k].1 == '_' || chars[k].1 == '.')
        {
            k += 1;
        }
    }
    k
}

fn parse_args(text: &str, start: usize) -> Option<(Vec<Arg>, usize)> {
    let chars: Vec<(usize, char)> = text[start..].char_indices().collect();
    let mut args = Vec::new();
    let mut k = 0;
    loop {
        while k < chars.len() && chars[k].1.is_whitespace() {
            k += 1;
        }
        if k >= chars.len() {
            return None;
        }
        if chars[k].1 == ')' && args.is_empty() {
            return Some((args, start + chars[k].0 + 1));
        }
        let arg;
        if let Some((body, used)) = dollar_quoted(&text[start + chars[k].0..]) {
            // `$$…$$` or `$tag$…$tag$`: the text between, verbatim.
            let end = start + chars[k].0 + used;
            while k < chars.len() && start + chars[k].0 < end {
                k += 1;
            }
            k = skip_cast(&chars, k);
            arg = Arg::Str(body.to_string());
        } else if chars[k].1 == '\''
            || (chars[k].1 == 'E' && chars.get(k + 1).map(|c| c.1) == Some('\''))
        {
            if chars[k].1 == 'E' {
                k += 1;
            }
            k += 1;
            let mut s = String::new();
            loop {
                if k >= chars.len() {
                    return None;
                }
                let c = chars[k].1;
                if c == '\'' {
                    if chars.get(k + 1).map(|c| c.1) == Some('\'') {
                        s.push('\'');
                        k += 2;
                        continue;
                    }
                    k += 1;
                    break;
                }
                s.push(c);
                k += 1;
            }
            // Skip a cast such as ::bson or ::text.
            k = skip_cast(&chars, k);
            arg = Arg::Str(s);
        } else {
            let mut depth = 0;
            let mut s = String::new();
            let mut in_string = false;
            while k < chars.len() {
                let c = chars[k].1;
                if in_string {
                    if c == '\'' {
                        in_string = false;
                    }
                } else if c == '\'' {
                    in_string = true;
                } else if c == '(' || c == '[' {
                    depth += 1;
                } else if c == ')' || c == ']' {
                    if depth == 0 {
                        break;
                    }
                    depth -= 1;
                } else if c == ',' && depth == 0 {
                    break;
                }
                s.push(c);
                k += 1;
            }
            let s = s.trim().to_string();
            arg = if s.eq_ignore_ascii_case("null") {
                Arg::Null
            } else {
                Arg::Other(s)
            };
        }
        args.push(arg);
        while k < chars.len() && chars[k].1.is_whitespace() {
            k += 1;
        }
        if k >= chars.len() {
            return None;
        }
        match chars[k].1 {
            ',' => k += 1,
            ')' => return Some((args, start + chars[k].0 + 1)),
            _ => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dollar_quoted_arguments() {
        let (args, _) =
            call_args("SELECT f('db', $$\n{ \"a\": \"it's\" }\n$$);", "f").expect("args");
        assert!(matches!(&args[1], Arg::Str(s) if s.trim() == "{ \"a\": \"it's\" }"));
        let (args, _) = call_args("f($spec$ {} $spec$::bson, 1)", "f").expect("args");
        assert!(matches!(&args[0], Arg::Str(s) if s == " {} "));
        assert!(matches!(&args[1], Arg::Other(s) if s == "1"));
    }

    #[test]
    fn statements_results_and_errors() {
        let text = "SET x TO 1;\n\
                    SELECT f('a', 'it''s');\n f \n-----\n { \"a\" : 1 }\n\n(2 rows)\n\n\
                    -- comment\n\
                    /* a block\n comment */\n\
                    SELECT g(\n  '{}');\nNOTICE:  hi\nERROR:  bad thing\nCONTEXT:  here\n\
                    SELECT h();\n";
        let s = parse(text);
        assert_eq!(s.len(), 4);
        assert_eq!(s[0].expected, Expected::Nothing);
        assert_eq!(
            s[1].expected,
            Expected::Rows {
                header: "f".into(),
                rows: vec!["{ \"a\" : 1 }".into(), "".into()]
            }
        );
        assert_eq!(s[2].line, 12);
        assert_eq!(s[2].expected, Expected::Error("bad thing".into()));
        assert_eq!(s[3].text, "SELECT h();");
    }

    #[test]
    fn call_arguments() {
        let (args, _) = call_args(
            "select * from api.f('db', 'it''s'::text, NULL, document)",
            "f",
        )
        .unwrap();
        assert_eq!(
            args,
            vec![
                Arg::Str("db".into()),
                Arg::Str("it's".into()),
                Arg::Null,
                Arg::Other("document".into())
            ]
        );
        assert!(call_args("select 'f(1)'", "f").is_none());
        let (args, _) = call_args("g(document, ARRAY['{\"a\":1}', 'x']::bson[])", "g").unwrap();
        assert_eq!(
            args[1],
            Arg::Other("ARRAY['{\"a\":1}', 'x']::bson[]".into())
        );
    }
}

//! Strips the shell's JavaScript prelude (`src/js/*.js`) of comments and indentation at build
//! time (`build.rs` includes this file; the shell links the stripped text, natively and in the
//! browser alike, so the tests run what ships). Lines are kept: a stripped file has as many lines
//! as its source and every token on the line it had, so the line numbers in stack traces and
//! parse errors are the source's. Issue #22: 205 KB of prelude, 55 KB gzip, became 43 KB gzip.
//!
//! A small JavaScript tokenizer decides what is code: string literals, template literals (with
//! `${…}` nested to any depth) and regular-expression literals are copied unchanged, whatever
//! they hold. A `/` starts a regular expression where an expression may start (after an operator,
//! an opening bracket, a comma or semicolon, a keyword such as `return`, or at the start of the
//! text), as JavaScript's grammar decides it; after an identifier, a number, `)`, `]` or `}` it is
//! division. What is removed: `//` comments, `/* */` comments (its line breaks where it spanned
//! lines), whitespace at the start and end of a line outside a literal, and whitespace inside a
//! line except one space where two tokens would otherwise run together ([`needs_space`]).

/// The prelude file `src` without comments and indentation, line for line.
pub fn minify(src: &str) -> String {
    let chars: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    // The brace depth at which each open `${` of a template literal resumes its template.
    let mut templates: Vec<usize> = Vec::new();
    let mut depth = 0usize;
    // Whether a `/` here would start a regular expression (an expression may start here).
    let mut regex_ok = true;
    let mut line_start = true;
    // Whitespace was skipped inside the line: one space is written back only where the two
    // neighbours would otherwise run together ([`needs_space`]).
    let mut space = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            trim_end(&mut out);
            out.push('\n');
            line_start = true;
            space = false;
            i += 1;
            continue;
        }
        if c.is_whitespace() {
            space |= !line_start;
            i += 1;
            continue;
        }
        line_start = false;
        let next = chars.get(i + 1).copied();
        // A comment keeps the space pending: it may be one itself.
        let comment = c == '/' && matches!(next, Some('/' | '*'));
        if !comment
            && std::mem::take(&mut space)
            && out.chars().next_back().is_some_and(|p| needs_space(p, c))
        {
            out.push(' ');
        }
        match c {
            '/' if next == Some('/') => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '/' if next == Some('*') => {
                let mut j = i + 2;
                let mut breaks = 0;
                while j < chars.len() && !(chars[j] == '*' && chars.get(j + 1) == Some(&'/')) {
                    if chars[j] == '\n' {
                        breaks += 1;
                    }
                    j += 1;
                }
                i = (j + 2).min(chars.len());
                if breaks == 0 {
                    if out.is_empty() || out.ends_with('\n') {
                        line_start = true;
                    } else {
                        space = true;
                    }
                } else {
                    for _ in 0..breaks {
                        trim_end(&mut out);
                        out.push('\n');
                    }
                    line_start = true;
                }
            }
            '/' if regex_ok => {
                i = copy_regex(&chars, i, &mut out);
                regex_ok = false;
            }
            '\'' | '"' => {
                i = copy_string(&chars, i, &mut out);
                regex_ok = false;
            }
            '`' => {
                out.push('`');
                i = copy_template(&chars, i + 1, &mut out, &mut templates, &mut depth);
                regex_ok = false;
            }
            '{' => {
                depth += 1;
                out.push(c);
                i += 1;
                regex_ok = true;
            }
            '}' => {
                depth = depth.saturating_sub(1);
                out.push(c);
                i += 1;
                if templates.last() == Some(&depth) {
                    templates.pop();
                    i = copy_template(&chars, i, &mut out, &mut templates, &mut depth);
                }
                regex_ok = false;
            }
            c if c.is_alphanumeric() || c == '_' || c == '$' => {
                let start = i;
                while i < chars.len()
                    && (chars[i].is_alphanumeric() || chars[i] == '_' || chars[i] == '$')
                {
                    i += 1;
                }
                let word: String = chars[start..i].iter().collect();
                out.push_str(&word);
                regex_ok = REGEX_AFTER.contains(&word.as_str());
            }
            ')' | ']' => {
                out.push(c);
                i += 1;
                regex_ok = false;
            }
            _ => {
                out.push(c);
                i += 1;
                // `.5` and `a.b`: a word after `.` is read as a word; `/` after `.` cannot occur.
                regex_ok = true;
            }
        }
    }
    trim_end(&mut out);
    out
}

/// Whether whitespace between the code characters `before` and `after` must stay one space:
/// between two characters of words (names, keywords, numbers), between `+`/`-` and `+`/`-`
/// (`a - -b`), beside `/` (division, a regular expression or a comment) and `.` (`1 .x`), and
/// in `< !` (`<!--` starts a comment). Elsewhere JavaScript reads the same tokens without it
/// (`x = f(a, b)` is `x=f(a,b)`; `return 'a'` is `return'a'`), and a line break, which can end
/// a statement, is never removed.
fn needs_space(before: char, after: char) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '$' || !c.is_ascii();
    (word(before) && word(after))
        || (matches!(before, '+' | '-') && matches!(after, '+' | '-'))
        || matches!(before, '/' | '.')
        || matches!(after, '/' | '.')
        || (before == '<' && after == '!')
}

/// Keywords after which an expression (so a regular expression) may start.
const REGEX_AFTER: [&str; 14] = [
    "return",
    "typeof",
    "instanceof",
    "in",
    "of",
    "new",
    "delete",
    "void",
    "throw",
    "case",
    "do",
    "else",
    "yield",
    "await",
];

fn trim_end(out: &mut String) {
    let kept = out.trim_end_matches([' ', '\t', '\r']).len();
    out.truncate(kept);
}

/// Copies the string literal that starts at `i` (its quote); returns the index after it.
fn copy_string(chars: &[char], mut i: usize, out: &mut String) -> usize {
    let quote = chars[i];
    out.push(quote);
    i += 1;
    while i < chars.len() {
        let c;
        (c, i) = copy_char(chars, i, out);
        if c == quote || c == '\n' {
            break;
        }
    }
    i
}

/// Copies the character at `i`, and after a backslash the character it escapes; returns the
/// character (`\\` for an escape) and the index after what it copied.
fn copy_char(chars: &[char], i: usize, out: &mut String) -> (char, usize) {
    let c = chars[i];
    out.push(c);
    if c == '\\'
        && let Some(&escaped) = chars.get(i + 1)
    {
        out.push(escaped);
        return (c, i + 2);
    }
    (c, i + 1)
}

/// Copies the regular-expression literal that starts at `i` (its `/`); returns the index after
/// its closing `/` (the flags that follow are read as a word).
fn copy_regex(chars: &[char], mut i: usize, out: &mut String) -> usize {
    out.push('/');
    i += 1;
    let mut class = false;
    while i < chars.len() {
        let c;
        (c, i) = copy_char(chars, i, out);
        match c {
            '[' => class = true,
            ']' => class = false,
            '/' if !class => break,
            '\n' => break,
            _ => {}
        }
    }
    i
}

/// Copies template text from `i` (after a backtick or the `}` closing a substitution) to the end
/// of the literal or the next `${`, which opens a substitution read as code; returns the index
/// after what it copied.
fn copy_template(
    chars: &[char],
    mut i: usize,
    out: &mut String,
    templates: &mut Vec<usize>,
    depth: &mut usize,
) -> usize {
    while i < chars.len() {
        let c;
        (c, i) = copy_char(chars, i, out);
        match c {
            '`' => break,
            '$' if chars.get(i) == Some(&'{') => {
                out.push('{');
                i += 1;
                templates.push(*depth);
                *depth += 1;
                break;
            }
            _ => {}
        }
    }
    i
}

#[cfg(test)]
mod tests {
    use super::minify;

    #[test]
    fn comments_and_indentation_go_lines_stay() {
        let src = "// head\nfunction f(a) {\n    // note\n    return a / 2; // half\n  /* one\n two */ var b = 1;\n\tx = a /* mid */ + b;\n}\n";
        assert_eq!(
            minify(src),
            "\nfunction f(a){\n\nreturn a / 2;\n\nvar b=1;\nx=a+b;\n}\n"
        );
        assert_eq!(minify(src).lines().count(), src.lines().count());
    }

    #[test]
    fn literals_are_copied_unchanged() {
        let cases = [
            "var s = '  // not a comment /* nor this */';",
            "var s = \"it's \\\" // still\";",
            "var t = `line\n    indented // kept\n  ${ a /* gone */ + `inner ${ {b: 1}.b } // kept` }  tail`;",
            "var r = /\\/\\/ [/*] \"'`/g.test(x);",
            "if (ok) return /ab+c/.test(s) ? 1 : 2;",
            "var a = [/x/, /y/]; f(/z/); x = y || /w/;",
            "var n = (a + b) / 2 / c; var m = x[1] / y; var k = 10 / 5;",
        ];
        for src in cases {
            let out = minify(src);
            // Each literal of the source, and what it must read in the output: literals copied
            // unchanged, the code around them without the spaces it does not need.
            for (given, kept) in [
                (
                    "'  // not a comment /* nor this */'",
                    "'  // not a comment /* nor this */'",
                ),
                ("\"it's \\\" // still\"", "\"it's \\\" // still\""),
                (
                    "`line\n    indented // kept\n  ${",
                    "`line\n    indented // kept\n  ${",
                ),
                (
                    "`inner ${ {b: 1}.b } // kept`",
                    "`inner ${{b:1}.b} // kept`",
                ),
                ("}  tail`", "}  tail`"),
                ("/\\/\\/ [/*] \"'`/g", "/\\/\\/ [/*] \"'`/g"),
                (
                    "return /ab+c/.test(s) ? 1 : 2;",
                    "return /ab+c/.test(s)?1:2;",
                ),
                (
                    "/x/, /y/]; f(/z/); x = y || /w/;",
                    "/x/, /y/];f(/z/);x=y|| /w/;",
                ),
                (
                    "(a + b) / 2 / c; var m = x[1] / y; var k = 10 / 5;",
                    "(a+b) / 2 / c;var m=x[1] / y;var k=10 / 5;",
                ),
            ] {
                if src.contains(given) {
                    assert!(out.contains(kept), "{kept:?} in {out:?}");
                }
            }
            assert!(!out.contains("gone"), "{out:?}");
        }
    }

    /// Every prelude file: same line count, every line the source's line or a part of it, and
    /// smaller (the shell's own tests run the stripped files).
    #[test]
    fn the_prelude_files_keep_their_lines() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/js");
        let mut total = (0, 0);
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let src = std::fs::read_to_string(&path).unwrap();
            let out = minify(&src);
            assert_eq!(out.lines().count(), src.lines().count(), "{path:?}");
            for (a, b) in out.lines().zip(src.lines()) {
                // The line starts as its source's does, whitespace aside.
                let bare = |t: &str| t.chars().filter(|c| !c.is_whitespace()).collect::<String>();
                let first: String = bare(a).chars().take(3).collect();
                assert!(bare(b).contains(&first), "{path:?}: {a:?} from {b:?}");
            }
            total.0 += src.len();
            total.1 += out.len();
        }
        assert!(total.1 * 10 < total.0 * 8, "{total:?}");
    }

    #[test]
    fn spaces_stay_only_where_tokens_would_run_together() {
        for (src, out) in [
            ("var x = a + b * c;", "var x=a+b*c;"),
            (
                "x = a - -b + +c; y = a++ + ++b;",
                "x=a- -b+ +c;y=a++ + ++b;",
            ),
            (
                "if (a < !b) return typeof x === 'y';",
                "if(a< !b)return typeof x==='y';",
            ),
            ("z = 1 .toString() + a . b;", "z=1 .toString()+a . b;"),
            (
                "q = a / b / c; r = x ? /re/ : 0;",
                "q=a / b / c;r=x? /re/ :0;",
            ),
            ("f(a,   b) ;  g ( )", "f(a,b);g()"),
            ("var é = ü in o;", "var é=ü in o;"),
        ] {
            assert_eq!(minify(src), out, "{src}");
        }
    }
}

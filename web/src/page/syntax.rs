//! The editor's reading of shell input: tokens for syntax colouring, the bracket that matches
//! the one at the cursor, and whether a statement is complete (Enter runs it then, as in
//! mongosh). A light lexer, not a parser: it knows strings, comments, numbers, words and
//! brackets, which is what colouring and bracket matching need. Pure logic, no DOM.

/// What a token is, for colouring.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenKind {
    String,
    Number,
    Comment,
    Keyword,
    /// A regular expression literal, `/^a/i`.
    Regex,
    /// `$gt`, `$match`: a query, update or aggregation operator.
    Operator,
    /// `db`, `use`, `show`, `print`…: the shell's own words.
    Shell,
    Word,
    Bracket,
    Punct,
    Space,
}

impl TokenKind {
    /// The CSS class (`tok-string`…).
    pub fn class(self) -> &'static str {
        match self {
            TokenKind::String => "tok-string",
            TokenKind::Number => "tok-number",
            TokenKind::Comment => "tok-comment",
            TokenKind::Regex => "tok-regex",
            TokenKind::Keyword => "tok-keyword",
            TokenKind::Operator => "tok-operator",
            TokenKind::Shell => "tok-shell",
            TokenKind::Word => "tok-word",
            TokenKind::Bracket => "tok-bracket",
            TokenKind::Punct => "tok-punct",
            TokenKind::Space => "tok-space",
        }
    }
}

/// A token: its kind and byte range in the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    pub kind: TokenKind,
    pub start: usize,
    pub end: usize,
}

const KEYWORDS: &[&str] = &[
    "var",
    "let",
    "const",
    "function",
    "return",
    "if",
    "else",
    "for",
    "while",
    "do",
    "break",
    "continue",
    "new",
    "true",
    "false",
    "null",
    "undefined",
    "this",
    "typeof",
    "in",
    "of",
    "try",
    "catch",
    "finally",
    "throw",
    "switch",
    "case",
    "default",
];

const SHELL_WORDS: &[&str] = &["db", "use", "show", "it", "print", "printjson", "rs", "sh"];

/// Splits input into tokens that cover it exactly (every byte is in one token).
pub fn tokenize(input: &str) -> Vec<Token> {
    let bytes = input.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        let c = bytes[i];
        let kind = match c {
            b'\'' | b'"' | b'`' => {
                i = string_end(bytes, i);
                TokenKind::String
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                i = input[i..].find('\n').map_or(bytes.len(), |n| i + n);
                TokenKind::Comment
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i = input[i + 2..]
                    .find("*/")
                    .map_or(bytes.len(), |n| i + 2 + n + 2);
                TokenKind::Comment
            }
            b'/' if regex_may_start(input, &out) => {
                i = regex_end(bytes, i);
                TokenKind::Regex
            }
            b'0'..=b'9' => {
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'.') {
                    i += 1;
                }
                TokenKind::Number
            }
            b'(' | b')' | b'[' | b']' | b'{' | b'}' => {
                i += 1;
                TokenKind::Bracket
            }
            c if c.is_ascii_whitespace() => {
                while i < bytes.len() && bytes[i].is_ascii_whitespace() {
                    i += 1;
                }
                TokenKind::Space
            }
            c if is_word_byte(c) => {
                while i < bytes.len() && is_word_byte(bytes[i]) {
                    i += 1;
                }
                let word = &input[start..i];
                if word.starts_with('$') {
                    TokenKind::Operator
                } else if KEYWORDS.contains(&word) {
                    TokenKind::Keyword
                } else if SHELL_WORDS.contains(&word) {
                    TokenKind::Shell
                } else {
                    TokenKind::Word
                }
            }
            _ => {
                // One character (which may be several bytes).
                i += input[i..].chars().next().map_or(1, char::len_utf8);
                TokenKind::Punct
            }
        };
        out.push(Token {
            kind,
            start,
            end: i,
        });
    }
    out
}

/// Whether a `/` here starts a regular expression rather than dividing: it does unless the
/// previous token ends a value (a word, a number, a string, a closing bracket).
fn regex_may_start(input: &str, before: &[Token]) -> bool {
    let Some(previous) = before.iter().rev().find(|t| t.kind != TokenKind::Space) else {
        return true;
    };
    match previous.kind {
        TokenKind::Word | TokenKind::Shell | TokenKind::Number | TokenKind::String => false,
        TokenKind::Keyword => input[previous.start..previous.end] != *"this",
        TokenKind::Bracket => !matches!(&input[previous.start..previous.end], ")" | "]" | "}"),
        _ => true,
    }
}

/// The end of the regular expression literal starting at `start` (after its flags), or the end
/// of the line when it is not closed.
fn regex_end(bytes: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    let mut in_class = false;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'\n' => return i,
            b'[' => {
                in_class = true;
                i += 1;
            }
            b']' => {
                in_class = false;
                i += 1;
            }
            b'/' if !in_class => {
                i += 1;
                while i < bytes.len() && bytes[i].is_ascii_alphabetic() {
                    i += 1;
                }
                return i;
            }
            _ => i += 1,
        }
    }
    bytes.len()
}

/// Letters, digits, `_`, `$` and any non-ASCII byte (identifiers may hold Unicode letters).
fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80
}

/// The end of the string starting at `start` (after its closing quote, or the input's end).
fn string_end(bytes: &[u8], start: usize) -> usize {
    let quote = bytes[start];
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'\n' if quote != b'`' => return i,
            b if b == quote => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

fn closer(open: u8) -> Option<u8> {
    match open {
        b'(' => Some(b')'),
        b'[' => Some(b']'),
        b'{' => Some(b'}'),
        _ => None,
    }
}

/// The bracket pair at the cursor (a byte offset): the bracket just before the cursor, else
/// the one just after it, and its partner. `None` when the cursor is at no bracket or the
/// bracket has no partner.
pub fn matching_bracket(input: &str, cursor: usize) -> Option<(usize, usize)> {
    let tokens = tokenize(input);
    let brackets: Vec<usize> = tokens
        .iter()
        .filter(|t| t.kind == TokenKind::Bracket)
        .map(|t| t.start)
        .collect();
    let at = brackets
        .iter()
        .copied()
        .find(|&b| b + 1 == cursor)
        .or_else(|| brackets.iter().copied().find(|&b| b == cursor))?;
    let bytes = input.as_bytes();
    let position = brackets.iter().position(|&b| b == at)?;
    if let Some(close) = closer(bytes[at]) {
        let mut depth = 0usize;
        for &b in &brackets[position + 1..] {
            if bytes[b] == bytes[at] {
                depth += 1;
            } else if bytes[b] == close {
                if depth == 0 {
                    return Some((at, b));
                }
                depth -= 1;
            }
        }
        None
    } else {
        let mut depth = 0usize;
        for &b in brackets[..position].iter().rev() {
            if bytes[b] == bytes[at] {
                depth += 1;
            } else if closer(bytes[b]) == Some(bytes[at]) {
                if depth == 0 {
                    return Some((b, at));
                }
                depth -= 1;
            }
        }
        None
    }
}

/// Whether the input is a complete statement: every bracket closed, no string or block
/// comment left open. (The shell decides for certain; this only chooses what Enter does.)
pub fn is_complete(input: &str) -> bool {
    let mut depth: i64 = 0;
    for t in tokenize(input) {
        let text = &input[t.start..t.end];
        match t.kind {
            TokenKind::Bracket if closer(text.as_bytes()[0]).is_some() => depth += 1,
            TokenKind::Bracket => depth -= 1,
            TokenKind::String => {
                let b = text.as_bytes();
                let closed = b.len() >= 2 && b[b.len() - 1] == b[0] && !text.ends_with("\\'");
                if !closed {
                    return false;
                }
            }
            TokenKind::Comment if text.starts_with("/*") && !text.ends_with("*/") => return false,
            _ => {}
        }
    }
    depth <= 0
        && !input
            .trim_end()
            .ends_with(['.', ',', '=', '+', '-', '*', ':', '&', '|'])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(input: &str) -> Vec<(TokenKind, &str)> {
        tokenize(input)
            .into_iter()
            .filter(|t| t.kind != TokenKind::Space)
            .map(|t| (t.kind, &input[t.start..t.end]))
            .collect()
    }

    #[test]
    fn tokens_cover_the_input() {
        let input = "db.c.find({a: 'x(', $or: [1.5]}) // done\n/* é */ var ü = `t`";
        let tokens = tokenize(input);
        let mut at = 0;
        for t in &tokens {
            assert_eq!(t.start, at);
            at = t.end;
        }
        assert_eq!(at, input.len());
    }

    #[test]
    fn tokens_have_kinds() {
        use TokenKind::*;
        assert_eq!(
            kinds("db.c.find({price: {$gt: 10}, n: 'a\\'b'}) // x"),
            vec![
                (Shell, "db"),
                (Punct, "."),
                (Word, "c"),
                (Punct, "."),
                (Word, "find"),
                (Bracket, "("),
                (Bracket, "{"),
                (Word, "price"),
                (Punct, ":"),
                (Bracket, "{"),
                (Operator, "$gt"),
                (Punct, ":"),
                (Number, "10"),
                (Bracket, "}"),
                (Punct, ","),
                (Word, "n"),
                (Punct, ":"),
                (String, "'a\\'b'"),
                (Bracket, "}"),
                (Bracket, ")"),
                (Comment, "// x"),
            ]
        );
        assert_eq!(kinds("var x = null")[0], (Keyword, "var"));
        assert_eq!(
            kinds("/(a+)+$/i.test(x) / 2"),
            vec![
                (Regex, "/(a+)+$/i"),
                (Punct, "."),
                (Word, "test"),
                (Bracket, "("),
                (Word, "x"),
                (Bracket, ")"),
                (Punct, "/"),
                (Number, "2"),
            ]
        );
        assert_eq!(kinds("{name: /[/]x/}")[3], (Regex, "/[/]x/"));
    }

    #[test]
    fn brackets_match_across_nesting_and_skip_strings() {
        let input = "f({a: [1, ')'], b: {}})";
        // Cursor just after the opening `(`.
        assert_eq!(matching_bracket(input, 2), Some((1, 22)));
        // Cursor just before the `[`: the bracket after the cursor counts.
        let open_square = input.find('[').unwrap();
        let close_square = input.find(']').unwrap();
        assert_eq!(
            matching_bracket(input, open_square),
            Some((open_square, close_square))
        );
        // Cursor after the final `)`.
        assert_eq!(matching_bracket(input, input.len()), Some((1, 22)));
        assert_eq!(matching_bracket("f(x", 2), None);
        assert_eq!(matching_bracket("abc", 1), None);
    }

    #[test]
    fn completeness_follows_brackets_strings_and_trailing_operators() {
        assert!(is_complete("db.c.find({a: 1})"));
        assert!(is_complete("show dbs"));
        assert!(!is_complete("db.c.find({a: 1}"));
        assert!(!is_complete("db.c.find({a: 'x"));
        assert!(!is_complete("db.c."));
        assert!(!is_complete("var x = "));
        assert!(!is_complete("/* comment"));
        assert!(is_complete("db.c.find({a: '('})"));
        assert!(is_complete("db.c.find({a: /(/})"));
        assert!(is_complete(""));
    }
}

//! Shell-only syntax handled before JavaScript, as mongosh does: `use`, `show`, `it`, `exit`.

/// What one input line asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShellCommand {
    Use(String),
    Show(String),
    It,
    Exit,
    Js(String),
    Empty,
}

pub fn classify(input: &str) -> ShellCommand {
    let trimmed = input.trim();
    let line = trimmed.trim_end_matches(';').trim();
    if line.is_empty() {
        return ShellCommand::Empty;
    }
    let mut words = line.split_whitespace();
    let first = words.next().unwrap_or_default();
    let rest: Vec<&str> = words.collect();
    match (first, rest.as_slice()) {
        ("use", [name]) if is_plain_word(name) => ShellCommand::Use((*name).to_string()),
        ("show", [what]) if is_plain_word(what) => ShellCommand::Show((*what).to_string()),
        ("it", []) => ShellCommand::It,
        ("exit" | "quit" | "exit()" | "quit()", []) => ShellCommand::Exit,
        _ => ShellCommand::Js(input.to_string()),
    }
}

/// `use x` is shell syntax only when x is a bare word (so `use = 1` stays JavaScript).
fn is_plain_word(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || "_-.".contains(c))
}

/// The deepest bracket nesting in the input, ignoring strings and comments. Boa's parser recurses
/// per level, so absurdly deep literals are refused before parsing to protect the native stack.
pub fn nesting_depth(src: &str) -> usize {
    let (mut depth, mut max) = (0usize, 0usize);
    let mut chars = src.chars().peekable();
    let mut quote: Option<char> = None;
    while let Some(c) = chars.next() {
        if let Some(q) = quote {
            if c == '\\' {
                chars.next();
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '\'' | '`' => quote = Some(c),
            '/' if chars.peek() == Some(&'/') => {
                for n in chars.by_ref() {
                    if n == '\n' {
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut prev = ' ';
                for n in chars.by_ref() {
                    if prev == '*' && n == '/' {
                        break;
                    }
                    prev = n;
                }
            }
            '(' | '[' | '{' => {
                depth += 1;
                max = max.max(depth);
            }
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_syntax() {
        assert_eq!(classify("use shop"), ShellCommand::Use("shop".into()));
        assert_eq!(classify("  use shop;  "), ShellCommand::Use("shop".into()));
        assert_eq!(
            classify("show collections"),
            ShellCommand::Show("collections".into())
        );
        assert_eq!(classify("it"), ShellCommand::It);
        assert_eq!(
            classify("var it = 1"),
            ShellCommand::Js("var it = 1".into())
        );
        assert_eq!(classify("use = 5"), ShellCommand::Js("use = 5".into()));
        assert_eq!(classify("   "), ShellCommand::Empty);
        assert_eq!(classify("exit"), ShellCommand::Exit);
        assert_eq!(classify("quit();"), ShellCommand::Exit);
    }

    #[test]
    fn depth_ignores_strings_and_comments() {
        assert_eq!(nesting_depth("db.c.find({a: {b: [1]}})"), 4);
        assert_eq!(nesting_depth("'((((' // [[[[\n[1]"), 1);
        assert_eq!(nesting_depth(&"[".repeat(5000)), 5000);
    }
}

//! Shell-only syntax handled before JavaScript, as mongosh does: `use`, `show`, `it`, `exit`.
//! (The nesting limits that protect Boa's parser are in `nesting/`.)

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
}

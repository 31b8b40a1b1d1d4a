//! The shell's input preprocessing (`shell::preprocess`): classifying a line as `use`, `show`,
//! `it`, `exit` or JavaScript, and the nesting-depth scan. Invariants: JavaScript input is passed
//! on unchanged, and the depth never exceeds the number of opening brackets.

use shell::preprocess::{ShellCommand, classify, nesting_depth};

pub fn run(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    match classify(&text) {
        ShellCommand::Js(code) => assert_eq!(code, text, "JavaScript input was changed"),
        ShellCommand::Use(name) | ShellCommand::Show(name) => {
            assert!(!name.is_empty() && text.contains(name.as_str()))
        }
        ShellCommand::It | ShellCommand::Exit | ShellCommand::Empty => {}
    }
    let opening = text
        .chars()
        .filter(|c| matches!(c, '(' | '[' | '{'))
        .count();
    let depth = nesting_depth(&text);
    assert!(
        depth <= opening,
        "depth {depth} is more than the {opening} opening brackets"
    );
}

//! The shell's input preprocessing (`shell::preprocess`): classifying a line as `use`, `show`,
//! `it`, `exit` or JavaScript, and the token-level nesting measure that guards Boa's parser.
//! Invariants: JavaScript input is passed on unchanged, and the measure scanned up to a limit
//! agrees with the whole measure (equal below the limit, past it above).

use shell::lexical_depth;
use shell::preprocess::{ShellCommand, classify};

pub fn run(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    match classify(&text) {
        ShellCommand::Js(code) => assert_eq!(code, text, "JavaScript input was changed"),
        ShellCommand::Use(name) | ShellCommand::Show(name) => {
            assert!(!name.is_empty() && text.contains(name.as_str()))
        }
        ShellCommand::It | ShellCommand::Exit | ShellCommand::Empty => {}
    }
    const LIMIT: usize = 400;
    let whole = lexical_depth(&text, usize::MAX);
    let limited = lexical_depth(&text, LIMIT);
    if whole <= LIMIT {
        assert_eq!(limited, whole, "the limited scan disagrees below the limit");
    } else {
        assert!(
            limited > LIMIT,
            "the limited scan missed a depth of {whole}"
        );
    }
}

//! The shell as a whole: a program is evaluated by `Shell::eval` with the shell's default limits,
//! over the sample collection, and the shell must still answer the next command. The first byte
//! picks the program's source: even, the rest of the input as text (the seeds are the lessons'
//! command blocks); odd, a program drawn from `grammar`.

use arbitrary::Unstructured;
use engine::Engine;
use shell::{Limits, Shell, ShellConfig};

use crate::grammar;
use crate::sample;

pub fn run(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let program = if mode % 2 == 0 {
        String::from_utf8_lossy(rest).into_owned()
    } else {
        match grammar::program(&mut Unstructured::new(rest)) {
            Ok(p) => p,
            Err(_) => return,
        }
    };
    // The default limits, but loops stop after 100,000 iterations instead of 10 million: the
    // same guard, reached in milliseconds, so the fuzzer spends its time on new programs.
    let config = ShellConfig {
        limits: Limits {
            loop_iterations: 100_000,
            ..Limits::default()
        },
        ..ShellConfig::default()
    };
    let mut shell = Shell::new(sample_engine(), config);
    shell.eval("use fuzz");
    let _ = shell.eval(&program);
    let after = shell.eval("1 + 1");
    assert_eq!(
        after.result.as_deref(),
        Some("2"),
        "the shell no longer answers after {program:?}: {after:?}"
    );
}

fn sample_engine() -> Engine {
    sample::engine()
}

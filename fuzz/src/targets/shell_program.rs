//! The shell as a whole: a program is evaluated by `Shell::eval` with the shell's default limits,
//! over the sample collection, and the shell must still answer the next command. The first byte
//! picks the program's source: even, the rest of the input as text (the seeds are the lessons'
//! command blocks); odd, a program drawn from `grammar`.
//!
//! Speed: starting a shell (a Boa context that parses and compiles the shell's JavaScript API)
//! took most of each execution, so the target ran about 24 inputs a second. One shell per
//! thread now serves [`INPUTS_PER_SHELL`] inputs, each on a fresh copy of the sample engine and
//! in the default printing style; only JavaScript globals an input leaves behind can carry over.
//! So that no finding depends on an earlier input, a shell that stops answering is replaced and
//! the input run again on a fresh one before it counts as a failure.

use std::cell::RefCell;
use std::mem::ManuallyDrop;

use arbitrary::Unstructured;
use engine::Engine;
use shell::{Limits, Shell, ShellConfig, Style};

use crate::grammar;
use crate::sample;

/// Inputs one shell serves before it is replaced (bounds what globals can carry over).
pub const INPUTS_PER_SHELL: u32 = 200;

thread_local! {
    /// The reused shell and how many inputs it has served. It is never dropped by the
    /// thread-local destructor: Boa's garbage collector keeps its own thread-local state, which
    /// may be gone by then (dropping a context there corrupted the heap); shells replaced while
    /// the thread runs are dropped normally.
    static SHELL: RefCell<Option<(ManuallyDrop<Shell>, u32)>> = const { RefCell::new(None) };
}

pub fn run(data: &[u8]) {
    let Some(program) = program(data) else {
        return;
    };
    if std::env::var_os("SPROUT_FUZZ_TRACE").is_some() {
        eprintln!("=== program\n{program}");
    }
    let answered = SHELL.with(|cell| {
        let mut slot = cell.borrow_mut();
        let (shell, served) = match slot.take() {
            Some((shell, served)) if served < INPUTS_PER_SHELL => {
                (ManuallyDrop::into_inner(shell), served)
            }
            Some((shell, _)) => {
                drop(ManuallyDrop::into_inner(shell));
                (new_shell(), 0)
            }
            None => (new_shell(), 0),
        };
        let (shell, answer) = run_program(shell, &program);
        let answered = answer.as_deref() == Some("2");
        if answered {
            *slot = Some((ManuallyDrop::new(shell), served + 1));
        }
        answered
    });
    if answered {
        return;
    }
    // The reused shell failed: run the input alone on a fresh shell, which decides.
    let (_, answer) = run_program(new_shell(), &program);
    assert_eq!(
        answer.as_deref(),
        Some("2"),
        "the shell no longer answers `1 + 1` after {program:?}"
    );
}

/// The program an input runs, or `None` when its bytes draw no program from the grammar.
pub fn program(data: &[u8]) -> Option<String> {
    let (&mode, rest) = data.split_first()?;
    if mode % 2 == 0 {
        Some(String::from_utf8_lossy(rest).into_owned())
    } else {
        grammar::program(&mut Unstructured::new(rest)).ok()
    }
}

/// Runs `program` on `shell` over a fresh sample engine; the answer to `1 + 1` afterwards.
fn run_program(mut shell: Shell, program: &str) -> (Shell, Option<String>) {
    shell.replace_engine(sample_engine());
    shell.set_style(Style::Mongosh);
    shell.eval("use fuzz");
    let _ = shell.eval(program);
    let after = shell.eval("1 + 1");
    (shell, after.result)
}

fn new_shell() -> Shell {
    // The default limits, but loops stop after 100,000 iterations instead of 10 million: the
    // same guard, reached in milliseconds, so the fuzzer spends its time on new programs.
    let config = ShellConfig {
        limits: Limits {
            loop_iterations: 100_000,
            ..Limits::default()
        },
        ..ShellConfig::default()
    };
    Shell::new(sample_engine(), config)
}

fn sample_engine() -> Engine {
    sample::engine()
}

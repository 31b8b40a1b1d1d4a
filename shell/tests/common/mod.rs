//! Shared helpers for the shell's integration suites: a reproducible shell (simulated clock at
//! 2015-04-04T12:00:00Z, fixed seeds) and running inputs in one session.

#![allow(dead_code)]

use engine::Engine;
use engine::clock::SimulatedClock;
use shell::{Evaluation, Shell, ShellConfig, Style};

/// 2015-04-04T12:00:00Z, in the books' era.
pub const START_MILLIS: i64 = 1_428_148_800_000;

pub fn shell(style: Style) -> Shell {
    let engine = Engine::with_clock(Box::new(SimulatedClock::new(START_MILLIS)), 7);
    Shell::new(
        engine,
        ShellConfig {
            style,
            ..ShellConfig::default()
        },
    )
}

/// Runs every input in one session; returns each evaluation.
pub fn run_all(shell: &mut Shell, inputs: &[&str]) -> Vec<Evaluation> {
    inputs.iter().map(|i| shell.eval(i)).collect()
}

/// Runs the inputs in a fresh shell of `style` and returns what the last one shows.
pub fn last_text(style: Style, inputs: &[&str]) -> String {
    let mut sh = shell(style);
    run_all(&mut sh, inputs)
        .last()
        .map(Evaluation::text)
        .unwrap_or_default()
}

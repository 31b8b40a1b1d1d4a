//! Rewrites the ```` ```expect ```` blocks of lesson files with what each step shows now:
//! `cargo run -p lessons --example bless -- lessons/content/b3-writes.md`. For authors: run it
//! after writing or changing steps, then read the diff (`git diff`) and check every output
//! against what the prose claims; the lesson test compares the blocks with the shell's output.

use std::process::ExitCode;

fn main() -> ExitCode {
    let mut status = ExitCode::SUCCESS;
    for path in std::env::args().skip(1) {
        if let Err(e) = bless(&path) {
            eprintln!("{path}: {e}");
            status = ExitCode::FAILURE;
        }
    }
    status
}

/// Plays the lesson's steps in a fresh lesson shell and writes each step's output into its
/// `expect` block (steps without one are left alone).
fn bless(path: &str) -> Result<(), String> {
    let src = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let lesson = lessons::parse_lesson(path, &src).map_err(|e| e.to_string())?;
    let mut shell = lesson_runner::lesson_shell(&lesson)?;
    let outputs: Vec<String> = lesson
        .steps
        .iter()
        .map(|s| shell.eval(&s.command).text())
        .collect();
    let lines: Vec<&str> = src.lines().collect();
    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    let mut step: Option<usize> = None;
    let mut in_exercise = false;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if let Some(heading) = line.strip_prefix("## ") {
            in_exercise = heading.starts_with("Exercise:");
            if !in_exercise {
                step = Some(step.map_or(0, |s| s + 1));
            }
        }
        if line == "```expect" && !in_exercise {
            let output = step
                .and_then(|s| outputs.get(s))
                .ok_or_else(|| format!("line {}: an expect block outside a step", i + 1))?;
            let close = lines[i + 1..]
                .iter()
                .position(|l| l.trim_end() == "```")
                .ok_or_else(|| format!("line {}: the expect block is not closed", i + 1))?;
            out.push(line.to_string());
            out.extend(output.trim_end().lines().map(str::to_string));
            out.push("```".to_string());
            i += close + 2;
            continue;
        }
        out.push(line.to_string());
        i += 1;
    }
    std::fs::write(path, out.join("\n") + "\n").map_err(|e| e.to_string())?;
    eprintln!("{path}: {} steps played", outputs.len());
    Ok(())
}

//! `fuzz-show <file>...`: prints the shell program a `shell_program` input runs (the first byte
//! picks text or grammar, as in `targets::shell_program`), so a finding can be read, minimised
//! and replayed in the `sprout` CLI.

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let files: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    if files.is_empty() {
        eprintln!("usage: fuzz-show <shell_program input>...");
        return ExitCode::from(2);
    }
    for file in files {
        let data = match std::fs::read(&file) {
            Ok(data) => data,
            Err(e) => {
                eprintln!("fuzz-show: cannot read {}: {e}", file.display());
                return ExitCode::FAILURE;
            }
        };
        match sprout_fuzz::targets::shell_program::program(&data) {
            Some(program) => println!("{program}"),
            None => eprintln!("fuzz-show: {} decodes to no program", file.display()),
        }
    }
    ExitCode::SUCCESS
}

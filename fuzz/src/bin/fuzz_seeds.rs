//! `fuzz-seeds <dir>`: writes the seed corpora (`sprout_fuzz::seeds`) under `<dir>/<target>/`.

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(dir) = std::env::args_os().nth(1).map(PathBuf::from) else {
        eprintln!("usage: fuzz-seeds <dir>");
        return ExitCode::from(2);
    };
    if sprout_fuzz::seeds::conformance_dir().is_none() {
        eprintln!("fuzz-seeds: no conformance data found; seeding from the lessons only");
    }
    let corpora = sprout_fuzz::seeds::collect();
    match corpora.write(&dir) {
        Ok(n) => {
            for (target, seeds) in &corpora.by_target {
                println!("{target}: {} seeds", seeds.len());
            }
            println!("{n} seed files under {}", dir.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("fuzz-seeds: cannot write {}: {e}", dir.display());
            ExitCode::FAILURE
        }
    }
}

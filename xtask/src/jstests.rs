//! `cargo xtask jstests [--survey] [--only SUBSTRING] [--dir FOLDER]`: every file of MongoDB's
//! `jstests/core` and `jstests/aggregation` (the shared conformance folder) through the
//! `sprout` binary in the legacy shell's style, printing the pass rate per area and each
//! failing file's first failing line. With `--survey`, only the survey beyond the sample
//! (the files named in `tests/data/jstests_survey.txt`; issue #19's survey figure). It compares with no baseline: the CI test
//! (`cargo test -p shell --test jstests`) keeps the exact baseline of the chosen sample.

use std::process::Command;

use crate::{flag_value, root, run_cmd};

/// What `SPROUT_JSTESTS` asks the test for: the survey list or every file.
fn mode(args: &[String]) -> &'static str {
    if args.iter().any(|a| a == "--survey") {
        "survey"
    } else {
        "all"
    }
}

pub fn run(args: &[String]) -> Result<(), String> {
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.current_dir(root())
        .args([
            "test",
            "-p",
            "shell",
            "--test",
            "jstests",
            "--",
            "--nocapture",
            "jstests",
        ])
        .env("SPROUT_JSTESTS", mode(args));
    if let Some(only) = flag_value(args, "--only") {
        cmd.env("SPROUT_JSTESTS_ONLY", only);
    }
    if let Some(dir) = flag_value(args, "--dir") {
        cmd.env("SPROUT_JSTESTS_DIR", dir);
    }
    run_cmd(&mut cmd)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn survey_flag_picks_the_survey_list() {
        assert_eq!(mode(&["--survey".to_string()]), "survey");
        assert_eq!(mode(&["--only".to_string(), "index".to_string()]), "all");
    }
}

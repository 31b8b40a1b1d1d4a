//! `cargo xtask jstests [--only SUBSTRING] [--dir FOLDER]`: every file of MongoDB's
//! `jstests/core` and `jstests/aggregation` (the shared conformance folder) through the
//! `sprout` binary in the legacy shell's style, printing the pass rate per area and each
//! failing file's first failing line. It compares with no baseline: the CI test
//! (`cargo test -p shell --test jstests`) keeps the exact baseline of the chosen sample.

use std::process::Command;

use crate::{flag_value, root, run_cmd};

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
        .env("SPROUT_JSTESTS", "all");
    if let Some(only) = flag_value(args, "--only") {
        cmd.env("SPROUT_JSTESTS_ONLY", only);
    }
    if let Some(dir) = flag_value(args, "--dir") {
        cmd.env("SPROUT_JSTESTS_DIR", dir);
    }
    run_cmd(&mut cmd)
}

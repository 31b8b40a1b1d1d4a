//! The fuzz targets as a plain test (no libFuzzer), run by `cargo test` and so by
//! `cargo xtask test`: every committed seed (`fuzz/seeds/<target>/`, which holds the fuzzers'
//! past findings as regression inputs), a sample of the seeds generated from the conformance data
//! and the lessons, and inputs drawn from a fixed pseudo-random sequence for the targets that
//! read their bytes through a grammar.

use std::path::Path;

use sprout_fuzz::TARGETS;

/// Generated seeds replayed per target (every n-th one, so the sample spans the sources).
const GENERATED_SAMPLE: usize = 60;
/// The shell target starts a shell per input (about 100 ms in a debug build): fewer of those.
const GENERATED_SAMPLE_SHELL: usize = 25;
/// Pseudo-random inputs per grammar-driven target.
const RANDOM_INPUTS: usize = 150;

fn replay(target: &str) {
    let run = TARGETS
        .iter()
        .find(|(name, _)| *name == target)
        .map(|(_, run)| *run)
        .unwrap_or_else(|| panic!("no target {target}"));
    let committed = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("seeds")
        .join(target);
    let mut count = 0;
    if let Ok(entries) = std::fs::read_dir(&committed) {
        let mut paths: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        paths.sort();
        for path in paths {
            let bytes = std::fs::read(&path).unwrap();
            eprintln!("{target}: {}", path.display());
            run(&bytes);
            count += 1;
        }
    }
    let corpora = sprout_fuzz::seeds::collect();
    if let Some(seeds) = corpora.by_target.get(target) {
        let wanted = if target == "shell_program" {
            GENERATED_SAMPLE_SHELL
        } else {
            GENERATED_SAMPLE
        };
        let step = (seeds.len() / wanted).max(1);
        for seed in seeds.iter().step_by(step).take(wanted) {
            run(seed);
            count += 1;
        }
    }
    if matches!(target, "shell_program" | "index_scan" | "printer_roundtrip") {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let inputs = if target == "shell_program" {
            RANDOM_INPUTS / 5
        } else {
            RANDOM_INPUTS
        };
        for _ in 0..inputs {
            let mut bytes = vec![1u8];
            for _ in 0..256 {
                // xorshift64*
                state ^= state >> 12;
                state ^= state << 25;
                state ^= state >> 27;
                bytes.push((state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 56) as u8);
            }
            run(&bytes);
            count += 1;
        }
    }
    assert!(count > 0, "{target}: nothing replayed");
}

#[test]
fn filter() {
    replay("filter");
}

#[test]
fn update() {
    replay("update");
}

#[test]
fn projection() {
    replay("projection");
}

#[test]
fn pipeline() {
    replay("pipeline");
}

#[test]
fn extjson() {
    replay("extjson");
}

#[test]
fn preprocess() {
    replay("preprocess");
}

#[test]
fn shell_program() {
    replay("shell_program");
}

#[test]
fn index_scan() {
    replay("index_scan");
}

#[test]
fn printer_roundtrip() {
    replay("printer_roundtrip");
}

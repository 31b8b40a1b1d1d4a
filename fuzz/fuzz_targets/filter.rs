//! libFuzzer entry point for `sprout_fuzz::targets::filter`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| sprout_fuzz::targets::filter::run(data));

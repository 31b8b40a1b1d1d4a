//! libFuzzer entry point for `sprout_fuzz::targets::index_scan`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| sprout_fuzz::targets::index_scan::run(data));

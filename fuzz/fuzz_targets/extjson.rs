//! libFuzzer entry point for `sprout_fuzz::targets::extjson`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| sprout_fuzz::targets::extjson::run(data));

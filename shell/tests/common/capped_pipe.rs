//! Reading a child process's output pipe without letting a runaway print fill memory; shared by
//! the test harnesses that run `sprout` as a child (`hostile_table.rs`, `mongo_jstests/`).

use std::io::Read;

/// Reads a pipe to its end, keeping the first 64 KiB.
pub fn read_capped(pipe: &mut impl Read) -> String {
    let mut kept = Vec::new();
    let mut buf = [0u8; 8192];
    while let Ok(n) = pipe.read(&mut buf) {
        if n == 0 {
            break;
        }
        if kept.len() < 65_536 {
            kept.extend_from_slice(&buf[..n]);
        }
    }
    String::from_utf8_lossy(&kept).into_owned()
}

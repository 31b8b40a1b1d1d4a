//! Strings built by expressions (`$concat`, `$replaceOne`, `$replaceAll`) grow in MongoDB's
//! `StringBuilder`, whose buffer stops at 64 MB (`BufferMaxSize`): past it MongoDB fails with
//! error 13548 (`_BufBuilder::grow_reallocate`, src/mongo/bson/util/builder.h). The same cap
//! here keeps a `$reduce` that doubles a string from eating the page's memory.

use crate::error::{Error, Result};

/// MongoDB's `BufferMaxSize`: 64 MiB.
pub const MAX_BUILT_STRING_BYTES: usize = 64 * 1024 * 1024;

/// A string under construction, refused past [`MAX_BUILT_STRING_BYTES`].
#[derive(Debug, Default)]
pub struct StringBuilder {
    out: String,
}

impl StringBuilder {
    /// Appends `s`, or fails when the result would pass the cap (nothing is appended then).
    pub fn push(&mut self, s: &str) -> Result<()> {
        let needed = self.out.len() + s.len();
        if needed > MAX_BUILT_STRING_BYTES {
            return Err(Error::location(
                13548,
                format!(
                    "BufBuilder attempted to grow() to {needed} bytes, past the 64MB limit. \
                     (A string built by an expression may hold at most {MAX_BUILT_STRING_BYTES} \
                     bytes: build a shorter one, for example with $substrCP.)"
                ),
            ));
        }
        self.out.push_str(s);
        Ok(())
    }

    pub fn finish(self) -> String {
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stops_past_64_mib_and_keeps_what_fits() {
        let half = "x".repeat(MAX_BUILT_STRING_BYTES / 2);
        let mut b = StringBuilder::default();
        b.push(&half).unwrap();
        b.push(&half).unwrap();
        let e = b.push("y").unwrap_err();
        assert_eq!(e.code(), 13548);
        assert!(
            e.message.starts_with(
                "BufBuilder attempted to grow() to 67108865 bytes, past the 64MB limit."
            ),
            "{}",
            e.message
        );
        assert_eq!(b.finish().len(), MAX_BUILT_STRING_BYTES);
    }
}

//! `memcmp` and `bcmp` for the wasm build, eight bytes at a time.
//!
//! On wasm32 the C library's byte comparisons come from Rust's `compiler_builtins`, whose
//! `memcmp` compares one byte per loop turn (its symbols are weak, so these take their place).
//! Every ordered comparison of byte strings goes through it: index keys (`Vec<u8>`) in the
//! B-trees, names, strings. Inserting 20k documents through the Node binding spent 11% of its
//! time in `memcmp`, most of it comparing each new `_id_` key with the keys of the nodes on its
//! B-tree path, which share their first bytes (`docs/performance.md`, session 18). Here
//! eight-byte words are compared while they are equal, and the first differing byte decides.

/// `memcmp`'s answer for two byte strings of one length: below, at or above zero as `a` sorts
/// before, with or after `b` (bytes compared as unsigned).
#[inline(always)]
fn compare(a: &[u8], b: &[u8]) -> i32 {
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + 8 <= n {
        let x = u64::from_le_bytes(a[i..i + 8].try_into().unwrap_or([0; 8]));
        let y = u64::from_le_bytes(b[i..i + 8].try_into().unwrap_or([0; 8]));
        if x != y {
            // Little-endian: the lowest differing bits are the first differing byte.
            let shift = (x ^ y).trailing_zeros() / 8 * 8;
            return i32::from((x >> shift) as u8) - i32::from((y >> shift) as u8);
        }
        i += 8;
    }
    while i < n {
        if a[i] != b[i] {
            return i32::from(a[i]) - i32::from(b[i]);
        }
        i += 1;
    }
    0
}

/// # Safety
/// `a` and `b` point to at least `n` readable bytes each (C's `memcmp` contract).
#[cfg(target_arch = "wasm32")]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn memcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
    // SAFETY: the caller's contract: `n` readable bytes at each pointer.
    let (a, b) = unsafe {
        (
            std::slice::from_raw_parts(a, n),
            std::slice::from_raw_parts(b, n),
        )
    };
    compare(a, b)
}

/// # Safety
/// As [`memcmp`]; only zero or not zero is meaningful.
#[cfg(target_arch = "wasm32")]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
    // SAFETY: as for `memcmp`.
    unsafe { memcmp(a, b, n) }
}

#[cfg(test)]
mod tests {
    use super::compare;

    /// The byte loop `compiler_builtins` uses.
    fn bytewise(a: &[u8], b: &[u8]) -> i32 {
        for (x, y) in a.iter().zip(b) {
            if x != y {
                return i32::from(*x) - i32::from(*y);
            }
        }
        0
    }

    #[test]
    fn agrees_with_the_byte_loop() {
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for len in 0..40 {
            for _ in 0..200 {
                let a: Vec<u8> = (0..len).map(|_| (next() % 4) as u8 * 0x55).collect();
                let mut b = a.clone();
                if len > 0 && next() % 4 != 0 {
                    let at = (next() % len as u64) as usize;
                    b[at] = (next() % 256) as u8;
                }
                assert_eq!(compare(&a, &b), bytewise(&a, &b), "{a:?} {b:?}");
                assert_eq!(compare(&b, &a), bytewise(&b, &a), "{b:?} {a:?}");
            }
        }
        assert!(compare(&[0x80], &[0x7f]) > 0);
        assert!(
            compare(
                &[1, 2, 3, 4, 5, 6, 7, 8, 0xff],
                &[1, 2, 3, 4, 5, 6, 7, 8, 0]
            ) > 0
        );
    }
}

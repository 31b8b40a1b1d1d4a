//! Caps on strings, BigInts and objects that learner code builds one step at a time.
//!
//! `js/limits.js` caps the built-ins that make one huge value in a single call (`repeat`,
//! `fill`, `Map.prototype.set`, …); a loop can still grow a value within the loop-iteration
//! limit: `s = s + s` doubles a string until an allocation fails (which aborts the CLI and
//! kills the page's worker), `o['k' + i] = i` ten million times fills memory, and
//! `2n ** 100000000n` takes minutes to print. Sprout's copy of Boa (`vendor/boa_engine`,
//! `src/sprout_limits.rs`) checks these caps where the values grow and throws a `RangeError`
//! (V8's messages: `Invalid string length`, `Maximum BigInt size exceeded`).

use boa_engine::sprout_limits::{ValueLimits, set_value_limits};

/// Longest string concatenation may build: 2^25 UTF-16 units (64 MiB), the cap `js/limits.js`
/// puts on `repeat` and `padStart` (V8 allows 2^29 - 24, more than the page's memory holds).
pub const MAX_STRING_LENGTH: usize = 1 << 25;

/// Most bits of a BigInt made by `**`, `*` or `<<`: 2^20 (about 315,000 decimal digits; V8
/// allows 2^30 bits, but turning a BigInt into text is quadratic in Boa's arithmetic).
pub const MAX_BIGINT_BITS: u64 = 1 << 20;

/// Most named own properties of one object: 2^20, the cap on Map and Set entries in
/// `js/limits.js` (each new property costs Boa a shape transition: 4 million took 30 s).
pub const MAX_NAMED_PROPERTIES: usize = 1 << 20;

/// Applies the caps on this thread (the thread the shell's Boa context runs on).
pub(crate) fn install() {
    set_value_limits(ValueLimits {
        max_string_length: MAX_STRING_LENGTH,
        max_bigint_bits: MAX_BIGINT_BITS,
        max_named_properties: MAX_NAMED_PROPERTIES,
    });
}

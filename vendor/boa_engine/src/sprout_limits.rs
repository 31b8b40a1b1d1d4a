//! Sprout patch: caps on the values learner code can build, set per thread by the embedder.
//!
//! Boa has no heap limit, and a failed allocation aborts the process (in the page, the worker).
//! These caps turn the growth that a loop can reach within the loop-iteration limit into a
//! catchable `RangeError`, with V8's messages where V8 has the same limit:
//! - strings built by concatenation (`s + s`, template literals, `String.prototype.concat`):
//!   V8 stops at 2^29 - 24 UTF-16 units with `Invalid string length`;
//! - BigInt results (`**`, `*`, `<<`): V8 stops at 2^30 bits with `Maximum BigInt size
//!   exceeded`; converting a very large BigInt to text is quadratic here, so embedders set less;
//! - named own properties of one ordinary object: V8 has no fixed number (its dictionaries stop
//!   near 2^26 entries); a 1e7-key object fills memory within the loop limit.
//!
//! The defaults are Boa's own limits (no change for other embedders).

use std::cell::Cell;

use crate::{JsNativeError, JsResult, JsString, string::JsStr};

/// The caps one thread's contexts apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ValueLimits {
    /// Longest string concatenation may build, in UTF-16 units.
    pub max_string_length: usize,
    /// Most bits a BigInt produced by `**`, `*` or `<<` may have.
    pub max_bigint_bits: u64,
    /// Most named (string or symbol keyed) own properties of one ordinary object.
    pub max_named_properties: usize,
}

impl Default for ValueLimits {
    fn default() -> Self {
        Self {
            max_string_length: u32::MAX as usize,
            max_bigint_bits: 1_000_000_000,
            max_named_properties: usize::MAX,
        }
    }
}

thread_local! {
    static LIMITS: Cell<ValueLimits> = Cell::new(ValueLimits {
        max_string_length: u32::MAX as usize,
        max_bigint_bits: 1_000_000_000,
        max_named_properties: usize::MAX,
    });
}

/// Sets the caps for every context on this thread.
pub fn set_value_limits(limits: ValueLimits) {
    LIMITS.with(|l| l.set(limits));
}

/// The caps in force on this thread.
#[must_use]
pub fn value_limits() -> ValueLimits {
    LIMITS.with(Cell::get)
}

/// Concatenates `parts`, or fails with V8's `RangeError` when the result would pass the cap.
pub(crate) fn concat(parts: &[JsStr<'_>]) -> JsResult<JsString> {
    let length: usize = parts.iter().map(JsStr::len).sum();
    if length > value_limits().max_string_length {
        return Err(JsNativeError::range()
            .with_message("Invalid string length")
            .into());
    }
    Ok(JsString::concat_array(parts))
}

/// Fails when a BigInt result of about `bits` bits would pass the cap.
pub(crate) fn check_bigint_bits(bits: f64) -> JsResult<()> {
    if bits > value_limits().max_bigint_bits as f64 {
        return Err(JsNativeError::range()
            .with_message("Maximum BigInt size exceeded")
            .into());
    }
    Ok(())
}

/// Fails when an object holding `count` named properties may not get one more.
pub(crate) fn check_new_named_property(count: usize) -> JsResult<()> {
    let max = value_limits().max_named_properties;
    if count >= max {
        return Err(JsNativeError::range()
            .with_message(format!(
                "Maximum number of properties exceeded: an object may hold at most {max} named \
                 properties"
            ))
            .into());
    }
    Ok(())
}

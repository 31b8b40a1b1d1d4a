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

/// `x` then `y` (a rope when long, `boa_string`'s `JsString::concat_strings`), or fails with
/// V8's `RangeError` when the result would pass the cap.
pub(crate) fn concat_strings(x: &JsString, y: &JsString) -> JsResult<JsString> {
    if x.len().saturating_add(y.len()) > value_limits().max_string_length {
        return Err(JsNativeError::range()
            .with_message("Invalid string length")
            .into());
    }
    Ok(JsString::concat_strings(x, y))
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

// Sprout patch: one parser instead of three. Boa's parser is generic over its character
// reader, so each reader type a program parses with links a whole copy of it (about 225 KB of
// wasm code each): `UTF8Input<&[u8]>` (`Source::from_bytes`: scripts, `JSON.parse`),
// `UTF16Input` (`eval`, `Function`) and the embedder's stack-guarded reader. Every parse in
// the shell's build goes through [`source`] instead, one reader type: UTF-16 text is first
// written as WTF-8 ([`wtf8`]), which `UTF8Input` decodes to the same code points (a lone
// surrogate included), so positions and source text are unchanged.

thread_local! {
    /// Asked before each byte the parser reads: `true` refuses it (the embedder's stack guard).
    static PARSE_GUARD: Cell<Option<fn() -> bool>> = const { Cell::new(None) };
}

/// Sets (or clears) the check every [`source`] reader makes before handing the parser a byte:
/// when it returns `true` the read fails with an I/O error and the parse ends with an error.
pub fn set_parse_guard(guard: Option<fn() -> bool>) {
    PARSE_GUARD.with(|g| g.set(guard));
}

/// The bytes of a source for the parser, refused while the parse guard says so.
#[derive(Debug)]
pub struct GuardedBytes<'a> {
    bytes: &'a [u8],
}

impl std::io::Read for GuardedBytes<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if PARSE_GUARD.with(Cell::get).is_some_and(|refuse| refuse()) {
            return Err(std::io::Error::other("the code is nested too deeply"));
        }
        self.bytes.read(buf)
    }
}

/// The one source type every parse uses (UTF-8 or WTF-8 bytes).
pub type SproutSource<'a> = boa_parser::Source<'static, boa_parser::source::UTF8Input<GuardedBytes<'a>>>;

/// A source over UTF-8 (or WTF-8) bytes.
#[must_use]
pub fn source<T: AsRef<[u8]> + ?Sized>(bytes: &T) -> SproutSource<'_> {
    boa_parser::Source::from_reader(
        GuardedBytes {
            bytes: bytes.as_ref(),
        },
        None,
    )
}

/// UTF-16 text as WTF-8: UTF-8, with a lone surrogate written as its own three bytes, which
/// the UTF-8 reader decodes back to the surrogate as the UTF-16 reader would.
#[must_use]
pub fn wtf8(units: &[u16]) -> Vec<u8> {
    let mut out = Vec::with_capacity(units.len());
    for unit in char::decode_utf16(units.iter().copied()) {
        match unit {
            Ok(c) => {
                let mut buf = [0; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            }
            Err(e) => {
                let u = e.unpaired_surrogate();
                out.extend_from_slice(&[
                    0xE0 | (u >> 12) as u8,
                    0x80 | ((u >> 6) & 0x3F) as u8,
                    0x80 | (u & 0x3F) as u8,
                ]);
            }
        }
    }
    out
}

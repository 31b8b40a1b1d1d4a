//! A step limit for JavaScript regular expressions.
//!
//! Boa matches regular expressions with regress, a backtracking engine: `/(a+)+$/` against
//! `'a'.repeat(40) + 'b'` would backtrack about 2^40 times, freezing the CLI or the page (and
//! `$where` predicates run the same engine). Sprout's copy of regress (`vendor/regress`) counts
//! backtracking steps per search; past [`MAX_REGEX_STEPS`] the search gives up, and the shell's
//! `RegExp.prototype.exec` (`js/limits.js`, which `test`, `match`, `replace`, `split` and
//! `search` all go through) turns that into a `RangeError` naming the pattern.

use boa_engine::{Context, JsResult, JsValue};

/// Backtracking steps one search may take (a fraction of a second of matching).
pub const MAX_REGEX_STEPS: u64 = 10_000_000;

/// Applies the limit on this thread (the thread the shell's Boa context runs on).
pub(crate) fn install() {
    regress::set_backtrack_limit(Some(MAX_REGEX_STEPS));
}

/// Forgets a limit hit nobody reported (called before each input).
pub(crate) fn clear() {
    regress::take_backtrack_limit_hit();
}

/// `__sproutNative.regexLimitHit()`: whether the last search stopped at the limit.
pub(crate) fn limit_hit(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    Ok(JsValue::from(regress::take_backtrack_limit_hit()))
}

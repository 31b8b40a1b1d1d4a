//! The host side of the shell's Boa context: what the embedding decides for learner code.
//!
//! - `eval` and `Function` reach the parser with text built at run time; the
//!   `HostEnsureCanCompileStrings` hook runs [`crate::nesting::check`] on it first, so
//!   `eval('['.repeat(10000) + ']'.repeat(10000))` is a `RangeError`, not a stack overflow.
//! - `ArrayBuffer`s are capped at [`MAX_BUFFER_BYTES`] (Boa's default is 1.5 GiB).
//! - Modules never load: the context gets Boa's `IdleModuleLoader`, so `import('./x.mjs')`
//!   rejects instead of reading files (Boa's default loader reads the working directory).

use boa_engine::context::HostHooks;
use boa_engine::realm::Realm;
use boa_engine::{Context, JsResult, JsString};

use crate::nesting::{self, NestingLimits};

/// The largest `ArrayBuffer` (and typed array) learner code may allocate.
pub const MAX_BUFFER_BYTES: u64 = 64 << 20;

pub(crate) struct ShellHooks {
    pub(crate) limits: NestingLimits,
}

impl HostHooks for ShellHooks {
    fn ensure_can_compile_strings(
        &self,
        _realm: Realm,
        parameters: &[JsString],
        body: &JsString,
        _direct: bool,
        _context: &mut Context,
    ) -> JsResult<()> {
        let code = if parameters.is_empty() {
            body.to_std_string_lossy()
        } else {
            let params: Vec<String> = parameters
                .iter()
                .map(JsString::to_std_string_lossy)
                .collect();
            format!(
                "(function anonymous({}\n) {{\n{}\n}})",
                params.join(","),
                body.to_std_string_lossy()
            )
        };
        nesting::check(&code, self.limits).map_err(nesting::TooDeep::to_js_error)
    }

    fn max_buffer_size(&self, _context: &mut Context) -> u64 {
        MAX_BUFFER_BYTES
    }
}

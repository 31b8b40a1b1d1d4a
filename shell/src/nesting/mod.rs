//! Nesting limits for learner code, enforced on the real parse, not on a bracket count.
//!
//! Boa parses and compiles recursively, so deeply nested code (`!!!…!1`, `a=>a=>…`, `1+1+…`
//! with 50,000 terms, `if(1)if(1)…`, brackets inside a template literal) would overflow the
//! native stack, which aborts the CLI and kills the page's worker. Every piece of source the
//! shell runs goes through [`check`] first: the typed input ([`crate::Shell::eval`]), `load()`ed
//! scripts, `$where` code, and code built at run time by `eval` and `Function` (through the host
//! hook in `crate::host`). `check` refuses the code with a `RangeError` when
//! - its token-level nesting measure ([`lexical`]) passes the limit (chains Boa parses with
//!   loops but walks recursively afterwards, prefix-operator runs, deep brackets); or
//! - Boa's parser, run over a reader that watches the native stack ([`stack`]), reaches the
//!   stack floor of this evaluation; or
//! - the parsed tree ([`ast_depth`]) is deeper than the limit.
//!
//! Only then does Boa parse the code again to run it, at about the same stack position.

mod ast_depth;
mod lexical;
pub(crate) mod stack;

use boa_engine::interner::Interner;
use boa_engine::parser::Parser;
use boa_engine::{Context, JsError, JsNativeError, JsResult, JsValue};

/// The nesting limits of one shell, kept in the Boa context for the hooks that need them.
#[derive(Debug, Clone, Copy)]
pub(crate) struct NestingLimits {
    /// Deepest nesting of brackets, operators and statements in one piece of code.
    pub depth: usize,
    /// Native stack (bytes) parsing may use below the start of an evaluation.
    pub stack_bytes: usize,
}

/// Why code was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TooDeep {
    /// The nesting measure or the parsed tree passed the depth limit.
    Depth(usize),
    /// Parsing reached the stack floor (nesting the measure does not see, or code run at the
    /// end of a deep chain of `eval` calls).
    Stack,
}

impl TooDeep {
    pub(crate) fn message(self) -> String {
        match self {
            TooDeep::Depth(limit) => format!(
                "Maximum call stack size exceeded: the code is nested more than {limit} levels \
                 deep (brackets, operators or statements inside one another); split it into \
                 smaller expressions or functions"
            ),
            TooDeep::Stack => "Maximum call stack size exceeded: the code is nested too deeply \
                               to parse here; split it into smaller expressions or functions"
                .to_string(),
        }
    }

    pub(crate) fn to_js_error(self) -> JsError {
        JsNativeError::range().with_message(self.message()).into()
    }
}

/// The token-level nesting measure of `src` ([`lexical`]), scanning no further than the point
/// where it passes `limit`. Public for the fuzz target of the shell's input checks.
pub fn lexical_depth(src: &str, limit: usize) -> usize {
    lexical::depth(src, limit)
}

/// Checks that `code` can be parsed and compiled without exhausting the native stack. A syntax
/// error is not this check's business: Boa reports it when it parses the code to run it.
pub(crate) fn check(code: &str, limits: NestingLimits) -> Result<(), TooDeep> {
    if lexical::depth(code, limits.depth) > limits.depth {
        return Err(TooDeep::Depth(limits.depth));
    }
    let _scope = stack::StackScope::enter(limits.stack_bytes);
    stack::take_tripped();
    let _guard = stack::ParseGuard::set();
    let mut parser = Parser::new(boa_engine::sprout_limits::source(code.as_bytes()));
    let mut interner = Interner::default();
    match parser.parse_eval(false, &mut interner) {
        Ok((script, _)) => {
            if ast_depth::deeper_than(&script, limits.depth) {
                // Dropping the tree would recurse as deep as it is: leave it (it is at most as
                // large as the input) rather than risk the stack.
                std::mem::forget(script);
                return Err(TooDeep::Depth(limits.depth));
            }
            Ok(())
        }
        Err(_) if stack::take_tripped() => Err(TooDeep::Stack),
        Err(_) => Ok(()),
    }
}

fn limits_of(ctx: &Context) -> NestingLimits {
    ctx.get_data::<NestingLimits>()
        .copied()
        .unwrap_or(NestingLimits {
            depth: crate::DEFAULT_NESTING,
            stack_bytes: crate::DEFAULT_PARSE_STACK_BYTES,
        })
}

/// Runs `code` as a global script after [`check`] (with the limits stored in the context).
pub(crate) fn eval_checked(ctx: &mut Context, code: &str) -> JsResult<JsValue> {
    check(code, limits_of(ctx)).map_err(TooDeep::to_js_error)?;
    ctx.eval(boa_engine::sprout_limits::source(code.as_bytes()))
}

/// Whether `code` parses as a global script (so holds no top-level `return`), after [`check`].
pub(crate) fn parses_as_script(ctx: &mut Context, code: &str) -> bool {
    check(code, limits_of(ctx)).is_ok()
        && boa_engine::Script::parse(
            boa_engine::sprout_limits::source(code.as_bytes()),
            None,
            ctx,
        )
        .is_ok()
}

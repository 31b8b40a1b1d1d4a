//! The depth of a parsed script's syntax tree.
//!
//! Some nesting costs Boa's parser nothing but builds a deep tree all the same: `1+1+…+1`,
//! `a.b.c.…`, `f()()()…` and `(1,1,…)` are parsed by loops into left-leaning chains. Boa's
//! scope analysis, bytecode compiler and the tree's destructor then walk that tree recursively,
//! one native frame or more per level, and a chain of 50,000 terms overflows the stack. This
//! meter walks the tree with a depth counter and stops as soon as the limit is passed, so the
//! walk itself stays shallow.

use std::ops::ControlFlow;

use boa_engine::ast::visitor::{VisitWith, Visitor};
use boa_engine::ast::{Declaration, Expression, Script, Statement};

/// Whether `script`'s tree is more than `limit` expressions and statements deep.
pub(crate) fn deeper_than(script: &Script, limit: usize) -> bool {
    let mut meter = DepthMeter { depth: 0, limit };
    meter.visit_script(script).is_break()
}

struct DepthMeter {
    depth: usize,
    limit: usize,
}

impl DepthMeter {
    fn nested(&mut self, walk: impl FnOnce(&mut Self) -> ControlFlow<()>) -> ControlFlow<()> {
        self.depth += 1;
        if self.depth > self.limit {
            return ControlFlow::Break(());
        }
        let flow = walk(self);
        self.depth -= 1;
        flow
    }
}

impl<'ast> Visitor<'ast> for DepthMeter {
    type BreakTy = ();

    fn visit_expression(&mut self, node: &'ast Expression) -> ControlFlow<()> {
        self.nested(|m| node.visit_with(m))
    }

    fn visit_statement(&mut self, node: &'ast Statement) -> ControlFlow<()> {
        self.nested(|m| node.visit_with(m))
    }

    fn visit_declaration(&mut self, node: &'ast Declaration) -> ControlFlow<()> {
        self.nested(|m| node.visit_with(m))
    }
}

//! Sprout patch: the fewest code units any match of a pattern takes.
//!
//! A backtracking search tries every start position, and at each one a pattern such as
//! `(a?){40}a{40}` explores every way to split the input before failing. No match can start
//! where fewer code units remain than the pattern's minimum length, so the matcher skips those
//! positions at once (V8's irregexp makes the same check), and `/(a?){40}a{40}/` against eleven
//! characters answers `false` instead of backtracking to the step limit.
//!
//! Every count is in characters of the pattern; each character matches at least one code unit
//! of any input encoding (UTF-8, UTF-16, UCS-2, Latin-1), so the count is a safe lower bound.

use crate::ir::Node;

/// The fewest characters any match of `node` consumes.
pub(crate) fn min_length(node: &Node) -> usize {
    match node {
        Node::Empty
        | Node::Goal
        | Node::Anchor { .. }
        | Node::WordBoundary { .. }
        | Node::BackRef { .. }
        | Node::LookaroundAssertion { .. } => 0,
        Node::Char { .. }
        | Node::ByteSet(_)
        | Node::CharSet(_)
        | Node::MatchAny
        | Node::MatchAnyExceptLineTerminator
        | Node::Bracket(_) => 1,
        // UTF-8 bytes: count the bytes that start a character.
        Node::ByteSequence(bytes) => bytes.iter().filter(|b| (**b & 0xC0) != 0x80).count(),
        Node::StringSet { alternatives, .. } => {
            alternatives.iter().map(|a| a.len()).min().unwrap_or(0)
        }
        Node::Cat(nodes) => nodes
            .iter()
            .fold(0usize, |n, node| n.saturating_add(min_length(node))),
        Node::Alt(a, b) => min_length(a).min(min_length(b)),
        Node::CaptureGroup { contents, .. } => min_length(contents),
        Node::Loop { loopee, quant, .. } | Node::Loop1CharBody { loopee, quant } => {
            min_length(loopee).saturating_mul(quant.min)
        }
    }
}

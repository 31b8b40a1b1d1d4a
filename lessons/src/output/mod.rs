//! Structural comparison of shell output: [`parse_output`] reads printed text (mongosh's or the
//! legacy shell's) back into values, error lines and text lines; [`compare_output`] compares a
//! step's `expect` block with what it showed, part by part, and names the first difference.

mod compare;
mod parse;
mod value;

pub use compare::{OutputDifference, compare_output};
pub use parse::{OutputItem, parse_output, parse_value};
pub use value::{PrintedValue, key_text};

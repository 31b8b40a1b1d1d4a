//! Text indexes (MongoDB's `textIndexVersion` 3): the index specification with its weights and
//! languages ([`spec`]), the strings of a document a text index reads ([`elements`]), Unicode
//! tokenising with stop words and Snowball stemming ([`tokenizer`], [`language`], [`unicode`]),
//! the per-term scores that become index keys ([`score`], [`keys`]), and the `$search` string
//! parsed into terms and phrases ([`query`]) with the matcher that checks negations and phrases
//! on a fetched document ([`matcher`]).
//!
//! A text index key is `(prefix fields..., term, score, suffix fields...)`, one key per distinct
//! stemmed term of the document, stored under the key pattern `{_fts: "text", _ftsx: 1}`.

pub mod elements;
pub mod keys;
pub mod language;
pub mod matcher;
pub mod query;
pub mod score;
pub mod spec;
pub mod tokenizer;
pub mod unicode;

pub use language::Language;
pub use query::ParsedTextQuery;
pub use spec::TextSpec;

#[cfg(test)]
mod tests;

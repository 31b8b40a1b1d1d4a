//! The match language's special features a context refuses (MongoDB's
//! `MatchExpressionParser::AllowedFeatures`, expression_parser.cpp): checked on the query
//! before it is parsed, with MongoDB's messages.

use bson::{Bson, Document};

use crate::error::{Error, Result};

/// `kBanAllSpecialFeatures` (a `$pull` query, array filters): `$expr`, `$text` and `$where`,
/// at the top or under `$and`/`$or`/`$nor`.
pub fn ban_all(query: &Document) -> Result<()> {
    ban_features(query, true)
}

/// The features MongoDB's default match parsing (`kDefaultSpecialFeatures`: `$expr` and
/// `$jsonSchema` only) refuses: `$text` and `$where`, with MongoDB's parseText and parseWhere
/// messages (expression_parser.cpp). `$graphLookup`'s `restrictSearchWithMatch` is parsed so.
pub fn ban_text_and_where(query: &Document) -> Result<()> {
    ban_features(query, false)
}

fn ban_features(query: &Document, expr: bool) -> Result<()> {
    for (key, value) in query {
        match (key.as_str(), value) {
            ("$expr", _) if expr => {
                return Err(Error::new(
                    crate::error::ErrorCode::QueryFeatureNotAllowed,
                    "$expr is not allowed in this context",
                ));
            }
            // MongoDB's parseText and parseWhere (expression_parser.cpp) without the kText and
            // kJavascript features (jstests/core/update_arrayFilters.js).
            ("$text" | "$where", _) => {
                return Err(Error::bad_value(format!(
                    "{key} is not allowed in this context"
                )));
            }
            ("$and" | "$or" | "$nor", Bson::Array(clauses)) => {
                for clause in clauses {
                    if let Bson::Document(d) = clause {
                        ban_features(d, expr)?;
                    }
                }
            }
            _ => {}
        }
    }
    Ok(())
}

//! `FindAndModifyRequest`: a `findAndModify` command's fields, read once and checked together
//! (by `findAndModify` and by its explain).

use bson::{Bson, Document};

use super::{array_filters_option, hint_option, let_option};
use crate::commands::{bool_option, document_option};
use crate::error::{Error, ErrorCode, Result};
use crate::value::display::type_name;
use crate::write::check_known_fields;

const FIELDS: [&str; 12] = [
    "query",
    "sort",
    "remove",
    "update",
    "new",
    "fields",
    "upsert",
    "bypassDocumentValidation",
    "collation",
    "arrayFilters",
    "hint",
    "let",
];

/// `{findAndModify: <coll>, query, sort, remove, update, new, fields, upsert, arrayFilters,
/// hint, collation, let}`.
#[derive(Debug, Clone)]
pub struct FindAndModifyRequest<'c> {
    pub query: Option<&'c Document>,
    pub sort: Option<&'c Document>,
    pub fields: Option<&'c Document>,
    /// The update (a modifier document, a replacement or a pipeline); `None` for a remove.
    pub update: Option<&'c Bson>,
    pub remove: bool,
    pub return_new: bool,
    pub upsert: bool,
    pub array_filters: Vec<Document>,
    /// `None` when the command names no index.
    pub hint: Option<&'c Bson>,
    pub let_vars: Option<&'c Document>,
}

fn parse_error(message: &str) -> Error {
    Error::new(ErrorCode::FailedToParse, message)
}

impl<'c> FindAndModifyRequest<'c> {
    pub fn parse(command: &'c Document) -> Result<Self> {
        check_known_fields(command, "findAndModify", &FIELDS)?;
        crate::write::check_write_concern(command)?;
        let query = document_option(command, "findAndModify", "query")?;
        let let_vars = let_option(command, "findAndModify")?;
        let sort = document_option(command, "findAndModify", "sort")?;
        let fields = document_option(command, "findAndModify", "fields")?;
        let remove = bool_option(command, "remove", false)?;
        let return_new = bool_option(command, "new", false)?;
        let upsert = bool_option(command, "upsert", false)?;
        let update = command.get("update").filter(|u| !matches!(u, Bson::Null));
        let array_filters = array_filters_option(command, "findAndModify.arrayFilters")?;
        match (remove, update) {
            (true, Some(_)) => {
                return Err(parse_error("Cannot specify both an update and remove=true"));
            }
            (false, None) => {
                return Err(parse_error(
                    "Either an update or remove=true must be specified",
                ));
            }
            _ => {}
        }
        if remove && return_new {
            return Err(parse_error(
                "Cannot specify both new=true and remove=true; 'remove' always returns the deleted document",
            ));
        }
        if remove && upsert {
            return Err(parse_error(
                "Cannot specify both upsert=true and remove=true",
            ));
        }
        if remove && !array_filters.is_empty() {
            return Err(parse_error("Cannot specify arrayFilters and remove=true"));
        }
        if let Some(u) = update
            && !matches!(u, Bson::Document(_) | Bson::Array(_))
        {
            return Err(Error::type_mismatch(format!(
                "BSON field 'findAndModify.update' is the wrong type '{}', expected types '[object, array]'",
                type_name(u)
            )));
        }
        Ok(FindAndModifyRequest {
            query,
            sort,
            fields,
            update,
            remove,
            return_new,
            upsert,
            array_filters,
            hint: hint_option(command),
            let_vars,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    #[test]
    fn the_fields_are_checked_together() {
        let cmd = doc! {"findAndModify": "c", "query": {"a": 1}, "update": {"$inc": {"n": 1}}, "new": true};
        let r = FindAndModifyRequest::parse(&cmd).unwrap();
        assert!(r.return_new && !r.remove && r.update.is_some());
        let code = |cmd: Document| FindAndModifyRequest::parse(&cmd).unwrap_err().code();
        assert_eq!(code(doc! {"findAndModify": "c"}), 9);
        assert_eq!(
            code(doc! {"findAndModify": "c", "remove": true, "update": {}}),
            9
        );
        assert_eq!(
            code(doc! {"findAndModify": "c", "remove": true, "new": true}),
            9
        );
        assert_eq!(code(doc! {"findAndModify": "c", "update": 1}), 14);
        assert_eq!(code(doc! {"findAndModify": "c", "query": 1}), 14);
        assert_eq!(code(doc! {"findAndModify": "c", "bogus": 1}), 40415);
    }
}

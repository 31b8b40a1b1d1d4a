//! `FindRequest`: a `find` command's fields, read once (by `find` and by its explain).

use bson::{Bson, Document};

use crate::commands::{bool_option, count_option, document_option};
use crate::error::Result;
use crate::expression::EvalContext;
use crate::query::{CanonicalQuery, FindSpec};
use crate::value::as_i64_signed;

/// `{find: <coll>, filter, sort, projection, hint, skip, limit, let, min, max, batchSize,
/// singleBatch, …}`, with MongoDB's type errors (`BSON field 'find.sort' is the wrong type…`).
#[derive(Debug, Clone, Copy)]
pub struct FindRequest<'c> {
    pub filter: Option<&'c Document>,
    pub sort: Option<&'c Document>,
    pub projection: Option<&'c Document>,
    /// `None` when absent or null.
    pub hint: Option<&'c Bson>,
    pub skip: Option<i64>,
    /// The absolute value of the limit (a negative limit also means a single batch).
    pub limit: Option<i64>,
    pub let_vars: Option<&'c Document>,
    /// `min`/`max` key bounds; `None` when absent, null or empty.
    pub min: Option<&'c Document>,
    pub max: Option<&'c Document>,
    pub batch_size: Option<usize>,
    pub single_batch: bool,
    /// `allowDiskUse` (default true, as since MongoDB 6.0's `allowDiskUseByDefault`): whether a
    /// blocking sort past 100 MiB may go on (Sprout cannot spill, so it still stops; the message
    /// differs).
    pub allow_disk_use: bool,
    /// `showRecordId`: each result gets a `$recordId` field.
    pub show_record_id: bool,
    /// `returnKey`: results are the index keys (see [`FindSpec::return_key`]).
    pub return_key: bool,
}

impl<'c> FindRequest<'c> {
    /// Reads the fields; the filter, sort and projection are parsed by [`FindRequest::spec`].
    pub fn parse(command: &'c Document) -> Result<Self> {
        let bound = |name: &str| -> Result<Option<&'c Document>> {
            Ok(document_option(command, "find", name)?.filter(|d| !d.is_empty()))
        };
        let negative_limit =
            matches!(crate::path::field(command, "limit"), Some(l) if as_i64_signed(l) < 0);
        Ok(FindRequest {
            filter: document_option(command, "find", "filter")?,
            sort: document_option(command, "find", "sort")?,
            projection: document_option(command, "find", "projection")?,
            // An empty hint is no hint: MongoDB 8.0's find request defaults `hint` to an
            // empty object and plans without one when it is empty (query_request_helper).
            hint: crate::path::field(command, "hint").filter(|h| {
                !matches!(h, Bson::Null) && !matches!(h, Bson::Document(d) if d.is_empty())
            }),
            skip: count_option(command, "find", "skip")?,
            limit: limit_option(command)?,
            let_vars: document_option(command, "find", "let")?,
            min: bound("min")?,
            max: bound("max")?,
            // (On wasm32 a count beyond `usize` is as good as unbounded, not cut to its low bits.)
            batch_size: count_option(command, "find", "batchSize")?
                .map(|b| usize::try_from(b).unwrap_or(usize::MAX)),
            single_batch: bool_option(command, "singleBatch", false)? || negative_limit,
            allow_disk_use: bool_option(command, "allowDiskUse", true)?,
            show_record_id: bool_option(command, "showRecordId", false)?,
            return_key: bool_option(command, "returnKey", false)?,
        })
    }

    /// The filter, when the find asks for nothing but documents matching it (no sort,
    /// projection, skip, hint, `min`/`max`, `let`, `returnKey` or `showRecordId`; a limit and
    /// batch options are allowed): what [`crate::exec::express`] may answer without planning.
    pub fn express_filter(&self) -> Option<&'c Document> {
        let none = |d: Option<&Document>| d.is_none_or(Document::is_empty);
        let plain = none(self.sort)
            && none(self.projection)
            && none(self.let_vars)
            && self.hint.is_none()
            && self.skip.is_none_or(|s| s == 0)
            && self.min.is_none()
            && self.max.is_none()
            && !self.show_record_id
            && !self.return_key;
        self.filter.filter(|_| plain)
    }

    /// The find parsed in the command's evaluation context (`$$NOW`, the `let` values).
    pub fn spec(&self, eval: &EvalContext) -> Result<FindSpec> {
        let mut spec = FindSpec::parse_with_let_in(
            self.filter,
            self.sort,
            self.projection,
            self.skip,
            self.limit,
            self.let_vars,
            eval,
        )?;
        spec.min = self.min.cloned();
        spec.max = self.max.cloned();
        spec.allow_disk_use = self.allow_disk_use;
        spec.show_record_id = self.show_record_id;
        spec.return_key = self.return_key;
        Ok(spec)
    }

    /// The canonical query of the find `spec` parsed from this request.
    pub fn canonical<'q>(&self, spec: &'q FindSpec) -> CanonicalQuery<'q>
    where
        'c: 'q,
    {
        CanonicalQuery::new(spec)
            .with_projection(self.projection)
            .with_hint(self.hint)
            .with_filter_as_written(self.filter.filter(|f| !f.is_empty()))
    }
}

/// `limit`: any number, its absolute value used (a negative one also means a single batch).
fn limit_option(command: &Document) -> Result<Option<i64>> {
    match crate::path::field(command, "limit") {
        Some(l @ (Bson::Int32(_) | Bson::Int64(_) | Bson::Double(_))) => {
            Ok(Some(as_i64_signed(l).abs()))
        }
        _ => count_option(command, "find", "limit"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    #[test]
    fn reads_each_field_once_with_mongodb_messages() {
        let cmd = doc! {"find": "c", "filter": {"a": 1}, "limit": -3, "min": {}, "batchSize": 2};
        let r = FindRequest::parse(&cmd).unwrap();
        assert_eq!(r.limit, Some(3));
        assert!(r.single_batch && r.min.is_none());
        assert_eq!(r.batch_size, Some(2));
        let bad = doc! {"find": "c", "sort": 1};
        let e = FindRequest::parse(&bad).unwrap_err();
        assert_eq!(
            (e.code(), e.message.as_str()),
            (
                14,
                "BSON field 'find.sort' is the wrong type 'int', expected type 'object'"
            )
        );
        let e = FindRequest::parse(&doc! {"find": "c", "skip": -1}).unwrap_err();
        assert_eq!(e.code(), 51024);
    }
}

//! The `count` command.

use bson::{Bson, Document, doc};

use super::{count_option, document_option, target_namespace};
use crate::Engine;
use crate::error::{Error, Result};
use crate::exec::count::execute_count;
use crate::query::CanonicalQuery;
use crate::query::FindSpec;
use crate::value::display::type_name;
use crate::write::check_known_fields;

/// `{count: <coll>, query, limit, skip, hint, collation}` → `{n, ok}`.
pub fn count(
    engine: &mut Engine,
    db: &str,
    command: &Document,
    ctx: &crate::matcher::MatchContext<'_>,
) -> Result<Document> {
    let ns = target_namespace(db, command)?;
    let request = CountRequest::parse(command)?;
    let spec = request.spec()?;
    let (skip, limit) = (request.skip, request.limit);
    let query = CanonicalQuery::new(&spec).with_hint(request.hint);
    let coll = engine.catalog().collection(&ns);
    // Without skip or limit, a count over a lone collection scan is one loop over the stored
    // bytes (`exec::scanned_count`).
    let scanned = if skip == 0 && limit == 0 {
        crate::exec::scanned_count(coll, &query, ctx)?
    } else {
        None
    };
    let n = match scanned {
        Some(n) => n,
        None => execute_count(coll, &query, skip as u64, limit as u64, ctx, true)?.0,
    };
    let n = n as i64;
    let n = match i32::try_from(n) {
        Ok(small) => Bson::Int32(small),
        Err(_) => Bson::Int64(n),
    };
    Ok(doc! {"n": n, "ok": 1.0})
}

/// A `count` command's arguments, read once with MongoDB's messages: by `count` and by its
/// explain, so the two cannot drift.
#[derive(Debug, Clone, Copy)]
pub(super) struct CountRequest<'c> {
    pub query: Option<&'c Document>,
    pub skip: i64,
    /// 0: no limit (a negative limit counts its absolute value).
    pub limit: i64,
    /// `None` when absent or "none" (null, `""`, `{}`).
    pub hint: Option<&'c Bson>,
}

impl<'c> CountRequest<'c> {
    pub(super) fn parse(command: &'c Document) -> Result<Self> {
        check_known_fields(
            command,
            "count",
            &["query", "limit", "skip", "hint", "collation", "fields"],
        )?;
        let query = document_option(command, "count", "query")?;
        let skip = count_option(command, "count", "skip")?.unwrap_or(0);
        let limit = limit_option(command)?;
        if let Some(hint) = command.get("hint")
            && !matches!(hint, Bson::String(_) | Bson::Document(_))
        {
            return Err(Error::type_mismatch(format!(
                "BSON field 'count.hint' is the wrong type '{}', expected types '[string, object]'",
                type_name(hint)
            )));
        }
        Ok(CountRequest {
            query,
            skip,
            limit,
            hint: command.get("hint").filter(|h| !is_empty_hint(h)),
        })
    }

    /// The query, parsed.
    pub(super) fn spec(&self) -> Result<FindSpec> {
        FindSpec::parse(self.query, None, None, None, None)
    }
}

/// No hint: absent, null, `""` or `{}` (what drivers send for "none").
pub(super) fn is_empty_hint(h: &Bson) -> bool {
    match h {
        Bson::Null => true,
        Bson::String(s) => s.is_empty(),
        Bson::Document(d) => d.is_empty(),
        _ => false,
    }
}

/// `limit` may be negative (its absolute value is used); 0 means no limit.
fn limit_option(command: &Document) -> Result<i64> {
    match command.get("limit") {
        None | Some(Bson::Null) => Ok(0),
        Some(Bson::Int32(i)) => Ok(i64::from(*i).abs()),
        Some(Bson::Int64(i)) => Ok(i.checked_abs().unwrap_or(i64::MAX)),
        Some(Bson::Double(d)) if d.is_finite() => Ok((d.trunc().abs()).min(9.2e18) as i64),
        Some(other) => Err(Error::type_mismatch(format!(
            "BSON field 'count.limit' is the wrong type '{}', expected types '[long, int, decimal, double]'",
            type_name(other)
        ))),
    }
}

#[cfg(test)]
mod tests {
    use crate::Engine;
    use bson::doc;

    #[test]
    fn counts_with_query_skip_and_limit() {
        let mut e = Engine::new();
        let docs: Vec<_> = (0..10).map(|i| doc! {"_id": i, "k": i % 2}).collect();
        e.run_command("t", &doc! {"insert": "c", "documents": docs});
        let mut n = |cmd| e.run_command("t", &cmd);
        assert_eq!(n(doc! {"count": "c"}), doc! {"n": 10, "ok": 1.0});
        assert_eq!(
            n(doc! {"count": "c", "query": {"k": 1}}),
            doc! {"n": 5, "ok": 1.0}
        );
        assert_eq!(
            n(doc! {"count": "c", "query": {"k": 1}, "skip": 4}),
            doc! {"n": 1, "ok": 1.0}
        );
        assert_eq!(
            n(doc! {"count": "c", "limit": -3}),
            doc! {"n": 3, "ok": 1.0}
        );
        assert_eq!(n(doc! {"count": "c", "skip": 20}), doc! {"n": 0, "ok": 1.0});
        assert_eq!(n(doc! {"count": "missing"}), doc! {"n": 0, "ok": 1.0});
    }

    #[test]
    fn bad_arguments() {
        let mut e = Engine::new();
        let code = |e: &mut Engine, cmd| e.run_command("t", &cmd).get_i32("code").unwrap();
        assert_eq!(code(&mut e, doc! {"count": "c", "query": 1}), 14);
        assert_eq!(code(&mut e, doc! {"count": "c", "skip": -1}), 51024);
        assert_eq!(code(&mut e, doc! {"count": "c", "limit": "x"}), 14);
        assert_eq!(code(&mut e, doc! {"count": "c", "bogus": 1}), 40415);
        e.run_command("t", &doc! {"insert": "c", "documents": [{"a": 1}]});
        assert_eq!(
            code(
                &mut e,
                doc! {"count": "c", "query": {"$text": {"$search": "x"}}}
            ),
            27
        );
    }

    #[test]
    fn explain_reads_the_arguments_as_the_command_does() {
        let mut e = Engine::new();
        for cmd in [
            doc! {"count": "c", "limit": "x"},
            doc! {"count": "c", "bogus": 1},
            doc! {"count": "c", "hint": 5},
            doc! {"distinct": "c", "key": 5},
            doc! {"distinct": "c"},
            doc! {"distinct": "c", "key": "a", "query": 3},
        ] {
            let direct = e.run_command("t", &cmd);
            let explained = e.run_command("t", &doc! {"explain": cmd.clone()});
            assert!(direct.get_i32("code").is_ok(), "{cmd:?} must fail");
            assert_eq!(direct.get("code"), explained.get("code"), "{cmd:?}");
            assert_eq!(direct.get("errmsg"), explained.get("errmsg"), "{cmd:?}");
        }
    }
}

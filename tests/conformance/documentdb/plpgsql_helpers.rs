//! The PL/pgSQL helpers some transcripts define, replayed as the commands their bodies run:
//!
//! - `check_aggregation_stages_limit(n)` and `check_lookup_stages_limit(inline, other)`
//!   (`bson_aggregation_pipeline_tests`): an `aggregate` of `n` empty `$match` stages, or one
//!   `$lookup` (`from`/`localField`/`foreignField` and a `pipeline` of `inline` empty `$match`
//!   stages then `other` `$count` stages) on the absent collection `dummy`; answered `t` when
//!   the command runs. While the transcript raises DocumentDB's
//!   `documentdb.aggregation_stages_limit` setting (MongoDB's limit, 1000, is not a runtime
//!   setting), the calls are skipped.
//! - `assert_count_regex_options(n, '<filter>')` (`regex_options_runtime`): counts the
//!   documents of `db.regex_options` the filter matches and raises unless there are `n`; it
//!   answers an empty (void) row.

use bson::{Bson, Document, doc};

use super::transcript::{Arg, call_args};
use super::{Actual, Replay, Translated};
use crate::conformance::ejson::parse_lenient_doc;

impl Replay {
    /// `None` when the statement calls neither helper.
    pub(super) fn stage_limit_check(&mut self, text: &str) -> Option<Translated> {
        let pipeline = if let Some((args, _)) = call_args(text, "check_aggregation_stages_limit") {
            let [n] = integers(&args)?[..] else {
                return None;
            };
            repeat(doc! {"$match": {}}, n)
        } else if let Some((args, _)) = call_args(text, "check_lookup_stages_limit") {
            let [inline, other] = integers(&args)?[..] else {
                return None;
            };
            let mut inner = repeat(doc! {"$match": {}}, inline);
            inner.extend(repeat(doc! {"$count": "dummy"}, other));
            vec![Bson::Document(doc! {"$lookup": {
                "from": "dummy",
                "as": "dummy",
                "localField": "dummy",
                "foreignField": "dummy",
                "pipeline": inner,
            }})]
        } else {
            return None;
        };
        if self.stage_limit_raised {
            return Some(Translated::Skip(
                "DocumentDB's aggregation_stages_limit setting raised".into(),
            ));
        }
        let cmd = doc! {"aggregate": "dummy", "pipeline": pipeline, "cursor": {}};
        Some(match self.cursor("db", &cmd) {
            Ok(_) => Translated::Ran(
                Actual::Docs {
                    docs: vec![Bson::String("t".into())],
                    ordered: true,
                },
                false,
            ),
            Err(e) => Translated::Ran(Actual::Error(e), false),
        })
    }
}

impl Replay {
    /// `None` when the statement does not call `assert_count_regex_options`.
    pub(super) fn regex_count_check(&mut self, text: &str) -> Option<Translated> {
        let (args, _) = call_args(text, "assert_count_regex_options")?;
        let (Some(Arg::Other(n)), Some(Arg::Str(filter))) = (args.first(), args.get(1)) else {
            return None;
        };
        let expected: usize = n.trim().parse().ok()?;
        let Ok(filter) = parse_lenient_doc(filter) else {
            return Some(Translated::Skip(
                "input not parseable as Extended JSON".into(),
            ));
        };
        let cmd = doc! {"find": "regex_options", "filter": filter.clone()};
        Some(match self.cursor("db", &cmd) {
            Ok(docs) if docs.len() == expected => Translated::Ran(
                Actual::Docs {
                    docs: vec![Bson::Null],
                    ordered: true,
                },
                false,
            ),
            Ok(docs) => Translated::Ran(
                Actual::Error(format!(
                    "query {filter} returned {} rows instead of {expected}",
                    docs.len()
                )),
                false,
            ),
            Err(e) => Translated::Ran(Actual::Error(e), false),
        })
    }
}

fn integers(args: &[Arg]) -> Option<Vec<usize>> {
    args.iter()
        .map(|a| match a {
            Arg::Other(n) => n.trim().parse().ok(),
            _ => None,
        })
        .collect()
}

fn repeat(stage: Document, n: usize) -> Vec<Bson> {
    vec![Bson::Document(stage); n]
}

//! The filter (matcher) language: an Extended JSON filter is parsed, evaluated against the sample
//! documents, and run as `find`, `count`, `$match` and `delete`. Oracle: a find the planner may
//! answer from an index returns the same documents as a collection scan (`hint: {$natural: 1}`).

use bson::{Bson, doc};
use engine::matcher::{Filter, MatchContext};

use super::{command, id_set};
use crate::input::ext_json_document;
use crate::sample::{self, COLL};

pub fn run(data: &[u8]) {
    let Some(filter) = ext_json_document(data) else {
        return;
    };
    if let Ok(parsed) = Filter::parse(&filter) {
        let context = MatchContext::default();
        for d in sample::documents() {
            let _ = parsed.matches_with(&d, &context);
        }
    }
    let mut engine = sample::engine();
    let planned = command(&mut engine, doc! {"find": COLL, "filter": filter.clone()});
    let scanned = command(
        &mut engine,
        doc! {"find": COLL, "filter": filter.clone(), "hint": {"$natural": 1}},
    );
    if let (Some(planned), Some(scanned)) = (id_set(&planned), id_set(&scanned)) {
        assert_eq!(
            planned, scanned,
            "index plan and collection scan differ for {filter}"
        );
    }
    command(&mut engine, doc! {"count": COLL, "query": filter.clone()});
    command(
        &mut engine,
        doc! {"aggregate": COLL, "pipeline": [{"$match": filter.clone()}], "cursor": {}},
    );
    command(
        &mut engine,
        doc! {"delete": COLL, "deletes": [{"q": Bson::Document(filter), "limit": 0}]},
    );
}

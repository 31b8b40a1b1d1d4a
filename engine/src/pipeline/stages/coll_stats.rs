//! `$collStats`: one document about the collection the pipeline runs on (`ns`, `host`,
//! `localTime`, then what was asked: `storageStats` (the collStats sizes, computed from BSON),
//! `count`). It must be the first stage. `latencyStats` and `queryExecStats` need operation
//! counters and timings that Sprout does not keep, so they are refused with an error rather
//! than answered with made-up numbers.

use bson::{Bson, Document, doc};

use crate::catalog::Namespace;
use crate::error::{Error, ErrorCode, Result};
use crate::pipeline::{ParseContext, RunContext, Stage};
use crate::value::display::{key_value, type_name};

/// The host name `$collStats` reports for Sprout's single in-page server.
pub const HOST: &str = "sprout:27017";

#[derive(Debug)]
pub struct CollStats {
    spec: Document,
    storage_scale: Option<f64>,
    count: bool,
}

pub fn parse(arg: &Bson, cx: &ParseContext<'_>) -> Result<Box<dyn Stage>> {
    let Bson::Document(spec) = arg else {
        return Err(Error::location(
            5447000,
            format!(
                "$collStats must take a nested object but found: $collStats: {}",
                key_value(arg)
            ),
        ));
    };
    if cx.position != 0 {
        return Err(Error::location(
            40602,
            "$collStats is only valid as the first stage in a pipeline",
        ));
    }
    let mut stage = CollStats {
        spec: spec.clone(),
        storage_scale: None,
        count: false,
    };
    for (k, v) in spec {
        let Bson::Document(options) = v else {
            return Err(Error::type_mismatch(format!(
                "BSON field '$collStats.{k}' is the wrong type '{}', expected type 'object'",
                type_name(v)
            )));
        };
        match k.as_str() {
            "storageStats" => {
                stage.storage_scale = Some(crate::catalog::stats::scale_option(options)?)
            }
            "count" => stage.count = true,
            "latencyStats" | "queryExecStats" => {
                return Err(Error::new(
                    ErrorCode::NotImplemented,
                    format!(
                        "$collStats {k} is not available in Sprout: it keeps no operation counters or timings"
                    ),
                ));
            }
            other => {
                return Err(Error::location(
                    40415,
                    format!("BSON field '$collStats.{other}' is an unknown field."),
                ));
            }
        }
    }
    Ok(Box::new(stage))
}

impl Stage for CollStats {
    fn name(&self) -> &'static str {
        "$collStats"
    }

    fn runs_without_collection(&self) -> bool {
        false
    }

    fn apply(&self, _input: Vec<Document>, cx: &RunContext<'_>) -> Result<Vec<Document>> {
        let ns = Namespace::new(cx.db, cx.collection.unwrap_or_default());
        let coll = cx.catalog.collection(&ns);
        let missing = |what: &str| {
            Error::new(
                ErrorCode::NamespaceNotFound,
                format!(
                    "Unable to retrieve {what} in $collStats stage :: caused by :: Collection [{ns}] not found."
                ),
            )
        };
        let mut out = doc! {
            "ns": ns.to_string(),
            "host": HOST,
            "localTime": cx.eval.now()?,
        };
        if let Some(scale) = self.storage_scale {
            let coll = coll.ok_or_else(|| missing("storageStats"))?;
            out.insert(
                "storageStats",
                crate::catalog::stats::storage_stats(coll, scale),
            );
        }
        if self.count {
            let coll = coll.ok_or_else(|| missing("count"))?;
            out.insert("count", coll.len() as i64);
        }
        Ok(vec![out])
    }

    fn serialize(&self) -> Document {
        doc! {"$collStats": self.spec.clone()}
    }
}

#[cfg(test)]
mod tests {
    use crate::Engine;
    use crate::commands::first_batch;
    use bson::{Document, doc};

    fn agg(e: &mut Engine, coll: &str, stage: Document) -> Document {
        e.run_command(
            "t",
            &doc! {"aggregate": coll, "pipeline": [{"$collStats": stage}], "cursor": {}},
        )
    }

    #[test]
    fn count_and_storage_stats_agree_with_coll_stats() {
        let mut e = Engine::new();
        e.run_command(
            "t",
            &doc! {"create": "log", "capped": true, "size": 4096, "max": 10},
        );
        e.run_command(
            "t",
            &doc! {"insert": "log", "documents": [{"_id": 1, "x": "abc"}, {"_id": 2}]},
        );
        let r = agg(&mut e, "log", doc! {"count": {}, "storageStats": {}});
        let out = first_batch(&r).remove(0);
        let keys: Vec<&str> = out.keys().map(String::as_str).collect();
        assert_eq!(keys, ["ns", "host", "localTime", "storageStats", "count"]);
        assert_eq!(out.get_str("ns").unwrap(), "t.log");
        assert_eq!(out.get_i64("count").unwrap(), 2);
        let storage = out.get_document("storageStats").unwrap();
        let mut coll_stats = e.run_command("t", &doc! {"collStats": "log"});
        coll_stats.remove("ns");
        coll_stats.remove("ok");
        assert_eq!(storage, &coll_stats);
        assert_eq!(storage.get_i32("maxSize").unwrap(), 4096);
    }

    #[test]
    fn errors() {
        let mut e = Engine::new();
        e.run_command("t", &doc! {"insert": "c", "documents": [{"_id": 1}]});
        let code = |r: Document| r.get_i32("code").unwrap();
        assert_eq!(code(agg(&mut e, "c", doc! {"bogus": {}})), 40415);
        assert_eq!(code(agg(&mut e, "c", doc! {"latencyStats": {}})), 238);
        assert_eq!(code(agg(&mut e, "nope", doc! {"count": {}})), 26);
        let r = e.run_command(
            "t",
            &doc! {"aggregate": "c", "pipeline": [{"$match": {}}, {"$collStats": {}}], "cursor": {}},
        );
        assert_eq!(code(r), 40602);
    }
}

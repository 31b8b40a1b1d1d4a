//! The memory limit of blocking stages (`$sort`, `$group`, `$bucket`, `$bucketAuto`,
//! `$sortByCount`, `$setWindowFields`): MongoDB's 100 MB (`internalQueryMaxBlockingSortMemoryUsageBytes`,
//! `internalDocumentSourceGroupMaxMemoryBytes`, `internalDocumentSourceSetWindowFieldsMaxMemoryBytes`).
//!
//! MongoDB 8.0 lets such a stage spill to disk past the limit unless the command says
//! `allowDiskUse: false` (`allowDiskUseByDefault` is true). Sprout keeps every document in
//! memory and has nowhere to spill (the page's WebAssembly memory is capped at 1 GiB), so the
//! limit holds either way: with `allowDiskUse: false` the error is MongoDB's, word for word;
//! otherwise the same code with a message that says why Sprout cannot go further and what to
//! change. A stage's memory is measured as the BSON size of the documents it holds at once
//! (every input document for a sort, the groups for a `$group`), a lower figure than
//! MongoDB's in-memory estimate, so nothing MongoDB runs within its limit fails here.

use bson::Document;

use super::RunContext;
use crate::error::{Error, ErrorCode, Result};
use crate::value::bson_size::document_size;

/// The most bytes one blocking stage may hold (MongoDB's default, 100 MiB).
pub const BLOCKING_STAGE_MEMORY_BYTES: usize = 100 * 1024 * 1024;

/// The most bytes of documents one stage may produce. MongoDB streams documents from
/// stage to stage and has no such limit; Sprout hands each stage's whole output to the next,
/// so a stage that multiplies its input (`$unwind` of a long array in a large document,
/// `$lookup`, `$setWindowFields` pushing whole windows) could fill the page's 1 GiB before any
/// of MongoDB's limits applies. `$unwind` and `$lookup` count their documents in Sprout's
/// memory (`expression::memory::document_memory`: many small documents take ten times their
/// BSON size), `$setWindowFields` the BSON size of the values it pushes.
pub const MAX_STAGE_OUTPUT_BYTES: usize = 256 * 1024 * 1024;

/// The bytes a multiplying stage has produced so far, against [`MAX_STAGE_OUTPUT_BYTES`].
#[derive(Debug)]
pub struct OutputBudget {
    stage: &'static str,
    used: usize,
}

impl OutputBudget {
    pub fn new(stage: &'static str) -> Self {
        OutputBudget { stage, used: 0 }
    }

    /// Counts `bytes` more of output, failing past the limit.
    pub fn add(&mut self, bytes: usize) -> Result<()> {
        self.used = self.used.saturating_add(bytes);
        if self.used > MAX_STAGE_OUTPUT_BYTES {
            let stage = self.stage;
            return Err(Error::new(
                ErrorCode::ExceededMemoryLimit,
                format!(
                    "{stage} produced more than {MAX_STAGE_OUTPUT_BYTES} bytes of documents. \
                     MongoDB streams documents from stage to stage, but Sprout holds each \
                     stage's output in memory, and this is its limit: reduce the documents \
                     with $match, $project or $limit before {stage}"
                ),
            ));
        }
        Ok(())
    }
}

/// What the stage holds its documents for, which decides MongoDB's error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Held {
    /// A sort of the whole input (`$sort`, `$bucketAuto`, `$setWindowFields` with
    /// `sortBy` or `partitionBy`, which MongoDB runs behind a `$sort`).
    Sort,
    /// The groups of a `$group` (also `$bucket` and `$sortByCount`, which are `$group`s).
    Group,
    /// The one partition of a `$setWindowFields` without `sortBy` or `partitionBy`.
    WindowPartition,
}

/// The BSON bytes of `docs`, stopping once past the limit (the exact total is not needed then).
pub fn held_bytes<'d>(docs: impl IntoIterator<Item = &'d Document>) -> usize {
    let mut total = 0usize;
    for d in docs {
        total += document_size(d);
        if total > BLOCKING_STAGE_MEMORY_BYTES {
            break;
        }
    }
    total
}

/// Fails when a stage of `stage` name holds `bytes`, over the limit.
pub fn check(held: Held, stage: &str, bytes: usize, cx: &RunContext<'_>) -> Result<()> {
    if bytes <= BLOCKING_STAGE_MEMORY_BYTES {
        return Ok(());
    }
    Err(exceeded(held, stage, bytes, cx.allow_disk_use))
}

/// The error for a stage of `stage` name that needs `bytes`, over the limit.
pub fn exceeded(held: Held, stage: &str, bytes: usize, allow_disk_use: bool) -> Error {
    let limit = BLOCKING_STAGE_MEMORY_BYTES;
    let (code, mongodb) = match held {
        // sorter.cpp (classic) and the SBE hash aggregation's messages, MongoDB 8.0.
        Held::Sort => (
            ErrorCode::QueryExceededMemoryLimitNoDiskUseAllowed,
            format!(
                "Sort exceeded memory limit of {limit} bytes, but did not opt in to external \
                 sorting."
            ),
        ),
        Held::Group => (
            ErrorCode::QueryExceededMemoryLimitNoDiskUseAllowed,
            "Exceeded memory limit for $group, but didn't allow external spilling. Pass \
             allowDiskUse:true to opt in."
                .to_string(),
        ),
        // document_source_set_window_fields.cpp, error 5414201.
        Held::WindowPartition => (
            ErrorCode::Location(5414201),
            format!(
                "Exceeded memory limit in DocumentSourceSetWindowFields, used {bytes} bytes but \
                 max allowed is {limit}"
            ),
        ),
    };
    let message = if allow_disk_use {
        format!(
            "{stage} needs more than {limit} bytes of memory, and Sprout keeps all data in memory with no disk to spill to: allowDiskUse: true does \
             not lift this limit in Sprout. Reduce the documents that reach {stage} with a \
             $match, $project or $limit before it"
        )
    } else {
        mongodb
    };
    Error::new(code, message)
}

#[cfg(test)]
mod tests {
    use bson::{Document, doc};

    use super::BLOCKING_STAGE_MEMORY_BYTES;
    use crate::Engine;

    /// A collection just over the limit: 105 documents of a little over 1 MB each.
    fn big_engine() -> Engine {
        let mut e = Engine::new();
        let s = "x".repeat(1024 * 1024);
        let docs: Vec<Document> = (0..105)
            .map(|i| doc! {"_id": i, "s": &s, "k": i % 3})
            .collect();
        let r = e.run_command("t", &doc! {"insert": "c", "documents": docs});
        assert!(crate::reply_ok(&r), "{r:?}");
        e
    }

    fn code_and_message(
        e: &mut Engine,
        pipeline: Vec<Document>,
        disk: Option<bool>,
    ) -> (i32, String) {
        let mut cmd = doc! {"aggregate": "c", "pipeline": pipeline, "cursor": {}};
        if let Some(d) = disk {
            cmd.insert("allowDiskUse", d);
        }
        let r = e.run_command("t", &cmd);
        assert!(!crate::reply_ok(&r), "expected an error: {r:?}");
        (
            r.get_i32("code").unwrap_or_default(),
            r.get_str("errmsg").unwrap_or_default().to_string(),
        )
    }

    #[test]
    fn a_sort_over_the_limit_fails_with_mongodb_error_when_disk_use_is_refused() {
        let mut e = big_engine();
        // `$project` first, so the sort runs as a pipeline stage rather than in the find layer.
        let pipeline = vec![
            doc! {"$project": {"s": 1, "k": 1}},
            doc! {"$sort": {"k": 1}},
        ];
        let (code, message) = code_and_message(&mut e, pipeline.clone(), Some(false));
        assert_eq!(code, 292);
        assert_eq!(
            message,
            format!(
                "PlanExecutor error during aggregation :: caused by :: Sort exceeded memory \
                 limit of {BLOCKING_STAGE_MEMORY_BYTES} bytes, but did not opt in to external sorting."
            )
        );
        let (code, message) = code_and_message(&mut e, pipeline, None);
        assert_eq!(code, 292);
        assert!(
            message.contains("allowDiskUse: true does not lift this limit in Sprout"),
            "{message}"
        );
        // A leading $sort runs in the find layer: the aggregation still reports its own $sort.
        let (code, message) = code_and_message(&mut e, vec![doc! {"$sort": {"k": 1}}], Some(false));
        assert_eq!(code, 292);
        assert_eq!(
            message,
            format!(
                "PlanExecutor error during aggregation :: caused by :: Sort exceeded memory \
                 limit of {BLOCKING_STAGE_MEMORY_BYTES} bytes, but did not opt in to external \
                 sorting."
            )
        );
    }

    #[test]
    fn a_sort_under_the_limit_runs() {
        let mut e = big_engine();
        // 90 of the 105 documents: about 94 MB, under 100 MiB.
        let pipeline = vec![
            doc! {"$match": {"_id": {"$lt": 90}}},
            doc! {"$project": {"s": 1, "k": 1}},
            doc! {"$sort": {"k": 1}},
            doc! {"$count": "n"},
        ];
        let r = e.run_command(
            "t",
            &doc! {"aggregate": "c", "pipeline": pipeline, "cursor": {}, "allowDiskUse": false},
        );
        assert!(crate::reply_ok(&r), "{r:?}");
    }

    #[test]
    fn a_group_holding_too_much_fails() {
        let mut e = big_engine();
        let pipeline = vec![doc! {"$group": {"_id": "$k", "all": {"$push": "$s"}}}];
        let (code, message) = code_and_message(&mut e, pipeline, Some(false));
        assert_eq!(code, 292);
        assert!(message.ends_with("Exceeded memory limit for $group, but didn't allow external spilling. Pass allowDiskUse:true to opt in."), "{message}");
        let pipeline = vec![
            doc! {"$bucket": {"groupBy": "$k", "boundaries": [0, 5], "output": {"all": {"$push": "$s"}}}},
        ];
        assert_eq!(code_and_message(&mut e, pipeline, None).0, 292);
    }

    #[test]
    fn a_window_over_one_partition_fails_with_5414201() {
        let mut e = big_engine();
        let pipeline = vec![doc! {"$setWindowFields": {"output": {"n": {"$count": {}}}}}];
        let (code, message) = code_and_message(&mut e, pipeline, Some(false));
        assert_eq!(code, 5414201);
        assert!(
            message.contains("Exceeded memory limit in DocumentSourceSetWindowFields, used "),
            "{message}"
        );
    }
}

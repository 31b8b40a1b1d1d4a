//! One file per pipeline stage, and the registry the pipeline parser looks names up in.

mod add_fields;
mod bucket;
mod bucket_auto;
mod coll_stats;
mod count;
mod densify;
mod documents;
mod facet;
mod fill;
mod geo_near;
mod granularity;
mod graph_lookup;
mod group;
mod index_stats;
mod inhibit_optimization;
pub(crate) mod limit;
mod list_local_sessions;
mod lookup;
pub(crate) mod match_stage;
mod merge;
mod out;
mod plan_cache_stats;
mod project;
mod redact;
mod replace_root;
mod sample;
mod set_window_fields;
pub(crate) mod skip;
pub(crate) mod sort;
mod sort_by_count;
mod split_pipeline;
mod union_with;
mod unset;
mod unwind;
mod window_function;

#[cfg(test)]
mod grouping_tests;

use bson::Bson;

use super::ParseStage;

pub use lookup::check_path as check_field_path;
pub use lookup::{JoinedLimit, MAX_JOINED_BYTES, mentions_text as filter_has_text};
pub use merge::{MergeSpec, WhenMatched, WhenNotMatched};
pub use out::OutSpec;

/// Every stage by name. Add a stage here with one line.
pub const REGISTRY: &[(&str, ParseStage)] = &[
    ("$documents", documents::parse),
    ("$match", match_stage::parse),
    ("$geoNear", geo_near::parse),
    ("$project", project::parse),
    ("$addFields", add_fields::parse_add_fields),
    ("$set", add_fields::parse_set),
    ("$unset", unset::parse),
    ("$replaceRoot", replace_root::parse_replace_root),
    ("$replaceWith", replace_root::parse_replace_with),
    ("$sort", sort::parse),
    ("$limit", limit::parse),
    ("$skip", skip::parse),
    ("$unwind", unwind::parse),
    ("$count", count::parse),
    ("$lookup", lookup::parse),
    ("$unionWith", union_with::parse),
    ("$facet", facet::parse),
    ("$sample", sample::parse),
    ("$group", group::parse),
    ("$bucket", bucket::parse),
    ("$bucketAuto", bucket_auto::parse),
    ("$sortByCount", sort_by_count::parse),
    ("$setWindowFields", set_window_fields::parse),
    ("$fill", fill::parse),
    ("$densify", densify::parse),
    ("$_internalInhibitOptimization", inhibit_optimization::parse),
    ("$_internalSplitPipeline", split_pipeline::parse),
    ("$out", out::parse),
    ("$merge", merge::parse),
    ("$redact", redact::parse),
    ("$graphLookup", graph_lookup::parse),
    ("$indexStats", index_stats::parse),
    ("$listLocalSessions", list_local_sessions::parse),
    ("$collStats", coll_stats::parse),
    ("$planCacheStats", plan_cache_stats::parse),
];

/// MongoDB's `parseIntegerElementToNonNegativeLong` for `$limit`/`$skip`: an integral number
/// (of any numeric type) that fits a long and is not negative. The error is the message
/// `invalid argument to $<stage> stage: <reason>`.
pub(crate) fn non_negative_integer(stage: &str, arg: &Bson) -> Result<i64, String> {
    use crate::value::display::key_value;
    let shown = format!("{stage}: {}", key_value(arg));
    let fail = |reason: &str| {
        Err(format!(
            "invalid argument to {stage} stage: {reason}{shown}"
        ))
    };
    let n = match arg {
        Bson::Int32(i) => i64::from(*i),
        Bson::Int64(i) => *i,
        Bson::Double(d) => {
            if d.is_nan() {
                return fail("Expected an integer, but found NaN in: ");
            }
            // 2^63 is the first double past i64::MAX.
            if *d >= 9_223_372_036_854_775_808.0 || *d < -9_223_372_036_854_775_808.0 {
                return fail("Cannot represent as a 64-bit integer: ");
            }
            if d.fract() != 0.0 {
                return fail("Expected an integer: ");
            }
            *d as i64
        }
        Bson::Decimal128(d) => {
            let dec = crate::value::Decimal::from_bson(d);
            if dec.is_nan() {
                return fail("Expected an integer, but found NaN in: ");
            }
            let f = dec.to_f64();
            let Some(i) = dec.to_i64_truncated() else {
                return fail("Cannot represent as a 64-bit integer: ");
            };
            if f.fract() != 0.0 {
                return fail("Expected an integer: ");
            }
            i
        }
        _ => return fail("Expected a number in: "),
    };
    if n < 0 {
        return fail("Expected a non-negative number in: ");
    }
    Ok(n)
}

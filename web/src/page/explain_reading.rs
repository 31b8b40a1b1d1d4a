//! A plan read out in plain words, one paragraph in English or Chinese, for the explain view:
//! how the query reached the data (collection scan or which index, within which bounds), what
//! it examined against what it returned, whether it sorted in memory, and why the planner chose
//! this plan over the others. Pure logic over [`ExplainPlan`].

use crate::page::explain::ExplainPlan;
use crate::page::i18n::Lang;

/// The paragraph for `plan` in `lang`.
pub fn plain_reading(plan: &ExplainPlan, lang: Lang) -> String {
    let facts = Facts::of(plan);
    match lang {
        Lang::En => english(&facts),
        Lang::Zh => chinese(&facts),
    }
}

/// How the plan reached the data.
enum Access {
    CollectionScan,
    Index { names: String, bounds: Vec<String> },
    NoData,
}

/// What the plan examined against what it returned, and what that says.
struct Work {
    keys: i64,
    docs: i64,
    returned: i64,
    verdict: Option<Verdict>,
}

enum Verdict {
    Covered,
    /// Documents examined per result, when that is more than two.
    Wasteful(i64),
    FoundNothing,
}

/// What the paragraph says, read once from the plan; each language words it.
struct Facts {
    access: Access,
    /// `None` without execution statistics.
    work: Option<Work>,
    sorted_in_memory: bool,
    rejected: usize,
}

impl Facts {
    fn of(plan: &ExplainPlan) -> Self {
        let w = &plan.winning;
        let indexes = w.indexes();
        let access = if w.has_stage("COLLSCAN") {
            Access::CollectionScan
        } else if !indexes.is_empty() {
            Access::Index {
                names: indexes.join(", "),
                bounds: w.all_bounds(),
            }
        } else {
            Access::NoData
        };
        let work = match (plan.n_returned, plan.docs_examined) {
            (Some(returned), Some(docs)) => Some(Work {
                keys: plan.keys_examined.unwrap_or(0),
                docs,
                returned,
                verdict: if docs == 0 && returned > 0 {
                    Some(Verdict::Covered)
                } else if returned > 0 && docs > returned.saturating_mul(2) {
                    Some(Verdict::Wasteful(docs / returned))
                } else if returned == 0 && docs > 0 {
                    Some(Verdict::FoundNothing)
                } else {
                    None
                },
            }),
            _ => None,
        };
        Facts {
            access,
            work,
            sorted_in_memory: w.has_stage("SORT"),
            rejected: plan.rejected.len(),
        }
    }
}

fn english(facts: &Facts) -> String {
    let mut parts = Vec::new();
    parts.push(match &facts.access {
        Access::CollectionScan => "MongoDB scanned the whole collection (COLLSCAN): it read every \
                                   document and kept those that match."
            .to_string(),
        Access::Index { names, bounds } => {
            let within = if bounds.is_empty() {
                String::new()
            } else {
                format!(", within the bounds {}", bounds.join("; "))
            };
            format!(
                "MongoDB used the index {names}{within} (IXSCAN), so it only looked at matching \
                 index keys."
            )
        }
        Access::NoData => "The plan reads no data.".to_string(),
    });
    match &facts.work {
        Some(Work {
            keys,
            docs,
            returned,
            verdict,
        }) => {
            let mut line = if *keys > 0 {
                format!(
                    "It examined {keys} index key(s) and {docs} document(s) to return {returned}"
                )
            } else {
                format!("It examined {docs} document(s) to return {returned}")
            };
            match verdict {
                Some(Verdict::Covered) => {
                    line.push_str(": a covered query, answered from the index alone")
                }
                Some(Verdict::Wasteful(per_result)) => line.push_str(&format!(
                    ": {per_result} document(s) examined per result, an index on the filtered \
                     fields would examine fewer"
                )),
                Some(Verdict::FoundNothing) => line.push_str(": all that reading found nothing"),
                None => {}
            }
            line.push('.');
            parts.push(line);
        }
        None => parts.push(
            "Run explain(\"executionStats\") to see how much it examined and returned.".to_string(),
        ),
    }
    if facts.sorted_in_memory {
        parts.push(
            "It sorted the results in memory (SORT stage): no index gave the order asked for; an \
             index on the sort fields would avoid that."
                .to_string(),
        );
    }
    if facts.rejected > 0 {
        parts.push(format!(
            "The planner tried {} other plan(s) and kept this one, which produced results with \
             the least work in its trial.",
            facts.rejected
        ));
    }
    parts.join(" ")
}

fn chinese(facts: &Facts) -> String {
    let mut parts = Vec::new();
    parts.push(match &facts.access {
        Access::CollectionScan => {
            "MongoDB 扫描了整个集合（COLLSCAN）：逐个读取每个文档，保留匹配的文档。".to_string()
        }
        Access::Index { names, bounds } => {
            let within = if bounds.is_empty() {
                String::new()
            } else {
                format!("，范围为 {}", bounds.join("；"))
            };
            format!("MongoDB 使用了索引 {names}{within}（IXSCAN），只查看匹配的索引键。")
        }
        Access::NoData => "这个计划不需要读取数据。".to_string(),
    });
    match &facts.work {
        Some(Work {
            keys,
            docs,
            returned,
            verdict,
        }) => {
            let mut line = if *keys > 0 {
                format!("它检查了 {keys} 个索引键和 {docs} 个文档，返回 {returned} 个")
            } else {
                format!("它检查了 {docs} 个文档，返回 {returned} 个")
            };
            match verdict {
                Some(Verdict::Covered) => line.push_str("：这是覆盖查询，只用索引就得到了结果"),
                Some(Verdict::Wasteful(per_result)) => line.push_str(&format!(
                    "：每个结果检查了 {per_result} 个文档，在过滤字段上建索引可以少检查很多"
                )),
                Some(Verdict::FoundNothing) => line.push_str("：读了这么多却什么也没找到"),
                None => {}
            }
            line.push('。');
            parts.push(line);
        }
        None => {
            parts.push("运行 explain(\"executionStats\") 可以看到检查和返回的数量。".to_string())
        }
    }
    if facts.sorted_in_memory {
        parts.push(
            "它在内存中排序了结果（SORT 阶段）：没有索引提供所需的顺序；在排序字段上建索引可以避免。"
                .to_string(),
        );
    }
    if facts.rejected > 0 {
        parts.push(format!(
            "查询规划器还尝试了 {} 个其他计划，选中了这个在试运行中用最少工作得出结果的计划。",
            facts.rejected
        ));
    }
    parts.concat()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn plan(reply: serde_json::Value) -> ExplainPlan {
        let reply = bson::Bson::try_from(reply).unwrap();
        ExplainPlan::read(reply.as_document().unwrap()).unwrap()
    }

    #[test]
    fn a_collection_scan_reads_as_one_with_its_cost() {
        let p = plan(json!({
            "queryPlanner": {"namespace": "test.p", "winningPlan": {"stage": "COLLSCAN"}, "rejectedPlans": []},
            "executionStats": {"nReturned": 2, "totalKeysExamined": 0, "totalDocsExamined": 10,
                "executionTimeMillis": 0,
                "executionStages": {"stage": "COLLSCAN", "nReturned": 2, "docsExamined": 10, "works": 11}}
        }));
        let en = plain_reading(&p, Lang::En);
        assert!(
            en.starts_with("MongoDB scanned the whole collection"),
            "{en}"
        );
        assert!(
            en.contains("examined 10 document(s) to return 2: 5 document(s) examined per result"),
            "{en}"
        );
        let zh = plain_reading(&p, Lang::Zh);
        assert!(
            zh.contains("扫描了整个集合") && zh.contains("检查了 10 个文档"),
            "{zh}"
        );
        assert_eq!(p.winning.works, Some(11));
        assert_eq!(p.winning.total(|s| s.docs_examined), Some(10));
        assert_eq!(p.winning.total(|s| s.keys_examined), None);
        assert_eq!(p.time_ms, Some(0));
    }

    #[test]
    fn an_index_scan_names_its_bounds_and_an_in_memory_sort_is_called_out() {
        let p = plan(json!({
            "queryPlanner": {"winningPlan": {"stage": "SORT", "inputStage": {"stage": "FETCH", "inputStage": {
                "stage": "IXSCAN", "indexName": "price_1", "keyPattern": {"price": 1},
                "indexBounds": {"price": ["(5, inf.0]"]}}}},
                "rejectedPlans": [{"stage": "COLLSCAN"}]},
        }));
        assert_eq!(p.winning.all_bounds(), ["price: (5, inf.0]"]);
        assert_eq!(p.winning.stage_names(), ["SORT", "FETCH", "IXSCAN"]);
        assert_eq!(p.winning.warning(), Some("in-memory sort"));
        let en = plain_reading(&p, Lang::En);
        assert!(
            en.contains("index price_1, within the bounds price: (5, inf.0]"),
            "{en}"
        );
        assert!(en.contains("sorted the results in memory"), "{en}");
        assert!(en.contains("tried 1 other plan(s)"), "{en}");
        assert!(plain_reading(&p, Lang::Zh).contains("内存中排序"));
    }

    #[test]
    fn covered_empty_and_unmeasured_plans_read_alike_in_both_languages() {
        let stats = |returned: i64, keys: i64, docs: i64| {
            plan(json!({
                "queryPlanner": {"winningPlan": {"stage": "PROJECTION_COVERED", "inputStage": {
                    "stage": "IXSCAN", "indexName": "a_1", "keyPattern": {"a": 1}}},
                    "rejectedPlans": []},
                "executionStats": {"nReturned": returned, "totalKeysExamined": keys,
                    "totalDocsExamined": docs, "executionTimeMillis": 0,
                    "executionStages": {"stage": "PROJECTION_COVERED", "nReturned": returned}}
            }))
        };
        let covered = stats(3, 3, 0);
        assert!(plain_reading(&covered, Lang::En).contains("a covered query"));
        assert!(plain_reading(&covered, Lang::Zh).contains("覆盖查询"));
        let nothing = stats(0, 4, 4);
        assert!(plain_reading(&nothing, Lang::En).contains("found nothing"));
        assert!(plain_reading(&nothing, Lang::Zh).contains("什么也没找到"));
        let unmeasured = plan(json!({
            "queryPlanner": {"winningPlan": {"stage": "EOF"}, "rejectedPlans": []}
        }));
        let en = plain_reading(&unmeasured, Lang::En);
        assert!(en.starts_with("The plan reads no data."), "{en}");
        assert!(en.contains("Run explain(\"executionStats\")"), "{en}");
        assert!(plain_reading(&unmeasured, Lang::Zh).starts_with("这个计划不需要读取数据。"));
    }
}

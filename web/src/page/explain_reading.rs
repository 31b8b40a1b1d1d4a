//! A plan read out in plain words, one paragraph in English or Chinese, for the explain view:
//! how the query reached the data (collection scan or which index, within which bounds), what
//! it examined against what it returned, whether it sorted in memory, and why the planner chose
//! this plan over the others. Pure logic over [`ExplainPlan`].

use crate::page::explain::ExplainPlan;
use crate::page::i18n::Lang;

/// The paragraph for `plan` in `lang`.
pub fn plain_reading(plan: &ExplainPlan, lang: Lang) -> String {
    match lang {
        Lang::En => english(plan),
        Lang::Zh => chinese(plan),
    }
}

fn english(plan: &ExplainPlan) -> String {
    let w = &plan.winning;
    let mut parts = Vec::new();
    let indexes = w.indexes();
    let bounds = w.all_bounds();
    if w.has_stage("COLLSCAN") {
        parts.push(
            "MongoDB scanned the whole collection (COLLSCAN): it read every document and kept \
             those that match."
                .to_string(),
        );
    } else if !indexes.is_empty() {
        let within = if bounds.is_empty() {
            String::new()
        } else {
            format!(", within the bounds {}", bounds.join("; "))
        };
        parts.push(format!(
            "MongoDB used the index {}{within} (IXSCAN), so it only looked at matching index keys.",
            indexes.join(", ")
        ));
    } else {
        parts.push("The plan reads no data.".to_string());
    }
    if let (Some(returned), Some(docs)) = (plan.n_returned, plan.docs_examined) {
        let keys = plan.keys_examined.unwrap_or(0);
        let mut line = if keys > 0 {
            format!("It examined {keys} index key(s) and {docs} document(s) to return {returned}")
        } else {
            format!("It examined {docs} document(s) to return {returned}")
        };
        if docs == 0 && returned > 0 {
            line.push_str(": a covered query, answered from the index alone");
        } else if returned > 0 && docs > returned.saturating_mul(2) {
            line.push_str(&format!(
                ": {} document(s) examined per result, an index on the filtered fields would \
                 examine fewer",
                docs / returned
            ));
        } else if returned == 0 && docs > 0 {
            line.push_str(": all that reading found nothing");
        }
        line.push('.');
        parts.push(line);
    } else {
        parts.push(
            "Run explain(\"executionStats\") to see how much it examined and returned.".to_string(),
        );
    }
    if w.has_stage("SORT") {
        parts.push(
            "It sorted the results in memory (SORT stage): no index gave the order asked for; an \
             index on the sort fields would avoid that."
                .to_string(),
        );
    }
    match plan.rejected.len() {
        0 => {}
        n => parts.push(format!(
            "The planner tried {n} other plan(s) and kept this one, which produced results with \
             the least work in its trial."
        )),
    }
    parts.join(" ")
}

fn chinese(plan: &ExplainPlan) -> String {
    let w = &plan.winning;
    let mut parts = Vec::new();
    let indexes = w.indexes();
    let bounds = w.all_bounds();
    if w.has_stage("COLLSCAN") {
        parts.push(
            "MongoDB 扫描了整个集合（COLLSCAN）：逐个读取每个文档，保留匹配的文档。".to_string(),
        );
    } else if !indexes.is_empty() {
        let within = if bounds.is_empty() {
            String::new()
        } else {
            format!("，范围为 {}", bounds.join("；"))
        };
        parts.push(format!(
            "MongoDB 使用了索引 {}{within}（IXSCAN），只查看匹配的索引键。",
            indexes.join(", ")
        ));
    } else {
        parts.push("这个计划不需要读取数据。".to_string());
    }
    if let (Some(returned), Some(docs)) = (plan.n_returned, plan.docs_examined) {
        let keys = plan.keys_examined.unwrap_or(0);
        let mut line = if keys > 0 {
            format!("它检查了 {keys} 个索引键和 {docs} 个文档，返回 {returned} 个")
        } else {
            format!("它检查了 {docs} 个文档，返回 {returned} 个")
        };
        if docs == 0 && returned > 0 {
            line.push_str("：这是覆盖查询，只用索引就得到了结果");
        } else if returned > 0 && docs > returned.saturating_mul(2) {
            line.push_str(&format!(
                "：每个结果检查了 {} 个文档，在过滤字段上建索引可以少检查很多",
                docs / returned
            ));
        } else if returned == 0 && docs > 0 {
            line.push_str("：读了这么多却什么也没找到");
        }
        line.push('。');
        parts.push(line);
    } else {
        parts.push("运行 explain(\"executionStats\") 可以看到检查和返回的数量。".to_string());
    }
    if w.has_stage("SORT") {
        parts.push(
            "它在内存中排序了结果（SORT 阶段）：没有索引提供所需的顺序；在排序字段上建索引可以避免。"
                .to_string(),
        );
    }
    if !plan.rejected.is_empty() {
        parts.push(format!(
            "查询规划器还尝试了 {} 个其他计划，选中了这个在试运行中用最少工作得出结果的计划。",
            plan.rejected.len()
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
}

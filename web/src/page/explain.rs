//! The explain view's reading of a plan: the typed plan tree (`lessons::ExplainPlan`, read once
//! in the shell worker from the engine's explain reply and sent to the page as a value) and its
//! one-line summary in the page's language. Pure logic, no DOM.

pub use lessons::{ExplainPlan, PlanStage};

use crate::page::i18n::Lang;

/// What the query cost, in one line in `lang` ("examined 3 index keys and 3 documents to
/// return 3: index price_1").
pub fn summary_in(plan: &ExplainPlan, lang: Lang) -> String {
    match lang {
        Lang::En => plan.summary(),
        Lang::Zh => plan.summary_zh(),
    }
}

#[cfg(test)]
mod tests {
    use bson::doc;

    use super::*;

    #[test]
    fn the_summary_follows_the_page_language() {
        let plan = ExplainPlan::read(&doc! {
            "queryPlanner": {"winningPlan": {"stage": "COLLSCAN"}},
            "executionStats": {"nReturned": 3, "totalKeysExamined": 0, "totalDocsExamined": 10,
                "executionStages": {"stage": "COLLSCAN", "nReturned": 3, "docsExamined": 10}}
        })
        .unwrap();
        assert_eq!(
            summary_in(&plan, Lang::En),
            "examined 10 documents to return 3: collection scan"
        );
        assert_eq!(
            summary_in(&plan, Lang::Zh),
            "检查了 10 个文档，返回 3 个：集合扫描"
        );
    }
}

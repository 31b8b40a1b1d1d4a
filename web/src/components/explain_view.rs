//! The explain view: the winning plan as a tree of stage boxes (stage, index and key pattern,
//! keys and documents examined, documents returned), the rejected plans below it (collapsed),
//! and a one-line summary of the cost (see [`crate::explain`]).

use leptos::prelude::*;
use serde_json::Value;

use crate::AppState;
use crate::explain::{ExplainPlan, PlanStage};
use crate::i18n::{Lang, tr};

#[component]
pub fn ExplainView(reply: Value) -> impl IntoView {
    let Some(plan) = ExplainPlan::read(&reply) else {
        return view! { <pre class="result">"(not an explain reply)"</pre> }.into_any();
    };
    let app = expect_context::<AppState>();
    let summary = plan.clone();
    let winning = plan.winning.clone();
    let rejected = (!plan.rejected.is_empty()).then(|| {
        let n = plan.rejected.len();
        view! {
            <details class="rejected-plans" data-testid="rejected-plans">
                <summary>{move || match app.lang.get() {
                    Lang::En => format!("{n} rejected plan{}", if n == 1 { "" } else { "s" }),
                    lang => format!("{n} {}", tr(lang, "rejected plan(s)")),
                }}</summary>
                {plan
                    .rejected
                    .iter()
                    .map(|p| {
                        let p = p.clone();
                        view! { <div class="plan rejected">{move || stage_tree(&p, app.lang.get())}</div> }
                    })
                    .collect_view()}
            </details>
        }
    });
    view! {
        <div class="explain" data-testid="explain">
            <div class="plan-summary" data-testid="plan-summary">{move || summary.summary_in(app.lang.get())}</div>
            {plan.namespace.clone().map(|ns| view! { <div class="plan-ns">{ns}</div> })}
            <div class="plan winning" data-testid="winning-plan">{move || stage_tree(&winning, app.lang.get())}</div>
            {(!plan.later_stages.is_empty()).then(|| {
                view! {
                    <div class="later-stages" data-testid="later-stages">
                        {move || tr(app.lang.get(), "then in the pipeline: ")}{plan.later_stages.join(" → ")}
                    </div>
                }
            })}
            {rejected}
        </div>
    }
    .into_any()
}

fn stage_tree(stage: &PlanStage, lang: Lang) -> AnyView {
    let counters = [
        ("keys examined", stage.keys_examined),
        ("docs examined", stage.docs_examined),
        ("returned", stage.n_returned),
    ]
    .into_iter()
    .filter_map(|(label, n)| {
        n.map(|n| view! { <span class="counter"><b>{n}</b>" "{tr(lang, label)}</span> })
    })
    .collect_view();
    let index = stage.index_name.clone().map(|name| {
        view! {
            <div class="stage-index">
                <span class="index-name">{name}</span>
                " "
                <span class="key-pattern">{stage.key_pattern.clone().unwrap_or_default()}</span>
            </div>
        }
    });
    let inputs = (!stage.inputs.is_empty()).then(|| {
        view! { <div class="stage-inputs">{stage.inputs.iter().map(|s| stage_tree(s, lang)).collect_view()}</div> }
    });
    view! {
        <div class="stage-node">
            <div class="stage-box" data-stage=stage.stage.clone()>
                <div class="stage-name">{stage.stage.clone()}</div>
                {index}
                <div class="stage-counters">{counters}</div>
            </div>
            {inputs}
        </div>
    }
    .into_any()
}

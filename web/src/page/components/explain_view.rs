//! The explain view: a one-line summary of the cost and a plain reading of the plan (see
//! [`crate::page::explain_reading`]), the winning plan as a tree of stage boxes (stage, index, key
//! pattern and bounds, keys and documents examined, documents returned, works, time; a
//! collection scan or in-memory sort in a warning colour), and the winning plan compared with
//! each rejected plan side by side (see [`crate::page::explain`]).

use leptos::prelude::*;

use crate::page::AppState;
use crate::page::explain::{ExplainPlan, PlanStage, summary_in};
use crate::page::explain_reading::plain_reading;
use crate::page::i18n::{Lang, tr};

#[component]
pub fn ExplainView(plan: ExplainPlan) -> impl IntoView {
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
    let reading = plan.clone();
    let compared = (!plan.rejected.is_empty()).then(|| {
        let plan = plan.clone();
        view! { {move || compare_table(&plan, app.lang.get())} }
    });
    let time = plan.time_ms;
    view! {
        <div class="explain" data-testid="explain" tabindex="0">
            <div class="plan-summary" data-testid="plan-summary">{move || summary_in(&summary, app.lang.get())}</div>
            <p class="plan-reading" data-testid="plan-reading">{move || plain_reading(&reading, app.lang.get())}</p>
            <div class="plan-ns">
                {plan.namespace.clone()}
                {time.map(|ms| view! { " · executionTimeMillis: "<b>{ms}</b> })}
            </div>
            <div class="plan winning" data-testid="winning-plan">{move || stage_tree(&winning, app.lang.get())}</div>
            {(!plan.later_stages.is_empty()).then(|| {
                view! {
                    <div class="later-stages" data-testid="later-stages">
                        {move || tr(app.lang.get(), "then in the pipeline: ")}{plan.later_stages.join(" → ")}
                    </div>
                }
            })}
            {compared}
            {rejected}
        </div>
    }
    .into_any()
}

/// The winning plan beside each rejected one: stages, indexes, bounds (and the counters, when
/// the reply has them for the plan).
fn compare_table(plan: &ExplainPlan, lang: Lang) -> impl IntoView + use<> {
    let plans: Vec<&PlanStage> = std::iter::once(&plan.winning)
        .chain(plan.rejected.iter())
        .collect();
    let heads = plans
        .iter()
        .enumerate()
        .map(|(i, _)| {
            let name = if i == 0 {
                tr(lang, "winning plan").to_string()
            } else {
                format!("{} {i}", tr(lang, "rejected plan"))
            };
            view! { <th scope="col" class:winning={i == 0}>{name}</th> }
        })
        .collect_view();
    let none = || "—".to_string();
    // The rejected plans' counters come only with `explain('allPlansExecution')`.
    let trial_hint = plan
        .rejected
        .iter()
        .any(|p| p.works.is_none() && p.total(|s| s.docs_examined).is_none())
        .then(|| {
            format!(
                " ({})",
                tr(
                    lang,
                    "explain('allPlansExecution') adds the rejected plans' counters"
                )
            )
        });
    let row = |label: &'static str, cell: &dyn Fn(&PlanStage) -> String| {
        let cells = plans
            .iter()
            .map(|p| view! { <td>{cell(p)}</td> })
            .collect_view();
        view! { <tr><th scope="row">{tr(lang, label)}</th>{cells}</tr> }
    };
    let rows = view! {
        {row("stages", &|p| p.stage_names().join(" → "))}
        {row("index", &|p| {
            let i = p.indexes();
            if i.is_empty() { none() } else { i.join(", ") }
        })}
        {row("bounds", &|p| {
            let b = p.all_bounds();
            if b.is_empty() { none() } else { b.join("; ") }
        })}
        {row("keys examined", &|p| p.total(|s| s.keys_examined).map_or_else(none, |n| n.to_string()))}
        {row("docs examined", &|p| p.total(|s| s.docs_examined).map_or_else(none, |n| n.to_string()))}
        {row("works", &|p| p.works.map_or_else(none, |n| n.to_string()))}
    };
    view! {
        <div class="plan-compare-wrap" tabindex="0">
            <table class="plan-compare" data-testid="plan-compare">
                <caption>
                    {tr(lang, "The winning plan beside the rejected ones")}
                    {trial_hint}
                </caption>
                <thead><tr><td></td>{heads}</tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}

fn stage_tree(stage: &PlanStage, lang: Lang) -> AnyView {
    let counters = [
        ("keys examined", stage.keys_examined),
        ("docs examined", stage.docs_examined),
        ("returned", stage.n_returned),
        ("works", stage.works),
        ("ms", stage.time_ms),
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
    let bounds = (!stage.bounds.is_empty()).then(|| {
        view! { <div class="stage-bounds">{stage.bounds.join("; ")}</div> }
    });
    let warning = stage
        .warning()
        .map(|w| view! { <div class="stage-warning">{format!("⚠ {}", tr(lang, w))}</div> });
    let inputs = (!stage.inputs.is_empty()).then(|| {
        view! { <div class="stage-inputs">{stage.inputs.iter().map(|s| stage_tree(s, lang)).collect_view()}</div> }
    });
    view! {
        <div class="stage-node">
            <div class="stage-box" class:warn=stage.warning().is_some() data-stage=stage.stage.clone()>
                <div class="stage-name">{stage.stage.clone()}</div>
                {warning}
                {index}
                {bounds}
                <div class="stage-counters">{counters}</div>
            </div>
            {inputs}
        </div>
    }
    .into_any()
}

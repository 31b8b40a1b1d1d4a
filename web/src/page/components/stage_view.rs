//! The stage-by-stage view of an aggregation: a row of its stages, each with the number of
//! documents it returned, and the first documents at the selected stage, so a learner sees how
//! the documents change from stage to stage (the worker computes it with
//! `Engine::preview_pipeline`).

use leptos::prelude::*;

use crate::page::AppState;
use crate::page::i18n::tr;
use crate::protocol::StageView;
use crate::protocol::doc_text::compact;

#[component]
pub fn StageByStage(stages: Vec<StageView>) -> impl IntoView {
    let app = expect_context::<AppState>();
    let selected = RwSignal::new(0usize);
    let count = stages.len();
    let buttons = stages
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let stage = s.stage.clone();
            let n = s.count;
            view! {
                {(i > 0).then(|| view! { <span class="stage-arrow" aria-hidden="true">"→"</span> })}
                <button
                    class="stage-step"
                    data-testid="stage-step"
                    data-count=n.to_string()
                    class:active=move || selected.get() == i
                    aria-pressed=move || (selected.get() == i).to_string()
                    on:click=move |_| selected.set(i)
                >
                    <span class="stage-step-name">{format!("{}. {stage}", i + 1)}</span>
                    <span class="stage-step-count">
                        {move || format!("{n} {}", tr(app.lang.get(), "docs"))}
                    </span>
                </button>
            }
        })
        .collect_view();
    let sample = move || {
        let i = selected.get().min(count.saturating_sub(1));
        let stage = stages.get(i)?;
        let lang = app.lang.get();
        let heading = format!(
            "{} {} ({} {}):",
            tr(lang, "After"),
            stage.stage,
            stage.count,
            tr(lang, "docs")
        );
        let shown = stage.sample.len();
        let rest = stage.count.saturating_sub(shown);
        Some(view! {
            <div class="stage-sample" data-testid="stage-sample">
                <p class="muted small">{heading}</p>
                <ul class="doc-list">
                    {stage.sample.iter().map(|d| view! { <li><code>{compact(d)}</code></li> }).collect_view()}
                    {(rest > 0).then(|| view! { <li class="muted">{format!("… +{rest}")}</li> })}
                </ul>
            </div>
        })
    };
    view! {
        <div class="stage-view" data-testid="stage-view">
            <div class="stage-row" role="group" aria-label=move || tr(app.lang.get(), "Stages")>{buttons}</div>
            {sample}
        </div>
    }
}

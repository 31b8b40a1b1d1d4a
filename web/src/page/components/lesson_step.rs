//! One step of a lesson: title, prose, the command, "Run this step" (the command goes into the
//! editor and runs in the console), and after a run whether the output is what the lesson expects
//! (✓, or the expected text to compare), with the plan facts of an explain step.

use leptos::prelude::*;

use super::lesson_prose::LessonProse;
use crate::page::AppState;
use crate::page::i18n::{Lang, tr};
use crate::page::lessons::library::localized;
use crate::page::lessons::session::{LessonState, StepRun, run_step};

#[component]
pub fn LessonStep(step: usize) -> impl IntoView {
    let app = expect_context::<AppState>();
    let ls = expect_context::<LessonState>();
    let content = move || {
        let lesson = ls.current()?;
        let s = lesson.steps.get(step)?.clone();
        let lang = app.lang.get();
        let title = localized(lang, &s.title, s.title_zh.as_deref()).to_string();
        let prose = localized(lang, &s.prose, s.prose_zh.as_deref()).to_string();
        Some(view! {
            <h3 data-testid="step-title">{format!("{}. {title}", step + 1)}</h3>
            <LessonProse text=prose/>
            <pre class="command" data-testid="step-command">{s.command.clone()}</pre>
        })
    };
    let run = move |_: leptos::ev::MouseEvent| leptos::task::spawn_local(run_step(app, ls, step));
    let verdict = move || {
        let lesson = ls.current()?;
        let expected = lesson.steps.get(step)?.expect.clone();
        let run = ls.runs.get().get(&step).cloned()?;
        Some(verdict_view(app.lang.get(), &run, expected))
    };
    view! {
        <div class="lesson-page step">
            {content}
            <div class="actions">
                <button
                    class="primary"
                    data-testid="run-step"
                    disabled=move || app.busy.get() || !app.ready.get() || ls.working.get()
                    on:click=run
                >
                    {move || format!("▶ {}", tr(app.lang.get(), "Run this step"))}
                </button>
            </div>
            {verdict}
        </div>
    }
}

fn verdict_view(lang: Lang, run: &StepRun, expected: Option<String>) -> AnyView {
    let v = &run.verdict;
    let headline = if v.matched() {
        let what = if v.text_matches.is_none() && !v.facts.is_empty() {
            "The plan is what the lesson describes"
        } else {
            "Matches the expected output"
        };
        view! {
            <p class="verdict ok" data-testid="step-verdict">
                {format!("✓ {}", tr(lang, what))}
            </p>
        }
        .into_any()
    } else if v.text_matches == Some(false) && expected.is_some() {
        view! {
            <div class="verdict bad" data-testid="step-verdict">
                <p>{format!("✗ {}", tr(lang, "Differs from the expected output:"))}</p>
                <p class="difference" data-testid="step-difference">{v.difference.clone().unwrap_or_default()}</p>
                <pre class="expected">{expected.unwrap_or_default()}</pre>
            </div>
        }
        .into_any()
    } else {
        // A plan that differs (the table below says where), or an error (the console shows it).
        view! {
            <p class="verdict bad" data-testid="step-verdict">
                {format!("✗ {}", tr(lang, "Not what the lesson expects"))}
            </p>
        }
        .into_any()
    };
    let facts = (!v.facts.is_empty()).then(|| {
        let rows = v
            .facts
            .iter()
            .map(|f| {
                let ok = f.ok();
                view! {
                    <tr class:bad=!ok>
                        <th>{f.key.clone()}</th>
                        <td>{f.expected.clone()}</td>
                        <td>{f.actual.clone().unwrap_or_else(|| "—".into())}</td>
                        <td class="mark">{if ok { "✓" } else { "✗" }}</td>
                    </tr>
                }
            })
            .collect_view();
        view! {
            <table class="facts" data-testid="plan-facts">
                <caption>{tr(lang, "What to look at in the plan")}</caption>
                <thead>
                    <tr><th></th><th>{tr(lang, "expected")}</th><th>{tr(lang, "got")}</th><th></th></tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        }
    });
    view! { {headline} {facts} }.into_any()
}

//! An exercise: prose, hints one at a time, an answer editor, "Check" (the worker runs the answer
//! in a fresh copy of the lesson's data and the engine judges it), "Show solution", and "Reset
//! data" (the lesson's dataset reloaded into the console's engine).

use leptos::prelude::*;

use super::lesson_prose::LessonProse;
use super::lesson_view::DataNote;
use crate::page::AppState;
use crate::page::i18n::tr;
use crate::page::lessons::library::localized;
use crate::page::lessons::session::{LessonState, check_answer, reset_data};

#[component]
pub fn LessonExercise(exercise: usize) -> impl IntoView {
    let app = expect_context::<AppState>();
    let ls = expect_context::<LessonState>();
    let Some(ex) = ls
        .current()
        .and_then(|l| l.exercises.get(exercise).cloned())
    else {
        return ().into_any();
    };
    let answer = RwSignal::new(String::new());
    let hints_shown = RwSignal::new(0usize);
    let hints = ex.hints.clone();
    let hint_count = hints.len();
    let solution = ex.solution.clone();
    let heading = {
        let ex = ex.clone();
        move || {
            let lang = app.lang.get();
            format!(
                "{}: {}",
                tr(lang, "Exercise"),
                localized(lang, &ex.title, ex.title_zh.as_deref())
            )
        }
    };
    let prose = {
        let ex = ex.clone();
        move || {
            let text = localized(app.lang.get(), &ex.prose, ex.prose_zh.as_deref()).to_string();
            view! { <LessonProse text=text/> }
        }
    };
    let shown_hints = move || {
        let lang = app.lang.get();
        hints
            .iter()
            .take(hints_shown.get())
            .enumerate()
            .map(|(i, h)| {
                view! {
                    <div class="hint" data-testid="hint">
                        <strong>{format!("{} {}", tr(lang, "Hint"), i + 1)}</strong>
                        <LessonProse text=localized(lang, &h.en, h.zh.as_deref()).to_string()/>
                    </div>
                }
            })
            .collect_view()
    };
    let solved = move || {
        ls.current().is_some_and(|l| {
            ls.progress
                .get()
                .lesson(&l.id)
                .exercises_solved
                .contains(&exercise)
        })
    };
    let submit = move || {
        let text = answer.get_untracked();
        if !text.trim().is_empty() {
            leptos::task::spawn_local(check_answer(ls, exercise, text));
        }
    };
    let result = move || {
        let lang = app.lang.get();
        let c = ls.checks.get().get(&exercise).cloned()?;
        let label = if c.passed {
            format!("✓ {}", tr(lang, "Passed"))
        } else {
            format!("✗ {}", tr(lang, "Not yet"))
        };
        let comparison = c
            .comparison
            .clone()
            .map(|cmp| view! { <ComparisonView cmp=cmp/> });
        Some(view! {
            <div class="verdict" class:ok=c.passed class:bad=!c.passed data-testid="check-result"
                role="status">
                <strong>{label}</strong>
                " "
                <span>{c.message}</span>
            </div>
            {comparison}
        })
    };
    // A new verdict is scrolled to the top of the lesson pane: above the Previous / Next footer,
    // with the comparison below it.
    Effect::new(move |_| {
        if ls.checks.with(|c| c.contains_key(&exercise)) {
            leptos::task::spawn_local(async {
                if let Some(el) = web_sys::window().and_then(|w| w.document()).and_then(|d| {
                    d.query_selector("[data-testid=check-result]")
                        .ok()
                        .flatten()
                }) {
                    el.scroll_into_view_with_bool(true);
                }
            });
        }
    });
    view! {
        <div class="lesson-page exercise">
            <h3 data-testid="exercise-title">
                {heading}
                <Show when=solved>
                    <span class="badge" data-testid="solved">
                        {move || format!("✓ {}", tr(app.lang.get(), "Solved"))}
                    </span>
                </Show>
            </h3>
            {prose}
            {shown_hints}
            <Show when=move || { hints_shown.get() < hint_count }>
                <button class="link" data-testid="show-hint" on:click=move |_| hints_shown.update(|n| *n += 1)>
                    {move || format!("{} ({}/{hint_count})", tr(app.lang.get(), "Show a hint"), hints_shown.get() + 1)}
                </button>
            </Show>
            <label class="answer-label" for="exercise-answer">{move || tr(app.lang.get(), "Your answer")}</label>
            <textarea
                id="exercise-answer"
                class="answer"
                data-testid="answer"
                spellcheck="false"
                rows="3"
                prop:value=move || answer.get()
                on:input=move |ev| answer.set(event_target_value(&ev))
                on:keydown=move |ev: web_sys::KeyboardEvent| {
                    if ev.key() == "Enter" && (ev.ctrl_key() || ev.meta_key()) {
                        ev.prevent_default();
                        submit();
                    }
                }
            ></textarea>
            <p class="muted small">{move || tr(app.lang.get(), "Your answer runs in a fresh copy of the lesson's data.")}</p>
            <div class="actions">
                <button class="primary" data-testid="check" disabled=move || ls.working.get() on:click=move |_| submit()>
                    {move || if ls.working.get() { tr(app.lang.get(), "Checking…") } else { tr(app.lang.get(), "Check") }}
                </button>
                <button data-testid="show-solution" on:click=move |_| answer.set(solution.clone())>
                    {move || tr(app.lang.get(), "Show solution")}
                </button>
                <button
                    data-testid="reset"
                    disabled=move || ls.working.get() || app.busy.get()
                    on:click=move |_| leptos::task::spawn_local(reset_data(app, ls))
                >
                    {move || tr(app.lang.get(), "Reset data")}
                </button>
            </div>
            {result}
            <Show when=move || ls.data_reset.get()>
                <DataNote/>
            </Show>
        </div>
    }
    .into_any()
}

/// A wrong answer beside the expected outcome: the documents it should have given and did not,
/// those it gave that do not belong, and for plan exercises the plan facts that differ.
#[component]
fn ComparisonView(cmp: lessons::Comparison) -> impl IntoView {
    let app = expect_context::<AppState>();
    let list = |docs: Vec<String>, total: usize, testid: &'static str| {
        let more = total.saturating_sub(docs.len());
        view! {
            <ul class="doc-list" data-testid=testid>
                {docs.into_iter().map(|d| view! { <li><code>{d}</code></li> }).collect_view()}
                {(more > 0).then(|| view! { <li class="muted">{format!("… +{more}")}</li> })}
            </ul>
        }
    };
    let lessons::Comparison {
        missing,
        extra,
        missing_total,
        extra_total,
        got_count,
        expected_count,
        plan,
    } = cmp;
    let documents = (!missing.is_empty() || !extra.is_empty()).then(|| {
        view! {
            <div class="comparison" data-testid="comparison">
                <p class="counts">{move || {
                    let lang = app.lang.get();
                    format!(
                        "{}: {got_count} · {}: {expected_count}",
                        tr(lang, "Your answer gave"),
                        tr(lang, "expected")
                    )
                }}</p>
                <div class="columns">
                    {(extra_total > 0).then(|| view! {
                        <section>
                            <h4>{move || format!("{} ({extra_total})", tr(app.lang.get(), "Should not be there"))}</h4>
                            {list(extra, extra_total, "extra-docs")}
                        </section>
                    })}
                    {(missing_total > 0).then(|| view! {
                        <section>
                            <h4>{move || format!("{} ({missing_total})", tr(app.lang.get(), "Missing from your result"))}</h4>
                            {list(missing, missing_total, "missing-docs")}
                        </section>
                    })}
                </div>
            </div>
        }
    });
    let facts = (!plan.is_empty()).then(|| {
        view! {
            <table class="facts" data-testid="plan-differences">
                <caption>{move || tr(app.lang.get(), "The plan facts that differ")}</caption>
                <thead><tr>
                    <th scope="col">{move || tr(app.lang.get(), "fact")}</th>
                    <th scope="col">{move || tr(app.lang.get(), "expected")}</th>
                    <th scope="col">{move || tr(app.lang.get(), "got")}</th>
                </tr></thead>
                <tbody>
                    {plan.into_iter().map(|f| view! {
                        <tr class="bad"><td>{f.fact}</td><td>{f.expected}</td><td>{f.got}</td></tr>
                    }).collect_view()}
                </tbody>
            </table>
        }
    });
    view! { {documents}{facts} }
}

//! An exercise: prose, hints one at a time, an answer editor, "Check" (the worker runs the answer
//! in a fresh copy of the lesson's data and the engine judges it), "Show solution", and "Reset
//! data" (the lesson's dataset reloaded into the console's engine).

use leptos::prelude::*;

use super::lesson_prose::LessonProse;
use super::lesson_view::DataNote;
use crate::AppState;
use crate::i18n::tr;
use crate::lessons::library::localized;
use crate::lessons::session::{LessonState, check_answer, reset_data};

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
        Some(view! {
            <div class="verdict" class:ok=c.passed class:bad=!c.passed data-testid="check-result">
                <strong>{label}</strong>
                " "
                <span>{c.message}</span>
            </div>
        })
    };
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

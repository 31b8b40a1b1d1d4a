//! An open lesson: its title, the strip of its pages (introduction, steps, exercises, each marked
//! when done), the current page, and previous / next.

use leptos::prelude::*;

use super::lesson_exercise::LessonExercise;
use super::lesson_prose::LessonProse;
use super::lesson_step::LessonStep;
use crate::page::AppState;
use crate::page::i18n::tr;
use crate::page::lessons::library::{Page, localized, title};
use crate::page::lessons::session::{LessonState, close_lesson, go_to};

#[component]
pub fn LessonView() -> impl IntoView {
    let app = expect_context::<AppState>();
    let ls = expect_context::<LessonState>();
    let back = move |_: leptos::ev::MouseEvent| leptos::task::spawn_local(close_lesson(app, ls));
    let heading = move || {
        ls.current()
            .map(|l| title(&l, app.lang.get()))
            .unwrap_or_default()
    };
    let body = move || {
        let (lesson, page) = ls.current_page()?;
        let lang = app.lang.get();
        Some(match page {
            Page::Intro => {
                let text = localized(lang, &lesson.intro.en, lesson.intro.zh.as_deref());
                view! {
                    <div class="lesson-page intro">
                        <h3>{tr(lang, "Introduction")}</h3>
                        <LessonProse text=text.to_string()/>
                        <DataNote/>
                    </div>
                }
                .into_any()
            }
            Page::Step(i) => view! { <LessonStep step=i/> }.into_any(),
            Page::Exercise(i) => view! { <LessonExercise exercise=i/> }.into_any(),
        })
    };
    let position = move || {
        let (lesson, page) = ls.current_page()?;
        let lang = app.lang.get();
        Some(match page {
            Page::Intro => tr(lang, "Introduction").to_string(),
            Page::Step(i) => format!("{} {} / {}", tr(lang, "Step"), i + 1, lesson.steps.len()),
            Page::Exercise(i) => format!(
                "{} {} / {}",
                tr(lang, "Exercise"),
                i + 1,
                lesson.exercises.len()
            ),
        })
    };
    let at_start = move || ls.page.get() == 0;
    let at_end = move || {
        ls.current()
            .is_none_or(|l| ls.page.get() + 1 >= Page::count(&l))
    };
    view! {
        <div class="lesson" data-testid="lesson">
            <div class="lesson-head">
                <button class="link back" data-testid="all-lessons" on:click=back>
                    {move || format!("← {}", tr(app.lang.get(), "All lessons"))}
                </button>
                <h2 data-testid="lesson-title">{heading}</h2>
                <PageStrip/>
            </div>
            <div class="lesson-body">{body}</div>
            <div class="lesson-foot">
                <button
                    data-testid="prev"
                    disabled=at_start
                    on:click=move |_| go_to(ls, ls.page.get_untracked().saturating_sub(1))
                >
                    {move || format!("← {}", tr(app.lang.get(), "Previous"))}
                </button>
                <span class="position" data-testid="position">{position}</span>
                <button
                    data-testid="next"
                    disabled=at_end
                    on:click=move |_| go_to(ls, ls.page.get_untracked() + 1)
                >
                    {move || format!("{} →", tr(app.lang.get(), "Next"))}
                </button>
            </div>
        </div>
    }
}

/// One button per page: "i" for the introduction, step numbers, "E1"… for exercises; done ones
/// are marked, the current one highlighted.
#[component]
fn PageStrip() -> impl IntoView {
    let app = expect_context::<AppState>();
    let ls = expect_context::<LessonState>();
    move || {
        let lesson = ls.current()?;
        let lang = app.lang.get();
        let current = ls.page.get();
        let done = ls.progress.get().lesson(&lesson.id);
        let buttons = (0..Page::count(&lesson))
            .map(|index| {
                let (label, name, is_done) = match Page::at(&lesson, index) {
                    Page::Intro => ("i".to_string(), tr(lang, "Introduction").to_string(), false),
                    Page::Step(i) => {
                        let s = &lesson.steps[i];
                        (
                            (i + 1).to_string(),
                            localized(lang, &s.title, s.title_zh.as_deref()).to_string(),
                            done.steps_matched.contains(&i),
                        )
                    }
                    Page::Exercise(i) => {
                        let e = &lesson.exercises[i];
                        (
                            format!("E{}", i + 1),
                            localized(lang, &e.title, e.title_zh.as_deref()).to_string(),
                            done.exercises_solved.contains(&i),
                        )
                    }
                };
                view! {
                    <li>
                        <button
                            class:done=is_done
                            class:current=index == current
                            title=name
                            on:click=move |_| go_to(ls, index)
                        >
                            {label}
                        </button>
                    </li>
                }
            })
            .collect_view();
        Some(view! { <ol class="page-strip" data-testid="page-strip">{buttons}</ol> })
    }
}

/// What the worker said about the lesson's data: loaded (which collections), or why not.
#[component]
pub fn DataNote() -> impl IntoView {
    let app = expect_context::<AppState>();
    let ls = expect_context::<LessonState>();
    move || {
        let lang = app.lang.get();
        if ls.working.get() && ls.data_note.get().is_none() {
            return Some(
                view! { <p class="data-note">{tr(lang, "Loading the lesson's data…")}</p> }
                    .into_any(),
            );
        }
        let (text, is_error) = ls.data_note.get()?;
        Some(
            view! {
                <p class="data-note" class:error=is_error data-testid="data-note">
                    {if is_error { text } else { format!("{} {text}", tr(lang, "The lesson's data is loaded into a fresh database.")) }}
                </p>
            }
            .into_any(),
        )
    }
}

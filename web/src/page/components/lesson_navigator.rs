//! The lesson navigator: the two books and their lessons, each with how much of it is done and a
//! mark when it is complete. Choosing a lesson loads its data and opens it.

use leptos::prelude::*;

use crate::page::AppState;
use crate::page::i18n::tr;
use crate::page::lessons::library::{books, title};
use crate::page::lessons::session::{BuiltInLessons, LessonState, load_built_in, open_lesson};

#[component]
pub fn LessonNavigator() -> impl IntoView {
    let app = expect_context::<AppState>();
    let ls = expect_context::<LessonState>();
    let list = move || {
        let lang = app.lang.get();
        let progress = ls.progress.get();
        ls.lessons.with(|lessons| {
            books(lessons)
                .into_iter()
                .map(|(book, members)| {
                    let items = members
                        .into_iter()
                        .map(|i| {
                            let lesson = &lessons[i];
                            let (done, total) = progress.tally(lesson);
                            let complete = progress.is_complete(lesson);
                            let open = move |_: leptos::ev::MouseEvent| {
                                leptos::task::spawn_local(open_lesson(app, ls, i, 0));
                            };
                            view! {
                                <li>
                                    <button
                                        class="lesson-link"
                                        class:complete=complete
                                        data-lesson=lesson.id.clone()
                                        disabled=move || !app.ready.get()
                                        on:click=open
                                    >
                                        <span class="mark" aria-hidden="true">
                                            {if complete { "✓" } else { "" }}
                                        </span>
                                        <span class="name">{title(lesson, lang)}</span>
                                        <span class="tally" title=tr(lang, "completed")>
                                            {format!("{done}/{total}")}
                                        </span>
                                    </button>
                                </li>
                            }
                        })
                        .collect_view();
                    view! {
                        <section class="book">
                            <h3>{book.title(lang)}</h3>
                            <ul>{items}</ul>
                        </section>
                    }
                })
                .collect_view()
        })
    };
    // The built-in lessons are a file of the site read at start: say so while it is on its way,
    // and if it could not be read, why, with a way to try again (offline, a server error).
    let status = move || {
        let lang = app.lang.get();
        match ls.built_in.get() {
            BuiltInLessons::Loaded => None,
            BuiltInLessons::Loading => Some(
                view! {
                    <p class="nav-status" role="status" data-testid="lessons-loading">
                        {tr(lang, "Loading the lessons…")}
                    </p>
                }
                .into_any(),
            ),
            BuiltInLessons::Failed(why) => {
                let retry = move |_: leptos::ev::MouseEvent| {
                    leptos::task::spawn_local(load_built_in(ls));
                };
                Some(
                    view! {
                        <div class="nav-status failed" role="alert" data-testid="lessons-failed">
                            <p>{tr(lang, "The lessons could not be loaded:")} " " {why}</p>
                            <button class="retry" on:click=retry>
                                {tr(lang, "Try again")}
                            </button>
                        </div>
                    }
                    .into_any(),
                )
            }
        }
    };
    view! {
        <div class="lesson-nav" data-testid="lesson-nav">
            <h2>{move || tr(app.lang.get(), "Lessons")}</h2>
            {status}
            {list}
        </div>
    }
}

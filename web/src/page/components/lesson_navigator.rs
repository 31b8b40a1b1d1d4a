//! The lesson navigator: the two books and their lessons, each with how much of it is done and a
//! mark when it is complete. Choosing a lesson loads its data and opens it.

use leptos::prelude::*;

use crate::page::AppState;
use crate::page::i18n::tr;
use crate::page::lessons::library::{books, title};
use crate::page::lessons::session::{LessonState, open_lesson};

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
    view! {
        <div class="lesson-nav" data-testid="lesson-nav">
            <h2>{move || tr(app.lang.get(), "Lessons")}</h2>
            {list}
        </div>
    }
}

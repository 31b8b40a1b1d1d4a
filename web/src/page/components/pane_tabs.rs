//! The tab bar of narrow screens (phones, small tablets): the page shows one column at a time —
//! the lesson, the console or the data (databases and collections) — and this bar switches
//! between them. On wide screens the bar is hidden (static/style.css) and all columns show.

use leptos::prelude::*;

use crate::page::AppState;
use crate::page::i18n::tr;
use crate::page::lessons::session::LessonState;

/// The column a narrow screen shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pane {
    Lesson,
    Console,
    Data,
}

impl Pane {
    /// The value of the page's `data-pane` attribute, which the style sheet reads.
    pub fn key(self) -> &'static str {
        match self {
            Pane::Lesson => "lesson",
            Pane::Console => "console",
            Pane::Data => "data",
        }
    }

    fn label(self) -> &'static str {
        match self {
            Pane::Lesson => "Lessons",
            Pane::Console => "Console",
            Pane::Data => "Data",
        }
    }
}

#[component]
pub fn PaneTabs() -> impl IntoView {
    let app = expect_context::<AppState>();
    let ls = expect_context::<LessonState>();
    // Opening a lesson shows it; closing one goes back to the console.
    Effect::new(move |was_open: Option<bool>| {
        let open = ls.open.get().is_some();
        if was_open.is_some_and(|w| w != open) || (was_open.is_none() && open) {
            app.pane
                .set(if open { Pane::Lesson } else { Pane::Console });
        }
        open
    });
    let tab = move |pane: Pane| {
        view! {
            <button
                data-testid=format!("tab-{}", pane.key())
                class:active=move || app.pane.get() == pane
                aria-pressed=move || (app.pane.get() == pane).to_string()
                on:click=move |_| app.pane.set(pane)
            >
                {move || {
                    let lang = app.lang.get();
                    if pane == Pane::Lesson && ls.open.get().is_some() {
                        tr(lang, "Lesson")
                    } else {
                        tr(lang, pane.label())
                    }
                }}
            </button>
        }
    };
    view! {
        <nav class="pane-tabs" data-testid="pane-tabs" aria-label=move || tr(app.lang.get(), "Columns")>
            {tab(Pane::Lesson)}
            {tab(Pane::Console)}
            {tab(Pane::Data)}
        </nav>
    }
}

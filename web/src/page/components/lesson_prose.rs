//! Lesson prose: paragraphs with `code` and *emphasis* (see [`crate::page::lessons::prose`]).

use leptos::prelude::*;

use crate::page::lessons::prose::{Inline, paragraphs};

#[component]
pub fn LessonProse(text: String) -> impl IntoView {
    paragraphs(&text)
        .into_iter()
        .map(|pieces| {
            let pieces = pieces
                .into_iter()
                .map(|piece| match piece {
                    Inline::Text(t) => t.into_any(),
                    Inline::Code(c) => view! { <code>{c}</code> }.into_any(),
                    Inline::Emphasis(e) => view! { <em>{e}</em> }.into_any(),
                })
                .collect_view();
            view! { <p>{pieces}</p> }
        })
        .collect_view()
}

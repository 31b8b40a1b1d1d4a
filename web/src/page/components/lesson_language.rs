//! The language switch (English / 中文) in the top bar: UI strings and lesson prose follow it; it
//! is saved with the lesson progress.

use leptos::prelude::*;

use crate::page::AppState;
use crate::page::i18n::{Lang, tr};

#[component]
pub fn LanguageSwitch() -> impl IntoView {
    let app = expect_context::<AppState>();
    // The page's `lang` attribute follows, so the browser picks Chinese fonts and line breaking.
    Effect::new(move |_| {
        let lang = app.lang.get();
        if let Some(html) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.document_element())
        {
            let _ = html.set_attribute("lang", lang.code());
        }
    });
    let choice = move |lang: Lang, label: &'static str, testid: &'static str| {
        view! {
            <button
                data-testid=testid
                class:active=move || app.lang.get() == lang
                aria-pressed=move || (app.lang.get() == lang).to_string()
                on:click=move |_| app.lang.set(lang)
            >
                {label}
            </button>
        }
    };
    view! {
        <span class="lang-switch" role="group" aria-label=move || tr(app.lang.get(), "Language")>
            {choice(Lang::En, "EN", "lang-en")}
            {choice(Lang::Zh, "中文", "lang-zh")}
        </span>
    }
}

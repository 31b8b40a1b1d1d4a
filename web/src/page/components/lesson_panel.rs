//! The lesson column beside the console: the navigator when no lesson is open (the console is
//! then the free playground), the open lesson otherwise.

use leptos::prelude::*;

use super::lesson_navigator::LessonNavigator;
use super::lesson_view::LessonView;
use crate::page::lessons::session::LessonState;

#[component]
pub fn LessonPanel() -> impl IntoView {
    let ls = expect_context::<LessonState>();
    let app = expect_context::<crate::page::AppState>();
    view! {
        <aside
            class="lesson-panel"
            data-testid="lesson-panel"
            aria-label=move || crate::page::i18n::tr(app.lang.get(), "Lessons")
        >
            {move || {
                if ls.open.get().is_some() {
                    view! { <LessonView/> }.into_any()
                } else {
                    view! { <LessonNavigator/> }.into_any()
                }
            }}
        </aside>
    }
}

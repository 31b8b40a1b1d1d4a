//! The page's panes, one per file.

mod editor;
mod explain_view;
mod lesson_exercise;
mod lesson_language;
mod lesson_navigator;
mod lesson_panel;
mod lesson_prose;
mod lesson_step;
mod lesson_view;
mod output;
mod result_views;
mod sidebar;

pub use editor::Editor;
pub use lesson_language::LanguageSwitch;
pub use lesson_panel::LessonPanel;
pub use lesson_view::LessonView;
pub use output::OutputPane;
pub use sidebar::Sidebar;

//! The page's panes, one per file.

mod editor;
mod explain_view;
mod output;
mod result_views;
mod sidebar;

pub use editor::Editor;
pub use output::OutputPane;
pub use sidebar::Sidebar;

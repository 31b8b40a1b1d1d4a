//! The page's panes, one per file.

mod editor;
mod output;
mod sidebar;

pub use editor::Editor;
pub use output::OutputPane;
pub use sidebar::Sidebar;

//! The page's panes, one per file.

mod cluster_panel;
mod data_panel;
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
mod pane_tabs;
mod result_views;
mod sidebar;
mod stage_view;
mod topology_panel;

pub use cluster_panel::ClusterPanel;
pub use data_panel::{DataPanel, on_drag_over, on_drop};
pub use editor::Editor;
pub use lesson_language::LanguageSwitch;
pub use lesson_panel::LessonPanel;
pub use lesson_view::LessonView;
pub use output::OutputPane;
pub use pane_tabs::{Pane, PaneTabs};
pub use sidebar::Sidebar;
pub use topology_panel::TopologyPanel;

//! The light/dark theme: `data-theme` on the root element (style.css keys its colours on it),
//! remembered in localStorage.

const KEY: &str = "sprout-theme";

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// Whether the saved theme is dark (the browser's preference when nothing is saved).
pub fn saved_is_dark() -> bool {
    match storage()
        .and_then(|s| s.get_item(KEY).ok().flatten())
        .as_deref()
    {
        Some("dark") => true,
        Some(_) => false,
        None => web_sys::window()
            .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
            .is_some_and(|m| m.matches()),
    }
}

/// Shows and remembers the theme.
pub fn apply(dark: bool) {
    let name = if dark { "dark" } else { "light" };
    if let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = root.set_attribute("data-theme", name);
    }
    if let Some(s) = storage() {
        let _ = s.set_item(KEY, name);
    }
}

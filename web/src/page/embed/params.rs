//! The options of `embed.html` (the iframe mode), read from its query string: what to show
//! (`view=console`, `view=lesson&lesson=<id>&step=<n>`, or `view=bridge`, the invisible page
//! `embed.js` runs snippets in), `dataset` (a lesson dataset's name), `setup` (code run once,
//! unseen), `theme` (`light`, `dark`, `auto`) and `lang` (`en`, `zh`). The database
//! (`db=<name>`, `persist`) is read by the shell worker (`database_choice.rs`) and the boot
//! script in `embed.html`.

use crate::page::i18n::Lang;
use crate::page::lessons::deep_link::fragment_pairs;

/// What the embedded page shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum View {
    /// Editor and output (with the explain view), no app chrome.
    Console,
    /// One lesson (a built-in one by id, or one the host page sends as Markdown) beside a console;
    /// `page` is the flat page index to open (`step=<n>` is page n).
    Lesson { id: Option<String>, page: usize },
    /// Nothing visible: runs what the host page sends (`<sprout-snippet>`).
    Bridge,
}

/// The light/dark choice; `Auto` follows the browser's preference.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Theme {
    Light,
    Dark,
    Auto,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmbedParams {
    pub view: View,
    pub dataset: Option<String>,
    pub setup: Option<String>,
    pub theme: Theme,
    pub lang: Lang,
}

/// Reads the options from a query string (`?a=1&b=2`, with or without the `?`). Unknown values
/// fall back to the defaults: a console, automatic theme, English.
pub fn parse(query: &str) -> EmbedParams {
    let pairs = fragment_pairs(query.trim_start_matches('?'));
    let get = |key: &str| {
        pairs
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone())
            .filter(|v| !v.is_empty())
    };
    let lesson = get("lesson");
    let view = match get("view").as_deref() {
        Some("bridge") => View::Bridge,
        Some("lesson") => View::Lesson {
            id: lesson,
            page: page_of(get("step")),
        },
        Some("console") => View::Console,
        _ if lesson.is_some() => View::Lesson {
            id: lesson,
            page: page_of(get("step")),
        },
        _ => View::Console,
    };
    let theme = match get("theme").as_deref() {
        Some("light") => Theme::Light,
        Some("dark") => Theme::Dark,
        _ => Theme::Auto,
    };
    let lang = match get("lang").as_deref() {
        Some(l) if l.starts_with("zh") => Lang::Zh,
        _ => Lang::En,
    };
    EmbedParams {
        view,
        dataset: get("dataset"),
        setup: get("setup"),
        theme,
        lang,
    }
}

fn page_of(step: Option<String>) -> usize {
    step.and_then(|s| s.parse().ok()).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_console_is_the_default() {
        let p = parse("");
        assert_eq!(p.view, View::Console);
        assert_eq!((p.theme, p.lang), (Theme::Auto, Lang::En));
        assert_eq!(p.dataset, None);
    }

    #[test]
    fn options_are_read_from_the_query() {
        let p = parse(
            "?view=console&db=shop&dataset=b2-modeling&theme=dark&lang=zh-CN&setup=db.a.insertOne(%7Bx%3A1%7D)",
        );
        assert_eq!(p.view, View::Console);
        assert_eq!(p.dataset.as_deref(), Some("b2-modeling"));
        assert_eq!(p.setup.as_deref(), Some("db.a.insertOne({x:1})"));
        assert_eq!((p.theme, p.lang), (Theme::Dark, Lang::Zh));
        assert_eq!(
            parse("lesson=b5-optimizing&step=3").view,
            View::Lesson {
                id: Some("b5-optimizing".into()),
                page: 3
            }
        );
        assert_eq!(
            parse("view=lesson").view,
            View::Lesson { id: None, page: 0 }
        );
        assert_eq!(parse("view=bridge&theme=nope").view, View::Bridge);
        assert_eq!(parse("view=bridge&theme=nope").theme, Theme::Auto);
    }
}

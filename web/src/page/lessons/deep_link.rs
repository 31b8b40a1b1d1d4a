//! Deep links: the page's URL fragment says where the learner is — `#lesson=<id>&step=<n>` (steps
//! and exercises numbered from 1 as the lesson pane shows them, `exercise=<n>` for an exercise,
//! neither for the introduction) — and a URL that carries one opens the lesson at that page
//! instead of the saved progress. The query string (`?db=`, `?storage=`) keeps naming the
//! database; only the fragment is written here, with `history.replaceState` (no new history
//! entry per page turned, no reload).

use lessons::Lesson;

use super::library::Page;

/// Where a deep link points: a lesson id and a page of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LessonLink {
    pub lesson: String,
    pub page: LinkPage,
}

/// A page as the link names it (numbers from 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkPage {
    Intro,
    Step(usize),
    Exercise(usize),
}

/// The `key=value` pairs of a fragment (`#a=1&b=2`, with or without the `#`), percent-decoded.
pub fn fragment_pairs(fragment: &str) -> Vec<(String, String)> {
    fragment
        .trim_start_matches('#')
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| match p.split_once('=') {
            Some((k, v)) => (percent_decode(k), percent_decode(v)),
            None => (percent_decode(p), String::new()),
        })
        .collect()
}

/// Reads `#lesson=<id>&step=<n>` (or `exercise=<n>`); `None` when the fragment names no lesson.
/// A step or exercise that is not a positive number opens the introduction.
pub fn parse(fragment: &str) -> Option<LessonLink> {
    let pairs = fragment_pairs(fragment);
    let get = |key: &str| {
        pairs
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    };
    let lesson = get("lesson").filter(|id| !id.is_empty())?.to_string();
    let number = |key: &str| {
        get(key)
            .and_then(|v| v.parse::<usize>().ok())
            .filter(|n| *n > 0)
    };
    let page = match (number("step"), number("exercise")) {
        (Some(n), _) => LinkPage::Step(n),
        (None, Some(n)) => LinkPage::Exercise(n),
        (None, None) => LinkPage::Intro,
    };
    Some(LessonLink { lesson, page })
}

/// The fragment for a page of a lesson (without the `#`).
pub fn format(lesson: &Lesson, page: Page) -> String {
    let id = percent_encode(&lesson.id);
    match page {
        Page::Intro => format!("lesson={id}"),
        Page::Step(i) => format!("lesson={id}&step={}", i + 1),
        Page::Exercise(i) => format!("lesson={id}&exercise={}", i + 1),
    }
}

impl LinkPage {
    /// The flat page index in `lesson` (clamped by [`Page::at`] when the lesson is shorter).
    pub fn index(self, lesson: &Lesson) -> usize {
        let page = match self {
            LinkPage::Intro => Page::Intro,
            LinkPage::Step(n) => Page::Step(
                n.saturating_sub(1)
                    .min(lesson.steps.len().saturating_sub(1)),
            ),
            LinkPage::Exercise(n) if lesson.exercises.is_empty() => Page::Step(n.saturating_sub(1)),
            LinkPage::Exercise(n) => {
                Page::Exercise(n.saturating_sub(1).min(lesson.exercises.len() - 1))
            }
        };
        Page::at(lesson, page.index(lesson)).index(lesson)
    }
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match bytes[i] {
            b'%' if i + 2 < bytes.len() => match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                (Some(h), Some(l)) => {
                    out.push((h * 16 + l) as u8);
                    i += 3;
                    continue;
                }
                _ => out.push(b'%'),
            },
            b'+' => out.push(b' '),
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Percent-encodes everything but unreserved characters (RFC 3986 section 2.3).
pub fn percent_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The page's fragment now (with its `#`, or empty).
pub fn current_fragment() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

/// Replaces the page's fragment without a reload or a new history entry; an empty `fragment`
/// removes it. The path and query string stay.
pub fn replace_fragment(fragment: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let location = window.location();
    let path = location.pathname().unwrap_or_default();
    let search = location.search().unwrap_or_default();
    let url = if fragment.is_empty() {
        format!("{path}{search}")
    } else {
        format!("{path}{search}#{fragment}")
    };
    if location.hash().unwrap_or_default().trim_start_matches('#') == fragment {
        return;
    }
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

/// The lesson (index into `ls.lessons`) and page a link in the page's URL points to.
pub fn linked_page(ls: super::session::LessonState) -> Option<(usize, usize)> {
    use leptos::prelude::WithUntracked;
    let link = parse(&current_fragment())?;
    ls.lessons.with_untracked(|lessons| {
        let index = lessons.iter().position(|l| l.id == link.lesson)?;
        Some((index, link.page.index(&lessons[index])))
    })
}

/// Keeps the URL's fragment on the open lesson and page, and opens the lesson a fragment names
/// when the learner edits or pastes one into the address bar (`hashchange`).
pub fn keep_in_url(app: crate::page::AppState, ls: super::session::LessonState) {
    use leptos::prelude::*;
    use wasm_bindgen::JsCast;
    use wasm_bindgen::closure::Closure;
    Effect::new(move |_| {
        let open = ls.open.get();
        let page = ls.page.get();
        match open.and_then(|i| ls.lesson(i)) {
            Some(lesson) => replace_fragment(&format(&lesson, Page::at(&lesson, page))),
            // Back in the playground: drop a lesson link, keep any other fragment.
            None if parse(&current_fragment()).is_some() => replace_fragment(""),
            None => {}
        }
    });
    let on_hash = Closure::<dyn Fn()>::new(move || {
        leptos::task::spawn_local(async move {
            if parse(&current_fragment()).is_some() {
                super::session::load_built_in(ls).await;
            }
            let Some((index, page)) = linked_page(ls) else {
                return;
            };
            if ls.open.get_untracked() == Some(index) {
                if ls.page.get_untracked() != page {
                    super::session::go_to(ls, page);
                }
            } else {
                super::session::open_lesson(app, ls, index, page).await;
            }
        });
    });
    if let Some(window) = web_sys::window() {
        let _ =
            window.add_event_listener_with_callback("hashchange", on_hash.as_ref().unchecked_ref());
    }
    on_hash.forget();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b5() -> Lesson {
        crate::page::lessons::library::built_in()
            .into_iter()
            .find(|l| l.id == "b5-optimizing")
            .unwrap()
    }

    #[test]
    fn a_link_names_a_lesson_and_a_page() {
        assert_eq!(
            parse("#lesson=b5-optimizing&step=3"),
            Some(LessonLink {
                lesson: "b5-optimizing".into(),
                page: LinkPage::Step(3)
            })
        );
        assert_eq!(
            parse("exercise=2&lesson=a%31").map(|l| (l.lesson, l.page)),
            Some(("a1".into(), LinkPage::Exercise(2)))
        );
        assert_eq!(
            parse("#lesson=b1-tour&step=zero").unwrap().page,
            LinkPage::Intro
        );
        assert_eq!(
            parse("#lesson=b1-tour&step=0").unwrap().page,
            LinkPage::Intro
        );
        assert_eq!(parse("#share=abc"), None);
        assert_eq!(parse(""), None);
        assert_eq!(parse("#lesson="), None);
    }

    #[test]
    fn links_and_pages_round_trip() {
        let lesson = b5();
        let count = Page::count(&lesson);
        for index in 0..count {
            let page = Page::at(&lesson, index);
            let link = parse(&format(&lesson, page)).unwrap();
            assert_eq!(link.lesson, "b5-optimizing");
            assert_eq!(link.page.index(&lesson), index, "{page:?}");
        }
        assert_eq!(
            format(&lesson, Page::Step(2)),
            "lesson=b5-optimizing&step=3"
        );
        // Past the end: the last step, the last exercise.
        assert_eq!(
            LinkPage::Step(999).index(&lesson),
            lesson.steps.len(),
            "the last step"
        );
        assert_eq!(LinkPage::Exercise(999).index(&lesson), count - 1);
    }

    #[test]
    fn fragments_decode_percent_escapes() {
        assert_eq!(
            fragment_pairs("#a=x%20y&b&c=%zz%"),
            vec![
                ("a".to_string(), "x y".to_string()),
                ("b".to_string(), String::new()),
                ("c".to_string(), "%zz%".to_string())
            ]
        );
        assert_eq!(percent_encode("a b/é"), "a%20b%2F%C3%A9");
        assert_eq!(percent_decode(&percent_encode("数据 & =")), "数据 & =");
    }
}

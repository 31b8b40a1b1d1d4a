//! The built-in lessons as the navigator shows them: two books (A: "50 Tips and Tricks for
//! MongoDB Developers", B: "MongoDB Data Modeling"), each lesson one tip or chapter, and the
//! pages of a lesson (its introduction, its steps, its exercises).

use lessons::Lesson;

use crate::page::i18n::{Lang, tr};

/// The lessons shipped with Sprout, compiled in: for the tests (the page reads them from the site,
/// `session::load_built_in`). Verified by `cargo test -p lessons`.
#[cfg(test)]
pub fn built_in() -> Vec<Lesson> {
    lessons::built_in().expect("the built-in lessons parse")
}

/// Reads one of the site's files, relative to the page, as text: its text, or what went wrong
/// (`fetching <path> answered HTTP 404 Not Found`).
pub async fn fetch_text(path: &str) -> Result<String, String> {
    use wasm_bindgen::JsCast;
    use wasm_bindgen_futures::JsFuture;
    fn describe(e: wasm_bindgen::JsValue) -> String {
        e.dyn_ref::<js_sys::Error>()
            .map(|e| String::from(e.message()))
            .or_else(|| e.as_string())
            .unwrap_or_else(|| "the browser refused the request".to_string())
    }
    let window = web_sys::window().ok_or("no window to fetch from")?;
    let response = JsFuture::from(window.fetch_with_str(path))
        .await
        .map_err(|e| format!("fetching {path} failed: {}", describe(e)))?;
    let response: web_sys::Response = response
        .dyn_into()
        .map_err(|_| format!("fetching {path} gave no response"))?;
    if !response.ok() {
        return Err(format!(
            "fetching {path} answered HTTP {} {}",
            response.status(),
            response.status_text()
        )
        .trim_end()
        .to_string());
    }
    let text = JsFuture::from(response.text().map_err(describe)?)
        .await
        .map_err(describe)?;
    text.as_string()
        .ok_or_else(|| format!("fetching {path} gave no text"))
}

/// The two books the lessons follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Book {
    A,
    B,
}

impl Book {
    pub fn title(self, lang: Lang) -> &'static str {
        match self {
            Book::A => tr(lang, "Book A: 50 Tips and Tricks for MongoDB Developers"),
            Book::B => tr(lang, "Book B: MongoDB Data Modeling"),
        }
    }
}

/// The book and the tip or chapter number of a lesson, from its `source` ("A3", "B4").
pub fn place(lesson: &Lesson) -> Option<(Book, u32)> {
    let source = lesson.source.trim();
    let book = match source.chars().next()? {
        'A' => Book::A,
        'B' => Book::B,
        _ => return None,
    };
    let number = source[1..].parse().ok()?;
    Some((book, number))
}

/// The books with their lessons (indices into `lessons`) in tip or chapter order. A lesson with
/// an unknown source is left out of the navigator.
pub fn books(lessons: &[Lesson]) -> Vec<(Book, Vec<usize>)> {
    let mut placed: Vec<(Book, u32, usize)> = lessons
        .iter()
        .enumerate()
        .filter_map(|(i, l)| place(l).map(|(b, n)| (b, n, i)))
        .collect();
    placed.sort();
    let mut out: Vec<(Book, Vec<usize>)> = Vec::new();
    for (book, _, i) in placed {
        match out.last_mut() {
            Some((b, list)) if *b == book => list.push(i),
            _ => out.push((book, vec![i])),
        }
    }
    out
}

/// A lesson's title in the page's language. Book B's titles do not name their chapter, so it is
/// put in front ("Ch. 4 · Indexing…").
pub fn title(lesson: &Lesson, lang: Lang) -> String {
    let text = match lang {
        Lang::Zh => lesson.title_zh.as_deref().unwrap_or(&lesson.title),
        Lang::En => &lesson.title,
    };
    match place(lesson) {
        Some((Book::B, n)) => match lang {
            Lang::En => format!("Ch. {n} · {text}"),
            Lang::Zh => format!("第 {n} 章 · {text}"),
        },
        _ => text.to_string(),
    }
}

/// Text in the page's language: the Chinese version when there is one.
pub fn localized<'a>(lang: Lang, en: &'a str, zh: Option<&'a str>) -> &'a str {
    match (lang, zh) {
        (Lang::Zh, Some(zh)) => zh,
        _ => en,
    }
}

/// One page of a lesson: the introduction, a step, or an exercise (indices from 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Page {
    Intro,
    Step(usize),
    Exercise(usize),
}

impl Page {
    /// How many pages the lesson has.
    pub fn count(lesson: &Lesson) -> usize {
        1 + lesson.steps.len() + lesson.exercises.len()
    }

    /// The page at a flat position (0 is the introduction), clamped to the lesson's last page.
    pub fn at(lesson: &Lesson, index: usize) -> Page {
        let index = index.min(Self::count(lesson) - 1);
        let steps = lesson.steps.len();
        match index {
            0 => Page::Intro,
            i if i <= steps => Page::Step(i - 1),
            i => Page::Exercise(i - 1 - steps),
        }
    }

    /// The flat position of the page (as saved with the progress).
    pub fn index(self, lesson: &Lesson) -> usize {
        match self {
            Page::Intro => 0,
            Page::Step(i) => 1 + i,
            Page::Exercise(i) => 1 + lesson.steps.len() + i,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lessons_fall_into_two_books_in_order() {
        let lessons = built_in();
        let books = books(&lessons);
        assert_eq!(books.len(), 2);
        assert_eq!(books[0].0, Book::A);
        assert_eq!(books[0].1.len(), 13);
        assert_eq!(books[1].1.len(), 10);
        // Tip 2 comes before tip 10, whatever the order of the files.
        let sources: Vec<&str> = books[0]
            .1
            .iter()
            .map(|&i| lessons[i].source.as_str())
            .collect();
        assert_eq!(&sources[..3], ["A1", "A2", "A3"]);
        assert_eq!(sources.last(), Some(&"A13"));
    }

    #[test]
    fn chapter_titles_name_their_chapter() {
        let lessons = built_in();
        let b4 = lessons.iter().find(|l| l.id == "b4-indexes").unwrap();
        assert!(title(b4, Lang::En).starts_with("Ch. 4 · Indexing"));
        assert!(title(b4, Lang::Zh).starts_with("第 4 章 · 索引"));
        let a3 = lessons.iter().find(|l| l.id == "a3-single-query").unwrap();
        assert_eq!(title(a3, Lang::En), "Tip 3: one page, one query");
    }

    #[test]
    fn pages_run_intro_then_steps_then_exercises() {
        let lessons = built_in();
        let b5 = lessons.iter().find(|l| l.id == "b5-optimizing").unwrap();
        let steps = b5.steps.len();
        assert_eq!(Page::at(b5, 0), Page::Intro);
        assert_eq!(Page::at(b5, 1), Page::Step(0));
        assert_eq!(Page::at(b5, steps + 1), Page::Exercise(0));
        assert_eq!(Page::at(b5, 10_000), Page::Exercise(b5.exercises.len() - 1));
        for i in 0..Page::count(b5) {
            assert_eq!(Page::at(b5, i).index(b5), i);
        }
    }
}

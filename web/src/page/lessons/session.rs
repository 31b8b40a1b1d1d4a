//! The lesson state the components share, and what the learner's clicks do: open a lesson (its
//! dataset loaded into a fresh engine in the shell worker), run a step in the console and compare
//! its output with the lesson, check an exercise answer, reset the data, go back to the free
//! playground. Progress is saved to IndexedDB after every change.

use std::collections::HashMap;

use leptos::prelude::*;
use lessons::Lesson;

use super::library::{self, Page};
use super::progress::Progress;
use super::progress_store::ProgressStore;
use super::verdict::{StepVerdict, judge};
use crate::page::engine_client;
use crate::page::{AppState, refresh, run_in_console};
use crate::protocol::{RequestBody, StructuredResult};

/// The last run of a step in this visit: the verdict against the lesson.
#[derive(Debug, Clone, PartialEq)]
pub struct StepRun {
    pub verdict: StepVerdict,
    pub is_error: bool,
}

/// The verdict on an exercise answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Checked {
    pub passed: bool,
    pub message: String,
    /// For a wrong answer: what it gave beside what was expected.
    pub comparison: Option<lessons::Comparison>,
}

/// Where reading the built-in lessons from the site stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BuiltInLessons {
    /// Being read (the page has just started, or a retry is under way).
    Loading,
    Loaded,
    /// The last read failed: why (a network error or a bad file).
    Failed(String),
}

#[derive(Clone, Copy)]
pub struct LessonState {
    /// The lessons known: the built-in ones once read from the site ([`load_built_in`]), and a
    /// course author's lessons defined in the embed.
    pub lessons: RwSignal<Vec<Lesson>>,
    /// Whether the built-in lessons have been read from the site yet (the navigator says so).
    pub built_in: RwSignal<BuiltInLessons>,
    pub progress: RwSignal<Progress>,
    /// The open lesson (an index into `lessons`); `None` in the free playground.
    pub open: RwSignal<Option<usize>>,
    pub page: RwSignal<usize>,
    /// Step number → its last run, for the open lesson.
    pub runs: RwSignal<HashMap<usize, StepRun>>,
    /// Exercise number → the verdict on the last answer checked, for the open lesson.
    pub checks: RwSignal<HashMap<usize, Checked>>,
    /// What the worker said when it loaded the lesson's data (or why it could not).
    pub data_note: RwSignal<Option<(String, bool)>>,
    /// The data was reset ("Reset data") since the lesson was opened.
    pub data_reset: RwSignal<bool>,
    /// The lesson's data is being loaded or an answer checked.
    pub working: RwSignal<bool>,
    store: StoredValue<Option<ProgressStore>, LocalStorage>,
    /// Saved progress has been read back (nothing is saved before, so it is not overwritten).
    restored: RwSignal<bool>,
}

impl LessonState {
    pub fn new() -> LessonState {
        LessonState {
            lessons: RwSignal::new(Vec::new()),
            built_in: RwSignal::new(BuiltInLessons::Loading),
            progress: RwSignal::new(Progress::default()),
            open: RwSignal::new(None),
            page: RwSignal::new(0),
            runs: RwSignal::new(HashMap::new()),
            checks: RwSignal::new(HashMap::new()),
            data_note: RwSignal::new(None),
            working: RwSignal::new(false),
            data_reset: RwSignal::new(false),
            store: StoredValue::new_local(None),
            restored: RwSignal::new(false),
        }
    }

    pub fn lesson(&self, index: usize) -> Option<Lesson> {
        self.lessons.with_untracked(|l| l.get(index).cloned())
    }

    /// The open lesson.
    pub fn current(&self) -> Option<Lesson> {
        self.open.get().and_then(|i| self.lesson(i))
    }

    /// The page of the open lesson.
    pub fn current_page(&self) -> Option<(Lesson, Page)> {
        let lesson = self.current()?;
        let page = Page::at(&lesson, self.page.get());
        Some((lesson, page))
    }
}

impl Default for LessonState {
    fn default() -> Self {
        Self::new()
    }
}

/// Reads the saved progress (language, open lesson and page) and reopens the lesson, replaying
/// the steps before the saved page so the data is as the learner left it.
pub fn restore(app: AppState, ls: LessonState) {
    leptos::task::spawn_local(async move {
        // The navigator beside the console lists them, and a saved or linked lesson reopens.
        load_built_in(ls).await;
        let store = match ProgressStore::open().await {
            Ok(s) => Some(s),
            Err(e) => {
                web_sys::console::warn_1(&format!("lesson progress will not be kept: {e}").into());
                None
            }
        };
        let saved = match &store {
            Some(s) => s.load().await.ok().flatten(),
            None => None,
        };
        ls.store.set_value(store);
        let progress = saved
            .as_deref()
            .map(Progress::from_json)
            .unwrap_or_default();
        app.lang.set(progress.lang);
        if !progress.transcript.is_empty() && app.entries.with_untracked(Vec::is_empty) {
            app.entries
                .set(super::transcript::restored(&progress.transcript));
        }
        // A deep link in the URL (`#lesson=…&step=…`) wins over the saved place.
        let reopen = super::deep_link::linked_page(ls).or_else(|| {
            progress.current.clone().and_then(|id| {
                ls.lessons
                    .with_untracked(|l| l.iter().position(|x| x.id == id))
                    .map(|i| (i, progress.page))
            })
        });
        ls.progress.set(progress);
        ls.restored.set(true);
        if let Some((index, page)) = reopen {
            open_lesson(app, ls, index, page).await;
        }
        super::deep_link::keep_in_url(app, ls);
    });
}

/// Reads the built-in lessons from the site (`lessons::BUNDLE_PATH`: the page's wasm links no
/// lesson text, so the first download is smaller by the lessons' ~116 KB gzip) and adds them to
/// the lessons known; a course author's lessons defined meanwhile stay, at their indices. Once:
/// later calls return at once, and after a failed read (logged) the next call tries again.
pub async fn load_built_in(ls: LessonState) {
    if ls.built_in.get_untracked() == BuiltInLessons::Loaded {
        return;
    }
    ls.built_in.set(BuiltInLessons::Loading);
    let read = library::fetch_text(lessons::BUNDLE_PATH)
        .await
        .and_then(|text| lessons::parse_bundle(&text).map_err(|e| e.to_string()));
    match read {
        Ok(built_in) => {
            if ls.built_in.get_untracked() == BuiltInLessons::Loaded {
                return;
            }
            ls.lessons.update(|known| {
                for lesson in built_in {
                    if !known.iter().any(|l| l.id == lesson.id) {
                        known.push(lesson);
                    }
                }
            });
            ls.built_in.set(BuiltInLessons::Loaded);
        }
        Err(e) => {
            web_sys::console::error_1(&format!("the built-in lessons were not read: {e}").into());
            ls.built_in.set(BuiltInLessons::Failed(e));
        }
    }
}

/// Saves the progress whenever it or the language changes (once the saved state was read, so it
/// is never overwritten by the empty start).
pub fn save_on_change(app: AppState, ls: LessonState) {
    Effect::new(move |_| {
        let lang = app.lang.get();
        let mut progress = ls.progress.get();
        if !ls.restored.get() {
            return;
        }
        progress.lang = lang;
        progress.transcript = app.entries.with(|e| super::transcript::to_save(e));
        let json = progress.to_json();
        if let Some(store) = ls.store.get_value() {
            leptos::task::spawn_local(async move {
                if let Err(e) = store.save(&json).await {
                    web_sys::console::warn_1(&format!("lesson progress not saved: {e}").into());
                }
            });
        }
    });
}

/// Opens lesson `index` at page `page`: loads its dataset into a fresh engine (replaying the steps
/// before `page`, so the data is what those steps made of it).
pub async fn open_lesson(app: AppState, ls: LessonState, index: usize, page: usize) {
    let Some(lesson) = ls.lesson(index) else {
        return;
    };
    let page = Page::at(&lesson, page).index(&lesson);
    ls.open.set(Some(index));
    ls.page.set(page);
    ls.runs.set(HashMap::new());
    ls.checks.set(HashMap::new());
    ls.data_reset.set(false);
    ls.progress.update(|p| {
        p.current = Some(lesson.id.clone());
        p.page = page;
    });
    let replay = match Page::at(&lesson, page) {
        Page::Intro => 0,
        Page::Step(i) => i,
        Page::Exercise(_) => lesson.steps.len(),
    };
    load_data(app, ls, &lesson, replay).await;
}

/// Loads the lesson's dataset into a fresh engine and runs its first `replay` steps silently.
async fn load_data(app: AppState, ls: LessonState, lesson: &Lesson, replay: usize) {
    ls.working.set(true);
    ls.data_note.set(None);
    let body = RequestBody::OpenLesson {
        lesson: lesson.id.clone(),
        replay,
    };
    // A worker that is replaced (Stop, out of memory) reopens the lesson rather than coming back
    // with the playground's data.
    engine_client::set_session(Some(body.clone()));
    let outcome = engine_client::request(body).await;
    if !outcome.is_error {
        crate::page::push_note(
            app,
            crate::page::ConsoleNote::LessonData(outcome.output.clone()),
        );
    }
    ls.data_note.set(Some((outcome.output, outcome.is_error)));
    refresh(app);
    ls.working.set(false);
}

/// Reloads the open lesson's dataset (the exercise's "Reset").
pub async fn reset_data(app: AppState, ls: LessonState) {
    if let Some(lesson) = ls.current() {
        load_data(app, ls, &lesson, 0).await;
        ls.runs.set(HashMap::new());
        ls.data_reset.set(true);
    }
}

/// Back to the free playground: the data kept in IndexedDB.
pub async fn close_lesson(app: AppState, ls: LessonState) {
    ls.open.set(None);
    ls.progress.update(|p| {
        p.current = None;
        p.page = 0;
    });
    ls.working.set(true);
    engine_client::set_session(None);
    let _ = engine_client::request(RequestBody::CloseLesson).await;
    crate::page::push_note(app, crate::page::ConsoleNote::PlaygroundData);
    refresh(app);
    ls.working.set(false);
}

/// Moves to page `page` of the open lesson.
pub fn go_to(ls: LessonState, page: usize) {
    let Some(lesson) = ls.current() else { return };
    let page = Page::at(&lesson, page).index(&lesson);
    ls.page.set(page);
    ls.progress.update(|p| p.page = page);
}

/// "Run this step": the command goes into the editor and runs in the console; its output is
/// compared with the lesson.
pub async fn run_step(app: AppState, ls: LessonState, step: usize) {
    let Some(lesson) = ls.current() else { return };
    let Some(s) = lesson.steps.get(step) else {
        return;
    };
    let outcome = run_in_console(app, s.command.clone()).await;
    // The step stays in the editor, to be changed and run again.
    app.editor_text.set(s.command.clone());
    let verdict = judge(s, &outcome.output, outcome.is_error, explain_of(&outcome));
    let matched = verdict.matched();
    ls.runs.update(|r| {
        r.insert(
            step,
            StepRun {
                verdict,
                is_error: outcome.is_error,
            },
        );
    });
    ls.progress
        .update(|p| p.step_ran(&lesson.id, step, matched));
}

/// "Check": the answer runs in a fresh copy of the lesson's data in the worker.
pub async fn check_answer(ls: LessonState, exercise: usize, answer: String) {
    let Some(lesson) = ls.current() else { return };
    ls.working.set(true);
    let outcome = engine_client::request(RequestBody::CheckExercise {
        lesson: lesson.id.clone(),
        exercise,
        answer,
    })
    .await;
    let passed = !outcome.is_error;
    ls.checks.update(|c| {
        c.insert(
            exercise,
            Checked {
                passed,
                comparison: match &outcome.result {
                    Some(StructuredResult::Document { doc }) => {
                        crate::protocol::feedback::from_json(doc)
                    }
                    _ => None,
                },
                message: outcome.output,
            },
        );
    });
    if passed {
        ls.progress
            .update(|p| p.exercise_solved(&lesson.id, exercise));
    }
    ls.working.set(false);
}

/// The run's plan tree when it is an explain reply.
fn explain_of(outcome: &engine_client::Outcome) -> Option<&lessons::ExplainPlan> {
    match &outcome.result {
        Some(StructuredResult::Explain { plan, .. }) => Some(plan),
        _ => None,
    }
}

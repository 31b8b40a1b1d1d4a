//! The embedded page's side of the conversation with the host page (`static/embed.js`), over
//! `postMessage`. Every message is a plain object with a `sprout` field naming it:
//!
//! - host → here: `{sprout: "run", id, input}` runs shell input (shown in the console when there
//!   is one); `{sprout: "load", id, name}` or `{sprout: "load", id, name, json}` loads a dataset
//!   (a lesson dataset's name, or the text of a dataset file the host fetched from its own
//!   origin); `{sprout: "lesson", id, file, markdown}` defines a lesson and opens it.
//! - here → host: `{sprout: "ready", database}` once the shell has started; `{sprout: "done", id,
//!   output, isError, result, error}` answering a request; `{sprout: "ran", input, output,
//!   isError, result}` after each command the learner runs in the console; `{sprout: "solved",
//!   lesson, exercise}` when an exercise answer passes.
//!
//! Only messages from the window that embeds this page are taken. Replies go to the origin that
//! asked; events go to the origin of the host's first message (or to any origin before one
//! arrives, for `ready`, which carries nothing about the data).

use std::cell::RefCell;

use leptos::prelude::*;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

use super::dataset_input::insert_inputs;
use super::params::View;
use crate::page::engine_client::{self, Outcome};
use crate::page::lessons::session::{LessonState, open_lesson};
use crate::page::{AppState, ConsoleNote, push_note, refresh, run_in_console};

thread_local! {
    /// The host page's origin, from its first message.
    static HOST_ORIGIN: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Posts `message` (JSON) to the embedding window.
pub fn post(message: &serde_json::Value) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Ok(Some(parent)) = window.parent() else {
        return;
    };
    if js_sys::Object::is(&parent, &window) {
        return;
    }
    let target = HOST_ORIGIN.with(|o| o.borrow().clone());
    let Ok(value) = js_sys::JSON::parse(&message.to_string()) else {
        return;
    };
    let _ = parent.post_message(&value, target.as_deref().unwrap_or("*"));
}

/// The answer to a request, as the host sees it.
pub fn done_message(id: f64, outcome: &Outcome) -> serde_json::Value {
    serde_json::json!({
        "sprout": "done",
        "id": id,
        "output": outcome.output,
        "isError": outcome.is_error,
        "result": outcome.result,
        "error": outcome.error,
    })
}

/// Listens to the host page's requests.
pub fn listen(app: AppState, ls: LessonState, view: View) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let handler =
        Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |event: web_sys::MessageEvent| {
            let Some(window) = web_sys::window() else {
                return;
            };
            let from_parent = match (event.source(), window.parent()) {
                (Some(source), Ok(Some(parent))) => js_sys::Object::is(&source, &parent),
                _ => false,
            };
            if !from_parent {
                return;
            }
            let data = event.data();
            let field = |name: &str| js_sys::Reflect::get(&data, &JsValue::from_str(name)).ok();
            let text = |name: &str| field(name).and_then(|v| v.as_string());
            let Some(kind) = text("sprout") else {
                return;
            };
            HOST_ORIGIN.with(|o| {
                o.borrow_mut().get_or_insert_with(|| event.origin());
            });
            let id = field("id").and_then(|v| v.as_f64()).unwrap_or(0.0);
            let view = view.clone();
            match kind.as_str() {
                "run" => {
                    let input = text("input").unwrap_or_default();
                    leptos::task::spawn_local(async move {
                        let outcome = if view == View::Bridge {
                            let outcome = engine_client::run(&input).await;
                            refresh(app);
                            outcome
                        } else {
                            run_in_console(app, input).await
                        };
                        post(&done_message(id, &outcome));
                    });
                }
                "load" => {
                    let name = text("name").unwrap_or_default();
                    let json = text("json");
                    leptos::task::spawn_local(async move {
                        let outcome = load_dataset(app, &view, &name, json.as_deref()).await;
                        post(&done_message(id, &outcome));
                    });
                }
                "lesson" => {
                    let file = text("file").unwrap_or_else(|| "lesson.md".into());
                    let markdown = text("markdown").unwrap_or_default();
                    leptos::task::spawn_local(async move {
                        let outcome = define_and_open(app, ls, &file, &markdown).await;
                        post(&done_message(id, &outcome));
                    });
                }
                _ => {}
            }
        });
    let _ = window.add_event_listener_with_callback("message", handler.as_ref().unchecked_ref());
    handler.forget();
}

/// Loads a dataset (a lesson dataset by `name`, or the dataset file's text) through the shell,
/// and says what it loaded.
pub async fn load_dataset(app: AppState, view: &View, name: &str, json: Option<&str>) -> Outcome {
    let parsed = match json {
        Some(text) => lesson_runner::parse_dataset(name, text),
        None => lesson_runner::dataset(name),
    };
    let dataset = match parsed {
        Ok(d) => d,
        Err(e) => return failed(e),
    };
    for input in insert_inputs(&dataset) {
        let outcome = engine_client::run(&input).await;
        if outcome.is_error {
            return failed(format!("dataset {name}: {}", outcome.output));
        }
    }
    let loaded: Vec<String> = dataset
        .collections
        .iter()
        .map(|(c, docs)| format!("{}.{c} ({})", dataset.db, docs.len()))
        .collect();
    let line = format!("dataset {name}: {}", loaded.join(", "));
    refresh(app);
    if *view != View::Bridge {
        push_note(app, ConsoleNote::Storage(line.clone()));
    }
    Outcome {
        output: line,
        is_error: false,
        result: None,
        error: None,
        ..Default::default()
    }
}

/// Defines a course author's lesson in the worker and opens it at its introduction. A lesson
/// that does not parse is refused with the error naming the line (`file:line: message`).
pub async fn define_and_open(
    app: AppState,
    ls: LessonState,
    file: &str,
    markdown: &str,
) -> Outcome {
    let lesson = match lessons::parse_lesson(file, markdown) {
        Ok(lesson) => lesson,
        Err(e) => return failed(e.to_string()),
    };
    let defined = engine_client::request(crate::protocol::RequestBody::DefineLesson {
        file: file.to_string(),
        markdown: markdown.to_string(),
    })
    .await;
    if defined.is_error {
        return defined;
    }
    let id = lesson.id.clone();
    let index = ls.lessons.try_update(|lessons| {
        lessons.retain(|l| l.id != id);
        lessons.push(lesson);
        lessons.len() - 1
    });
    if let Some(index) = index {
        open_lesson(app, ls, index, 0).await;
    }
    defined
}

fn failed(message: String) -> Outcome {
    Outcome {
        output: message,
        is_error: true,
        result: None,
        error: None,
        ..Default::default()
    }
}

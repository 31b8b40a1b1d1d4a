//! The command editor: a multi-line text area over a syntax-coloured copy of its text (the
//! text area's own text is transparent, so the caret and selection stay native), with the
//! bracket at the cursor and its partner marked, a completion popup, and the history.
//!
//! Keys: Ctrl+Enter (Cmd+Enter) runs; Enter runs a one-line statement that is complete (as in
//! mongosh) and otherwise starts a new line; Shift+Enter always starts one; ↑ on the first
//! line and ↓ on the last walk the history; Tab or Ctrl+Space completes; in the popup ↑/↓
//! choose, Tab or Enter accepts, Esc closes. Esc outside the popup lets the next Tab leave the
//! editor (WCAG 2.1.2, no keyboard trap: Tab otherwise indents or completes). While a command
//! runs, the button stops it.

use leptos::html::Textarea;
use leptos::prelude::*;

use crate::page::completion::{Completion, Vocabulary, complete};
use crate::page::history::History;
use crate::page::syntax::{TokenKind, is_complete, matching_bracket, tokenize};
use crate::page::{AppState, Entry, engine_client, run_in_console};
use crate::protocol::StructuredResult;
use crate::protocol::doc_text::field_paths;

#[component]
pub fn Editor() -> impl IntoView {
    let state = expect_context::<AppState>();
    // Shared with the lesson pane, whose "Run this step" puts its command here.
    let text = state.editor_text;
    // The cursor as a byte offset into `text`.
    let cursor = RwSignal::new(0usize);
    let popup = RwSignal::new(None::<Completion>);
    // Escape was the last key: Tab now moves the focus on instead of indenting.
    let tab_leaves = RwSignal::new(false);
    let chosen = RwSignal::new(0usize);
    let history = StoredValue::new(History::load());
    let area = NodeRef::<Textarea>::new();
    let layer = NodeRef::<leptos::html::Pre>::new();

    let run = move || {
        let input = text.get_untracked();
        // Before the shell is ready the command waits in the worker and runs as soon as it is.
        if input.trim().is_empty() || state.busy.get_untracked() {
            return;
        }
        popup.set(None);
        history.update_value(|h| {
            h.push(&input);
            h.save();
        });
        leptos::task::spawn_local(async move {
            let outcome = run_in_console(state, input).await;
            if !outcome.is_error {
                cursor.set(0);
            }
        });
    };
    // A command that runs too long (a catastrophic regular expression, a huge sort) is stopped
    // by replacing the shell worker; the page itself never blocks.
    let stop = move |_| {
        if state.busy.get_untracked() {
            engine_client::interrupt();
        }
    };
    // Replaces the editor's text and puts the caret at byte offset `at`.
    let set_text = move |value: String, at: usize| {
        let at = at.min(value.len());
        if let Some(el) = area.get_untracked() {
            el.set_value(&value);
            let at16 = utf16_offset(&value, at);
            let _ = el.set_selection_range(at16, at16);
        }
        text.set(value);
        cursor.set(at);
    };
    let vocabulary_completion = move |input: &str, at: usize| {
        let db = state.current_db.get_untracked();
        let collections: Vec<String> = state
            .collections
            .get_untracked()
            .into_iter()
            .filter(|c| c.db == db)
            .map(|c| c.name)
            .collect();
        // The fields of the collection the input names first, then those of the database's
        // other collections and of recent results.
        let named = named_collection(&input[..at.min(input.len())]);
        let mut fields: Vec<String> = Vec::new();
        state.collections.with_untracked(|all| {
            let mine = all.iter().filter(|c| c.db == db);
            let (first, rest): (Vec<_>, Vec<_>) =
                mine.partition(|c| Some(c.name.as_str()) == named.as_deref());
            for c in first.into_iter().chain(rest) {
                for f in &c.fields {
                    if !fields.contains(f) {
                        fields.push(f.clone());
                    }
                }
            }
        });
        for f in state.entries.with_untracked(|entries| seen_fields(entries)) {
            if !fields.contains(&f) {
                fields.push(f);
            }
        }
        complete(
            input,
            at,
            Vocabulary {
                collections: &collections,
                fields: &fields,
            },
        )
    };
    let accept = move |c: &Completion, index: usize| {
        let Some(candidate) = c.candidates.get(index) else {
            return;
        };
        let current = text.get_untracked();
        let at = cursor.get_untracked().min(current.len());
        let start = c.start.min(at);
        let value = format!("{}{candidate}{}", &current[..start], &current[at..]);
        set_text(value, start + candidate.len());
        popup.set(None);
    };
    let read_cursor = move || {
        if let Some(el) = area.get_untracked() {
            let value = el.value();
            let at16 = el.selection_start().ok().flatten().unwrap_or(0);
            cursor.set(byte_offset(&value, at16));
        }
    };
    let on_input = move |ev: leptos::ev::Event| {
        let value = event_target_value(&ev);
        text.set(value.clone());
        read_cursor();
        let at = cursor.get_untracked();
        // Typing opens the popup for a word being typed (or after a dot); field names at an
        // empty position (`find({`) wait for Tab or Ctrl+Space, so Enter still starts a line.
        let found = vocabulary_completion(&value, at).filter(|c| {
            c.start < at || value.get(..at).is_some_and(|before| before.ends_with('.'))
        });
        chosen.set(0);
        popup.set(found);
    };
    let on_keydown = move |ev: web_sys::KeyboardEvent| {
        let key = ev.key();
        let modifier = ev.ctrl_key() || ev.meta_key();
        if tab_leaves.get_untracked() && key == "Tab" {
            // The browser moves the focus (Shift+Tab backwards).
            tab_leaves.set(false);
            return;
        }
        if !matches!(key.as_str(), "Shift" | "Escape") {
            tab_leaves.set(false);
        }
        if let Some(open) = popup.get_untracked() {
            match key.as_str() {
                "ArrowDown" => {
                    ev.prevent_default();
                    chosen.update(|i| *i = (*i + 1) % open.candidates.len());
                    return;
                }
                "ArrowUp" => {
                    ev.prevent_default();
                    let n = open.candidates.len();
                    chosen.update(|i| *i = (*i + n - 1) % n);
                    return;
                }
                "Tab" => {
                    ev.prevent_default();
                    accept(&open, chosen.get_untracked());
                    return;
                }
                "Enter" if !modifier && !ev.shift_key() => {
                    ev.prevent_default();
                    accept(&open, chosen.get_untracked());
                    return;
                }
                "Escape" => {
                    ev.prevent_default();
                    popup.set(None);
                    return;
                }
                _ => popup.set(None),
            }
        }
        let current = text.get_untracked();
        let at = cursor.get_untracked().min(current.len());
        match key.as_str() {
            "Enter" if modifier => {
                ev.prevent_default();
                run();
            }
            "Enter" if !ev.shift_key() && !current.contains('\n') && is_complete(&current) => {
                ev.prevent_default();
                run();
            }
            "ArrowUp" if !modifier && !current[..at].contains('\n') => {
                if let Some(previous) = history.try_update_value(|h| h.back(&current)).flatten() {
                    ev.prevent_default();
                    let end = previous.len();
                    set_text(previous, end);
                }
            }
            "ArrowDown" if !modifier && !current[at..].contains('\n') => {
                if let Some(next) = history.try_update_value(|h| h.forward()).flatten() {
                    ev.prevent_default();
                    let end = next.len();
                    set_text(next, end);
                }
            }
            "Tab" if !modifier && !ev.shift_key() => {
                ev.prevent_default();
                match vocabulary_completion(&current, at) {
                    Some(c) if c.candidates.len() == 1 => accept(&c, 0),
                    Some(c) => {
                        chosen.set(0);
                        popup.set(Some(c));
                    }
                    None => set_text(format!("{}  {}", &current[..at], &current[at..]), at + 2),
                }
            }
            "Escape" => tab_leaves.set(true),
            " " if ev.ctrl_key() => {
                ev.prevent_default();
                chosen.set(0);
                popup.set(vocabulary_completion(&current, at));
            }
            _ => {}
        }
    };
    let on_scroll = move |_| {
        if let (Some(a), Some(p)) = (area.get_untracked(), layer.get_untracked()) {
            p.set_scroll_top(a.scroll_top());
            p.set_scroll_left(a.scroll_left());
        }
    };
    let highlighted = move || {
        let value = text.get();
        let pair = matching_bracket(&value, cursor.get().min(value.len()));
        coloured(&value, pair)
    };
    let completion_popup = move || {
        popup.get().map(|c| {
            let value = text.get_untracked();
            let before = &value[..c.start.min(value.len())];
            let line = before.matches('\n').count();
            let column = before.rsplit('\n').next().unwrap_or("").chars().count();
            let style = format!(
                "left: calc(var(--editor-pad-x) + {column}ch); \
                 bottom: calc(100% - var(--editor-pad-y) - {line} * var(--editor-line))"
            );
            let items = c
                .candidates
                .iter()
                .enumerate()
                .map(|(i, candidate)| {
                    let c2 = c.clone();
                    view! {
                        <li
                            class:chosen=move || chosen.get() == i
                            on:mousedown=move |ev| {
                                ev.prevent_default();
                                accept(&c2, i);
                            }
                        >
                            {candidate.clone()}
                        </li>
                    }
                })
                .collect_view();
            view! { <ul class="completion" data-testid="completion" style=style>{items}</ul> }
        })
    };
    // Inside a lesson the example is the open step's command (the first step's on other pages),
    // not the playground's.
    let ls = expect_context::<crate::page::lessons::session::LessonState>();
    let placeholder = move || {
        ls.current_page()
            .and_then(|(lesson, page)| {
                let step = match page {
                    crate::page::lessons::library::Page::Step(i) => i,
                    _ => 0,
                };
                lesson.steps.get(step).map(|s| s.command.clone())
            })
            .unwrap_or_else(|| "db.products.insertOne({name: \"Product 1\", price: 10})".into())
    };
    view! {
        <div class="editor">
            <span class="prompt" data-testid="prompt">
                {move || crate::protocol::prompt_text(&state.prompt_prefix.get(), &state.current_db.get())}
            </span>
            <div class="code-input">
                <pre class="highlight" aria-hidden="true" node_ref=layer>{highlighted}</pre>
                <textarea
                    data-testid="editor"
                    node_ref=area
                    spellcheck="false"
                    autocomplete="off"
                    rows="4"
                    aria-label=move || crate::page::i18n::tr(state.lang.get(), "Command")
                    aria-describedby="editor-keys"
                    placeholder=placeholder
                    prop:value=move || text.get()
                    on:input=on_input
                    on:keydown=on_keydown
                    on:keyup=move |_| read_cursor()
                    on:click=move |_| read_cursor()
                    on:blur=move |_| popup.set(None)
                    on:scroll=on_scroll
                ></textarea>
                {completion_popup}
                <span id="editor-keys" class="sr-only">
                    {move || crate::page::i18n::tr(state.lang.get(), "Esc, then Tab, leaves the editor.")}
                </span>
            </div>
            <Show
                when=move || state.busy.get()
                fallback=move || view! {
                    <button data-testid="run" on:click=move |_| run()>
                        {move || crate::page::i18n::tr(state.lang.get(), "Run")}
                        <span class="kbd-hint" aria-hidden="true">" ⌃⏎"</span>
                    </button>
                }
            >
                <button
                    data-testid="stop"
                    class="stop"
                    on:click=stop
                    title=move || crate::page::i18n::tr(state.lang.get(), "Stop the running command")
                >
                    {move || format!("{} ■", crate::page::i18n::tr(state.lang.get(), "Stop"))}
                </button>
            </Show>
        </div>
    }
}

/// The text as coloured spans; the bracket pair at the cursor is marked.
fn coloured(value: &str, pair: Option<(usize, usize)>) -> impl IntoView + use<> {
    let spans = tokenize(value)
        .into_iter()
        .map(|t| {
            let piece = value[t.start..t.end].to_string();
            let matched = t.kind == TokenKind::Bracket
                && pair.is_some_and(|(a, b)| t.start == a || t.start == b);
            let class = if matched {
                format!("{} bracket-match", t.kind.class())
            } else {
                t.kind.class().to_string()
            };
            view! { <span class=class>{piece}</span> }
        })
        .collect_view();
    // A trailing newline needs a character after it to take up its line.
    view! { {spans}"\n " }
}

/// The collection named by the last `db.<name>.` before the cursor.
fn named_collection(before: &str) -> Option<String> {
    let at = before.rfind("db.")?;
    let rest = &before[at + 3..];
    let name: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty() && rest[name.len()..].starts_with('.')).then_some(name)
}

/// Field paths in the most recent results, for completion.
fn seen_fields(entries: &[Entry]) -> Vec<String> {
    let mut out = Vec::new();
    for e in entries.iter().rev().take(30) {
        match &e.result {
            Some(StructuredResult::Documents { docs, .. }) => field_paths(docs, &mut out),
            Some(StructuredResult::Document { doc }) => {
                field_paths(std::slice::from_ref(doc), &mut out)
            }
            _ => {}
        }
    }
    out
}

/// The byte offset of a UTF-16 offset (the DOM's selection unit) in `s`.
fn byte_offset(s: &str, utf16: u32) -> usize {
    let mut units = 0u32;
    for (i, c) in s.char_indices() {
        if units >= utf16 {
            return i;
        }
        units += c.len_utf16() as u32;
    }
    s.len()
}

/// The UTF-16 offset of byte offset `at` in `s`.
fn utf16_offset(s: &str, at: usize) -> u32 {
    s[..at].chars().map(|c| c.len_utf16() as u32).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_convert_between_utf16_and_bytes() {
        let s = "a😀é";
        assert_eq!(byte_offset(s, 0), 0);
        assert_eq!(byte_offset(s, 1), 1);
        assert_eq!(byte_offset(s, 3), 5);
        assert_eq!(byte_offset(s, 4), 7);
        assert_eq!(byte_offset(s, 9), 7);
        assert_eq!(utf16_offset(s, 5), 3);
    }
}

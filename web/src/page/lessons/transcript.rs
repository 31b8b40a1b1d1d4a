//! The console's transcript, kept with the lesson progress so that it survives a reload: the
//! last commands with their text output (no structured views), bounded in size. Restored
//! entries are drawn apart (class `past-entry`, not `entry`), as the earlier visit's.

use serde::{Deserialize, Serialize};

use crate::page::Entry;

/// Commands kept at most.
pub const KEPT_ENTRIES: usize = 30;
/// Characters of one command's output kept at most (the rest is cut with a note).
pub const KEPT_OUTPUT_CHARS: usize = 4_000;

/// One command of the transcript.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SavedEntry {
    pub input: String,
    pub output: String,
    #[serde(default)]
    pub is_error: bool,
}

/// The commands of `entries` to keep (console notes are not kept).
pub fn to_save(entries: &[Entry]) -> Vec<SavedEntry> {
    let commands: Vec<&Entry> = entries.iter().filter(|e| e.note.is_none()).collect();
    let start = commands.len().saturating_sub(KEPT_ENTRIES);
    commands[start..]
        .iter()
        .map(|e| SavedEntry {
            input: e.input.clone(),
            output: bounded(&e.output),
            is_error: e.is_error,
        })
        .collect()
}

/// The console entries of a saved transcript, numbered from 0.
pub fn restored(saved: &[SavedEntry]) -> Vec<Entry> {
    saved
        .iter()
        .enumerate()
        .map(|(id, s)| Entry {
            id,
            input: s.input.clone(),
            output: s.output.clone(),
            is_error: s.is_error,
            result: None,
            error: None,
            note: None,
            hints: Vec::new(),
            stages: Vec::new(),
            restored: true,
        })
        .collect()
}

fn bounded(output: &str) -> String {
    match output.char_indices().nth(KEPT_OUTPUT_CHARS) {
        Some((cut, _)) => format!(
            "{}\n… (cut: the rest was not kept over the reload)",
            &output[..cut]
        ),
        None => output.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(id: usize, input: &str, note: bool) -> Entry {
        Entry {
            id,
            input: input.into(),
            output: "x".repeat(KEPT_OUTPUT_CHARS + 10),
            is_error: false,
            result: None,
            error: None,
            note: note.then_some(crate::page::ConsoleNote::PlaygroundData),
            hints: Vec::new(),
            stages: Vec::new(),
            restored: false,
        }
    }

    #[test]
    fn the_transcript_is_bounded_and_skips_notes() {
        let entries: Vec<Entry> = (0..KEPT_ENTRIES + 5)
            .map(|i| entry(i, &format!("cmd{i}"), i == KEPT_ENTRIES + 4))
            .collect();
        let saved = to_save(&entries);
        assert_eq!(saved.len(), KEPT_ENTRIES);
        assert_eq!(saved[0].input, "cmd4");
        assert!(saved[0].output.ends_with("not kept over the reload)"));
        let back = restored(&saved);
        assert_eq!(back.len(), KEPT_ENTRIES);
        assert_eq!(back[3].id, 3);
        assert!(back.iter().all(|e| e.restored));
    }
}

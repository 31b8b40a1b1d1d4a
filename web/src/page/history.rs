//! The editor's command history: ↑/↓ walk through earlier inputs; kept in localStorage so it
//! survives a reload. The walk itself is pure logic (tested natively); only `load`/`save`
//! touch the browser.

const KEY: &str = "sprout-history";
/// The most inputs kept.
const LIMIT: usize = 200;

/// Earlier inputs, oldest first, and where the ↑/↓ walk is.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct History {
    entries: Vec<String>,
    /// Index into `entries` while walking; `None` when editing a new input.
    position: Option<usize>,
    /// What was in the editor when the walk started (↓ past the newest brings it back).
    draft: String,
}

impl History {
    pub fn new(entries: Vec<String>) -> History {
        History {
            entries,
            position: None,
            draft: String::new(),
        }
    }

    pub fn entries(&self) -> &[String] {
        &self.entries
    }

    /// Records a run input (not a repeat of the newest) and ends any walk.
    pub fn push(&mut self, input: &str) {
        self.position = None;
        if input.trim().is_empty() || self.entries.last().is_some_and(|l| l == input) {
            return;
        }
        self.entries.push(input.to_string());
        if self.entries.len() > LIMIT {
            self.entries.remove(0);
        }
    }

    /// ↑: the previous input, given what the editor holds now; `None` at the oldest.
    pub fn back(&mut self, current: &str) -> Option<String> {
        let next = match self.position {
            None => {
                self.draft = current.to_string();
                self.entries.len().checked_sub(1)?
            }
            Some(0) => return None,
            Some(p) => p - 1,
        };
        self.position = Some(next);
        Some(self.entries[next].clone())
    }

    /// ↓: the next input, or the draft after the newest; `None` when not walking.
    pub fn forward(&mut self) -> Option<String> {
        let p = self.position?;
        if p + 1 < self.entries.len() {
            self.position = Some(p + 1);
            Some(self.entries[p + 1].clone())
        } else {
            self.position = None;
            Some(std::mem::take(&mut self.draft))
        }
    }

    /// The history saved in this browser.
    pub fn load() -> History {
        let saved = storage()
            .and_then(|s| s.get_item(KEY).ok().flatten())
            .and_then(|text| serde_json::from_str::<Vec<String>>(&text).ok())
            .unwrap_or_default();
        History::new(saved)
    }

    pub fn save(&self) {
        if let (Some(s), Ok(text)) = (storage(), serde_json::to_string(&self.entries)) {
            let _ = s.set_item(KEY, &text);
        }
    }
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn up_and_down_walk_the_inputs_and_return_to_the_draft() {
        let mut h = History::default();
        h.push("a");
        h.push("b");
        h.push("b");
        h.push("  ");
        assert_eq!(h.entries(), ["a", "b"]);
        assert_eq!(h.back("dra").as_deref(), Some("b"));
        assert_eq!(h.back("b").as_deref(), Some("a"));
        assert_eq!(h.back("a"), None);
        assert_eq!(h.forward().as_deref(), Some("b"));
        assert_eq!(h.forward().as_deref(), Some("dra"));
        assert_eq!(h.forward(), None);
    }

    #[test]
    fn an_empty_history_has_nothing_to_show() {
        let mut h = History::default();
        assert_eq!(h.back(""), None);
        assert_eq!(h.forward(), None);
    }

    #[test]
    fn the_oldest_inputs_go_first() {
        let mut h = History::default();
        for i in 0..LIMIT + 5 {
            h.push(&i.to_string());
        }
        assert_eq!(h.entries().len(), LIMIT);
        assert_eq!(h.entries()[0], "5");
    }
}

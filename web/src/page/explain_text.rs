//! The text view of an explain reply without its `serverParameters` and `command` fields
//! (about a dozen lines a learner rarely needs); the explain view shows them behind a toggle.
//! Works on mongosh's printed text: a top-level field starts on a line indented by two spaces
//! and runs until the next line at that indentation or the closing brace.

/// The fields the text view hides until asked.
pub const HIDDEN: [&str; 2] = ["serverParameters", "command"];

/// `text` without the top-level fields named in `hidden`; `None` when none of them is there.
pub fn without_fields(text: &str, hidden: &[&str]) -> Option<String> {
    let mut kept = Vec::new();
    let mut skipping = false;
    let mut removed = false;
    for line in text.lines() {
        let top_level = line.starts_with("  ") && !line.starts_with("   ");
        if top_level && line.trim_start().starts_with(['}', ']']) {
            // The closing bracket of a multi-line field: part of the field.
            if skipping {
                skipping = false;
                continue;
            }
        } else if top_level {
            let field = line.trim_start().split(':').next().unwrap_or("");
            skipping = hidden.contains(&field);
            if skipping {
                removed = true;
                continue;
            }
        } else if !line.starts_with("  ") {
            // The closing brace of the reply.
            skipping = false;
        }
        if !skipping {
            kept.push(line);
        }
    }
    if !removed {
        return None;
    }
    // The field before a removed last field keeps its trailing comma; mongosh prints none there.
    if let Some(last) = kept.len().checked_sub(2)
        && kept.last() == Some(&"}")
        && let Some(stripped) = kept[last].strip_suffix(',')
    {
        kept[last] = stripped;
    }
    Some(kept.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_parameters_and_command_are_left_out() {
        let text = "{\n  explainVersion: '1',\n  queryPlanner: {\n    namespace: 'test.p'\n  },\n  command: { find: 'p', filter: {}, '$db': 'test' },\n  serverParameters: {\n    internalQueryFacetBufferSizeBytes: 104857600\n  },\n  ok: 1\n}";
        let shown = without_fields(text, &HIDDEN).unwrap();
        assert_eq!(
            shown,
            "{\n  explainVersion: '1',\n  queryPlanner: {\n    namespace: 'test.p'\n  },\n  ok: 1\n}"
        );
        let last = "{\n  ok: 1,\n  serverParameters: {\n    a: 1\n  }\n}";
        assert_eq!(without_fields(last, &HIDDEN).unwrap(), "{\n  ok: 1\n}");
        assert_eq!(without_fields("{\n  ok: 1\n}", &HIDDEN), None);
    }
}

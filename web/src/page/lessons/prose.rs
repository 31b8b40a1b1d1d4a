//! Lesson prose as the page shows it. Lessons are written in a small part of Markdown: paragraphs
//! separated by blank lines, `code` and *emphasis*. Lines of one paragraph are joined with a
//! space, except next to Chinese text, which has no spaces between words.

/// A piece of a paragraph.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Inline {
    Text(String),
    Code(String),
    Emphasis(String),
}

/// The paragraphs of `text`, each a list of pieces.
pub fn paragraphs(text: &str) -> Vec<Vec<Inline>> {
    let mut out = Vec::new();
    let mut current = String::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() {
            if !current.is_empty() {
                out.push(inlines(&std::mem::take(&mut current)));
            }
            continue;
        }
        if !(current.is_empty() || ends_wide(&current) || starts_wide(line)) {
            current.push(' ');
        }
        current.push_str(line);
    }
    if !current.is_empty() {
        out.push(inlines(&current));
    }
    out
}

/// Splits one paragraph into text, `code` and *emphasis*. An unmatched marker is kept as text.
pub fn inlines(paragraph: &str) -> Vec<Inline> {
    let mut out = Vec::new();
    let mut text = String::new();
    let mut rest = paragraph;
    while let Some(at) = rest.find(['`', '*']) {
        let marker = &rest[at..at + 1];
        let after = &rest[at + 1..];
        let Some(end) = after.find(marker).filter(|&e| e > 0) else {
            text.push_str(&rest[..at + 1]);
            rest = after;
            continue;
        };
        text.push_str(&rest[..at]);
        if !text.is_empty() {
            out.push(Inline::Text(std::mem::take(&mut text)));
        }
        let inner = after[..end].to_string();
        out.push(if marker == "`" {
            Inline::Code(inner)
        } else {
            Inline::Emphasis(inner)
        });
        rest = &after[end + 1..];
    }
    text.push_str(rest);
    if !text.is_empty() {
        out.push(Inline::Text(text));
    }
    out
}

/// Whether a character belongs to a script written without spaces (CJK ideographs and their
/// punctuation, full-width forms).
fn is_wide(c: char) -> bool {
    matches!(c as u32,
        0x2E80..=0x9FFF | 0xF900..=0xFAFF | 0xFE30..=0xFE4F | 0xFF00..=0xFFEF | 0x20000..=0x2FFFF)
}

fn ends_wide(s: &str) -> bool {
    s.chars().next_back().is_some_and(is_wide)
}

fn starts_wide(s: &str) -> bool {
    s.chars().next().is_some_and(is_wide)
}

#[cfg(test)]
mod tests {
    use super::Inline::*;
    use super::*;

    #[test]
    fn code_and_emphasis_are_picked_out() {
        assert_eq!(
            inlines("an index on `price` is *multikey* when 2*3 `x"),
            vec![
                Text("an index on ".into()),
                Code("price".into()),
                Text(" is ".into()),
                Emphasis("multikey".into()),
                Text(" when 2*3 `x".into()),
            ]
        );
        // An operator inside code keeps its asterisks and dollars.
        assert_eq!(
            inlines("`{$mul: {a: 2}}`"),
            vec![Code("{$mul: {a: 2}}".into())]
        );
    }

    #[test]
    fn lines_join_with_spaces_except_next_to_chinese() {
        let p = paragraphs("one\ntwo\n\n三个值得盯住的数字：\n返回了多少文档\n\n");
        assert_eq!(
            p,
            vec![
                vec![Text("one two".into())],
                vec![Text("三个值得盯住的数字：返回了多少文档".into())],
            ]
        );
    }
}

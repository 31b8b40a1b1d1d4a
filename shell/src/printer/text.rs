//! String measures as JavaScript sees them: lengths in UTF-16 code units (`str.length`), the
//! column width Node's `getStringWidth` gives (wide East Asian characters count two), and
//! `str.slice(0, n)` on UTF-16 units, which can leave half of a surrogate pair.

/// `str.length` in JavaScript.
pub fn utf16_len(s: &str) -> usize {
    s.chars().map(char::len_utf16).sum()
}

/// The columns a terminal gives `s`, as Node's `getStringWidth` counts them (without removing
/// ANSI colour codes, which Sprout never emits). Wide and full-width characters count two,
/// control and combining characters zero. Node's ICU build measures a few rare characters
/// (emoji sequences, ambiguous widths) differently; this is its documented fallback table.
pub fn display_width(s: &str) -> usize {
    s.chars()
        .map(|c| {
            let code = c as u32;
            if is_zero_width(code) {
                0
            } else if is_full_width(code) {
                2
            } else {
                1
            }
        })
        .sum()
}

fn is_zero_width(code: u32) -> bool {
    code <= 0x1F
        || (0x7F..=0x9F).contains(&code)
        || (0x300..=0x36F).contains(&code)
        || (0x200B..=0x200F).contains(&code)
        || (0x20D0..=0x20FF).contains(&code)
        || (0xFE00..=0xFE0F).contains(&code)
        || (0xFE20..=0xFE2F).contains(&code)
        || (0xE0100..=0xE01EF).contains(&code)
}

fn is_full_width(code: u32) -> bool {
    code >= 0x1100
        && (code <= 0x115F
            || code == 0x2329
            || code == 0x232A
            || ((0x2E80..=0x3247).contains(&code) && code != 0x303F)
            || (0x3250..=0x4DBF).contains(&code)
            || (0x4E00..=0xA4C6).contains(&code)
            || (0xA960..=0xA97C).contains(&code)
            || (0xAC00..=0xD7A3).contains(&code)
            || (0xF900..=0xFAFF).contains(&code)
            || (0xFE10..=0xFE19).contains(&code)
            || (0xFE30..=0xFE6B).contains(&code)
            || (0xFF01..=0xFF60).contains(&code)
            || (0xFFE0..=0xFFE6).contains(&code)
            || (0x1B000..=0x1B001).contains(&code)
            || (0x1F200..=0x1F251).contains(&code)
            || (0x1F300..=0x1F64F).contains(&code)
            || (0x20000..=0x3FFFD).contains(&code))
}

/// `s.slice(0, units)` on UTF-16 units. When the cut falls inside a surrogate pair, JavaScript
/// keeps the lone high surrogate; it is returned separately because a Rust string cannot hold it.
pub fn slice_utf16(s: &str, units: usize) -> (&str, Option<u16>) {
    let mut used = 0;
    for (i, c) in s.char_indices() {
        let w = c.len_utf16();
        if used + w > units {
            let dangling = if used < units {
                let mut buf = [0u16; 2];
                c.encode_utf16(&mut buf).first().copied()
            } else {
                None
            };
            return (&s[..i], dangling);
        }
        used += w;
    }
    (s, None)
}

/// A string in double quotes with JSON's escapes (`\"`, `\\`, `\n`, other controls as `\u00xx`):
/// `JSON.stringify`'s quoting, which the 3.0 shell's `tojson` also wrote.
pub fn json_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_count_utf16_units() {
        assert_eq!(utf16_len("abc"), 3);
        assert_eq!(utf16_len("产品"), 2);
        assert_eq!(utf16_len("😀"), 2);
    }

    #[test]
    fn widths_count_wide_characters_twice() {
        assert_eq!(display_width("abc"), 3);
        assert_eq!(display_width("'产品'"), 6);
        assert_eq!(display_width("e\u{301}"), 1);
        assert_eq!(display_width("😀"), 2);
    }

    #[test]
    fn json_quoting() {
        assert_eq!(
            json_quote("a\"b\\c\n\u{1}\u{1f}\u{7f}é"),
            "\"a\\\"b\\\\c\\n\\u0001\\u001f\u{7f}é\""
        );
    }

    #[test]
    fn slicing_keeps_a_lone_high_surrogate() {
        assert_eq!(slice_utf16("abcdef", 3), ("abc", None));
        assert_eq!(slice_utf16("ab", 5), ("ab", None));
        assert_eq!(slice_utf16("a😀b", 2), ("a", Some(0xD83D)));
        assert_eq!(slice_utf16("a😀b", 3), ("a😀", None));
    }
}

//! String measures as JavaScript sees them: lengths in UTF-16 code units (`str.length`), the
//! column width Node's `getStringWidth` gives (wide East Asian characters count two), and
//! `str.slice(0, n)` on UTF-16 units, which can leave half of a surrogate pair.

use super::width_table::WIDTHS;

/// `str.length` in JavaScript.
pub fn utf16_len(s: &str) -> usize {
    s.chars().map(char::len_utf16).sum()
}

/// The columns a terminal gives `s`, as Node's `getStringWidth` counts them (without removing
/// ANSI colour codes, which Sprout never emits): ASCII controls 0, other ASCII 1, anything
/// else from Node's ICU table, code point by code point.
pub fn display_width(s: &str) -> usize {
    s.chars().map(char_width).sum()
}

fn char_width(c: char) -> usize {
    let code = c as u32;
    if code < 0x7F {
        return usize::from(code >= 0x20);
    }
    let i = WIDTHS.partition_point(|(_, last, _)| *last < code);
    match WIDTHS.get(i) {
        Some((first, _, width)) if *first <= code => usize::from(*width),
        _ => 1,
    }
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
        assert_eq!(display_width("🚀"), 2);
        assert_eq!(display_width("a\u{7f}\u{9f}b"), 2);
        assert_eq!(display_width("\u{10FFFF}"), 1);
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

//! A BSON regular expression as mongosh holds it: js-bson builds `new RegExp(pattern, flags)`
//! keeping only the `i`, `m` and `s` options and turning `s` into `g`, and printing shows V8's
//! `source` (slashes and line breaks escaped) and flags in canonical order.

/// The flags of the JavaScript RegExp, in `RegExp.prototype.flags` order (`g`, `i`, `m`).
pub fn js_flags(options: &str) -> String {
    let mut out = String::new();
    for (bson_flag, js_flag) in [('s', 'g'), ('i', 'i'), ('m', 'm')] {
        if options.contains(bson_flag) {
            out.push(js_flag);
        }
    }
    out
}

/// `RegExp.prototype.source` as V8 produces it: `(?:)` for an empty pattern, `/` escaped outside
/// character classes, line terminators written as escapes.
pub fn js_source(pattern: &str) -> String {
    if pattern.is_empty() {
        return "(?:)".to_string();
    }
    let mut out = String::with_capacity(pattern.len());
    let mut in_class = false;
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.peek() {
                // The backslash is dropped: the line terminator after it is escaped below.
                Some('\n' | '\r' | '\u{2028}' | '\u{2029}') => {}
                Some(&next) => {
                    out.push('\\');
                    out.push(next);
                    chars.next();
                }
                None => out.push('\\'),
            },
            '/' if !in_class => out.push_str("\\/"),
            '[' => {
                in_class = true;
                out.push(c);
            }
            ']' => {
                in_class = false;
                out.push(c);
            }
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            _ => out.push(c),
        }
    }
    out
}

/// The regex literal mongosh prints, e.g. `/ab/i`.
pub fn js_literal(pattern: &str, options: &str) -> String {
    format!("/{}/{}", js_source(pattern), js_flags(options))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_keep_i_m_and_map_s_to_g() {
        assert_eq!(js_flags("imsx"), "gim");
        assert_eq!(js_flags("mi"), "im");
        assert_eq!(js_flags("xlu"), "");
    }

    #[test]
    fn source_escapes_like_v8() {
        assert_eq!(js_source(""), "(?:)");
        assert_eq!(js_source("a/b"), "a\\/b");
        assert_eq!(js_source("a\\/b"), "a\\/b");
        assert_eq!(js_source("[/]"), "[/]");
        assert_eq!(js_source("a\nb"), "a\\nb");
        assert_eq!(js_source("a\\\nb"), "a\\nb");
        assert_eq!(js_source("end\\"), "end\\");
        assert_eq!(js_literal("^Product", "i"), "/^Product/i");
    }
}

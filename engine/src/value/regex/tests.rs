//! `QueryRegex`: MongoDB's options, the PCRE translation, refusals, the step limit.

use super::*;
use bson::bson;

#[test]
fn options_and_matching() {
    let r = QueryRegex::new("^ab", "i").unwrap();
    assert!(r.matches(&bson!("ABc")));
    assert!(!r.matches(&bson!("cab")));
    assert!(!r.matches(&bson!(1)));
    let r = QueryRegex::new("^b", "m").unwrap();
    assert!(r.matches(&bson!("a\nb")));
    let r = QueryRegex::new("a.b", "s").unwrap();
    assert!(r.matches(&bson!("a\nb")));
    let r = QueryRegex::new("a b # comment", "x").unwrap();
    assert!(r.matches(&bson!("ab")));
    let r = QueryRegex::new(r"end\Z", "").unwrap();
    assert!(r.matches(&bson!("the end\n")));
}

/// PCRE's extended option: whitespace and `#` comments are ignored outside classes, kept
/// inside them; `\s` and escaped spaces still match a space.
#[test]
fn extended_option() {
    let r = QueryRegex::new("a\\sb", "x").unwrap();
    assert!(r.matches(&bson!("a b")));
    let r = QueryRegex::new("^a[ ]b$", "x").unwrap();
    assert!(r.matches(&bson!("a b")) && !r.matches(&bson!("ab")));
    let r = QueryRegex::new("^[#]x", "x").unwrap();
    assert!(r.matches(&bson!("#x")));
    let r = QueryRegex::new("^a\\ b  # a comment\n c$", "x").unwrap();
    assert!(r.matches(&bson!("a bc")) && !r.matches(&bson!("abc")));
    let r = QueryRegex::new("^\\Qa b\\E$", "x").unwrap();
    assert!(r.matches(&bson!("a b")));
    let r = QueryRegex::new("a\\h b", "x").unwrap();
    assert!(r.matches(&bson!("a b")));
}

#[test]
fn pcre_classes_are_ascii_and_quoting_works() {
    let r = QueryRegex::new(r"^\d+$", "").unwrap();
    assert!(r.matches(&bson!("123")));
    assert!(!r.matches(&bson!("١٢٣"))); // Arabic-Indic digits are not \d in MongoDB
    let r = QueryRegex::new(r"^\w+\s\w+$", "").unwrap();
    assert!(r.matches(&bson!("ab cd")));
    assert!(!r.matches(&bson!("éa cd")));
    let r = QueryRegex::new(r"\bcat\b", "").unwrap();
    assert!(r.matches(&bson!("a cat sat")));
    assert!(!r.matches(&bson!("concatenate")));
    let r = QueryRegex::new(r"[\d\]x]", "").unwrap();
    assert!(r.matches(&bson!("]")) && r.matches(&bson!("5")));
    let r = QueryRegex::new(r"^\Qa.b*\E$", "").unwrap();
    assert!(r.matches(&bson!("a.b*")));
    assert!(!r.matches(&bson!("axbb")));
    let r = QueryRegex::new("caf\u{e9}", "i").unwrap();
    assert!(r.matches(&bson!("CAFÉ")));
}

fn m(pattern: &str, options: &str, s: &str) -> bool {
    QueryRegex::new(pattern, options)
        .unwrap_or_else(|e| panic!("{pattern}: {}", e.message))
        .is_match(s)
}

fn refused(pattern: &str) -> String {
    let e = QueryRegex::new(pattern, "").unwrap_err();
    assert_eq!(e.code(), 51091, "{pattern}: {}", e.message);
    e.message
}

/// Where PCRE and JavaScript differ: `.`, `$`, `^` with `m`, `\A`, `\z`, `\Z`.
#[test]
fn anchors_and_dot_as_pcre() {
    assert!(m("a.b", "", "a\rb") && !m("a.b", "", "a\nb") && m("a.b", "s", "a\nb"));
    assert!(m("a.b", "", "a\u{2028}b"));
    assert!(m("end$", "", "the end\n") && !m("end$", "", "the end\n\n"));
    assert!(m("^b$", "m", "a\nb\nc") && !m("^b$", "", "a\nb\nc"));
    assert!(!m("^$", "m", "a\n") && m("^$", "m", "a\n\nb"));
    assert!(!m("a$", "m", "a\rb"));
    assert!(m("\\Aab", "m", "ab") && !m("\\Aab", "m", "x\nab"));
    assert!(m("ab\\z", "", "ab") && !m("ab\\z", "", "ab\n"));
    assert!(m("ab\\Z", "", "ab\n") && !m("ab\\Z", "", "ab\nc"));
}

/// What the `regex` crate refused and JavaScript's engine has: look-around, back references.
#[test]
fn lookaround_and_back_references() {
    assert!(m("foo(?=bar)", "", "foobar") && !m("foo(?=bar)", "", "foobaz"));
    assert!(m("(?<!x)y", "", "ay") && !m("(?<!x)y", "", "xy"));
    assert!(m("^(a+)b\\1$", "", "aabaa") && !m("^(a+)b\\1$", "", "aaba"));
    assert!(m("(?P<w>ab)(?P=w)", "", "abab") && m("(?<w>ab)\\k<w>", "", "abab"));
    assert!(m("(?'w'ab)\\g{w}", "", "abab") && m("(a)(b)\\g{-1}", "", "abb"));
    // \10 with one group is octal 010 (a backspace), as PCRE reads it.
    assert!(m("(a)\\10", "", "a\u{8}"));
    // \12 without twelve groups is octal 012 (a newline), as PCRE reads it.
    assert!(m("a\\12", "", "a\n"));
}

#[test]
fn alternation_groups_and_quantifiers() {
    assert!(m("^(a|b)+$", "", "abba") && !m("^(a|b)+$", "", "abc"));
    assert!(m("^(?:cat|dog)s?$", "", "dogs") && m("^a{2,}?b*?$", "", "aaab"));
    assert!(m("^x|y$", "", "xz") && m("^a|", "", "b"));
}

/// jstests/core/regex_unicode.js: (*UTF) is accepted, (*UCP) makes the classes Unicode's.
#[test]
fn start_of_pattern_options() {
    assert!(m("(*UTF)^é$", "", "é") && m("(*UTF8)e", "", "e"));
    assert!(!m("^\\w+$", "", "박정수") && m("(*UCP)^\\w+$", "", "박정수"));
    assert!(m("(*UCP)^\\d+$", "", "༢༣") && m("(*UCP)^[[:alpha:]]+$", "", "suárez"));
    assert!(m("(*UCP)^[[:digit:]]+$", "", "9୩") && !m("^[[:digit:]]+$", "", "9୩"));
    assert!(m("(*UCP)\\bé", "", "a é") && !m("(*UCP)\\bé", "", "aé"));
    assert!(m("(*UCP)^\\S\\s$", "", "a\u{3000}"));
}

#[test]
fn inline_options() {
    assert!(m("(?i)abc", "", "ABC") && m("^(?i)abc", "", "xABC".get(1..).unwrap()));
    assert!(m("(?-i)abc", "i", "abc") && !m("(?-i)abc", "i", "ABC"));
    assert!(m("a(?s).b", "", "a\nb") && m("a(?s:.)b", "", "a\nb") && !m("(?s:a).b", "", "a\nb"));
    assert!(m("(?x) a b c", "", "abc") && m("(?m)^b", "", "a\nb"));
    assert!(m("(?#a comment)ab", "", "ab"));
    refused("a(?i)b");
    refused("(?i:a)b");
}

#[test]
fn classes_escapes_and_literals() {
    assert!(m("[[:alpha:]]+[[:digit:]]", "", "abc1") && !m("^[[:alpha:]]$", "", "é"));
    assert!(m("^[[:^digit:]]$", "", "é") && !m("^[[:^digit:]]$", "", "5"));
    assert!(m("^[\\W]$", "", "é") && m("^[^\\d\\s]$", "", "x") && !m("^[^\\d\\s]$", "", " "));
    assert!(m("^\\p{L}+$", "", "héllo") && !m("^\\p{L}+$", "", "h1"));
    assert!(m("^\\p{Hangul}+$", "", "한국어") && !m("^\\p{Hangul}$", "", "a"));
    assert!(m("^\\pL\\PL$", "", "a1") && m("^[\\p{Greek}x]+$", "", "αx"));
    assert!(m("^\\x{e9}\\x41\\101\\o{102}$", "", "éAAB"));
    assert!(m("^a{,2}$", "", "a{,2}") && m("^a{2}$", "", "aa") && m("^}]$", "", "}]"));
    assert!(m("^[]a]+$", "", "]a") && m("^[^]a]$", "", "b") && m("^[a-]$", "", "-"));
    assert!(m("^[\\d-z]+$", "", "1-z") && m("^\\Q(a)\\E$", "", "(a)"));
    assert!(m("^a\\/b\\@c$", "", "a/b@c") && m("^\\h\\v$", "", "\u{a0}\u{2028}"));
    assert!(m("^\\R$", "", "\r\n") && m("^\\N$", "", "x") && !m("^\\N$", "", "\n"));
    assert!(m("^\\cA$", "", "\u{1}") && m("^[\\b]$", "", "\u{8}"));
    assert!(m("ſ", "i", "S") && m("k", "i", "\u{212a}"));
}

#[test]
fn unsupported_pcre_is_an_invalid_pattern() {
    for p in [
        "a++",
        "a*+",
        "(?>a)",
        "(?|a)",
        "(?R)",
        "(?1)",
        "\\Ga",
        "a\\Kb",
        "\\X",
        "(*COMMIT)a",
    ] {
        refused(p);
    }
    for p in [
        "a{70000}",
        "a{3,2}",
        "\\i",
        "[z-a]",
        "\\x{110000}",
        "[[:foo:]]",
        "\\p{Nope}",
        "a)",
    ] {
        refused(p);
    }
    refused(&"(".repeat(300));
    // jstests/core/regex_limit.js
    assert!(m(&"c".repeat(32_761), "", &"c".repeat(40_000)));
    refused(&"c".repeat(32_762));
}

/// A pattern that backtracks exponentially ends at the step limit: no match for `$regex`,
/// MongoDB's 51156 for the aggregation operators.
#[test]
fn catastrophic_backtracking_ends() {
    let r = QueryRegex::new("^(a+)+$", "").unwrap();
    let text = format!("{}b", "a".repeat(40));
    assert!(!r.is_match(&text));
    let units: Vec<u16> = text.encode_utf16().collect();
    let e = r.find_at(&units, 0, "$regexFind").unwrap_err();
    assert_eq!(e.code(), 51156);
    assert!(r.is_match(&"a".repeat(40)));
}

#[test]
fn errors_like_mongodb() {
    let e = QueryRegex::new("(", "").unwrap_err();
    assert_eq!(e.code(), 51091);
    assert!(
        e.message.starts_with("Regular expression is invalid: "),
        "{}",
        e.message
    );
    let e = QueryRegex::new("a", "q").unwrap_err();
    assert_eq!(
        (e.code(), e.message.as_str()),
        (51108, "invalid flag in regex options: q")
    );
    // jstests/core/regex_error.js (MongoDB 5.1+): NUL in the pattern, NUL in the options.
    assert_eq!(QueryRegex::new("ab\0c", "").unwrap_err().code(), 2);
    assert_eq!(QueryRegex::new("ab", "\0i").unwrap_err().code(), 51108);
}

//! A wrong answer's documents beside the expected ones ([`lessons::Comparison`]), printed as
//! the shell prints them on one line: the part of the feedback that needs the shell's printer.

use bson::Bson;
use lessons::{Comparison, SHOWN};
use shell::printer::{PrintOptions, Style, format_value};

/// The multiset difference of two lists of values, both ways.
pub fn of_values(got: &[Bson], want: &[Bson]) -> Comparison {
    let mut unmatched: Vec<&Bson> = want.iter().collect();
    let mut extra = Vec::new();
    for g in got {
        match unmatched.iter().position(|w| *w == g) {
            Some(i) => {
                unmatched.remove(i);
            }
            None => extra.push(g),
        }
    }
    Comparison {
        missing_total: unmatched.len(),
        extra_total: extra.len(),
        missing: unmatched.into_iter().take(SHOWN).map(one_line).collect(),
        extra: extra.into_iter().take(SHOWN).map(one_line).collect(),
        got_count: got.len(),
        expected_count: want.len(),
        plan: Vec::new(),
    }
}

/// A value as mongosh prints it, its lines joined into one.
pub fn one_line(v: &Bson) -> String {
    let text = format_value(
        v,
        &PrintOptions {
            style: Style::Mongosh,
            pretty: false,
        },
    );
    text.lines().map(str::trim).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    #[test]
    fn missing_and_extra_documents_are_told_apart() {
        let a = Bson::Document(doc! {"name": "a"});
        let b = Bson::Document(doc! {"name": "b"});
        let c = Bson::Document(doc! {"name": "c"});
        let cmp = of_values(&[a.clone(), c.clone(), c.clone()], &[a, b, c]);
        assert_eq!(cmp.missing, [one_line(&Bson::Document(doc! {"name": "b"}))]);
        assert_eq!(cmp.extra.len(), 1);
        assert!(cmp.extra[0].contains("'c'"), "{:?}", cmp.extra);
        assert_eq!((cmp.got_count, cmp.expected_count), (3, 3));
        assert!(!cmp.is_empty());
        assert!(of_values(&[], &[]).is_empty());
    }
}

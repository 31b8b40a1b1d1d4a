//! The SQL string expressions the transcripts build documents with, evaluated to their text:
//! `'literal'`, integers, a loop variable, `a || b`, `FORMAT('… %s …', args…)` and
//! `REPEAT(text, n)`, with a trailing `::type` cast ignored. Used for `insert_one` arguments
//! and the bodies of `DO $$ … FOR i IN a..b LOOP … END LOOP … $$` blocks.

/// The text `expr` evaluates to, with `vars` bound to integers; `None` for anything else.
pub fn string_expr(expr: &str, vars: &[(&str, i64)]) -> Option<String> {
    let mut p = Parser {
        chars: expr.chars().collect(),
        at: 0,
        vars,
    };
    let value = p.concat()?;
    p.skip_cast();
    p.skip_space();
    (p.at == p.chars.len()).then_some(value)
}

/// A `DO $$ … FOR v IN a..b LOOP body END LOOP; … $$` block: the variable, its bounds and the
/// loop body.
pub fn for_loop(text: &str) -> Option<(String, i64, i64, String)> {
    // ASCII lowercasing keeps byte offsets, so positions found in `lower` index `text`.
    let lower = text.to_ascii_lowercase();
    let for_at = lower.find("for ")?;
    let head_end = for_at + lower[for_at..].find(" loop")?;
    // `FOR i IN 1..100`
    let head: Vec<&str> = text[for_at..head_end].split_whitespace().collect();
    let [_, var, keyword, range] = head[..] else {
        return None;
    };
    if !keyword.eq_ignore_ascii_case("in") {
        return None;
    }
    let (from, to) = range.split_once("..")?;
    let body_start = head_end + " loop".len();
    let body_end = body_start + lower[body_start..].find("end loop")?;
    Some((
        var.to_string(),
        from.parse().ok()?,
        to.parse().ok()?,
        text[body_start..body_end].to_string(),
    ))
}

struct Parser<'a> {
    chars: Vec<char>,
    at: usize,
    vars: &'a [(&'a str, i64)],
}

impl Parser<'_> {
    fn skip_space(&mut self) {
        while self.chars.get(self.at).is_some_and(|c| c.is_whitespace()) {
            self.at += 1;
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn eat(&mut self, c: char) -> bool {
        self.skip_space();
        if self.peek() == Some(c) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn skip_cast(&mut self) {
        self.skip_space();
        if self.chars.get(self.at..self.at + 2) == Some(&[':', ':']) {
            self.at += 2;
            while self
                .peek()
                .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
            {
                self.at += 1;
            }
        }
    }

    /// term (`||` term)*
    fn concat(&mut self) -> Option<String> {
        let mut out = self.term()?;
        loop {
            self.skip_space();
            if self.chars.get(self.at..self.at + 2) == Some(&['|', '|']) {
                self.at += 2;
                out.push_str(&self.term()?);
            } else {
                return Some(out);
            }
        }
    }

    fn term(&mut self) -> Option<String> {
        self.skip_space();
        let value = match self.peek()? {
            '\'' => self.literal()?,
            'E' | 'e' if self.chars.get(self.at + 1) == Some(&'\'') => {
                self.at += 1;
                self.literal()?
            }
            '(' => {
                self.at += 1;
                let v = self.concat()?;
                self.eat(')').then_some(v)?
            }
            c if c.is_ascii_digit() || c == '-' => {
                let start = self.at;
                self.at += 1;
                while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                    self.at += 1;
                }
                self.chars[start..self.at].iter().collect()
            }
            c if c.is_alphabetic() || c == '_' => {
                let start = self.at;
                while self
                    .peek()
                    .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
                {
                    self.at += 1;
                }
                let name: String = self.chars[start..self.at].iter().collect();
                let name = name.rsplit('.').next().unwrap_or("").to_ascii_lowercase();
                self.skip_space();
                if self.peek() == Some('(') {
                    self.at += 1;
                    let args = self.arguments()?;
                    call(&name, &args)?
                } else {
                    let (_, v) = self
                        .vars
                        .iter()
                        .find(|(n, _)| n.eq_ignore_ascii_case(&name))?;
                    v.to_string()
                }
            }
            _ => return None,
        };
        self.skip_cast();
        Some(value)
    }

    /// `'…'` with `''` for a quote.
    fn literal(&mut self) -> Option<String> {
        self.at += 1;
        let mut out = String::new();
        loop {
            let c = self.peek()?;
            self.at += 1;
            if c == '\'' {
                if self.peek() == Some('\'') {
                    out.push('\'');
                    self.at += 1;
                } else {
                    return Some(out);
                }
            } else {
                out.push(c);
            }
        }
    }

    /// The arguments after an opening parenthesis, up to and past the closing one.
    fn arguments(&mut self) -> Option<Vec<String>> {
        let mut args = Vec::new();
        if self.eat(')') {
            return Some(args);
        }
        loop {
            args.push(self.concat()?);
            if self.eat(')') {
                return Some(args);
            }
            if !self.eat(',') {
                return None;
            }
        }
    }
}

fn call(name: &str, args: &[String]) -> Option<String> {
    match name {
        "repeat" => {
            let [text, n] = args else { return None };
            Some(text.repeat(n.parse().ok()?))
        }
        "format" => {
            let (template, values) = args.split_first()?;
            let mut values = values.iter();
            let mut out = String::new();
            let mut chars = template.chars();
            while let Some(c) = chars.next() {
                if c != '%' {
                    out.push(c);
                    continue;
                }
                match chars.next()? {
                    '%' => out.push('%'),
                    's' => out.push_str(values.next()?),
                    _ => return None,
                }
            }
            Some(out)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_repeat_and_concatenation() {
        assert_eq!(
            string_expr(
                "FORMAT('{ \"_id\": %s }',i)::documentdb_core.bson",
                &[("i", 7)]
            )
            .as_deref(),
            Some("{ \"_id\": 7 }")
        );
        assert_eq!(
            string_expr("FORMAT('{\"a\": \"%s\"}', repeat('ab', 3))::bson", &[]).as_deref(),
            Some("{\"a\": \"ababab\"}")
        );
        assert_eq!(
            string_expr(
                "REPEAT('\"' || i || REPEAT('a', 2) || '\", ', 2)",
                &[("i", 1)]
            )
            .as_deref(),
            Some("\"1aa\", \"1aa\", ")
        );
        assert_eq!(string_expr("unknown_fn(1)", &[]), None);
    }

    #[test]
    fn loops() {
        let text =
            "DO $$\nDECLARE i int;\nBEGIN\nFOR i IN 1..3 LOOP\nPERFORM f(i);\nEND LOOP;\nEND;\n$$;";
        let (var, from, to, body) = for_loop(text).unwrap();
        assert_eq!((var.as_str(), from, to), ("i", 1, 3));
        assert_eq!(body.trim(), "PERFORM f(i);");
    }
}

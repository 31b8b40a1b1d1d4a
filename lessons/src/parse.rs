//! Parsing the Markdown lesson format.

use std::fmt;

use crate::model::{Lesson, Step};

#[derive(Debug, Clone, PartialEq)]
pub struct ParseError {
    pub file: String,
    pub line: usize,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.message)
    }
}

pub fn parse_lesson(file: &str, src: &str) -> Result<Lesson, ParseError> {
    let err = |line: usize, message: &str| ParseError {
        file: file.to_string(),
        line,
        message: message.to_string(),
    };
    let lines: Vec<&str> = src.lines().collect();
    if lines.first() != Some(&"---") {
        return Err(err(
            1,
            "a lesson starts with front matter between --- lines",
        ));
    }
    let end = lines
        .iter()
        .skip(1)
        .position(|l| *l == "---")
        .map(|i| i + 1)
        .ok_or_else(|| err(1, "front matter is not closed"))?;
    let mut lesson = Lesson {
        id: String::new(),
        title: String::new(),
        source: String::new(),
        steps: Vec::new(),
    };
    for (i, line) in lines[1..end].iter().enumerate() {
        let Some((key, value)) = line.split_once(':') else {
            return Err(err(i + 2, "front matter lines are `key: value`"));
        };
        let value = value.trim().trim_matches('"').to_string();
        match key.trim() {
            "id" => lesson.id = value,
            "title" => lesson.title = value,
            "source" => lesson.source = value,
            _ => {}
        }
    }
    if lesson.id.is_empty() || lesson.title.is_empty() {
        return Err(err(1, "front matter needs `id` and `title`"));
    }
    let mut i = end + 1;
    let mut current: Option<(usize, Step)> = None;
    while i < lines.len() {
        let line = lines[i];
        if let Some(title) = line.strip_prefix("## ") {
            if let Some((at, step)) = current.take() {
                lesson.steps.push(finish(step, at, &err)?);
            }
            current = Some((
                i + 1,
                Step {
                    title: title.trim().to_string(),
                    prose: String::new(),
                    command: String::new(),
                    expect: None,
                },
            ));
        } else if let Some(kind) = line.strip_prefix("```").filter(|k| !k.is_empty()) {
            let start = i + 1;
            let close = lines[start..]
                .iter()
                .position(|l| l.trim_end() == "```")
                .map(|p| start + p)
                .ok_or_else(|| err(i + 1, "code block is not closed"))?;
            let body = lines[start..close].join("\n");
            let Some((_, step)) = current.as_mut() else {
                return Err(err(i + 1, "code block outside a step"));
            };
            match kind.trim() {
                "js" if step.command.is_empty() => step.command = body,
                "js" => return Err(err(i + 1, "a step has one js block")),
                "expect" => step.expect = Some(body),
                other => return Err(err(i + 1, &format!("unknown block kind `{other}`"))),
            }
            i = close;
        } else if let Some((_, step)) = current.as_mut()
            && (!step.prose.is_empty() || !line.trim().is_empty())
        {
            step.prose.push_str(line);
            step.prose.push('\n');
        }
        i += 1;
    }
    if let Some((at, step)) = current.take() {
        lesson.steps.push(finish(step, at, &err)?);
    }
    Ok(lesson)
}

fn finish(
    mut step: Step,
    at: usize,
    err: &dyn Fn(usize, &str) -> ParseError,
) -> Result<Step, ParseError> {
    if step.command.is_empty() {
        return Err(err(at, "a step needs a ```js block"));
    }
    step.prose = step.prose.trim_end().to_string();
    Ok(step)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_steps_and_rejects_malformed_files() {
        let src = "---\nid: t\ntitle: T\nsource: B1\n---\nIntro.\n## One\nSay hi.\n```js\n1 + 1\n```\n```expect\n2\n```\n## Two\n```js\nprint('x')\n```\n";
        let l = parse_lesson("t.md", src).unwrap();
        assert_eq!(l.steps.len(), 2);
        assert_eq!(l.steps[0].command, "1 + 1");
        assert_eq!(l.steps[0].expect.as_deref(), Some("2"));
        assert_eq!(l.steps[0].prose, "Say hi.");
        assert_eq!(l.steps[1].expect, None);
        assert!(parse_lesson("x.md", "no front matter").is_err());
        assert!(parse_lesson("x.md", "---\nid: a\ntitle: b\n---\n## s\nno code\n").is_err());
        assert!(
            parse_lesson("x.md", "---\nid: a\ntitle: b\n---\n## s\n```js\nunclosed\n").is_err()
        );
    }
}

//! Parsing the Markdown lesson format (see `docs/lessons.md`).

use std::fmt;

use crate::model::{AnswerRules, Check, Exercise, Lesson, PlanRequirement, Prose, Step};

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

/// A `## ` section being read: a step or an exercise.
struct Section {
    line: usize,
    title: String,
    exercise: bool,
    prose: String,
    zh: Option<String>,
    js: Option<String>,
    expect: Option<String>,
    look: Option<Vec<(String, String)>>,
    hints: Vec<Prose>,
    solution: Option<String>,
    right: Vec<String>,
    wrong: Vec<String>,
    check: Option<(usize, String)>,
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
        title_zh: None,
        source: String::new(),
        dataset: None,
        intro: Prose::default(),
        steps: Vec::new(),
        exercises: Vec::new(),
    };
    for (i, line) in lines[1..end].iter().enumerate() {
        let Some((key, value)) = line.split_once(':') else {
            return Err(err(i + 2, "front matter lines are `key: value`"));
        };
        // A `#` after the value starts a comment.
        let value = value.split(" #").next().unwrap_or("");
        let value = value.trim().trim_matches('"').to_string();
        match key.trim() {
            "id" => lesson.id = value,
            "title" => lesson.title = value,
            "title_zh" => lesson.title_zh = Some(value),
            "source" => lesson.source = value,
            "dataset" => lesson.dataset = Some(value),
            other => return Err(err(i + 2, &format!("unknown front matter key `{other}`"))),
        }
    }
    if lesson.id.is_empty() || lesson.title.is_empty() {
        return Err(err(1, "front matter needs `id` and `title`"));
    }
    let mut i = end + 1;
    let mut current: Option<Section> = None;
    while i < lines.len() {
        let line = lines[i];
        if let Some(heading) = line.strip_prefix("## ") {
            if let Some(section) = current.take() {
                finish(section, &mut lesson, &err)?;
            }
            let heading = heading.trim();
            let (exercise, title) = match heading.strip_prefix("Exercise:") {
                Some(t) => (true, t.trim()),
                None => (false, heading),
            };
            current = Some(Section {
                line: i + 1,
                title: title.to_string(),
                exercise,
                prose: String::new(),
                zh: None,
                js: None,
                expect: None,
                look: None,
                hints: Vec::new(),
                solution: None,
                right: Vec::new(),
                wrong: Vec::new(),
                check: None,
            });
        } else if let Some(kind) = line.strip_prefix("```").filter(|k| !k.is_empty()) {
            let start = i + 1;
            let close = lines[start..]
                .iter()
                .position(|l| l.trim_end() == "```")
                .map(|p| start + p)
                .ok_or_else(|| err(i + 1, "code block is not closed"))?;
            let body = lines[start..close].join("\n");
            let kind = kind.trim();
            match current.as_mut() {
                None if kind == "zh" => lesson.intro.zh = Some(body.trim().to_string()),
                None => return Err(err(i + 1, "only a zh block may come before the first step")),
                Some(s) => add_block(s, kind, body, i + 1, &err)?,
            }
            i = close;
        } else {
            let target = match current.as_mut() {
                Some(s) => &mut s.prose,
                None => &mut lesson.intro.en,
            };
            if !target.is_empty() || !line.trim().is_empty() {
                target.push_str(line);
                target.push('\n');
            }
        }
        i += 1;
    }
    if let Some(section) = current.take() {
        finish(section, &mut lesson, &err)?;
    }
    lesson.intro.en = lesson.intro.en.trim_end().to_string();
    Ok(lesson)
}

fn add_block(
    s: &mut Section,
    kind: &str,
    body: String,
    line: usize,
    err: &dyn Fn(usize, &str) -> ParseError,
) -> Result<(), ParseError> {
    let step_only = |s: &Section| {
        if s.exercise {
            Err(err(line, &format!("an exercise has no `{kind}` block")))
        } else {
            Ok(())
        }
    };
    let exercise_only = |s: &Section| {
        if s.exercise {
            Ok(())
        } else {
            Err(err(line, &format!("`{kind}` blocks belong to exercises")))
        }
    };
    match kind {
        "zh" if s.zh.is_none() => s.zh = Some(body),
        "zh" => return Err(err(line, "a section has one zh block")),
        "js" => {
            step_only(s)?;
            if s.js.is_some() {
                return Err(err(line, "a step has one js block"));
            }
            s.js = Some(body);
        }
        "expect" => {
            step_only(s)?;
            s.expect = Some(body);
        }
        "plan" => {
            step_only(s)?;
            let facts = crate::plan_view::parse_facts(&body).map_err(|m| err(line, &m))?;
            s.look = Some(facts);
        }
        "hint" => {
            exercise_only(s)?;
            s.hints.push(Prose {
                en: body.trim().to_string(),
                zh: None,
            });
        }
        "hint-zh" => {
            exercise_only(s)?;
            match s.hints.last_mut() {
                Some(h) if h.zh.is_none() => h.zh = Some(body.trim().to_string()),
                Some(_) => return Err(err(line, "a hint has one hint-zh block")),
                None => return Err(err(line, "a hint-zh block follows the hint it translates")),
            }
        }
        "right" => {
            exercise_only(s)?;
            s.right.push(body);
        }
        "solution" => {
            exercise_only(s)?;
            s.solution = Some(body);
        }
        "wrong" => {
            exercise_only(s)?;
            s.wrong.push(body);
        }
        "check" => {
            exercise_only(s)?;
            s.check = Some((line, body));
        }
        other => return Err(err(line, &format!("unknown block kind `{other}`"))),
    }
    Ok(())
}

/// A zh block's first line may be the Chinese title (`# 标题`); the rest is the prose.
fn split_zh(zh: Option<String>) -> (Option<String>, Option<String>) {
    let Some(zh) = zh else { return (None, None) };
    let zh = zh.trim();
    match zh.strip_prefix("# ") {
        Some(rest) => {
            let (title, prose) = rest.split_once('\n').unwrap_or((rest, ""));
            let prose = prose.trim();
            (
                Some(title.trim().to_string()),
                (!prose.is_empty()).then(|| prose.to_string()),
            )
        }
        None => (None, Some(zh.to_string())),
    }
}

fn finish(
    s: Section,
    lesson: &mut Lesson,
    err: &dyn Fn(usize, &str) -> ParseError,
) -> Result<(), ParseError> {
    let (title_zh, prose_zh) = split_zh(s.zh);
    let prose = s.prose.trim_end().to_string();
    if !s.exercise {
        let Some(command) = s.js else {
            return Err(err(s.line, "a step needs a ```js block"));
        };
        lesson.steps.push(Step {
            title: s.title,
            title_zh,
            prose,
            prose_zh,
            command,
            expect: s.expect,
            look: s.look.unwrap_or_default(),
        });
        return Ok(());
    }
    let Some(solution) = s.solution else {
        return Err(err(s.line, "an exercise needs a ```solution block"));
    };
    let Some((check_line, check)) = s.check else {
        return Err(err(s.line, "an exercise needs a ```check block"));
    };
    if s.wrong.is_empty() {
        return Err(err(
            s.line,
            "an exercise needs at least one ```wrong block (an answer its check must reject)",
        ));
    }
    let (check, rules) = parse_check(&check).map_err(|m| err(check_line, &m))?;
    lesson.exercises.push(Exercise {
        title: s.title,
        title_zh,
        prose,
        prose_zh,
        hints: s.hints,
        solution,
        right: s.right,
        wrong: s.wrong,
        check,
        rules,
    });
    Ok(())
}

/// The check keys every kind accepts: the answer rules.
const RULE_KEYS: [&str; 3] = ["forbid", "require", "setup"];

/// A check block: `key: value` lines (`kind: result|state|plan`, then the kind's keys, then
/// the optional answer rules `forbid`, `require` (comma-separated) and `setup` (shell code)).
fn parse_check(body: &str) -> Result<(Check, AnswerRules), String> {
    let mut fields: Vec<(&str, &str)> = Vec::new();
    for line in body.lines().filter(|l| !l.trim().is_empty()) {
        let (k, v) = line
            .split_once(':')
            .ok_or_else(|| format!("check lines are `key: value`, not `{line}`"))?;
        fields.push((k.trim(), v.trim()));
    }
    let list = |key: &str| -> Vec<String> {
        fields
            .iter()
            .filter(|(k, _)| *k == key)
            .flat_map(|(_, v)| v.split(','))
            .map(|w| w.trim().to_string())
            .filter(|w| !w.is_empty())
            .collect()
    };
    let rules = AnswerRules {
        forbid: list("forbid"),
        require: list("require"),
        setup: fields
            .iter()
            .find(|(k, _)| *k == "setup")
            .map(|(_, v)| v.to_string()),
    };
    let fields: Vec<(&str, &str)> = fields
        .into_iter()
        .filter(|(k, _)| !RULE_KEYS.contains(k))
        .collect();
    parse_check_kind(&fields).map(|check| (check, rules))
}

fn parse_check_kind(fields: &[(&str, &str)]) -> Result<Check, String> {
    let get = |key: &str| fields.iter().find(|(k, _)| *k == key).map(|(_, v)| *v);
    let known = |allowed: &[&str]| -> Result<(), String> {
        match fields.iter().find(|(k, _)| !allowed.contains(k)) {
            Some((k, _)) => Err(format!("unknown check key `{k}`")),
            None => Ok(()),
        }
    };
    match get("kind") {
        Some("result") => {
            known(&["kind", "ordered"])?;
            let ordered = match get("ordered") {
                None | Some("false") => false,
                Some("true") => true,
                Some(other) => return Err(format!("`ordered` is true or false, not `{other}`")),
            };
            Ok(Check::Result { ordered })
        }
        Some("state") => {
            known(&["kind", "collection", "db"])?;
            let collections: Vec<String> = get("collection")
                .ok_or("a state check names its `collection`")?
                .split(',')
                .map(|c| c.trim().to_string())
                .filter(|c| !c.is_empty())
                .collect();
            if collections.is_empty() {
                return Err("a state check names its `collection`".into());
            }
            Ok(Check::State {
                db: get("db").map(str::to_string),
                collections,
            })
        }
        Some("plan") => {
            known(&["kind", "query", "plan"])?;
            let query = get("query").ok_or("a plan check names its `query`")?;
            let plan = match get("plan") {
                Some("covered") => PlanRequirement::Covered,
                Some("index") => PlanRequirement::UsesIndex,
                other => {
                    return Err(format!(
                        "a plan check's `plan` is `covered` or `index`, not {other:?}"
                    ));
                }
            };
            Ok(Check::Plan {
                query: query.to_string(),
                plan,
            })
        }
        other => Err(format!(
            "a check's `kind` is result, state or plan, not {other:?}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_steps_and_rejects_malformed_files() {
        let src = "---\nid: t\ntitle: T\nsource: B1\n---\nIntro.\n## One\nSay hi.\n```js\n1 + 1\n```\n```expect\n2\n```\n## Two\n```js\nprint('x')\n```\n";
        let l = parse_lesson("t.md", src).unwrap();
        assert_eq!(l.intro.en, "Intro.");
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
        assert!(parse_lesson("x.md", "---\nid: a\ntitle: b\ncolour: red\n---\n").is_err());
    }

    #[test]
    fn parses_chinese_prose_datasets_and_exercises() {
        let src = "---\nid: t\ntitle: T\ntitle_zh: 标题\ndataset: shop # the shop data\n---\nIntro.\n```zh\n简介。\n```\n\
                   ## One\nSay hi.\n```zh\n# 第一步\n打个招呼。\n```\n```js\n1\n```\n\
                   ## Exercise: Find cheap things\nFind them.\n```hint\nUse $lt.\n```\n```hint-zh\n用 $lt。\n```\n\
                   ```solution\ndb.p.find({price: {$lt: 5}})\n```\n```right\ndb.p.find({price: {$lte: 4}})\n```\n\
                   ```wrong\ndb.p.find()\n```\n\
                   ```check\nkind: result\nforbid: $where, $function\nsetup: db.p.insertOne({price: 5})\n```\n\
                   ## Exercise: Index it\n```solution\ndb.p.createIndex({price: 1})\n```\n\
                   ```wrong\ndb.p.createIndex({name: 1})\n```\n```check\nkind: plan\nquery: db.p.find({price: 1}, {_id: 0, price: 1})\nplan: covered\n```\n";
        let l = parse_lesson("t.md", src).unwrap();
        assert_eq!(l.title_zh.as_deref(), Some("标题"));
        assert_eq!(l.dataset.as_deref(), Some("shop"));
        assert_eq!(l.intro.zh.as_deref(), Some("简介。"));
        assert_eq!(l.steps[0].title_zh.as_deref(), Some("第一步"));
        assert_eq!(l.steps[0].prose_zh.as_deref(), Some("打个招呼。"));
        assert_eq!(l.exercises.len(), 2);
        assert_eq!(l.exercises[0].title, "Find cheap things");
        assert_eq!(l.exercises[0].hints[0].en, "Use $lt.");
        assert_eq!(l.exercises[0].hints[0].zh.as_deref(), Some("用 $lt。"));
        assert_eq!(l.exercises[0].right, vec!["db.p.find({price: {$lte: 4}})"]);
        assert_eq!(l.exercises[0].rules.forbid, vec!["$where", "$function"]);
        assert_eq!(
            l.exercises[0].rules.setup.as_deref(),
            Some("db.p.insertOne({price: 5})")
        );
        assert_eq!(l.exercises[0].check, Check::Result { ordered: false });
        assert_eq!(
            l.exercises[1].check,
            Check::Plan {
                query: "db.p.find({price: 1}, {_id: 0, price: 1})".into(),
                plan: PlanRequirement::Covered
            }
        );
        // An exercise without a wrong answer, or with a js block, is rejected.
        let no_wrong = "---\nid: a\ntitle: b\n---\n## Exercise: x\n```solution\n1\n```\n```check\nkind: result\n```\n";
        assert!(parse_lesson("x.md", no_wrong).is_err());
        let bad_kind = "---\nid: a\ntitle: b\n---\n## Exercise: x\n```solution\n1\n```\n```wrong\n2\n```\n```check\nkind: vibes\n```\n";
        assert!(parse_lesson("x.md", bad_kind).is_err());
        // A hint-zh block needs the hint it translates.
        let orphan = "---\nid: a\ntitle: b\n---\n## Exercise: x\n```hint-zh\n提示\n```\n```solution\n1\n```\n```wrong\n2\n```\n```check\nkind: result\n```\n";
        assert!(parse_lesson("x.md", orphan).is_err());
    }
}

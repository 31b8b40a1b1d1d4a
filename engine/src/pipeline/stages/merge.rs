//! `$merge`: writes each result into a collection, matching on `on` fields (default `_id`).
//! Parsing lives here (MongoDB's IDL checks, then the lite-parse and createFromBson checks that
//! need no catalog); the writes are `commands/aggregate_write.rs`.

use bson::{Bson, Document, doc};

use super::out::{missing_field, writer_applied};
use crate::error::{Error, ErrorCode, Result};
use crate::pipeline::{ParseContext, Pipeline, RunContext, Stage, WriteStage, WriteTarget};
use crate::value::display::type_name;

/// What happens to a result whose `on` fields match a target document.
#[derive(Debug, Clone, PartialEq)]
pub enum WhenMatched {
    Replace,
    KeepExisting,
    Merge,
    Fail,
    /// An update pipeline run on the matched document (`$$new` is the result).
    Pipeline(Vec<Bson>),
}

/// What happens to a result that matches nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WhenNotMatched {
    Insert,
    Discard,
    Fail,
}

#[derive(Debug, Clone, PartialEq)]
pub struct MergeSpec {
    pub db: Option<String>,
    pub coll: String,
    /// The `on` fields as written (`None`: `_id`).
    pub on: Option<Vec<String>>,
    /// The `let` variables for a pipeline `whenMatched` (`{new: "$$ROOT"}` by default).
    pub let_vars: Document,
    pub when_matched: WhenMatched,
    pub when_not_matched: WhenNotMatched,
}

impl MergeSpec {
    /// The `on` fields, `_id` when none were given.
    pub fn on_fields(&self) -> Vec<String> {
        self.on.clone().unwrap_or_else(|| vec!["_id".to_string()])
    }
}

impl WhenMatched {
    fn name(&self) -> &'static str {
        match self {
            WhenMatched::Replace => "replace",
            WhenMatched::KeepExisting => "keepExisting",
            WhenMatched::Merge => "merge",
            WhenMatched::Fail => "fail",
            WhenMatched::Pipeline(_) => "pipeline",
        }
    }
}

impl WhenNotMatched {
    fn name(self) -> &'static str {
        match self {
            WhenNotMatched::Insert => "insert",
            WhenNotMatched::Discard => "discard",
            WhenNotMatched::Fail => "fail",
        }
    }
}

#[derive(Debug)]
pub struct Merge {
    spec: MergeSpec,
}

/// The stages an update pipeline (and so a `whenMatched` pipeline) may hold.
const UPDATE_PIPELINE_STAGES: &[&str] = &[
    "$addFields",
    "$set",
    "$project",
    "$unset",
    "$replaceRoot",
    "$replaceWith",
];

pub fn parse(arg: &Bson, cx: &ParseContext<'_>) -> Result<Box<dyn Stage>> {
    let spec = match arg {
        Bson::String(coll) => MergeSpec {
            db: None,
            coll: coll.clone(),
            on: None,
            let_vars: Document::new(),
            when_matched: WhenMatched::Merge,
            when_not_matched: WhenNotMatched::Insert,
        },
        Bson::Document(d) => parse_object(d)?,
        other => {
            return Err(Error::type_mismatch(format!(
                "$merge requires a string or object argument, but found {}",
                type_name(other)
            )));
        }
    };
    check_modes(&spec)?;
    if let WhenMatched::Pipeline(items) = &spec.when_matched {
        check_update_pipeline(items, &spec.let_vars, cx)?;
    }
    Ok(Box::new(Merge { spec }))
}

fn parse_object(d: &Document) -> Result<MergeSpec> {
    let mut into = None;
    let mut on = None;
    let mut let_vars = None;
    let mut when_matched = WhenMatched::Merge;
    let mut when_not_matched = WhenNotMatched::Insert;
    for (k, v) in d {
        match k.as_str() {
            "into" => into = Some(parse_into(v)?),
            "on" => on = Some(parse_on(v)?),
            "let" => match v {
                Bson::Document(vars) => let_vars = Some(vars.clone()),
                other => {
                    return Err(Error::type_mismatch(format!(
                        "BSON field '$merge.let' is the wrong type '{}', expected type 'object'",
                        type_name(other)
                    )));
                }
            },
            "whenMatched" => when_matched = parse_when_matched(v)?,
            "whenNotMatched" => when_not_matched = parse_when_not_matched(v)?,
            other => {
                return Err(Error::location(
                    40415,
                    format!("BSON field '$merge.{other}' is an unknown field."),
                ));
            }
        }
    }
    let Some((db, coll)) = into else {
        return Err(missing_field("$merge", "into"));
    };
    let let_vars = match (&when_matched, let_vars) {
        (WhenMatched::Pipeline(_), vars) => {
            let vars = vars.unwrap_or_else(|| doc! {"new": "$$ROOT"});
            if let Some(new) = vars.get("new")
                && new.as_str() != Some("$$ROOT")
            {
                return Err(Error::location(
                    51273,
                    "'let' may not define a value for the reserved 'new' variable other than \
                     '$$ROOT'",
                ));
            }
            let mut vars = vars;
            if !vars.contains_key("new") && when_not_matched == WhenNotMatched::Insert {
                vars.insert("new", "$$ROOT");
            }
            vars
        }
        (other, Some(_)) => {
            return Err(Error::location(
                51199,
                format!(
                    "Cannot use 'let' variables with 'whenMatched: {}' mode",
                    other.name()
                ),
            ));
        }
        (_, None) => Document::new(),
    };
    Ok(MergeSpec {
        db,
        coll,
        on,
        let_vars,
        when_matched,
        when_not_matched,
    })
}

/// `into`: a collection name, or `{db, coll}`.
fn parse_into(v: &Bson) -> Result<(Option<String>, String)> {
    match v {
        Bson::String(s) if s.is_empty() => Err(Error::location(
            5786800,
            "$merge 'into' field cannot be an empty string",
        )),
        Bson::String(s) => Ok((None, s.clone())),
        Bson::Document(d) => {
            let mut db = None;
            let mut coll = None;
            for (k, v) in d {
                match k.as_str() {
                    "db" => db = Some(super::out::string_field("into", k, v)?),
                    "coll" => match v {
                        Bson::Null | Bson::Undefined => {}
                        other => coll = Some(super::out::string_field("into", k, other)?),
                    },
                    other => {
                        return Err(Error::location(
                            40415,
                            format!("BSON field 'into.{other}' is an unknown field."),
                        ));
                    }
                }
            }
            match coll {
                Some(c) if !c.is_empty() => Ok((db, c)),
                _ => Err(Error::location(
                    5786801,
                    "$merge 'into' field must specify a 'coll' that is not empty, null or \
                     undefined",
                )),
            }
        }
        other => Err(Error::location(
            51178,
            format!(
                "$merge 'into' field  must be either a string or an object, but found {}",
                type_name(other)
            ),
        )),
    }
}

fn parse_on(v: &Bson) -> Result<Vec<String>> {
    let fields = match v {
        Bson::String(s) => vec![s.clone()],
        Bson::Array(items) => items
            .iter()
            .map(|item| match item {
                Bson::String(s) => Ok(s.clone()),
                other => Err(Error::location(
                    51134,
                    format!(
                        "$merge 'on' array elements must be strings, but found {}",
                        type_name(other)
                    ),
                )),
            })
            .collect::<Result<_>>()?,
        other => {
            return Err(Error::location(
                51186,
                format!(
                    "$merge 'on' field  must be either a string or an array of strings, but \
                     found {}",
                    type_name(other)
                ),
            ));
        }
    };
    if fields.is_empty() {
        return Err(Error::location(
            51187,
            "If explicitly specifying $merge 'on', must include at least one field",
        ));
    }
    Ok(fields)
}

fn bad_enum(value: &str, field: &str) -> Error {
    Error::bad_value(format!(
        "Enumeration value '{value}' for field '{field}' is not a valid value."
    ))
}

fn parse_when_matched(v: &Bson) -> Result<WhenMatched> {
    match v {
        Bson::Array(items) => Ok(WhenMatched::Pipeline(items.clone())),
        Bson::String(s) => match s.as_str() {
            "replace" => Ok(WhenMatched::Replace),
            "keepExisting" => Ok(WhenMatched::KeepExisting),
            "merge" => Ok(WhenMatched::Merge),
            "fail" => Ok(WhenMatched::Fail),
            other => Err(bad_enum(other, "whenMatched")),
        },
        other => Err(Error::location(
            51191,
            format!(
                "$merge 'whenMatched' field  must be either a string or an array, but found {}",
                type_name(other)
            ),
        )),
    }
}

fn parse_when_not_matched(v: &Bson) -> Result<WhenNotMatched> {
    match v {
        Bson::String(s) => match s.as_str() {
            "insert" => Ok(WhenNotMatched::Insert),
            "discard" => Ok(WhenNotMatched::Discard),
            "fail" => Ok(WhenNotMatched::Fail),
            other => Err(bad_enum(other, "$merge.whenNotMatched")),
        },
        other => Err(Error::type_mismatch(format!(
            "BSON field '$merge.whenNotMatched' is the wrong type '{}', expected type 'string'",
            type_name(other)
        ))),
    }
}

/// MongoDB's table of merge strategies: `keepExisting` and `fail` only go with `insert`.
fn check_modes(spec: &MergeSpec) -> Result<()> {
    let supported = match spec.when_matched {
        WhenMatched::KeepExisting | WhenMatched::Fail => {
            spec.when_not_matched == WhenNotMatched::Insert
        }
        _ => true,
    };
    if supported {
        return Ok(());
    }
    Err(Error::location(
        51181,
        format!(
            "Combination of $merge modes 'whenMatched: {}' and 'whenNotMatched: {}' is not \
             supported",
            spec.when_matched.name(),
            spec.when_not_matched.name()
        ),
    ))
}

/// A `whenMatched` pipeline is an update pipeline: only the reshaping stages, parsed here so
/// its errors surface before anything runs (it is parsed again per document with `$$new`).
fn check_update_pipeline(items: &[Bson], let_vars: &Document, cx: &ParseContext<'_>) -> Result<()> {
    for item in items {
        if let Bson::Document(stage) = item
            && let Some(name) = stage.keys().next()
            && !UPDATE_PIPELINE_STAGES.contains(&name.as_str())
            && stage.len() == 1
            && crate::pipeline::stages::REGISTRY
                .iter()
                .any(|(n, _)| n == name)
        {
            return Err(Error::new(
                ErrorCode::InvalidOptions,
                format!("{name} is not allowed to be used within an update"),
            ));
        }
    }
    let mut scope = cx.scope.clone();
    for (name, value) in let_vars {
        crate::expression::check_variable_name_for_write(name)?;
        crate::expression::Expression::parse_in(value, cx.scope)?;
        // A placeholder: the values come from each result document.
        scope.constants.push((name.clone(), Some(Bson::Null)));
    }
    Pipeline::parse_sub(items, &scope, cx.depth).map(|_| ())
}

impl WriteStage for Merge {
    fn target(&self) -> WriteTarget<'_> {
        WriteTarget::Merge(&self.spec)
    }

    fn serialize_in(&self, db: &str) -> Document {
        let mut d = self.serialize();
        if let Ok(spec) = d.get_document_mut("$merge")
            && let Ok(into) = spec.get_document_mut("into")
            && !into.contains_key("db")
        {
            let coll = into.remove("coll").unwrap_or(Bson::Null);
            into.insert("db", db);
            into.insert("coll", coll);
        }
        d
    }
}

impl Stage for Merge {
    fn name(&self) -> &'static str {
        "$merge"
    }

    fn apply(&self, _input: Vec<Document>, _cx: &RunContext<'_>) -> Result<Vec<Document>> {
        Err(writer_applied(self.name()))
    }

    fn serialize(&self) -> Document {
        let s = &self.spec;
        let mut into = Document::new();
        if let Some(db) = &s.db {
            into.insert("db", db.clone());
        }
        into.insert("coll", s.coll.clone());
        let mut spec = doc! {"into": into};
        let on = s.on_fields();
        if on.len() == 1 {
            spec.insert("on", on[0].clone());
        } else {
            spec.insert("on", on);
        }
        if !s.let_vars.is_empty() {
            spec.insert("let", s.let_vars.clone());
        }
        match &s.when_matched {
            WhenMatched::Pipeline(items) => spec.insert("whenMatched", items.clone()),
            other => spec.insert("whenMatched", other.name()),
        };
        spec.insert("whenNotMatched", s.when_not_matched.name());
        doc! {"$merge": spec}
    }

    fn as_writer(&self) -> Option<&dyn WriteStage> {
        Some(self)
    }
}

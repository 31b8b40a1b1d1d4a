//! The mongo shell language on Boa.
//!
//! [`Shell::eval`] takes one input (a line or a multi-line block) and returns an [`Evaluation`]:
//! what `print` wrote, the displayed result in mongosh's format (or the legacy 3.0 shell's), or
//! the error, exactly as the shell would show it. Shell syntax (`use`, `show`, `it`) is handled
//! before JavaScript; everything else runs in a Boa context that has no door to the host: no DOM,
//! no network, no timers, and runaway loops and recursion stopped by Boa's runtime limits.
//!
//! The shell API (`db`, collections, cursors, BSON types) is JavaScript in `js/`, calling the
//! engine through a small native bridge (`runtime.rs`); values cross in `convert.rs` only.
//!
//! Printing style: results print as mongosh does by default. The legacy 3.0 shell's style (as
//! the books show it: `WriteResult({ "nInserted" : 1 })`, `{ "a" : 1 }`) is chosen with
//! [`Shell::set_style`] from the host, or from shell code with the Sprout-specific global
//! `sprout.setStyle('legacy')` (back with `sprout.setStyle('mongosh')`; `sprout.getStyle()`).
//!
//! Scripts: `load(name)` runs a script the host registered with [`Shell::add_script`] (there is
//! no file system in the browser); the native CLI also lets it read real files.
//!
//! Clock: `new Date()`, `Date.now()`, `ISODate()` and generated ObjectIds read the engine's clock,
//! and `Math.random()`/`UUID()` the session's seed, so a session on a simulated clock reproduces.
//! `sprout.advanceClock(seconds)` moves the engine's clock on (TTL indexes expire documents on
//! it) and `sprout.clock()` reads it; see `docs/sprout-shell.md`.

mod bson_backed;
pub mod convert;
pub mod dataset;
pub mod dates;
mod ejson;
mod hints;
pub mod host;
pub mod jobs;
#[cfg(test)]
mod js_minify;
mod loose_dates;
mod nesting;
pub mod preprocess;
pub mod printer;
pub mod regex_limit;
mod replset;
mod runtime;
mod session;
mod sharding;
mod sharding_view;
pub mod transfer;
pub mod value_caps;
mod where_eval;

use std::cell::RefCell;
use std::rc::Rc;

use boa_engine::builtins::promise::PromiseState;
use boa_engine::object::builtins::JsPromise;
use boa_engine::{Context, JsError, JsValue, js_string};
use bson::{Bson, Document};
use engine::Engine;

pub use nesting::lexical_depth;
use preprocess::ShellCommand;
pub use printer::{JsonMode, PrintOptions, Style};
pub use replset::ReplicaSetView;
use session::Session;
pub use sharding_view::{RoutedQuery, ShardedClusterView};

/// The default [`Limits::nesting`]: far deeper than written code nests, shallow enough that
/// Boa's recursive compiler stays within the stack (docs/reliability.md, "Shell limits").
pub const DEFAULT_NESTING: usize = 400;

/// The default [`Limits::parse_stack_bytes`]: all the stack there is, less a reserve for Boa's
/// compiler (see `nesting::stack`).
pub const DEFAULT_PARSE_STACK_BYTES: usize = usize::MAX;

/// Limits that keep learner code from hanging or crashing the page.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Iterations of any one loop before it is stopped.
    pub loop_iterations: u64,
    /// Depth of JavaScript call recursion.
    pub recursion: usize,
    /// Deepest nesting of brackets, operators and statements in one piece of code (the typed
    /// input, a loaded script, `eval`/`Function` text, `$where` code).
    pub nesting: usize,
    /// Native stack, in bytes, that parsing one input may use at most (see `nesting::stack`:
    /// it never uses the last few MiB natively, 256 KiB in wasm, whatever this says).
    pub parse_stack_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            loop_iterations: 10_000_000,
            recursion: 400,
            nesting: DEFAULT_NESTING,
            parse_stack_bytes: DEFAULT_PARSE_STACK_BYTES,
        }
    }
}

/// How a shell starts.
#[derive(Debug, Clone, Copy)]
pub struct ShellConfig {
    pub style: Style,
    pub limits: Limits,
    /// Seeds UUID() and similar randomness, for reproducible sessions.
    pub seed: u64,
}

impl Default for ShellConfig {
    fn default() -> Self {
        ShellConfig {
            style: Style::Mongosh,
            limits: Limits::default(),
            seed: 0x5EED,
        }
    }
}

/// A shell error as it is shown: `name: message` (e.g. `MongoServerError[DuplicateKey]: E11000 …`).
#[derive(Debug, Clone, PartialEq)]
pub struct ShellError {
    pub name: String,
    pub message: String,
    /// The server error code, for MongoServerError and friends.
    pub code: Option<i32>,
}

impl std::fmt::Display for ShellError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.name, self.message)
    }
}

/// The outcome of evaluating one input.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Evaluation {
    /// Lines written by `print`, `printjson` and friends, in order.
    pub printed: Vec<String>,
    /// The displayed result, if there is one to show.
    pub result: Option<String>,
    /// The result as BSON, for `--json` output and structural checks.
    pub value: Option<Bson>,
    /// The result is a cursor's batch and the cursor has more: `it` shows the next batch (the
    /// text says `Type "it" for more`; callers read this flag, never the text).
    pub more: bool,
    pub error: Option<ShellError>,
    /// The input is an unfinished statement: the caller should ask for more lines.
    pub incomplete: bool,
    /// The user asked to leave (`exit`).
    pub exit: bool,
    /// Hints the shell adds for a learner, not part of mongosh's output (and not in [`text`]):
    /// "did you mean find?" after a call to a method that does not exist, a note that an empty
    /// read came from a collection that does not exist. In the language set with
    /// [`Shell::set_language`].
    ///
    /// [`text`]: Evaluation::text
    pub notes: Vec<String>,
    /// The input ended in an aggregation over a collection, shown as its cursor: the pipeline,
    /// for a stage-by-stage view (`Engine::preview_pipeline`).
    pub pipeline: Option<AggregatePipeline>,
}

/// An aggregation the shell ran: where and which stages.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AggregatePipeline {
    pub db: String,
    pub collection: String,
    pub stages: Vec<Bson>,
    /// The `let` option's variables.
    pub let_vars: Option<Document>,
}

impl Evaluation {
    /// Everything the shell shows for this input, as one text.
    pub fn text(&self) -> String {
        let mut parts: Vec<String> = self.printed.clone();
        if let Some(r) = self.result.as_ref().filter(|r| !r.is_empty()) {
            parts.push(r.clone());
        }
        if let Some(e) = &self.error {
            parts.push(e.to_string());
        }
        parts.join("\n")
    }
}

/// A mongo shell session over an engine.
pub struct Shell {
    ctx: Context,
    session: Rc<RefCell<Session>>,
    limits: Limits,
    /// Help and notes in simplified Chinese (the web page's language); English otherwise.
    chinese: bool,
}

impl Shell {
    pub fn new(engine: Engine, config: ShellConfig) -> Shell {
        let session = Rc::new(RefCell::new(Session::new(
            engine,
            config.style,
            config.seed,
        )));
        let nesting = nesting::NestingLimits {
            depth: config.limits.nesting,
            stack_bytes: config.limits.parse_stack_bytes,
        };
        let mut ctx = Context::builder()
            .host_hooks(Rc::new(host::ShellHooks { limits: nesting }))
            .job_executor(Rc::new(jobs::BoundedJobs::default()))
            .module_loader(Rc::new(boa_engine::module::IdleModuleLoader))
            .build()
            .unwrap_or_default();
        ctx.insert_data(nesting);
        ctx.runtime_limits_mut()
            .set_loop_iteration_limit(config.limits.loop_iterations);
        ctx.runtime_limits_mut()
            .set_recursion_limit(config.limits.recursion);
        // The runtime is our own code; failing to install it is a build defect, caught by tests.
        if let Err(e) = runtime::add_runtime(&mut ctx, session.clone()) {
            let msg = e.to_string();
            session
                .borrow_mut()
                .print(format!("shell runtime failed to start: {msg}"));
        }
        Shell {
            ctx,
            session,
            limits: config.limits,
            chinese: false,
        }
    }

    /// The language of `help` texts and of [`Evaluation::notes`]: simplified Chinese when
    /// `chinese`, English otherwise (the CLI's; the web page follows its language switch).
    pub fn set_language(&mut self, chinese: bool) {
        self.chinese = chinese;
        let code = if chinese { "zh" } else { "en" };
        let _ = self.ctx.eval(boa_engine::sprout_limits::source(
            format!("__sproutHelp.setLanguage('{code}')").as_bytes(),
        ));
    }

    /// Runs `f` with the engine (for callers that list collections or drain changes).
    pub fn with_engine<R>(&self, f: impl FnOnce(&mut Engine) -> R) -> R {
        f(&mut self.session.borrow_mut().engine)
    }

    /// Runs a database command where the shell's own commands go: through the router or the
    /// replica set the shell is connected to (`ShardingTest`, `rs.initiate`), else on its
    /// engine. Lets callers read what the learner sees (a lesson check's collection contents).
    pub fn run_command(&mut self, db: &str, command: &Document) -> Document {
        let mut session = self.session.borrow_mut();
        if let Some(reply) = sharding::run_command(&mut session, db, command) {
            return reply;
        }
        if let Some(reply) = replset::run_command(&mut session, db, command) {
            return reply;
        }
        session.engine.run_command(db, command)
    }

    /// Runs a command where [`Shell::run_command`] sends it, for a monitoring view (the page's
    /// sidebar): through the router, or to the replica set's primary (`primaryPreferred`,
    /// whatever the connection's read preference), else on the engine. It leaves what
    /// [`Shell::replica_set_view`] and [`Shell::sharded_cluster_view`] report about the
    /// learner's last command as it was.
    pub fn run_view_command(&mut self, db: &str, command: &Document) -> Document {
        let mut session = self.session.borrow_mut();
        if let Some(reply) = sharding::run_view_command(&mut session, db, command) {
            return reply;
        }
        if let Some(reply) = replset::run_view_command(&mut session, db, command) {
            return reply;
        }
        session.engine.run_command(db, command)
    }

    /// Replaces the engine, keeping JavaScript state (used when a dataset is reset).
    pub fn replace_engine(&mut self, engine: Engine) -> Engine {
        std::mem::replace(&mut self.session.borrow_mut().engine, engine)
    }

    /// The prompt's prefix while the shell is connected to a simulated replica set
    /// (`rs1 [direct: primary] `); empty otherwise.
    pub fn prompt_prefix(&self) -> String {
        let session = self.session.borrow();
        sharding::prompt_prefix(&session)
            .or_else(|| replset::prompt_prefix(&session))
            .unwrap_or_default()
    }

    /// The replica set the shell is connected to, as `rs.status()` reports it, with the member
    /// that served the last command; `None` when the shell is not connected to one.
    pub fn replica_set_view(&self) -> Option<ReplicaSetView> {
        replset::view(&mut self.session.borrow_mut())
    }

    /// The sharded cluster the shell is connected to (through its router), as `config.shards`,
    /// `config.collections` and `config.chunks` describe it, with where the learner's last
    /// query went; `None` when the shell is not connected to one.
    pub fn sharded_cluster_view(&self) -> Option<ShardedClusterView> {
        sharding_view::view(&mut self.session.borrow_mut())
    }

    pub fn style(&self) -> Style {
        self.session.borrow().style
    }

    pub fn set_style(&mut self, style: Style) {
        self.session.borrow_mut().style = style;
    }

    /// Registers a script that `load(name)` runs (there is no file system in the browser).
    pub fn add_script(&mut self, name: &str, source: &str) {
        self.session.borrow_mut().add_script(name, source);
    }

    /// Lets `load(path)` read real files when no script of that name is registered (CLI only;
    /// without effect in wasm).
    pub fn allow_file_loading(&mut self, allow: bool) {
        self.session.borrow_mut().allow_files = allow;
    }

    /// The current database's name (`db.getName()`).
    pub fn current_db(&mut self) -> String {
        let v = self.call_shell("currentDbName", &[]);
        match v {
            Ok(v) => v
                .to_string(&mut self.ctx)
                .map(|s| s.to_std_string_escaped())
                .unwrap_or_default(),
            Err(_) => "test".to_string(),
        }
    }

    /// Evaluates one input and returns what the shell shows.
    pub fn eval(&mut self, input: &str) -> Evaluation {
        nesting::stack::with_stack(|| self.eval_on_stack(input))
    }

    fn eval_on_stack(&mut self, input: &str) -> Evaluation {
        let _stack = nesting::stack::StackScope::enter(self.limits.parse_stack_bytes);
        regex_limit::install();
        regex_limit::clear();
        value_caps::install();
        // Reads the page's own views made between inputs are not this input's.
        self.session.borrow_mut().reads_served_elsewhere.clear();
        let mut out = Evaluation::default();
        match preprocess::classify(input) {
            ShellCommand::Empty => {}
            ShellCommand::Exit => out.exit = true,
            ShellCommand::Use(name) => {
                if let Err(e) = engine::catalog::validate_db_name(&name) {
                    out.error = Some(server_error(&e));
                } else if self.current_db() == name {
                    out.result = Some(format!("already on db {name}"));
                    out.value = out.result.clone().map(Bson::String);
                } else {
                    let r = self.call_shell(
                        "useDb",
                        &[JsValue::from(boa_engine::JsString::from(name.as_str()))],
                    );
                    self.show(r, &mut out);
                }
            }
            ShellCommand::Show(what) => self.show_command(&what, &mut out),
            ShellCommand::It => match self.call_shell("iterate", &[]) {
                Ok(record) => {
                    if let Err(e) = self.render(&record, &mut out) {
                        out.error = Some(self.js_error(e));
                    }
                }
                Err(e) => out.error = Some(self.js_error(e)),
            },
            ShellCommand::Js(code) => {
                let r = nesting::eval_checked(&mut self.ctx, &code);
                if r.as_ref().err().is_some_and(is_incomplete) {
                    out.incomplete = true;
                    out.printed = self.session.borrow_mut().take_printed();
                    return out;
                }
                self.display(r, &mut out);
                self.explain_not_a_function(&code, &mut out);
            }
        }
        // The input's promise jobs run after it, as a REPL drains its microtasks.
        if let Err(e) = self.ctx.run_jobs() {
            let e = self.js_error(e);
            out.error.get_or_insert(e);
        }
        let (printed, served) = {
            let mut session = self.session.borrow_mut();
            (
                session.take_printed(),
                std::mem::take(&mut session.reads_served_elsewhere),
            )
        };
        let mut all = printed;
        all.append(&mut out.printed);
        out.printed = all;
        if !served.is_empty() {
            out.notes.push(self.served_note(&served));
        }
        out
    }

    /// The note for reads that members other than the primary served (`replset.rs`).
    fn served_note(&self, served: &[(String, String)]) -> String {
        let members: Vec<String> = served
            .iter()
            .map(|(host, state)| format!("{host} ({state})"))
            .collect();
        if self.chinese {
            format!(
                "读取由 {} 完成：读偏好选中了这个成员，它的数据可能落后于主节点。",
                members.join("、")
            )
        } else {
            format!(
                "Read from {}: the read preference chose this member, whose data may lag behind the primary's.",
                members.join(", ")
            )
        }
    }

    /// Boa's "not a callable function" for a call to a method that does not exist becomes
    /// mongosh's "<callee> is not a function", with the nearest method as a note.
    fn explain_not_a_function(&mut self, code: &str, out: &mut Evaluation) {
        let Some(error) = out.error.as_mut() else {
            return;
        };
        if error.name != "TypeError" || !error.message.contains("not a callable function") {
            return;
        }
        let mut names = |kind: &str| -> Vec<String> {
            let arg = JsValue::from(boa_engine::JsString::from(kind));
            self.call_shell("methodNames", &[arg])
                .ok()
                .and_then(|v| convert::to_bson(&v, &mut self.ctx).ok())
                .and_then(|b| match b {
                    Bson::Array(items) => Some(
                        items
                            .into_iter()
                            .filter_map(|i| i.as_str().map(str::to_string))
                            .collect(),
                    ),
                    _ => None,
                })
                .unwrap_or_default()
        };
        let methods = hints::Methods {
            db: names("db"),
            collection: names("collection"),
            cursor: names("cursor"),
        };
        if let Some(found) = hints::not_a_function(code, &methods)
            && let Some(error) = out.error.as_mut()
        {
            error.message = format!("{} is not a function", found.callee);
            if let Some(method) = found.suggestion {
                out.notes.push(if self.chinese {
                    format!("你是不是想用 {method}？")
                } else {
                    format!("Did you mean {method}?")
                });
            }
        }
    }

    fn call_shell(&mut self, method: &str, args: &[JsValue]) -> Result<JsValue, JsError> {
        let shell = self
            .ctx
            .global_object()
            .get(js_string!("__sproutShell"), &mut self.ctx)?;
        let shell = shell
            .as_object()
            .ok_or_else(|| JsError::from_opaque(JsValue::undefined()))?;
        let f = shell.get(boa_engine::JsString::from(method), &mut self.ctx)?;
        let f = f
            .as_object()
            .ok_or_else(|| JsError::from_opaque(JsValue::undefined()))?;
        f.call(&JsValue::from(shell.clone()), args, &mut self.ctx)
    }

    fn show(&mut self, r: Result<JsValue, JsError>, out: &mut Evaluation) {
        match r {
            Ok(v) => {
                let text = v
                    .to_string(&mut self.ctx)
                    .map(|s| s.to_std_string_escaped())
                    .unwrap_or_default();
                out.value = Some(Bson::String(text.clone()));
                out.result = Some(text);
            }
            Err(e) => out.error = Some(self.js_error(e)),
        }
    }

    fn show_command(&mut self, what: &str, out: &mut Evaluation) {
        match what {
            "collections" | "tables" => {
                let db = self.current_db();
                let names = self.with_engine(|e| {
                    e.catalog()
                        .collection_names(&db)
                        .into_iter()
                        .map(str::to_string)
                        .collect::<Vec<_>>()
                });
                out.value = Some(Bson::Array(
                    names.iter().cloned().map(Bson::String).collect(),
                ));
                out.result = Some(names.join("\n"));
            }
            "dbs" | "databases" => {
                let reply =
                    self.with_engine(|e| e.run_command("admin", &bson::doc! {"listDatabases": 1}));
                let rows: Vec<(String, i64)> = reply
                    .get_array("databases")
                    .map(|a| {
                        a.iter()
                            .filter_map(|d| d.as_document())
                            .map(|d| {
                                (
                                    d.get_str("name").unwrap_or("").to_string(),
                                    d.get_i64("sizeOnDisk").unwrap_or(0),
                                )
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                out.result = Some(format_databases(&rows));
                out.value = Some(Bson::Document(reply));
            }
            // Sprout has no users or user-defined roles: mongosh prints the empty list.
            "users" | "roles" => {
                out.result = Some("[]".to_string());
                out.value = Some(Bson::Array(vec![]));
            }
            "profile" => {
                out.result = Some(
                    "db.system.profile is empty.\nUse db.setProfilingLevel(2) will enable profiling.\nUse db.getCollection('system.profile').find() to show raw profile entries."
                        .to_string(),
                );
            }
            other => {
                out.error = Some(ShellError {
                    name: "MongoshInvalidInputError".into(),
                    message: format!(
                        "[COMMON-10001] '{other}' is not a valid argument for \"show\"."
                    ),
                    code: None,
                });
            }
        }
    }

    /// Turns an evaluation result into what the shell displays, via `__sproutShell.display`.
    fn display(&mut self, r: Result<JsValue, JsError>, out: &mut Evaluation) {
        let shown = match r.and_then(|v| self.settle(v)) {
            Ok(v) => self.call_shell("display", &[v]),
            Err(e) => Err(e),
        };
        let record = match shown {
            Ok(v) => v,
            Err(e) => {
                out.error = Some(self.js_error(e));
                return;
            }
        };
        if let Err(e) = self.render(&record, out) {
            out.error = Some(self.js_error(e));
        }
    }

    /// A promise that an input evaluates to is awaited, as mongosh's REPL awaits it: once the
    /// input's promise jobs have run, a fulfilled promise shows its value and a rejected one
    /// its reason as the input's error (`import('./x.mjs')` reports that module loading is
    /// off instead of printing `{}`). A promise still pending shows as it is.
    fn settle(&mut self, value: JsValue) -> Result<JsValue, JsError> {
        let Some(promise) = value
            .as_object()
            .and_then(|o| JsPromise::from_object(o).ok())
        else {
            return Ok(value);
        };
        self.ctx.run_jobs()?;
        match promise.state() {
            PromiseState::Fulfilled(v) => Ok(v),
            PromiseState::Rejected(reason) => Err(JsError::from_opaque(reason)),
            PromiseState::Pending => Ok(value),
        }
    }

    fn render(&mut self, record: &JsValue, out: &mut Evaluation) -> Result<(), JsError> {
        let Some(obj) = record.as_object() else {
            return Ok(());
        };
        let kind = obj
            .get(js_string!("kind"), &mut self.ctx)?
            .to_string(&mut self.ctx)?
            .to_std_string_escaped();
        let style = self.style();
        match kind.as_str() {
            "none" => {}
            "text" => {
                let text = obj
                    .get(js_string!("text"), &mut self.ctx)?
                    .to_string(&mut self.ctx)?
                    .to_std_string_escaped();
                out.value = Some(Bson::String(text.clone()));
                out.result = Some(text);
            }
            "value" => {
                let value = obj.get(js_string!("value"), &mut self.ctx)?;
                // mongosh prints `undefined` fields as such; the legacy style keeps null (see
                // `runtime::format`).
                let v = convert::to_bson_for_printing(
                    &value,
                    &mut self.ctx,
                    style == Style::Mongosh,
                    style == Style::Legacy,
                )?;
                out.result = Some(printer::format_value(
                    &v,
                    &PrintOptions {
                        style,
                        pretty: true,
                    },
                ));
                out.value = Some(v);
            }
            "named" => {
                let name = obj
                    .get(js_string!("name"), &mut self.ctx)?
                    .to_string(&mut self.ctx)?
                    .to_std_string_escaped();
                let doc = convert::to_document(
                    &obj.get(js_string!("value"), &mut self.ctx)?,
                    &mut self.ctx,
                )?;
                // The legacy API's results keep their class name in both styles (WriteResult({ … })),
                // so a learner can tell them from mongosh's result documents.
                out.result = Some(match style {
                    Style::Legacy => printer::format_named(
                        &name,
                        &doc,
                        &PrintOptions {
                            style,
                            pretty: true,
                        },
                    ),
                    Style::Mongosh => {
                        format!(
                            "{name}({})",
                            printer::format_value(
                                &Bson::Document(doc.clone()),
                                &PrintOptions {
                                    style,
                                    pretty: true
                                }
                            )
                        )
                    }
                });
                out.value = Some(Bson::Document(doc));
            }
            "cursor" => {
                let docs =
                    convert::to_bson(&obj.get(js_string!("docs"), &mut self.ctx)?, &mut self.ctx)?;
                let more = obj.get(js_string!("more"), &mut self.ctx)?.to_boolean();
                let pretty = obj.get(js_string!("pretty"), &mut self.ctx)?.to_boolean();
                let docs: Vec<Document> = match &docs {
                    Bson::Array(items) => items
                        .iter()
                        .filter_map(|d| d.as_document().cloned())
                        .collect(),
                    _ => Vec::new(),
                };
                let mut text = if docs.is_empty() {
                    String::new()
                } else {
                    printer::format_cursor_batch(&docs, &PrintOptions { style, pretty })
                };
                if more {
                    text.push_str("\nType \"it\" for more");
                }
                let aggregate = obj.get(js_string!("aggregate"), &mut self.ctx)?;
                if !aggregate.is_undefined()
                    && let Bson::Document(a) = convert::to_bson(&aggregate, &mut self.ctx)?
                {
                    out.pipeline = Some(AggregatePipeline {
                        db: a.get_str("db").unwrap_or_default().to_string(),
                        collection: a.get_str("coll").unwrap_or_default().to_string(),
                        stages: a.get_array("pipeline").cloned().unwrap_or_default(),
                        let_vars: a.get_document("let").ok().cloned(),
                    });
                }
                let missing = obj.get(js_string!("missing"), &mut self.ctx)?;
                if let Some(namespace) = missing.as_string().map(|s| s.to_std_string_escaped()) {
                    out.notes.push(if self.chinese {
                        format!("集合 {namespace} 不存在，所以结果为空（名称拼写正确吗？）")
                    } else {
                        format!(
                            "Collection {namespace} does not exist, so the result is empty (is the name spelt right?)"
                        )
                    });
                }
                out.result = Some(text);
                out.value = Some(docs_value(docs));
                out.more = more;
            }
            _ => {}
        }
        Ok(())
    }

    /// Formats a JS error as mongosh shows it.
    fn js_error(&mut self, e: JsError) -> ShellError {
        if let Some(engine_err) = e.as_engine() {
            // Runtime limits (loops, recursion, stack) end the command; try/catch cannot catch them.
            let text = engine_err.to_string();
            // Boa reports a limit reached inside an operation the spec says cannot fail (an
            // `async` function creating its promise at the recursion limit) as a "panic".
            let message = if text.starts_with("EnginePanic") {
                // Boa's text names its internals (`EnginePanic`); the learner sees what happened.
                "Maximum call stack size exceeded: the command was stopped inside an `async` \
                 function or promise job at the recursion limit; is there a recursion that never \
                 ends?"
                    .to_string()
            } else {
                format!(
                    "{text} (the command was stopped: is there a loop or recursion that never ends?)"
                )
            };
            return ShellError {
                name: "RangeError".into(),
                message,
                code: None,
            };
        }
        if let Some(thrown) = e.as_opaque().and_then(|v| v.as_object()) {
            // Errors thrown by shell code (MongoServerError[…], MongoBulkWriteError) carry their
            // own name, message and code.
            let name = thrown
                .get(js_string!("name"), &mut self.ctx)
                .ok()
                .and_then(|v| v.as_string());
            let message = thrown
                .get(js_string!("message"), &mut self.ctx)
                .ok()
                .and_then(|v| v.as_string());
            if let (Some(name), Some(message)) = (name, message) {
                let code = thrown
                    .get(js_string!("code"), &mut self.ctx)
                    .ok()
                    .and_then(|v| v.as_number())
                    .map(|n| n as i32);
                return ShellError {
                    name: name.to_std_string_escaped(),
                    message: message.to_std_string_escaped(),
                    code,
                };
            }
        }
        if let Ok(native) = e.try_native(&mut self.ctx) {
            return ShellError {
                name: native.kind().to_string(),
                message: native.message().to_string(),
                code: None,
            };
        }
        let value = e.into_opaque(&mut self.ctx).unwrap_or_default();
        if let Some(obj) = value.as_object() {
            let name = obj
                .get(js_string!("name"), &mut self.ctx)
                .ok()
                .and_then(|v| v.as_string())
                .map(|s| s.to_std_string_escaped());
            let message = obj
                .get(js_string!("message"), &mut self.ctx)
                .ok()
                .and_then(|v| v.as_string())
                .map(|s| s.to_std_string_escaped());
            let code = obj
                .get(js_string!("code"), &mut self.ctx)
                .ok()
                .and_then(|v| v.as_number())
                .map(|n| n as i32);
            if let (Some(name), Some(message)) = (name, message) {
                return ShellError {
                    name,
                    message,
                    code,
                };
            }
        }
        let text = value
            .to_string(&mut self.ctx)
            .map(|s| s.to_std_string_escaped())
            .unwrap_or_else(|_| "exception".into());
        ShellError {
            name: "Uncaught".into(),
            message: text,
            code: None,
        }
    }
}

fn docs_value(docs: Vec<Document>) -> Bson {
    Bson::Array(docs.into_iter().map(Bson::Document).collect())
}

fn server_error(e: &engine::Error) -> ShellError {
    ShellError {
        name: format!("MongoServerError[{}]", e.code_name()),
        message: e.message.clone(),
        code: Some(e.code()),
    }
}

/// True when the parse failed only because the input ended too early (the `...` prompt case),
/// as Node's REPL decides: an unclosed bracket, block, template literal or block comment, or a
/// statement cut after an operator. Boa reports these as `abrupt end` (with no position) or
/// as an unterminated template literal or multiline comment; an unterminated '…' or "…" string
/// is a real error, as in Node.
fn is_incomplete(e: &JsError) -> bool {
    let Some(native) = e.as_native() else {
        return false;
    };
    if !matches!(native.kind(), boa_engine::JsNativeErrorKind::Syntax) {
        return false;
    }
    let msg = native.message();
    msg == "abrupt end"
        || msg.starts_with("unterminated template literal")
        || msg.starts_with("unterminated multiline comment")
}

/// `show dbs`: names left-aligned, sizes right-aligned, as mongosh's table.
fn format_databases(rows: &[(String, i64)]) -> String {
    let sizes: Vec<String> = rows.iter().map(|(_, s)| format_bytes(*s)).collect();
    let name_w = rows.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
    let size_w = sizes.iter().map(String::len).max().unwrap_or(0);
    rows.iter()
        .zip(&sizes)
        .map(|((n, _), s)| format!("{n:<name_w$}  {s:>size_w$}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// numeral.js's `0.00 ib` format (or `0 ib` up to 1000 bytes) as mongosh uses it.
fn format_bytes(n: i64) -> String {
    let units = ["B", "KiB", "MiB", "GiB", "TiB"];
    if n <= 1000 {
        return format!("{n} B");
    }
    let mut v = n as f64;
    let mut u = 0;
    while v >= 1024.0 && u < units.len() - 1 {
        v /= 1024.0;
        u += 1;
    }
    format!("{v:.2} {}", units[u])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shell() -> Shell {
        Shell::new(Engine::new(), ShellConfig::default())
    }

    #[test]
    fn unfinished_input_asks_for_more() {
        let mut sh = shell();
        for src in [
            "db.c.find({",
            "function f() {",
            "function f() {\n  var x = 1;",
            "`abc",
            "`abc ${",
            "var x = [1,",
            "if (x)",
            "x +",
            "/* comment",
            "x = {a:",
            "class A {",
        ] {
            let ev = sh.eval(src);
            assert!(ev.incomplete, "{src:?} should be incomplete: {ev:?}");
            assert!(ev.error.is_none(), "{src:?}");
        }
    }

    #[test]
    fn broken_input_is_an_error_not_a_continuation() {
        let mut sh = shell();
        for (src, name) in [
            ("\"abc", "SyntaxError"),
            ("'abc", "SyntaxError"),
            ("db.c.find({a:1}))", "SyntaxError"),
            ("1 + ;", "SyntaxError"),
            ("x = /ab", "SyntaxError"),
        ] {
            let ev = sh.eval(src);
            assert!(!ev.incomplete, "{src:?} is not incomplete");
            assert_eq!(ev.error.map(|e| e.name), Some(name.to_string()), "{src:?}");
        }
    }

    #[test]
    fn a_cursor_says_whether_it_has_more() {
        let mut sh = shell();
        sh.eval("db.c.insertMany(Array.from({length: 25}, (_, i) => ({_id: i})))");
        let first = sh.eval("db.c.find()");
        assert!(first.more, "20 of 25 shown: {first:?}");
        let rest = sh.eval("it");
        assert!(!rest.more, "the last 5: {rest:?}");
        assert!(!sh.eval("db.c.find().limit(3)").more);
        assert!(!sh.eval("db.c.findOne()").more);
    }

    #[test]
    fn continued_input_runs_once_complete() {
        let mut sh = shell();
        assert!(sh.eval("function f(a) {").incomplete);
        assert!(sh.eval("function f(a) {\n  return a * 2").incomplete);
        let ev = sh.eval("function f(a) {\n  return a * 2\n}\nf(4)");
        assert_eq!(ev.result.as_deref(), Some("8"));
    }

    #[test]
    fn registered_scripts_load() {
        let mut sh = shell();
        sh.add_script("setup.js", "var loaded = 40 + 2;");
        assert_eq!(sh.eval("load('setup.js')").result.as_deref(), Some("true"));
        assert_eq!(sh.eval("loaded").result.as_deref(), Some("42"));
        assert_eq!(
            sh.eval("load('./setup.js')").result.as_deref(),
            Some("true")
        );
    }

    #[test]
    fn set_style_switches_printing() {
        let mut sh = shell();
        sh.set_style(Style::Legacy);
        assert_eq!(
            sh.eval("db.c.insert({_id: 1})").result.as_deref(),
            Some("WriteResult({ \"nInserted\" : 1 })")
        );
        assert_eq!(
            sh.eval("sprout.getStyle()").result.as_deref(),
            Some("legacy")
        );
    }
}

//! `sprout`: the mongo shell in a terminal, over an in-memory Sprout engine.
//!
//! ```text
//! sprout                         interactive shell (line editing and history via rustyline)
//! sprout --eval 'CODE'           run CODE, print the last result, exit
//! sprout script.js …             run script files in order
//! sprout --json=relaxed|canonical --eval 'CODE'   print the result as Extended JSON
//! sprout --quiet                 no banner
//! sprout --legacy                print like the legacy 3.0 `mongo` shell
//! sprout --dataset NAME          start with a lesson dataset loaded (and its database in use)
//! sprout --replset rs1 --nodes 3 start connected to the primary of a simulated replica set
//! sprout --sharded 2 [--nodes 3] start connected to the router of a simulated sharded cluster
//! sprout 'mongodb://h/db?readPreference=secondary' …   connect with the string's database and
//!                                read preference (as mongosh's address argument; any host
//!                                reaches the one in-process deployment)
//! sprout --import FILE …         load a mongoexport JSON file or mongodump archive first
//! sprout --export FILE …         write a collection or database in MongoDB's formats at the end
//! ```
//! The transfer options are in `sprout_cli/transfer.rs` (and `docs/sprout-shell.md`).
//! Exit status: 0 on success, 1 when evaluation failed (as mongosh), 2 for bad arguments.
//! `load(path)` reads real files here (in the browser it only finds registered scripts).

use std::io::{BufRead, IsTerminal};
use std::process::ExitCode;

use engine::Engine;
use shell::{JsonMode, Shell, ShellConfig, Style, printer};

#[path = "sprout_cli/transfer.rs"]
mod transfer;

struct Args {
    eval: Vec<String>,
    files: Vec<String>,
    json: Option<JsonMode>,
    quiet: bool,
    legacy: bool,
    /// A lesson dataset to load before anything runs (`--dataset NAME`).
    dataset: Option<String>,
    /// `--import`/`--export` and their options.
    transfer: transfer::TransferArgs,
    /// `--replset NAME [--nodes N]`: start connected to a simulated replica set's primary.
    replset: Option<String>,
    nodes: u32,
    /// `--nodes` was given (with `--sharded`, the shards are replica sets of that many members).
    nodes_given: bool,
    /// `--sharded N`: start connected to the router of a simulated cluster of N shards.
    sharded: Option<u32>,
    /// A `mongodb://` connection string (mongosh's address argument): its database and read
    /// preference, applied once the topology is started.
    connection: Option<String>,
}

/// An argument as text; one that is not UTF-8 is a usage error.
fn utf8(arg: std::ffi::OsString) -> Result<String, String> {
    arg.into_string()
        .map_err(|bad| format!("argument is not valid UTF-8: {:?}", bad.to_string_lossy()))
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        eval: Vec::new(),
        files: Vec::new(),
        json: None,
        quiet: false,
        legacy: false,
        dataset: None,
        transfer: transfer::TransferArgs::default(),
        replset: None,
        nodes: 3,
        nodes_given: false,
        sharded: None,
        connection: None,
    };
    // args_os: an argument that is not UTF-8 is a usage error (code after `--eval` is decoded
    // lossily, as mongosh does), not a panic.
    let mut it = std::env::args_os().skip(1);
    while let Some(a) = it.next() {
        if args.transfer.take(&a, &mut it)? {
            continue;
        }
        let a = utf8(a)?;
        match a.as_str() {
            // mongosh (Node.js) decodes its arguments as UTF-8, each invalid byte becoming
            // U+FFFD: `--eval $'"a\xffb"'` prints "a\u{fffd}b" there, so it runs here too.
            "--eval" | "-e" => args.eval.push(
                it.next()
                    .ok_or("--eval needs code")?
                    .to_string_lossy()
                    .into_owned(),
            ),
            "--dataset" => args.dataset = Some(utf8(it.next().ok_or("--dataset needs a name")?)?),
            a if a.starts_with("--dataset=") => {
                args.dataset = Some(a.trim_start_matches("--dataset=").to_string())
            }
            "--json" | "--json=relaxed" => args.json = Some(JsonMode::Relaxed),
            "--json=canonical" => args.json = Some(JsonMode::Canonical),
            "--replset" => {
                args.replset = Some(utf8(it.next().ok_or("--replset needs a set name")?)?)
            }
            "--nodes" => {
                let n = utf8(it.next().ok_or("--nodes needs a number")?)?;
                args.nodes = n
                    .parse()
                    .ok()
                    .filter(|n| (1..=50).contains(n))
                    .ok_or(format!("--nodes must be a number from 1 to 50, not {n}"))?;
                args.nodes_given = true;
            }
            "--sharded" => {
                let n = utf8(it.next().ok_or("--sharded needs a number of shards")?)?;
                args.sharded = Some(
                    n.parse()
                        .ok()
                        .filter(|n| (1..=16).contains(n))
                        .ok_or(format!("--sharded must be a number from 1 to 16, not {n}"))?,
                );
            }
            "--quiet" | "-q" => args.quiet = true,
            "--legacy" => args.legacy = true,
            "--help" | "-h" => {
                println!(
                    "usage: sprout [--eval CODE] [--json[=relaxed|canonical]] [--quiet] [--legacy] [--dataset NAME] [mongodb://…] [file.js ...]\n              [--replset NAME [--nodes N]] [--sharded N [--nodes N]]\n              [--import FILE] [--export FILE] [--type json|archive] [--db D] [--collection C]\n              [--jsonArray] [--jsonFormat relaxed|canonical] [--drop] [--fromDb D]"
                );
                std::process::exit(0);
            }
            s if s.starts_with("--json=") => return Err(format!("unknown --json mode: {s}")),
            s if s.starts_with('-') => return Err(format!("unknown option: {s}")),
            s if s.starts_with("mongodb://") || s.starts_with("mongodb+srv://") => {
                if args.connection.is_some() {
                    return Err("only one connection string may be given".to_string());
                }
                args.connection = Some(a)
            }
            _ => args.files.push(a),
        }
    }
    Ok(args)
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("sprout: {e}");
            return ExitCode::from(2);
        }
    };
    let style = if args.legacy {
        Style::Legacy
    } else {
        Style::Mongosh
    };
    let mut shell = Shell::new(
        Engine::new(),
        ShellConfig {
            style,
            ..ShellConfig::default()
        },
    );
    shell.allow_file_loading(true);
    if let Some(name) = &args.dataset {
        let loaded = shell::dataset::dataset(name).and_then(|d| d.load_into(&mut shell));
        if let Err(e) = loaded {
            let names: Vec<&str> = shell::dataset::DATASETS.iter().map(|(n, _)| *n).collect();
            eprintln!("sprout: {e} (datasets: {})", names.join(", "));
            return ExitCode::from(2);
        }
    }
    if let Some(name) = &args.replset {
        // As the mongo shell's own fixture starts a set: ReplSetTest (js/replset.js).
        let name_json = serde_json::to_string(name).unwrap_or_default();
        let code = format!(
            "new ReplSetTest({{name: {name_json}, nodes: {}}}).initiate()",
            args.nodes
        );
        if let Some(e) = shell.eval(&code).error {
            eprintln!("sprout: --replset: {e}");
            return ExitCode::from(2);
        }
    }
    if let Some(shards) = args.sharded {
        // As the mongo shell's own fixture starts a cluster: ShardingTest (js/sharding.js).
        let rs = if args.nodes_given {
            if args.nodes > 7 {
                eprintln!("sprout: --sharded: --nodes must be at most 7 for a shard");
                return ExitCode::from(2);
            }
            format!(", rs: {{nodes: {}}}", args.nodes)
        } else {
            String::new()
        };
        let code = format!("new ShardingTest({{shards: {shards}{rs}}}); undefined");
        if let Some(e) = shell.eval(&code).error {
            eprintln!("sprout: --sharded: {e}");
            return ExitCode::from(2);
        }
    }
    if let Some(uri) = &args.connection {
        let uri_json = serde_json::to_string(uri).unwrap_or_default();
        if let Some(e) = shell
            .eval(&format!("db = connect({uri_json}); undefined"))
            .error
        {
            eprintln!("sprout: {e}");
            return ExitCode::from(2);
        }
    }
    if let Err(e) = args.transfer.run_import(&mut shell) {
        eprintln!("sprout: {e}");
        return ExitCode::from(1);
    }

    if !args.eval.is_empty() || !args.files.is_empty() {
        let mut sources: Vec<String> = Vec::new();
        for f in &args.files {
            match std::fs::read_to_string(f) {
                Ok(s) => sources.push(s),
                Err(e) => {
                    eprintln!("sprout: cannot read {f}: {e}");
                    return ExitCode::from(1);
                }
            }
        }
        sources.extend(args.eval.iter().cloned());
        let last = sources.len().saturating_sub(1);
        for (i, src) in sources.iter().enumerate() {
            let ev = shell.eval(src);
            for line in &ev.printed {
                println!("{line}");
            }
            if let Some(err) = &ev.error {
                eprintln!("{err}");
                return ExitCode::from(1);
            }
            if ev.incomplete {
                eprintln!("SyntaxError: unexpected end of input");
                return ExitCode::from(1);
            }
            // Like mongosh, only --eval's last result is printed; scripts print what they print.
            if i == last && !args.eval.is_empty() {
                match (args.json, &ev.value) {
                    (Some(mode), Some(v)) => println!("{}", printer::format_extjson(v, mode)),
                    (None, _) => {
                        if let Some(r) = ev.result.as_ref().filter(|r| !r.is_empty()) {
                            println!("{r}");
                        }
                    }
                    _ => {}
                }
            }
        }
        return export_then_exit(&args, &mut shell);
    }
    if args.transfer.exports() {
        return export_then_exit(&args, &mut shell);
    }
    repl(&mut shell, args.quiet)
}

/// Writes the `--export` file (if any) and ends the run.
fn export_then_exit(args: &Args, shell: &mut Shell) -> ExitCode {
    match args.transfer.run_export(shell) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("sprout: {e}");
            ExitCode::from(1)
        }
    }
}

/// The REPL: an unfinished statement continues on the next line (`...` prompt). A terminal gets
/// line editing and history (rustyline, saved in `~/.sprout_history`); piped input is read line
/// by line, and then an error anywhere makes the exit status 1, as mongosh does.
fn repl(shell: &mut Shell, quiet: bool) -> ExitCode {
    let interactive = std::io::stdin().is_terminal();
    if !quiet && interactive {
        println!(
            "Sprout shell {} (MongoDB {} semantics). Data lives in memory.",
            env!("CARGO_PKG_VERSION"),
            engine::MONGODB_COMPAT_VERSION
        );
    }
    if interactive {
        #[cfg(not(target_arch = "wasm32"))]
        return editor::run(shell);
    }
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut session = Session::default();
    while let Some(Ok(line)) = lines.next() {
        if session.feed(shell, &line) {
            break;
        }
    }
    if session.failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Lines gathered into inputs, and what happened so far.
#[derive(Default)]
struct Session {
    pending: String,
    failed: bool,
    /// Show the shell's notes for a learner (a terminal's REPL; piped input prints only what
    /// mongosh prints).
    notes: bool,
}

impl Session {
    fn prompt(&self, shell: &mut Shell) -> String {
        if self.pending.is_empty() {
            format!("{}{}> ", shell.prompt_prefix(), shell.current_db())
        } else {
            "... ".to_string()
        }
    }

    /// Adds a line; evaluates once the input is complete. Returns true when the user left.
    fn feed(&mut self, shell: &mut Shell, line: &str) -> bool {
        if !self.pending.is_empty() {
            self.pending.push('\n');
        }
        self.pending.push_str(line);
        let ev = shell.eval(&self.pending);
        if ev.incomplete {
            return false;
        }
        self.pending.clear();
        let text = ev.text();
        if !text.is_empty() {
            println!("{text}");
        }
        if self.notes {
            for note in &ev.notes {
                println!("// {note}");
            }
        }
        self.failed |= ev.error.is_some();
        ev.exit
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod editor {
    use std::process::ExitCode;

    use rustyline::DefaultEditor;
    use rustyline::error::ReadlineError;
    use shell::Shell;

    use super::Session;

    fn history_path() -> Option<std::path::PathBuf> {
        std::env::var_os("HOME").map(|h| std::path::Path::new(&h).join(".sprout_history"))
    }

    pub fn run(shell: &mut Shell) -> ExitCode {
        let mut editor = match DefaultEditor::new() {
            Ok(e) => e,
            Err(e) => {
                eprintln!("sprout: cannot start line editing: {e}");
                return ExitCode::from(1);
            }
        };
        let history = history_path();
        if let Some(path) = &history {
            let _ = editor.load_history(path);
        }
        let mut session = Session {
            notes: true,
            ..Session::default()
        };
        loop {
            let prompt = session.prompt(shell);
            match editor.readline(&prompt) {
                Ok(line) => {
                    if !line.trim().is_empty() {
                        let _ = editor.add_history_entry(line.as_str());
                    }
                    if session.feed(shell, &line) {
                        break;
                    }
                }
                // Ctrl-C drops an unfinished input, as mongosh does; on an empty line it leaves.
                Err(ReadlineError::Interrupted) => {
                    if session.pending.is_empty() {
                        break;
                    }
                    session.pending.clear();
                }
                Err(ReadlineError::Eof) => break,
                Err(e) => {
                    eprintln!("sprout: {e}");
                    break;
                }
            }
        }
        if let Some(path) = &history {
            let _ = editor.save_history(path);
        }
        ExitCode::SUCCESS
    }
}

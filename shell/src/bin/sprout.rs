//! `sprout`: the mongo shell in a terminal, over an in-memory Sprout engine.
//!
//! ```text
//! sprout                         interactive shell
//! sprout --eval 'CODE'           run CODE, print the last result, exit
//! sprout script.js …             run script files in order
//! sprout --json=relaxed|canonical --eval 'CODE'   print the result as Extended JSON
//! sprout --quiet                 no banner
//! sprout --legacy                print like the legacy 3.0 `mongo` shell
//! ```
//! Exit status: 0 on success, 1 when evaluation failed (as mongosh), 2 for bad arguments.

use std::io::{BufRead, IsTerminal, Write};
use std::process::ExitCode;

use engine::Engine;
use shell::{JsonMode, Shell, ShellConfig, Style, printer};

struct Args {
    eval: Vec<String>,
    files: Vec<String>,
    json: Option<JsonMode>,
    quiet: bool,
    legacy: bool,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        eval: Vec::new(),
        files: Vec::new(),
        json: None,
        quiet: false,
        legacy: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        match a.as_str() {
            "--eval" | "-e" => args.eval.push(it.next().ok_or("--eval needs code")?),
            "--json" | "--json=relaxed" => args.json = Some(JsonMode::Relaxed),
            "--json=canonical" => args.json = Some(JsonMode::Canonical),
            "--quiet" | "-q" => args.quiet = true,
            "--legacy" => args.legacy = true,
            "--help" | "-h" => {
                println!(
                    "usage: sprout [--eval CODE] [--json[=relaxed|canonical]] [--quiet] [--legacy] [file.js ...]"
                );
                std::process::exit(0);
            }
            s if s.starts_with("--json=") => return Err(format!("unknown --json mode: {s}")),
            s if s.starts_with('-') => return Err(format!("unknown option: {s}")),
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
        return ExitCode::SUCCESS;
    }
    repl(&mut shell, args.quiet)
}

/// A line-oriented REPL: an unfinished statement continues on the next line (`...` prompt).
fn repl(shell: &mut Shell, quiet: bool) -> ExitCode {
    let interactive = std::io::stdin().is_terminal();
    if !quiet && interactive {
        println!(
            "Sprout shell {} (MongoDB {} semantics). Data lives in memory.",
            env!("CARGO_PKG_VERSION"),
            engine::MONGODB_COMPAT_VERSION
        );
    }
    let stdin = std::io::stdin();
    let mut pending = String::new();
    let mut failed = false;
    loop {
        if interactive {
            let prompt = if pending.is_empty() {
                format!("{}> ", shell.current_db())
            } else {
                "... ".to_string()
            };
            print!("{prompt}");
            let _ = std::io::stdout().flush();
        }
        let mut line = String::new();
        match stdin.lock().read_line(&mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        pending.push_str(&line);
        let ev = shell.eval(&pending);
        if ev.incomplete {
            continue;
        }
        pending.clear();
        let text = ev.text();
        if !text.is_empty() {
            println!("{text}");
        }
        failed |= ev.error.is_some();
        if ev.exit {
            break;
        }
    }
    if failed && !interactive {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

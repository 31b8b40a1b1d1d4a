//! Measures how deep each kind of nesting may go before Boa overflows the native stack, to
//! choose `Limits::nesting` and `Limits::parse_stack_bytes` (docs/reliability.md, "Shell limits").
//!
//! ```text
//! cargo run -p shell --example nesting_probe -- KIND DEPTH STACK_KIB [NESTING_LIMIT [PARSE_KIB]]
//! ```
//! runs one input of `KIND` nested `DEPTH` deep on a thread with `STACK_KIB` of stack, with the
//! given limits (default: no depth limit and no parse budget, to find where Boa itself
//! overflows), and prints the outcome. A stack overflow aborts the process (exit by signal):
//! a script can bisect over `DEPTH`. Kinds: see [`source`].

use engine::Engine;
use shell::{Limits, Shell, ShellConfig};

fn source(kind: &str, n: usize) -> Option<String> {
    let rep = |s: &str| s.repeat(n);
    Some(match kind {
        "bang" => rep("!") + "1",
        "typeof" => rep("typeof ") + "1",
        "arrow" => rep("a=>") + "1",
        "assign" => rep("x=") + "1",
        "cond" => rep("1?") + "1" + &rep(":1"),
        "pow" => rep("2**") + "2",
        "if" => rep("if(1)") + "1",
        "label" => (0..n).map(|i| format!("l{i}:")).collect::<String>() + "1",
        "do" => rep("do ") + "1;" + &rep("while(0);"),
        "elseif" => rep("if(0){}else ") + "{}",
        "sum" => "1".to_string() + &rep("+1"),
        "member" => "a".to_string() + &rep(".b"),
        "call" => "f".to_string() + &rep("()"),
        "comma" => format!("({})", vec!["1"; n].join(",")),
        "array" => rep("[") + &rep("]"),
        "object" => rep("{a:") + "1" + &rep("}"),
        "block" => rep("{") + &rep("}"),
        "func" => rep("(function(){return ") + "1" + &rep("})()"),
        "paren" => rep("(") + "1" + &rep(")"),
        _ => return None,
    })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize, default: usize| {
        args.get(i)
            .and_then(|a| a.parse::<usize>().ok())
            .unwrap_or(default)
    };
    let kind = args.first().cloned().unwrap_or_default();
    let Some(code) = source(&kind, number(1, 100)) else {
        eprintln!("usage: nesting_probe KIND DEPTH STACK_KIB [NESTING_LIMIT [PARSE_KIB]]");
        std::process::exit(2);
    };
    let stack = number(2, 8192) << 10;
    let limits = Limits {
        nesting: number(3, usize::MAX / 4),
        parse_stack_bytes: number(4, usize::MAX >> 12) << 10,
        ..Limits::default()
    };
    let run = std::thread::Builder::new()
        .stack_size(stack)
        .spawn(move || {
            let mut shell = Shell::new(
                Engine::new(),
                ShellConfig {
                    limits,
                    ..ShellConfig::default()
                },
            );
            let ev = shell.eval(&code);
            let next = shell.eval("1 + 1");
            (ev.text(), next.text())
        });
    match run.map(|h| h.join()) {
        Ok(Ok((text, next))) => {
            let first: String = text.chars().take(120).collect();
            println!("ok: {first} | next: {next}");
        }
        _ => {
            eprintln!("the probe thread failed");
            std::process::exit(3);
        }
    }
}

//! A small static file server for `dist/` on 127.0.0.1 (std only). It sends `application/wasm`
//! for .wasm files (needed by `WebAssembly.instantiateStreaming`) and falls back to index.html.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};

use crate::flag_value;

pub fn run(args: &[String]) -> Result<(), String> {
    crate::toolchain::ensure_tools()?;
    let port: u16 = flag_value(args, "--port")
        .unwrap_or("8080")
        .parse()
        .map_err(|_| "bad --port")?;
    let dist = crate::web_build::run(args)?;
    let listener = TcpListener::bind(("127.0.0.1", port))
        .map_err(|e| format!("binding 127.0.0.1:{port}: {e}"))?;
    eprintln!(
        "xtask: serving {} on http://127.0.0.1:{port}/ (Ctrl+C stops)",
        dist.display()
    );
    serve_forever(listener, dist);
    Ok(())
}

/// Serves requests until the process ends; each connection on its own thread.
pub fn serve_forever(listener: TcpListener, dist: PathBuf) {
    for stream in listener.incoming().flatten() {
        let dist = dist.clone();
        std::thread::spawn(move || {
            let _ = handle(stream, &dist);
        });
    }
}

fn handle(mut stream: TcpStream, dist: &Path) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    // Drain headers.
    let mut line = String::new();
    while reader.read_line(&mut line)? > 2 {
        line.clear();
    }
    let path = request_line.split_whitespace().nth(1).unwrap_or("/");
    let path = path.split(['?', '#']).next().unwrap_or("/");
    let rel = path.trim_start_matches('/');
    let mut file = dist.join(if rel.is_empty() { "index.html" } else { rel });
    if rel.split('/').any(|c| c == "..") || !file.is_file() {
        file = dist.join("index.html");
    }
    let (status, body) = match std::fs::read(&file) {
        Ok(b) => ("200 OK", b),
        Err(_) => ("404 Not Found", b"not found".to_vec()),
    };
    let header = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n",
        content_type(&file),
        body.len()
    );
    stream.write_all(header.as_bytes())?;
    stream.write_all(&body)?;
    stream.flush()
}

fn content_type(p: &Path) -> &'static str {
    match p.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "txt" => "text/plain; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        _ => "application/octet-stream",
    }
}

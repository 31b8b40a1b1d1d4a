//! Writes the shell's JavaScript prelude (`src/js/*.js`) without comments and indentation into
//! `OUT_DIR/js/`, line for line, for `src/runtime.rs` to link (`src/js_minify.rs`, issue #22).

#[path = "src/js_minify.rs"]
mod js_minify;

fn main() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/js");
    let out = std::path::PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR")).join("js");
    std::fs::create_dir_all(&out).expect("creating OUT_DIR/js");
    println!("cargo:rerun-if-changed=src/js_minify.rs");
    println!("cargo:rerun-if-changed=src/js");
    for entry in std::fs::read_dir(&src).expect("reading src/js") {
        let path = entry.expect("reading src/js").path();
        if path.extension().is_some_and(|e| e == "js") {
            println!("cargo:rerun-if-changed={}", path.display());
            let text = std::fs::read_to_string(&path).expect("reading a prelude file");
            let name = path.file_name().expect("a file name");
            std::fs::write(out.join(name), js_minify::minify(&text)).expect("writing OUT_DIR/js");
        }
    }
}

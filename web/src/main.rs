//! The page's binary: the Leptos UI (the shell runs in the `worker` binary).
fn main() {
    web::start();
}

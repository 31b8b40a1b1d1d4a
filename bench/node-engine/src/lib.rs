//! The engine as a Node.js module for `bench/compare.mjs`: commands go in and replies come out
//! as relaxed Extended JSON text, the same boundary cost a JavaScript caller of the wasm engine
//! pays (the playground's shell crosses it in-process instead).

use wasm_bindgen::prelude::*;

#[wasm_bindgen]
pub struct NodeEngine {
    engine: engine::Engine,
}

#[wasm_bindgen]
impl NodeEngine {
    #[wasm_bindgen(constructor)]
    #[allow(clippy::new_without_default)]
    pub fn new() -> NodeEngine {
        NodeEngine {
            engine: engine::Engine::new(),
        }
    }

    /// Runs one command given as Extended JSON; returns the reply as relaxed Extended JSON (a
    /// malformed command gives an error reply, never a panic).
    #[wasm_bindgen(js_name = runCommand)]
    pub fn run_command(&mut self, db: &str, command: &str) -> String {
        let reply = match serde_json::from_str(command)
            .map_err(|e| e.to_string())
            .and_then(|v| engine::value::extjson::parse_document(v).map_err(|e| e.to_string()))
        {
            Ok(cmd) => self.engine.run_command(db, &cmd),
            Err(e) => bson::doc! {"ok": 0.0, "errmsg": e, "code": 9},
        };
        engine::value::extjson::to_relaxed(&bson::Bson::Document(reply)).to_string()
    }
}

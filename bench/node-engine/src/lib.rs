//! The engine as a Node.js module for `bench/compare.mjs`. Three boundaries:
//! - `runCommandBson`: the command goes in and the reply comes out as BSON bytes (a
//!   `Uint8Array`), what a JavaScript user of the binding calls with the `bson` package, and what
//!   the playground's shell passes in-process (`Engine::run_command_encoded`: an insert keeps
//!   the bytes its documents arrived as, a find of stored documents writes its reply from their
//!   stored bytes);
//! - `runCommandObject`: the same, but the reply comes out as the JavaScript object js-bson
//!   would decode (`src/reply.js` decodes it) when every value in it is of a type that decoder
//!   knows (ObjectIds too after `useBsonTypes(BSON)`), else as its BSON bytes; the command may
//!   be the command object itself (`src/reply.js` encodes it as js-bson's `serialize` would);
//!   what `bench/compare.mjs` and `bench/ab.mjs` call when a build has it;
//! - `runCommand`: relaxed Extended JSON text both ways (kept so that earlier builds and this
//!   one can be measured side by side by the same harness, and for callers without a BSON codec).
//!
//! After every command the engine's change batch is taken and dropped, as the page takes it
//! (to write it to IndexedDB), so changes do not pile up in memory over a benchmark.

use wasm_bindgen::prelude::*;

#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: engine::grow_in_steps::GrowInSteps = engine::grow_in_steps::GrowInSteps;

#[wasm_bindgen]
pub struct NodeEngine {
    engine: engine::Engine,
    /// Where `runCommandObject` has its command written: [`COMMAND_ROOM`] bytes, longer while a
    /// longer command is run.
    command: Vec<u8>,
}

/// The bytes kept for `runCommandObject`'s commands between calls.
const COMMAND_ROOM: usize = 4096;

// The wasm build links no locale's collation tailorings (`engine::collation::data`) and no
// time-zone database (`engine::tzdata`): the binding reads them from the `collation/` and `tz/`
// folders beside its package (`cargo xtask bench-node` copies `engine/data/` there),
// synchronously, as the page's worker does over HTTP.
// wasm-bindgen puts this snippet in `<package>/snippets/<crate>/`, two folders below it.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen(inline_js = "
const fs = require('fs');
const path = require('path');
module.exports.readDataFile = function (folder, name) {
  try {
    return fs.readFileSync(path.join(__dirname, '..', '..', folder, name));
  } catch (e) {
    throw String((e && e.message) || e);
  }
};
")]
extern "C" {
    #[wasm_bindgen(catch, js_name = readDataFile)]
    fn read_data_file(folder: &str, name: &str) -> Result<Vec<u8>, JsValue>;
}

#[cfg(target_arch = "wasm32")]
fn install_collation_loader() {
    engine::collation::data::set_tailoring_loader(Box::new(|name| {
        read_data_file("collation", name).map_err(|e| {
            let detail = e.as_string().unwrap_or_default();
            format!("reading collation/{name}: {detail}")
        })
    }));
    // And the time-zone database (`engine::tzdata`), from `tz/`.
    engine::tzdata::set_zone_loader(Box::new(|name| {
        read_data_file("tz", name).map_err(|e| {
            let detail = e.as_string().unwrap_or_default();
            format!("reading tz/{name}: {detail}")
        })
    }));
}

#[wasm_bindgen]
impl NodeEngine {
    #[wasm_bindgen(constructor)]
    #[allow(clippy::new_without_default)]
    pub fn new() -> NodeEngine {
        #[cfg(target_arch = "wasm32")]
        {
            install_collation_loader();
            set_memory(wasm_bindgen::memory());
        }
        NodeEngine {
            engine: engine::Engine::new(),
            command: vec![0; COMMAND_ROOM],
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
            Ok(cmd) => self.run(db, &cmd),
            Err(e) => bad_input(e),
        };
        engine::value::extjson::to_relaxed(&bson::Bson::Document(reply)).to_string()
    }

    /// Runs one command given as the bytes of a BSON document; returns the reply's BSON bytes
    /// (malformed bytes give an error reply, never a panic).
    #[wasm_bindgen(js_name = runCommandBson)]
    pub fn run_command_bson(&mut self, db: &str, command: &[u8]) -> Vec<u8> {
        self.reply_bytes(db, command)
    }

    /// Runs one command given as the bytes of a BSON document; returns the reply as the
    /// JavaScript object the `bson` package's `deserialize` (default options) makes of the
    /// reply's bytes, decoded in place from the wasm memory by `src/reply.js` when every value
    /// in it is of a type that decoder knows (documents, arrays, strings, numbers js-bson gives
    /// as JavaScript numbers, booleans, null, undefined, dates): about 2-3 times faster than
    /// js-bson for a find's batch, whose per-document decoding was about half of such a find
    /// (`docs/performance.md`, session 15), and ObjectIds once the caller's BSON library was
    /// handed over ([`use_bson_types`]). Otherwise (an ObjectId without it, a Long beyond 2^53, a
    /// Decimal128, … anywhere in the reply) it returns the reply's BSON bytes (a `Uint8Array`)
    /// for the caller to decode: `r instanceof Uint8Array ? BSON.deserialize(r) : r`.
    ///
    /// The command is its BSON bytes (a `Uint8Array`) or the command object itself, which
    /// `src/reply.js` encodes into the bytes the `bson` package's `serialize` (default options)
    /// makes of it when every value is of a type it knows (plain objects, arrays, strings,
    /// numbers, booleans, null, undefined, dates), 2-4 times faster than js-bson
    /// (`docs/performance.md`, session 16); otherwise through the `serialize` of the library
    /// handed over with [`use_bson_types`], and without one it throws a `TypeError`.
    #[wasm_bindgen(js_name = runCommandObject)]
    pub fn run_command_object(&mut self, db: &str, command: &JsValue) -> Result<JsValue, JsValue> {
        // The command is written into the engine's buffer for commands, kept between calls.
        let mut bytes = std::mem::take(&mut self.command);
        let room = bytes.len();
        let len = match encode_command_at(command, bytes.as_mut_ptr() as u32, room as u32) {
            Ok(len) => len as usize,
            Err(e) => {
                self.command = bytes;
                return Err(e);
            }
        };
        if len > room {
            bytes.resize(len, 0);
            take_command_at(bytes.as_mut_ptr() as u32);
        }
        let reply = self.reply_bytes(db, &bytes[..len]);
        // An insert's large command is not kept (its reply is small).
        if bytes.len() > COMMAND_ROOM {
            bytes = vec![0; COMMAND_ROOM];
        }
        self.command = bytes;
        Ok(decode_reply_at(reply.as_ptr() as u32, reply.len() as u32))
    }
}

#[wasm_bindgen(module = "/src/reply.js")]
extern "C" {
    /// The reply's bytes at `ptr`, `len` in the wasm memory decoded (read in place: the decoder
    /// calls nothing that could grow the wasm memory), or copied out when it cannot decode them
    /// as js-bson would. Given as numbers, not as a `&[u8]`, for which the glue made a view per
    /// call (1.6% of a point lookup, session 17): the decoder reads the memory [`set_memory`]
    /// handed over.
    #[wasm_bindgen(js_name = decodeReplyAt)]
    fn decode_reply_at(ptr: u32, len: u32) -> JsValue;
    /// Hands the decoder this module's wasm memory (`WebAssembly.Memory`).
    #[wasm_bindgen(js_name = setMemory)]
    fn set_memory(memory: JsValue);
    #[wasm_bindgen(js_name = setBsonTypes)]
    fn set_bson_types(types: JsValue);
    /// The command's BSON bytes (a `Uint8Array` as it is, an object encoded: see
    /// `runCommandObject`) written at `ptr` in the wasm memory when they fit in `room` bytes;
    /// their length either way (when it is over `room`, [`take_command_at`] writes them into a
    /// buffer made that long). Written there by the encoder, not handed back for the glue to
    /// copy into a new allocation (3% of a point lookup, session 17).
    #[wasm_bindgen(js_name = encodeCommandAt, catch)]
    fn encode_command_at(command: &JsValue, ptr: u32, room: u32) -> Result<u32, JsValue>;
    /// Writes at `ptr` the command bytes [`encode_command_at`] had no room for.
    #[wasm_bindgen(js_name = takeCommandAt)]
    fn take_command_at(ptr: u32);
}

/// Hands `runCommandObject`'s decoder the caller's BSON library (the `bson` package's exports,
/// or any object with an `ObjectId` class that takes 12 bytes), so that replies holding
/// ObjectIds, MongoDB's default `_id`, are decoded in place too, into that library's ObjectId
/// instances, instead of coming back as bytes; its `serialize`, when it has one, encodes the
/// command objects whose values the binding's own encoder does not know. `useBsonTypes(null)`
/// stops it. Applies to every engine of this module.
#[wasm_bindgen(js_name = useBsonTypes)]
pub fn use_bson_types(types: JsValue) {
    set_bson_types(types);
}

/// Whether `runCommandObject` takes the command object itself (true for this build; earlier
/// builds took only its BSON bytes), for harnesses that run builds side by side.
#[wasm_bindgen(js_name = takesCommandObjects)]
pub fn takes_command_objects() -> bool {
    true
}

impl NodeEngine {
    /// Runs one command given as BSON bytes; the reply's BSON bytes.
    fn reply_bytes(&mut self, db: &str, command: &[u8]) -> Vec<u8> {
        // The command is decoded by the engine and is its own: an insert stores its documents
        // without copying them, and keeps the bytes each arrived as when they are its
        // encoding; a find of stored documents writes its reply from their stored bytes.
        let reply = match self.engine.run_command_encoded(db, command) {
            Ok(reply) => {
                drop(self.engine.take_changes());
                reply
            }
            Err(e) => engine::commands::Reply::Document(bad_input(e.message)),
        };
        reply
            .into_bytes()
            .or_else(|e| bad_input(format!("the reply cannot be encoded: {e}")).to_vec())
            .unwrap_or_default()
    }

    fn run(&mut self, db: &str, command: &bson::Document) -> bson::Document {
        let reply = self.engine.run_command(db, command);
        drop(self.engine.take_changes());
        reply
    }
}

/// The reply to a command that could not be read (code 9, FailedToParse).
fn bad_input(errmsg: String) -> bson::Document {
    bson::doc! {"ok": 0.0, "errmsg": errmsg, "code": 9}
}

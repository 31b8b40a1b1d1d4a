//! Per-shell state reachable from native functions: the engine, printed output, settings.

use std::collections::BTreeMap;

use engine::Engine;

use crate::printer::Style;

/// Output beyond this many bytes in one evaluation is cut, so a runaway print loop cannot
/// exhaust the page's memory.
pub const MAX_OUTPUT_BYTES: usize = 4 * 1024 * 1024;

pub(crate) struct Session {
    pub engine: Engine,
    pub style: Style,
    printed: Vec<String>,
    printed_bytes: usize,
    truncated: bool,
    rng: u64,
    /// Scripts `load(name)` can run, added by the host (`Shell::add_script`).
    scripts: BTreeMap<String, String>,
    /// Whether `load(path)` may also read real files (the native CLI only).
    pub allow_files: bool,
    /// The simulated replica set every command goes to, once one is started (`replset.rs`).
    pub replica_set: Option<engine::ReplicaSet>,
    /// The member the shell connected to (the prompt shows its state).
    pub connected_host: Option<String>,
    /// The connection's read preference (`db.getMongo().setReadPref`).
    pub read_preference: Option<bson::Document>,
    /// The simulated sharded cluster's router every command goes to, once one is started
    /// (`sharding.rs`).
    pub router: Option<engine::Router>,
    /// The last query the shell sent through the router, and where it went (`sharding_view.rs`).
    pub last_routed_query: Option<crate::sharding_view::RoutedQuery>,
    /// Members other than the primary that served a read during the current input, with their
    /// state (`replset.rs`), for the note under the result.
    pub reads_served_elsewhere: Vec<(String, String)>,
}

impl Session {
    pub fn new(engine: Engine, style: Style, seed: u64) -> Self {
        Session {
            engine,
            style,
            printed: Vec::new(),
            printed_bytes: 0,
            truncated: false,
            rng: seed | 1,
            scripts: BTreeMap::new(),
            allow_files: false,
            replica_set: None,
            connected_host: None,
            read_preference: None,
            router: None,
            last_routed_query: None,
            reads_served_elsewhere: Vec::new(),
        }
    }

    pub fn print(&mut self, text: String) {
        if self.truncated {
            return;
        }
        self.printed_bytes += text.len() + 1;
        if self.printed_bytes > MAX_OUTPUT_BYTES {
            self.truncated = true;
            self.printed.push(format!(
                "(output stopped: more than {} MiB printed by one command)",
                MAX_OUTPUT_BYTES / (1024 * 1024)
            ));
            return;
        }
        self.printed.push(text);
    }

    pub fn add_script(&mut self, name: &str, source: &str) {
        self.scripts.insert(name.to_string(), source.to_string());
    }

    /// A registered script by name (also without a leading `./`), or, when allowed, a file.
    pub fn script(&self, name: &str) -> Option<String> {
        let key = name.strip_prefix("./").unwrap_or(name);
        if let Some(s) = self.scripts.get(key) {
            return Some(s.clone());
        }
        #[cfg(not(target_arch = "wasm32"))]
        if self.allow_files {
            return std::fs::read_to_string(name).ok();
        }
        None
    }

    pub fn script_names(&self) -> Vec<String> {
        self.scripts.keys().cloned().collect()
    }

    pub fn take_printed(&mut self) -> Vec<String> {
        self.printed_bytes = 0;
        self.truncated = false;
        std::mem::take(&mut self.printed)
    }

    /// Restarts the generator from `seed` (the legacy shell's `Random.setRandomSeed`).
    pub fn set_seed(&mut self, seed: u64) {
        self.rng = seed | 1;
    }

    /// xorshift64*: reproducible randomness for UUID() under a seeded session.
    pub fn next_random(&mut self) -> u64 {
        let mut x = self.rng;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.rng = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

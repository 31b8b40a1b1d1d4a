//! Per-shell state reachable from native functions: the engine, printed output, settings.

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

    pub fn take_printed(&mut self) -> Vec<String> {
        self.printed_bytes = 0;
        self.truncated = false;
        std::mem::take(&mut self.printed)
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

//! What an evaluation reads from the engine besides the document: the time `$$NOW` and
//! `$$CLUSTER_TIME` name (one instant for a whole command, as in MongoDB) and the seeded
//! generator `$rand` draws from. The engine makes one context per command
//! ([`crate::Engine::eval_context`]), so lessons on a simulated clock stay reproducible.

use std::sync::atomic::{AtomicU64, Ordering};

use bson::{Bson, DateTime, Timestamp};

use crate::clock::{SPLITMIX64_GAMMA, splitmix64_mix};
use crate::error::{Error, Result};

/// The evaluation context of one command.
#[derive(Debug)]
pub struct EvalContext {
    /// Milliseconds since the epoch; `None` in the detached context (no engine at hand).
    now_millis: Option<i64>,
    /// SplitMix64 state. Atomic only so that the detached context can be a `static`; every
    /// access is a plain load and store (no thread shares a context).
    rng_state: AtomicU64,
}

/// The context of evaluations made without an engine (unit tests, parse-time constant folding):
/// `$$NOW` is unavailable and `$rand` draws from a fixed seed.
static DETACHED: EvalContext = EvalContext {
    now_millis: None,
    rng_state: AtomicU64::new(0x5EED),
};

impl EvalContext {
    /// A context at `now_millis` whose `$rand` sequence is determined by `seed`.
    pub fn new(now_millis: i64, seed: u64) -> Self {
        EvalContext {
            now_millis: Some(now_millis),
            rng_state: AtomicU64::new(seed),
        }
    }

    /// The context used when no engine supplies one.
    pub fn detached() -> &'static EvalContext {
        &DETACHED
    }

    /// `$$NOW`: the command's start time.
    pub fn now(&self) -> Result<Bson> {
        self.now_millis
            .map(|ms| Bson::DateTime(DateTime::from_millis(ms)))
            .ok_or_else(not_available("NOW"))
    }

    /// `$$CLUSTER_TIME`: the command's start time as a timestamp (seconds, increment 1).
    pub fn cluster_time(&self) -> Result<Bson> {
        let ms = self.now_millis.ok_or_else(not_available("CLUSTER_TIME"))?;
        let secs = u32::try_from(ms.div_euclid(1000)).unwrap_or(0);
        Ok(Bson::Timestamp(Timestamp {
            time: secs,
            increment: 1,
        }))
    }

    /// The next `$rand` value: a double in `[0, 1)`.
    pub fn next_random(&self) -> f64 {
        let state = self
            .rng_state
            .load(Ordering::Relaxed)
            .wrapping_add(SPLITMIX64_GAMMA);
        self.rng_state.store(state, Ordering::Relaxed);
        let z = splitmix64_mix(state);
        // The top 53 bits make a uniformly spaced double below 1.
        (z >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn not_available(name: &'static str) -> impl FnOnce() -> Error {
    move || {
        Error::location(
            51144,
            format!("Builtin variable '$${name}' is not available"),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_draws_the_same_numbers_in_range() {
        let a = EvalContext::new(0, 42);
        let b = EvalContext::new(0, 42);
        for _ in 0..100 {
            let x = a.next_random();
            assert!((0.0..1.0).contains(&x));
            assert_eq!(x, b.next_random());
        }
        assert_ne!(
            EvalContext::new(0, 1).next_random(),
            EvalContext::new(0, 2).next_random()
        );
    }

    #[test]
    fn now_is_the_injected_time() {
        let c = EvalContext::new(1_700_000_000_123, 0);
        assert_eq!(
            c.now().unwrap(),
            Bson::DateTime(DateTime::from_millis(1_700_000_000_123))
        );
        assert!(EvalContext::detached().now().is_err());
    }
}

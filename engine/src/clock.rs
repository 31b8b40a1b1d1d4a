//! Time and identity sources, injected so that the engine runs the same natively, in wasm (where
//! `std::time::SystemTime::now` is unavailable) and in lessons (where output must be reproducible).

use std::cell::Cell;

use bson::Timestamp;
use bson::oid::ObjectId;

/// Where the engine reads the current time.
pub trait Clock {
    /// Milliseconds since the Unix epoch.
    fn now_millis(&self) -> i64;
}

/// The operating system's clock (native builds only; the browser injects its own).
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now_millis(&self) -> i64 {
        #[cfg(not(target_arch = "wasm32"))]
        {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_millis() as i64)
                .unwrap_or(0)
        }
        #[cfg(target_arch = "wasm32")]
        {
            0
        }
    }
}

/// A clock that only moves when told to: lessons and tests use it for reproducible output.
#[derive(Debug, Clone)]
pub struct SimulatedClock {
    millis: Cell<i64>,
}

impl SimulatedClock {
    pub fn new(start_millis: i64) -> Self {
        SimulatedClock {
            millis: Cell::new(start_millis),
        }
    }

    pub fn advance(&self, millis: i64) {
        self.millis.set(self.millis.get().saturating_add(millis));
    }
}

impl Clock for SimulatedClock {
    fn now_millis(&self) -> i64 {
        self.millis.get()
    }
}

/// The cluster time one server ticks (MongoDB's `VectorClockMutable::tickClusterTime`): the
/// seconds of the wall clock, the increment counting the ticks within a second, and never a
/// time at or before the last one, even when the wall clock goes back.
#[derive(Debug, Default, Clone)]
pub struct ClusterClock {
    last: Option<Timestamp>,
}

impl ClusterClock {
    /// The next cluster time at `now_millis`.
    pub fn tick(&mut self, now_millis: i64) -> Timestamp {
        let secs = now_millis.div_euclid(1000).clamp(0, u32::MAX as i64) as u32;
        let next = match self.last {
            Some(last) if last.time >= secs && last.increment < u32::MAX => Timestamp {
                time: last.time,
                increment: last.increment + 1,
            },
            // The increment is used up: the time moves on a second.
            Some(last) if last.time >= secs => Timestamp {
                time: last.time.saturating_add(1),
                increment: 1,
            },
            _ => Timestamp {
                time: secs,
                increment: 1,
            },
        };
        self.last = Some(next);
        next
    }
}

/// The increment of a SplitMix64 state between draws.
pub(crate) const SPLITMIX64_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's output function: turns a state into a well-mixed 64-bit value.
pub(crate) fn splitmix64_mix(state: u64) -> u64 {
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Makes ObjectIds as MongoDB does: 4 bytes of seconds, 5 bytes unique to this engine, and a
/// 3-byte counter. The unique bytes and counter start come from a seed, so a seeded engine with a
/// simulated clock produces the same ids every run.
#[derive(Debug, Clone)]
pub struct ObjectIdGenerator {
    unique: [u8; 5],
    counter: u32,
}

impl ObjectIdGenerator {
    pub fn from_seed(seed: u64) -> Self {
        // SplitMix64 spreads any seed (even 0 or 1) over all bytes.
        let b = splitmix64_mix(seed.wrapping_add(SPLITMIX64_GAMMA)).to_be_bytes();
        ObjectIdGenerator {
            unique: [b[0], b[1], b[2], b[3], b[4]],
            counter: u32::from_be_bytes([0, b[5], b[6], b[7]]),
        }
    }

    /// The process-unique part of the ids, as the `features` command shows it (`oidMachine`).
    pub fn machine_id(&self) -> i64 {
        let mut b = [0u8; 8];
        b[3..].copy_from_slice(&self.unique);
        i64::from_be_bytes(b)
    }

    /// A new process-unique part (`features` with `oidReset`, MongoDB's
    /// `OID::regenMachineId`), drawn from the current one so a seeded engine repeats it.
    pub fn regenerate_machine_id(&mut self) {
        let old = self.machine_id() as u64;
        let mut next = old;
        while next == old {
            let b = splitmix64_mix(next.wrapping_add(SPLITMIX64_GAMMA)).to_be_bytes();
            self.unique = [b[0], b[1], b[2], b[3], b[4]];
            next = self.machine_id() as u64;
        }
    }

    pub fn next(&mut self, now_millis: i64) -> ObjectId {
        let secs = (now_millis.div_euclid(1000)) as u32;
        let c = self.counter & 0x00FF_FFFF;
        self.counter = self.counter.wrapping_add(1);
        let mut bytes = [0u8; 12];
        bytes[..4].copy_from_slice(&secs.to_be_bytes());
        bytes[4..9].copy_from_slice(&self.unique);
        bytes[9..].copy_from_slice(&c.to_be_bytes()[1..]);
        ObjectId::from_bytes(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_machine_id_can_be_regenerated() {
        let mut g = ObjectIdGenerator::from_seed(1);
        let old = g.machine_id();
        g.regenerate_machine_id();
        assert_ne!(g.machine_id(), old);
        let id = g.next(0);
        assert_eq!(
            i64::from_be_bytes([
                0,
                0,
                0,
                id.bytes()[4],
                id.bytes()[5],
                id.bytes()[6],
                id.bytes()[7],
                id.bytes()[8]
            ]),
            g.machine_id()
        );
    }

    #[test]
    fn cluster_times_increase_within_a_second_and_across_clock_steps_back() {
        let mut c = ClusterClock::default();
        let a = c.tick(1_700_000_000_123);
        assert_eq!(
            a,
            Timestamp {
                time: 1_700_000_000,
                increment: 1
            }
        );
        let b = c.tick(1_700_000_000_999);
        assert_eq!((b.time, b.increment), (1_700_000_000, 2));
        // The wall clock went back: the cluster time does not.
        let back = c.tick(1_699_999_999_000);
        assert_eq!((back.time, back.increment), (1_700_000_000, 3));
        let next = c.tick(1_700_000_001_000);
        assert_eq!((next.time, next.increment), (1_700_000_001, 1));
        // An increment at its end moves the time on.
        let mut full = ClusterClock {
            last: Some(Timestamp {
                time: 5,
                increment: u32::MAX,
            }),
        };
        let moved = full.tick(5_000);
        assert_eq!((moved.time, moved.increment), (6, 1));
    }

    #[test]
    fn ids_carry_the_time_and_increase() {
        let mut g = ObjectIdGenerator::from_seed(1);
        let a = g.next(1_700_000_000_123);
        let b = g.next(1_700_000_000_999);
        assert_eq!(a.timestamp().timestamp_millis(), 1_700_000_000_000);
        assert!(a < b);
        let mut g2 = ObjectIdGenerator::from_seed(1);
        assert_eq!(g2.next(1_700_000_000_123), a, "same seed, same ids");
    }
}

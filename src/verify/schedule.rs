//! How long to wait: the back-off after 90105 (too frequent) or a lost
//! result query, and the growing interval between polls of `awaitResult`.
//! Both double from their first value up to a ceiling; no jitter (the core
//! has no randomness of its own beyond what an operation is given).

use crate::error::{Code, PayError};

/// The longest single back-off.
pub const MAX_BACKOFF_MS: u32 = 60_000;
/// The longest interval between two polls (unless the first one is longer).
pub const MAX_POLL_INTERVAL_MS: u32 = 30_000;

/// The wait before the send that follows the `tries`-th (1-based):
/// `base`, `2 * base`, `4 * base`, ... at most [`MAX_BACKOFF_MS`].
pub fn backoff_delay(base_ms: u32, tries: u32) -> u32 {
    grow(base_ms, tries.saturating_sub(1)).min(MAX_BACKOFF_MS)
}

/// The wait before poll number `n + 1` of a pending result (`n` polls have
/// waited already): `interval`, `2 * interval`, ... at most
/// [`MAX_POLL_INTERVAL_MS`] or the first interval, whichever is longer.
pub fn poll_delay(interval_ms: u32, n: u32) -> u32 {
    grow(interval_ms, n).min(interval_ms.max(MAX_POLL_INTERVAL_MS))
}

fn grow(first: u32, doublings: u32) -> u32 {
    let shift = doublings.min(31);
    (first as u64).saturating_mul(1u64 << shift).min(u32::MAX as u64) as u32
}

/// Options of `awaitResult`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wait {
    /// The first interval between polls (then growing).
    pub interval_ms: u32,
    /// The total time spent waiting between polls after which a still
    /// pending result is returned as it is (the time the requests take is
    /// not counted: the edge may also bound the whole call by its clock).
    pub timeout_ms: u32,
}

impl Wait {
    pub const DEFAULT_INTERVAL_MS: u32 = 1_000;
    pub const DEFAULT_TIMEOUT_MS: u32 = 60_000;

    /// `invalid_options` naming `intervalMs` when it is 0.
    pub fn new(interval_ms: u32, timeout_ms: u32) -> Result<Wait, PayError> {
        if interval_ms == 0 {
            return Err(PayError::field(Code::InvalidOptions, "intervalMs", "intervalMs must be at least 1"));
        }
        Ok(Wait { interval_ms, timeout_ms })
    }
}

impl Default for Wait {
    fn default() -> Wait {
        Wait { interval_ms: Self::DEFAULT_INTERVAL_MS, timeout_ms: Self::DEFAULT_TIMEOUT_MS }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_to_a_ceiling() {
        let d: Vec<u32> = (1..=5).map(|t| backoff_delay(500, t)).collect();
        assert_eq!(d, [500, 1000, 2000, 4000, 8000]);
        assert_eq!(backoff_delay(500, 0), 500);
        assert_eq!(backoff_delay(40_000, 2), MAX_BACKOFF_MS);
        assert_eq!(backoff_delay(u32::MAX, 40), MAX_BACKOFF_MS);
        assert_eq!(backoff_delay(0, 3), 0);
    }

    #[test]
    fn polls_grow_to_a_ceiling() {
        let d: Vec<u32> = (0..7).map(|n| poll_delay(1000, n)).collect();
        assert_eq!(d, [1000, 2000, 4000, 8000, 16000, 30000, 30000]);
        assert_eq!(poll_delay(45_000, 3), 45_000);
        assert_eq!(poll_delay(1, 100), MAX_POLL_INTERVAL_MS);
    }

    #[test]
    fn wait_options() {
        assert_eq!(Wait::new(0, 10).unwrap_err().field.as_deref(), Some("intervalMs"));
        assert_eq!(Wait::default().interval_ms, 1000);
        assert!(Wait::new(1, 0).is_ok());
    }
}

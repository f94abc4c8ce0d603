//! Requests per second per caller (`app_token`), for the authentication
//! API's "operation too frequent" answer (`90105`).

use std::collections::HashMap;
use std::sync::Mutex;

use super::lock;

/// A fixed one-second window per key.
pub struct RateLimiter {
    /// Requests allowed per second; 0 means no limit.
    limit: u32,
    windows: Mutex<HashMap<String, (u64, u32)>>,
}

/// Keys remembered before stale windows are dropped.
const KEYS: usize = 10_000;

impl RateLimiter {
    pub fn new(limit: u32) -> RateLimiter {
        RateLimiter { limit, windows: Mutex::new(HashMap::new()) }
    }

    /// Counts one request from `key` at `now_ms`; false when it is over
    /// the limit.
    pub fn allow(&self, key: &str, now_ms: u64) -> bool {
        if self.limit == 0 {
            return true;
        }
        let second = now_ms / 1000;
        let mut w = lock(&self.windows);
        if w.len() >= KEYS && !w.contains_key(key) {
            w.retain(|_, (s, _)| *s == second);
        }
        let slot = w.entry(key.to_string()).or_insert((second, 0));
        if slot.0 != second {
            *slot = (second, 0);
        }
        slot.1 += 1;
        slot.1 <= self.limit
    }
}

#[cfg(test)]
mod tests {
    use super::RateLimiter;

    #[test]
    fn limits_each_key_per_second() {
        let r = RateLimiter::new(2);
        assert!(r.allow("a", 1_000));
        assert!(r.allow("a", 1_500));
        assert!(!r.allow("a", 1_999));
        assert!(r.allow("b", 1_999));
        assert!(r.allow("a", 2_000));
    }

    #[test]
    fn zero_means_no_limit() {
        let r = RateLimiter::new(0);
        assert!((0..1000).all(|_| r.allow("a", 5)));
    }
}

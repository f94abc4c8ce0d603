//! Handling a notification once: the service may deliver the same result
//! more than once, and a merchant's handler should act on each `seq_id` only
//! the first time.
//!
//! [`SeenSeqIds`] remembers the most recent `seq_id`s it was shown, at most
//! `capacity` of them (the oldest is forgotten first), so its memory is
//! bounded: `capacity` times the longest `seq_id` accepted by
//! `parse_notification` (256 bytes). Lookups scan the list, which stays cheap
//! for the capacities such a handler needs and keeps hashing out of the wasm
//! build. A process that restarts forgets; durable idempotence belongs in the
//! merchant's own store, keyed the same way.

use crate::prelude::*;
use alloc::collections::VecDeque;

/// Whether a `seq_id` was seen before.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seen {
    /// Not seen before (now remembered): handle it.
    First,
    /// Seen before: acknowledge it again but do not act a second time.
    Duplicate,
}

#[derive(Clone, Debug)]
pub struct SeenSeqIds {
    capacity: usize,
    ids: VecDeque<String>,
}

impl SeenSeqIds {
    pub const DEFAULT_CAPACITY: usize = 1024;

    /// Remembers up to `capacity` ids (at least one).
    pub fn new(capacity: usize) -> SeenSeqIds {
        SeenSeqIds { capacity: capacity.max(1), ids: VecDeque::new() }
    }

    /// Says whether `seq_id` was seen before, and remembers it.
    pub fn note(&mut self, seq_id: &str) -> Seen {
        if self.ids.iter().any(|s| s == seq_id) {
            return Seen::Duplicate;
        }
        if self.ids.len() >= self.capacity {
            self.ids.pop_front();
        }
        self.ids.push_back(seq_id.into());
        Seen::First
    }

    /// Forgets `seq_id` (when handling it failed and a redelivery should be
    /// handled again); true when it was remembered.
    pub fn forget(&mut self, seq_id: &str) -> bool {
        match self.ids.iter().position(|s| s == seq_id) {
            Some(i) => self.ids.remove(i).is_some(),
            None => false,
        }
    }

    /// How many ids are remembered.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }
}

impl Default for SeenSeqIds {
    /// [`SeenSeqIds::DEFAULT_CAPACITY`] ids.
    fn default() -> SeenSeqIds {
        SeenSeqIds::new(SeenSeqIds::DEFAULT_CAPACITY)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_then_duplicate() {
        let mut m = SeenSeqIds::new(SeenSeqIds::DEFAULT_CAPACITY);
        assert_eq!(m.note("S1"), Seen::First);
        assert_eq!(m.note("S1"), Seen::Duplicate);
        assert_eq!(m.note("S2"), Seen::First);
        assert_eq!(m.len(), 2);
    }

    #[test]
    fn bounded_oldest_forgotten_first() {
        let mut m = SeenSeqIds::new(2);
        m.note("a");
        m.note("b");
        m.note("c");
        assert_eq!(m.len(), 2);
        assert_eq!(m.note("b"), Seen::Duplicate);
        assert_eq!(m.note("a"), Seen::First);
        let mut one = SeenSeqIds::new(0);
        one.note("x");
        one.note("y");
        assert_eq!(one.len(), 1);
        let mut d = SeenSeqIds::default();
        assert_eq!(d.note("x"), Seen::First);
        assert_eq!(d.note("y"), Seen::First);
        assert_eq!(d.len(), 2);
    }

    #[test]
    fn forget_lets_a_redelivery_through() {
        let mut m = SeenSeqIds::new(4);
        m.note("S");
        assert!(m.forget("S"));
        assert!(!m.forget("S"));
        assert!(m.is_empty());
        assert_eq!(m.note("S"), Seen::First);
    }
}

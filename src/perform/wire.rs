//! The wire between a module's edges (`web/protocol.rs` writes the
//! commands and reads the inputs that `web/table.rs`'s one step export is
//! fed) and the shim that performs their commands
//! (`www/lib/perform.js`), declared once: every operation a command may
//! carry, every kind of input the shim may feed back, and what the query
//! `Counts` answers.
//!
//! `www/lib/protocol.js` holds the same numbers as JavaScript constants
//! (`OP_EMIT`, `FEED_RETURNED`, ...). It is generated from these
//! declarations, not written by hand: `tests/wire.rs` fails when the file
//! and the enums differ (`UPDATE_WIRE=1 cargo test --test wire` writes it)
//! and when the shim (or a browser test's page) compares or feeds a number
//! of its own instead of a name, or reads the counts by position.
//!
//! What must stay true: a number, once given, means one thing in both
//! languages; the shim treats every operand as opaque (a timer or target
//! number is handed back as it came); the core answers an input kind it
//! does not know with nothing.

/// Declares a wire enum: its members with explicit numbers, `ALL` (each
/// member's name and number, which `tests/wire.rs` writes as JavaScript)
/// and `of` (the member with a number, `None` for any other).
macro_rules! wire {
    ($(#[$m:meta])* pub enum $name:ident { $($(#[$vm:meta])* $v:ident = $n:literal,)* }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[repr(u8)]
        pub enum $name {
            $($(#[$vm])* $v = $n,)*
        }

        impl $name {
            /// Every member: its name and its number on the wire.
            pub const ALL: &'static [(&'static str, u8)] = &[$((stringify!($v), $n),)*];

            /// The member numbered `n` on the wire.
            pub fn of(n: u32) -> Option<Self> {
                match n {
                    $($n => Some(Self::$v),)*
                    _ => None,
                }
            }
        }
    };
}

wire! {
    /// A command's operation, its first element: `[op, a, b, c, d]`, its
    /// values named in [`FIELDS`]. The table of `web/protocol.rs` says what
    /// the shim does with each.
    pub enum Op {
        /// `[Emit, type, detail]`: `onEvent({ type, at, detail })`.
        Emit = 0,
        /// `[Listen, key, event, target]`: one listener an event and target
        /// (`key` names the target: the document, `globalThis`, a signal).
        Listen = 1,
        /// `[Unlisten, key, event]`.
        Unlisten = 2,
        /// `[SetTimer, timer, ms]`: feeds `[Timer, timer]` when it fires.
        SetTimer = 3,
        /// `[ClearTimer, timer]`.
        ClearTimer = 4,
        /// `[Navigate, location, url]`: `location.assign(url)`.
        Navigate = 5,
        /// `[CallBridge, bridge, method, op, params]`: the callback feeds `Success`.
        CallBridge = 6,
        /// `[CallApi, api, method, params, complete]`: `success`, `fail`,
        /// `complete` feed `Success`, `Fail`, `Complete`.
        CallApi = 7,
        /// `[Await, f, x, y, token]`: `f(x, y)`, a merchant's hook or the
        /// platform's request, whose answer (a value or a promise) is awaited:
        /// its settling feeds `Settled` or `Rejected` with `[token, value]`
        /// (`[token, value, 1]` when `f` threw). The time-out is the run's
        /// own `SetTimer`.
        Await = 8,
        /// `[Resolve, value, event]`: the run ends and its promise resolves
        /// (`event`, when given, reported first with the value).
        Resolve = 9,
        /// `[Reject, error]`: the run ends and its promise rejects.
        Reject = 10,
        /// `[Explain, error]`: the payment module's unworded input error,
        /// for the full module to word (the browser entry's hand-over).
        Explain = 11,
        /// `[HandOff, hint, ms, error]`: the payment goes on in the full
        /// module, which awaits `confirm` (the browser entry's hand-over).
        HandOff = 12,
        /// `[Preload]`: the full module is fetched ahead of a `HandOff`.
        Preload = 13,
    }
}

/// Each command's values after its operation, by name, in the order the
/// edge writes them (`[op, ...values]`, `web/protocol.rs`); the one
/// declaration of what a command carries. `www/lib/protocol.js` has each
/// value's index, generated from this table (`LISTEN_TARGET` for
/// `Listen`'s `target`): the driver's tests write commands by these names
/// (`tests/node/drive.test.mjs`), and the wasm tests read the edge's
/// commands by them (`tests/web.rs`), so that the edge, the driver and
/// this table cannot drift apart unseen.
pub const FIELDS: &[(Op, &[&str])] = &[
    (Op::Emit, &["type", "detail"]),
    (Op::Listen, &["key", "event", "target"]),
    (Op::Unlisten, &["key", "event"]),
    (Op::SetTimer, &["timer", "ms"]),
    (Op::ClearTimer, &["timer"]),
    (Op::Navigate, &["location", "url"]),
    (Op::CallBridge, &["bridge", "method", "op", "params"]),
    (Op::CallApi, &["api", "method", "params", "complete"]),
    (Op::Await, &["f", "x", "y", "token"]),
    (Op::Resolve, &["value", "event"]),
    (Op::Reject, &["error"]),
    (Op::Explain, &["error"]),
    (Op::HandOff, &["hint", "ms", "error"]),
    (Op::Preload, &[]),
];

/// The index of `op`'s value `name` in a command (`[op, ...values]`), as
/// [`FIELDS`] declares it.
pub fn field(op: Op, name: &str) -> Option<usize> {
    let (_, names) = FIELDS.iter().find(|(o, _)| *o == op)?;
    Some(crate::prelude::index_of(names, name)? + 1)
}

/// The values of the inputs that carry several, by name, in order
/// (`value` is `[token, value]` for `Settled`): the one declaration of
/// what those inputs carry, generated into `www/lib/protocol.js`
/// (`SETTLED_TOKEN`) and read by the edge through [`at`].
pub const VALUES: &[(Feed, &[&str])] = &[(Feed::Settled, &["token", "value"]), (Feed::Rejected, &["token", "reason", "threw"])];

const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether `op`'s values are declared ([`FIELDS`]) as `names`, in that
/// order: what a writer of the command states of the order it writes them
/// in, checked when the crate is compiled (`web/protocol.rs`).
pub const fn written_as(op: Op, names: &[&str]) -> bool {
    let mut i = 0;
    while i < FIELDS.len() {
        let (o, declared) = FIELDS[i];
        if o as u8 == op as u8 {
            if declared.len() != names.len() {
                return false;
            }
            let mut j = 0;
            while j < names.len() {
                if !same(declared[j], names[j]) {
                    return false;
                }
                j += 1;
            }
            return true;
        }
        i += 1;
    }
    false
}

// The shim performs every operation up to `Reject` and hands the ones
// after it to the browser entry (`op > OP_REJECT`, www/lib/perform.js).
const _: () = assert!(
    (Op::Emit as u8) < Op::Reject as u8
        && (Op::Await as u8) < Op::Reject as u8
        && (Op::Resolve as u8) < Op::Reject as u8
        && (Op::Explain as u8) > Op::Reject as u8
        && (Op::HandOff as u8) > Op::Reject as u8
        && (Op::Preload as u8) > Op::Reject as u8
);

/// The key of input `feed`'s value `name` ([`VALUES`]), found when the
/// crate is compiled: a name the declaration lacks fails the build.
pub const fn at(feed: Feed, name: &str) -> &'static str {
    let mut i = 0;
    while i < VALUES.len() {
        let (f, names) = VALUES[i];
        if f as u8 == feed as u8 {
            let mut j = 0;
            while j < names.len() {
                if same(names[j], name) {
                    return ["0", "1", "2", "3"][j];
                }
                j += 1;
            }
        }
        i += 1;
    }
    panic!("an input value the wire does not declare (perform::wire::VALUES)")
}

wire! {
    /// What the shim feeds back: `__step(run, kind, value)`.
    pub enum Feed {
        /// The last call or navigation returned.
        Returned = 0,
        /// It threw (`value`: what it threw).
        Threw = 1,
        /// An event listened for fired (`value`: its name).
        Event = 2,
        /// A timer fired (`value`: the timer's number, as it was set).
        Timer = 3,
        /// A bridge callback, or the mini-program API's `success`.
        Success = 4,
        /// The mini-program API's `fail`.
        Fail = 5,
        /// The mini-program API's `complete`.
        Complete = 6,
        /// An awaited call's answer settled (`value`: `[token, answer]`).
        Settled = 7,
        /// An awaited call threw or its promise rejected (`value`:
        /// `[token, reason, threw]`).
        Rejected = 8,
        /// The shim has performed the end: the run lets go of what it holds.
        Release = 9,
        /// Not a step: a query for what the module holds on to now
        /// (`[listeners, waiters, retained]`), for leak tests.
        Counts = 10,
    }
}

/// What the query `Counts` answers (`__step(0, Counts)`, what the module
/// holds on to right now), by name, in order: the one declaration of its
/// values, generated into `www/lib/protocol.js` (`COUNTS_LISTENERS`),
/// written by the edge through [`count`] (`web/table.rs`) and read by
/// those names (`www/lib/shared.js`, the browser tests' pages).
pub const COUNTS: &[&str] = &["listeners", "waiters", "retained"];

/// The index of `Counts`' value `name` ([`COUNTS`]), found when the crate
/// is compiled: a name the declaration lacks fails the build.
pub const fn count(name: &str) -> usize {
    let mut i = 0;
    while i < COUNTS.len() {
        if same(COUNTS[i], name) {
            return i;
        }
        i += 1;
    }
    panic!("a count the wire does not declare (perform::wire::COUNTS)")
}

wire! {
    /// The timers of a run, by what they wait for. The shim hands a
    /// timer's number back as a `SetTimer` command gave it (`Feed::Timer`).
    pub enum Timer {
        /// The bridge-ready wait (`timeoutMs`); a watch's `stopAfterMs`.
        Ready = 0,
        /// The wallet's answer (`callbackTimeoutMs`).
        Answer = 1,
        /// The grace period after the page came back without an answer.
        Grace = 2,
        /// The scheme URL's fallback (`fallbackAfterMs`).
        Fallback = 3,
        /// An awaited call (`confirmTimeoutMs` for `confirm` and `order`, the
        /// client's `timeoutMs` for its hooks and requests, a watch's
        /// `timeoutMs` for its `ask`).
        Await = 4,
        /// The authentication client's pause between tries; a watch's
        /// between asks.
        Sleep = 5,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_distinct_and_read_back() {
        for all in [Op::ALL, Feed::ALL] {
            for (i, &(_, n)) in all.iter().enumerate() {
                assert!(all[..i].iter().all(|&(_, m)| m != n));
            }
        }
        for &(_, n) in Feed::ALL {
            assert_eq!(Feed::of(n as u32).map(|f| f as u8), Some(n));
        }
        assert_eq!(Feed::of(11), None);
        assert_eq!(Op::of(Op::HandOff as u32), Some(Op::HandOff));
        // The shim tells the hand-over's operations by their place after
        // the run's two ends (www/lib/perform.js, `op > OP_REJECT`).
        let after = |o: Op| o as u8 > Op::Reject as u8;
        assert!(Op::ALL.iter().all(|&(_, n)| after(Op::of(n as u32).unwrap()) == (n >= Op::Explain as u8)));
        assert!([Op::Explain, Op::HandOff, Op::Preload].into_iter().all(after));
        // A timer's number comes back as a SetTimer gave it; any other is
        // no timer.
        for t in [Timer::Ready, Timer::Answer, Timer::Grace, Timer::Fallback, Timer::Await, Timer::Sleep] {
            assert_eq!(Timer::of(t as u32), Some(t));
        }
        assert_eq!(Timer::of(6), None);
        // Every operation's values named, once each, in the declaration's
        // order, and at most four of them (the edge writes `[op, a, b, c, d]`).
        let ops: Vec<u8> = FIELDS.iter().map(|(o, _)| *o as u8).collect();
        assert_eq!(ops, Op::ALL.iter().map(|&(_, n)| n).collect::<Vec<_>>());
        for (_, names) in FIELDS {
            assert!(names.len() <= 4);
            for (i, n) in names.iter().enumerate() {
                assert!(!names[..i].contains(n), "{n} twice");
            }
        }
        assert_eq!(field(Op::Listen, "target"), Some(3));
        assert_eq!(field(Op::Listen, "url"), None);
        assert_eq!((at(Feed::Settled, "value"), at(Feed::Rejected, "threw")), ("1", "2"));
        assert_eq!([count("listeners"), count("waiters"), count("retained")], [0, 1, 2]);
        assert!(COUNTS.iter().enumerate().all(|(i, n)| !COUNTS[..i].contains(n)));
        assert_eq!(Timer::of(u32::MAX), None);
    }
}

//! The events a run reports to a page's `onEvent({ type, at, detail })`,
//! declared once: each one's name and whose handler hears it.
//!
//! A run emits an [`EventType`] ([`crate::perform::Cmd::Emit`], and the
//! `result` a payment reports as it ends), and only this table makes one,
//! so no name reaches a page that the table does not declare.
//! `tests/names.rs` fails when `www/lib/index.d.ts` names another set:
//! `PayEventType` for [`Heard::Pay`], the `type` of `watchPayment`'s
//! `onEvent` for [`Heard::Watch`].

/// An event's name, one of [`EventType::ALL`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EventType(&'static str);

/// Whose `onEvent` hears an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Heard {
    /// `pay()` and `cardnetPay()` (`PayEvent`). `waitForBridge()` runs the
    /// same bridge wait and takes no `onEvent`.
    Pay,
    /// `watchPayment()`.
    Watch,
}

/// Declares the events: each a constant of [`EventType`] with its name,
/// and `ALL`, every event with whose handler hears it.
macro_rules! events {
    ($($(#[$m:meta])* $c:ident = $s:literal, $heard:ident;)*) => {
        impl EventType {
            $($(#[$m])* pub const $c: EventType = EventType($s);)*

            /// Every event, with whose `onEvent` hears it.
            pub const ALL: &'static [(EventType, Heard)] = &[$((EventType::$c, Heard::$heard),)*];
        }
    };
}

events! {
    /// The plan, before anything is done (detail: the plan).
    PLANNED = "planned", Pay;
    /// A wallet's bridge is waited for (detail: `bridge`, `event`).
    WAITING = "waiting", Pay;
    /// The bridge is there (detail: `bridge`).
    BRIDGE_READY = "bridge_ready", Pay;
    /// A wallet's bridge or API, or the card-network flow's `order`, was
    /// called (detail: `method`).
    CALLED = "called", Pay;
    /// The wallet's callback, or the card-network callback, that counts
    /// (detail: what it was called with).
    CALLBACK = "callback", Pay;
    /// A wallet callback after the one that counted (detail: its value).
    CALLBACK_IGNORED = "callback_ignored", Pay;
    /// The page is sent to a checked URL (detail: `url`).
    NAVIGATING = "navigating", Pay;
    /// The payment's result, as the run resolves with it (detail: the
    /// result).
    RESULT = "result", Pay;
    /// The bridge did not become ready in time.
    TIMEOUT = "timeout", Pay;
    /// After every ask of `watchPayment` (detail: what the server said,
    /// and the next ask's delay).
    STATUS = "status", Watch;
}

impl EventType {
    /// The name a page's `onEvent` sees as `type`.
    pub fn as_str(self) -> &'static str {
        self.0
    }
}

impl core::fmt::Display for EventType {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.0)
    }
}

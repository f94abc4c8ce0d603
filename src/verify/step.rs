//! The vocabulary between a [`Call`](super::Call) and the edge that drives
//! it: the operation, the events the edge reports, the steps it is asked
//! to take, and the phase the call is in (what it waits for), which the
//! edge reads rather than keeps a copy of.

use super::outcome::Outcome;
use super::request::Request;
use super::schedule::Wait;
use crate::error::PayError;
use crate::prelude::*;

/// The operation a [`Call`](super::Call) performs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operation {
    /// `cardCheck(fields)`.
    CardCheck,
    /// `nameCheck(fields)`.
    NameCheck,
    /// `checkResult(query)`: one query.
    CheckResult,
    /// `awaitResult(query, wait)`: queries until the result is final.
    AwaitResult(Wait),
}

/// What happened, told by the edge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// Begin (the first event).
    Start,
    /// The `encrypt` hook's answers to [`Step::NeedEncrypt`], one a field,
    /// in its order.
    Encrypted(Vec<String>),
    /// The `sign` hook's answer to [`Step::NeedSign`].
    Signed(String),
    /// The answer to [`Step::Send`].
    Response { status: u16, body: String },
    /// [`Step::Send`] got no answer (network error, time-out).
    NoAnswer,
    /// The `verify` hook's answer to [`Step::NeedVerify`].
    Verified(bool),
    /// The wait of [`Step::Sleep`] is over.
    Slept,
}

/// What to do next, told to the edge.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// Call the `encrypt` hook with each `(field, value)` (the fields the
    /// document sends encrypted), answer with [`Event::Encrypted`]. Comes
    /// before [`Step::NeedSign`]: the signature covers what is sent.
    NeedEncrypt(Vec<(String, String)>),
    /// Call the `sign` hook with these parameters (every one but `sign`),
    /// answer with [`Event::Signed`].
    NeedSign(Vec<(String, String)>),
    /// Send this request, answer with [`Event::Response`] or
    /// [`Event::NoAnswer`].
    Send(Request),
    /// Call the `verify` hook, answer with [`Event::Verified`].
    NeedVerify { data: String, signature: String },
    /// Wait this many milliseconds, answer with [`Event::Slept`].
    Sleep(u32),
    /// Finished; any further event gets an error.
    Done(Result<Outcome, PayError>),
}

/// Where a [`Call`](super::Call) is: the event it waits for next. The call
/// holds it ([`Call::phase`](super::Call::phase)); the edge asks it what it
/// awaits (`perform::VerifyRun`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Not started: waits for [`Event::Start`].
    New,
    /// Asked [`Step::NeedEncrypt`]: waits for [`Event::Encrypted`].
    Encrypting,
    /// Asked [`Step::NeedSign`]: waits for [`Event::Signed`].
    Signing,
    /// Asked [`Step::Send`]: waits for [`Event::Response`] or
    /// [`Event::NoAnswer`].
    Sending,
    /// Asked [`Step::NeedVerify`]: waits for [`Event::Verified`].
    Verifying,
    /// Asked [`Step::Sleep`]: waits for [`Event::Slept`].
    Sleeping,
    /// Ended ([`Step::Done`], or ended by the edge): waits for nothing.
    Finished,
}

impl Phase {
    /// The event this phase waits for, for messages.
    pub fn awaited(self) -> &'static str {
        match self {
            Phase::New => "Start",
            Phase::Encrypting => "Encrypted",
            Phase::Signing => "Signed",
            Phase::Sending => "Response or NoAnswer",
            Phase::Verifying => "Verified",
            Phase::Sleeping => "Slept",
            Phase::Finished => "nothing",
        }
    }
}

impl Event {
    /// The event's name, for messages.
    pub fn name(&self) -> &'static str {
        match self {
            Event::Start => "Start",
            Event::Encrypted(_) => "Encrypted",
            Event::Signed(_) => "Signed",
            Event::Response { .. } => "Response",
            Event::NoAnswer => "NoAnswer",
            Event::Verified(_) => "Verified",
            Event::Slept => "Slept",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_names_for_messages() {
        let all = [
            Event::Start,
            Event::Encrypted(vec![]),
            Event::Signed("s".into()),
            Event::Response { status: 200, body: String::new() },
            Event::NoAnswer,
            Event::Verified(true),
            Event::Slept,
        ];
        let names: Vec<&str> = all.iter().map(Event::name).collect();
        assert_eq!(names, ["Start", "Encrypted", "Signed", "Response", "NoAnswer", "Verified", "Slept"]);
    }
}

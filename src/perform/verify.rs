//! The authentication client's calls, sans-IO: a [`Call`] (which decides
//! what to send, when to try again and what an answer means) performed as
//! the payment is, through the same commands. Each step the call asks for
//! is one awaited call ([`Cmd::Await`]) under `timeoutMs`: the caller's
//! `encrypt` (a field at a time), `sign` and `verify` hooks, the request
//! (the caller's `transport`, or `fetch` and then its body, both under one
//! deadline), and a timer for the pause between tries.
//!
//! Where the call is (what it waits for) is the [`Call`]'s alone
//! ([`Call::phase`]): the run reads it to know what an input answers, and
//! tells the call when it ends it ([`Call::end`]).
//!
//! What must stay true: a hook that throws, rejects or does not answer in
//! time fails the call `hook_failed` naming the hook ([`super::hooks`]), one
//! that answers the wrong type `invalid_options`; a request
//! that throws, rejects or does not answer in time is "no answer", for the
//! [`Call`] to decide on, and the call's last transport error says what
//! the last try met; a request answered with something that is no answer
//! (a `transport`'s value that is not `{ status, body }`, a `fetch` value
//! with no `text()`) fails the call; an answer that settles after its
//! time-out (its token is no longer the one awaited) changes nothing.

use super::hooks::{self, Awaited, Failure};
use super::io::{Expect, Got, Hook};
use super::{Cmd, Input, Out, Timer};
use crate::error::{cat, push_u64, Code, PayError};
use crate::prelude::*;
use crate::verify::{Call, Event, Notification, Phase, Step};

/// The longest wait a timer can hold (`setTimeout` takes a 32-bit signed
/// count of milliseconds).
pub const MAX_TIMER_MS: u32 = i32::MAX as u32;

/// What the edge knows of the platform for a call.
pub trait Sender<V> {
    /// Whether a request can be sent: a `transport` was given, or there is
    /// a `fetch`.
    fn can_send(&self) -> bool;
    /// What a thrown or rejected value says, as it follows the words of a
    /// failure (`": message (cause's message)"`, or nothing).
    fn describe(&self, v: &V) -> String;
}

/// One call of the authentication client being performed. Where the call
/// is (what it waits for) is the [`Call`]'s own record, read through
/// [`Call::phase`]; the run keeps only what the edge adds within a phase:
/// the token it awaits, the fields still to encrypt one at a time, and
/// whether a `fetch` answer's body is being read.
pub struct VerifyRun<V> {
    /// The call performed, and the one record of where it is.
    pub(super) call: Call,
    /// The token of the awaited call.
    token: u32,
    timeout_ms: u32,
    /// Whether requests go through the caller's `transport` (else `fetch`).
    custom: bool,
    /// While the call is [`Phase::Encrypting`]: the fields asked for, and
    /// the hook's answers so far, one a field.
    to_encrypt: Vec<(String, String)>,
    encrypted: Vec<String>,
    /// While the call is [`Phase::Sending`]: the status of a `fetch` answer
    /// whose body is being read (under the request's deadline).
    body: Option<u16>,
    /// What the last request that got no answer met, and the value behind it.
    last: Option<(String, Option<V>)>,
}

fn bad_option(field: &str, message: &str) -> PayError {
    PayError::field(Code::InvalidOptions, field, cat!(field, " ", message))
}

/// `verify` answered something that is not a boolean (of type `ty`).
fn not_flag(ty: &str) -> PayError {
    bad_option("verify", &cat!("must return true or false (or a Promise of it), not ", ty))
}

fn no_fetch() -> PayError {
    PayError::field(
        Code::Transport,
        "transport",
        "this runtime has no fetch: pass transport: ({ method, url, headers, body }) => Promise<{ status, body }> \
         to new AuthClient (a mini-program's request API wrapped in a function, for instance)",
    )
}

impl<V> VerifyRun<V> {
    /// Starts `call`: `timeout_ms` for each step, `custom` whether the
    /// caller gave a `transport`. (Whether it gave `verify` is the call's:
    /// it asks for [`Step::NeedVerify`] only then.)
    pub fn start(call: Call, timeout_ms: u32, custom: bool, s: &impl Sender<V>, out: &mut impl Out<V>) -> VerifyRun<V> {
        let mut run =
            VerifyRun { call, token: 0, timeout_ms, custom, to_encrypt: Vec::new(), encrypted: Vec::new(), body: None, last: None };
        run.next(Event::Start, s, out);
        run
    }

    /// Whether the run has ended.
    pub fn over(&self) -> bool {
        matches!(self.call.phase(), Phase::Finished)
    }

    /// Whether the run awaits a request (sent, or its body being read).
    pub fn sending(&self) -> bool {
        matches!(self.call.phase(), Phase::Sending)
    }

    /// What the awaited answer is read as.
    pub fn expects(&self) -> Expect {
        match self.call.phase() {
            Phase::Verifying => Expect::Flag,
            Phase::Sending if self.body.is_none() => Expect::Answer,
            _ => Expect::Text,
        }
    }

    /// Answers one input. Inputs after the end, and answers to an awaited
    /// call the run no longer awaits, change nothing.
    pub fn step_into(&mut self, input: Input<V>, s: &impl Sender<V>, out: &mut impl Out<V>) {
        let phase = self.call.phase();
        let awaiting = !matches!(phase, Phase::Sleeping | Phase::Finished);
        let sending = matches!(phase, Phase::Sending);
        // The request itself, its body not asked for yet.
        let request = sending && self.body.is_none();
        // What the awaited call met: no answer to a request (what it met,
        // and the value behind it), which the call decides on; or a hook
        // that failed (how, and what it threw), which ends the call here.
        let met = match input {
            Input::Settled(t, got) if awaiting && t == self.token => {
                if !request && !matches!(phase, Phase::Encrypting) {
                    out.clear_timer(Timer::Await);
                }
                return self.settled(got, s, out);
            }
            Input::Rejected(t, v, threw) if awaiting && t == self.token => {
                out.clear_timer(Timer::Await);
                if !sending {
                    return self.hook_failed(phase, Failure::thrown(threw), Some(v), out);
                }
                let what = match (request, self.custom, threw) {
                    (false, ..) => "the answer's body could not be read",
                    (_, true, true) => "the transport function threw",
                    (_, true, false) => "the transport function's promise rejected",
                    (_, false, true) => "fetch threw",
                    _ => "the request failed",
                };
                (cat!(what, &s.describe(&v)), Some(v))
            }
            Input::Timer(Timer::Await) if awaiting => {
                if !sending {
                    return self.hook_failed(phase, Failure::Late(self.timeout_ms), None, out);
                }
                let mut m = String::from("no answer within ");
                push_u64(&mut m, self.timeout_ms as u64);
                m.push_str(" ms (timeoutMs)");
                (m, None)
            }
            Input::Timer(Timer::Sleep) if matches!(phase, Phase::Sleeping) => return self.next(Event::Slept, s, out),
            _ => return,
        };
        self.last = Some(met);
        self.next(Event::NoAnswer, s, out)
    }

    /// The hook a call in `phase` awaits failed `how` (`cause`: what it
    /// threw).
    fn hook_failed(&mut self, phase: Phase, how: Failure, cause: Option<V>, out: &mut impl Out<V>) {
        let hook = match phase {
            Phase::Encrypting => Awaited::Encrypt,
            Phase::Signing => Awaited::Sign,
            _ => Awaited::Verify,
        };
        self.fail(hooks::failed(hook, how), cause, out)
    }

    fn settled(&mut self, got: Got<V>, s: &impl Sender<V>, out: &mut impl Out<V>) {
        let text = |name: &str, what: &str, got: Got<V>| match got {
            Got::Text(Ok(t)) => Ok(t),
            Got::Text(Err(ty)) => Err(bad_option(name, &cat!("must return ", what, " as a string (or a Promise of one), not ", &ty))),
            _ => Err(bad_option(name, "answered what the client did not ask for")),
        };
        let event = match (self.call.phase(), self.body, got) {
            (Phase::Encrypting, _, got) => match text("encrypt", "the encrypted value", got) {
                Ok(v) => {
                    self.encrypted.push(v);
                    if let Some(next) = self.to_encrypt.get(self.encrypted.len()).cloned() {
                        return self.ask(Hook::Encrypt(Box::new(next)), out);
                    }
                    out.clear_timer(Timer::Await);
                    Event::Encrypted(core::mem::take(&mut self.encrypted))
                }
                Err(e) => return self.fail(e, None, out),
            },
            (Phase::Signing, _, got) => match text("sign", "the signature", got) {
                Ok(v) => Event::Signed(v),
                Err(e) => return self.fail(e, None, out),
            },
            (Phase::Verifying, _, Got::Flag(Ok(b))) => Event::Verified(b),
            (Phase::Verifying, _, Got::Flag(Err(ty))) => return self.fail(not_flag(&ty), None, out),
            (Phase::Sending, None, Got::Answer(Ok((status, body)))) => {
                out.clear_timer(Timer::Await);
                Event::Response { status, body }
            }
            // The body is read under the same deadline as the request.
            (Phase::Sending, None, Got::Response(Ok(status), v)) => {
                self.body = Some(status);
                self.token += 1;
                return out.push(Cmd::Await(self.token, Hook::Body(v)));
            }
            (Phase::Sending, None, Got::Answer(Err(e)) | Got::Response(Err(e), _)) => return self.fail(e, None, out),
            (Phase::Sending, Some(status), Got::Text(body)) => Event::Response { status, body: body.unwrap_or_default() },
            _ => return,
        };
        self.next(event, s, out)
    }

    /// Awaits `hook` under the run's time-out.
    fn ask(&mut self, hook: Hook<V>, out: &mut impl Out<V>) {
        self.token += 1;
        hooks::ask(out, self.token, hook, self.timeout_ms);
    }

    /// Tells the call what happened, and does what it asks next.
    fn next(&mut self, mut event: Event, s: &impl Sender<V>, out: &mut impl Out<V>) {
        self.body = None;
        loop {
            match self.call.next(event) {
                Step::NeedEncrypt(fields) if !fields.is_empty() => {
                    self.encrypted.clear();
                    let first = fields[0].clone();
                    self.to_encrypt = fields;
                    return self.ask(Hook::Encrypt(Box::new(first)), out);
                }
                Step::NeedEncrypt(_) => event = Event::Encrypted(Vec::new()),
                Step::NeedSign(params) => {
                    if !s.can_send() {
                        return self.fail(no_fetch(), None, out);
                    }
                    return self.ask(Hook::Sign(params), out);
                }
                Step::Send(request) => return self.ask(Hook::Send(Box::new(request)), out),
                Step::NeedVerify { data, signature } => return self.ask(Hook::Verify(Box::new((data, signature))), out),
                Step::Sleep(ms) => return out.set_timer(Timer::Sleep, ms.min(MAX_TIMER_MS)),
                Step::Done(Ok(outcome)) => return out.push(Cmd::Resolve(outcome.to_json())),
                Step::Done(Err(mut e)) => {
                    // A call that ran out of tries says what the last one met.
                    if let (Code::Transport, Some((m, cause))) = (e.code, self.last.take()) {
                        e.message = cat!(&e.message, " (last: ", &m, ")");
                        return out.push(match cause {
                            Some(c) => Cmd::FailCaused(e, c),
                            None => Cmd::Fail(e, None, None),
                        });
                    }
                    return self.fail(e, None, out);
                }
            }
        }
    }

    /// Ends the call here, the edge's failure (a hook's, an answer's).
    fn fail(&mut self, e: PayError, cause: Option<V>, out: &mut impl Out<V>) {
        self.call.end();
        out.fail(e, cause, None);
    }
}

/// `verifyNotification`: with a `verify` hook (`checked`), the hook asked
/// over the notification's `signInput` and `sign`, under `timeout_ms`; the
/// outcome when it answers true, `bad_signature` when false. With `verify:
/// false`, the outcome at once, unchecked.
pub struct NoticeRun {
    notice: Option<Notification>,
    timeout_ms: u32,
}

impl NoticeRun {
    pub fn start<V>(n: Notification, checked: bool, timeout_ms: u32, out: &mut impl Out<V>) -> NoticeRun {
        if !checked {
            out.push(Cmd::Resolve(n.outcome.to_json()));
            return NoticeRun { notice: None, timeout_ms };
        }
        hooks::ask(out, 1, Hook::Verify(Box::new((n.sign_input.clone(), n.sign.clone()))), timeout_ms);
        NoticeRun { notice: Some(n), timeout_ms }
    }

    pub fn over(&self) -> bool {
        self.notice.is_none()
    }

    pub fn step_into<V>(&mut self, input: Input<V>, out: &mut impl Out<V>) {
        if self.notice.is_none() {
            return;
        }
        let (e, cause) = match input {
            Input::Settled(1, Got::Flag(Ok(ok))) => match self.notice.take().map(|n| n.accept(ok)) {
                Some(Ok(o)) => return out.push(Cmd::Resolve(o.to_json())),
                Some(Err(e)) => (e, None),
                None => return,
            },
            Input::Settled(1, Got::Flag(Err(ty))) => (not_flag(&ty), None),
            Input::Rejected(1, v, threw) => (hooks::failed(Awaited::Verify, Failure::thrown(threw)), Some(v)),
            Input::Timer(Timer::Await) => (hooks::failed(Awaited::Verify, Failure::Late(self.timeout_ms)), None),
            _ => return,
        };
        self.notice = None;
        out.fail(e, cause, None);
    }
}

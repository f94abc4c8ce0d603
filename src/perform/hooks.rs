//! Awaiting a caller's function under a time-out, written once for every
//! run: the awaited call ([`ask`]: a [`Timer::Await`] then the
//! [`Cmd::Await`]; a watch's `ask` too) and what its failure is
//! ([`failed`]; a watch's failed ask is not a failure of the run, which
//! asks again: `perform/watch.rs`): a function that
//! throws, whose promise rejects, or that outlives its time-out fails the
//! run with one code per kind of function ([`Awaited::code`]), `field`
//! naming it and the thrown value kept as the error's `cause`.
//!
//! | kind | code | time-out option |
//! | --- | --- | --- |
//! | `confirm` (a payment) | `confirm_failed` | `confirmTimeoutMs` |
//! | `order` (`cardnetPay`) | `transport` | `confirmTimeoutMs` |
//! | `sign`, `verify`, `encrypt` (the authentication client) | `hook_failed` | `timeoutMs` |
//!
//! The request of a client's call (its `transport`, or `fetch`) is awaited
//! the same way, but its failure is "no answer", which the call decides on
//! (`perform::verify`, in the full module): `transport` once it gives up.

use super::io::Hook;
use super::{Cmd, Out, Timer};
use crate::error::{cat, push_u64, Code, PayError};

/// The kinds of function a run awaits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Awaited {
    Confirm,
    Order,
    Sign,
    Verify,
    Encrypt,
}

/// How an awaited function failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// It threw.
    Threw,
    /// Its promise rejected.
    Rejected,
    /// It did not answer within this many milliseconds.
    Late(u32),
}

impl Failure {
    /// A thrown (`true`) or rejected failure, as [`super::Input::Rejected`]
    /// reports it.
    pub fn thrown(threw: bool) -> Failure {
        if threw {
            Failure::Threw
        } else {
            Failure::Rejected
        }
    }
}

impl Awaited {
    /// The code of a failure of this kind: the one place that says it.
    #[inline(always)]
    pub fn code(self) -> Code {
        match self {
            Awaited::Confirm => Code::ConfirmFailed,
            Awaited::Order => Code::Transport,
            Awaited::Sign | Awaited::Verify | Awaited::Encrypt => Code::HookFailed,
        }
    }

    /// The function's name, the error's `field`.
    #[inline(always)]
    pub fn name(self) -> &'static str {
        match self {
            Awaited::Confirm => "confirm",
            Awaited::Order => "order",
            Awaited::Sign => "sign",
            Awaited::Verify => "verify",
            Awaited::Encrypt => "encrypt",
        }
    }

    /// The option that sets its time-out.
    #[inline(always)]
    fn timeout_option(self) -> &'static str {
        match self {
            Awaited::Confirm | Awaited::Order => " ms (confirmTimeoutMs)",
            _ => " ms (timeoutMs)",
        }
    }
}

/// Awaits `hook` (answered with `token`) for at most `ms`.
pub fn ask<V>(out: &mut impl Out<V>, token: u32, hook: Hook<V>, ms: u32) {
    out.set_timer(Timer::Await, ms);
    out.push(Cmd::Await(token, hook));
}

/// The error of an awaited function of `kind` that failed `how`.
#[inline(always)]
pub fn failed(kind: Awaited, how: Failure) -> PayError {
    let name = kind.name();
    let m = match how {
        Failure::Threw => cat!("the ", name, " hook threw"),
        Failure::Rejected => cat!("the ", name, " hook's promise rejected"),
        Failure::Late(ms) => {
            let mut m = cat!("the ", name, " hook did not answer within ");
            push_u64(&mut m, ms as u64);
            m.push_str(kind.timeout_option());
            m
        }
    };
    PayError::field(kind.code(), name, m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_code_per_kind() {
        let all = [Awaited::Confirm, Awaited::Order, Awaited::Sign, Awaited::Verify, Awaited::Encrypt];
        let codes: Vec<&str> = all.iter().map(|k| k.code().as_str()).collect();
        assert_eq!(codes, ["confirm_failed", "transport", "hook_failed", "hook_failed", "hook_failed"]);
        for k in all {
            for how in [Failure::Threw, Failure::Rejected, Failure::Late(7)] {
                let e = failed(k, how);
                assert_eq!((e.code, e.field.as_deref()), (k.code(), Some(k.name())));
                assert!(e.message.starts_with(&cat!("the ", k.name(), " hook")), "{}", e.message);
            }
        }
        assert_eq!(failed(Awaited::Encrypt, Failure::Late(7)).message, "the encrypt hook did not answer within 7 ms (timeoutMs)");
        assert_eq!(failed(Awaited::Order, Failure::Late(9)).message, "the order hook did not answer within 9 ms (confirmTimeoutMs)");
        assert_eq!(failed(Awaited::Confirm, Failure::thrown(false)).message, "the confirm hook's promise rejected");
    }
}

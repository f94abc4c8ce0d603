//! The status of a payment as `PayResult` reports it, and the names it is
//! read from (a `confirm` hook's answer, a profile's result-code map).
//! Shared by the result mapping (`outcome.rs`) and the profile.

use crate::prelude::index_of;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Succeeded,
    Pending,
    Cancelled,
    Failed,
    Redirected,
    Opened,
}

/// Every status, in [`Status`]'s order: the ones a wallet's answer can
/// map to first.
const ALL: [Status; 6] = [Status::Succeeded, Status::Pending, Status::Cancelled, Status::Failed, Status::Redirected, Status::Opened];

/// Each status's name, in the order of [`ALL`]: read by place (`as_str`)
/// and by a find (`from_name`).
const NAMES: [&str; 6] = ["succeeded", "pending", "cancelled", "failed", "redirected", "opened"];

/// Of [`ALL`], the ones a wallet's answer can map to.
const WALLET: usize = 4;

impl Status {
    pub fn as_str(self) -> &'static str {
        NAMES[self as usize]
    }

    pub fn from_name(s: &str) -> Option<Status> {
        index_of(&NAMES, s).map(|i| ALL[i])
    }

    /// The statuses a wallet's answer can map to.
    pub fn from_wallet_name(s: &str) -> Option<Status> {
        index_of(&NAMES[..WALLET], s).map(|i| ALL[i])
    }

    pub(crate) fn message(self) -> &'static str {
        MESSAGES[self as usize]
    }
}

/// What each status tells the page, in [`Status`]'s order.
const MESSAGES: [&str; 6] = [
    "the wallet reported the payment as paid; confirm it on your server",
    "the wallet reported the payment as in progress; ask your server for its state",
    "the user cancelled the payment",
    "the wallet reported the payment as failed",
    "the page is navigating to the payment page",
    "the wallet app was asked to open",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_in_the_enum_order() {
        for (i, (&name, &st)) in NAMES.iter().zip(ALL.iter()).enumerate() {
            assert_eq!(st as usize, i);
            assert_eq!(st.as_str(), name);
            assert_eq!(Status::from_name(name), Some(st));
            assert_eq!(Status::from_wallet_name(name).is_some(), i < WALLET);
        }
        // Each name tied to its variant by hand, not by the two tables.
        let pairs =
            [(Status::Succeeded, "succeeded"), (Status::Pending, "pending"), (Status::Cancelled, "cancelled"), (Status::Failed, "failed")];
        for (st, name) in pairs {
            assert_eq!((st.as_str(), Status::from_name(name)), (name, Some(st)));
        }
        assert_eq!((Status::Redirected.as_str(), Status::Opened.as_str()), ("redirected", "opened"));
        assert_eq!(Status::from_wallet_name("redirected"), None);
        assert_eq!(Status::from_name("Succeeded"), None);
        assert_eq!(Status::Cancelled.message(), "the user cancelled the payment");
        assert_eq!(Status::Opened.message(), "the wallet app was asked to open");
    }
}

//! The status of a payment as `PayResult` reports it, and the names it is
//! read from (a `confirm` hook's answer, a profile's result-code map).
//! Shared by the result mapping (`outcome.rs`) and the profile.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Succeeded,
    Pending,
    Cancelled,
    Failed,
    Redirected,
    Opened,
}

/// Every status with its name, in [`Status`]'s order: the ones a wallet's
/// answer can map to first.
const STATUSES: [(&str, Status); 6] = [
    ("succeeded", Status::Succeeded),
    ("pending", Status::Pending),
    ("cancelled", Status::Cancelled),
    ("failed", Status::Failed),
    ("redirected", Status::Redirected),
    ("opened", Status::Opened),
];

/// Of [`STATUSES`], the ones a wallet's answer can map to.
const WALLET: usize = 4;

impl Status {
    pub fn as_str(self) -> &'static str {
        STATUSES[self as usize].0
    }

    pub fn from_name(s: &str) -> Option<Status> {
        find(&STATUSES, s)
    }

    /// The statuses a wallet's answer can map to.
    pub fn from_wallet_name(s: &str) -> Option<Status> {
        find(&STATUSES[..WALLET], s)
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

/// The value `s` names in a table of names and values (the statuses here,
/// the runtime's hosts).
pub(crate) fn find<T: Copy>(table: &[(&str, T)], s: &str) -> Option<T> {
    table.iter().find(|(name, _)| *name == s).map(|&(_, v)| v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_in_the_enum_order() {
        for (i, &(name, st)) in STATUSES.iter().enumerate() {
            assert_eq!(st as usize, i);
            assert_eq!(st.as_str(), name);
            assert_eq!(Status::from_name(name), Some(st));
            assert_eq!(Status::from_wallet_name(name).is_some(), i < WALLET);
        }
        assert_eq!(Status::from_wallet_name("redirected"), None);
        assert_eq!(Status::from_name("Succeeded"), None);
        assert_eq!(Status::Cancelled.message(), "the user cancelled the payment");
        assert_eq!(Status::Opened.message(), "the wallet app was asked to open");
    }
}

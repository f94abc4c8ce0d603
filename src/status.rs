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

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Succeeded => "succeeded",
            Status::Pending => "pending",
            Status::Cancelled => "cancelled",
            Status::Failed => "failed",
            Status::Redirected => "redirected",
            Status::Opened => "opened",
        }
    }

    pub fn from_name(s: &str) -> Option<Status> {
        Some(match s {
            "redirected" => Status::Redirected,
            "opened" => Status::Opened,
            _ => return Status::from_wallet_name(s),
        })
    }

    /// The statuses a wallet's answer can map to.
    pub fn from_wallet_name(s: &str) -> Option<Status> {
        Some(match s {
            "succeeded" => Status::Succeeded,
            "pending" => Status::Pending,
            "cancelled" => Status::Cancelled,
            "failed" => Status::Failed,
            _ => return None,
        })
    }

    pub(crate) fn message(self) -> &'static str {
        match self {
            Status::Succeeded => "the wallet reported the payment as paid; confirm it on your server",
            Status::Pending => "the wallet reported the payment as in progress; ask your server for its state",
            Status::Cancelled => "the user cancelled the payment",
            Status::Failed => "the wallet reported the payment as failed",
            Status::Redirected => "the page is navigating to the payment page",
            Status::Opened => "the wallet app was asked to open",
        }
    }
}

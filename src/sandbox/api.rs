//! The aggregated authentication API of the service document at `/api/v1/`
//! (`cardcheck`, `namecheck`, `checkresult`, notifications), behaving as its
//! joint-debugging environment does.
//!
//! Not served yet: it is to be built on the crate's own authentication model
//! in `verify/` (request rules, envelope, codes), with [`super::sign`] for
//! the sandbox's signatures and [`super::ratelimit`] for `90105`.

use axum::Router;

use super::AppState;

/// The authentication API's routes (none yet).
pub fn router() -> Router<AppState> {
    Router::new()
}

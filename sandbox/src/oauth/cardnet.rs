//! The card network: the user-authorization screen giving `respCode` and a
//! five-minute `userAuthCode`.

use axum::body::Bytes;
use axum::extract::{RawQuery, State};
use axum::response::Response;

use super::{allowed, consent, form, issue, GrantKind};
use crate::http::{redirect_target, see_other, with_query, Params, Problem};
use crate::AppState;

fn cardnet_ask(p: &Params) -> Result<url::Url, Problem> {
    if p.required("version")? != "1.0.0" {
        return Err(Problem::bad("version", "version must be 1.0.0"));
    }
    redirect_target("redirectUrl", p.required("redirectUrl")?)
}

pub async fn consent_page(RawQuery(q): RawQuery) -> Response {
    let p = Params::from_query(q.as_deref());
    match cardnet_ask(&p) {
        Ok(target) => {
            let redirect = target.to_string();
            consent(
                "Card network: authorize",
                "<p>The merchant asks for your card-network user identity, to pay with your card.</p>",
                "/sim/cardnet/authorize",
                &[("version", "1.0.0"), ("redirectUrl", &redirect)],
                &redirect,
            )
        }
        Err(e) => e.html(),
    }
}

pub async fn decide(State(s): State<AppState>, body: Bytes) -> Response {
    let p = form(&body);
    let run = || -> Result<Response, Problem> {
        let target = cardnet_ask(&p)?;
        let location = if allowed(&p)? {
            let code = issue(&s, GrantKind::Cardnet, "", "");
            with_query(target, &[("respCode", "00"), ("userAuthCode", &code)])
        } else {
            with_query(target, &[("respCode", "34")])
        };
        Ok(see_other(&location))
    };
    run().unwrap_or_else(Problem::html)
}

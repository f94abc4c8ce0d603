//! The default profile (the service document's neutral names) and the
//! table of every string a profile holds, which the defaults, the merge and
//! `defaultProfile()` share.

use super::check::Kind;
use super::{CardnetProfile, Profile, Wallet1Profile, Wallet2Profile};
use crate::prelude::*;
use crate::status::Status;

/// Which string of the profile an entry of [`FIELDS`] is.
#[derive(Clone, Copy)]
pub(super) enum F {
    W1Scheme,
    W1Bridge,
    W1ReadyEvent,
    W1UaToken,
    W1MiniProgramGlobal,
    W1AuthUrl,
    W1TokenUrl,
    W1TokenMethod,
    W2Bridge,
    W2ReadyEvent,
    W2PayMethod,
    W2UaToken,
    W2MiniProgramGlobal,
    W2WebAssemblyGlobal,
    W2AuthorizeUrl,
    W2RedirectFragment,
    W2OauthTokenUrl,
    W2SessionUrl,
    W2OriginalIdPrefix,
    CardnetAuthUrl,
}

/// The default of a string only the authorization helpers and the
/// mini-program helpers read: empty in the payment module, where nothing
/// reads it, so its text is not in that module. A page's override of it
/// is still checked there, as everywhere.
const fn off_path(default: &'static str) -> &'static str {
    if crate::PAYMENT_MODULE {
        ""
    } else {
        default
    }
}

/// The profile's members, as [`G`] numbers them: the groups of strings
/// (of [`FIELDS`]), then the two lists, each merged its own way.
pub(super) const GROUPS: [&str; 5] = ["wallet1", "wallet2", "cardnet", "mobileTokens", "channelAliases"];

/// A member of the profile (its place in [`GROUPS`]).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum G {
    Wallet1,
    Wallet2,
    Cardnet,
    MobileTokens,
    ChannelAliases,
}

/// Every string of the profile: its group, its JavaScript name, what it
/// must look like, and its default. One table serves the defaults, the
/// merge and `defaultProfile()`.
pub(super) const FIELDS: [(G, &str, Kind, F, &str); 20] = [
    (G::Wallet1, "scheme", Kind::Scheme, F::W1Scheme, "wallet1"),
    (G::Wallet1, "bridge", Kind::Ident, F::W1Bridge, "Wallet1JSBridge"),
    (G::Wallet1, "readyEvent", Kind::Token, F::W1ReadyEvent, "Wallet1JSBridgeReady"),
    (G::Wallet1, "uaToken", Kind::Token, F::W1UaToken, "Wallet1Client"),
    (G::Wallet1, "miniProgramGlobal", Kind::Ident, F::W1MiniProgramGlobal, "wallet1"),
    (G::Wallet1, "authUrl", Kind::Url, F::W1AuthUrl, off_path("https://auth.wallet1.example/oauth2/publicAppAuthorize.htm")),
    (G::Wallet1, "tokenUrl", Kind::Url, F::W1TokenUrl, off_path("https://openapi.wallet1.example/gateway.do")),
    (G::Wallet1, "tokenMethod", Kind::Token, F::W1TokenMethod, off_path("wallet1.system.oauth.token")),
    (G::Wallet2, "bridge", Kind::Ident, F::W2Bridge, "Wallet2JSBridge"),
    (G::Wallet2, "readyEvent", Kind::Token, F::W2ReadyEvent, "Wallet2JSBridgeReady"),
    (G::Wallet2, "payMethod", Kind::Ident, F::W2PayMethod, "getBrandPayRequest"),
    (G::Wallet2, "uaToken", Kind::Token, F::W2UaToken, "Wallet2Client"),
    (G::Wallet2, "miniProgramGlobal", Kind::Ident, F::W2MiniProgramGlobal, "wallet2"),
    // Read by the mini-program module's ready() before any module is
    // loaded, so its value is also written in www/lib/miniprogram.js
    // (WASM_GLOBAL); tests/node/miniprogram.test.mjs keeps the two equal.
    (G::Wallet2, "webAssemblyGlobal", Kind::Ident, F::W2WebAssemblyGlobal, off_path("Wallet2WebAssembly")),
    (G::Wallet2, "authorizeUrl", Kind::Url, F::W2AuthorizeUrl, off_path("https://open.wallet2.example/connect/oauth2/authorize")),
    (G::Wallet2, "redirectFragment", Kind::Fragment, F::W2RedirectFragment, off_path("#wallet2_redirect")),
    (G::Wallet2, "oauthTokenUrl", Kind::Url, F::W2OauthTokenUrl, off_path("https://api.wallet2.example/sns/oauth2/access_token")),
    (G::Wallet2, "sessionUrl", Kind::Url, F::W2SessionUrl, off_path("https://api.wallet2.example/sns/jscode2session")),
    (G::Wallet2, "originalIdPrefix", Kind::Token, F::W2OriginalIdPrefix, off_path("gh_")),
    (G::Cardnet, "authUrl", Kind::Url, F::CardnetAuthUrl, off_path("https://open.cardnet.example/oauth/authorize")),
];

/// wallet1's public trade-pay result codes: `4` is a refused permission
/// (failed, its message kept as the result's), `99` the customer leaving
/// the cashier (cancelled).
const RESULT_CODES: [(&str, Status); 8] = [
    ("9000", Status::Succeeded),
    ("8000", Status::Pending),
    ("6004", Status::Pending),
    ("6001", Status::Cancelled),
    ("6002", Status::Failed),
    ("4000", Status::Failed),
    ("4", Status::Failed),
    ("99", Status::Cancelled),
];

/// The user-agent tokens of a phone or tablet: none in the payment module,
/// where nothing reads them (a payment reads only its runtime's host,
/// `runtime::detect_host`). A page's `mobileTokens` is still checked
/// there, as everywhere.
const MOBILE_TOKENS: &[&str] = if crate::PAYMENT_MODULE { &[] } else { &["Mobile", "Android", "iPhone", "iPad", "iPod", "HarmonyOS"] };

/// A profile of empty strings, written as one constant: copied from the
/// module's data in one move, where building its 20 strings one by one
/// took a store for every word of each.
const EMPTY: Profile = {
    const E: String = String::new();
    Profile {
        wallet1: Wallet1Profile {
            scheme: E,
            bridge: E,
            ready_event: E,
            ua_token: E,
            mini_program_global: E,
            result_codes: Vec::new(),
            auth_url: E,
            token_url: E,
            token_method: E,
        },
        wallet2: Wallet2Profile {
            bridge: E,
            ready_event: E,
            pay_method: E,
            ua_token: E,
            mini_program_global: E,
            web_assembly_global: E,
            authorize_url: E,
            redirect_fragment: E,
            oauth_token_url: E,
            session_url: E,
            original_id_prefix: E,
        },
        cardnet: CardnetProfile { auth_url: E },
        mobile_tokens: Vec::new(),
        channel_aliases: Vec::new(),
    }
};

impl Default for Profile {
    fn default() -> Profile {
        let mut p = EMPTY;
        // Constant arrays are walked by reference here and on the other
        // wasm paths: a loop over an array by value copies it and brings an
        // iterator for its element type into the payment module.
        for &(_, _, _, f, default) in FIELDS.iter() {
            *p.slot(f) = own(default);
        }
        for &(c, st) in RESULT_CODES.iter() {
            p.wallet1.result_codes.push((own(c), st));
        }
        for &t in MOBILE_TOKENS.iter() {
            p.mobile_tokens.push(own(t));
        }
        p
    }
}

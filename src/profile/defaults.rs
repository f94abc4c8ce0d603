//! The default profile (the service document's neutral names) and the
//! table of every string a profile holds, which the defaults, the merge and
//! `defaultProfile()` share.

use super::check::Kind;
use super::Profile;
use crate::prelude::*;
use crate::status::Status;

/// A string of the profile: its place in the table `FIELDS`, and so in the
/// profile's strings.
#[derive(Clone, Copy)]
pub enum Field {
    /// wallet1's URL scheme (`<scheme>://platformapi/startapp?...`).
    W1Scheme,
    /// The global name of the JS bridge in wallet1's web view.
    W1Bridge,
    /// The event fired on `document` when wallet1's bridge becomes ready.
    W1ReadyEvent,
    /// The user-agent token of wallet1's web view.
    W1UaToken,
    /// wallet1's mini-program API global (`globalThis[name].tradePay`).
    W1MiniProgramGlobal,
    /// wallet1's page-authorization address (`wallet1AuthUrl`).
    W1AuthUrl,
    /// The gateway that exchanges a wallet1 authorization code (server side).
    W1TokenUrl,
    /// The gateway operation name of that exchange.
    W1TokenMethod,
    /// The global name of the JS bridge in wallet2's web view.
    W2Bridge,
    /// The event fired on `document` when wallet2's bridge becomes ready.
    W2ReadyEvent,
    /// wallet2's bridge call name: `bridge.invoke(payMethod, params, cb)`.
    W2PayMethod,
    /// The user-agent token of wallet2's web view.
    W2UaToken,
    /// wallet2's mini-program API global (`globalThis[name].requestPayment`).
    W2MiniProgramGlobal,
    /// The mini-program runtime's WebAssembly object, whose
    /// `instantiate(path, imports)` takes a path in the code package: what
    /// the mini-program module's `ready()` loads through by default.
    W2WebAssemblyGlobal,
    /// wallet2's web-authorization address (`wallet2AuthUrl`).
    W2AuthorizeUrl,
    /// The fragment the provider requires at the end of that address.
    W2RedirectFragment,
    /// Server side: wallet2's official-account code exchange.
    W2OauthTokenUrl,
    /// Server side: wallet2's mini-program login-code (session) exchange.
    W2SessionUrl,
    /// How a wallet2 mini-program's original id begins (`wallet2LaunchRequest`).
    W2OriginalIdPrefix,
    /// The card network's user-authorization address (`cardnetAuthUrl`).
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

/// Every string of the profile, in the order [`Field`] numbers them: its
/// group, its JavaScript name, what it must look like, and its default.
/// One table serves the defaults, the merge and `defaultProfile()`.
pub(super) const FIELDS: [(G, &str, Kind, &str); 20] = [
    (G::Wallet1, "scheme", Kind::Scheme, "wallet1"),
    (G::Wallet1, "bridge", Kind::Ident, "Wallet1JSBridge"),
    (G::Wallet1, "readyEvent", Kind::Token, "Wallet1JSBridgeReady"),
    (G::Wallet1, "uaToken", Kind::Token, "Wallet1Client"),
    (G::Wallet1, "miniProgramGlobal", Kind::Ident, "wallet1"),
    (G::Wallet1, "authUrl", Kind::Url, off_path("https://auth.wallet1.example/oauth2/publicAppAuthorize.htm")),
    (G::Wallet1, "tokenUrl", Kind::Url, off_path("https://openapi.wallet1.example/gateway.do")),
    (G::Wallet1, "tokenMethod", Kind::Token, off_path("wallet1.system.oauth.token")),
    (G::Wallet2, "bridge", Kind::Ident, "Wallet2JSBridge"),
    (G::Wallet2, "readyEvent", Kind::Token, "Wallet2JSBridgeReady"),
    (G::Wallet2, "payMethod", Kind::Ident, "getBrandPayRequest"),
    (G::Wallet2, "uaToken", Kind::Token, "Wallet2Client"),
    (G::Wallet2, "miniProgramGlobal", Kind::Ident, "wallet2"),
    // Read by the mini-program module's ready() before any module is
    // loaded, so its value is also written in www/lib/miniprogram.js
    // (WASM_GLOBAL); tests/node/miniprogram.test.mjs keeps the two equal.
    (G::Wallet2, "webAssemblyGlobal", Kind::Ident, off_path("Wallet2WebAssembly")),
    (G::Wallet2, "authorizeUrl", Kind::Url, off_path("https://open.wallet2.example/connect/oauth2/authorize")),
    (G::Wallet2, "redirectFragment", Kind::Fragment, off_path("#wallet2_redirect")),
    (G::Wallet2, "oauthTokenUrl", Kind::Url, off_path("https://api.wallet2.example/sns/oauth2/access_token")),
    (G::Wallet2, "sessionUrl", Kind::Url, off_path("https://api.wallet2.example/sns/jscode2session")),
    (G::Wallet2, "originalIdPrefix", Kind::Token, off_path("gh_")),
    (G::Cardnet, "authUrl", Kind::Url, off_path("https://open.cardnet.example/oauth/authorize")),
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

impl Default for Profile {
    /// Each string built in its place from its row of the table, each list
    /// collected from its table. Constant arrays are walked by reference
    /// here and on the other wasm paths: a walk of an array by value copies
    /// it and brings an iterator for its element type into the payment
    /// module.
    fn default() -> Profile {
        Profile {
            strings: core::array::from_fn(|i| own(FIELDS[i].3)),
            result_codes: RESULT_CODES.iter().map(|&(c, st)| (own(c), st)).collect(),
            mobile_tokens: MOBILE_TOKENS.iter().map(|&t| own(t)).collect(),
            channel_aliases: Vec::new(),
        }
    }
}

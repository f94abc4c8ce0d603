//! HTML of the simulated provider pages and of the sandbox's own pages
//! (`/sim`, `/sim/callback`), and the static files (`www/` at
//! `/`, `pkg/` at `/pkg/`) with the types and headers a dev server needs.

use axum::extract::{RawQuery, Request, State};
use axum::http::header::{HeaderValue, CACHE_CONTROL, CONTENT_TYPE};
use axum::middleware::Next;
use axum::response::{Html, Response};
use axum::Router;
use tower_http::services::ServeDir;

use super::AppState;

/// Escapes text for HTML content and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

const STYLE: &str = "\
body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem;color:#222;overflow-wrap:anywhere}
.box{border:1px solid #ccc;border-radius:8px;padding:1rem 1.25rem}
.sim{font-size:.8rem;color:#666;text-transform:uppercase;letter-spacing:.05em}
button{font-size:1rem;padding:.5rem 1.25rem;margin:.25rem .5rem .25rem 0;border-radius:6px;border:1px solid #888;cursor:pointer}
button.primary{background:#1a7f37;color:#fff;border-color:#1a7f37}
.error{color:#b00020}.ok{color:#1a7f37}
dt{color:#666}dd{margin:0 0 .5rem}
code{background:#f3f3f3;padding:0 .2rem}";

/// A complete simulated provider page around `body` (already escaped).
pub fn page(title: &str, body: &str) -> Html<String> {
    framed("paybridge sandbox: simulated provider page", title, body)
}

/// A page of the sandbox itself (what it simulates), not a provider's.
fn sandbox_page(title: &str, body: &str) -> Html<String> {
    framed("paybridge sandbox", title, body)
}

fn framed(label: &str, title: &str, body: &str) -> Html<String> {
    Html(format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><link rel=\"icon\" href=\"data:,\">\
<title>{t}</title><style>{STYLE}</style></head>\n<body><p class=\"sim\">{label} \
(<a href=\"/\">the demo pages</a>)</p>\n\
<h1>{t}</h1>\n{body}\n</body></html>\n",
        t = escape(title)
    ))
}

/// Hidden form inputs carrying `fields`.
pub fn hidden(fields: &[(&str, &str)]) -> String {
    fields.iter().map(|(k, v)| format!("<input type=\"hidden\" name=\"{}\" value=\"{}\">", escape(k), escape(v))).collect()
}

/// `GET /sim`: what the sandbox simulates, with links to try. Every link
/// and address stays on this sandbox (`base`).
pub async fn index(State(s): State<AppState>) -> Html<String> {
    sandbox_page("paybridge sandbox", &index_body(&s.base))
}

fn index_body(base: &str) -> String {
    let enc = |t: &str| -> String { url::form_urlencoded::byte_serialize(t.as_bytes()).collect() };
    let back = enc(&format!("{base}/sim/callback"));
    let base = escape(base);
    format!(
        "\
<p>Local stand-ins for the providers, for trying every flow with no account. Nothing leaves this machine.</p>
<h2>Merchant</h2>
<p><code>POST /merchant/payments</code> with <code>{{ channel, amount?, subject?, open_id?, buyer_id?, user_id?, user_auth_code?, return_url? }}</code>
creates a payment; <code>GET /merchant/payments/{{id}}</code> says whether it was paid (<code>created</code> or <code>paid</code>);
<code>/merchant/session</code> is the merchant's session (a cookie): the user an authorization gave, for every tab.</p>
<h2>Wallet bridges</h2>
<p><code>&lt;script src=\"/sim/bridge.js?wallet=wallet1&amp;mode=succeed\"&gt;</code> defines the bridge before the page pays.
Modes: <code>succeed</code>, <code>cancel</code>, <code>fail</code>, <code>late</code> (after <code>delay_ms</code>), <code>never</code>;
<code>code</code> sets the answer. The page's own address can override them:
<code>?bridge_mode=cancel&amp;bridge_delay_ms=3000&amp;bridge_code=8000</code>.</p>
<h2>Mini-program APIs</h2>
<p><code>&lt;script src=\"/sim/miniprogram.js?wallet=wallet2&amp;mode=succeed\"&gt;</code> lets a browser page stand in for a
mini-program page: wallet1's <code>tradePay</code> and <code>getAuthCode</code>, wallet2's <code>requestPayment</code> and <code>login</code>
(modes <code>succeed</code>, <code>cancel</code>, <code>fail</code>; page override <code>?mp_mode=</code>, <code>?mp_code=</code>).</p>
<h2>Authorization</h2>
<p>Each link comes back to <a href=\"/sim/callback\">/sim/callback</a>, which shows what the page sent back.</p>
<ul>
<li><a href=\"/sim/wallet1/authorize?app_id=sandbox-app&amp;scope=auth_base&amp;redirect_uri={back}&amp;state=demo\">wallet1</a>, code exchange <code>POST /sim/wallet1/token</code></li>
<li><a href=\"/sim/wallet2/authorize?appid=wallet2-sandbox-app&amp;redirect_uri={back}&amp;response_type=code&amp;scope=snsapi_base&amp;state=demo\">wallet2</a>, code exchanges <code>GET /sim/wallet2/oauth2/access_token</code> and <code>/sim/wallet2/jscode2session</code></li>
<li><a href=\"/sim/cardnet/authorize?version=1.0.0&amp;redirectUrl={back}\">card network</a> (its <code>userAuthCode</code> lasts 5 minutes)</li>
</ul>
<h2>Aggregated authentication</h2>
<p><code>POST /api/v1/trade/cardcheck</code>, <code>POST /api/v1/trade/namecheck</code> (form-encoded) and
<code>GET /api/v1/checkresult</code>, with the <code>env</code> header and the <code>app_token</code>
<code>sandbox-app-token-0000000000000000000000</code> (unless the sandbox runs with <code>SANDBOX_APP_TOKEN</code>
or <code>--app-token</code>).
An <code>id_number</code> starting with 1-7 is consistent (<code>00</code>), 8-9 inconsistent (<code>01</code>),
0 an exception (<code>99</code>); a card check without one goes by the last digit of <code>acct_no</code>.
A card check with <code>mer_bg_url</code> answers <code>10201</code> and notifies after the delay
(loopback <code>http://</code> addresses only); <code>mer_bg_url={base}/merchant/notify</code>
is this sandbox's own receiver. As JSON: <a href=\"/merchant/notifications\">what it received</a>,
<a href=\"/sim/deliveries\">what was sent</a>.</p>
<p>Signatures use the sandbox's own rule: lowercase hex HMAC-SHA256 keyed with the secret
(default <code>sandbox-secret</code>, or <code>SANDBOX_SECRET</code>) of the sorted non-empty <code>name=value</code> pairs; an answer's
<code>signature</code> is the same HMAC of its <code>data</code> text.
<code>cvv2</code>, which the service takes encrypted, follows the sandbox's own rule too: <code>sbx1:</code> then
the lowercase hex of its UTF-8 bytes XORed with the HMAC-SHA256 (keyed with the secret) of
<code>encrypt:cvv2</code>; a stand-in for the client's <code>encrypt</code> hook, not a cipher. A value
without the <code>sbx1:</code> prefix is taken as typed. <code>GET /api/v4/checkresult</code> answers as
<code>/api/v1/checkresult</code> (the document's v4 form).</p>"
    )
}

/// `GET /sim/callback`: where the links of `/sim` come back to; shows the
/// parameters an authorization page sent.
pub async fn callback(RawQuery(q): RawQuery) -> Html<String> {
    let pairs = url::form_urlencoded::parse(q.as_deref().unwrap_or("").as_bytes());
    let rows: String = pairs.map(|(k, v)| format!("<dt>{}</dt><dd><code>{}</code></dd>", escape(&k), escape(&v))).collect();
    let body = if rows.is_empty() {
        "<p>No parameters came back.</p>".to_string()
    } else {
        format!("<p>The authorization page sent the browser back here with:</p><dl>{rows}</dl>")
    };
    sandbox_page("Back from an authorization page", &format!("{body}<p><a href=\"/sim\">What is simulated</a></p>"))
}

/// `www/` at `/` and `pkg/` at `/pkg/`; `/demo/` (the demo pages' folder)
/// leads to the demo index at `/`.
pub fn static_files(router: Router<AppState>, state: &AppState) -> Router<AppState> {
    let to_index = || axum::routing::get(|| async { axum::response::Redirect::to("/") });
    router
        .route("/sim", axum::routing::get(index))
        .route("/sim/", axum::routing::get(index))
        .route("/sim/callback", axum::routing::get(callback))
        // No icon: an empty answer rather than a 404 for the browser's own request.
        .route("/favicon.ico", axum::routing::get(|| async { axum::http::StatusCode::NO_CONTENT }))
        .route("/demo", to_index())
        .route("/demo/", to_index())
        .nest_service("/pkg", ServeDir::new(&state.config.pkg))
        .fallback_service(ServeDir::new(&state.config.www))
}

/// Development headers on every answer: no caching, and the types browsers
/// insist on for modules and WebAssembly.
pub async fn dev_headers(req: Request, next: Next) -> Response {
    let path = req.uri().path().to_string();
    let mut res = next.run(req).await;
    let h = res.headers_mut();
    h.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    let ext = path.rsplit_once('.').map(|(_, e)| e).unwrap_or("");
    let forced = match ext {
        "wasm" => Some("application/wasm"),
        "js" | "mjs" => Some("text/javascript; charset=utf-8"),
        _ => None,
    };
    if let (Some(t), true) = (forced, res.status().is_success()) {
        res.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static(t));
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_index_names_this_sandbox_only() {
        let body = index_body("http://127.0.0.1:9123");
        assert!(body.contains("mer_bg_url=http://127.0.0.1:9123/merchant/notify"), "{body}");
        assert!(body.contains("redirect_uri=http%3A%2F%2F127.0.0.1%3A9123%2Fsim%2Fcallback"), "{body}");
        assert!(body.contains("SANDBOX_APP_TOKEN"));
        assert!(!body.contains("PORT") && !body.contains("shop.example"), "{body}");
    }

    #[test]
    fn escapes_markup_and_quotes() {
        assert_eq!(escape("<a href=\"x\">'&'</a>"), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
    }
}

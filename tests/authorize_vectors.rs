//! Golden vectors for the authorization helpers: exact addresses for every
//! builder, round trips through a simulated provider redirect, state checks,
//! the five-minute card-network boundary, hostile callbacks, and the
//! server-side exchanges. `url::Url` serves as an independent reader of what
//! the builders produce and as the simulated provider's URL writer.

use paybridge::authorize::{
    cardnet_auth_url, cardnet_order, is_user_auth_code_fresh, is_user_auth_code_fresh_json, new_state, parse_auth_callback,
    read_wallet1_token, read_wallet2_openid, wallet1_auth_url, wallet1_token_request, wallet2_auth_url, wallet2_oauth_token_request,
    wallet2_session_request, AuthCallback, Provider, USER_AUTH_CODE_TTL_MS,
};
use paybridge::json::parse;
use paybridge::{Code, Json};
use proptest::prelude::*;
use url::Url;

const STATE: &str = "st-ABC_123.xyz~";
const NOW: f64 = 1_700_000_000_000.0;

fn j(t: &str) -> Json {
    parse(t, Code::InvalidOptions, "test").unwrap()
}

fn err_of<T: std::fmt::Debug>(r: paybridge::error::Result<T>) -> (Code, String, String) {
    let e = r.unwrap_err().into_data();
    (e.code, e.field.unwrap_or_default(), e.message)
}

// ---------------------------------------------------------------- builders

#[test]
fn wallet1_golden() {
    let u = wallet1_auth_url(
        &j(r#"{"appId":"2021000123","redirectUri":"https://shop.example/auth/cb?next=/pay&a=b=c#frag","scopes":["auth_user","auth_base"],"state":"st-ABC_123.xyz~"}"#),
        None,
    )
    .unwrap();
    assert_eq!(
        u,
        "https://auth.wallet1.example/oauth2/publicAppAuthorize.htm?app_id=2021000123&scope=auth_user%2Cauth_base&redirect_uri=https%3A%2F%2Fshop.example%2Fauth%2Fcb%3Fnext%3D%2Fpay%26a%3Db%3Dc%23frag&state=st-ABC_123.xyz~"
    );
    // Spaces and non-ASCII reach a redirect address percent-encoded (raw ones
    // are refused below); they are encoded once more as a query value.
    let u = wallet1_auth_url(
        &j(r#"{"appId":"2021000123","redirectUri":"https://shop.example/cb?q=a+b%20c&name=%E4%B8%AD","scopes":"auth_base","state":"abcdefgh"}"#),
        None,
    )
    .unwrap();
    assert_eq!(
        u,
        "https://auth.wallet1.example/oauth2/publicAppAuthorize.htm?app_id=2021000123&scope=auth_base&redirect_uri=https%3A%2F%2Fshop.example%2Fcb%3Fq%3Da%2Bb%2520c%26name%3D%25E4%25B8%25AD&state=abcdefgh"
    );
}

#[test]
fn wallet2_golden() {
    let p = j(
        r#"{"appId":"wx0123456789abcdef","redirectUri":"https://shop.example/pay/cb?order=A&B#/x y","scope":"snsapi_base","state":"st-ABC_123.xyz~"}"#,
    );
    // A raw space in the redirect address is refused ...
    assert_eq!(err_of(wallet2_auth_url(&p, None)).0, Code::UnsafeUrl, "raw space");
    let p = j(
        r#"{"appId":"wx0123456789abcdef","redirectUri":"https://shop.example/pay/cb?order=A&B#/x%20y","scope":"snsapi_base","state":"st-ABC_123.xyz~"}"#,
    );
    assert_eq!(
        wallet2_auth_url(&p, None).unwrap(),
        "https://open.wallet2.example/connect/oauth2/authorize?appid=wx0123456789abcdef&redirect_uri=https%3A%2F%2Fshop.example%2Fpay%2Fcb%3Forder%3DA%26B%23%2Fx%2520y&response_type=code&scope=snsapi_base&state=st-ABC_123.xyz~&connect_redirect=1#wallet2_redirect"
    );
    // The profile moves the address (which has its own query) and the fragment.
    let o = j(r##"{"profile":{"wallet2":{"authorizeUrl":"https://auth.w2.example/oauth?lang=zh_CN","redirectFragment":"#w2_redirect"}}}"##);
    assert_eq!(
        wallet2_auth_url(&p, Some(&o)).unwrap(),
        "https://auth.w2.example/oauth?lang=zh_CN&appid=wx0123456789abcdef&redirect_uri=https%3A%2F%2Fshop.example%2Fpay%2Fcb%3Forder%3DA%26B%23%2Fx%2520y&response_type=code&scope=snsapi_base&state=st-ABC_123.xyz~&connect_redirect=1#w2_redirect"
    );
}

#[test]
fn cardnet_golden() {
    let u = cardnet_auth_url(&j(r#"{"redirectUrl":"https://shop.example/cardnet/cb?state=st-ABC_123.xyz~&n=%E4%B8%AD+1&x=#top"}"#), None)
        .unwrap();
    assert_eq!(
        u,
        "https://open.cardnet.example/oauth/authorize?version=1.0.0&redirectUrl=https%3A%2F%2Fshop.example%2Fcardnet%2Fcb%3Fstate%3Dst-ABC_123.xyz~%26n%3D%25E4%25B8%25AD%2B1%26x%3D%23top"
    );
    let o = j(r#"{"profile":{"cardnet":{"authUrl":"https://h5.cardnet.example/auth?"}}}"#);
    assert_eq!(
        cardnet_auth_url(&j(r#"{"redirectUrl":"https://s.example/"}"#), Some(&o)).unwrap(),
        "https://h5.cardnet.example/auth?version=1.0.0&redirectUrl=https%3A%2F%2Fs.example%2F"
    );
}

#[test]
fn loopback_only_with_the_option() {
    let p = j(r#"{"redirectUrl":"http://127.0.0.1:8080/cb"}"#);
    assert_eq!(err_of(cardnet_auth_url(&p, None)).0, Code::UnsafeUrl);
    let o = j(r#"{"insecureLoopback":true}"#);
    assert_eq!(
        cardnet_auth_url(&p, Some(&o)).unwrap(),
        "https://open.cardnet.example/oauth/authorize?version=1.0.0&redirectUrl=http%3A%2F%2F127.0.0.1%3A8080%2Fcb"
    );
    let p = j(r#"{"appId":"2021","redirectUri":"http://localhost:8080/cb","scopes":["auth_base"],"state":"abcdefgh"}"#);
    assert!(wallet1_auth_url(&p, Some(&o)).is_ok());
    let p = j(r#"{"appId":"2021","redirectUri":"http://evil.example/cb","scopes":["auth_base"],"state":"abcdefgh"}"#);
    assert_eq!(err_of(wallet1_auth_url(&p, Some(&o))).0, Code::UnsafeUrl);
}

#[test]
fn builders_name_the_bad_field() {
    let w1 = r#""appId":"2021","redirectUri":"https://s.example/cb","scopes":["auth_user"],"state":"abcdefgh""#;
    let w2 = r#""appId":"wx1","redirectUri":"https://s.example/cb","scope":"snsapi_base","state":"abcdefgh""#;
    type Build = fn(&Json, Option<&Json>) -> paybridge::error::Result<String>;
    let cases: &[(Build, String, Code, &str)] = &[
        (wallet1_auth_url, "{}".into(), Code::InvalidOptions, "appId"),
        (wallet1_auth_url, cat_obj(w1, r#""appId":"a&b""#), Code::InvalidOptions, "appId"),
        (wallet1_auth_url, cat_obj(w1, r#""appId":7"#), Code::InvalidOptions, "appId"),
        (wallet1_auth_url, cat_obj(w1, r#""scopes":["auth_user,auth_base"]"#), Code::InvalidOptions, "scopes"),
        (wallet1_auth_url, cat_obj(w1, r#""scopes":["snsapi_base"]"#), Code::InvalidOptions, "scopes"),
        (wallet1_auth_url, cat_obj(w1, r#""state":null"#), Code::InvalidOptions, "state"),
        (wallet1_auth_url, cat_obj(w1, r#""state":"short""#), Code::InvalidOptions, "state"),
        (wallet1_auth_url, cat_obj(w1, r#""state":"has space in it""#), Code::InvalidOptions, "state"),
        (wallet1_auth_url, cat_obj(w1, r#""state":"abcd&efgh""#), Code::InvalidOptions, "state"),
        (wallet1_auth_url, cat_obj(w1, r#""redirectUri":null"#), Code::UnsafeUrl, "redirectUri"),
        (wallet1_auth_url, cat_obj(w1, r#""redirectUri":5"#), Code::UnsafeUrl, "redirectUri"),
        (wallet1_auth_url, cat_obj(w1, r#""redirectUri":"javascript:alert(1)""#), Code::UnsafeUrl, "redirectUri"),
        (wallet1_auth_url, cat_obj(w1, r#""redirectUri":"https://user@s.example/""#), Code::UnsafeUrl, "redirectUri"),
        (wallet1_auth_url, cat_obj(w1, r#""redirectUri":"https://s.example/\u4e2d""#), Code::UnsafeUrl, "redirectUri"),
        (wallet1_auth_url, cat_obj(w1, r#""redirectUri":"//s.example/""#), Code::UnsafeUrl, "redirectUri"),
        (wallet2_auth_url, cat_obj(w2, r#""scope":"snsapi_base,snsapi_userinfo""#), Code::InvalidOptions, "scope"),
        (wallet2_auth_url, cat_obj(w2, r#""scope":"Snsapi""#), Code::InvalidOptions, "scope"),
        (wallet2_auth_url, cat_obj(w2, r#""scope":null"#), Code::InvalidOptions, "scope"),
        (wallet2_auth_url, cat_obj(w2, r#""state":"""#), Code::InvalidOptions, "state"),
        (wallet2_auth_url, cat_obj(w2, r#""redirectUri":"http://s.example/cb""#), Code::UnsafeUrl, "redirectUri"),
        (cardnet_auth_url, "{}".into(), Code::UnsafeUrl, "redirectUrl"),
        (cardnet_auth_url, r#"{"redirectUrl":"https://s.example/a\\b"}"#.into(), Code::UnsafeUrl, "redirectUrl"),
        (cardnet_auth_url, "[]".into(), Code::InvalidOptions, "params"),
    ];
    for (build, params, code, field) in cases {
        let (c, f, m) = err_of(build(&j(params), None));
        assert_eq!((c, f.as_str()), (*code, *field), "{params}");
        assert!(m.starts_with(field), "{m}");
    }
    // Options are checked too.
    let p = j(r#"{"redirectUrl":"https://s.example/"}"#);
    let (c, f, _) = err_of(cardnet_auth_url(&p, Some(&j(r#"{"profile":{"cardnet":{"authUrl":"http://x.example/"}}}"#))));
    assert_eq!((c, f.as_str()), (Code::InvalidOptions, "profile.cardnet.authUrl"));
    let (c, f, _) = err_of(cardnet_auth_url(&p, Some(&j(r#"{"insecureLoopback":1}"#))));
    assert_eq!((c, f.as_str()), (Code::InvalidOptions, "insecureLoopback"));
}

/// `base` (an object's members as text) with `over` put after it (a later
/// member wins, as in `JSON.parse`).
fn cat_obj(base: &str, over: &str) -> String {
    let mut s = String::from("{");
    s.push_str(base);
    s.push(',');
    s.push_str(over);
    s.push('}');
    s
}

// ------------------------------------------------ simulated provider redirect

/// What the provider does: read `redirect_key` from the authorization
/// address (with `url`'s own decoder) and send the user there with `extra`
/// added to its query.
fn provider_redirect(auth_url: &str, redirect_key: &str, extra: &[(&str, &str)]) -> String {
    let u = Url::parse(auth_url).unwrap();
    let target = u.query_pairs().find(|(k, _)| k == redirect_key).map(|(_, v)| v.into_owned()).unwrap();
    let mut back = Url::parse(&target).unwrap();
    {
        let mut q = back.query_pairs_mut();
        for (k, v) in extra {
            q.append_pair(k, v);
        }
    }
    back.to_string()
}

fn query_of(auth_url: &str) -> Vec<(String, String)> {
    Url::parse(auth_url).unwrap().query_pairs().map(|(k, v)| (k.into_owned(), v.into_owned())).collect()
}

#[test]
fn wallet1_round_trip() {
    let redirect = "https://shop.example/auth/cb?next=%2Fpay%3Fa%3D1&lang=zh#section";
    let p = Json::obj(vec![
        ("appId", Json::str("2021000123")),
        ("redirectUri", Json::str(redirect)),
        ("scopes", Json::Arr(vec![Json::str("auth_user")])),
        ("state", Json::str(STATE)),
    ]);
    let u = wallet1_auth_url(&p, None).unwrap();
    let q = query_of(&u);
    let keys: Vec<&str> = q.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(keys, ["app_id", "scope", "redirect_uri", "state"]);
    assert_eq!(q[2].1, redirect);
    assert_eq!(q[3].1, STATE);
    let back = provider_redirect(
        &u,
        "redirect_uri",
        &[
            ("app_id", "2021000123"),
            ("source", "wallet1_wallet"),
            ("scope", "auth_user"),
            ("auth_code", "4b203fe6c11548bcabd8da5bb087a83b"),
            ("state", STATE),
        ],
    );
    let cb = parse_auth_callback(&back, Some(STATE), NOW).unwrap();
    assert_eq!(cb.provider, Provider::Wallet1);
    assert_eq!(
        cb.to_json().to_text(),
        r#"{"provider":"wallet1","code":"4b203fe6c11548bcabd8da5bb087a83b","state":"st-ABC_123.xyz~","appId":"2021000123","scope":"auth_user","receivedAt":1700000000000}"#
    );
    assert!(!is_user_auth_code_fresh(&cb, NOW));
}

#[test]
fn wallet2_round_trip_and_refusal() {
    let p = j(
        r#"{"appId":"wx0123456789abcdef","redirectUri":"https://shop.example/pay/cb?order=A1","scope":"snsapi_base","state":"st-ABC_123.xyz~"}"#,
    );
    let u = wallet2_auth_url(&p, None).unwrap();
    let parsed = Url::parse(&u).unwrap();
    assert_eq!(parsed.fragment(), Some("wallet2_redirect"));
    let keys: Vec<String> = query_of(&u).into_iter().map(|(k, _)| k).collect();
    assert_eq!(keys, ["appid", "redirect_uri", "response_type", "scope", "state", "connect_redirect"]);
    let back = provider_redirect(&u, "redirect_uri", &[("code", "061Abc"), ("state", STATE)]);
    assert_eq!(back, "https://shop.example/pay/cb?order=A1&code=061Abc&state=st-ABC_123.xyz%7E");
    let cb = parse_auth_callback(&back, Some(STATE), NOW).unwrap();
    assert_eq!(cb.to_json().to_text(), r#"{"provider":"wallet2","code":"061Abc","state":"st-ABC_123.xyz~","receivedAt":1700000000000}"#);
    // The user refused: the provider sends the state alone.
    let back = provider_redirect(&u, "redirect_uri", &[("state", STATE)]);
    let (c, f, _) = err_of(parse_auth_callback(&back, Some(STATE), NOW));
    assert_eq!((c, f.as_str()), (Code::AuthFailed, "code"));
    // Without an expected state the callback's own is reported for the
    // caller to compare.
    let cb = parse_auth_callback("https://shop.example/pay/cb?code=c&state=other-state", None, NOW).unwrap();
    assert_eq!(cb.state.as_deref(), Some("other-state"));
    // The merchant's own app_id in its redirect address is no wallet1 sign.
    let cb = parse_auth_callback("https://shop.example/cb?app_id=m1&scope=x&code=c&state=st-ABC_123.xyz~", Some(STATE), NOW).unwrap();
    assert_eq!((cb.provider, cb.app_id, cb.scope), (Provider::Wallet2, None, None));
    // Hash-routed pages: the code arrives before the fragment, or in it.
    for back in [
        "https://shop.example/?code=061Abc&state=st-ABC_123.xyz~#/pay/cb",
        "https://shop.example/#/pay/cb?code=061Abc&state=st-ABC_123.xyz~",
        "/pay/cb?code=061Abc&state=st-ABC_123.xyz~",
    ] {
        let cb = parse_auth_callback(back, Some(STATE), NOW).unwrap();
        assert_eq!(cb.code.as_deref(), Some("061Abc"), "{back}");
    }
}

#[test]
fn cardnet_round_trip_and_five_minutes() {
    let p = Json::obj(vec![("redirectUrl", Json::Str(["https://shop.example/cardnet/cb?state=", STATE].concat()))]);
    let u = cardnet_auth_url(&p, None).unwrap();
    let keys: Vec<String> = query_of(&u).into_iter().map(|(k, _)| k).collect();
    assert_eq!(keys, ["version", "redirectUrl"]);
    let back = provider_redirect(&u, "redirectUrl", &[("respCode", "00"), ("userAuthCode", "uac+/=1")]);
    let cb = parse_auth_callback(&back, Some(STATE), NOW).unwrap();
    assert_eq!(
        cb.to_json().to_text(),
        r#"{"provider":"cardnet","state":"st-ABC_123.xyz~","respCode":"00","userAuthCode":"uac+/=1","receivedAt":1700000000000}"#
    );
    let ttl = USER_AUTH_CODE_TTL_MS;
    assert_eq!(ttl, 300_000.0);
    assert!(is_user_auth_code_fresh(&cb, NOW));
    assert!(is_user_auth_code_fresh(&cb, NOW + ttl - 1.0));
    assert!(!is_user_auth_code_fresh(&cb, NOW + ttl));
    assert!(!is_user_auth_code_fresh(&cb, NOW - 1.0));
    let order = cardnet_order(&cb, NOW + ttl - 1.0).unwrap();
    assert_eq!(order.to_json().to_text(), r#"{"userAuthCode":"uac+/=1","expiresAt":1700000300000}"#);
    let (c, f, m) = err_of(cardnet_order(&cb, NOW + ttl));
    assert_eq!((c, f.as_str()), (Code::AuthExpired, "userAuthCode"));
    assert!(m.contains("300 s ago"), "{m}");
    let (c, _, _) = err_of(cardnet_order(&cb, NOW + 3_600_000.0));
    assert_eq!(c, Code::AuthExpired);
    let (c, f, _) = err_of(cardnet_order(&cb, NOW - 5.0));
    assert_eq!((c, f.as_str()), (Code::AuthExpired, "userAuthCode"));
    // The object the page kept gives the same answers.
    let kept = cb.to_json();
    assert!(is_user_auth_code_fresh_json(&kept, NOW + ttl - 1.0));
    assert!(!is_user_auth_code_fresh_json(&kept, NOW + ttl));
    assert!(!is_user_auth_code_fresh_json(&Json::Null, NOW));
    assert!(!is_user_auth_code_fresh_json(&j(r#"{"provider":"cardnet","userAuthCode":"u"}"#), NOW));
}

#[test]
fn cardnet_order_refusals() {
    let w2 = parse_auth_callback("https://s.example/?code=c&state=abcdefgh", None, NOW).unwrap();
    let (c, f, _) = err_of(cardnet_order(&w2, NOW));
    assert_eq!((c, f.as_str()), (Code::AuthFailed, "provider"));
    assert!(!is_user_auth_code_fresh(&w2, NOW));
    let failed =
        AuthCallback::from_json(&j(r#"{"provider":"cardnet","respCode":"05","userAuthCode":"u","receivedAt":1700000000000}"#)).unwrap();
    let (c, f, m) = err_of(cardnet_order(&failed, NOW));
    assert_eq!((c, f.as_str()), (Code::AuthFailed, "respCode"));
    assert!(m.contains("05"), "{m}");
    assert!(!is_user_auth_code_fresh(&failed, NOW));
    let no_code = AuthCallback::from_json(&j(r#"{"provider":"cardnet","respCode":"00","receivedAt":1700000000000}"#)).unwrap();
    let (c, f, _) = err_of(cardnet_order(&no_code, NOW));
    assert_eq!((c, f.as_str()), (Code::AuthFailed, "userAuthCode"));
    assert!(!is_user_auth_code_fresh(&no_code, NOW));
}

#[test]
fn new_state_is_accepted_by_the_builders() {
    let s = new_state(&[7; 16]);
    assert_eq!(s.len(), 22);
    let p = Json::obj(vec![
        ("appId", Json::str("wx1")),
        ("redirectUri", Json::str("https://s.example/cb")),
        ("scope", Json::str("snsapi_base")),
        ("state", Json::Str(s.clone())),
    ]);
    let u = wallet2_auth_url(&p, None).unwrap();
    let back = provider_redirect(&u, "redirect_uri", &[("code", "c"), ("state", &s)]);
    assert_eq!(parse_auth_callback(&back, Some(&s), NOW).unwrap().state, Some(s));
}

// ------------------------------------------------------- hostile callbacks

#[test]
fn hostile_callbacks() {
    const S: &str = "abcdefgh";
    let huge = ["https://s.example/cb?state=abcdefgh&code=", &"a".repeat(9000)].concat();
    let long_resp = ["https://s.example/cb?respCode=", &"9".repeat(300), "&userAuthCode=u"].concat();
    let cases: Vec<(&str, Code, &str)> = vec![
        ("javascript:alert(1)//?code=x&state=abcdefgh", Code::AuthFailed, "url"),
        ("JAVASCRIPT:alert(document.cookie)", Code::AuthFailed, "url"),
        ("data:text/html,?code=x&state=abcdefgh", Code::AuthFailed, "url"),
        ("ftp://s.example/?code=x&state=abcdefgh", Code::AuthFailed, "url"),
        ("//evil.example/?code=x&state=abcdefgh", Code::AuthFailed, "url"),
        ("", Code::AuthFailed, "url"),
        ("https://s.example/cb", Code::AuthFailed, "url"),
        ("https://s.example/cb?", Code::AuthFailed, "url"),
        ("https://s.example/cb?#", Code::AuthFailed, "url"),
        ("https://s.example/cb?foo=bar&x", Code::AuthFailed, "url"),
        (&huge, Code::AuthFailed, "url"),
        ("https://s.example/cb?code=a\n&state=abcdefgh", Code::AuthFailed, "url"),
        ("https://s.example/cb?code=a\t&state=abcdefgh", Code::AuthFailed, "url"),
        ("https://s.example/cb?code=a\u{7f}&state=abcdefgh", Code::AuthFailed, "url"),
        ("https://s.example/cb?code=\u{4e2d}&state=abcdefgh", Code::AuthFailed, "url"),
        ("https://s.example/cb?code=a b&state=abcdefgh", Code::AuthFailed, "url"),
        ("https://s.example/cb?code=a&code=b&state=abcdefgh", Code::AuthFailed, "code"),
        ("https://s.example/cb?code=a&co%64e=b&state=abcdefgh", Code::AuthFailed, "code"),
        ("https://s.example/cb?code=a&state=abcdefgh#code=b", Code::AuthFailed, "code"),
        ("https://s.example/cb?code=a&state=abcdefgh&state=ABCDEFGH", Code::AuthFailed, "state"),
        ("https://s.example/cb?code=a&state=abcdefgh&state=", Code::AuthFailed, "state"),
        ("https://s.example/cb?code=a%00&state=abcdefgh", Code::AuthFailed, "code"),
        ("https://s.example/cb?code=a&state=abcdefgh%0A", Code::AuthFailed, "state"),
        ("https://s.example/cb?code=a&state=abcdefgh%C2%85", Code::AuthFailed, "state"),
        ("https://s.example/cb?code=%zz&state=abcdefgh", Code::AuthFailed, "code"),
        ("https://s.example/cb?code=a%2&state=abcdefgh", Code::AuthFailed, "code"),
        ("https://s.example/cb?code=%FF%FE&state=abcdefgh", Code::AuthFailed, "code"),
        ("https://s.example/cb?code=a&state=WRONGSTATE", Code::AuthFailed, "state"),
        ("https://s.example/cb?code=a&state=abcdefgH", Code::AuthFailed, "state"),
        ("https://s.example/cb?code=a&state=abcdefgh0", Code::AuthFailed, "state"),
        ("https://s.example/cb?code=a", Code::AuthFailed, "state"),
        ("https://s.example/cb?code=a&state=", Code::AuthFailed, "state"),
        ("https://s.example/#/cb?code=a&state=WRONGSTATE", Code::AuthFailed, "state"),
        ("https://s.example/cb?state=abcdefgh", Code::AuthFailed, "code"),
        ("https://s.example/cb?code=&state=abcdefgh", Code::AuthFailed, "code"),
        ("https://s.example/cb?app_id=2021&auth_code=&state=abcdefgh", Code::AuthFailed, "auth_code"),
        ("https://s.example/cb?app_id=2021&scope=auth_base&state=abcdefgh", Code::AuthFailed, "code"),
        ("https://s.example/cb?auth_code=a&code=b&state=abcdefgh", Code::AuthFailed, "url"),
        ("https://s.example/cb?code=a&respCode=00&userAuthCode=u&state=abcdefgh", Code::AuthFailed, "url"),
        ("https://s.example/cb?auth_code=a&userAuthCode=u&state=abcdefgh", Code::AuthFailed, "url"),
        ("https://s.example/cb?respCode=01&userAuthCode=u&state=abcdefgh", Code::AuthFailed, "respCode"),
        ("https://s.example/cb?respCode=00&state=abcdefgh", Code::AuthFailed, "userAuthCode"),
        ("https://s.example/cb?userAuthCode=u&state=abcdefgh", Code::AuthFailed, "respCode"),
    ];
    assert!(cases.len() >= 30);
    for (url, code, field) in &cases {
        let (c, f, m) = err_of(parse_auth_callback(url, Some(S), NOW));
        assert_eq!((c, f.as_str()), (*code, *field), "{url:?}: {m}");
        assert!(m.starts_with(field), "{m}");
    }
    // Without an expected state the same addresses still fail on their
    // content.
    for (url, field) in [
        ("https://s.example/cb", "url"),
        ("https://s.example/cb?foo=bar", "url"),
        ("https://s.example/cb?code=a&code=b", "code"),
        ("https://s.example/cb?state=abcdefgh", "code"),
        ("https://s.example/cb?respCode=05&userAuthCode=u", "respCode"),
    ] {
        let (c, f, _) = err_of(parse_auth_callback(url, None, NOW));
        assert_eq!((c, f.as_str()), (Code::AuthFailed, field), "{url}");
    }
    // A respCode failure quotes the code, clipped.
    let (c, f, m) = err_of(parse_auth_callback(&long_resp, None, NOW));
    assert_eq!((c, f.as_str()), (Code::AuthFailed, "respCode"));
    assert!(m.starts_with("respCode is 999") && m.len() < 200, "{m}");
    let (_, _, m) = err_of(parse_auth_callback("https://s.example/cb?respCode=E1&userAuthCode=u", None, NOW));
    assert_eq!(m, "respCode is E1, not 00: the card network did not authorize the user");
    // The caller's own mistakes are invalid_options.
    for (exp, now, field) in
        [(Some("short"), NOW, "expectedState"), (Some(""), NOW, "expectedState"), (Some(S), f64::NAN, "now"), (Some(S), -1.0, "now")]
    {
        let (c, f, _) = err_of(parse_auth_callback("https://s.example/cb?code=a&state=abcdefgh", exp, now));
        assert_eq!((c, f.as_str()), (Code::InvalidOptions, field));
    }
}

#[test]
fn benign_repetitions_and_encodings_are_accepted() {
    for url in [
        "https://s.example/cb?code=a+b&code=a+b&state=abcdefgh",
        "https://s.example/cb?code=a+b&state=abcdefgh#state=abcdefgh",
        "https://s.example/cb?code=a+b&code=a%20b&state=abcdefgh",
        "HTTPS://S.EXAMPLE/cb?code=a+b&state=%61bcdefgh",
        "http://127.0.0.1:8080/cb?code=a+b&state=abcdefgh&utm=%zz",
    ] {
        let cb = parse_auth_callback(url, Some("abcdefgh"), NOW).unwrap();
        assert_eq!(cb.code.as_deref(), Some("a b"), "{url}");
    }
    // In a fragment, and a hash route's query, `+` reads as in the query.
    for url in ["https://s.example/#code=a+b&state=abcdefgh", "https://s.example/#/cb?code=a+b&state=abcdefgh"] {
        let cb = parse_auth_callback(url, None, NOW).unwrap();
        assert_eq!(cb.code.as_deref(), Some("a b"), "{url}");
    }
    let cb = parse_auth_callback("https://s.example/#/cb?code=a%2Bb&state=abcdefgh", None, NOW).unwrap();
    assert_eq!(cb.code.as_deref(), Some("a+b"));
}

// ------------------------------------------------------------- exchanges

#[test]
fn exchange_requests() {
    let r = wallet1_token_request(&j(r#"{"appId":"2021000123","code":"4b203fe6c1"}"#), None).unwrap();
    assert_eq!(
        r.to_json().to_text(),
        r#"{"method":"POST","url":"https://openapi.wallet1.example/gateway.do","params":{"app_id":"2021000123","method":"wallet1.system.oauth.token","grant_type":"authorization_code","code":"4b203fe6c1"},"signParam":"sign"}"#
    );
    assert_eq!(
        r.signed("SIG/+=").encoded_params(),
        "app_id=2021000123&method=wallet1.system.oauth.token&grant_type=authorization_code&code=4b203fe6c1&sign=SIG%2F%2B%3D"
    );
    let o = j(r#"{"profile":{"wallet1":{"tokenUrl":"https://gw.w1.example/gateway.do?charset=utf-8","tokenMethod":"w1.oauth.token"}}}"#);
    let r = wallet1_token_request(&j(r#"{"appId":"2021","code":"c"}"#), Some(&o)).unwrap();
    assert_eq!(r.url, "https://gw.w1.example/gateway.do?charset=utf-8");
    assert_eq!(r.params[1], ("method", "w1.oauth.token".to_string()));

    let r = wallet2_oauth_token_request(&j(r#"{"appId":"wx0123","secret":"s3cr&t=","code":"061Abc"}"#), None).unwrap();
    assert_eq!(
        r.to_json().to_text(),
        r#"{"method":"GET","url":"https://api.wallet2.example/sns/oauth2/access_token","params":{"appid":"wx0123","secret":"s3cr&t=","code":"061Abc","grant_type":"authorization_code"},"href":"https://api.wallet2.example/sns/oauth2/access_token?appid=wx0123&secret=s3cr%26t%3D&code=061Abc&grant_type=authorization_code"}"#
    );
    let r = wallet2_session_request(&j(r#"{"appId":"wx0123","secret":"sec","jsCode":"0a1B"}"#), None).unwrap();
    assert_eq!(
        r.href(),
        "https://api.wallet2.example/sns/jscode2session?appid=wx0123&secret=sec&js_code=0a1B&grant_type=authorization_code"
    );
    assert_eq!(r.method, "GET");

    for (res, field) in [
        (wallet1_token_request(&j(r#"{"appId":"2021"}"#), None), "code"),
        (wallet1_token_request(&j(r#"{"code":"c"}"#), None), "appId"),
        (wallet1_token_request(&j(r#"{"appId":"2021","code":"a b"}"#), None), "code"),
        (wallet2_oauth_token_request(&j(r#"{"appId":"wx","code":"c"}"#), None), "secret"),
        (wallet2_oauth_token_request(&j(r#"{"appId":"wx","secret":"","code":"c"}"#), None), "secret"),
        (wallet2_session_request(&j(r#"{"appId":"wx","secret":"s","code":"c"}"#), None), "jsCode"),
        (wallet2_session_request(&j(r#"{"appId":"wx","secret":"s","jsCode":7}"#), None), "jsCode"),
        (wallet2_session_request(&j(r#""text""#), None), "params"),
        (
            wallet2_session_request(
                &j(r#"{"appId":"wx","secret":"s","jsCode":"c"}"#),
                Some(&j(r#"{"profile":{"wallet2":{"sessionUrl":"http://x.example/"}}}"#)),
            ),
            "profile.wallet2.sessionUrl",
        ),
    ] {
        let (c, f, _) = err_of(res);
        assert_eq!((c, f.as_str()), (Code::InvalidOptions, field));
    }
}

#[test]
fn exchange_answers() {
    let t = read_wallet1_token(&j(
        r#"{"wallet1_system_oauth_token_response":{"user_id":"2088102150477652","access_token":"20120823ac6ffaa4d2d84e7384bf983531473993","expires_in":3600,"refresh_token":"r"},"sign":"x"}"#,
    ))
    .unwrap();
    assert_eq!(t.to_json().to_text(), r#"{"userId":"2088102150477652","accessToken":"20120823ac6ffaa4d2d84e7384bf983531473993"}"#);
    let bare = read_wallet1_token(&j(r#"{"user_id":"1","access_token":"a"}"#)).unwrap();
    assert_eq!(bare.user_id, "1");

    let (c, f, m) = err_of(read_wallet1_token(&j(
        r#"{"error_response":{"code":"40002","msg":"Invalid Arguments","sub_code":"isv.code-invalid","sub_msg":"auth code is invalid"},"sign":"x"}"#,
    )));
    assert_eq!((c, f.as_str()), (Code::AuthFailed, "sub_code"));
    assert_eq!(m, "wallet1 refused the code exchange: code 40002, sub_code isv.code-invalid: auth code is invalid");
    let (c, f, _) = err_of(read_wallet1_token(&j(r#"{"x_response":{"code":"20001","msg":"no"}}"#)));
    assert_eq!((c, f.as_str()), (Code::AuthFailed, "code"));
    for (t, field) in [
        (r#""text""#, "answer"),
        (r#"{"foo":1}"#, "answer"),
        (r#"{"x_response":{"user_id":"1"}}"#, "access_token"),
        (r#"{"x_response":{"access_token":"a","user_id":""}}"#, "user_id"),
    ] {
        let (c, f, _) = err_of(read_wallet1_token(&j(t)));
        assert_eq!((c, f.as_str()), (Code::InvalidResponse, field), "{t}");
    }

    assert_eq!(
        read_wallet2_openid(&j(r#"{"access_token":"AT","expires_in":7200,"refresh_token":"RT","openid":"oABC123","scope":"snsapi_base"}"#))
            .unwrap(),
        "oABC123"
    );
    assert_eq!(read_wallet2_openid(&j(r#"{"openid":"o1","session_key":"k","errcode":0,"errmsg":"ok"}"#)).unwrap(), "o1");
    for (t, msg) in [
        (r#"{"errcode":40029,"errmsg":"invalid code"}"#, "wallet2 refused the code exchange: errcode 40029: invalid code"),
        (r#"{"errcode":-1,"errmsg":"system error"}"#, "wallet2 refused the code exchange: errcode -1: system error"),
        (r#"{"errcode":"40163","openid":"o1"}"#, "wallet2 refused the code exchange: errcode 40163"),
    ] {
        let (c, f, m) = err_of(read_wallet2_openid(&j(t)));
        assert_eq!((c, f.as_str(), m.as_str()), (Code::AuthFailed, "errcode", msg));
    }
    for (t, field) in [(r#"{}"#, "openid"), (r#"{"openid":5}"#, "openid"), ("[]", "answer")] {
        let (c, f, _) = err_of(read_wallet2_openid(&j(t)));
        assert_eq!((c, f.as_str()), (Code::InvalidResponse, field), "{t}");
    }
}

// ------------------------------------------------------------- properties

fn redirect_strategy() -> impl Strategy<Value = (String, String)> {
    (
        "[a-z]([a-z0-9-]{0,8}[a-z0-9])?(\\.[a-z]{2,6}){1,2}",
        "(/[A-Za-z0-9._~-]{0,8}){0,3}",
        any::<String>(),
        proptest::option::of("[A-Za-z0-9/._-]{0,12}"),
    )
        .prop_map(|(host, path, next, frag)| {
            let enc: String = percent_encoding::utf8_percent_encode(&next, percent_encoding::NON_ALPHANUMERIC).collect();
            let mut u = ["https://", &host, &path, "?next=", &enc].concat();
            if let Some(f) = frag {
                u.push('#');
                u.push_str(&f);
            }
            (u, next)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn state_and_redirect_round_trip(
        state in "[A-Za-z0-9._~-]{8,128}",
        (redirect, next) in redirect_strategy(),
        code in "[A-Za-z0-9_-]{1,64}",
    ) {
        // wallet2
        let p = Json::obj(vec![
            ("appId", Json::str("wx0123")),
            ("redirectUri", Json::Str(redirect.clone())),
            ("scope", Json::str("snsapi_base")),
            ("state", Json::Str(state.clone())),
        ]);
        let u = wallet2_auth_url(&p, None).unwrap();
        let q = query_of(&u);
        prop_assert_eq!(&q[1].1, &redirect);
        prop_assert_eq!(&q[4].1, &state);
        let back = provider_redirect(&u, "redirect_uri", &[("code", &code), ("state", &state)]);
        let cb = parse_auth_callback(&back, Some(&state), NOW).unwrap();
        prop_assert_eq!(cb.provider, Provider::Wallet2);
        prop_assert_eq!(cb.code.as_deref(), Some(code.as_str()));
        prop_assert_eq!(cb.state.as_deref(), Some(state.as_str()));
        let kept: String = Url::parse(&back).unwrap().query_pairs()
            .find(|(k, _)| k == "next").map(|(_, v)| v.into_owned()).unwrap();
        prop_assert_eq!(kept, next);

        // wallet1
        let p = Json::obj(vec![
            ("appId", Json::str("2021")),
            ("redirectUri", Json::Str(redirect.clone())),
            ("scopes", Json::str("auth_base")),
            ("state", Json::Str(state.clone())),
        ]);
        let u = wallet1_auth_url(&p, None).unwrap();
        let q = query_of(&u);
        prop_assert_eq!(&q[2].1, &redirect);
        prop_assert_eq!(&q[3].1, &state);
        let back = provider_redirect(&u, "redirect_uri", &[("auth_code", &code), ("state", &state)]);
        let cb = parse_auth_callback(&back, Some(&state), NOW).unwrap();
        prop_assert_eq!(cb.provider, Provider::Wallet1);
        prop_assert_eq!(cb.code.as_deref(), Some(code.as_str()));

        // card network: the state rides in redirectUrl's own query.
        let with_state = redirect.replacen("?next=", &["?state=", &state, "&next="].concat(), 1);
        let u = cardnet_auth_url(&Json::obj(vec![("redirectUrl", Json::Str(with_state.clone()))]), None).unwrap();
        prop_assert_eq!(&query_of(&u)[1].1, &with_state);
        let back = provider_redirect(&u, "redirectUrl", &[("respCode", "00"), ("userAuthCode", &code)]);
        let cb = parse_auth_callback(&back, Some(&state), NOW).unwrap();
        prop_assert_eq!(cb.user_auth_code.as_deref(), Some(code.as_str()));
        prop_assert!(is_user_auth_code_fresh(&cb, NOW + 299_999.0));
        prop_assert!(!is_user_auth_code_fresh(&cb, NOW + 300_000.0));
    }

    #[test]
    fn any_callback_text_is_an_answer_not_a_panic(
        s in any::<String>(),
        prefix in prop::sample::select(vec!["", "https://s.example/cb?", "/cb?code=a&", "https://s.example/#"]),
        state in proptest::option::of("[a-z]{8}"),
    ) {
        let url = [prefix, &s].concat();
        let _ = parse_auth_callback(&url, state.as_deref(), NOW);
    }

    #[test]
    fn any_new_state_is_valid(bytes in any::<[u8; 16]>()) {
        let s = new_state(&bytes);
        prop_assert_eq!(s.len(), 22);
        prop_assert!(paybridge::authorize::valid_state(&s));
    }
}

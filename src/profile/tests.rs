//! Unit tests of the profile: defaults, the deep merge and what it refuses.

use super::*;
use crate::error::Code;
use crate::json::parse;

fn patch(t: &str) -> Result<Profile> {
    Profile::from_patch(Some(&parse(t, Code::InvalidOptions, "profile").unwrap()))
}

#[test]
fn defaults_round_trip_through_merge() {
    let d = Profile::default();
    assert_eq!(patch(&d.to_json().to_text()).unwrap(), d);
}

#[test]
fn deep_merge_keeps_siblings() {
    let p = patch(
        r#"{"wallet1":{"bridge":"MyBridge","resultCodes":{"7000":"pending","6001":"failed"}},"channelAliases":{"wallet1_qr":"wallet1"}}"#,
    )
    .unwrap();
    assert_eq!(p.get(Field::W1Bridge), "MyBridge");
    assert_eq!(p.get(Field::W1Scheme), "wallet1");
    assert_eq!(p.wallet1_status("7000"), Status::Pending);
    assert_eq!(p.wallet1_status("6001"), Status::Failed);
    assert_eq!(p.wallet1_status("9000"), Status::Succeeded);
    assert_eq!(p.wallet1_status("1234"), Status::Failed);
    assert_eq!(p.resolve_channel("wallet1_qr"), Some(Channel::Wallet1));
    assert_eq!(p.resolve_channel("wallet2_pub"), Some(Channel::Wallet2Pub));
    assert_eq!(p.resolve_channel("nope"), None);
}

#[test]
fn refuses_bad_fields_by_name() {
    for (t, field) in [
        (r#"{"wallet1":{"scheme":"javascript"}}"#, "profile.wallet1.scheme"),
        (r#"{"wallet1":{"scheme":"Bad Scheme"}}"#, "profile.wallet1.scheme"),
        (r#"{"wallet1":{"bridge":"a.b"}}"#, "profile.wallet1.bridge"),
        (r#"{"wallet1":{"brige":"X"}}"#, "profile.wallet1.brige"),
        (r#"{"wallet2":{"authorizeUrl":"http://x.example/"}}"#, "profile.wallet2.authorizeUrl"),
        (r#"{"wallet2":{"redirectFragment":"x"}}"#, "profile.wallet2.redirectFragment"),
        (r#"{"wallet2":{"payMethod":5}}"#, "profile.wallet2.payMethod"),
        (r#"{"cardnet":{"authUrl":"javascript:alert(1)"}}"#, "profile.cardnet.authUrl"),
        (r#"{"channelAliases":{"x":"nope"}}"#, "profile.channelAliases.x"),
        (r#"{"channelAliases":{"wallet1":"cardnet"}}"#, "profile.channelAliases.wallet1"),
        (r#"{"wallet1":{"resultCodes":{"9000":"great"}}}"#, "profile.wallet1.resultCodes.9000"),
        (r#"{"mobileTokens":"Mobile"}"#, "profile.mobileTokens"),
        (r#"{"wallet1":[]}"#, "profile.wallet1"),
    ] {
        let e = patch(t).unwrap_err();
        assert_eq!(e.code, Code::InvalidOptions, "{t}");
        assert_eq!(e.field.as_deref(), Some(field), "{t}");
        assert!(e.message.starts_with(field), "{}", e.message);
    }
    assert_eq!(Profile::from_patch(Some(&Json::Num(3.0))).unwrap_err().field.as_deref(), Some("profile"));
}

#[test]
fn an_app_scheme_is_none_that_loads_or_runs_content() {
    for s in ["javascript", "data", "vbscript", "file", "blob", "about", "filesystem", "http", "https", "ws", "wss"] {
        let e = patch(&cat!(r#"{"wallet1":{"scheme":""#, s, r#""}}"#)).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("profile.wallet1.scheme"), "{s}");
        assert_eq!(e.message, "profile.wallet1.scheme must be an app scheme, not one that loads or runs content", "{s}");
    }
    for s in ["mywallet", "wallet9", "wss2", "httpx", "a+b.c-d"] {
        assert_eq!(patch(&cat!(r#"{"wallet1":{"scheme":""#, s, r#""}}"#)).unwrap().get(Field::W1Scheme), s);
    }
}

#[test]
fn each_field_reads_the_string_its_member_sets() {
    let p = patch(
        r##"{"wallet1":{"scheme":"wone","bridge":"W1B","readyEvent":"w1ready","uaToken":"W1UA","miniProgramGlobal":"w1mp","authUrl":"https://w1.example/auth","tokenUrl":"https://w1.example/token","tokenMethod":"w1.token"},
            "wallet2":{"bridge":"W2B","readyEvent":"w2ready","payMethod":"w2pay","uaToken":"W2UA","miniProgramGlobal":"w2mp","webAssemblyGlobal":"W2Wasm","authorizeUrl":"https://w2.example/auth","redirectFragment":"#w2","oauthTokenUrl":"https://w2.example/token","sessionUrl":"https://w2.example/session","originalIdPrefix":"w2_"},
            "cardnet":{"authUrl":"https://c.example/auth"}}"##,
    )
    .unwrap();
    for (f, v) in [
        (Field::W1Scheme, "wone"),
        (Field::W1Bridge, "W1B"),
        (Field::W1ReadyEvent, "w1ready"),
        (Field::W1UaToken, "W1UA"),
        (Field::W1MiniProgramGlobal, "w1mp"),
        (Field::W1AuthUrl, "https://w1.example/auth"),
        (Field::W1TokenUrl, "https://w1.example/token"),
        (Field::W1TokenMethod, "w1.token"),
        (Field::W2Bridge, "W2B"),
        (Field::W2ReadyEvent, "w2ready"),
        (Field::W2PayMethod, "w2pay"),
        (Field::W2UaToken, "W2UA"),
        (Field::W2MiniProgramGlobal, "w2mp"),
        (Field::W2WebAssemblyGlobal, "W2Wasm"),
        (Field::W2AuthorizeUrl, "https://w2.example/auth"),
        (Field::W2RedirectFragment, "#w2"),
        (Field::W2OauthTokenUrl, "https://w2.example/token"),
        (Field::W2SessionUrl, "https://w2.example/session"),
        (Field::W2OriginalIdPrefix, "w2_"),
        (Field::CardnetAuthUrl, "https://c.example/auth"),
    ] {
        assert_eq!(p.get(f), v);
    }
    assert_eq!(patch(&p.to_json().to_text()).unwrap(), p);
}

//! The payment model through serde (feature `serde`): the same rules as the
//! planner's own decoding, from any serde format.
#![cfg(feature = "serde")]

use paybridge::{Json, Payment};

#[test]
fn payments_decode_with_serde_json() {
    let p: Payment = serde_json::from_str(
        r#"{"pay_channel":"wallet2_pub","pay_info":"{\"appId\":\"a\"}","id":"ch_1","expend":{"pay_url":"https://x.example/p"}}"#,
    )
    .unwrap();
    assert_eq!(p.pay_channel, "wallet2_pub");
    assert_eq!(p.pay_info, Json::obj(vec![("appId", Json::str("a"))]));
    assert_eq!(p.pay_url.as_deref(), Some("https://x.example/p"));
    assert_eq!(p.raw.get("id"), Some(&Json::str("ch_1")));
    let e = serde_json::from_str::<Payment>(r#"{"pay_info":"x"}"#).unwrap_err();
    assert!(e.to_string().contains("pay_channel is missing"), "{e}");
    let back: Json = serde_json::from_str(&serde_json::to_string(&p.raw).unwrap()).unwrap();
    assert_eq!(back, p.raw);
}

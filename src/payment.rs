//! The payment object as the service returns it, and what each channel needs
//! from it.
//!
//! A payment arrives as an object or as JSON text. The module reads
//! `pay_channel`, `pay_info` (a URL, an object, or JSON text of an object)
//! and `expend.pay_url`; every other field is kept in `raw`.

use crate::error::{cat, words, Code, PayError, Result};
use crate::json::{self, Json};
use crate::prelude::*;
use crate::safe_url::clip;

/// The channels of the service document (`cardnet` is this module's name for
/// the card-network H5 channel, which the document leaves unnamed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Channel {
    Wallet1,
    Wallet1Wap,
    Wallet1Lite,
    Wallet1Pub,
    Wallet2Lite,
    Wallet2Pub,
    Cardnet,
}

impl Channel {
    pub const ALL: [Channel; 7] = [
        Channel::Wallet1,
        Channel::Wallet1Wap,
        Channel::Wallet1Lite,
        Channel::Wallet1Pub,
        Channel::Wallet2Lite,
        Channel::Wallet2Pub,
        Channel::Cardnet,
    ];

    /// Each channel's name, in the order of [`Channel::ALL`] (the
    /// variants'): read by place (`name`) and by a find (`from_name`).
    const NAMES: [&'static str; 7] = ["wallet1", "wallet1_wap", "wallet1_lite", "wallet1_pub", "wallet2_lite", "wallet2_pub", "cardnet"];

    pub fn name(self) -> &'static str {
        Channel::NAMES[self as usize]
    }

    pub fn from_name(s: &str) -> Option<Channel> {
        index_of(&Channel::NAMES, s).map(|i| Channel::ALL[i])
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Payment {
    pub pay_channel: String,
    /// `pay_info` as read: `Null` when missing; a string that is not JSON
    /// text of an object (a URL for the scan and web channels); an object,
    /// given as one or as JSON text of one; or any other value as given.
    pub pay_info: Json,
    /// `expend.pay_url`, when present as a string.
    pub pay_url: Option<String>,
    /// The whole object as given, unknown fields included.
    pub raw: Json,
}

/// The longest value the module accepts in a `pay_info` field.
const MAX_FIELD: usize = 4096;

fn invalid(field: &str, msg: String) -> PayError {
    crate::error::refuse(Code::InvalidPayment, field, msg)
}

impl Payment {
    /// Decodes JSON text of a payment.
    pub fn from_text(text: &str) -> Result<Payment> {
        Payment::from_json(crate::json_text::parse(text, Code::InvalidPayment, "payment")?)
    }

    /// Decodes a payment value. A string is read as JSON text of one.
    pub fn from_json(v: Json) -> Result<Payment> {
        Payment::decode::<true>(v)
    }

    /// As [`Payment::from_json`], with `raw` left `Null`: `pay_info` is
    /// moved out of the value instead of copied (the wasm edge, which never
    /// reads `raw`; no copy of a tree in its module). For a value whose depth
    /// is already bounded: the wasm edge's reader refuses a value nested
    /// deeper than [`json::MAX_DEPTH`] as it reads it (`web/convert.rs`), so
    /// it is not walked again here.
    pub fn from_json_lean(v: Json) -> Result<Payment> {
        Payment::decode::<false>(v)
    }

    fn decode<const KEEP: bool>(mut v: Json) -> Result<Payment> {
        // A string is JSON text of a payment, or of a string that is in
        // turn: read until the value is not a string.
        while let Json::Str(t) = &v {
            v = crate::json_text::parse(t, Code::InvalidPayment, "payment")?;
        }
        if v.as_obj().is_none() {
            return Err(invalid("payment", words!("the payment must be an object or JSON text of one, not ", v.kind())));
        }
        // The lean form's value comes from a reader that bounded its depth
        // (`from_json_lean`).
        if KEEP && v.deeper_than(json::MAX_DEPTH) {
            return Err(invalid("payment", words!("the payment is nested deeper than 64 levels")));
        }
        // One refusal for the field, its reason picked where it is written.
        let pay_channel = match v.get("pay_channel") {
            Some(Json::Str(s)) if !s.is_empty() && s.len() <= 64 => own(s),
            given => {
                let why = match given {
                    None | Some(Json::Null) => words!("pay_channel is missing"),
                    Some(Json::Str(s)) if s.is_empty() => words!("pay_channel is empty"),
                    Some(Json::Str(_)) => words!("pay_channel is longer than 64 characters"),
                    Some(other) => words!("pay_channel must be a string, not ", other.kind()),
                };
                return Err(invalid("pay_channel", why));
            }
        };
        let pay_info = match v.get_mut("pay_info") {
            None => Json::Null,
            // JSON text of an object: `{` after JSON's own whitespace (RFC
            // 8259: space, tab, LF, CR; a string that starts otherwise is
            // not JSON text, so it is kept as plain text).
            Some(Json::Str(s)) if s.bytes().find(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r')) == Some(b'{') => {
                crate::json_text::parse(s, Code::InvalidPayment, "pay_info")?
            }
            // Any other value as it is: copied when `raw` keeps the whole
            // payment, else moved out of it.
            Some(x) => {
                if KEEP {
                    x.clone()
                } else {
                    core::mem::replace(x, Json::Null)
                }
            }
        };
        let pay_url = match v.given("expend") {
            None => None,
            Some(e @ Json::Obj(_)) => match e.given("pay_url") {
                None => None,
                Some(Json::Str(s)) => Some(own(s)),
                Some(other) => return Err(invalid("expend.pay_url", words!("expend.pay_url must be a string, not ", other.kind()))),
            },
            Some(other) => return Err(invalid("expend", words!("expend must be an object, not ", other.kind()))),
        };
        Ok(Payment { pay_channel, pay_info, pay_url, raw: if KEEP { v } else { Json::Null } })
    }

    /// `pay_info` as a URL string, for the channels that need one.
    pub fn pay_info_url(&self, channel: Channel) -> Result<&str> {
        let why = match &self.pay_info {
            Json::Str(s) => return Ok(s),
            Json::Null => words!("pay_info is missing (", channel.name(), " needs pay_info as an https URL)"),
            Json::Obj(_) => words!("pay_info is an object, but ", channel.name(), " needs pay_info as an https URL"),
            v => words!("pay_info must be an https URL for ", channel.name(), ", not ", v.kind()),
        };
        Err(invalid("pay_info", why))
    }

    /// `expend.pay_url`, for the card network.
    pub fn expend_pay_url(&self, channel: Channel) -> Result<&str> {
        self.pay_url.as_deref().ok_or_else(|| {
            invalid("expend.pay_url", words!("expend.pay_url is missing (", channel.name(), " needs the payment link in expend.pay_url)"))
        })
    }

    fn fields(&self, channel: Channel, needs: &str) -> Result<&Json> {
        let why = match &self.pay_info {
            f @ Json::Obj(_) => return Ok(f),
            Json::Null => words!("pay_info is missing (", channel.name(), " needs ", needs, ")"),
            Json::Str(_) => {
                words!("pay_info is a string that is not JSON text of an object (", channel.name(), " needs ", needs, ")")
            }
            v => words!("pay_info must be an object for ", channel.name(), ", not ", v.kind()),
        };
        Err(invalid("pay_info", why))
    }

    /// `pay_info.tradeNO` (or `tradeNo`) for wallet1_lite and wallet1_pub.
    pub fn trade_no(&self, channel: Channel) -> Result<String> {
        let f = self.fields(channel, "pay_info.tradeNO")?;
        // `tradeNo` looked for only where `tradeNO` is not given.
        let found = match f.given("tradeNO") {
            Some(v) => Some(("pay_info.tradeNO", v)),
            None => f.given("tradeNo").map(|v| ("pay_info.tradeNo", v)),
        };
        let (name, v) = match found {
            Some(found) => found,
            None => {
                return Err(invalid(
                    "pay_info.tradeNO",
                    words!("pay_info.tradeNO is missing (", channel.name(), " needs the trade number in pay_info.tradeNO)"),
                ))
            }
        };
        field_text(v, name, channel, "the trade number")
    }

    /// The signed parameters of a wallet2 payment, in the order of the
    /// service document; `appId` first for the official-account form.
    pub fn wallet2_params(&self, channel: Channel, with_app_id: bool) -> Result<Vec<(&'static str, String)>> {
        // The official-account form's list; the mini-program's starts after `appId`.
        const ALL: [&str; 6] = ["appId", "timeStamp", "nonceStr", "package", "signType", "paySign"];
        const NEEDS: &str = "appId, timeStamp, nonceStr, package, signType, paySign";
        let (all, needs) = if with_app_id { (&ALL[..], NEEDS) } else { (&ALL[1..], &NEEDS["appId, ".len()..]) };
        let f = self.fields(channel, needs)?;
        let mut out = Vec::new();
        for &key in all {
            let path = cat!("pay_info.", key);
            let v = match f.given(key) {
                Some(v) => v,
                _ => return Err(invalid(&path, words!(&path, " is missing (", channel.name(), " needs ", needs, ")"))),
            };
            out.push((key, field_text(v, &path, channel, key)?));
        }
        Ok(out)
    }
}

/// A `pay_info` member as text: a non-empty string of printable characters,
/// or a whole number (a `timeStamp` sent as a number is written in decimal).
fn field_text(v: &Json, path: &str, channel: Channel, what: &str) -> Result<String> {
    let why = match v {
        // Decimal digits: never empty, long or a control character.
        Json::Num(n) if json::whole(*n).is_some() => return Ok(crate::error::u64_str(*n as u64)),
        Json::Str(s) if s.is_empty() => words!(path, " is empty (", channel.name(), " needs ", what, ")"),
        Json::Str(s) if s.len() > MAX_FIELD => words!(path, " is longer than 4096 characters"),
        Json::Str(s) if crate::error::has_control(s) => words!(path, " contains a control character: ", clip(s)),
        Json::Str(s) => return Ok(own(s)),
        _ => words!(path, " must be a string, not ", v.kind()),
    };
    Err(invalid(path, why))
}

/// With the `serde` feature a payment decodes from any serde format, by the
/// same rules as [`Payment::from_json`] (unknown fields kept in `raw`).
#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Payment {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> core::result::Result<Payment, D::Error> {
        let v = Json::deserialize(d)?;
        Payment::from_json(v).map_err(|e| <D::Error as serde::de::Error>::custom(&e.message))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn channel_names() {
        for (i, &c) in Channel::ALL.iter().enumerate() {
            assert_eq!(c as usize, i);
            assert_eq!(Channel::from_name(c.name()), Some(c));
        }
        assert_eq!((Channel::Wallet1Wap.name(), Channel::Cardnet.name()), ("wallet1_wap", "cardnet"));
        assert_eq!(Channel::from_name("Wallet1"), None);
        assert_eq!(Channel::from_name(""), None);
    }

    #[test]
    fn decodes_every_pay_info_form() {
        let p = Payment::from_text(r#"{"pay_channel":"wallet1","pay_info":"https://pay.example/x","id":"ch_1","extra":{"a":1}}"#).unwrap();
        assert_eq!(p.pay_info, Json::str("https://pay.example/x"));
        assert_eq!(p.raw.get("id"), Some(&Json::str("ch_1")));
        let p = Payment::from_text(r#"{"pay_channel":"wallet1_pub","pay_info":"{\"tradeNo\":\"T1\"}"}"#).unwrap();
        assert_eq!(p.trade_no(Channel::Wallet1Pub).unwrap(), "T1");
        let p = Payment::from_text(r#"{"pay_channel":"wallet2_lite","pay_info":{"timeStamp":1700000000,"nonceStr":"n","package":"prepay_id=1","signType":"RSA","paySign":"s"}}"#).unwrap();
        let params = p.wallet2_params(Channel::Wallet2Lite, false).unwrap();
        assert_eq!(params[0], ("timeStamp", "1700000000".to_string()));
        let p = Payment::from_text(r#"{"pay_channel":"cardnet","expend":{"pay_url":"https://c.example/p"}}"#).unwrap();
        assert_eq!(p.expend_pay_url(Channel::Cardnet).unwrap(), "https://c.example/p");
    }

    #[test]
    fn the_lean_decoding_reads_the_same_and_keeps_no_raw() {
        for text in [
            r#"{"pay_channel":"wallet2_pub","pay_info":{"appId":"a","timeStamp":"1","nonceStr":"n","package":"p","signType":"RSA","paySign":"s"},"pay_info":{"appId":"b"}}"#,
            r#"{"pay_channel":"wallet1_pub","pay_info":"{\"tradeNO\":\"T\"}","expend":{"pay_url":"https://x.example/p"}}"#,
            r#""{\"pay_channel\":\"wallet1\",\"pay_info\":7}""#,
            r#"{"pay_channel":"cardnet","pay_info":"https://x.example/p"}"#,
        ] {
            let kept = Payment::from_text(text).unwrap();
            let lean = Payment::from_json_lean(crate::json_text::parse(text, Code::InvalidPayment, "payment").unwrap()).unwrap();
            assert_eq!((&lean.pay_channel, &lean.pay_info, &lean.pay_url), (&kept.pay_channel, &kept.pay_info, &kept.pay_url), "{text}");
            assert_eq!(lean.raw, Json::Null);
            assert_ne!(kept.raw, Json::Null);
        }
    }

    #[test]
    fn pay_info_text_is_json_after_json_whitespace_only() {
        // Space, tab, LF and CR before the `{`: JSON text of an object.
        let p = Payment::from_json(Json::obj(vec![
            ("pay_channel", Json::str("wallet1_pub")),
            ("pay_info", Json::str(" \t\r\n{\"tradeNO\":\"T1\"}")),
        ]))
        .unwrap();
        assert_eq!(p.trade_no(Channel::Wallet1Pub).unwrap(), "T1");
        // Any other space (here U+00A0 and U+3000) is not JSON whitespace:
        // the string is plain text, which this channel refuses by name.
        for lead in ["\u{a0}", "\u{3000}"] {
            let text = cat!(lead, "{\"tradeNO\":\"T1\"}");
            let p = Payment::from_json(Json::obj(vec![("pay_channel", Json::str("wallet1_pub")), ("pay_info", Json::Str(text.clone()))]))
                .unwrap();
            assert_eq!(p.pay_info, Json::Str(text));
            let e = p.trade_no(Channel::Wallet1Pub).unwrap_err();
            assert_eq!((e.code, e.field.as_deref()), (Code::InvalidPayment, Some("pay_info")));
            assert!(e.message.contains("not JSON text of an object"), "{}", e.message);
        }
    }

    #[test]
    fn one_depth_rule_for_text_and_for_values() {
        // `x` holds arrays nested so that the innermost one sits at `depth`
        // (the payment itself is at depth 0): the text parser and a value
        // built in Rust give the same verdict on either side of the limit.
        for (depth, ok) in [(json::MAX_DEPTH, true), (json::MAX_DEPTH + 1, false)] {
            let nest = cat!("[".repeat(depth).as_str(), "]".repeat(depth).as_str());
            let text = cat!(r#"{"pay_channel":"wallet1","pay_info":"https://pay.example/x","x":"#, &nest, "}");
            let mut x = Json::Arr(Vec::new());
            for _ in 1..depth {
                x = Json::Arr(vec![x]);
            }
            let value = Json::obj(vec![("pay_channel", Json::str("wallet1")), ("pay_info", Json::str("https://pay.example/x")), ("x", x)]);
            for (how, r) in [("text", Payment::from_text(&text)), ("value", Payment::from_json(value.clone()))] {
                match r {
                    Ok(_) => assert!(ok, "{how} at depth {depth} passed"),
                    Err(e) => {
                        assert!(!ok, "{how} at depth {depth}: {}", e.message);
                        assert_eq!((e.code, e.field.as_deref()), (Code::InvalidPayment, Some("payment")), "{how}");
                    }
                }
            }
        }
    }

    #[test]
    fn names_the_field_at_fault() {
        let cases: &[(&str, &str)] = &[
            ("null", "payment"),
            ("[]", "payment"),
            ("5", "payment"),
            ("{}", "pay_channel"),
            (r#"{"pay_channel":7}"#, "pay_channel"),
            (r#"{"pay_channel":""}"#, "pay_channel"),
            (r#"{"pay_channel":"wallet1","expend":"x"}"#, "expend"),
            (r#"{"pay_channel":"cardnet","expend":{"pay_url":1}}"#, "expend.pay_url"),
            (r#"{"pay_channel":"wallet1","pay_info":"{bad"}"#, "pay_info"),
            ("{bad", "payment"),
        ];
        for (t, field) in cases {
            let e = Payment::from_text(t).unwrap_err();
            assert_eq!((e.code, e.field.as_deref()), (Code::InvalidPayment, Some(*field)), "{t}");
        }
        let p = Payment::from_text(
            r#"{"pay_channel":"wallet2_pub","pay_info":{"appId":"a","timeStamp":"1","nonceStr":"n","package":"p","signType":"RSA"}}"#,
        )
        .unwrap();
        let e = p.wallet2_params(Channel::Wallet2Pub, true).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("pay_info.paySign"));
        assert_eq!(e.message, "pay_info.paySign is missing (wallet2_pub needs appId, timeStamp, nonceStr, package, signType, paySign)");
        let p = Payment::from_text(r#"{"pay_channel":"wallet1_pub","pay_info":{"tradeNO":""}}"#).unwrap();
        assert_eq!(p.trade_no(Channel::Wallet1Pub).unwrap_err().field.as_deref(), Some("pay_info.tradeNO"));
        let p = Payment::from_text(r#"{"pay_channel":"wallet1","pay_info":{"x":1}}"#).unwrap();
        assert_eq!(p.pay_info_url(Channel::Wallet1).unwrap_err().field.as_deref(), Some("pay_info"));
    }
}

//! The outcome of a verification: what `cardCheck`, `nameCheck`,
//! `checkResult`, `awaitResult` and `parseNotification` resolve with
//! (`VerifyOutcome` of `API.md`).

use super::codes::{state_of, State};
use super::envelope::text_field;
use super::score::score_of;
use crate::json::Json;
use crate::prelude::*;

#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    pub state: State,
    pub return_code: String,
    pub return_message: Option<String>,
    pub resp_code: Option<String>,
    pub resp_info: Option<String>,
    pub seq_id: Option<String>,
    /// The order the verification belongs to; always set (generated when
    /// the caller gave none).
    pub order_id: String,
    /// Its date, `YYYYMMDD`; empty only for a notification that does not
    /// carry one.
    pub order_date: String,
    /// `mp_ssim`, when present and a number within 0-100.
    pub score: Option<f64>,
    /// Every field of a result-query answer or a notification (the whole
    /// `data` object); `None` for the answers of `cardcheck` and `namecheck`.
    pub record: Option<Json>,
}

impl Outcome {
    /// The outcome given by an answer's `data` object. `order_id` and
    /// `order_date` are the ones the caller should keep for this
    /// verification; `keep_record` puts the whole of `data` in `record`.
    pub fn from_data(data: &Json, return_code: &str, order_id: &str, order_date: &str, keep_record: bool) -> Outcome {
        let resp_code = text_field(data, "resp_code");
        Outcome {
            state: state_of(return_code, resp_code.as_deref()),
            return_code: return_code.into(),
            return_message: text_field(data, "return_message"),
            resp_code,
            resp_info: text_field(data, "resp_info"),
            seq_id: text_field(data, "seq_id"),
            order_id: order_id.into(),
            order_date: order_date.into(),
            score: data.get("mp_ssim").and_then(score_of),
            record: keep_record.then(|| data.clone()),
        }
    }

    /// The outcome as JavaScript sees it: `VerifyOutcome`, camelCase keys,
    /// optional members left out when absent.
    pub fn to_json(&self) -> Json {
        let mut m: Vec<(String, Json)> = Vec::with_capacity(10);
        let mut put = |k: &str, v: Json| m.push((k.into(), v));
        put("state", Json::str(self.state.as_str()));
        put("returnCode", Json::str(&self.return_code));
        let opt = |v: &Option<String>| v.as_deref().map(Json::str);
        for (k, v) in [
            ("returnMessage", opt(&self.return_message)),
            ("respCode", opt(&self.resp_code)),
            ("respInfo", opt(&self.resp_info)),
            ("seqId", opt(&self.seq_id)),
        ] {
            if let Some(v) = v {
                put(k, v);
            }
        }
        put("orderId", Json::str(&self.order_id));
        // A notification without order_date has none: absent, never "".
        if !self.order_date.is_empty() {
            put("orderDate", Json::str(&self.order_date));
        }
        if let Some(s) = self.score {
            put("score", Json::Num(s));
        }
        if let Some(r) = &self.record {
            put("record", r.clone());
        }
        Json::Obj(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Code;
    use crate::json::parse;

    #[test]
    fn from_a_result_query() {
        let data = parse(
            r#"{"return_code":"20000","return_message":"ok","resp_code":"00","resp_info":"match","seq_id":"S1","order_id":"o1","mp_ssim":"87.5","file_list":[{"file_id":"f","file_type":"00","file_source":"JVS"}],"encrypt_method":"x"}"#,
            Code::InvalidResponse,
            "data",
        )
        .unwrap();
        let o = Outcome::from_data(&data, "20000", "o1", "20240101", true);
        assert_eq!(o.state, State::Consistent);
        assert_eq!(o.score, Some(87.5));
        assert_eq!(o.seq_id.as_deref(), Some("S1"));
        assert_eq!(o.record.as_ref(), Some(&data));
        let j = o.to_json();
        let keys: Vec<&str> = j.as_obj().unwrap().iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(
            keys,
            ["state", "returnCode", "returnMessage", "respCode", "respInfo", "seqId", "orderId", "orderDate", "score", "record"]
        );
        assert_eq!(j.get("state"), Some(&Json::str("consistent")));
        assert_eq!(j.get("score"), Some(&Json::Num(87.5)));
        assert_eq!(j.get("record").and_then(|r| r.get("encrypt_method")), Some(&Json::str("x")));
    }

    #[test]
    fn optional_members_are_left_out() {
        let data = Json::obj(vec![("return_code", Json::str("10210")), ("seq_id", Json::str(""))]);
        let o = Outcome::from_data(&data, "10210", "o2", "20240102", false);
        assert_eq!(o.state, State::CallFailed);
        assert_eq!(o.seq_id, None);
        assert_eq!(o.to_json().to_text(), r#"{"state":"call_failed","returnCode":"10210","orderId":"o2","orderDate":"20240102"}"#);
    }
}

//! The outcome of a verification: what `cardCheck`, `nameCheck`,
//! `checkResult`, `awaitResult` and `parseNotification` resolve with
//! (`VerifyOutcome` of `www/lib/index.d.ts`).

use super::codes::{foreign, state_of, Interface, State};
use super::envelope::text_field;
use super::items::list_problems;
use super::score::{score_of, score_problem};
use crate::error::Problem;
use crate::json::Json;
use crate::prelude::*;

#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    pub state: State,
    pub return_code: String,
    pub return_message: Option<String>,
    /// `service_date`: the date at the authentication system.
    pub service_date: Option<String>,
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
    /// The client's own word on the state, where the code alone would
    /// mislead: a code of another interface than the one called.
    pub message: Option<String>,
    /// The faults of `mp_ssim` ([`super::score::score_problem`]) and of the
    /// record's list items ([`super::items`]): the answer is kept, its
    /// faults named here rather than thrown.
    pub problems: Vec<Problem>,
}

impl Outcome {
    /// The outcome given by an answer's `data` object from the interface
    /// `called`. `order_id` and `order_date` are the ones the caller should
    /// keep for this verification; `keep_record` puts the whole of `data`
    /// in `record`.
    pub fn from_data(data: &Json, called: Interface, return_code: &str, order_id: &str, order_date: &str, keep_record: bool) -> Outcome {
        let resp_code = text_field(data, "resp_code");
        Outcome {
            state: state_of(called, return_code, resp_code.as_deref()),
            return_code: return_code.into(),
            return_message: text_field(data, "return_message"),
            service_date: text_field(data, "service_date"),
            resp_code,
            resp_info: text_field(data, "resp_info"),
            seq_id: text_field(data, "seq_id"),
            order_id: order_id.into(),
            order_date: order_date.into(),
            score: data.get("mp_ssim").and_then(score_of),
            record: keep_record.then(|| data.clone()),
            message: foreign(called, return_code),
            problems: data.get("mp_ssim").and_then(score_problem).into_iter().chain(list_problems(data)).collect(),
        }
    }

    /// The outcome as JavaScript sees it: `VerifyOutcome`, camelCase keys,
    /// optional members left out when absent.
    pub fn to_json(&self) -> Json {
        let mut m: Vec<(String, Json)> = Vec::new();
        let mut put = |k: &str, v: Json| m.push((k.into(), v));
        put("state", Json::str(self.state.as_str()));
        put("returnCode", Json::str(&self.return_code));
        let opt = |v: &Option<String>| v.as_deref().map(Json::str);
        for (k, v) in [
            ("returnMessage", opt(&self.return_message)),
            ("serviceDate", opt(&self.service_date)),
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
        if let Some(t) = &self.message {
            put("message", Json::str(t));
        }
        if !self.problems.is_empty() {
            let list = self
                .problems
                .iter()
                .map(|p| Json::obj(vec![("field", Json::str(&p.field)), ("code", Json::str(p.code)), ("message", Json::str(&p.message))]));
            put("problems", Json::Arr(crate::json::list(list.collect())));
        }
        Json::Obj(crate::json::list(m))
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
            r#"{"return_code":"20000","return_message":"ok","service_date":"20240102","resp_code":"00","resp_info":"match","seq_id":"S1","order_id":"o1","mp_ssim":"87.5","file_list":[{"file_id":"f","file_type":"00","file_source":"JVS"}],"encrypt_method":"x"}"#,
            Code::InvalidResponse,
            "data",
        )
        .unwrap();
        let o = Outcome::from_data(&data, Interface::CheckResult, "20000", "o1", "20240101", true);
        assert_eq!(o.state, State::Consistent);
        assert_eq!(o.score, Some(87.5));
        assert_eq!(o.seq_id.as_deref(), Some("S1"));
        assert_eq!(o.record.as_ref(), Some(&data));
        let j = o.to_json();
        let keys: Vec<&str> = j.as_obj().unwrap().iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(
            keys,
            [
                "state",
                "returnCode",
                "returnMessage",
                "serviceDate",
                "respCode",
                "respInfo",
                "seqId",
                "orderId",
                "orderDate",
                "score",
                "record"
            ]
        );
        assert_eq!(j.get("state"), Some(&Json::str("consistent")));
        assert_eq!(j.get("score"), Some(&Json::Num(87.5)));
        assert_eq!(j.get("serviceDate"), Some(&Json::str("20240102")));
        assert_eq!(j.get("record").and_then(|r| r.get("encrypt_method")), Some(&Json::str("x")));
    }

    #[test]
    fn optional_members_are_left_out() {
        let data = Json::obj(vec![("return_code", Json::str("10210")), ("seq_id", Json::str(""))]);
        let o = Outcome::from_data(&data, Interface::CardCheck, "10210", "o2", "20240102", false);
        assert_eq!(o.state, State::CallFailed);
        assert_eq!(o.seq_id, None);
        assert_eq!(o.to_json().to_text(), r#"{"state":"call_failed","returnCode":"10210","orderId":"o2","orderDate":"20240102"}"#);
    }

    #[test]
    fn another_interfaces_code_is_explained() {
        let data = Json::obj(vec![("return_code", Json::str("10200")), ("resp_code", Json::str("00"))]);
        let o = Outcome::from_data(&data, Interface::NameCheck, "10200", "o3", "20240102", false);
        assert_eq!(o.state, State::CallFailed);
        let j = o.to_json();
        let m = j.get("message").and_then(Json::as_str).unwrap();
        assert!(m.contains("interface 102 (bank-card verification)") && m.contains("interface 104 (ID-card verification)"), "{m}");
    }

    #[test]
    fn list_item_faults_are_reported_not_thrown() {
        let data = parse(
            r#"{"return_code":"20000","resp_code":"00","file_list":[{"file_id":"f","file_type":"00"}]}"#,
            Code::InvalidResponse,
            "data",
        )
        .unwrap();
        let o = Outcome::from_data(&data, Interface::CheckResult, "20000", "o4", "20240102", true);
        assert_eq!(o.state, State::Consistent);
        let j = o.to_json();
        let Some(Json::Arr(problems)) = j.get("problems") else { panic!("no problems in {}", j.to_text()) };
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].get("field"), Some(&Json::str("record.file_list[0].file_source")));
        assert_eq!(problems[0].get("code"), Some(&Json::str("required")));
        assert_eq!(j.get("record").and_then(|r| r.get("file_list")), data.get("file_list"), "the item is kept as it came");
    }
}

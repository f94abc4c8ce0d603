//! The joint-debugging mock: which result a verification gets, and the
//! record fields a result query shows for it.
//!
//! - The deciding digit is the first of `id_number` (the service document's
//!   rule); a two-factor card check, which has no `id_number`, uses the
//!   last digit of `acct_no` instead (a sandbox rule).
//! - 1-7 give `resp_code` `00` (consistent), 8-9 give `01` (inconsistent),
//!   0 gives `99` (exception), so that every result can be tried.
//! - `mp_ssim` is a plausible score that agrees with the result against the
//!   example threshold 60: 60.01-99.99 for `00`, 10.00-59.99 for `01`,
//!   absent for `99`. It is drawn from the `seq_id`, so a record shows the
//!   same score every time it is asked.
//! - `id_number` is shown masked (first six and last four characters).

use crate::sign::stable_id;
use paybridge::json::Json;

/// The verification result of the mock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Consistent,
    Inconsistent,
    Exception,
}

impl Verdict {
    /// The result for the deciding digit (`b'0'..=b'9'`).
    pub fn of_digit(d: u8) -> Verdict {
        match d {
            b'1'..=b'7' => Verdict::Consistent,
            b'8' | b'9' => Verdict::Inconsistent,
            _ => Verdict::Exception,
        }
    }

    /// The result of a request with these (validated) fields.
    pub fn of(id_number: Option<&str>, acct_no: Option<&str>) -> Verdict {
        let digit = match (id_number, acct_no) {
            (Some(id), _) => id.bytes().next(),
            (None, Some(acct)) => acct.bytes().last(),
            (None, None) => None,
        };
        Verdict::of_digit(digit.unwrap_or(b'0'))
    }

    pub fn resp_code(self) -> &'static str {
        match self {
            Verdict::Consistent => "00",
            Verdict::Inconsistent => "01",
            Verdict::Exception => "99",
        }
    }

    pub fn resp_info(self) -> &'static str {
        match self {
            Verdict::Consistent => "consistent",
            Verdict::Inconsistent => "inconsistent",
            Verdict::Exception => "verification exception",
        }
    }
}

/// `110105********002X` for `11010519491231002X`; shorter values are
/// masked but for their last character.
pub fn mask_id(id: &str) -> String {
    let chars: Vec<char> = id.chars().collect();
    if chars.len() < 10 {
        return chars.iter().enumerate().map(|(i, c)| if i + 1 == chars.len() { *c } else { '*' }).collect();
    }
    let keep_end = chars.len() - 4;
    chars.iter().enumerate().map(|(i, c)| if i < 6 || i >= keep_end { *c } else { '*' }).collect()
}

/// A number drawn from `seq_id` and `label` (stable for a given secret).
fn draw(secret: &str, seq_id: &str, label: &str) -> u64 {
    let hex = stable_id(secret, &format!("{label}:{seq_id}"));
    u64::from_str_radix(&hex, 16).unwrap_or(0)
}

/// `mp_ssim` for `verdict`, two decimals; empty for an exception.
pub fn score(secret: &str, seq_id: &str, verdict: Verdict) -> String {
    let n = draw(secret, seq_id, "mp_ssim");
    let hundredths = match verdict {
        Verdict::Consistent => 6001 + n % 3999,
        Verdict::Inconsistent => 1000 + n % 5000,
        Verdict::Exception => return String::new(),
    };
    format!("{}.{:02}", hundredths / 100, hundredths % 100)
}

/// What a verification was asked about, kept for its result.
pub struct Subject<'a> {
    pub full_name: &'a str,
    pub id_number: Option<&'a str>,
    pub authorization_info: Option<&'a str>,
}

/// The result fields of a record, in the order of the service document's
/// result query: `resp_code`, `resp_info`, `mp_ssim`, `full_name`,
/// `id_number` (masked), `file_list`, `face_identify_list`,
/// `authorization_info`, `encrypt_method`. The portrait in `file_list` is
/// the sandbox's; `face_identify_list` names one similar user, the subject,
/// for a consistent result and none otherwise. `encrypt_method` is `none`:
/// the sandbox sends names and numbers in clear (the number masked).
pub fn result_fields(secret: &str, seq_id: &str, verdict: Verdict, who: &Subject) -> Vec<(String, Json)> {
    let mp_ssim = score(secret, seq_id, verdict);
    let file_id = format!("F{}", &stable_id(secret, &format!("file:{seq_id}"))[..12]);
    let file = Json::obj(vec![("file_id", Json::str(&file_id)), ("file_type", Json::str("00")), ("file_source", Json::str("JVS"))]);
    let similar = match verdict {
        Verdict::Consistent => vec![Json::obj(vec![
            ("personId", Json::Str(format!("P{}", &stable_id(secret, &format!("person:{}", who.full_name))[..12]))),
            ("fileId", Json::str(&file_id)),
            ("personName", Json::str(who.full_name)),
            ("score", Json::str(&mp_ssim)),
        ])],
        _ => Vec::new(),
    };
    vec![
        ("resp_code".into(), Json::str(verdict.resp_code())),
        ("resp_info".into(), Json::str(verdict.resp_info())),
        ("mp_ssim".into(), Json::Str(mp_ssim)),
        ("full_name".into(), Json::str(who.full_name)),
        ("id_number".into(), Json::Str(who.id_number.map(mask_id).unwrap_or_default())),
        ("file_list".into(), Json::Arr(vec![file])),
        ("face_identify_list".into(), Json::Arr(similar)),
        ("authorization_info".into(), Json::str(who.authorization_info.unwrap_or(""))),
        ("encrypt_method".into(), Json::str("none")),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use paybridge::verify::{parse_score, passes_threshold, DEFAULT_THRESHOLD};

    #[test]
    fn the_deciding_digit() {
        assert_eq!(Verdict::of(Some("11010519491231002X"), Some("4111111111111119")), Verdict::Consistent);
        assert_eq!(Verdict::of(Some("81010519491231002X"), None), Verdict::Inconsistent);
        assert_eq!(Verdict::of(Some("91010519491231002X"), None), Verdict::Inconsistent);
        assert_eq!(Verdict::of(Some("01010519491231002X"), None), Verdict::Exception);
        assert_eq!(Verdict::of(None, Some("4111111111111111")), Verdict::Consistent);
        assert_eq!(Verdict::of(None, Some("4111111111111129")), Verdict::Inconsistent);
        assert_eq!(Verdict::of(None, Some("4111111111111160")), Verdict::Exception);
        assert_eq!(Verdict::of(None, None), Verdict::Exception);
        let codes: Vec<&str> = (b'0'..=b'9').map(|d| Verdict::of_digit(d).resp_code()).collect();
        assert_eq!(codes, ["99", "00", "00", "00", "00", "00", "00", "00", "01", "01"]);
    }

    #[test]
    fn scores_agree_with_the_result() {
        for i in 0..200 {
            let seq = format!("S{i}");
            let ok = parse_score(&score("k", &seq, Verdict::Consistent)).unwrap();
            assert!(passes_threshold(ok, DEFAULT_THRESHOLD) && ok < 100.0, "{ok}");
            let bad = parse_score(&score("k", &seq, Verdict::Inconsistent)).unwrap();
            assert!(!passes_threshold(bad, DEFAULT_THRESHOLD) && bad >= 10.0, "{bad}");
        }
        assert_eq!(score("k", "S1", Verdict::Consistent), score("k", "S1", Verdict::Consistent));
        assert_eq!(score("k", "S1", Verdict::Exception), "");
    }

    #[test]
    fn masks() {
        assert_eq!(mask_id("11010519491231002X"), "110105********002X");
        assert_eq!(mask_id("123"), "**3");
        assert_eq!(mask_id(""), "");
    }

    #[test]
    fn record_fields() {
        let who = Subject { full_name: "张三", id_number: Some("11010519491231002X"), authorization_info: None };
        let f = Json::Obj(result_fields("k", "S1", Verdict::Consistent, &who));
        let keys: Vec<&str> = f.as_obj().unwrap().iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(
            keys,
            [
                "resp_code",
                "resp_info",
                "mp_ssim",
                "full_name",
                "id_number",
                "file_list",
                "face_identify_list",
                "authorization_info",
                "encrypt_method"
            ]
        );
        assert_eq!(f.get("id_number"), Some(&Json::str("110105********002X")));
        let Some(Json::Arr(similar)) = f.get("face_identify_list") else { panic!("a list") };
        assert_eq!(similar[0].get("personName"), Some(&Json::str("张三")));
        assert_eq!(similar[0].get("score"), f.get("mp_ssim"));
        let two = Subject { full_name: "A", id_number: None, authorization_info: Some("auth-1") };
        let g = Json::Obj(result_fields("k", "S2", Verdict::Inconsistent, &two));
        assert_eq!(g.get("id_number"), Some(&Json::str("")));
        assert_eq!(g.get("face_identify_list"), Some(&Json::Arr(vec![])));
        assert_eq!(g.get("authorization_info"), Some(&Json::str("auth-1")));
    }
}

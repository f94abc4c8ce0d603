//! The verifications the API has accepted, found by `seq_id` or by the
//! caller's `order_id`; at most [`crate::MEMORY`] of them, the
//! oldest forgotten first (with them, the `order_id`s they hold: a
//! forgotten order may be sent again).

use std::collections::HashMap;

use crate::bounded::Bounded;
use paybridge::json::Json;

/// One accepted `cardcheck` or `namecheck`.
#[derive(Clone, Debug)]
pub struct Verification {
    pub seq_id: String,
    pub app_token: String,
    pub order_id: String,
    pub order_date: String,
    /// The result fields a result query shows ([`super::mock::result_fields`]).
    pub result: Vec<(String, Json)>,
    /// False while an asynchronous result is still "being verified".
    pub ready: bool,
}

pub struct Verifications {
    by_seq_id: Bounded<Verification>,
    /// `seq_id` by `(app_token, order_id)`.
    by_order: HashMap<(String, String), String>,
}

impl Verifications {
    pub fn new(cap: usize) -> Verifications {
        Verifications { by_seq_id: Bounded::new(cap), by_order: HashMap::new() }
    }

    /// Keeps `v`, unless its order was seen before: false then, and nothing
    /// is kept.
    pub fn insert_new(&mut self, v: Verification) -> bool {
        let key = (v.app_token.clone(), v.order_id.clone());
        if self.by_order.contains_key(&key) {
            return false;
        }
        self.by_order.insert(key, v.seq_id.clone());
        for (_, gone) in self.by_seq_id.insert(v.seq_id.clone(), v) {
            self.by_order.remove(&(gone.app_token, gone.order_id));
        }
        true
    }

    /// The verification `seq_id` of the caller `app_token`.
    pub fn by_seq_id(&self, app_token: &str, seq_id: &str) -> Option<&Verification> {
        self.by_seq_id.get(seq_id).filter(|v| v.app_token == app_token)
    }

    /// The verification of the caller's `order_id`.
    pub fn by_order_id(&self, app_token: &str, order_id: &str) -> Option<&Verification> {
        let seq_id = self.by_order.get(&(app_token.to_string(), order_id.to_string()))?;
        self.by_seq_id.get(seq_id)
    }

    /// Marks the result of `seq_id` ready and returns the record; `None`
    /// when it was forgotten.
    pub fn make_ready(&mut self, seq_id: &str) -> Option<Verification> {
        let v = self.by_seq_id.get_mut(seq_id)?;
        v.ready = true;
        Some(v.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(seq_id: &str, order_id: &str) -> Verification {
        Verification {
            seq_id: seq_id.into(),
            app_token: "T".into(),
            order_id: order_id.into(),
            order_date: "20240101".into(),
            result: vec![("resp_code".into(), Json::str("00"))],
            ready: false,
        }
    }

    #[test]
    fn orders_are_unique_per_caller() {
        let mut m = Verifications::new(10);
        assert!(m.insert_new(v("S1", "o1")));
        assert!(!m.insert_new(v("S2", "o1")));
        assert!(m.by_seq_id("T", "S2").is_none());
        let mut other = v("S3", "o1");
        other.app_token = "U".into();
        assert!(m.insert_new(other));
        assert_eq!(m.by_order_id("T", "o1").unwrap().seq_id, "S1");
        assert_eq!(m.by_order_id("U", "o1").unwrap().seq_id, "S3");
        assert!(m.by_seq_id("U", "S1").is_none(), "another caller's record is not found");
        assert_eq!(m.by_seq_id("T", "S1").unwrap().result, [("resp_code".to_string(), Json::str("00"))]);
    }

    #[test]
    fn ready_and_forgotten() {
        let mut m = Verifications::new(2);
        m.insert_new(v("S1", "o1"));
        assert!(!m.by_seq_id("T", "S1").unwrap().ready);
        assert!(m.make_ready("S1").unwrap().ready);
        assert!(m.by_order_id("T", "o1").unwrap().ready);
        m.insert_new(v("S2", "o2"));
        m.insert_new(v("S3", "o3"));
        assert!(m.by_seq_id("T", "S1").is_none());
        assert!(m.by_order_id("T", "o1").is_none());
        assert!(m.insert_new(v("S4", "o1")), "a forgotten order may be sent again");
        assert!(m.by_order_id("T", "o2").is_none());
        assert_eq!(m.by_order_id("T", "o3").unwrap().seq_id, "S3");
        assert!(m.make_ready("S1").is_none());
    }
}

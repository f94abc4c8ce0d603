//! What a result query (`checkresult`) asks for: a verification by the
//! service's `seq_id`, or by the caller's `order_id` (the service's two query
//! modes). Read from `{ seqId }`, `{ orderId, orderDate? }` or an outcome;
//! the snake_case names of the service are accepted too.

use super::checks::valid_yyyymmdd;
use super::fields::invalid_request as invalid;
use crate::error::{cat, PayError, Problem};
use crate::json::Json;
use crate::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Query {
    /// By the service's serial number. `order_id`/`order_date` fill the
    /// common parameters when given (generated otherwise).
    BySeqId { seq_id: String, order_id: Option<String>, order_date: Option<String> },
    /// By the original request's order number (`seq_id` sent empty). Without
    /// `order_date` the service's current day is sent.
    ByOrderId { order_id: String, order_date: Option<String> },
}

/// The non-empty string under `camel` or `snake`; a problem when one of them
/// holds anything but a string or null.
fn member(obj: &Json, camel: &str, snake: &str, problems: &mut Vec<Problem>) -> Option<String> {
    let mut found = None;
    for &key in [snake, camel].iter() {
        match obj.given(key) {
            Some(Json::Str(s)) if !s.is_empty() => found = Some(s.clone()),
            None | Some(Json::Str(_)) => {}
            Some(other) => {
                problems.push(Problem { field: key.into(), code: "type", message: cat!(key, " must be a string, not ", other.kind()) })
            }
        }
    }
    found
}

impl Query {
    /// Reads a query; `invalid_request` listing every problem.
    pub fn from_json(v: &Json) -> Result<Query, PayError> {
        let mut problems = Vec::new();
        if v.as_obj().is_none() {
            problems.push(Problem { field: "query".into(), code: "type", message: cat!("query must be an object, not ", v.kind()) });
            return Err(invalid(problems));
        }
        let seq_id = member(v, "seqId", "seq_id", &mut problems);
        let order_id = member(v, "orderId", "order_id", &mut problems);
        let order_date = member(v, "orderDate", "order_date", &mut problems);
        if let Some(d) = &order_date {
            if !valid_yyyymmdd(d) {
                problems.push(Problem {
                    field: "orderDate".into(),
                    code: "format",
                    message: "orderDate must be eight digits YYYYMMDD naming a real day".into(),
                });
            }
        }
        if seq_id.is_none() && order_id.is_none() && problems.is_empty() {
            problems.push(Problem {
                field: "seqId".into(),
                code: "required",
                message: "seqId or orderId is required to query a result".into(),
            });
        }
        if !problems.is_empty() {
            return Err(invalid(problems));
        }
        Ok(match (seq_id, order_id) {
            (Some(seq_id), order_id) => Query::BySeqId { seq_id, order_id, order_date },
            (None, Some(order_id)) => Query::ByOrderId { order_id, order_date },
            // Refused above.
            (None, None) => return Err(invalid(Vec::new())),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Code;
    use crate::json::parse;

    fn q(t: &str) -> Result<Query, PayError> {
        Query::from_json(&parse(t, Code::InvalidRequest, "query").unwrap())
    }

    #[test]
    fn both_modes() {
        assert_eq!(q(r#"{"seqId":"S1"}"#).unwrap(), Query::BySeqId { seq_id: "S1".into(), order_id: None, order_date: None });
        assert_eq!(
            q(r#"{"order_id":"o1","orderDate":"20240101","seqId":""}"#).unwrap(),
            Query::ByOrderId { order_id: "o1".into(), order_date: Some("20240101".into()) }
        );
        // An outcome can be queried again as it is.
        assert!(matches!(q(r#"{"state":"pending","seqId":"S","orderId":"o","orderDate":"20240101"}"#).unwrap(), Query::BySeqId { .. }));
    }

    #[test]
    fn problems() {
        let e = q("{}").unwrap_err();
        assert_eq!(e.code, Code::InvalidRequest);
        assert_eq!(e.field.as_deref(), Some("seqId"));
        let e = q(r#"{"seqId":5,"orderDate":"2024"}"#).unwrap_err();
        let fields: Vec<&str> = e.details.iter().map(|p| p.field.as_str()).collect();
        assert_eq!(fields, ["seqId", "orderDate"]);
        assert!(e.message.ends_with("(and 1 more problem)"), "{}", e.message);
        assert_eq!(e.field, None);
        assert_eq!(q("[]").unwrap_err().details.len(), 1);
    }
}

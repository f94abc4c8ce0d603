//! What the vector tests share: reading `tests/vectors/` files into the
//! core's `Json` with serde_json (the files hold inputs deeper than the
//! module itself accepts, so they are not read with its own parser), and
//! the authentication service's echo of the order it answers. Each test
//! crate uses a part of it.
#![allow(dead_code)]

use paybridge::verify::Request;
use paybridge::Json;

/// `data` of an answer as the service writes it: it echoes the order it
/// answers (`order_id` and `order_date`, Y in the document's common
/// envelope, as the sandbox does), so `data` that names neither gets the
/// request's; anything but an object goes as it is.
pub fn echo_order(req: &Request, d: Json) -> Json {
    let Json::Obj(mut m) = d else { return d };
    for key in ["order_id", "order_date"] {
        if let (false, Some(v)) = (m.iter().any(|(k, _)| k == key), req.param(key)) {
            m.push((key.into(), Json::str(v)));
        }
    }
    Json::Obj(m)
}

pub fn from_serde(v: serde_json::Value) -> Json {
    use serde_json::Value as V;
    match v {
        V::Null => Json::Null,
        V::Bool(b) => Json::Bool(b),
        V::Number(n) => Json::Num(n.as_f64().unwrap()),
        V::String(s) => Json::Str(s),
        V::Array(a) => Json::Arr(a.into_iter().map(from_serde).collect()),
        V::Object(m) => Json::Obj(m.into_iter().map(|(k, v)| (k, from_serde(v))).collect()),
    }
}

//! What the vector tests share: reading `tests/vectors/` files into the
//! core's `Json` with serde_json (the files hold inputs deeper than the
//! module itself accepts, so they are not read with its own parser).

use paybridge::Json;

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

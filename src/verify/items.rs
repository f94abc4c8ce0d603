//! The items of a record's lists (`file_list`, `face_identify_list`), checked
//! against the service document: every field of an item is required, and
//! every one is text.
//!
//! A record is the service's answer, already signed and verified: a list
//! item that misses a field does not make the answer unreadable, so it is
//! not thrown. Each fault becomes a [`Problem`] of the outcome
//! (`problems`), its `field` the item's path in `record`
//! (`record.file_list[0].file_source`), and the record keeps the item as it
//! came.

use crate::error::{cat, u64_str, Problem};
use crate::json::Json;
use crate::prelude::*;

/// Each list of a record and the fields of its items, all required.
pub const LIST_ITEMS: [(&str, &[&str]); 2] =
    [("file_list", &["file_id", "file_type", "file_source"]), ("face_identify_list", &["personId", "fileId", "personName", "score"])];

/// Every fault of the lists of `record`, in order: a list that is not a
/// list (`type`), an item that is not an object (`type`), a missing or
/// empty field (`required`), a field that is not text (`type`). Absent or
/// `null` lists have no faults.
pub fn list_problems(record: &Json) -> Vec<Problem> {
    let mut out = Vec::new();
    for (list, fields) in LIST_ITEMS {
        let items = match record.given(list) {
            None => continue,
            Some(Json::Arr(items)) => items,
            Some(other) => {
                let field = cat!("record.", list);
                let message = cat!(&field, " is ", other.kind(), ", not a list");
                out.push(Problem { field, code: "type", message });
                continue;
            }
        };
        for (i, item) in items.iter().enumerate() {
            let at = cat!("record.", list, "[", &u64_str(i as u64), "]");
            if item.as_obj().is_none() {
                let message = cat!(&at, " is ", item.kind(), ", not an object");
                out.push(Problem { field: at, code: "type", message });
                continue;
            }
            for name in fields.iter() {
                let field = cat!(&at, ".", name);
                match item.get(name) {
                    Some(Json::Str(s)) if !s.is_empty() => {}
                    None | Some(Json::Null) | Some(Json::Str(_)) => {
                        let message = cat!(&field, " is missing (every field of a ", list, " item is required)");
                        out.push(Problem { field, code: "required", message });
                    }
                    Some(other) => {
                        let message = cat!(&field, " is ", other.kind(), ", not text");
                        out.push(Problem { field, code: "type", message });
                    }
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Code;

    fn codes(text: &str) -> Vec<(String, &'static str)> {
        let record = crate::json::parse(text, Code::InvalidResponse, "data").unwrap();
        list_problems(&record).into_iter().map(|p| (p.field, p.code)).collect()
    }

    #[test]
    fn complete_items_have_no_problems() {
        assert!(codes(r#"{"file_list":[{"file_id":"f","file_type":"00","file_source":"JVS"}],"face_identify_list":[{"personId":"p","fileId":"f","personName":"n","score":"72"}]}"#).is_empty());
        assert!(codes(r#"{"file_list":[],"face_identify_list":null}"#).is_empty());
        assert!(codes(r#"{}"#).is_empty());
    }

    #[test]
    fn every_fault_is_named() {
        let got = codes(
            r#"{"file_list":[{"file_id":"f","file_type":"00"},{"file_id":"","file_type":1,"file_source":"JVS"},"x"],"face_identify_list":{"personId":"p"}}"#,
        );
        let want: Vec<(String, &str)> = [
            ("record.file_list[0].file_source", "required"),
            ("record.file_list[1].file_id", "required"),
            ("record.file_list[1].file_type", "type"),
            ("record.file_list[2]", "type"),
            ("record.face_identify_list", "type"),
        ]
        .iter()
        .map(|(f, c)| (f.to_string(), *c))
        .collect();
        assert_eq!(got, want);
        let record =
            crate::json::parse(r#"{"face_identify_list":[{"personId":"p","fileId":"f","score":"1"}]}"#, Code::InvalidResponse, "d")
                .unwrap();
        let p = list_problems(&record);
        assert_eq!(
            p[0].message,
            "record.face_identify_list[0].personName is missing (every field of a face_identify_list item is required)"
        );
    }
}

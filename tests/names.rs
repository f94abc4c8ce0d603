//! Error codes and event names are declared once, in Rust: `Code` in
//! `src/error.rs` and `EventType` in `src/event.rs`. What a page is told
//! about them is checked against those declarations: the `ErrorCode` and
//! `PayEventType` types of `www/lib/index.d.ts`, the `type` of
//! `watchPayment`'s `onEvent` there, the README's error table, and the
//! codes the shim gives the errors it makes itself.

use paybridge::error::Code;
use paybridge::event::{EventType, Heard};
use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

fn read(file: &str) -> String {
    fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// Every `"..."` in `text`.
fn quoted(text: &str) -> Vec<String> {
    text.split('"').skip(1).step_by(2).map(String::from).collect()
}

/// The string literals of the union `export type NAME = | "a" | "b";`.
fn union(dts: &str, name: &str) -> BTreeSet<String> {
    let head = format!("export type {name} =");
    let at = dts.find(&head).unwrap_or_else(|| panic!("index.d.ts declares no {name}"));
    let body = &dts[at + head.len()..];
    let body = &body[..body.find(';').expect("the union ends")];
    let members: Vec<&str> = body.split('|').map(str::trim).filter(|m| !m.is_empty()).collect();
    assert!(members.iter().all(|m| m.starts_with('"') && m.ends_with('"')), "{name} is a union of strings: {members:?}");
    members.iter().map(|m| m.trim_matches('"').to_string()).collect()
}

/// A list's duplicates, which a set would hide.
fn once(names: &[&str], what: &str) -> BTreeSet<String> {
    let set: BTreeSet<String> = names.iter().map(|s| s.to_string()).collect();
    assert_eq!(set.len(), names.len(), "{what} declared twice: {names:?}");
    set
}

fn codes() -> BTreeSet<String> {
    once(&Code::ALL.iter().map(|c| c.as_str()).collect::<Vec<_>>(), "an error code")
}

fn events(heard: Heard) -> BTreeSet<String> {
    let all: Vec<&str> = EventType::ALL.iter().map(|(e, _)| e.as_str()).collect();
    once(&all, "an event");
    EventType::ALL.iter().filter(|(_, h)| *h == heard).map(|(e, _)| e.as_str().to_string()).collect()
}

#[test]
fn index_d_ts_names_the_declared_error_codes() {
    assert_eq!(union(&read("www/lib/index.d.ts"), "ErrorCode"), codes(), "ErrorCode in www/lib/index.d.ts against Code in src/error.rs");
}

#[test]
fn the_readmes_error_table_names_the_declared_error_codes() {
    let readme = read("README.md");
    let at = readme.find("\n## Errors\n").expect("README has an Errors section");
    let section = &readme[at + 1..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |n| n + 3)];
    let mut named = Vec::new();
    let mut rows = 0;
    for line in section.lines().filter(|l| l.starts_with("| `")) {
        rows += 1;
        let cell = line[1..].split(" | ").next().unwrap();
        named.extend(cell.split('`').skip(1).step_by(2).map(String::from));
    }
    assert!(rows > 0, "the Errors section has a table of codes");
    let set: BTreeSet<String> = named.iter().cloned().collect();
    assert_eq!(set.len(), named.len(), "a code in two rows of the README's table: {named:?}");
    assert_eq!(set, codes(), "the README's error table against Code in src/error.rs");
}

#[test]
fn the_shim_makes_errors_with_declared_codes_only() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("www/lib");
    let codes = codes();
    let mut made = 0;
    for entry in fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "js") {
            continue;
        }
        let text = fs::read_to_string(&path).unwrap();
        // `new PayError(message, "code", ...)`: the literal after the message.
        for call in text.split("new PayError(").skip(1) {
            let call = &call[..call.find(';').unwrap_or(call.len())];
            if let Some(code) = quoted(call).into_iter().find(|q| !q.is_empty() && q.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')) {
                made += 1;
                assert!(codes.contains(&code), "{}: PayError code {code:?} is not declared in src/error.rs", path.display());
            }
        }
    }
    assert!(made > 0, "the shim makes some errors of its own (not_ready)");
}

#[test]
fn index_d_ts_names_the_declared_events() {
    let dts = read("www/lib/index.d.ts");
    assert_eq!(union(&dts, "PayEventType"), events(Heard::Pay), "PayEventType in www/lib/index.d.ts against src/event.rs");
    // Every other handler spells its event's type where it is declared:
    // `onEvent?: (e: { type: "status"; ... }) => void`.
    let mut inline = BTreeSet::new();
    let mut handlers = 0;
    for line in dts.lines().filter(|l| l.trim_start().starts_with("onEvent?:")) {
        handlers += 1;
        if line.contains("(e: PayEvent)") {
            continue;
        }
        let ty = line.split("type:").nth(1).unwrap_or_else(|| panic!("an onEvent of another shape: {line}"));
        let ty = &ty[..ty.find(';').expect("its type ends")];
        inline.extend(quoted(ty));
    }
    assert!(handlers >= 2, "index.d.ts declares pay()'s and watchPayment()'s onEvent");
    assert_eq!(inline, events(Heard::Watch), "watchPayment's onEvent in www/lib/index.d.ts against src/event.rs");
}

/// Every `.rs` file under `dir`, with its text.
fn sources(dir: &Path, out: &mut Vec<(String, String)>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push((path.display().to_string(), fs::read_to_string(&path).unwrap()));
        }
    }
}

#[test]
fn every_declared_event_is_reported_by_some_run() {
    let mut files = Vec::new();
    sources(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut files);
    let code: Vec<&str> = files.iter().filter(|(p, _)| !p.ends_with("src/event.rs")).map(|(_, t)| t.as_str()).collect();
    let declared = read("src/event.rs");
    for (e, _) in EventType::ALL {
        // The constant's name, as `events!` declares it: `NAME = "name"`.
        let decl = format!(" = \"{}\",", e.as_str());
        let line = declared.lines().find(|l| l.contains(&decl)).unwrap_or_else(|| panic!("{e} is declared in src/event.rs"));
        let name = line.trim().split(' ').next().unwrap();
        let used = format!("EventType::{name}");
        assert!(code.iter().any(|t| t.contains(&used)), "{e} is declared but no run reports it ({used})");
    }
}

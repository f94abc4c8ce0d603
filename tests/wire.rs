//! The wire between the edges and the shim is declared once, in
//! `src/perform/wire.rs`; `www/lib/protocol.js` is generated from it, and
//! the shim names every operation and input kind through it.
//!
//! `UPDATE_WIRE=1 cargo test --test wire` writes the file anew.

use paybridge::perform::wire::{Feed, Op, COUNTS, FIELDS, VALUES};
use std::fs;
use std::path::Path;

const FILE: &str = "www/lib/protocol.js";

/// `CallBridge` as `CALL_BRIDGE`.
fn screaming(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_uppercase());
    }
    out
}

fn render() -> String {
    let mut out = String::from(
        "// Generated from src/perform/wire.rs by tests/wire.rs\n\
         // (UPDATE_WIRE=1 cargo test --test wire): do not edit by hand.\n\
         // The operations of the commands the modules answer (OP_*), the\n\
         // kinds of input the shim feeds back (FEED_*) (www/lib/perform.js),\n\
         // and where each command's values are, by name.\n",
    );
    for (prefix, all) in [("OP", Op::ALL), ("FEED", Feed::ALL)] {
        out.push('\n');
        for &(name, n) in all {
            out.push_str(&format!("export const {prefix}_{} = {n};\n", screaming(name)));
        }
    }
    out.push_str(
        "\n// Each command's values by name, their index in `[op, ...values]`\n// (FIELDS): `LISTEN_TARGET`, `Listen`'s `target`.\n",
    );
    for &(op, fields) in FIELDS {
        let name = Op::ALL.iter().find(|&&(_, n)| n == op as u8).unwrap().0;
        for (i, field) in fields.iter().enumerate() {
            out.push_str(&format!("export const {}_{} = {};\n", screaming(name), field.to_ascii_uppercase(), i + 1));
        }
    }
    out.push_str("\n// The values of the inputs that carry several, by name (VALUES).\n");
    for &(feed, values) in VALUES {
        let name = Feed::ALL.iter().find(|&&(_, n)| n == feed as u8).unwrap().0;
        for (i, value) in values.iter().enumerate() {
            out.push_str(&format!("export const {}_{} = {i};\n", screaming(name), value.to_ascii_uppercase()));
        }
    }
    out.push_str("\n// What the query FEED_COUNTS answers, by name (COUNTS): `[listeners, ...]`.\n");
    for (i, name) in COUNTS.iter().enumerate() {
        out.push_str(&format!("export const COUNTS_{} = {i};\n", name.to_ascii_uppercase()));
    }
    out
}

#[test]
fn the_shims_constants_are_generated_from_the_wire() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(FILE);
    let want = render();
    if std::env::var_os("UPDATE_WIRE").is_some() {
        fs::write(&path, &want).unwrap();
    }
    let have = fs::read_to_string(&path).unwrap_or_default();
    assert!(have == want, "{FILE} differs from src/perform/wire.rs: run UPDATE_WIRE=1 cargo test --test wire\n--- want\n{want}");
}

/// Whether `text` has `pattern` followed (past spaces) by a digit: a
/// number compared with or fed in place of a name.
fn numbered(text: &str, pattern: &str) -> Vec<usize> {
    let mut hits = Vec::new();
    let mut from = 0;
    while let Some(i) = text[from..].find(pattern) {
        let at = from + i;
        let rest = text[at + pattern.len()..].trim_start();
        if rest.starts_with(|c: char| c.is_ascii_digit()) {
            hits.push(text[..at].matches('\n').count() + 1);
        }
        from = at + pattern.len();
    }
    hits
}

/// The JavaScript that speaks the wire: the shim (`www/lib/`, but the
/// generated file) and the browser tests' pages, each file's name and text.
fn speakers() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["www/lib", "tests/browser/pages"] {
        for entry in fs::read_dir(root.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            if name.ends_with(".js") && name != "protocol.js" {
                files.push((format!("{dir}/{name}"), fs::read_to_string(&path).unwrap()));
            }
        }
    }
    files
}

#[test]
fn the_shim_compares_and_feeds_no_number_of_its_own() {
    let mut found = Vec::new();
    for (name, text) in speakers() {
        for pattern in ["op ==", "op !=", "op >", "op <", "feed(", "step(id,", "__step(0,", "__step(id,"] {
            for line in numbered(&text, pattern) {
                found.push(format!("{name}:{line}: `{pattern}` and a number"));
            }
        }
    }
    assert!(found.is_empty(), "name the operation or input kind (www/lib/protocol.js):\n{}", found.join("\n"));
}

/// Where the shim takes a command apart by position (`[op, a, b] = c`, or
/// a parameter `([op, ...])`): each value is read by its name instead
/// (`c[W.LISTEN_TARGET]`), so that the declaration's order is the only one.
fn positional(text: &str) -> Vec<usize> {
    let mut hits = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let code = line.trim_start();
        if code.starts_with("//") || code.starts_with('*') {
            continue;
        }
        // A command (`c` in the shim) destructured, or a parameter list
        // that takes one apart.
        let destructured = ["] = c;", "] = c,", "] = c)", "] = cmd", "] = command"].iter().any(|p| code.contains(p));
        if code.contains("[op,") || code.contains("[op ,") || destructured {
            hits.push(n + 1);
        }
    }
    hits
}

#[test]
fn the_shim_reads_each_value_by_its_name() {
    let mut found = Vec::new();
    for (name, text) in speakers() {
        for line in positional(&text) {
            found.push(format!("{name}:{line}"));
        }
    }
    assert!(found.is_empty(), "read each command's values by name (www/lib/protocol.js), not by position:\n{}", found.join("\n"));
    assert_eq!(
        positional(
            "const [op, a, b, d, e] = c;\n// [op, a]\nreturn ([op, a], end) => 1\nconst [o, target] = c;\nconst t = c[W.LISTEN_TARGET];"
        ),
        [1, 3, 4]
    );
}

/// Where `text` asks the query `Counts` and reads its answer by position
/// (destructured), or without each of its values' names: what each
/// finding is.
fn counts_by_position(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    if !text.contains("__step(0, FEED_COUNTS)") {
        return found;
    }
    for (i, line) in text.lines().enumerate() {
        if line.contains("__step(0, FEED_COUNTS)") && line.contains("] =") {
            found.push(format!("{}: the answer destructured by position", i + 1));
        }
    }
    for name in COUNTS {
        let constant = format!("COUNTS_{}", name.to_ascii_uppercase());
        if !text.contains(&constant) {
            found.push(format!("{constant} not read"));
        }
    }
    found
}

#[test]
fn the_counts_are_read_by_name() {
    let mut found = Vec::new();
    let mut readers = 0;
    for (name, text) in speakers() {
        readers += usize::from(text.contains("__step(0, FEED_COUNTS)"));
        found.extend(counts_by_position(&text).into_iter().map(|f| format!("{name}:{f}")));
    }
    assert!(readers >= 2, "the shim and the browser tests' pages ask FEED_COUNTS (found {readers})");
    assert!(found.is_empty(), "read the answer of FEED_COUNTS by its names (www/lib/protocol.js, COUNTS_*):\n{}", found.join("\n"));
}

#[test]
fn the_check_finds_what_it_looks_for() {
    assert_eq!(numbered("if (op == 11) x;\nfeed(4, v)", "op =="), [1]);
    assert_eq!(numbered("if (op == 11) x;\nfeed(4, v)", "feed("), [2]);
    assert!(numbered("if (op == OP_EXPLAIN) feed(FEED_SUCCESS, v)", "op ==").is_empty());
    let by_name = "const c = bg.__step(0, FEED_COUNTS);\nf(c[COUNTS_LISTENERS], c[COUNTS_WAITERS], c[COUNTS_RETAINED]);";
    assert!(counts_by_position(by_name).is_empty());
    assert_eq!(
        counts_by_position("const [listeners, waiters, retained] = bg.__step(0, FEED_COUNTS);"),
        ["1: the answer destructured by position", "COUNTS_LISTENERS not read", "COUNTS_WAITERS not read", "COUNTS_RETAINED not read"]
    );
    assert_eq!(counts_by_position(&by_name.replace("c[COUNTS_WAITERS]", "c[1]")), ["COUNTS_WAITERS not read"]);
}

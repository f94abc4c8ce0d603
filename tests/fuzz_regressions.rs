//! Every input a fuzz target once crashed on, run through the same checks
//! on the host (`tests/fuzz/regressions/<target>/`), and the checks
//! themselves over the shared vectors, so that both stay tests after the
//! fuzzing stops. The checks are those of `tests/fuzz/src/lib.rs`.
#![cfg(not(target_arch = "wasm32"))]

#[allow(dead_code)]
#[path = "fuzz/src/lib.rs"]
mod checks;

use std::path::Path;

type Check = fn(&[u8]);

const TARGETS: [(&str, Check); 7] = [
    ("plan", checks::plan),
    ("safe_url", checks::safe_url),
    ("auth_url", checks::auth_url),
    ("auth_callback", checks::auth_callback),
    ("envelope", checks::envelope),
    ("notification", checks::notification),
    ("json", checks::json),
];

#[test]
fn saved_crashes_pass_every_check() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz/regressions");
    let mut ran = 0;
    let mut failed = Vec::new();
    for (target, check) in TARGETS {
        let Ok(dir) = std::fs::read_dir(root.join(target)) else { continue };
        for entry in dir {
            let path = entry.unwrap().path();
            let data = std::fs::read(&path).unwrap();
            if let Err(e) = std::panic::catch_unwind(|| check(&data)) {
                let why = e.downcast_ref::<String>().cloned().or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()));
                failed.push(format!("{target}/{}: {}", path.file_name().unwrap().to_string_lossy(), why.unwrap_or_default()));
            }
            ran += 1;
        }
    }
    assert!(failed.is_empty(), "{} of {ran} saved inputs fail:\n{}", failed.len(), failed.join("\n"));
    assert!(ran >= 3, "only {ran} saved inputs");
}

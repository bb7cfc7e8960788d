//! The one fixture helper of the integration tests. Fixtures live in the
//! repository's `tests/fixtures`; the samples the page ships live in `samples/` and
//! are read there, not copied.
#![allow(dead_code)] // each test file uses a part

use std::path::PathBuf;

/// The path of a fixture: `samples/NAME` when the page ships it, else
/// `tests/fixtures/NAME`.
pub fn fixture_path(name: &str) -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let sample = root.join("samples").join(name);
    if sample.is_file() {
        sample
    } else {
        root.join("tests/fixtures").join(name)
    }
}

/// The text of a fixture.
pub fn fixture(name: &str) -> String {
    let path = fixture_path(name);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|err| panic!("cannot read fixture {}: {err}", path.display()))
}

/// The path of a fixture as a command-line argument.
pub fn fixture_arg(name: &str) -> String {
    fixture_path(name).display().to_string()
}

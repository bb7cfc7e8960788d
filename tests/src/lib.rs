//! Shared fixtures for ragtrace's cross-crate tests.

#![warn(unreachable_pub)]

use std::path::PathBuf;

/// The folder holding the fixture files.
pub fn fixtures_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// The text of one fixture file.
pub fn fixture(name: &str) -> String {
    let path = fixtures_dir().join(name);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|err| panic!("cannot read fixture {}: {err}", path.display()))
}

//! What the CLI's end-to-end tests share.

use std::path::PathBuf;

/// The path of a fixture of the project's shared `tests/fixtures`.
pub fn fixture(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures")
        .join(name)
        .display()
        .to_string()
}

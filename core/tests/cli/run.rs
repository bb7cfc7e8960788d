//! Running the `ragtrace` binary and writing its input files: what the end-to-end
//! tests share.

use std::ffi::OsStr;
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Runs `ragtrace` with `args` and no standard input.
pub fn ragtrace<S: AsRef<OsStr>>(args: &[S]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ragtrace"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the ragtrace binary runs")
}

/// Writes `contents` to a file named `name` in a temporary folder of its own (tests
/// run in parallel and may use the same names), and returns its path.
pub fn temp_file(name: &str, contents: impl AsRef<[u8]>) -> String {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "ragtrace-cli-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let path = dir.join(name);
    std::fs::write(&path, contents).expect("a temporary file");
    path.display().to_string()
}

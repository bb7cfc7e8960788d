//! End-to-end: `ragtrace schema NAME` prints the output's schema.
fn main() {}

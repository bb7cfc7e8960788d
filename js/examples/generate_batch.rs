//! Writes the JS benchmark's input to stdout: the batch core/benches/analyze.rs reads
//! (5,000 RerankTraces of 20 candidates, seed 42; about 36 MB of JSON lines).
//!
//! `cargo run --release -p ragtrace-js --example generate_batch > batch.jsonl`
//! (optional arguments: traces, candidates per trace, seed).

use ragtrace_core::testdata::generate_batch;
use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut numbers = std::env::args().skip(1).map(|a| a.parse::<u64>());
    let mut next = |default: u64| numbers.next().unwrap_or(Ok(default));
    let (Ok(traces), Ok(per_trace), Ok(seed)) = (next(5_000), next(20), next(42)) else {
        eprintln!("usage: generate_batch [traces] [candidates-per-trace] [seed]");
        return ExitCode::from(2);
    };
    let text = generate_batch(traces as usize, per_trace as usize, seed);
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("generate_batch: {err}");
            ExitCode::FAILURE
        }
    }
}

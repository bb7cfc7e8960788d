//! Writes the JS benchmark's input to stdout: the batch core/benches/analyze.rs reads
//! (5,000 RerankTraces of 20 candidates, seed 42; about 36 MB of JSON, one
//! `{"traces": [...]}` object on one line).
//!
//! `cargo run --release -p ragtrace-js --example generate_batch > batch.json`
//! (optional arguments: traces, candidates per trace, seed; `--lines` writes the same
//! traces as JSON Lines, one trace at a time, for files of any size).

use ragtrace_core::{generate_batch, generate_batch_lines};
use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let lines = args.iter().any(|a| a == "--lines");
    let mut numbers = args
        .iter()
        .filter(|a| *a != "--lines")
        .map(|a| a.parse::<u64>());
    let mut next = |default: u64| numbers.next().unwrap_or(Ok(default));
    let (Ok(traces), Ok(per_trace), Ok(seed)) = (next(5_000), next(20), next(42)) else {
        eprintln!("usage: generate_batch [--lines] [traces] [candidates-per-trace] [seed]");
        return ExitCode::from(2);
    };
    let (traces, per_trace) = (traces as usize, per_trace as usize);
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let written = if lines {
        generate_batch_lines(traces, per_trace, seed).try_for_each(|line| writeln!(out, "{line}"))
    } else {
        out.write_all(generate_batch(traces, per_trace, seed).as_bytes())
    };
    match written.and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("generate_batch: {err}");
            ExitCode::FAILURE
        }
    }
}

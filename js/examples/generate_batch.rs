//! Writes the JS benchmark's input to stdout: the batch core/benches/analyze.rs reads
//! (5,000 RerankTraces of 20 candidates, seed 42; about 36 MB of JSON, one
//! `{"traces": [...]}` object on one line).
//!
//! `cargo run --release -p ragtrace-js --example generate_batch > batch.json`
//! (optional arguments: traces, candidates per trace, seed; `--lines` writes the same
//! traces as JSON Lines, one trace at a time, for files of any size).
//!
//! `--shape real [--otlp] [traces] [seed]` writes real-shaped traces instead, as JSON
//! Lines: 5 to 30 candidates per trace, each with its chunk's whole text (200 to 2,000
//! characters, escapes and non-ASCII); `--otlp` writes the same traces as OpenTelemetry
//! OTLP JSON lines of OpenInference RETRIEVER spans. The default trace counts make
//! about 60 MB each way: 2,150 native traces, 1,430 OTLP ones (the same first 1,430).

use ragtrace_core::{
    generate_batch, generate_batch_lines, generate_real_batch_lines, generate_real_otlp_lines,
};
use std::io::Write;
use std::process::ExitCode;

const USAGE: &str = "usage: generate_batch [--lines] [traces] [candidates-per-trace] [seed]\n       generate_batch --shape real [--otlp] [traces] [seed]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut lines = false;
    let mut real = false;
    let mut otlp = false;
    let mut numbers = Vec::new();
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--lines" => lines = true,
            "--otlp" => otlp = true,
            "--shape" => match rest.next().map(String::as_str) {
                Some("real") => real = true,
                Some("generated") => real = false,
                _ => {
                    eprintln!("generate_batch: --shape takes `real` or `generated`\n{USAGE}");
                    return ExitCode::from(2);
                }
            },
            number => match number.parse::<u64>() {
                Ok(n) => numbers.push(n),
                Err(_) => {
                    eprintln!("generate_batch: `{number}` is not a number\n{USAGE}");
                    return ExitCode::from(2);
                }
            },
        }
    }
    if otlp && !real {
        eprintln!("generate_batch: --otlp writes real-shaped traces: add --shape real\n{USAGE}");
        return ExitCode::from(2);
    }
    let mut numbers = numbers.into_iter();
    let mut next = |default: u64| numbers.next().unwrap_or(default);
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let written = if real {
        let (traces, seed) = (next(if otlp { 1_430 } else { 2_150 }) as usize, next(42));
        if otlp {
            generate_real_otlp_lines(traces, seed).try_for_each(|line| writeln!(out, "{line}"))
        } else {
            generate_real_batch_lines(traces, seed).try_for_each(|line| writeln!(out, "{line}"))
        }
    } else {
        let (traces, per_trace, seed) = (next(5_000) as usize, next(20) as usize, next(42));
        if lines {
            generate_batch_lines(traces, per_trace, seed)
                .try_for_each(|line| writeln!(out, "{line}"))
        } else {
            out.write_all(generate_batch(traces, per_trace, seed).as_bytes())
        }
    };
    match written.and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("generate_batch: {err}");
            ExitCode::FAILURE
        }
    }
}

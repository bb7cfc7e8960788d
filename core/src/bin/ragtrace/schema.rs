//! `ragtrace schema NAME`: the JSON Schema of an output, for validating what ragtrace
//! writes or generating a client's types from it.

use super::EXIT_INPUT;
use clap::{Args, ValueEnum};
use ragtrace_core::output_schema;
use std::io::Write;
use std::process::ExitCode;

#[derive(Args)]
pub(crate) struct SchemaArgs {
    /// Which output's schema to print.
    #[arg(value_enum)]
    output: Output,
}

/// The outputs by their `ragtrace_core::OUTPUT_SCHEMAS` names.
#[derive(Clone, Copy, ValueEnum)]
enum Output {
    /// analyze's JSON (`--format jsonl`: each line but the last is one of its traces).
    Analysis,
    /// eval's report.json (with `comparison` under --baseline).
    Report,
    /// compare's compare.json, of two runs or of many.
    Compare,
    /// calibrate's calibration.json.
    Calibration,
    /// explain's explain.json.
    Explain,
    /// The batch view of partials, as merge prints it (and analyze --summary).
    Partial,
}

pub(crate) fn run(args: SchemaArgs) -> ExitCode {
    let name = args
        .output
        .to_possible_value()
        .map(|value| value.get_name().to_owned())
        .unwrap_or_default();
    let Some(schema) = output_schema(&name) else {
        eprintln!("ragtrace: no schema for {name}");
        return ExitCode::from(EXIT_INPUT);
    };
    let text = match serde_json::to_string_pretty(&schema) {
        Ok(text) => text,
        Err(err) => {
            eprintln!("ragtrace: cannot serialise the schema: {err}");
            return ExitCode::from(EXIT_INPUT);
        }
    };
    let mut out = std::io::stdout().lock();
    if let Err(err) = writeln!(out, "{text}").and_then(|()| out.flush()) {
        eprintln!("ragtrace: cannot write the schema: {err}");
        return ExitCode::from(EXIT_INPUT);
    }
    ExitCode::SUCCESS
}

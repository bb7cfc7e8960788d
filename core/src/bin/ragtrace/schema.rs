//! `ragtrace schema NAME`: the JSON Schema of an output, for validating what ragtrace
//! writes or generating a client's types from it.

use super::EXIT_INPUT;
use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::Args;
use ragtrace_core::{output_schema, OUTPUT_SCHEMAS};
use std::io::Write;
use std::process::ExitCode;

#[derive(Args)]
pub(crate) struct SchemaArgs {
    /// Which output's schema to print.
    #[arg(value_parser = outputs())]
    output: String,
}

/// The names `output_schema` knows, each with what it describes.
fn outputs() -> PossibleValuesParser {
    PossibleValuesParser::new(
        OUTPUT_SCHEMAS
            .iter()
            .map(|&(name, what)| PossibleValue::new(name).help(what)),
    )
}

pub(crate) fn run(args: SchemaArgs) -> ExitCode {
    let name = args.output;
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

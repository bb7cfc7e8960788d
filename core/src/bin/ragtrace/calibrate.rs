//! `ragtrace calibrate`: the level table, the gate as a classifier and suggested
//! settings against golden cases; writes calibration.json and calibration.md.

use super::{
    load_settings, print_input_errors, read_cases, read_inputs, write_file, SettingsArgs,
    EXIT_INPUT, EXIT_USAGE,
};
use clap::Args;
use ragtrace_core::{analyze, calibration, input};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub(crate) struct CalibrateArgs {
    /// The golden cases: a JSON array or {"cases": [...]}.
    #[arg(long, value_name = "CASES.json")]
    cases: PathBuf,
    #[command(flatten)]
    settings: SettingsArgs,
    /// Where calibration.json and calibration.md are written.
    #[arg(long, value_name = "DIR", default_value = ".")]
    out_dir: PathBuf,
    /// Trace files; '-' reads standard input.
    #[arg(value_name = "FILE", required = true)]
    files: Vec<String>,
}

pub(crate) fn run(args: CalibrateArgs) -> ExitCode {
    let settings = match load_settings(&args.settings) {
        Ok(settings) => settings,
        Err(message) => {
            eprintln!("ragtrace: {message}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let cases = match read_cases(&args.cases) {
        Ok(cases) => cases,
        Err(code) => return code,
    };
    let (docs, unreadable) = read_inputs(&args.files);
    let batch = input::parse_documents(&docs);
    print_input_errors(&batch.errors);
    let analysis = match analyze(&batch, &settings, false) {
        Ok(analysis) => analysis,
        Err(err) => {
            eprintln!("ragtrace: {err}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let result = calibration::calibrate(&cases, &analysis);
    let json = match serde_json::to_string_pretty(&result) {
        Ok(json) => json + "\n",
        Err(err) => {
            eprintln!("ragtrace: cannot serialise the calibration: {err}");
            return ExitCode::from(EXIT_INPUT);
        }
    };
    let written = write_file(&args.out_dir, "calibration.json", &json).and_then(|()| {
        write_file(
            &args.out_dir,
            "calibration.md",
            &calibration::markdown(&result),
        )
    });
    if let Err(message) = written {
        eprintln!("ragtrace: {message}");
        return ExitCode::from(EXIT_INPUT);
    }
    print!("{}", calibration::summary_text(&result));
    if unreadable || !batch.errors.is_empty() {
        ExitCode::from(EXIT_INPUT)
    } else {
        ExitCode::SUCCESS
    }
}

//! `ragtrace calibrate`: the level table, the gate as a classifier and suggested
//! settings against golden cases; writes calibration.json and calibration.md.

use super::{golden_inputs, write_report, GoldenInputs, SettingsArgs, EXIT_INPUT};
use clap::Args;
use ragtrace_core::{calibrate_with_floor_sweep, calibration_markdown, calibration_summary_text};
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
    let GoldenInputs {
        cases,
        analysis,
        partial,
    } = match golden_inputs(&args.settings, &args.cases, &args.files) {
        Ok(inputs) => inputs,
        Err(code) => return code,
    };
    let result = calibrate_with_floor_sweep(&cases, &analysis);
    if let Err(code) = write_report(
        &args.out_dir,
        "calibration",
        "calibration",
        &result,
        &calibration_markdown(&result),
    ) {
        return code;
    }
    print!("{}", calibration_summary_text(&result));
    if partial {
        ExitCode::from(EXIT_INPUT)
    } else {
        ExitCode::SUCCESS
    }
}

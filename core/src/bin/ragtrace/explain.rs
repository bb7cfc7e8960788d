//! `ragtrace explain`: for every candidate, level and golden case, the least change of
//! settings that flips it; writes explain.json and explain.md.

use super::{
    load_settings, print_input_errors, print_omitted_input_errors, read_cases, write_report,
    SettingsArgs,
};
use super::{EXIT_INPUT, EXIT_USAGE};
use clap::Args;
use ragtrace_core::{analyze, explain_analysis, explain_markdown, explain_summary_text};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub(crate) struct ExplainArgs {
    /// Golden cases (a JSON array or {"cases": [...]}): adds each case's cause and fix.
    #[arg(long, value_name = "CASES.json")]
    cases: Option<PathBuf>,
    #[command(flatten)]
    settings: SettingsArgs,
    /// Where explain.json and explain.md are written.
    #[arg(long, value_name = "DIR", default_value = ".")]
    out_dir: PathBuf,
    /// Trace files; '-' reads standard input.
    #[arg(value_name = "FILE", required = true)]
    files: Vec<String>,
}

pub(crate) fn run(args: ExplainArgs) -> ExitCode {
    let settings = match load_settings(&args.settings) {
        Ok(settings) => settings,
        Err(message) => {
            eprintln!("ragtrace: {message}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let cases = match args.cases.as_deref().map(read_cases).transpose() {
        Ok(cases) => cases,
        Err(code) => return code,
    };
    let (batch, unreadable) = super::read::read_batch(&args.files);
    print_input_errors(&batch.errors);
    print_omitted_input_errors(batch.errors.len(), &batch.errors_omitted);
    let explained = analyze(&batch, &settings, false)
        .and_then(|analysis| explain_analysis(&analysis, &settings, cases.as_ref()));
    let explained = match explained {
        Ok(explained) => explained,
        Err(err) => {
            eprintln!("ragtrace: {err}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    if let Err(code) = write_report(
        &args.out_dir,
        "explain",
        "explanation",
        &explained,
        &explain_markdown(&explained),
    ) {
        return code;
    }
    print!("{}", explain_summary_text(&explained));
    if unreadable || !batch.errors.is_empty() {
        ExitCode::from(EXIT_INPUT)
    } else {
        ExitCode::SUCCESS
    }
}

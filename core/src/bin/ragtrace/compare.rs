//! `ragtrace compare` and `ragtrace eval --baseline`: reading, flags and printing only;
//! the comparison is `ragtrace_core::runs`.

use super::read::read_batch;
use super::{load_settings, print_input_errors, read_cases, write_report, SettingsArgs};
use super::{EXIT_INPUT, EXIT_USAGE};
use clap::Args;
use ragtrace_core::GoldenReport;
use ragtrace_core::{
    add_significance, baseline_scores, case_scores, compare_golden, golden_gate, FailOn,
    GoldenComparison, ReportWithComparison, SignificanceOptions,
};
use ragtrace_core::{
    baseline_changes_markdown, baseline_changes_text, compare_batches, compare_markdown,
    compare_summary_text, CompareOptions, CompareReport,
};
use std::path::PathBuf;
use std::process::ExitCode;

/// The exit status of a tripped `--fail-on` gate.
pub(crate) const EXIT_GATE: u8 = 3;

#[derive(Args)]
pub(crate) struct CompareArgs {
    /// Run A's trace files (the baseline side).
    #[arg(long = "a", value_name = "FILE", required = true, num_args = 1..)]
    a: Vec<String>,
    /// Run B's trace files.
    #[arg(long = "b", value_name = "FILE", required = true, num_args = 1..)]
    b: Vec<String>,
    /// Golden cases: evaluate both runs and compare the evaluations.
    #[arg(long, value_name = "CASES.json")]
    cases: Option<PathBuf>,
    #[command(flatten)]
    settings: SettingsArgs,
    /// Where compare.json and compare.md are written.
    #[arg(long, value_name = "DIR", default_value = ".")]
    out_dir: PathBuf,
    #[command(flatten)]
    gate: GateArgs,
    /// RBO's persistence p, in (0, 1).
    #[arg(long, value_name = "P", default_value_t = 0.9)]
    rbo_p: f64,
}

#[derive(Args)]
pub(crate) struct GateArgs {
    /// Exit with status 3 when a case regressed (regression) or a metric's mean dropped
    /// with Holm-adjusted randomisation p < 0.05 (significant). Without cases, compare's
    /// `regression` is a pair whose recomputed level got worse.
    #[arg(long, value_name = "WHEN", default_value = "never", value_parser = ["regression", "significant", "never"])]
    fail_on: String,
}

impl GateArgs {
    fn fail_on(&self) -> FailOn {
        FailOn::parse(&self.fail_on).unwrap_or(FailOn::Never)
    }
}

#[derive(Args)]
pub(crate) struct BaselineArgs {
    /// A report.json saved by an earlier `ragtrace eval`: add the changes since it.
    #[arg(long, value_name = "REPORT.json")]
    baseline: Option<PathBuf>,
    #[command(flatten)]
    gate: GateArgs,
}

pub(crate) fn run_compare(args: CompareArgs) -> ExitCode {
    let settings = match load_settings(&args.settings) {
        Ok(settings) => settings,
        Err(message) => {
            eprintln!("ragtrace: {message}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let options = CompareOptions { rbo_p: args.rbo_p };
    if let Err(message) = options.validate() {
        eprintln!("ragtrace: --rbo-p: {message}");
        return ExitCode::from(EXIT_USAGE);
    }
    let cases = match args.cases.as_deref().map(read_cases).transpose() {
        Ok(cases) => cases,
        Err(code) => return code,
    };
    let (batch_a, unreadable_a) = read_batch(&args.a);
    let (batch_b, unreadable_b) = read_batch(&args.b);
    print_input_errors(&batch_a.errors);
    print_input_errors(&batch_b.errors);
    let report = match compare_batches(&batch_a, &batch_b, &settings, cases.as_ref(), &options) {
        Ok(report) => report,
        Err(err) => {
            eprintln!("ragtrace: {err}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    if let Err(code) = write_report(
        &args.out_dir,
        "compare",
        "comparison",
        &report,
        &compare_markdown(&report),
    ) {
        return code;
    }
    print!("{}", compare_summary_text(&report));
    if let Some(message) = &report.no_common_query {
        eprintln!("ragtrace: {message}");
    }
    if unreadable_a || unreadable_b || !batch_a.errors.is_empty() || !batch_b.errors.is_empty() {
        return ExitCode::from(EXIT_INPUT);
    }
    let fail_on = args.gate.fail_on();
    let tripped = match &report.golden {
        Some(golden) => golden_gate(golden, fail_on),
        None => level_gate(&report, fail_on),
    };
    gate_exit(tripped)
}

/// Without cases: `regression` trips on a pair whose recomputed level got worse.
fn level_gate(report: &CompareReport, fail_on: FailOn) -> Option<String> {
    if fail_on != FailOn::Regression {
        return None;
    }
    let worse = report
        .pairs
        .iter()
        .filter(|p| p.numbers.level_worsened())
        .count();
    (worse > 0).then(|| format!("{worse} pair(s) got a worse relevance level in run B"))
}

fn gate_exit(tripped: Option<String>) -> ExitCode {
    match tripped {
        Some(reason) => {
            eprintln!("ragtrace: --fail-on: {reason}");
            ExitCode::from(EXIT_GATE)
        }
        None => ExitCode::SUCCESS,
    }
}

/// `eval --baseline`: the comparison with the saved report, or the exit status of a
/// baseline that cannot be read (1) or is not a report.json (2).
pub(crate) fn baseline_comparison(
    args: &BaselineArgs,
    evaluation: &GoldenReport,
) -> Result<Option<GoldenComparison>, ExitCode> {
    let Some(path) = &args.baseline else {
        if args.gate.fail_on() != FailOn::Never {
            eprintln!("ragtrace: --fail-on needs --baseline REPORT.json (there is nothing to compare with)");
            return Err(ExitCode::from(EXIT_USAGE));
        }
        return Ok(None);
    };
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|err| {
        eprintln!("ragtrace: cannot read {name}: {err}");
        ExitCode::from(EXIT_INPUT)
    })?;
    let value: serde_json::Value = serde_json::from_str(&text).map_err(|err| {
        eprintln!(
            "ragtrace: {name}:{}:{}: the baseline is not JSON ({err}); expected a report.json written by `ragtrace eval`",
            err.line(),
            err.column()
        );
        ExitCode::from(EXIT_USAGE)
    })?;
    let baseline = baseline_scores(&value).map_err(|err| {
        eprintln!("ragtrace: {name}: {err}");
        ExitCode::from(EXIT_USAGE)
    })?;
    let mut comparison = compare_golden(&baseline, &case_scores(evaluation));
    add_significance(&mut comparison, &SignificanceOptions::default());
    Ok(Some(comparison))
}

/// report.json's text, with the `comparison` object when there is a baseline.
pub(crate) fn report_json(
    evaluation: &GoldenReport,
    comparison: Option<&GoldenComparison>,
) -> serde_json::Result<String> {
    let json = match comparison {
        Some(comparison) => serde_json::to_string_pretty(&ReportWithComparison {
            report: evaluation,
            comparison,
        }),
        None => serde_json::to_string_pretty(evaluation),
    };
    json.map(|json| json + "\n")
}

/// The "Changes since the baseline" section, or nothing.
pub(crate) fn baseline_markdown(comparison: Option<&GoldenComparison>) -> String {
    comparison.map_or_else(String::new, baseline_changes_markdown)
}

/// Prints the changes and applies the gate (after the files are written).
pub(crate) fn finish_baseline(
    args: &BaselineArgs,
    comparison: Option<&GoldenComparison>,
) -> ExitCode {
    let Some(comparison) = comparison else {
        return ExitCode::SUCCESS;
    };
    println!("changes since the baseline:");
    print!("{}", baseline_changes_text(comparison));
    gate_exit(golden_gate(comparison, args.gate.fail_on()))
}

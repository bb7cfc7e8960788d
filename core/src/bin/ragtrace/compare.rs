//! `ragtrace compare` and `ragtrace eval --baseline`: reading, flags and printing only;
//! the comparison is `ragtrace_core::runs`.

use super::read::read_batch;
use super::{
    load_settings, print_input_errors, print_omitted_input_errors, read_cases, write_report,
    SettingsArgs,
};
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
use ragtrace_core::{
    check_run_names, compare_many_batches, many_runs_gate, many_runs_markdown,
    many_runs_summary_text, ManyRunOptions,
};
use std::path::PathBuf;
use std::process::ExitCode;

/// The exit status of a tripped `--fail-on` gate.
pub(crate) const EXIT_GATE: u8 = 3;

#[derive(Args)]
pub(crate) struct CompareArgs {
    /// Run A's trace files (the baseline side).
    #[arg(long = "a", value_name = "FILE", required_unless_present = "run", conflicts_with = "run", num_args = 1..)]
    a: Vec<String>,
    /// Run B's trace files.
    #[arg(long = "b", value_name = "FILE", required_unless_present = "run", conflicts_with = "run", num_args = 1..)]
    b: Vec<String>,
    /// One of two or more runs to compare at once, as its name and trace file (repeat:
    /// `--run dense=dense.json --run hybrid=hybrid.json --run rerank=rerank.json`);
    /// needs --cases. Instead of --a and --b.
    #[arg(long = "run", value_name = "NAME=FILE", requires = "cases")]
    run: Vec<String>,
    /// With --run: the reference run of `--fail-on` (default: the first run).
    #[arg(long, value_name = "NAME", requires = "run")]
    baseline: Option<String>,
    /// Golden cases: evaluate the runs and compare the evaluations.
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
    /// `regression` is a pair whose recomputed level got worse. With --run, both trip
    /// when a run is significantly worse than the baseline run on some metric
    /// (randomised Tukey HSD p < 0.05).
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
    if !args.run.is_empty() {
        let Some(cases) = cases else {
            eprintln!("ragtrace: --run needs --cases CASES.json (the runs are compared by their evaluations)");
            return ExitCode::from(EXIT_USAGE);
        };
        return run_compare_many(&args, &settings, &cases);
    }
    let (batch_a, unreadable_a) = read_batch(&args.a);
    let (batch_b, unreadable_b) = read_batch(&args.b);
    print_input_errors(&batch_a.errors);
    print_omitted_input_errors(batch_a.errors.len(), &batch_a.errors_omitted);
    print_input_errors(&batch_b.errors);
    print_omitted_input_errors(batch_b.errors.len(), &batch_b.errors_omitted);
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

/// `NAME=FILE` split at the first `=`.
fn named_run(text: &str) -> Result<(&str, &str), String> {
    match text.split_once('=') {
        Some((name, file)) if !name.is_empty() && !file.is_empty() => Ok((name, file)),
        _ => Err(format!(
            "--run {text}: give the run's name and its trace file as NAME=FILE, e.g. --run dense=dense.json"
        )),
    }
}

/// `compare --run NAME=FILE --run ...`: many runs at once.
fn run_compare_many(
    args: &CompareArgs,
    settings: &ragtrace_core::Settings,
    cases: &ragtrace_core::CaseSet,
) -> ExitCode {
    let mut named = Vec::with_capacity(args.run.len());
    for text in &args.run {
        match named_run(text) {
            Ok(run) => named.push(run),
            Err(message) => {
                eprintln!("ragtrace: {message}");
                return ExitCode::from(EXIT_USAGE);
            }
        }
    }
    let names: Vec<&str> = named.iter().map(|(name, _)| *name).collect();
    if let Err(err) = check_run_names(&names) {
        eprintln!("ragtrace: --run: {}", err.message);
        return ExitCode::from(EXIT_USAGE);
    }
    let mut batches = Vec::with_capacity(named.len());
    let mut unreadable = false;
    for (_, file) in &named {
        let (batch, failed) = read_batch(&[(*file).to_owned()]);
        print_input_errors(&batch.errors);
        print_omitted_input_errors(batch.errors.len(), &batch.errors_omitted);
        unreadable |= failed || !batch.errors.is_empty();
        batches.push(batch);
    }
    let runs: Vec<(&str, &ragtrace_core::ParsedBatch)> =
        names.iter().copied().zip(&batches).collect();
    let options = ManyRunOptions {
        baseline: args.baseline.clone(),
        ..ManyRunOptions::default()
    };
    let comparison = match compare_many_batches(&runs, settings, cases, &options) {
        Ok(comparison) => comparison,
        Err(err) => {
            let flag = if err.path.starts_with("/baseline") {
                "--baseline"
            } else if err.path.starts_with("/config") {
                "settings"
            } else {
                "--run"
            };
            eprintln!("ragtrace: {flag}: {}", err.message);
            return ExitCode::from(if unreadable { EXIT_INPUT } else { EXIT_USAGE });
        }
    };
    if let Err(code) = write_report(
        &args.out_dir,
        "compare",
        "comparison",
        &comparison,
        &many_runs_markdown(&comparison),
    ) {
        return code;
    }
    print!("{}", many_runs_summary_text(&comparison));
    if unreadable {
        return ExitCode::from(EXIT_INPUT);
    }
    let tripped = match args.gate.fail_on() {
        FailOn::Never => None,
        FailOn::Regression | FailOn::Significant => many_runs_gate(&comparison),
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

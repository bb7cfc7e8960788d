//! `ragtrace`: the command-line shell over ragtrace-core (contract section 7).
//! All logic lives in the library; this file reads files, parses flags and prints.
#![warn(unreachable_pub)]

mod analyze;
mod calibrate;
mod compare;
mod explain;
mod merge;
mod read;
mod schema;

use clap::{Args, Parser, Subcommand};
use ragtrace_core::{
    analyze, evaluate_with_floor_sweep, golden_markdown, golden_summary_text, parse_cases,
    trec_qrels, trec_run, CaseSet, Settings, TREC_RUN_TAG,
};
use std::path::PathBuf;
use std::process::ExitCode;

/// Parsing allocates a few small strings per candidate; with glibc's allocator that
/// was a quarter of `analyze --summary`'s time, with mimalloc it is a fraction
/// (`bash scripts/bench-cli.sh` prints the figures).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "ragtrace",
    version,
    about = "Recompute RAG retrieval quality, order and relevance from traces"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Analyse traces and print the analysis as one JSON object (or streamed: see
    /// --format jsonl and --summary).
    Analyze(analyze::AnalyzeArgs),
    /// Evaluate traces against golden cases; write report.json and report.md.
    Eval(EvalArgs),
    /// Calibrate levels and the low-quality gate against golden cases; write
    /// calibration.json and calibration.md.
    Calibrate(calibrate::CalibrateArgs),
    /// Compare two runs (--a, --b) or many at once (--run NAME=FILE ...), trace sets for the
    /// same queries; write compare.json and compare.md.
    Compare(compare::CompareArgs),
    /// Merge partials (from `analyze --partial`) and print the batch view of all their
    /// traces, as `analyze --summary` prints it.
    Merge(merge::MergeArgs),
    /// For every candidate, level and golden case, the least change of settings that
    /// flips it; write explain.json and explain.md.
    Explain(explain::ExplainArgs),
    /// Print the JSON Schema of an output (analysis, report, compare, calibration,
    /// explain, partial).
    Schema(schema::SchemaArgs),
}

#[derive(Args)]
struct SettingsArgs {
    /// A JSON file of settings (keys of contract section 2, camelCase or snake_case).
    #[arg(long, value_name = "FILE.json")]
    config: Option<PathBuf>,
    /// Override one setting; repeatable, later wins.
    #[arg(long = "set", value_name = "key=value")]
    set: Vec<String>,
}

#[derive(Args)]
struct EvalArgs {
    /// The golden cases: a JSON array or {"cases": [...]}.
    #[arg(long, value_name = "CASES.json")]
    cases: PathBuf,
    #[command(flatten)]
    settings: SettingsArgs,
    /// Where report.json and report.md are written.
    #[arg(long, value_name = "DIR", default_value = ".")]
    out_dir: PathBuf,
    /// Also write qrels.txt and run.txt (TREC format) into this folder.
    #[arg(long, value_name = "DIR")]
    trec: Option<PathBuf>,
    #[command(flatten)]
    baseline: compare::BaselineArgs,
    /// Trace files (the runs); '-' reads standard input.
    #[arg(value_name = "FILE", required = true)]
    files: Vec<String>,
}

const EXIT_INPUT: u8 = 1;
const EXIT_USAGE: u8 = 2;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            let _ = err.print();
            return if err.use_stderr() {
                ExitCode::from(EXIT_USAGE)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match cli.command {
        Command::Analyze(args) => analyze::run_analyze(args),
        Command::Eval(args) => run_eval(args),
        Command::Calibrate(args) => calibrate::run(args),
        Command::Compare(args) => compare::run_compare(args),
        Command::Merge(args) => merge::run_merge(args),
        Command::Explain(args) => explain::run(args),
        Command::Schema(args) => schema::run(args),
    }
}

fn load_settings(args: &SettingsArgs) -> Result<Settings, String> {
    let mut settings = match &args.config {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|err| format!("cannot read {}: {err}", path.display()))?;
            Settings::from_json_text(&text).map_err(|err| format!("{}: {err}", path.display()))?
        }
        None => Settings::default(),
    };
    for item in &args.set {
        let (key, value) = item
            .split_once('=')
            .ok_or_else(|| format!("--set {item}: expected key=value"))?;
        settings
            .set(key, value)
            .map_err(|err| format!("--set {item}: {err}"))?;
    }
    Ok(settings)
}

/// Prints located input errors with the offending line and a caret under the column.
fn print_input_errors(errors: &[ragtrace_core::InputError]) {
    for error in errors {
        eprintln!("ragtrace: {error}");
        if let (Some(text), Some(caret)) = (&error.line_text, error.caret) {
            eprintln!("    {text}");
            eprintln!("    {}^", " ".repeat(caret));
        }
    }
}

/// After the listed input errors, when some were only counted: how many there were
/// in all, and how many of each code were not listed.
fn print_omitted_input_errors(listed: usize, omitted: &ragtrace_core::OmittedInputErrors) {
    if omitted.is_empty() {
        return;
    }
    let total = listed.saturating_add(ragtrace_core::omitted_total(omitted));
    let counts: Vec<String> = omitted
        .iter()
        .map(|(code, n)| format!("{} {code}", thousands(*n)))
        .collect();
    eprintln!(
        "ragtrace: {} inputs could not be used (the first {} are listed; not listed: {})",
        thousands(total),
        thousands(listed),
        counts.join(", ")
    );
}

/// `n` with a comma between groups of three digits: `2,000,000`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

fn write_file(dir: &std::path::Path, name: &str, contents: &str) -> Result<(), String> {
    std::fs::create_dir_all(dir)
        .map_err(|err| format!("cannot create {}: {err}", dir.display()))?;
    let path = dir.join(name);
    std::fs::write(&path, contents).map_err(|err| format!("cannot write {}: {err}", path.display()))
}

/// A report as `STEM.json` (pretty, with a final newline) and `STEM.md` in `dir`;
/// a failure is printed (naming what could not be serialised or written) and is
/// the exit status.
pub(crate) fn write_report<T: serde::Serialize>(
    dir: &std::path::Path,
    stem: &str,
    what: &str,
    report: &T,
    markdown: &str,
) -> Result<(), ExitCode> {
    let json = serde_json::to_string_pretty(report).map_err(|err| {
        eprintln!("ragtrace: cannot serialise the {what}: {err}");
        ExitCode::from(EXIT_INPUT)
    })? + "\n";
    write_file(dir, &format!("{stem}.json"), &json)
        .and_then(|()| write_file(dir, &format!("{stem}.md"), markdown))
        .map_err(|message| {
            eprintln!("ragtrace: {message}");
            ExitCode::from(EXIT_INPUT)
        })
}

/// A cases file read and parsed; its findings are printed, a failure is the exit status.
pub(crate) fn read_cases(path: &std::path::Path) -> Result<CaseSet, ExitCode> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|err| {
        eprintln!("ragtrace: cannot read {name}: {err}");
        ExitCode::from(EXIT_INPUT)
    })?;
    let cases = parse_cases(&name, &text).map_err(|errors| {
        print_input_errors(&errors);
        ExitCode::from(EXIT_INPUT)
    })?;
    for finding in &cases.diagnostics {
        let place = finding.path.as_deref().unwrap_or("");
        eprintln!("ragtrace: {name}{place}: {}", finding.message);
    }
    Ok(cases)
}

/// What `eval` and `calibrate` both read: the cases and the input files analysed
/// under the settings. `partial` when an input could not be read or parsed (the
/// rest is still analysed).
pub(crate) struct GoldenInputs {
    pub(crate) cases: CaseSet,
    pub(crate) analysis: ragtrace_core::Analysis,
    pub(crate) partial: bool,
}

pub(crate) fn golden_inputs(
    settings: &SettingsArgs,
    cases: &std::path::Path,
    files: &[String],
) -> Result<GoldenInputs, ExitCode> {
    let settings = load_settings(settings).map_err(|message| {
        eprintln!("ragtrace: {message}");
        ExitCode::from(EXIT_USAGE)
    })?;
    let cases = read_cases(cases)?;
    let (batch, unreadable) = read::read_batch(files);
    print_input_errors(&batch.errors);
    print_omitted_input_errors(batch.errors.len(), &batch.errors_omitted);
    let analysis = analyze(&batch, &settings, false).map_err(|err| {
        eprintln!("ragtrace: {err}");
        ExitCode::from(EXIT_USAGE)
    })?;
    Ok(GoldenInputs {
        cases,
        analysis,
        partial: unreadable || !batch.errors.is_empty(),
    })
}

fn run_eval(args: EvalArgs) -> ExitCode {
    let GoldenInputs {
        cases,
        analysis,
        partial,
    } = match golden_inputs(&args.settings, &args.cases, &args.files) {
        Ok(inputs) => inputs,
        Err(code) => return code,
    };
    let evaluation = evaluate_with_floor_sweep(&cases, &analysis);
    let baseline = match compare::baseline_comparison(&args.baseline, &evaluation) {
        Ok(baseline) => baseline,
        Err(code) => return code,
    };
    let json = match compare::report_json(&evaluation, baseline.as_ref()) {
        Ok(json) => json,
        Err(err) => {
            eprintln!("ragtrace: cannot serialise the report: {err}");
            return ExitCode::from(EXIT_INPUT);
        }
    };
    let mut written = write_file(&args.out_dir, "report.json", &json).and_then(|()| {
        write_file(
            &args.out_dir,
            "report.md",
            &(golden_markdown(&evaluation) + &compare::baseline_markdown(baseline.as_ref())),
        )
    });
    if let Some(dir) = &args.trec {
        written = written
            .and_then(|()| write_file(dir, "qrels.txt", &trec_qrels(&evaluation)))
            .and_then(|()| write_file(dir, "run.txt", &trec_run(&evaluation, TREC_RUN_TAG)));
    }
    if let Err(message) = written {
        eprintln!("ragtrace: {message}");
        return ExitCode::from(EXIT_INPUT);
    }
    print!("{}", golden_summary_text(&evaluation));
    let gate = compare::finish_baseline(&args.baseline, baseline.as_ref());
    if partial {
        ExitCode::from(EXIT_INPUT)
    } else {
        gate
    }
}

//! `ragtrace analyze`: one JSON object (the default), or streamed: one analysed trace
//! per line as the files are read with the batch view last (`--format jsonl`), or the
//! batch view alone (`--summary`). Streamed, memory is bounded by the longest trace
//! (and one chunk of the file), not by the file.

use super::read::{read_batch, read_document, read_partial, ReadError};
use super::{
    load_settings, print_input_errors, print_omitted_input_errors, SettingsArgs, EXIT_INPUT,
    EXIT_USAGE,
};
use clap::{Args, ValueEnum};
use ragtrace_core::{analyze, BatchAnalyzer, Partial, Settings};
use serde::Serialize;
use std::io::Write;
use std::process::ExitCode;

#[derive(Args)]
pub(crate) struct AnalyzeArgs {
    #[command(flatten)]
    settings: SettingsArgs,
    /// Add the threshold sweep.
    #[arg(long)]
    sweep: bool,
    /// json: one object with every trace; jsonl: one analysed trace per line as the
    /// files are read, then the batch object (configuration, summary, sweep, warnings,
    /// input errors, documents) as the last line.
    #[arg(long, value_enum, default_value_t = Format::Json)]
    format: Format,
    /// Print only the batch object: configuration, summary, sweep, warnings, input
    /// errors and documents, without the traces (read in bounded memory).
    #[arg(long)]
    summary: bool,
    /// Write the partial of the files (the batch view's counts, to merge with
    /// `ragtrace merge`) to this file instead of printing; it always keeps the sweep.
    #[arg(long, value_name = "OUT", conflicts_with_all = ["summary", "format"])]
    partial: Option<std::path::PathBuf>,
    /// With --partial: read each FILE as a run of lines of a JSON Lines document,
    /// starting at this line (a shard cut from a larger file, e.g. by `split -l`), so
    /// its input errors have the larger file's line numbers.
    #[arg(long, value_name = "N", requires = "partial", value_parser = clap::value_parser!(u64).range(1..))]
    first_line: Option<u64>,
    /// With --partial and one FILE: the name of the document it is (or whose lines it
    /// holds), reported instead of FILE's.
    #[arg(long, value_name = "NAME", requires = "partial")]
    source: Option<String>,
    /// Trace files; '-' reads standard input.
    #[arg(value_name = "FILE", required = true)]
    files: Vec<String>,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    Json,
    Jsonl,
}

pub(crate) fn run_analyze(args: AnalyzeArgs) -> ExitCode {
    let settings = match load_settings(&args.settings) {
        Ok(settings) => settings,
        Err(message) => {
            eprintln!("ragtrace: {message}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    if let Some(out) = &args.partial {
        if args.source.is_some() && args.files.len() != 1 {
            eprintln!(
                "ragtrace: --source names the document of one FILE; got {}",
                args.files.len()
            );
            return ExitCode::from(EXIT_USAGE);
        }
        let first_line = args
            .first_line
            .map(|n| usize::try_from(n).unwrap_or(usize::MAX));
        return write_partial(
            out,
            &args.files,
            &settings,
            args.source.as_deref(),
            first_line,
        );
    }
    if args.format == Format::Json && !args.summary {
        whole(&args, &settings)
    } else {
        streamed(&args, &settings)
    }
}

/// Reads everything, then prints one object.
fn whole(args: &AnalyzeArgs, settings: &Settings) -> ExitCode {
    let (batch, unreadable) = read_batch(&args.files);
    print_input_errors(&batch.errors);
    print_omitted_input_errors(batch.errors.len(), &batch.errors_omitted);
    let analysis = match analyze(&batch, settings, args.sweep) {
        Ok(analysis) => analysis,
        Err(err) => {
            eprintln!("ragtrace: {err}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    end(&mut out, &analysis, unreadable || !batch.errors.is_empty())
}

/// Analyses each part of each file as it is read and lets it go.
fn streamed(args: &AnalyzeArgs, settings: &Settings) -> ExitCode {
    let mut analyzer = match BatchAnalyzer::new(settings, args.sweep) {
        Ok(analyzer) => analyzer,
        Err(err) => {
            eprintln!("ragtrace: {err}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut unreadable = false;
    for file in &args.files {
        let read = read_document(file, |part| {
            let listed_before = analyzer.input_errors().len();
            let mut written = Ok(());
            analyzer.analyze_part(part, |trace| {
                if !args.summary && written.is_ok() {
                    written = write_line(&mut out, &trace);
                }
            });
            // Only the errors the analyzer keeps: the rest are counted, not printed.
            print_input_errors(analyzer.input_errors().get(listed_before..).unwrap_or(&[]));
            written
        });
        match read {
            Ok(()) => {}
            Err(ReadError::Input(err)) => {
                eprintln!("ragtrace: {file}: {err}");
                unreadable = true;
            }
            Err(ReadError::Output(err)) => {
                eprintln!("ragtrace: cannot write the analysis: {err}");
                return ExitCode::from(EXIT_INPUT);
            }
        }
    }
    let view = analyzer.finish();
    print_omitted_input_errors(view.input_errors.len(), &view.input_errors_omitted);
    let partial = unreadable || !view.input_errors.is_empty();
    end(&mut out, &view, partial)
}

/// Writes the partial of `files` to `out`: one partial per file, merged; named
/// `source`, and read as runs of lines from `first_line`, when given.
fn write_partial(
    out: &std::path::Path,
    files: &[String],
    settings: &Settings,
    source: Option<&str>,
    first_line: Option<usize>,
) -> ExitCode {
    let mut merged = match Partial::empty(settings) {
        Ok(empty) => empty,
        Err(err) => {
            eprintln!("ragtrace: {err}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let mut unreadable = false;
    for file in files {
        let partial = match read_partial(file, settings, source, first_line) {
            Ok(partial) => partial,
            Err(err) => {
                eprintln!("ragtrace: {file}: {err}");
                unreadable = true;
                continue;
            }
        };
        merged = match merged.merge_with(partial) {
            Ok(merged) => merged,
            Err(err) => {
                eprintln!("ragtrace: {file}: {err}");
                return ExitCode::from(EXIT_USAGE);
            }
        };
    }
    let view = merged.finish(false);
    print_input_errors(&view.input_errors);
    print_omitted_input_errors(view.input_errors.len(), &view.input_errors_omitted);
    if let Err(err) = std::fs::write(out, merged.to_bytes()) {
        eprintln!("ragtrace: cannot write {}: {err}", out.display());
        return ExitCode::from(EXIT_INPUT);
    }
    if unreadable || merged.input_error_count() > 0 {
        ExitCode::from(EXIT_INPUT)
    } else {
        ExitCode::SUCCESS
    }
}

/// Writes the last line; the exit status says whether every input was read.
pub(crate) fn end(out: &mut impl Write, last: &impl Serialize, partial: bool) -> ExitCode {
    if let Err(err) = write_line(out, last).and_then(|()| out.flush()) {
        eprintln!("ragtrace: cannot write the analysis: {err}");
        ExitCode::from(EXIT_INPUT)
    } else if partial {
        ExitCode::from(EXIT_INPUT)
    } else {
        ExitCode::SUCCESS
    }
}

/// `value` as compact JSON on one line.
fn write_line(out: &mut impl Write, value: &impl Serialize) -> std::io::Result<()> {
    serde_json::to_writer(&mut *out, value)?;
    writeln!(out)
}

//! `ragtrace merge`: partials made by `ragtrace analyze --partial` (or by any binding
//! of the core), merged, printed as the batch view `ragtrace analyze --summary`
//! prints for all their traces, or written as one partial (`--partial`).

use super::analyze::end;
use super::{print_input_errors, print_omitted_input_errors, EXIT_INPUT, EXIT_USAGE};
use clap::Args;
use ragtrace_core::Partial;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub(crate) struct MergeArgs {
    /// Add the threshold sweep.
    #[arg(long)]
    sweep: bool,
    /// Write the merged partial to this file instead of printing the summary (to
    /// merge it again later with others).
    #[arg(long, value_name = "OUT", conflicts_with = "sweep")]
    partial: Option<PathBuf>,
    /// Partial files, as `ragtrace analyze --partial` writes them.
    #[arg(value_name = "PARTIAL", required = true)]
    partials: Vec<PathBuf>,
}

pub(crate) fn run_merge(args: MergeArgs) -> ExitCode {
    let mut merged: Option<(Partial, &PathBuf)> = None;
    for path in &args.partials {
        let partial = match std::fs::read(path)
            .map_err(|err| err.to_string())
            .and_then(|bytes| Partial::from_bytes(&bytes).map_err(|err| err.to_string()))
        {
            Ok(partial) => partial,
            Err(message) => {
                eprintln!("ragtrace: {}: {message}", path.display());
                return ExitCode::from(EXIT_USAGE);
            }
        };
        merged = Some(match merged {
            None => (partial, path),
            Some((so_far, first)) => {
                if let Err(err) = so_far.check_mergeable(&partial) {
                    eprintln!(
                        "ragtrace: {} and {}: {err}",
                        first.display(),
                        path.display()
                    );
                    return ExitCode::from(EXIT_USAGE);
                }
                match so_far.merge_with(partial) {
                    Ok(merged) => (merged, first),
                    Err(err) => {
                        eprintln!("ragtrace: {}: {err}", path.display());
                        return ExitCode::from(EXIT_USAGE);
                    }
                }
            }
        });
    }
    let Some((merged, _)) = merged else {
        eprintln!("ragtrace: no partial to merge");
        return ExitCode::from(EXIT_USAGE);
    };
    let view = merged.finish(args.sweep);
    if let Some(out) = &args.partial {
        if let Err(err) = std::fs::write(out, merged.to_bytes()) {
            eprintln!("ragtrace: cannot write {}: {err}", out.display());
            return ExitCode::from(EXIT_INPUT);
        }
        return ExitCode::SUCCESS;
    }
    print_input_errors(&view.input_errors);
    print_omitted_input_errors(view.input_errors.len(), &view.input_errors_omitted);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    end(&mut out, &view, !view.input_errors.is_empty())
}

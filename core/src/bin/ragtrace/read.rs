//! Opening the input files (or standard input) for the core's chunked reader
//! (`ragtrace_core::read_document`).

use ragtrace_core::ReadError as CoreReadError;
use ragtrace_core::{ParsedBatch, Partial, PartialBuilder, Settings};
use std::io::Read;

/// Why reading an input stopped early.
pub(crate) enum ReadError {
    /// The input could not be opened or read.
    Input(std::io::Error),
    /// What the caller did with a part failed (writing it out).
    Output(std::io::Error),
}

/// Reads the input `file` (`-` is standard input, named `stdin`) and hands each part
/// of its document to `part` as it is read, the last one with the document's summary.
/// A refused file (not JSON at all) stops after its first chunk; its part holds the
/// error.
pub(crate) fn read_document(
    file: &str,
    part: impl FnMut(ParsedBatch) -> std::io::Result<()>,
) -> Result<(), ReadError> {
    let (source, input): (&str, Box<dyn Read>) = if file == "-" {
        ("stdin", Box::new(std::io::stdin().lock()))
    } else {
        let opened = std::fs::File::open(file).map_err(ReadError::Input)?;
        (file, Box::new(opened))
    };
    ragtrace_core::read_document(source, input, part).map_err(|err| match err {
        CoreReadError::Input(err) => ReadError::Input(err),
        CoreReadError::Part(err) => ReadError::Output(err),
    })
}

/// The partial of the input `file` (`-` is standard input) under `settings`, read in
/// chunks as [`read_document`] reads it, named `source` (else the file's name); with
/// `first_line`, as a run of lines of a JSON Lines document starting at that line.
/// The settings must be valid.
pub(crate) fn read_partial(
    file: &str,
    settings: &Settings,
    source: Option<&str>,
    first_line: Option<usize>,
) -> std::io::Result<Partial> {
    let source = source.unwrap_or(if file == "-" { "stdin" } else { file });
    let builder = match first_line {
        Some(first_line) => PartialBuilder::lines(settings, source, first_line),
        None => PartialBuilder::document(settings, source),
    }
    .map_err(|err| std::io::Error::new(std::io::ErrorKind::InvalidInput, err))?;
    if file == "-" {
        builder.read_from(std::io::stdin().lock())
    } else {
        builder.read_from(std::fs::File::open(file)?)
    }
}

/// Reads every file into one batch; a file that cannot be read is reported and left
/// out (`true` then).
pub(crate) fn read_batch(files: &[String]) -> (ParsedBatch, bool) {
    let mut batch = ParsedBatch::default();
    let mut unreadable = false;
    for file in files {
        let mut document = ParsedBatch::default();
        let read = read_document(file, |part| {
            document.extend(part);
            Ok(())
        });
        match read {
            Ok(()) => batch.extend(document),
            Err(ReadError::Input(err) | ReadError::Output(err)) => {
                eprintln!("ragtrace: {file}: {err}");
                unreadable = true;
            }
        }
    }
    (batch, unreadable)
}

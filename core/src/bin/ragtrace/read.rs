//! Reading input files as bytes, in chunks, through the core's `DocumentReader`: a
//! line that is not UTF-8 costs only that line, JSON Lines are parsed as they are
//! read, and a file that is not JSON is given up after its first chunk.

use ragtrace_core::DocumentReader;
use ragtrace_core::ParsedBatch;
use std::io::Read;

/// Bytes read at a time: large enough that a read costs little per byte, small
/// enough that a streamed analysis holds little besides the longest line.
const CHUNK: usize = 1 << 20;

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
    mut part: impl FnMut(ParsedBatch) -> std::io::Result<()>,
) -> Result<(), ReadError> {
    let (source, mut input): (&str, Box<dyn Read>) = if file == "-" {
        ("stdin", Box::new(std::io::stdin().lock()))
    } else {
        let opened = std::fs::File::open(file).map_err(ReadError::Input)?;
        (file, Box::new(opened))
    };
    let mut reader = DocumentReader::new(source);
    let mut buffer = vec![0; CHUNK];
    loop {
        let read = match input.read(&mut buffer) {
            Ok(0) => break,
            Ok(read) => read,
            Err(err) if err.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(err) => return Err(ReadError::Input(err)),
        };
        reader.push(buffer.get(..read).unwrap_or_default());
        if reader.refusal().is_some() {
            break;
        }
        part(reader.take_parsed()).map_err(ReadError::Output)?;
    }
    part(reader.finish()).map_err(ReadError::Output)
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

//! Reading a document from any byte stream (a file, standard input, a Python file
//! object) in chunks through [`DocumentReader`]: a line that is not UTF-8 costs only
//! that line, JSON Lines are parsed as they are read, and a document that is not JSON
//! is given up after its first chunk. Every shell that reads files reads them here.

use super::{DocumentReader, ParsedBatch};
use std::io::{ErrorKind, Read};

/// Bytes read at a time: large enough that a read costs little per byte, small
/// enough that a streamed analysis holds little besides the longest line.
pub const READ_CHUNK: usize = 1 << 20;

/// Why reading a document stopped early.
#[derive(Debug)]
pub enum ReadError<E> {
    /// The input could not be read.
    Input(std::io::Error),
    /// What the caller did with a part failed (writing it out, say).
    Part(E),
}

/// Reads the document named `source` from `input` and hands each part of it to
/// `part` as it is read, the last one with the document's summary (the parts
/// concatenated are [`parse_document`](super::parse_document) of the whole text). A
/// refused document (not JSON at all) stops after its first chunk; its part holds
/// the error.
pub fn read_document<E>(
    source: &str,
    mut input: impl Read,
    mut part: impl FnMut(ParsedBatch) -> Result<(), E>,
) -> Result<(), ReadError<E>> {
    let mut reader = DocumentReader::new(source);
    let mut buffer = vec![0; READ_CHUNK];
    loop {
        let read = match input.read(&mut buffer) {
            Ok(0) => break,
            Ok(read) => read,
            Err(err) if err.kind() == ErrorKind::Interrupted => continue,
            Err(err) => return Err(ReadError::Input(err)),
        };
        reader.push(buffer.get(..read).unwrap_or_default());
        if reader.refusal().is_some() {
            break;
        }
        part(reader.take_parsed()).map_err(ReadError::Part)?;
    }
    part(reader.finish()).map_err(ReadError::Part)
}

/// The whole document named `source` read from `input` as one batch.
pub fn read_batch(source: &str, input: impl Read) -> std::io::Result<ParsedBatch> {
    let mut batch = ParsedBatch::default();
    let read = read_document(source, input, |part| {
        batch.extend(part);
        Ok::<(), std::convert::Infallible>(())
    });
    match read {
        Ok(()) => Ok(batch),
        Err(ReadError::Input(err)) => Err(err),
        Err(ReadError::Part(never)) => match never {},
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::parse_document;

    /// A reader that hands out at most `step` bytes a call.
    struct Trickle<'a> {
        bytes: &'a [u8],
        step: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.step.min(buf.len()).min(self.bytes.len());
            buf[..n].copy_from_slice(&self.bytes[..n]);
            self.bytes = &self.bytes[n..];
            Ok(n)
        }
    }

    #[test]
    fn any_chunking_reads_as_the_whole_text() {
        let text = "{\"requestId\":\"a\",\"candidates\":[]}\nnot json\n{\"requestId\":\"b\",\"candidates\":[]}\n";
        let whole = parse_document("f", text);
        for step in [1, 3, 7, text.len()] {
            let read = read_batch(
                "f",
                Trickle {
                    bytes: text.as_bytes(),
                    step,
                },
            )
            .unwrap();
            assert_eq!(read.traces.len(), whole.traces.len());
            assert_eq!(read.errors, whole.errors);
        }
        assert_eq!(whole.traces.len(), 2);
        assert_eq!(whole.errors.len(), 1);
    }

    /// A reader that fails after handing out `good` bytes.
    struct Failing {
        good: Vec<u8>,
    }

    impl Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.good.is_empty() {
                return Err(std::io::Error::other("disk gone"));
            }
            let n = buf.len().min(self.good.len());
            buf[..n].copy_from_slice(&self.good[..n]);
            self.good.drain(..n);
            Ok(n)
        }
    }

    #[test]
    fn an_input_error_ends_reading_after_the_parts_read_before_it() {
        let good = "{\"requestId\":\"a\",\"candidates\":[]}\n"
            .repeat(3)
            .into_bytes();
        let mut traces = 0;
        let read = read_document("f", Failing { good }, |part| {
            traces += part.traces.len();
            Ok::<(), ()>(())
        });
        match read {
            Err(ReadError::Input(err)) => assert_eq!(err.to_string(), "disk gone"),
            other => panic!("expected an input error, got {other:?}"),
        }
        // Every line read before the error was handed on.
        assert_eq!(traces, 3);
    }

    #[test]
    fn a_failing_part_stops_an_endless_input() {
        let mut parts = 0;
        let read = read_document("f", std::io::repeat(b' '), |_| {
            parts += 1;
            Err("stop")
        });
        assert!(matches!(read, Err(ReadError::Part("stop"))));
        assert_eq!(parts, 1);
    }
}

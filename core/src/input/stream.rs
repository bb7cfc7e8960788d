//! Reading a document incrementally from its bytes, chunk by chunk, with the result
//! of [`parse_document`](super::parse_document) on the whole text.
//!
//! **The shape is decided as early as the text allows.** A document is JSON Lines
//! when its first non-blank line, trimmed, starts with `{` and ends with `}` and
//! another non-blank line follows (the rule of `parse_document`). So the reader keeps
//! every byte until it has seen either
//! - a first non-blank character other than `{`: one JSON document;
//! - the end of the first non-blank line: not `}`-ended, one JSON document;
//! - a non-blank character after that line: JSON Lines, and from then on every
//!   complete line is parsed as it arrives (a line split across chunks is joined);
//! - the end of the input: one JSON document (or an empty one).
//!
//! "Blank" means Unicode white space, as `str::trim` counts it. A single JSON
//! document is kept whole and parsed by [`DocumentReader::finish`].
//!
//! **OTLP spans** in JSON Lines are read line by line like traces; only retrieval
//! spans without documents wait for their parent or child, bounded (see
//! `shapes/otlp/nesting.rs`), and those still waiting become traces at `finish`.
//!
//! **TREC run files** (not JSON Lines, a first data line of six fields) are kept whole
//! and read by `trec_run` at `finish`, as `parse_document` reads them; they are never
//! refused, whatever their first character.
//!
//! **Refusal.** A document whose first non-blank character is not `{` is one JSON
//! document; when, in addition, its first byte other than JSON white space cannot
//! start a JSON value (or is not UTF-8), the document cannot be read at all, and
//! [`DocumentReader::refusal`] says so as soon as the line holding that byte is in
//! (or 1,608 bytes after it, enough for the excerpt): the caller may stop reading.
//! The error is the one `finish` would report for the whole input.
//!
//! **Bytes that are not UTF-8** are never replaced silently. In JSON Lines the line
//! holding them is an input error at its line and column (in characters, 1-based, of
//! the first bad byte) and every other line is read; in a single JSON document the
//! document is that error. When the JSON before the bad bytes is already malformed,
//! that earlier syntax error is the one reported (the first problem in reading order).

use super::builder::Builder;
use super::other_readers::trec_run_reader;
use super::trec_run;
use super::{parse_json_line, parse_single_document, parse_top, Unbuilt};
use crate::diagnostic::InputError;
use crate::input::{DocumentSummary, ParsedBatch};
use std::str::Utf8Error;

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Bytes after the byte that refuses a document that are enough to show its line's
/// excerpt exactly as the whole document would (at most 4 bytes per character:
/// 402 characters cover the excerpt's 300-character and 100 + 200-character windows).
const REFUSAL_LOOKAHEAD: usize = 4 * 402;

/// How far the reader knows the document's shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// Fewer bytes than a byte-order mark, all of them a prefix of one.
    Start,
    /// Only blank characters so far.
    Blank,
    /// The first non-blank line starts with `{`; its end is not in yet.
    FirstLine,
    /// The first non-blank line is `{...}`: one more non-blank line makes JSON Lines.
    SecondLine,
    /// JSON Lines: `pending` holds the start of a line not yet complete.
    Lines,
    /// One JSON document: `pending` holds all of it so far.
    Single,
}

/// Reads one document from its bytes, fed in chunks of any size.
///
/// Feeding every byte with [`push`](Self::push) and calling [`finish`](Self::finish)
/// gives, for any chunking, the batch `parse_document` gives for the whole text
/// (`finish`'s part concatenated after those of [`take_parsed`](Self::take_parsed)
/// with [`ParsedBatch::extend`] or [`ParsedBatch::concat`]).
pub struct DocumentReader {
    builder: Builder,
    shape: Shape,
    /// Bytes not parsed yet (after a byte-order mark): see [`Shape`].
    pending: Vec<u8>,
    /// Where the look at `pending` resumes; what precedes it was looked at.
    scan: usize,
    /// JSON Lines: the 0-based index of the line that starts `pending`.
    line_index: usize,
    bytes_read: u64,
    traces_drained: usize,
    /// The offset in `pending` of the byte that refuses the document, until the
    /// refusal's error is known.
    refusing_at: Option<usize>,
    refusal: Option<InputError>,
}

impl DocumentReader {
    /// A reader of the document named `source` (a file name, `stdin`, `pasted text`).
    pub fn new(source: &str) -> Self {
        DocumentReader {
            builder: Builder::new(source),
            shape: Shape::Start,
            pending: Vec::new(),
            scan: 0,
            line_index: 0,
            bytes_read: 0,
            traces_drained: 0,
            refusing_at: None,
            refusal: None,
        }
    }

    /// A reader of lines `first_line`, `first_line + 1`, ... of a JSON Lines document
    /// named `source`: a shard of a larger file, read as the whole file's reader reads
    /// those lines (same traces, same input errors at the same lines). Its shape is
    /// JSON Lines from the start, so it never reports an empty document; a byte-order
    /// mark is taken off line 1 only.
    pub fn lines(source: &str, first_line: usize) -> Self {
        let mut reader = DocumentReader::new(source);
        reader.shape = Shape::Lines;
        reader.line_index = first_line.saturating_sub(1);
        reader
    }

    /// Feeds the next chunk of the document's bytes. Complete JSON Lines are parsed
    /// now (a line split across chunks is joined), so the work is proportional to the
    /// chunk; a single JSON document is kept for [`finish`](Self::finish).
    pub fn push(&mut self, chunk: &[u8]) {
        self.bytes_read += chunk.len() as u64;
        if self.shape == Shape::Lines {
            self.push_lines(chunk);
        } else {
            self.pending.extend_from_slice(chunk);
            self.advance(false);
        }
    }

    /// The traces and input errors read since the last call, as a part of the
    /// document: its trace positions count from the part's start and its `documents`
    /// is empty (the document's summary comes with `finish`; so far it is
    /// [`document_summary`](Self::document_summary)). A caller that keeps memory
    /// bounded analyses each part and drops it; one that keeps everything extends a
    /// batch with it.
    pub fn take_parsed(&mut self) -> ParsedBatch {
        let part = self.builder.drain();
        self.traces_drained += part.traces.len();
        part
    }

    /// Set as soon as the first bytes show that the document is not JSON at all (see
    /// the module's documentation): the caller can stop reading; `finish` then
    /// returns this error.
    pub fn refusal(&self) -> Option<&InputError> {
        self.refusal.as_ref()
    }

    /// Bytes fed so far.
    pub fn bytes_read(&self) -> u64 {
        self.bytes_read
    }

    /// Traces parsed so far, taken ones included.
    pub fn traces_parsed(&self) -> usize {
        self.traces_drained + self.builder.trace_count()
    }

    /// What the document has contributed so far, taken parts included.
    pub fn document_summary(&self) -> DocumentSummary {
        self.builder.summary()
    }

    /// Ends the document: parses what is kept (the last line of JSON Lines, or the
    /// whole single document) and returns the last part, with the document's summary.
    pub fn finish(mut self) -> ParsedBatch {
        self.advance(true);
        match self.shape {
            Shape::Lines => {
                let last = std::mem::take(&mut self.pending);
                if !last.is_empty() {
                    self.line(&last, false);
                }
            }
            Shape::Single => {
                if is_trec_run(&self.pending) {
                    return match trec_run_reader() {
                        Some(read) => trec_run::parse_trec_run_bytes(
                            &self.builder.source,
                            &self.pending,
                            read,
                        ),
                        None => ParsedBatch::default(),
                    };
                }
                parse_single_bytes(&mut self.builder, &self.pending)
            }
            // `advance` at the end leaves only these two, or nothing but blanks.
            Shape::Start | Shape::Blank | Shape::FirstLine | Shape::SecondLine => {
                self.builder.empty_document()
            }
        }
        self.builder.finish()
    }

    /// Moves the shape on as far as `pending` allows (`at_end`: no more bytes come).
    fn advance(&mut self, at_end: bool) {
        loop {
            match self.shape {
                Shape::Start => {
                    if !at_end && self.pending.len() < BOM.len() && BOM.starts_with(&self.pending) {
                        return;
                    }
                    if self.pending.starts_with(BOM) {
                        self.pending.drain(..BOM.len());
                    }
                    self.shape = Shape::Blank;
                    self.scan = 0;
                }
                Shape::Blank => match first_non_blank(&self.pending, self.scan, at_end) {
                    NonBlank::NeedMore(at) => {
                        self.scan = at;
                        return;
                    }
                    NonBlank::None => return,
                    NonBlank::At(at, Some('{')) => {
                        self.shape = Shape::FirstLine;
                        self.scan = at + 1;
                    }
                    NonBlank::At(_, _) => {
                        self.shape = Shape::Single;
                        self.refusing_at = refusing_byte(&self.pending);
                        self.check_refusal(at_end);
                    }
                },
                Shape::FirstLine => {
                    let rest = self.pending.get(self.scan..).unwrap_or_default();
                    match memchr::memchr(b'\n', rest) {
                        Some(offset) => {
                            let end = self.scan + offset;
                            let line = self.pending.get(..end).unwrap_or_default();
                            let start = memchr::memrchr(b'\n', line).map_or(0, |i| i + 1);
                            if ends_with_closing_brace(line.get(start..).unwrap_or_default()) {
                                self.shape = Shape::SecondLine;
                                self.scan = end + 1;
                            } else {
                                self.shape = Shape::Single;
                            }
                        }
                        None if at_end => self.shape = Shape::Single,
                        None => {
                            self.scan = self.pending.len();
                            return;
                        }
                    }
                }
                Shape::SecondLine => match first_non_blank(&self.pending, self.scan, at_end) {
                    NonBlank::NeedMore(at) => {
                        self.scan = at;
                        return;
                    }
                    NonBlank::None => self.shape = Shape::Single,
                    NonBlank::At(_, _) => {
                        self.shape = Shape::Lines;
                        let kept = std::mem::take(&mut self.pending);
                        self.push_lines(&kept);
                        return;
                    }
                },
                Shape::Single => {
                    self.check_refusal(at_end);
                    return;
                }
                Shape::Lines => return,
            }
        }
    }

    /// Sets the refusal once enough of the refusing byte's line is in.
    fn check_refusal(&mut self, at_end: bool) {
        let Some(at) = self.refusing_at else {
            return;
        };
        let after = self.pending.get(at..).unwrap_or_default();
        if at_end || after.len() >= REFUSAL_LOOKAHEAD || memchr::memchr(b'\n', after).is_some() {
            self.refusing_at = None;
            // A run file's qid may start with any character, and its comments with `#`.
            if self.pending.get(at) == Some(&b'#') || is_trec_run(&self.pending) {
                return;
            }
            let mut trial = Builder::new(&self.builder.source);
            parse_single_bytes(&mut trial, &self.pending);
            self.refusal = trial.errors.into_iter().next();
        }
    }

    /// JSON Lines: parses the complete lines of `pending` + `chunk`, keeps the rest.
    fn push_lines(&mut self, chunk: &[u8]) {
        let mut rest = chunk;
        if !self.pending.is_empty() {
            let Some(end) = memchr::memchr(b'\n', rest) else {
                self.pending.extend_from_slice(rest);
                return;
            };
            let mut joined = std::mem::take(&mut self.pending);
            joined.extend_from_slice(rest.get(..end).unwrap_or_default());
            self.line(&joined, true);
            joined.clear();
            // Kept for its capacity: the next split line reuses it.
            self.pending = joined;
            rest = rest.get(end + 1..).unwrap_or_default();
        }
        while let Some(end) = memchr::memchr(b'\n', rest) {
            self.line(rest.get(..end).unwrap_or_default(), true);
            rest = rest.get(end + 1..).unwrap_or_default();
        }
        self.pending.extend_from_slice(rest);
    }

    /// One JSON Lines line without its `\n` (`ended`: it had one, so a `\r` before it
    /// is part of the line ending, as `str::lines` counts).
    fn line(&mut self, bytes: &[u8], ended: bool) {
        let index = self.line_index;
        self.line_index += 1;
        let bytes = match bytes.split_last() {
            Some((b'\r', head)) if ended => head,
            _ => bytes,
        };
        // A whole document's mark is gone by now; a shard's line 1 still has it.
        let bytes = match bytes.strip_prefix(BOM) {
            Some(rest) if index == 0 => rest,
            _ => bytes,
        };
        match utf8(bytes) {
            Ok(text) if text.trim().is_empty() => {}
            Ok(text) => parse_json_line(&mut self.builder, index, text),
            Err(err) => bad_bytes(&mut self.builder, bytes, err, index),
        }
    }
}

/// Reads one document from its bytes: [`DocumentReader`] fed everything at once.
pub fn parse_document_bytes(source: &str, bytes: &[u8]) -> ParsedBatch {
    let mut reader = DocumentReader::new(source);
    reader.push(bytes);
    reader.finish()
}

/// A whole single JSON document from its bytes.
fn parse_single_bytes(builder: &mut Builder, bytes: &[u8]) {
    match utf8(bytes) {
        Ok(text) => parse_single_document(builder, text),
        Err(err) => bad_bytes(builder, bytes, err, 0),
    }
}

/// `bytes` as text, checked with SIMD where there is some; on bad bytes std's check
/// again, for the place of the first one.
fn utf8(bytes: &[u8]) -> Result<&str, Utf8Error> {
    #[cfg(not(target_arch = "wasm32"))]
    if let Ok(text) = simdutf8::basic::from_utf8(bytes) {
        return Ok(text);
    }
    std::str::from_utf8(bytes)
}

/// A document or line (after `lines_before` lines of its document) that is not UTF-8:
/// the syntax error before the bad bytes if there is one, else the bad bytes.
fn bad_bytes(builder: &mut Builder, bytes: &[u8], err: Utf8Error, lines_before: usize) {
    let good = bytes.get(..err.valid_up_to()).unwrap_or_default();
    let good = std::str::from_utf8(good).unwrap_or_default();
    // Shown in the error's excerpt only, where the caret points at the bad bytes.
    let shown = String::from_utf8_lossy(bytes);
    if let Err(syntax) = parse_top(good, &mut Unbuilt) {
        if syntax.error.classify() != serde_json::error::Category::Eof {
            builder.json_error(&syntax, &shown, lines_before);
            return;
        }
    }
    let line_start = good.rfind('\n').map_or(0, |i| i + 1);
    let line_in_text = good.matches('\n').count();
    let column = good.get(line_start..).unwrap_or_default().chars().count() + 1;
    let bad = bytes
        .get(err.valid_up_to()..)
        .unwrap_or_default()
        .iter()
        .take(err.error_len().unwrap_or(4))
        .map(|b| format!("0x{b:02X}"))
        .collect::<Vec<_>>()
        .join(" ");
    let message = match err.error_len() {
        Some(1) => format!("not UTF-8: byte {bad} is not a character here (ragtrace reads UTF-8 text only)"),
        Some(_) => format!("not UTF-8: bytes {bad} are not a character (ragtrace reads UTF-8 text only)"),
        None => format!("not UTF-8: the text ends inside a character, bytes {bad} (ragtrace reads UTF-8 text only)"),
    };
    builder.unreadable(
        lines_before + line_in_text + 1,
        column,
        message,
        shown.lines().nth(line_in_text).unwrap_or(""),
    );
}

/// Where the first non-blank character is.
enum NonBlank {
    /// At this offset; `None` for bytes that are not UTF-8.
    At(usize, Option<char>),
    /// Only blanks up to this offset, where a character may be incomplete.
    NeedMore(usize),
    /// Only blanks, to the end.
    None,
}

/// The first character from `from` on that is not Unicode white space.
fn first_non_blank(bytes: &[u8], from: usize, at_end: bool) -> NonBlank {
    let mut at = from;
    loop {
        let rest = bytes.get(at..).unwrap_or_default();
        let Some(&first) = rest.first() else {
            return if at_end {
                NonBlank::None
            } else {
                NonBlank::NeedMore(at)
            };
        };
        if first.is_ascii() {
            if !(first as char).is_whitespace() {
                return NonBlank::At(at, Some(first as char));
            }
            at += 1;
            continue;
        }
        match first_char(rest) {
            Char::Valid(c, _) if !c.is_whitespace() => return NonBlank::At(at, Some(c)),
            Char::Valid(_, len) => at += len,
            Char::Incomplete if !at_end => return NonBlank::NeedMore(at),
            Char::Incomplete | Char::Invalid => return NonBlank::At(at, None),
        }
    }
}

enum Char {
    Valid(char, usize),
    Incomplete,
    Invalid,
}

/// The character `bytes` start with.
fn first_char(bytes: &[u8]) -> Char {
    let head = bytes.get(..bytes.len().min(4)).unwrap_or_default();
    let (text, err) = match std::str::from_utf8(head) {
        Ok(text) => (text, None),
        Err(err) => (
            std::str::from_utf8(head.get(..err.valid_up_to()).unwrap_or_default())
                .unwrap_or_default(),
            Some(err),
        ),
    };
    match (text.chars().next(), err) {
        (Some(c), _) => Char::Valid(c, c.len_utf8()),
        (None, Some(err)) if err.error_len().is_none() => Char::Incomplete,
        _ => Char::Invalid,
    }
}

/// Whether `line`, trimmed of Unicode white space, ends with `}` (bytes that are not
/// UTF-8 at its end are no `}`).
fn ends_with_closing_brace(line: &[u8]) -> bool {
    let mut end = line.len();
    while end > 0 {
        // Back to the start of the last character: over at most three continuation bytes.
        let mut start = end - 1;
        while start > 0
            && end - start < 4
            && line
                .get(start)
                .is_some_and(|b| b & 0b1100_0000 == 0b1000_0000)
        {
            start -= 1;
        }
        match std::str::from_utf8(line.get(start..end).unwrap_or_default()) {
            Ok(text) => match text.chars().next() {
                Some(c) if c.is_whitespace() => end = start,
                Some(c) => return c == '}',
                None => return false,
            },
            Err(_) => return false,
        }
    }
    false
}

/// In a document that is not JSON Lines: the offset of its first byte other than JSON
/// white space when that byte cannot start a JSON value (the parser fails right
/// there, whatever follows).
/// Whether a document that is not JSON Lines is a TREC run file: its first data line,
/// read as `parse_document` reads it.
fn is_trec_run(bytes: &[u8]) -> bool {
    let starts_as_json = bytes
        .iter()
        .find(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
        .is_some_and(|b| matches!(b, b'{' | b'['));
    !starts_as_json && trec_run::looks_like_trec_run(&String::from_utf8_lossy(bytes))
}

fn refusing_byte(bytes: &[u8]) -> Option<usize> {
    let at = bytes
        .iter()
        .position(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'))?;
    let starts_a_value = matches!(
        bytes.get(at),
        Some(b'{' | b'[' | b'"' | b'-' | b'0'..=b'9' | b't' | b'f' | b'n')
    );
    (!starts_a_value).then_some(at)
}

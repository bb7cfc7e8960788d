//! Making a partial from bytes fed in chunks: the reader and the analyzer of
//! `ragtrace analyze --summary`, so a partial counts exactly what it counts.

use super::Partial;
use crate::analysis::BatchAnalyzer;
use crate::config::{ConfigError, Settings};
use crate::diagnostic::InputError;
use crate::input::DocumentReader;

/// Bytes a builder reads before it analyses what they hold: large enough that a part
/// costs little per trace, small enough that memory stays bounded.
const PART_BYTES: u64 = 1 << 20;

/// Builds a [`Partial`] of one document, or of a run of lines of one, from its bytes
/// fed in chunks of any size; memory is bounded by the longest line and a megabyte.
pub struct PartialBuilder {
    settings: Settings,
    analyzer: BatchAnalyzer,
    reader: DocumentReader,
    first_line: usize,
    /// `reader.bytes_read()` when its parsed traces were last analysed.
    analysed_at: u64,
}

impl PartialBuilder {
    /// A builder of lines `first_line`, `first_line + 1`, ... of the JSON Lines
    /// document `source` (see [`DocumentReader::lines`]). `Err` only when the
    /// settings are invalid.
    pub fn lines(
        settings: &Settings,
        source: &str,
        first_line: usize,
    ) -> Result<PartialBuilder, ConfigError> {
        Self::new(
            settings,
            DocumentReader::lines(source, first_line),
            first_line,
        )
    }

    /// A builder of the whole document `source`, of any shape, read as `ragtrace
    /// analyze` reads a file. `Err` only when the settings are invalid.
    pub fn document(settings: &Settings, source: &str) -> Result<PartialBuilder, ConfigError> {
        Self::new(settings, DocumentReader::new(source), 1)
    }

    fn new(
        settings: &Settings,
        reader: DocumentReader,
        first_line: usize,
    ) -> Result<PartialBuilder, ConfigError> {
        Ok(PartialBuilder {
            settings: settings.clone(),
            // The sweep is always counted: whoever finishes the merge decides to show it.
            analyzer: BatchAnalyzer::new(settings, true)?,
            reader,
            first_line,
            analysed_at: 0,
        })
    }

    /// The next bytes of the document; a line may run across chunks.
    pub fn push_chunk(&mut self, bytes: &[u8]) {
        self.reader.push(bytes);
        if self.reader.bytes_read() - self.analysed_at >= PART_BYTES {
            self.analyse_parsed();
        }
    }

    /// The next line, with or without its line end (one is added when missing).
    pub fn push_line(&mut self, line: &[u8]) {
        self.push_chunk(line);
        if !line.ends_with(b"\n") {
            self.push_chunk(b"\n");
        }
    }

    /// Set when the first bytes show that a whole document is not JSON at all: the
    /// rest need not be read (see [`DocumentReader::refusal`]).
    pub fn refusal(&self) -> Option<&InputError> {
        self.reader.refusal()
    }

    fn analyse_parsed(&mut self) {
        self.analysed_at = self.reader.bytes_read();
        let part = self.reader.take_parsed();
        self.analyzer.analyze_part(part, |_| {});
    }

    /// Feeds everything `input` holds, in chunks of
    /// [`READ_CHUNK`](crate::input::READ_CHUNK) bytes (a whole document that is not
    /// JSON at all is given up after its first chunk), and finishes. `Err` when the
    /// input cannot be read.
    pub fn read_from(mut self, mut input: impl std::io::Read) -> std::io::Result<Partial> {
        let mut buffer = vec![0; crate::input::READ_CHUNK];
        while self.refusal().is_none() {
            let read = match input.read(&mut buffer) {
                Ok(0) => break,
                Ok(read) => read,
                Err(err) if err.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(err) => return Err(err),
            };
            self.push_chunk(buffer.get(..read).unwrap_or_default());
        }
        Ok(self.finish())
    }

    /// The partial of everything fed.
    pub fn finish(mut self) -> Partial {
        self.analyse_parsed();
        let mut last = self.reader.finish();
        let document = last.documents.pop();
        self.analyzer.analyze_part(last, |_| {});
        let config = *self.analyzer.config();
        let counts = self.analyzer.into_counts();
        let document = document.unwrap_or_else(|| crate::input::DocumentSummary {
            source: String::new(),
            traces: 0,
            candidates: 0,
            errors: 0,
            skipped_spans: 0,
        });
        Partial::of_piece(self.settings, config, document, self.first_line, counts)
    }
}

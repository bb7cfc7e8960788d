//! Pieces: the documents, or runs of lines of one, that partials are made of, and
//! the batch order they merge in.

use crate::input::DocumentSummary;
use serde::{Deserialize, Serialize};

/// One document, or one run of lines of a document. The field order is the batch
/// order of pieces: by source, then first line; the rest only orders pieces of the
/// same place (the same lines merged twice), so that merging stays deterministic.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Piece {
    pub(super) source: String,
    pub(super) first_line: usize,
    /// Trace positions handed out: traces analysed, and those that failed to read.
    pub(super) slots: usize,
    pub(super) traces: usize,
    pub(super) candidates: usize,
    pub(super) errors: usize,
    /// OTLP spans skipped as neither retrieval nor reranker spans. Absent in partials
    /// of documents without any, so their bytes are those of a ragtrace without spans.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub(super) skipped_spans: usize,
    /// A digest of what was counted of the piece.
    pub(super) fingerprint: u64,
}

impl Piece {
    pub(super) fn new(document: DocumentSummary, first_line: usize, slots: usize) -> Piece {
        Piece {
            source: document.source,
            first_line,
            slots,
            traces: document.traces,
            candidates: document.candidates,
            errors: document.errors,
            skipped_spans: document.skipped_spans,
            fingerprint: 0,
        }
    }
}

fn is_zero(count: &usize) -> bool {
    *count == 0
}

/// Every piece of `parts`, in batch order, and for each part where its pieces went
/// (`moved[part][piece]`).
pub(super) fn merge_pieces(parts: &[&[Piece]]) -> (Vec<Piece>, Vec<Vec<usize>>) {
    let mut order: Vec<(usize, usize)> = parts
        .iter()
        .enumerate()
        .flat_map(|(p, pieces)| (0..pieces.len()).map(move |i| (p, i)))
        .collect();
    let piece = |&(p, i): &(usize, usize)| parts.get(p).and_then(|pieces| pieces.get(i));
    order.sort_by(|a, b| piece(a).cmp(&piece(b)));
    let mut moved: Vec<Vec<usize>> = parts.iter().map(|p| vec![0; p.len()]).collect();
    for (at, &(p, i)) in order.iter().enumerate() {
        if let Some(slot) = moved.get_mut(p).and_then(|m| m.get_mut(i)) {
            *slot = at;
        }
    }
    let pieces = order.iter().filter_map(|at| piece(at).cloned()).collect();
    (pieces, moved)
}

/// The positions handed out before each piece.
pub(super) fn offsets(pieces: &[Piece]) -> Vec<usize> {
    pieces
        .iter()
        .scan(0usize, |before, piece| {
            let offset = *before;
            *before = before.saturating_add(piece.slots);
            Some(offset)
        })
        .collect()
}

/// Whether `pieces` are in batch order (checked on decoding).
pub(super) fn in_order(pieces: &[Piece]) -> bool {
    pieces.windows(2).all(|w| w[0] <= w[1])
}

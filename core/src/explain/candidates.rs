//! Each candidate's counterfactuals: what accepts a candidate not accepted, and what
//! drops an accepted one.

use super::change::Change;
use super::tables::Tables;
use super::trace::least_pairs;
use super::{CandidateExplanation, SetIf, SetIfList, Work};
use crate::pipeline::{Status, StatusReason};
use crate::trace_analysis::TraceAnalysis;
use std::borrow::Cow;

pub(crate) fn candidates(
    t: &TraceAnalysis,
    tables: &Tables,
    work: &mut Work,
) -> Vec<CandidateExplanation> {
    let (cap, return_n) = (tables.cap, tables.return_n);
    let candidates = t.trace.candidates();
    let hot = t.trace.hot();
    let Work {
        first_of_doc,
        input_indices,
        doc_ids,
        reasons,
        changes,
        ..
    } = work;
    // In a large batch every candidate read is a cache miss: what the entries read of
    // their candidates is read first, in short loops that have many misses in flight,
    // where the loop that builds the entries would wait for each. Every entry of a
    // document shares its first candidate's docId `Arc`, cloned before any entry is
    // written: a clone writes the count atomically, which waits for every write before
    // it, and the entries are written to memory not yet in cache.
    first_of_doc.clear();
    first_of_doc.resize(t.trace.doc_count(), usize::MAX);
    for h in hot {
        if let Some(first) = first_of_doc.get_mut(h.doc_slot) {
            if *first == usize::MAX {
                *first = h.index;
            }
        }
    }
    input_indices.clear();
    input_indices.extend(
        hot.iter()
            .map(|h| candidates.get(h.index).map(|c| c.input_index)),
    );
    for &first in first_of_doc.iter() {
        if let Some(c) = candidates.get(first) {
            std::hint::black_box(c.doc_id.as_bytes().first().copied());
        }
    }
    doc_ids.clear();
    doc_ids.extend(hot.iter().map(|h| {
        let first = first_of_doc
            .get(h.doc_slot)
            .and_then(|&first| candidates.get(first));
        first.or(candidates.get(h.index)).map(|c| c.doc_id.clone())
    }));
    // Sized once: growing it would free the smaller buffers as it goes, and the
    // allocator then merges them again on the next large request.
    let mut out = Vec::with_capacity(hot.len());
    // The hot entries, not the blocks: a block computes its quality again when built.
    let explained = t
        .trace
        .hot()
        .iter()
        .zip(&tables.status)
        .enumerate()
        .filter_map(|(j, (h, &status))| Some((j, candidates.get(h.index)?, status)))
        .map(|(j, candidate, status)| {
            // Built in one buffer, then held in place by the entry (see `SetIfList`).
            changes.clear();
            let reason = match status {
                Status::Duplicate | Status::Invalid => {
                    let why = if status == Status::Duplicate {
                        "evidence dedup is not a setting"
                    } else {
                        "a candidate with an invalid rank is never accepted"
                    };
                    let status_reason = t.status_reason_at(j);
                    // A duplicate's sentence names only the rank it repeats: written once
                    // per rank, then copied.
                    let known = match &status_reason {
                        Some(reason @ StatusReason::Duplicate { .. }) => reasons
                            .iter()
                            .find(|(r, _)| r == reason)
                            .map(|(_, text)| text.clone()),
                        _ => None,
                    };
                    Some(Cow::Owned(known.unwrap_or_else(|| {
                        let text = match &status_reason {
                            Some(reason) => {
                                format!("{reason}: {why}, so no setting changes this")
                            }
                            None => format!(": {why}, so no setting changes this"),
                        };
                        if let Some(reason @ StatusReason::Duplicate { .. }) = status_reason {
                            reasons.push((reason, text.clone()));
                        }
                        text
                    })))
                }
                Status::Accepted => {
                    if let Some(at) = tables.least_return_n(j, cap).filter(|&at| at >= 2) {
                        changes.push(SetIf {
                            set: Change::return_n(at - 1),
                        });
                    }
                    for c in tables.nearest_caps(|c| !tables.accepts(j, c, return_n)) {
                        changes.push(SetIf {
                            set: Change::max_chunks(c),
                        });
                    }
                    changes.is_empty().then_some(Cow::Borrowed(
                        "the first block of the walk is kept under every setting",
                    ))
                }
                Status::DocCap | Status::ReturnN => {
                    if let Some(at) = tables.least_return_n(j, cap) {
                        changes.push(SetIf {
                            set: Change::return_n(at),
                        });
                    }
                    for c in tables.nearest_caps(|c| tables.accepts(j, c, return_n)) {
                        changes.push(SetIf {
                            set: Change::max_chunks(c),
                        });
                    }
                    if changes.is_empty() {
                        changes.extend(
                            least_pairs(tables, |c| tables.least_return_n(j, c))
                                .into_iter()
                                .map(|set| SetIf { set }),
                        );
                    }
                    changes
                        .is_empty()
                        .then_some(Cow::Borrowed("no setting accepts it"))
                }
            };
            let (accepted_if, dropped_if) = match status {
                Status::Accepted => (SetIfList::new(), SetIfList::from_slice(changes)),
                _ => (SetIfList::from_slice(changes), SetIfList::new()),
            };
            CandidateExplanation {
                index: input_indices
                    .get(j)
                    .copied()
                    .flatten()
                    .unwrap_or(candidate.input_index),
                doc_id: doc_ids
                    .get_mut(j)
                    .and_then(Option::take)
                    .unwrap_or_else(|| candidate.doc_id.clone()),
                status,
                accepted_if,
                dropped_if,
                reason,
            }
        });
    out.extend(explained);
    out
}

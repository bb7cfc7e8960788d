//! One retrieval is one trace (contract section 11). Instrumentors nest retrieval
//! spans: LlamaIndex writes `retrieve` (the documents) around `_retrieve` (none).
//! The rule: a retrieval span without documents is the same retrieval as
//! - its parent, when that is a retrieval span (it is the inner one), or
//! - a child retrieval span that holds documents (it wraps that one);
//!
//! any other retrieval span without documents is a retrieval that returned nothing:
//! a trace with no candidates (`NO_MATCH`). So a nested pair gives the span with the
//! documents, and an empty nested pair its outer span.
//!
//! Spans arrive in any order (an exporter writes children first) and a trace's spans
//! may spread over JSON Lines, so a span without documents waits until its question
//! is settled or the document ends. What is held, in bounded memory: the retrieval
//! spans without documents still waiting ([`HELD`] at most; when full the oldest is
//! decided on what is known, and becomes a trace), and the ids of the last
//! [`RECORDS`] retrieval spans seen (trace, span, parent, documents or not), which is
//! what the questions are answered from. A trace's spans further apart than that are
//! not joined.

use crate::fast_hash::FastMap;
use crate::input::model::Trace;
use crate::input::parts::Sink;
use std::collections::VecDeque;

/// Retrieval spans without documents held at most, waiting for a parent or child.
pub(in crate::input::shapes) const HELD: usize = 1024;
/// Retrieval spans remembered at most (about 150 bytes each).
pub(in crate::input::shapes) const RECORDS: usize = 16_384;

/// A span's place in its trace: `<traceId>/<spanId>` and its parent's.
#[derive(Clone)]
pub(super) struct SpanKey {
    pub(super) key: String,
    pub(super) parent: Option<String>,
}

#[derive(Clone)]
struct Record {
    parent: Option<String>,
    has_documents: bool,
}

/// What the span reader keeps from one span to the next within a document.
#[derive(Default, Clone)]
pub(in crate::input::shapes) struct Retrievals {
    records: FastMap<String, Record>,
    /// Keys of `records`, oldest first.
    order: VecDeque<String>,
    /// How many remembered spans with documents have each parent.
    parents_of_documents: FastMap<String, usize>,
    /// Retrieval spans without documents not yet decided, oldest first.
    held: VecDeque<(SpanKey, Trace)>,
}

impl Retrievals {
    /// A retrieval span read into `trace`.
    pub(super) fn offer(
        &mut self,
        span: SpanKey,
        has_documents: bool,
        trace: Trace,
        sink: &mut dyn Sink,
    ) {
        // Inner spans of this one are the same retrieval: decided now.
        let key = span.key.clone();
        self.held
            .retain(|(held, _)| held.parent.as_deref() != Some(key.as_str()));
        if has_documents {
            if let Some(parent) = &span.parent {
                self.held.retain(|(held, _)| held.key != *parent);
            }
            self.remember(span, true);
            emit(trace, sink);
            return;
        }
        let inner = span
            .parent
            .as_ref()
            .is_some_and(|parent| self.records.contains_key(parent));
        let wraps_documents = self.parents_of_documents.contains_key(&span.key);
        let waits = !inner && !wraps_documents;
        self.remember(
            SpanKey {
                key: span.key.clone(),
                parent: span.parent.clone(),
            },
            false,
        );
        if waits {
            self.held.push_back((span, trace));
            if self.held.len() > HELD {
                if let Some((_, oldest)) = self.held.pop_front() {
                    emit(oldest, sink);
                }
            }
        }
    }

    /// The end of the document: every span still held is a retrieval of its own.
    pub(in crate::input::shapes) fn end(&mut self, sink: &mut dyn Sink) {
        for (_, trace) in std::mem::take(&mut self.held) {
            emit(trace, sink);
        }
        *self = Retrievals::default();
    }

    fn remember(&mut self, span: SpanKey, has_documents: bool) {
        if has_documents {
            if let Some(parent) = &span.parent {
                *self.parents_of_documents.entry(parent.clone()).or_insert(0) += 1;
            }
        }
        if self.records.contains_key(&span.key) {
            return;
        }
        self.order.push_back(span.key.clone());
        self.records.insert(
            span.key,
            Record {
                parent: span.parent,
                has_documents,
            },
        );
        if self.order.len() > RECORDS {
            self.forget_oldest();
        }
    }

    fn forget_oldest(&mut self) {
        let Some(key) = self.order.pop_front() else {
            return;
        };
        let Some(record) = self.records.remove(&key) else {
            return;
        };
        if let (true, Some(parent)) = (record.has_documents, record.parent) {
            if let Some(count) = self.parents_of_documents.get_mut(&parent) {
                *count -= 1;
                if *count == 0 {
                    self.parents_of_documents.remove(&parent);
                }
            }
        }
    }
}

/// A trace takes its position in the batch when it is handed on.
fn emit(mut trace: Trace, sink: &mut dyn Sink) {
    trace.position = sink.next_position();
    sink.trace(trace);
}

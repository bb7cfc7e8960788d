//! Each candidate's counterfactuals: what accepts a candidate not accepted, and what
//! drops an accepted one.
//!
//! A large batch has half a million candidates, so a trace's are held as a table
//! ([`CandidateList`]): per candidate its place in the trace, its status, its one list
//! of changes and its reason's place among the trace's reasons (most candidates have
//! none, and the duplicates of one rank share one). What a candidate reads of its input
//! (input index, docId) is read from the shared trace when the candidate is read, as a
//! block reads it: building the table reads no candidate but a duplicate or an invalid
//! one (in a large batch each such read is a cache miss, and cloning every docId was
//! most of the time). A candidate reads as a [`CandidateExplanation`] view, and the
//! list serialises as a list of those views.

use super::change::Change;
use super::tables::Tables;
use super::trace::least_pairs;
use super::{SetIf, SetIfList, Work};
use crate::input::Trace;
use crate::pipeline::{Status, StatusReason};
use crate::trace_analysis::TraceAnalysis;
use serde::ser::SerializeSeq;
use serde::{Serialize, Serializer};
use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

/// One candidate: its status now and the nearest changes that flip it.
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CandidateExplanation<'a> {
    /// 0-based position in the trace's input list (the block's `inputIndex`).
    pub index: usize,
    pub doc_id: &'a str,
    pub status: Status,
    /// Not accepted: per setting, its nearest value that accepts it; where no single
    /// setting does, the least pairs.
    pub accepted_if: &'a SetIfList,
    /// Accepted: per setting, its nearest value that drops it.
    pub dropped_if: &'a SetIfList,
    /// Why the list that applies is empty (`duplicate`, `invalid`, the first block).
    pub reason: Option<&'a str>,
}

/// Every candidate of one trace, in processing order (section 3.3).
#[derive(Clone)]
pub struct CandidateList {
    /// The trace as read: what a candidate reads of its input (its input index and
    /// docId) is read from it, as a block reads it.
    trace: Arc<Trace>,
    reasons: Vec<Cow<'static, str>>,
    entries: Vec<Entry>,
}

#[derive(Debug, Clone)]
struct Entry {
    /// Into the trace's candidates.
    candidate: usize,
    /// Into `reasons`, plus one; 0 for none.
    reason: u32,
    status: Status,
    /// `droppedIf` for an accepted candidate, else `acceptedIf` (the other is empty).
    changes: SetIfList,
}

static NO_CHANGES: SetIfList = SetIfList::new();

impl CandidateList {
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The `at`-th candidate in processing order.
    pub fn get(&self, at: usize) -> Option<CandidateExplanation<'_>> {
        self.entries.get(at).and_then(|e| self.view(e))
    }

    /// The candidates in processing order.
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            list: self,
            entries: self.entries.iter(),
        }
    }

    /// `None` only for an entry of no candidate, which is never made.
    fn view<'a>(&'a self, e: &'a Entry) -> Option<CandidateExplanation<'a>> {
        let candidate = self.trace.candidates().get(e.candidate)?;
        let (accepted_if, dropped_if) = match e.status {
            Status::Accepted => (&NO_CHANGES, &e.changes),
            _ => (&e.changes, &NO_CHANGES),
        };
        Some(CandidateExplanation {
            index: candidate.input_index,
            doc_id: &candidate.doc_id,
            status: e.status,
            accepted_if,
            dropped_if,
            reason: (e.reason as usize)
                .checked_sub(1)
                .and_then(|at| self.reasons.get(at))
                .map(|r| &**r),
        })
    }

    /// The place of the reason `text` among the trace's reasons, plus one; added from
    /// `owned` when new.
    fn reason_slot(&mut self, text: &str, owned: impl FnOnce() -> Cow<'static, str>) -> u32 {
        let at = match self.reasons.iter().position(|r| r == text) {
            Some(at) => at,
            None => {
                self.reasons.push(owned());
                self.reasons.len() - 1
            }
        };
        u32::try_from(at + 1).unwrap_or(0)
    }
}

/// As the list of views it holds.
impl fmt::Debug for CandidateList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// The candidates of a [`CandidateList`] as views.
#[derive(Debug, Clone)]
pub struct Iter<'a> {
    list: &'a CandidateList,
    entries: std::slice::Iter<'a, Entry>,
}

impl<'a> Iterator for Iter<'a> {
    type Item = CandidateExplanation<'a>;

    fn next(&mut self) -> Option<CandidateExplanation<'a>> {
        self.entries.find_map(|e| self.list.view(e))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, Some(self.entries.len()))
    }
}

impl<'a> IntoIterator for &'a CandidateList {
    type Item = CandidateExplanation<'a>;
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl Serialize for CandidateList {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.len()))?;
        for c in self {
            seq.serialize_element(&c)?;
        }
        seq.end()
    }
}

/// Why a candidate's list of changes is empty.
enum Reason {
    None,
    Fixed(&'static str),
    /// At this place among the duplicates' reasons written so far.
    Duplicate(usize),
    Invalid(String),
}

pub(crate) fn candidates(t: &TraceAnalysis, tables: &Tables, work: &mut Work) -> CandidateList {
    let (cap, return_n) = (tables.cap, tables.return_n);
    let candidates = t.trace.candidates();
    let Work {
        reasons, changes, ..
    } = work;
    let mut list = CandidateList {
        trace: t.trace.clone(),
        reasons: Vec::new(),
        entries: Vec::with_capacity(t.trace.hot().len()),
    };
    // The hot entries, not the blocks: a block computes its quality again when built.
    for (j, (h, &status)) in t.trace.hot().iter().zip(&tables.status).enumerate() {
        if h.index >= candidates.len() {
            continue;
        }
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
                let sentence = |reason: Option<&StatusReason>| match reason {
                    Some(reason) => format!("{reason}: {why}, so no setting changes this"),
                    None => format!(": {why}, so no setting changes this"),
                };
                // A duplicate's sentence names only the rank it repeats: written once
                // per rank in the batch.
                match status_reason {
                    Some(reason @ StatusReason::Duplicate { .. }) => {
                        match reasons.iter().position(|(r, _)| *r == reason) {
                            Some(at) => Reason::Duplicate(at),
                            None => {
                                let text = sentence(Some(&reason));
                                reasons.push((reason, text));
                                Reason::Duplicate(reasons.len() - 1)
                            }
                        }
                    }
                    other => Reason::Invalid(sentence(other.as_ref())),
                }
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
                if changes.is_empty() {
                    Reason::Fixed("the first block of the walk is kept under every setting")
                } else {
                    Reason::None
                }
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
                if changes.is_empty() {
                    Reason::Fixed("no setting accepts it")
                } else {
                    Reason::None
                }
            }
        };
        let reason = match reason {
            Reason::None => 0,
            Reason::Fixed(text) => list.reason_slot(text, || Cow::Borrowed(text)),
            Reason::Duplicate(at) => match reasons.get(at) {
                Some((_, text)) => list.reason_slot(text, || Cow::Owned(text.clone())),
                None => 0,
            },
            Reason::Invalid(text) => list.reason_slot(&text, || Cow::Owned(text.clone())),
        };
        list.entries.push(Entry {
            candidate: h.index,
            reason,
            status,
            changes: SetIfList::from_slice(changes),
        });
    }
    list
}

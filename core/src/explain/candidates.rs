//! Each candidate's counterfactuals: what accepts a candidate not accepted, and what
//! drops an accepted one.
//!
//! A large batch has half a million candidates, so a trace's are held as a table
//! ([`CandidateList`]): per candidate its place in the trace, its status and its one
//! list of changes, in 24 bytes; the few with a reason are listed apart with its place
//! among the trace's reasons (the duplicates of one rank share one). What a candidate reads of its input
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
    /// `(entry, reason)`: the entries that have a reason (a few), by place in
    /// `entries`, with its place in `reasons`; ordered by entry.
    reason_of: Vec<(u32, u32)>,
    entries: Vec<Entry>,
}

/// 24 bytes.
#[derive(Debug, Clone)]
struct Entry {
    /// Into the trace's candidates.
    candidate: u32,
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
        self.entries.get(at).and_then(|e| self.view(at, e))
    }

    /// The candidates in processing order.
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            list: self,
            entries: self.entries.iter().enumerate(),
        }
    }

    /// `None` only for an entry of no candidate, which is never made.
    fn view<'a>(&'a self, at: usize, e: &'a Entry) -> Option<CandidateExplanation<'a>> {
        let candidate = self.trace.candidates().get(e.candidate as usize)?;
        let reason = u32::try_from(at)
            .ok()
            .and_then(|at| {
                let found = self
                    .reason_of
                    .binary_search_by_key(&at, |&(entry, _)| entry);
                found.ok().and_then(|i| self.reason_of.get(i))
            })
            .and_then(|&(_, reason)| self.reasons.get(reason as usize));
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
            reason: reason.map(|r| &**r),
        })
    }

    /// Gives the entry about to be pushed the reason `text`, added from `owned` when
    /// the trace has not given it yet.
    fn give_reason(&mut self, text: &str, owned: impl FnOnce() -> Cow<'static, str>) {
        let at = match self.reasons.iter().position(|r| r == text) {
            Some(at) => at,
            None => {
                self.reasons.push(owned());
                self.reasons.len() - 1
            }
        };
        if let (Ok(entry), Ok(reason)) = (u32::try_from(self.entries.len()), u32::try_from(at)) {
            self.reason_of.push((entry, reason));
        }
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
    entries: std::iter::Enumerate<std::slice::Iter<'a, Entry>>,
}

impl<'a> Iterator for Iter<'a> {
    type Item = CandidateExplanation<'a>;

    fn next(&mut self) -> Option<CandidateExplanation<'a>> {
        self.entries.find_map(|(at, e)| self.list.view(at, e))
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
        reason_of: Vec::new(),
        entries: Vec::with_capacity(t.trace.hot().len()),
    };
    // The hot entries, not the blocks: a block computes its quality again when built.
    for (j, (h, &status)) in t.trace.hot().iter().zip(&tables.status).enumerate() {
        // A trace of more than 4G candidates cannot be read into memory at all.
        let Some(candidate) = u32::try_from(h.index)
            .ok()
            .filter(|_| h.index < candidates.len())
        else {
            continue;
        };
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
        match reason {
            Reason::None => {}
            Reason::Fixed(text) => list.give_reason(text, || Cow::Borrowed(text)),
            Reason::Duplicate(at) => {
                if let Some((_, text)) = reasons.get(at) {
                    list.give_reason(text, || Cow::Owned(text.clone()));
                }
            }
            Reason::Invalid(text) => list.give_reason(&text, || Cow::Owned(text.clone())),
        }
        list.entries.push(Entry {
            candidate,
            status,
            changes: SetIfList::from_slice(changes),
        });
    }
    list
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_takes_twenty_four_bytes() {
        // Half a million candidates each hold one.
        assert_eq!(std::mem::size_of::<Entry>(), 24);
    }
}

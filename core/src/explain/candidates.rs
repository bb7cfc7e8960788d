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

use super::floors::{floors_accepting, floors_dropping};
use super::tables::Tables;
use super::{SetIfList, Work};
use crate::config::Settings;
use crate::input::Trace;
use crate::pipeline::{Status, StatusReason};
use crate::trace_analysis::TraceAnalysis;
use serde::ser::SerializeSeq;
use serde::{Serialize, Serializer};
use std::fmt;
use std::sync::Arc;

/// One candidate: its status now and the nearest changes that flip it.
#[derive(Debug, Clone, Copy, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
    reasons: Vec<ReasonText>,
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

/// A reason's text. Most are shared: the fixed sentences, and a duplicate's, which is
/// written once per rank it repeats in the batch and shared by every list naming it.
#[derive(Debug, Clone)]
enum ReasonText {
    Fixed(&'static str),
    Shared(Arc<str>),
}

impl ReasonText {
    fn as_str(&self) -> &str {
        match self {
            ReasonText::Fixed(text) => text,
            ReasonText::Shared(text) => text,
        }
    }
}

impl CandidateList {
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The trace whose candidates these are.
    pub(crate) fn trace(&self) -> &Trace {
        &self.trace
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
            reason: reason.map(ReasonText::as_str),
        })
    }
}

/// The reasons of one trace's list as they are given, kept in scratch space and copied
/// into the list once at their final length: grown in the list, they were reallocated
/// two or three times a trace.
#[derive(Debug, Default)]
struct ReasonsGiven {
    reasons: Vec<ReasonText>,
    reason_of: Vec<(u32, u32)>,
}

impl ReasonsGiven {
    /// Gives the entry at `entry` the reason `text`, added as `held_as` gives it when
    /// the trace has not given that very text yet. Entries are given reasons in order.
    /// Texts are told apart by where they are held, not by what they say: the shared
    /// ones are held once, and an equal text held twice only takes a second place.
    fn give(&mut self, entry: usize, text: &str, held_as: impl FnOnce() -> ReasonText) {
        let at = match self
            .reasons
            .iter()
            .position(|r| std::ptr::eq(r.as_str(), text))
        {
            Some(at) => at,
            None => {
                self.reasons.push(held_as());
                self.reasons.len() - 1
            }
        };
        if let (Ok(entry), Ok(reason)) = (u32::try_from(entry), u32::try_from(at)) {
            self.reason_of.push((entry, reason));
        }
    }

    /// Moves the reasons given into `list`, leaving this scratch empty.
    fn move_into(&mut self, list: &mut CandidateList) {
        list.reasons = self.reasons.drain(..).collect();
        list.reason_of = self.reason_of.as_slice().to_vec();
        self.reason_of.clear();
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

/// A list of its views.
#[cfg(feature = "schema")]
impl schemars::JsonSchema for CandidateList {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "CandidateList".into()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        Vec::<CandidateExplanation<'static>>::json_schema(generator)
    }
}

/// Why a candidate's list of changes is empty.
enum Reason {
    None,
    Fixed(&'static str),
    /// A duplicate's: the rank it repeats.
    Duplicate(u64),
    /// Its own sentence.
    Own(String),
}

/// Why no setting changes a duplicate or a candidate with an invalid rank, after the
/// pipeline's own reason for its status.
fn unchangeable(status: Status, reason: Option<&StatusReason>) -> String {
    let why = if status == Status::Duplicate {
        "evidence dedup is not a setting"
    } else {
        "a candidate with an invalid rank is never accepted"
    };
    match reason {
        Some(reason) => format!("{reason}: {why}, so no setting changes this"),
        None => format!(": {why}, so no setting changes this"),
    }
}

/// `t`'s candidates explained; `trace` is the list's share of `t`'s trace.
pub(crate) fn candidates(
    t: &TraceAnalysis,
    user: &Settings,
    trace: Arc<Trace>,
    tables: &Tables,
    work: &mut Work,
) -> CandidateList {
    let candidates = t.trace.candidates();
    let duplicate_reasons = &mut work.duplicate_reasons;
    let pipeline = &mut work.scratch;
    let mut list = CandidateList {
        trace,
        reasons: Vec::new(),
        reason_of: Vec::new(),
        entries: Vec::with_capacity(t.trace.hot().len()),
    };
    let mut given = std::mem::take(&mut work.caps.given);
    let scratch = &mut work.caps;
    scratch.earlier.clear();
    scratch.earlier.resize(tables.saturating_cap(), 0);
    // The previous candidate's occurrence, counted in `earlier` when the next one comes.
    let mut previous: Option<usize> = None;
    // The hot entries, not the blocks: a block computes its quality again when built.
    for (j, (h, &status)) in t.trace.hot().iter().zip(&tables.status).enumerate() {
        if let Some(count) = previous.and_then(|o| scratch.earlier.get_mut(o)) {
            *count += 1;
        }
        previous = tables.occurrence(j);
        // A trace of more than 4G candidates cannot be read into memory at all.
        let Some(candidate) = u32::try_from(h.index)
            .ok()
            .filter(|_| h.index < candidates.len())
        else {
            continue;
        };
        // The entry is pushed first and its changes written where it is held: built
        // apart and then moved, its narrow writes were read back as wider loads, which
        // waited for each write to land.
        let at = list.entries.len();
        list.entries.push(Entry {
            candidate,
            status,
            changes: SetIfList::new(),
        });
        let reason = match (status, list.entries.last_mut()) {
            (Status::Duplicate | Status::Invalid, _) => {
                // A duplicate's hot entry holds the rank it repeats (its candidate is
                // read only when that rank is too large to be held there).
                let held = match status {
                    Status::Duplicate => h.first_of_key_rank(),
                    _ => None,
                };
                let reason = match held {
                    Some(of_rank) => Some(StatusReason::Duplicate { of_rank }),
                    None => t.status_reason_at(j),
                };
                match reason {
                    Some(StatusReason::Duplicate { of_rank }) => Reason::Duplicate(of_rank),
                    other => Reason::Own(unchangeable(status, other.as_ref())),
                }
            }
            // The floor is the trace's whatever the limits: no returnN or cap accepts
            // it, only a lower floor.
            (Status::BelowFloor, Some(entry)) => {
                for change in floors_accepting(t, h, user, pipeline) {
                    entry.changes.push(change);
                }
                if entry.changes.is_empty() {
                    Reason::Own(match t.status_reason_at(j) {
                        Some(reason) => format!("{reason}: no lower floor accepts it (the blocks it lets in before it take its place)"),
                        None => "no lower floor accepts it".to_owned(),
                    })
                } else {
                    Reason::None
                }
            }
            (Status::Accepted, Some(entry)) => {
                let reason = changes_of(j, status, tables, &mut entry.changes, scratch);
                let floors = floors_dropping(t, h, user, pipeline);
                if floors.is_empty() {
                    reason
                } else {
                    for change in floors {
                        entry.changes.push(change);
                    }
                    Reason::None
                }
            }
            (_, Some(entry)) => changes_of(j, status, tables, &mut entry.changes, scratch),
            (_, None) => Reason::None,
        };
        match reason {
            Reason::None => {}
            Reason::Fixed(text) => given.give(at, text, || ReasonText::Fixed(text)),
            Reason::Duplicate(of_rank) => {
                // Written once per rank in the batch.
                let text = duplicate_reasons.entry(of_rank).or_insert_with(|| {
                    let reason = StatusReason::Duplicate { of_rank };
                    Arc::from(unchangeable(Status::Duplicate, Some(&reason)))
                });
                given.give(at, text, || ReasonText::Shared(text.clone()));
            }
            Reason::Own(text) => {
                let text: Arc<str> = Arc::from(text);
                given.give(at, &text, || ReasonText::Shared(text.clone()));
            }
        }
    }
    given.move_into(&mut list);
    scratch.given = given;
    list
}

/// Writes into `changes` the nearest changes that flip candidate `j` (at `status` now,
/// neither a duplicate nor invalid), and says why there are none when there are none.
/// `scratch.earlier` counts the blocks before `j` per occurrence.
fn changes_of(
    j: usize,
    status: Status,
    tables: &Tables,
    changes: &mut SetIfList,
    scratch: &mut CapScratch,
) -> Reason {
    let Some(span) = tables.span(j) else {
        return Reason::Fixed("no setting accepts it");
    };
    if status == Status::Accepted {
        if span.at_current >= 2 {
            changes.push_return_n(span.at_current as usize - 1);
        }
        for c in tables.nearest_caps_outside(span) {
            changes.push_max_chunks(c);
        }
        return if changes.is_empty() {
            Reason::Fixed("the first block of the walk is kept under every setting")
        } else {
            Reason::None
        };
    }
    if span.at_current > 0 {
        changes.push_return_n(span.at_current as usize);
    }
    if let Some(c) = tables.nearest_cap_inside(span) {
        changes.push_max_chunks(c);
    }
    if changes.is_empty() {
        let by_cap = &mut scratch.by_cap;
        tables.least_return_n_by_cap(j, &scratch.earlier, by_cap);
        let least = |c: usize| by_cap.get(c.checked_sub(1)?).copied().filter(|&at| at > 0);
        for (at, c) in tables.least_pairs(least) {
            changes.push_pair(at, c);
        }
    }
    if changes.is_empty() {
        Reason::Fixed("no setting accepts it")
    } else {
        Reason::None
    }
}

/// Scratch space of a trace's candidates: per occurrence, the blocks walked so far;
/// per cap, a candidate's least `returnN`; the reasons given.
#[derive(Debug, Default)]
pub(crate) struct CapScratch {
    earlier: Vec<usize>,
    by_cap: Vec<usize>,
    given: ReasonsGiven,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_takes_twenty_four_bytes() {
        // Half a million candidates each hold one.
        assert_eq!(std::mem::size_of::<Entry>(), 24);
    }

    /// A duplicate names the rank it repeats whether its hot entry holds that rank or
    /// the rank is too large to be held there; two duplicates of one rank share one text.
    #[test]
    fn a_duplicate_names_the_rank_it_repeats_small_or_large() {
        let text = r#"{"mode":"dense","candidates":[
            {"docId":"a","evidenceKey":"k","originalRank":2,"score":0.1},
            {"docId":"a","evidenceKey":"k","originalRank":3,"score":0.2},
            {"docId":"b","evidenceKey":"k","originalRank":4,"score":0.2},
            {"docId":"c","evidenceKey":"big","originalRank":5000000000,"score":0.3},
            {"docId":"c","evidenceKey":"big","originalRank":5000000001,"score":0.4}]}"#;
        let batch = crate::input::parse_document("t", text);
        let Ok(analysis) =
            crate::analysis::analyze(&batch, &crate::config::Settings::default(), false)
        else {
            panic!("valid settings");
        };
        let Some(t) = analysis.traces.first() else {
            panic!("one trace");
        };
        let explained = crate::explain::explain_one(0, t, &crate::config::Settings::default());
        let reasons: Vec<(usize, Option<&str>)> = explained
            .candidates
            .iter()
            .filter(|c| c.status == Status::Duplicate)
            .map(|c| (c.index, c.reason))
            .collect();
        let small =
            "duplicate of rank 2: evidence dedup is not a setting, so no setting changes this";
        let large = "duplicate of rank 5000000000: evidence dedup is not a setting, so no setting changes this";
        assert_eq!(
            reasons,
            [(1, Some(small)), (2, Some(small)), (4, Some(large))]
        );
        // The first block's reason, and one per rank repeated.
        assert_eq!(explained.candidates.reasons.len(), 3);
    }
}

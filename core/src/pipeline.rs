//! Order, acceptance and excerpt truncation (contract section 3.3).
//!
//! The order and the duplicates do not depend on the configuration and are fixed
//! when a trace is read (`input::derive`); here only the per-document cap and
//! `returnN` are applied, in one pass.

use crate::config::Config;
use crate::input::{Hot, Trace};
use serde::{Serialize, Serializer};
use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

/// What post-processing did with a candidate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Accepted,
    Duplicate,
    /// Its quality is below the trace's score floor (contract section 10.2).
    BelowFloor,
    DocCap,
    ReturnN,
    Invalid,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Accepted => "accepted",
            Status::Duplicate => "duplicate",
            Status::BelowFloor => "below_floor",
            Status::DocCap => "doc_cap",
            Status::ReturnN => "return_n",
            Status::Invalid => "invalid",
        }
    }
}

/// One candidate's fate: status and, when accepted, its 1-based accepted rank.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decision {
    /// Index into the trace's candidates.
    pub index: usize,
    pub status: Status,
    pub accepted_rank: Option<usize>,
}

/// The trace's score floor (contract section 10.2): `max(minQuality, relativeQuality x
/// qMax)`, `qMax` the best quality among the valid candidates, each given by
/// `quality`. With both floors at 0 it is 0 and no quality is read.
pub(crate) fn floor_of(trace: &Trace, config: &Config, quality: impl Fn(&Hot) -> f64) -> f64 {
    if config.relative_quality <= 0.0 {
        return floor_from(config.min_quality, config.relative_quality, 0.0);
    }
    let best = best_quality(trace, quality);
    floor_from(config.min_quality, config.relative_quality, best)
}

/// `qMax`: the best quality among the trace's valid candidates (0 when none).
pub(crate) fn best_quality(trace: &Trace, quality: impl Fn(&Hot) -> f64) -> f64 {
    trace
        .hot()
        .iter()
        .filter(|h| h.rank().is_some())
        .map(quality)
        .fold(0.0f64, f64::max)
}

/// The floor of a trace whose best valid quality is `best` under the two floors: the
/// one formula [`floor_of`] and the floor sweep share.
pub(crate) fn floor_from(min_quality: f64, relative_quality: f64, best: f64) -> f64 {
    if relative_quality <= 0.0 {
        min_quality.max(0.0)
    } else {
        min_quality.max(relative_quality * best)
    }
}

/// Whether a candidate of this quality is below the floor (the walk's step 2).
pub(crate) fn is_below_floor(quality: f64, floor: f64) -> bool {
    floor > 0.0 && quality < floor
}

/// Walks the candidates in section 3.3 order and decides each one, calling `each` per
/// candidate. Reads the trace's contiguous [`Hot`] entries, not the candidates, so a
/// recompute does not chase a pointer per candidate to decide. `per_doc` is scratch
/// space, reused across traces. `floor` is the trace's ([`floor_of`]) and `quality`
/// each candidate's, read only when the floor is above 0.
pub(crate) fn decide_hot(
    trace: &Trace,
    config: &Config,
    per_doc: &mut Vec<usize>,
    floor: f64,
    quality: impl Fn(&Hot) -> f64,
    mut each: impl FnMut(&Hot, Decision),
) {
    per_doc.clear();
    per_doc.resize(trace.doc_count(), 0);
    let mut accepted = 0usize;
    for hot in trace.hot() {
        let held = per_doc.get(hot.doc_slot).copied().unwrap_or(0);
        let status = if let Some(never) = never_accepted(hot) {
            never
        } else if floor > 0.0 && is_below_floor(quality(hot), floor) {
            Status::BelowFloor
        } else if held >= config.max_chunks_per_document {
            Status::DocCap
        } else if accepted >= config.return_n {
            Status::ReturnN
        } else {
            Status::Accepted
        };
        let accepted_rank = if status == Status::Accepted {
            accepted += 1;
            if let Some(slot) = per_doc.get_mut(hot.doc_slot) {
                *slot += 1;
            }
            Some(accepted)
        } else {
            None
        };
        each(
            hot,
            Decision {
                index: hot.index,
                status,
                accepted_rank,
            },
        );
    }
}

/// The status of a candidate no setting accepts (an invalid rank, a duplicate evidence
/// key), whatever the limits; `None` for one the walk with no limits accepts.
pub(crate) fn never_accepted(hot: &Hot) -> Option<Status> {
    if hot.rank().is_none() {
        Some(Status::Invalid)
    } else if hot.duplicate {
        Some(Status::Duplicate)
    } else {
        None
    }
}

/// An excerpt shown truncated but kept whole (the golden evaluation reads the full text).
///
/// Serialises as the truncated text; truncation happens only when it is shown, so a
/// recompute never copies excerpt text.
#[derive(Debug, Clone, PartialEq)]
pub struct Excerpt {
    text: Arc<str>,
    chars: usize,
    max_chars: usize,
}

impl Excerpt {
    pub fn new(text: Arc<str>, chars: usize, max_chars: usize) -> Self {
        Excerpt {
            text,
            chars,
            max_chars,
        }
    }

    /// The full, untruncated text.
    pub fn full(&self) -> &str {
        &self.text
    }

    /// Length of the full text in Unicode scalar values.
    pub fn chars(&self) -> usize {
        self.chars
    }

    pub fn is_truncated(&self) -> bool {
        self.chars > self.max_chars
    }

    /// The text as shown: its first `excerptMaxChars` scalar values and `…` when longer.
    pub fn shown(&self) -> Cow<'_, str> {
        if self.is_truncated() {
            Cow::Owned(truncate(&self.text, self.max_chars))
        } else {
            Cow::Borrowed(&self.text)
        }
    }
}

/// First `max_chars` Unicode scalar values followed by `…` when longer; nothing trimmed.
pub(crate) fn truncate(text: &str, max_chars: usize) -> String {
    match text.char_indices().nth(max_chars) {
        Some((cut, _)) => {
            let mut out = String::with_capacity(cut + '…'.len_utf8());
            out.push_str(text.get(..cut).unwrap_or(text));
            out.push('…');
            out
        }
        None => text.to_owned(),
    }
}

impl fmt::Display for Excerpt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.shown())
    }
}

impl Serialize for Excerpt {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.shown())
    }
}

/// Why a candidate has its status, as a sentence (`duplicate of rank 1`).
#[derive(Debug, Clone, PartialEq)]
pub enum StatusReason {
    Accepted { accepted_rank: usize },
    Duplicate { of_rank: u64 },
    BelowFloor { quality: f64, floor: f64 },
    DocCap { doc_id: Arc<str>, cap: usize },
    ReturnN { return_n: usize },
    Invalid { rank: Arc<str> },
}

impl fmt::Display for StatusReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StatusReason::Accepted { accepted_rank } => {
                write!(f, "accepted as block {accepted_rank}")
            }
            StatusReason::Duplicate { of_rank } => write!(f, "duplicate of rank {of_rank}"),
            StatusReason::BelowFloor { quality, floor } => {
                write!(f, "quality {quality} is below the score floor {floor}")
            }
            StatusReason::DocCap { doc_id, cap } => {
                let blocks = if *cap == 1 { "block" } else { "blocks" };
                write!(f, "{doc_id} already has {cap} {blocks}")
            }
            StatusReason::ReturnN { return_n } => write!(f, "beyond return-n ({return_n})"),
            StatusReason::Invalid { rank } => {
                write!(f, "invalid rank: {rank} is not an integer >= 1")
            }
        }
    }
}

impl Serialize for StatusReason {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hot_entry_takes_forty_eight_bytes() {
        // Every recompute streams them: the duplicate's rank fills padding.
        assert_eq!(std::mem::size_of::<crate::input::Hot>(), 48);
    }

    /// Every candidate's decision, in section 3.3 order.
    fn decide(trace: &Trace, config: &Config) -> Vec<Decision> {
        let mut out = Vec::new();
        decide_hot(
            trace,
            config,
            &mut Vec::new(),
            0.0,
            |_| 0.0,
            |_, d| out.push(d),
        );
        out
    }

    #[test]
    fn truncation_counts_scalar_values_and_keeps_whitespace() {
        assert_eq!(truncate("abc", 3), "abc");
        assert_eq!(truncate("abcd", 3), "abc…");
        assert_eq!(truncate("支付回调超时", 2), "支付…");
        assert_eq!(truncate("a  b ", 2), "a …");
        let e = Excerpt::new(Arc::from("héllo"), 5, 4);
        assert!(e.is_truncated());
        assert_eq!(e.shown(), "héll…");
        assert_eq!(e.full(), "héllo");
    }

    /// The parse-time entries, checked against values worked out by hand from the
    /// text: order by rank (invalid last), docId slots in input order (a missing
    /// docId falls back to the evidenceKey), the second "a" a duplicate.
    #[test]
    fn hot_entries_are_the_candidates_in_section_3_3_order() {
        let text = r#"{"mode":"hybrid","candidates":[
            {"evidenceKey":"b","originalRank":2,"docId":"d"},
            {"evidenceKey":"a","originalRank":1,"docId":"d"},
            {"evidenceKey":"a","originalRank":3},
            {"evidenceKey":"c","originalRank":0}]}"#;
        let batch = crate::input::parse_document("t", text);
        let Some(trace) = batch.traces.first() else {
            panic!("one trace");
        };
        assert_eq!(trace.order(), [1, 0, 2, 3]);
        assert_eq!(trace.doc_count(), 3);
        let entries: Vec<_> = trace
            .hot()
            .iter()
            .map(|h| (h.index, h.doc_slot, h.rank(), h.duplicate))
            .collect();
        assert_eq!(
            entries,
            [
                (1, 0, Some(1), false),
                (0, 0, Some(2), false),
                (2, 1, Some(3), true),
                (3, 2, None, false),
            ]
        );
        let statuses: Vec<_> = decide(trace, &Config::default())
            .iter()
            .map(|d| (d.index, d.status))
            .collect();
        assert_eq!(
            statuses,
            [
                (1, Status::Accepted),
                (0, Status::Accepted),
                (2, Status::Duplicate),
                (3, Status::Invalid)
            ]
        );
    }
}

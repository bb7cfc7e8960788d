//! Golden cases: why each was or was not found (a retrieval problem or a settings
//! problem), and the least change that finds it. The matching of cases to traces and
//! the hit levels are the golden evaluation's own (contract section 6).

use super::change::{Change, ChangedSetting};
use super::floors::floors_accepting;
use super::{CaseExplanation, FoundIf, Work};
use crate::config::{Config, SettingKey, SettingValue, Settings};
use crate::golden::{self, CaseReport, GoldenCase, HitProbe, LinkedBy, RunView};
use crate::pipeline::Status;
use crate::trace_analysis::{reanalyze_trace, TraceAnalysis};
use serde::Serialize;

/// Why a case was or was not found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Cause {
    /// No trace matched the case.
    NoTrace,
    /// No expected document is among the trace's candidates: no setting can find it.
    NotRetrieved,
    /// An expected document is a candidate but was not accepted.
    Dropped,
    /// An expected document is among the accepted blocks.
    Found,
}

impl Cause {
    pub const ALL: [Cause; 4] = [
        Cause::NoTrace,
        Cause::NotRetrieved,
        Cause::Dropped,
        Cause::Found,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Cause::NoTrace => "no-trace",
            Cause::NotRetrieved => "not-retrieved",
            Cause::Dropped => "dropped",
            Cause::Found => "found",
        }
    }
}

/// A case's explanation and what the batch summary reads of it.
pub(crate) struct ExplainedCase {
    pub(crate) explanation: CaseExplanation,
    /// The trace it links to, and how.
    pub(crate) link: Option<(usize, LinkedBy)>,
    /// The processing positions of the candidates of an expected document.
    pub(crate) expected: Vec<usize>,
    /// What its hit level reads, when it links to a trace.
    pub(crate) probe: Option<HitProbe>,
}

/// The hit of `case` against `t` (or no trace) as the golden evaluation reports it.
pub(crate) fn evaluate(
    case: &GoldenCase,
    t: Option<(&TraceAnalysis, LinkedBy)>,
    global: &Config,
) -> CaseReport {
    let run = t.map(|(t, by)| (RunView::of_analysis(t), by));
    golden::evaluate_case(
        case,
        run.as_ref().map(|(r, by)| (r, *by)),
        global.return_n,
        global.relevant_grade,
    )
}

pub(crate) fn explain_cases(
    cases: &[GoldenCase],
    traces: &[TraceAnalysis],
    user: &Settings,
    global: &Config,
    work: &mut Work,
) -> Vec<ExplainedCase> {
    // The keys are read in a pass of their own: each trace's struct is a cache miss,
    // and with no lookup between them the processor waits for many at once.
    let keys: Vec<(Option<&str>, Option<&str>)> = traces
        .iter()
        .map(|t| (t.trace.case_id.as_deref(), t.trace.query.as_deref()))
        .collect();
    let links = golden::link_cases_by_keys(cases, keys);
    cases
        .iter()
        .zip(links)
        .map(|(case, link)| {
            let linked = link.and_then(|(i, by)| Some((traces.get(i)?, i, by)));
            let mut expected = Vec::new();
            let mut probe = None;
            let explanation = match linked {
                None => CaseExplanation {
                    case_id: case.case_id.clone(),
                    trace_index: None,
                    hit: evaluate(case, None, global).level,
                    cause: Cause::NoTrace,
                    candidate_index: None,
                    candidate_status: None,
                    found_if: Vec::new(),
                    reason: Some(
                        "no trace matched the case (by caseId, then by query): no setting finds it"
                            .to_owned(),
                    ),
                },
                Some((t, index, _)) => {
                    let probe = probe.insert(HitProbe::of(case, global.relevant_grade));
                    explain_linked(case, probe, t, index, user, work, &mut expected)
                }
            };
            ExplainedCase {
                explanation,
                link,
                expected,
                probe,
            }
        })
        .collect()
}

/// A case linked to trace `t` (at `index`): found, not retrieved, or dropped and then
/// the least changes that find it, each confirmed by running the pipeline under it.
fn explain_linked(
    case: &GoldenCase,
    probe: &HitProbe,
    t: &TraceAnalysis,
    index: usize,
    user: &Settings,
    work: &mut Work,
    expected_positions: &mut Vec<usize>,
) -> CaseExplanation {
    let (level, doc_hit) = probe.hit(t.accepted_candidates(), &mut work.hits);
    let mut explained = CaseExplanation {
        case_id: case.case_id.clone(),
        trace_index: Some(index),
        hit: level,
        cause: Cause::Found,
        candidate_index: None,
        candidate_status: None,
        found_if: Vec::new(),
        reason: None,
    };
    if doc_hit {
        return explained;
    }
    // The candidates of an expected document, in processing order.
    let expected: Vec<(usize, usize, Status)> = t
        .decided_candidates()
        .enumerate()
        .filter(|(_, (c, _))| probe.expected_doc_ids.iter().any(|d| **d == *c.doc_id))
        .map(|(j, (c, status))| (j, c.input_index, status))
        .collect();
    expected_positions.extend(expected.iter().map(|&(j, _, _)| j));
    let Some(&(_, first_index, first_status)) = expected.first() else {
        explained.cause = Cause::NotRetrieved;
        explained.reason = Some(if probe.expected_doc_ids.is_empty() {
            "the case expects no document: no setting finds one".to_owned()
        } else {
            "no expected document is among the trace's candidates: no setting finds it (a \
             retrieval problem, not a settings one)"
                .to_owned()
        });
        return explained;
    };
    explained.cause = Cause::Dropped;
    // Only a dropped case reads the tables.
    let mut tables = std::mem::take(&mut work.tables);
    tables.fill(t);
    let (cap, return_n) = (tables.cap, tables.return_n);
    let least_at = |c: usize| {
        expected
            .iter()
            .filter_map(|&(j, _, _)| tables.least_return_n(j, c))
            .min()
    };
    let mut changes = Vec::new();
    if let Some(r) = least_at(cap) {
        changes.push(Change::return_n(r));
    }
    for c in tables.nearest_caps(|c| least_at(c).is_some_and(|r| r <= return_n)) {
        changes.push(Change::max_chunks(c));
    }
    if changes.is_empty() {
        changes = tables
            .least_pairs(least_at)
            .map(|(return_n, cap)| Change::return_n_and_max_chunks(return_n, cap))
            .collect();
    }
    work.tables = tables;
    changes.extend(floors_finding(t, &expected, user, work));
    // Each fix confirmed by the pipeline, with the hit level it gives.
    for change in changes {
        let Ok((settings, changed_global)) = change.apply(user) else {
            continue;
        };
        let after = reanalyze_trace(t, user, &settings, &changed_global, &mut work.scratch);
        let (level, doc_hit) = probe.hit(after.accepted_candidates(), &mut work.hits);
        if doc_hit {
            if explained.candidate_index.is_none() {
                let accepted = after.accepted_indices().collect::<Vec<_>>();
                explained.candidate_index = expected
                    .iter()
                    .find(|(_, i, _)| accepted.contains(i))
                    .map(|&(_, i, _)| i);
            }
            explained.found_if.push(FoundIf {
                set: change,
                hit: level,
            });
        }
    }
    if explained.candidate_index.is_none() {
        explained.candidate_index = Some(first_index);
    }
    explained.candidate_status = expected
        .iter()
        .find(|(_, i, _)| Some(*i) == explained.candidate_index)
        .map(|&(_, _, s)| s)
        .or(Some(first_status));
    if explained.found_if.is_empty() {
        let below_floor = expected.iter().any(|&(_, _, s)| s == Status::BelowFloor);
        explained.reason = Some(if below_floor {
            "every candidate of an expected document is below the floor, a duplicate or has an \
             invalid rank, and no lower floor finds it (the blocks it lets in before them take \
             their places)"
                .to_owned()
        } else {
            "every candidate of an expected document is a duplicate or has an invalid rank: \
             no setting finds it"
                .to_owned()
        });
    }
    explained
}

/// `below_floor` is a settings problem: of the floors that let some candidate of an
/// expected document past the trace's floor, the nearest of each kind (the highest,
/// since only a lower floor lets one in). The caller confirms that it finds the case.
fn floors_finding(
    t: &TraceAnalysis,
    expected: &[(usize, usize, Status)],
    user: &Settings,
    work: &mut Work,
) -> Vec<Change> {
    let mut nearest: Vec<(SettingKey, f64)> = Vec::new();
    for &(j, _, status) in expected {
        let Some(h) = t
            .trace
            .hot()
            .get(j)
            .filter(|_| status == Status::BelowFloor)
        else {
            continue;
        };
        for change in floors_accepting(t, h, user, &mut work.scratch) {
            for ChangedSetting { key, value } in change.settings() {
                let SettingValue::Number(value) = value else {
                    continue;
                };
                match nearest.iter_mut().find(|(k, _)| *k == key) {
                    Some((_, held)) => *held = held.max(value),
                    None => nearest.push((key, value)),
                }
            }
        }
    }
    // In the contract's order of settings, as every list of changes.
    nearest.sort_by_key(|&(key, _)| SettingKey::ALL.iter().position(|&k| k == key));
    nearest
        .into_iter()
        .map(|(key, value)| Change::number(key, value))
        .collect()
}

//! The batch view of the counterfactuals: causes counted, and for each change among the
//! cases' fixes, what it recovers and what it costs elsewhere.

use super::case::{Cause, ExplainedCase};
use super::change::Change;
use super::tables::Tables;
use super::{ChangeImpact, ExplainSummary};
use crate::config::{Config, SettingKey, Settings};
use crate::golden::{GoldenLevel, HitScratch};
use crate::outcome::{outcome, Level};
use crate::trace_analysis::{reanalyze_trace, Scratch, TraceAnalysis};
use std::collections::BTreeMap;

fn causes(counted: impl Iterator<Item = Cause>) -> BTreeMap<&'static str, usize> {
    let mut causes: BTreeMap<&'static str, usize> =
        Cause::ALL.iter().map(|c| (c.as_str(), 0)).collect();
    for cause in counted {
        *causes.entry(cause.as_str()).or_default() += 1;
    }
    causes
}

/// Without cases: the trace count alone.
pub(crate) fn summarise_traces(traces: usize) -> ExplainSummary {
    ExplainSummary {
        traces,
        causes: causes(std::iter::empty()),
        ..ExplainSummary::default()
    }
}

/// Worst first, so a larger number is a lower hit level.
fn hit_rank(level: GoldenLevel) -> u8 {
    match level {
        GoldenLevel::Strong => 0,
        GoldenLevel::Medium => 1,
        GoldenLevel::Weak => 2,
        GoldenLevel::Miss => 3,
    }
}

/// The batch summary, built one trace at a time alongside the traces' explanations,
/// so each trace's tables are filled once for both.
pub(crate) struct Summariser<'a> {
    cases: &'a [ExplainedCase],
    user: &'a Settings,
    /// Per change: whether it is valid and sets only `returnN` and
    /// `maxChunksPerDocument` (what the tables answer for).
    applied: Vec<bool>,
    /// Per change: the settings of a valid change the tables do not answer for (a
    /// floor), under which each trace is run through the pipeline again.
    rerun: Vec<Option<(Settings, Config)>>,
    impacts: Vec<ChangeImpact>,
    /// Per change, the `maxChunksPerDocument` and `returnN` it sets.
    limits: Vec<(Option<usize>, Option<usize>)>,
    /// Per change, traces by level now and level under it (as [`Level::ALL`] orders
    /// them), counted here and named in [`ChangeImpact::level_transitions`] at the end.
    transitions: Vec<[[usize; Level::ALL.len()]; Level::ALL.len()]>,
    /// Per trace, the positions of the cases linked to it.
    cases_of: Vec<Vec<usize>>,
    /// Per change, the positions of the cases it recovers (listed in the cases' order).
    recovered_at: Vec<Vec<usize>>,
    /// The current trace's evaluated hits: per linked case and accepted list (its
    /// [`Tables::list_key`]), the hit level and whether an expected document is found.
    /// Many changes accept the same list of a trace (every `returnN` past its last
    /// block, say), and the evaluation reads only that list.
    hits: Vec<(usize, (usize, usize), GoldenLevel, bool)>,
}

impl<'a> Summariser<'a> {
    pub(crate) fn new(cases: &'a [ExplainedCase], traces: usize, user: &'a Settings) -> Self {
        let mut changes: Vec<Change> = Vec::new();
        for case in cases {
            for fix in &case.explanation.found_if {
                if !changes.contains(&fix.set) {
                    changes.push(fix.set);
                }
            }
        }
        // Most of a case's fixes set returnN and maxChunksPerDocument, and each trace's
        // tables answer for all of them at once: one pass over the traces. A floor
        // (a case below it) runs the trace through the pipeline under it.
        let integer_only = |change: &Change| {
            change.settings().all(|s| {
                matches!(
                    s.key,
                    SettingKey::ReturnN | SettingKey::MaxChunksPerDocument
                )
            })
        };
        let applied: Vec<bool> = changes
            .iter()
            .map(|change| integer_only(change) && change.apply(user).is_ok())
            .collect();
        let rerun = changes
            .iter()
            .map(|change| {
                (!integer_only(change))
                    .then(|| change.apply(user).ok())
                    .flatten()
            })
            .collect();
        let impacts: Vec<ChangeImpact> = changes
            .iter()
            .map(|&set| ChangeImpact {
                set,
                recovers: 0,
                recovered_cases: Vec::new(),
                traces_changed: 0,
                level_transitions: BTreeMap::new(),
                hit_level_drops: 0,
            })
            .collect();
        let mut cases_of: Vec<Vec<usize>> = vec![Vec::new(); traces];
        for (at, case) in cases.iter().enumerate() {
            if let Some(list) = case.link.and_then(|(i, _)| cases_of.get_mut(i)) {
                list.push(at);
            }
        }
        let recovered_at = vec![Vec::new(); changes.len()];
        let limits = changes
            .iter()
            .map(|change| {
                (
                    change.count(SettingKey::MaxChunksPerDocument),
                    change.count(SettingKey::ReturnN),
                )
            })
            .collect();
        Summariser {
            cases,
            user,
            rerun,
            transitions: vec![Default::default(); changes.len()],
            limits,
            applied,
            impacts,
            cases_of,
            recovered_at,
            hits: Vec::new(),
        }
    }

    /// What each change does to trace `i` (`table` filled for it).
    pub(crate) fn add_trace(
        &mut self,
        i: usize,
        t: &TraceAnalysis,
        table: &Tables,
        hit_scratch: &mut HitScratch,
        pipeline: &mut Scratch,
    ) {
        self.rerun_trace(i, t, hit_scratch, pipeline);
        let cases = self.cases;
        let linked = self.cases_of.get(i).map(Vec::as_slice).unwrap_or_default();
        let hits = &mut self.hits;
        hits.clear();
        let per_change = self
            .limits
            .iter()
            .zip(&self.applied)
            .zip(&mut self.impacts)
            .zip(&mut self.transitions);
        for ((((limits, applied), impact), transitions), recovered) in
            per_change.zip(&mut self.recovered_at)
        {
            if !applied {
                continue;
            }
            let cap = limits.0.unwrap_or(table.cap);
            let return_n = limits.1.unwrap_or(table.return_n);
            if table.same_list(cap, return_n) {
                continue;
            }
            impact.traces_changed += 1;
            let level = outcome(table.top_quality(cap, return_n), &t.config, None).level;
            if level != t.relevance_level {
                if let Some(count) = transitions
                    .get_mut(t.relevance_level.index())
                    .and_then(|to| to.get_mut(level.index()))
                {
                    *count += 1;
                }
            }
            for &at in linked {
                let Some(case) = cases.get(at) else { continue };
                let Some(probe) = &case.probe else { continue };
                let found = if table.extends_current(cap, return_n) {
                    // The list only grows at its end: no hit is lost, so only whether
                    // an expected document comes in matters.
                    case.expected
                        .iter()
                        .any(|&j| table.accepts(j, cap, return_n))
                } else {
                    let key = table.list_key(cap, return_n);
                    let known = hits
                        .iter()
                        .find(|&&(case_at, list, _, _)| case_at == at && list == key)
                        .map(|&(_, _, level, doc_hit)| (level, doc_hit));
                    let (level, doc_hit) = known.unwrap_or_else(|| {
                        // The list the pipeline accepts under the change is the tables'
                        // (the module's facts): the first blocks of one walk.
                        let (candidates, hot) = (t.trace.candidates(), t.trace.hot());
                        let accepted = table
                            .accepted_under(cap, return_n)
                            .filter_map(|j| hot.get(j))
                            .filter_map(|h| candidates.get(h.index));
                        let (level, doc_hit) = probe.hit(accepted, hit_scratch);
                        hits.push((at, key, level, doc_hit));
                        (level, doc_hit)
                    });
                    if hit_rank(level) > hit_rank(case.explanation.hit) {
                        impact.hit_level_drops += 1;
                    }
                    doc_hit
                };
                if case.explanation.cause != Cause::Found && found {
                    recovered.push(at);
                }
            }
        }
    }

    /// What each change the tables do not answer for does to trace `i`, from the
    /// pipeline run again under it.
    fn rerun_trace(
        &mut self,
        i: usize,
        t: &TraceAnalysis,
        hit_scratch: &mut HitScratch,
        pipeline: &mut Scratch,
    ) {
        let cases = self.cases;
        let linked = self.cases_of.get(i).map(Vec::as_slice).unwrap_or_default();
        let per_change = self
            .rerun
            .iter()
            .zip(&mut self.impacts)
            .zip(&mut self.transitions)
            .zip(&mut self.recovered_at);
        for (((rerun, impact), transitions), recovered) in per_change {
            let Some((settings, global)) = rerun else {
                continue;
            };
            let after = reanalyze_trace(t, self.user, settings, global, pipeline);
            if after.accepted_indices().eq(t.accepted_indices()) {
                continue;
            }
            impact.traces_changed += 1;
            if after.relevance_level != t.relevance_level {
                if let Some(count) = transitions
                    .get_mut(t.relevance_level.index())
                    .and_then(|to| to.get_mut(after.relevance_level.index()))
                {
                    *count += 1;
                }
            }
            for &at in linked {
                let Some(case) = cases.get(at) else { continue };
                let Some(probe) = &case.probe else { continue };
                let (level, doc_hit) = probe.hit(after.accepted_candidates(), hit_scratch);
                if hit_rank(level) > hit_rank(case.explanation.hit) {
                    impact.hit_level_drops += 1;
                }
                if case.explanation.cause != Cause::Found && doc_hit {
                    recovered.push(at);
                }
            }
        }
    }

    pub(crate) fn finish(self, traces: usize) -> ExplainSummary {
        let cases = self.cases;
        let mut impacts: Vec<ChangeImpact> = self
            .impacts
            .into_iter()
            .zip(
                self.applied
                    .iter()
                    .zip(&self.rerun)
                    .map(|(a, r)| *a || r.is_some()),
            )
            .zip(self.recovered_at)
            .zip(&self.transitions)
            .filter(|(((_, applied), _), _)| *applied)
            .map(|(((mut impact, _), mut recovered), transitions)| {
                for (from, to, &count) in
                    Level::ALL.iter().zip(transitions).flat_map(|(from, row)| {
                        Level::ALL
                            .iter()
                            .zip(row)
                            .map(move |(to, count)| (from, to, count))
                    })
                {
                    if count > 0 {
                        let name = format!("{}->{}", from.as_str(), to.as_str());
                        impact.level_transitions.insert(name, count);
                    }
                }
                recovered.sort_unstable();
                impact.recovered_cases = recovered
                    .iter()
                    .filter_map(|&at| cases.get(at))
                    .map(|c| c.explanation.case_id.clone())
                    .collect();
                impact.recovers = impact.recovered_cases.len();
                impact
            })
            .collect();
        impacts.sort_by(|a, b| {
            b.recovers
                .cmp(&a.recovers)
                .then(a.traces_changed.cmp(&b.traces_changed))
                .then(a.hit_level_drops.cmp(&b.hit_level_drops))
        });
        ExplainSummary {
            traces,
            cases: cases.len(),
            causes: causes(cases.iter().map(|c| c.explanation.cause)),
            misses: cases
                .iter()
                .filter(|c| c.explanation.cause != Cause::Found)
                .count(),
            changes: impacts,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::explain_analysis;
    use super::{hit_rank, Cause};
    use crate::analysis::analyze;
    use crate::config::Settings;
    use crate::golden::{evaluate_analysis, parse_cases};
    use crate::input::parse_document;
    use crate::sample::{generate_batch, generate_cases};
    use std::collections::BTreeMap;

    /// The summary's figures, read off each trace's tables, are those of the pipeline
    /// run over the whole batch under each change and evaluated again.
    #[test]
    fn every_change_s_figures_are_the_pipeline_s() {
        let with = |return_n: Option<usize>, cap: Option<usize>| Settings {
            return_n,
            max_chunks_per_document: cap,
            ..Settings::default()
        };
        let runs = [
            (3, with(None, None)),
            (5, with(Some(3), None)),
            (9, with(None, Some(1))),
            (11, with(Some(12), Some(2))),
        ];
        // A batch whose fixes move levels: the better block comes in with a larger
        // returnN (generated batches rank their best block first).
        let moving = (
            r#"[{"query": "q1", "mode": "dense", "candidates": [
                {"evidenceKey": "a#1", "docId": "a", "originalRank": 1, "score": 1.1},
                {"evidenceKey": "b#1", "docId": "b", "originalRank": 2, "score": 0.05}]},
               {"query": "q2", "mode": "dense", "candidates": [
                {"evidenceKey": "c#1", "docId": "c", "originalRank": 1, "score": 0.6},
                {"evidenceKey": "c#2", "docId": "c", "originalRank": 2, "score": 0.1}]}]"#
                .to_owned(),
            r#"[{"caseId": "b", "query": "q1", "expectedDocIds": ["b"]},
                {"caseId": "c", "query": "q2", "expectedDocIds": ["c"]}]"#
                .to_owned(),
            with(Some(1), None),
        );
        let generated = runs.into_iter().map(|(seed, settings)| {
            (
                generate_batch(150, 20, seed),
                generate_cases(150, 20, seed),
                settings,
            )
        });
        let mut compared = 0;
        let mut moved_levels = 0;
        for (traces, cases, settings) in generated.chain([moving]) {
            let batch = parse_document("t", &traces);
            let Ok(cases) = parse_cases("c", &cases) else {
                panic!("cases");
            };
            let Ok(now) = analyze(&batch, &settings, false) else {
                panic!("settings");
            };
            let Ok(explained) = explain_analysis(&now, &settings, Some(&cases)) else {
                panic!("settings");
            };
            let report_now = evaluate_analysis(&cases, &now);
            for impact in &explained.summary.changes {
                let Ok(after) = analyze(&batch, &impact.set.applied_to(&settings), false) else {
                    panic!("a listed change is valid");
                };
                let report_after = evaluate_analysis(&cases, &after);
                let recovered: Vec<&str> = explained
                    .cases
                    .iter()
                    .zip(&report_after.cases)
                    .filter(|(c, r)| c.cause != Cause::Found && r.doc_hit)
                    .map(|(c, _)| c.case_id.as_str())
                    .collect();
                assert_eq!(impact.recovered_cases, recovered, "{}", impact.set);
                let drops = report_now
                    .cases
                    .iter()
                    .zip(&report_after.cases)
                    .filter(|(a, b)| hit_rank(b.level) > hit_rank(a.level))
                    .count();
                assert_eq!(impact.hit_level_drops, drops, "{}", impact.set);
                let changed = now
                    .traces
                    .iter()
                    .zip(&after.traces)
                    .filter(|(a, b)| !a.accepted_indices().eq(b.accepted_indices()))
                    .count();
                assert_eq!(impact.traces_changed, changed, "{}", impact.set);
                let mut transitions = BTreeMap::new();
                for (a, b) in now.traces.iter().zip(&after.traces) {
                    if a.relevance_level != b.relevance_level {
                        let name = format!(
                            "{}->{}",
                            a.relevance_level.as_str(),
                            b.relevance_level.as_str()
                        );
                        *transitions.entry(name).or_insert(0) += 1;
                    }
                }
                assert_eq!(impact.level_transitions, transitions, "{}", impact.set);
                moved_levels += transitions.len();
                compared += 1;
            }
        }
        assert!(compared > 0);
        assert!(moved_levels > 0, "some change moves some trace's level");
    }
}

//! Findings across the batch: one entry per diagnostic code.

use super::summary::ModeSummary;
use crate::diagnostic::Severity;
use crate::trace_analysis::{Finding, TraceAnalysis, COMPUTED_CODES};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// One kind of finding across the batch.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct BatchWarning {
    pub code: String,
    pub severity: Severity,
    /// Traces with at least one finding of this code.
    pub traces: usize,
    /// What the group's traces have in common, from the code and the batch's counts
    /// (see [`group_message`]); each trace's own message is among its diagnostics.
    pub message: String,
    /// Names of the first few traces concerned.
    pub examples: Vec<String>,
}

pub(crate) const EXAMPLES: usize = 5;

/// A trace that a warning names: by its `requestId`, else by its position in the
/// batch (`#<position>`), which a part of a batch learns only when the parts before
/// it are known.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub(crate) struct Example {
    /// 1-based position among the traces the builder was given (failed ones counted).
    pub(crate) position: usize,
    pub(crate) request_id: Option<Arc<str>>,
}

impl Example {
    /// The trace's name, its position moved on by the `offset` traces before the builder's.
    pub(crate) fn name(&self, offset: usize) -> String {
        match &self.request_id {
            Some(id) => id.to_string(),
            None => format!("#{}", offset.saturating_add(self.position)),
        }
    }
}

/// A [`BatchWarning`] being counted, with where it first appeared, so that counts of
/// parts of a batch can be put together in batch order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct WarningTally {
    pub(crate) code: String,
    pub(crate) severity: Severity,
    pub(crate) traces: usize,
    /// The first finding's message: kept in a partial's encoding, not shown (a group
    /// is described by [`group_message`]).
    pub(crate) message: String,
    /// The first trace's position, and the entry's index among the builder's entries:
    /// codes first seen on the same trace keep the order they were seen in.
    pub(crate) first: (usize, usize),
    /// The first few traces concerned, in batch order.
    pub(crate) examples: Vec<Example>,
}

impl WarningTally {
    /// The warning, names of unnamed traces moved on by `offset` positions; `batch` is
    /// the summary of the whole batch the tally counted.
    pub(crate) fn finish(self, offset: usize, batch: &ModeSummary) -> BatchWarning {
        BatchWarning {
            message: group_message(&self.code, self.traces, batch),
            code: self.code,
            severity: self.severity,
            traces: self.traces,
            examples: self.examples.iter().map(|e| e.name(offset)).collect(),
        }
    }
}

/// The headline of the group of `traces` traces with findings of `code`: what they
/// have in common, with the batch's counts that tell the group apart (`batch` is the
/// summary of the whole batch). Never one trace's message, which says only what that
/// trace has: one trace's level change would read as the whole group's. Shown after
/// the group's count ("430 traces: ..."), by the page and in the CLI's JSON.
pub(crate) fn group_message(code: &str, traces: usize, batch: &ModeSummary) -> String {
    let text = match code {
        "recorded-differs" => {
            // Every trace whose recorded level differs has this finding; the rest
            // differ in lowQuality only.
            let in_level = batch.level_differs.min(traces);
            return match (in_level, traces) {
                (0, _) => "the recorded lowQuality differs from the recomputed one".to_owned(),
                (_, 1) => "the recorded level or lowQuality differs from the recomputed one \
                           (in relevanceLevel; see Transitions)"
                    .to_owned(),
                _ => format!(
                    "the recorded level or lowQuality differs from the recomputed one \
                     ({in_level} of them in relevanceLevel; see Transitions)"
                ),
            };
        }
        "evidence-differs" => "the recorded evidence differs from the recomputed accepted blocks",
        "low-quality-gate-inert" => {
            "hybrid with rank quality: the top quality is 1.0, so the low-quality gate cannot fire"
        }
        "wrong-type" => "a field has the wrong type: treated as absent, or the item skipped",
        "invalid-options" => {
            "the trace's own options are invalid: computed with defaults plus the user's settings"
        }
        "candidate-not-object" => "a candidate is not an object: skipped",
        "missing-rank" => "a candidate has no originalRank: its position in the array is used",
        "invalid-rank" => "a candidate's rank is not an integer >= 1: the candidate is invalid",
        "unknown-label" => "a candidate has no known score label or trace mode: quality 0",
        "negative-distance" => "a negative distance is treated as 0",
        "unknown-kind" => "the kind is neither RerankTrace nor LookupResult: recognised by shape",
        "candidates-ignored" => {
            "a LookupResult's candidates are ignored: its evidence (or embedded trace) is analysed"
        }
        "embedded-trace-unusable" => {
            "the embedded trace has no candidates array: the evidence is analysed instead"
        }
        "n-approximated" => "n is approximated from a LookupResult's capped evidence list",
        _ => "findings of this code: each trace's diagnostics say what and where",
    };
    text.to_owned()
}

/// Warnings and errors of every trace, grouped by code, in order of first appearance,
/// counted one trace at a time (while the trace is still in cache).
#[derive(Debug, Default)]
pub(crate) struct WarningsBuilder {
    out: Vec<WarningTally>,
    /// Indices into `out` already counted for the current trace; reused across traces.
    counted: Vec<usize>,
    /// Where the entry of each code of [`COMPUTED_CODES`] is in `out`, once there is
    /// one: most traces' findings are of these codes, found here without comparing text.
    computed: [Option<usize>; COMPUTED_CODES.len()],
}

impl WarningsBuilder {
    pub(crate) fn add(&mut self, t: &TraceAnalysis) {
        self.counted.clear();
        for finding in t.common_findings() {
            self.count(t, finding);
        }
        if t.has_scores_out_of_range() {
            for finding in t.out_of_range_findings() {
                self.count(t, finding);
            }
        }
    }

    /// One finding of `t`, counted once per code and trace.
    fn count(&mut self, t: &TraceAnalysis, finding: Finding<'_>) {
        let example = || Example {
            position: t.trace.position,
            request_id: t.trace.request_id.clone(),
        };
        let severity = finding.severity();
        if severity < Severity::Warning {
            return;
        }
        let entry = match finding.computed() {
            Some(at) => self.computed.get(at).copied().flatten(),
            None => self.out.iter().position(|w| w.code == finding.code()),
        };
        match entry {
            Some(at) => {
                if self.counted.contains(&at) {
                    return;
                }
                self.counted.push(at);
                if let Some(w) = self.out.get_mut(at) {
                    w.traces += 1;
                    w.severity = w.severity.max(severity);
                    if w.examples.len() < EXAMPLES {
                        w.examples.push(example());
                    }
                }
            }
            None => {
                // The message is written only for the first trace with this code.
                let d = finding.diagnostic(t);
                let at = self.out.len();
                self.counted.push(at);
                // A stored diagnostic of one of these codes shares its entry too.
                if let Some(slot) = COMPUTED_CODES
                    .iter()
                    .position(|code| *code == d.code)
                    .and_then(|i| self.computed.get_mut(i))
                {
                    *slot = Some(at);
                }
                self.out.push(WarningTally {
                    code: d.code,
                    severity,
                    traces: 1,
                    message: d.message,
                    first: (t.trace.position, at),
                    examples: vec![example()],
                });
            }
        }
    }

    /// The warnings, in order of first appearance (positions are the batch's); `batch`
    /// is the summary of the traces the builder was given.
    pub(crate) fn finish(self, batch: &ModeSummary) -> Vec<BatchWarning> {
        self.out.into_iter().map(|w| w.finish(0, batch)).collect()
    }

    /// The entries being counted, in order of first appearance.
    pub(crate) fn into_tallies(self) -> Vec<WarningTally> {
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::analyze;
    use crate::config::Settings;
    use crate::input::parse_document;
    use crate::sample::generate_batch_lines;
    use serde_json::{json, Value};

    /// The batch's warnings are every finding grouped by its code in order of first
    /// appearance, whichever way the builder finds an entry (by the code's text, or by
    /// the slot of a finding the configuration causes).
    #[test]
    fn counted_warnings_group_every_finding_by_its_code() {
        // Every ninth trace's own options are invalid: an error made while reading,
        // found by its code's text, among the configuration's findings.
        let lines: Vec<String> = generate_batch_lines(400, 8, 11)
            .enumerate()
            .map(|(i, line)| {
                let mut trace: Value = serde_json::from_str(&line).expect("generated JSON");
                if i % 9 == 0 {
                    trace["options"] = json!({ "maxL2Distance": -5 });
                }
                trace.to_string()
            })
            .collect();
        let batch = parse_document("generated", &lines.join("\n"));
        let analysis = analyze(&batch, &Settings::default(), false).expect("default settings");
        let mut expected: Vec<BatchWarning> = Vec::new();
        for t in &analysis.traces {
            let mut seen: Vec<String> = Vec::new();
            for finding in t.findings() {
                let severity = finding.severity();
                if severity < Severity::Warning || seen.iter().any(|c| c == finding.code()) {
                    continue;
                }
                seen.push(finding.code().to_owned());
                match expected.iter_mut().find(|w| w.code == finding.code()) {
                    Some(w) => {
                        w.traces += 1;
                        w.severity = w.severity.max(severity);
                        if w.examples.len() < EXAMPLES {
                            w.examples.push(t.name().into_owned());
                        }
                    }
                    None => {
                        let d = finding.diagnostic(t);
                        expected.push(BatchWarning {
                            code: d.code,
                            severity,
                            traces: 1,
                            message: d.message,
                            examples: vec![t.name().into_owned()],
                        });
                    }
                }
            }
        }
        let codes: Vec<&str> = expected.iter().map(|w| w.code.as_str()).collect();
        assert!(
            COMPUTED_CODES.iter().filter(|c| codes.contains(c)).count() >= 2,
            "the batch should have findings of the configuration: {codes:?}"
        );
        assert!(
            codes.contains(&"invalid-options"),
            "and findings made while reading: {codes:?}"
        );
        for w in &mut expected {
            w.message = group_message(&w.code, w.traces, &analysis.summary.all);
        }
        assert_eq!(analysis.warnings, expected);
    }

    /// A group of lowQuality-only differences, a group of one, and a code the table
    /// does not know: each still describes the group, never a member.
    #[test]
    fn group_messages_name_what_the_group_shares() {
        let mut batch = ModeSummary::default();
        assert_eq!(
            group_message("recorded-differs", 3, &batch),
            "the recorded lowQuality differs from the recomputed one"
        );
        batch.level_differs = 1;
        assert_eq!(
            group_message("recorded-differs", 1, &batch),
            "the recorded level or lowQuality differs from the recomputed one \
             (in relevanceLevel; see Transitions)"
        );
        assert_eq!(
            group_message("a-later-code", 2, &batch),
            "findings of this code: each trace's diagnostics say what and where"
        );
    }

    /// The page's built-in generated sample (500 traces, 8 candidates each, seed 42)
    /// under the defaults: each group is described as a group. Of the 430 traces whose
    /// recorded outcome differs, 389 differ in the level (the summary's
    /// `levelDiffers`, the off-diagonal of Transitions) and the other 41 in lowQuality
    /// alone, so no one trace's "relevanceLevel recorded ... but recomputed ..." can
    /// stand for them.
    #[test]
    fn the_generated_sample_s_findings_describe_their_group() {
        let text = crate::sample::generate_batch(500, 8, 42);
        let batch = parse_document("generated-500.json", &text);
        let analysis = analyze(&batch, &Settings::default(), false).expect("default settings");
        assert_eq!(analysis.summary.all.level_differs, 389);
        let groups: Vec<(&str, usize, &str)> = analysis
            .warnings
            .iter()
            .map(|w| (w.code.as_str(), w.traces, w.message.as_str()))
            .collect();
        assert_eq!(
            groups,
            [
                (
                    "low-quality-gate-inert",
                    313,
                    "hybrid with rank quality: the top quality is 1.0, so the low-quality \
                     gate cannot fire"
                ),
                (
                    "recorded-differs",
                    430,
                    "the recorded level or lowQuality differs from the recomputed one \
                     (389 of them in relevanceLevel; see Transitions)"
                ),
            ]
        );
        // Each trace keeps its own message among its diagnostics.
        let first = analysis
            .traces
            .iter()
            .find(|t| t.level_differs)
            .expect("a trace whose level differs");
        assert!(first
            .diagnostics()
            .iter()
            .any(|d| d.code == "recorded-differs"
                && d.message.starts_with("relevanceLevel recorded")));
    }
}

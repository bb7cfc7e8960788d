//! Findings across the batch: one entry per diagnostic code.

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
    /// The first finding's message.
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
    /// The first finding's message.
    pub(crate) message: String,
    /// The first trace's position, and the entry's index among the builder's entries:
    /// codes first seen on the same trace keep the order they were seen in.
    pub(crate) first: (usize, usize),
    /// The first few traces concerned, in batch order.
    pub(crate) examples: Vec<Example>,
}

impl WarningTally {
    /// The warning, names of unnamed traces moved on by `offset` positions.
    pub(crate) fn finish(self, offset: usize) -> BatchWarning {
        BatchWarning {
            code: self.code,
            severity: self.severity,
            traces: self.traces,
            message: self.message,
            examples: self.examples.iter().map(|e| e.name(offset)).collect(),
        }
    }
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

    /// The warnings, in order of first appearance (positions are the batch's).
    pub(crate) fn finish(self) -> Vec<BatchWarning> {
        self.out.into_iter().map(|w| w.finish(0)).collect()
    }

    /// The entries being counted, in order of first appearance.
    pub(crate) fn into_tallies(self) -> Vec<WarningTally> {
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::parse_document;
    use crate::sample::generate_batch_lines;
    use crate::{analyze, Settings};
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
        assert_eq!(analysis.warnings, expected);
    }
}

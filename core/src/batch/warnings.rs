//! Findings across the batch: one entry per diagnostic code.

use crate::diagnostic::Severity;
use crate::trace_analysis::{TraceAnalysis, COMPUTED_CODES};
use serde::Serialize;

/// One kind of finding across the batch.
#[derive(Debug, Clone, PartialEq, Serialize)]
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

const EXAMPLES: usize = 5;

/// Warnings and errors of every trace, grouped by code, in order of first appearance,
/// counted one trace at a time (while the trace is still in cache).
#[derive(Debug, Default)]
pub(crate) struct WarningsBuilder {
    out: Vec<BatchWarning>,
    /// Indices into `out` already counted for the current trace; reused across traces.
    counted: Vec<usize>,
    /// Where the entry of each code of [`COMPUTED_CODES`] is in `out`, once there is
    /// one: most traces' findings are of these codes, found here without comparing text.
    computed: [Option<usize>; COMPUTED_CODES.len()],
}

impl WarningsBuilder {
    pub(crate) fn add(&mut self, t: &TraceAnalysis) {
        self.counted.clear();
        for finding in t.findings() {
            let severity = finding.severity();
            if severity < Severity::Warning {
                continue;
            }
            let entry = match finding.computed() {
                Some(at) => self.computed.get(at).copied().flatten(),
                None => self.out.iter().position(|w| w.code == finding.code()),
            };
            match entry {
                Some(at) => {
                    if self.counted.contains(&at) {
                        continue;
                    }
                    self.counted.push(at);
                    if let Some(w) = self.out.get_mut(at) {
                        w.traces += 1;
                        w.severity = w.severity.max(severity);
                        if w.examples.len() < EXAMPLES {
                            w.examples.push(t.name().into_owned());
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
                    self.out.push(BatchWarning {
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

    pub(crate) fn finish(self) -> Vec<BatchWarning> {
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

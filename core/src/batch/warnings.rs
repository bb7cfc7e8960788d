//! Findings across the batch: one entry per diagnostic code.

use crate::diagnostic::Severity;
use crate::trace_analysis::TraceAnalysis;
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
}

impl WarningsBuilder {
    pub(crate) fn add(&mut self, t: &TraceAnalysis) {
        self.counted.clear();
        for finding in t.findings() {
            let severity = finding.severity();
            if severity < Severity::Warning {
                continue;
            }
            match self.out.iter().position(|w| w.code == finding.code()) {
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
                    self.counted.push(self.out.len());
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

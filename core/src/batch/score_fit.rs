//! Whether a batch's scores fit the `scoreKind` declared for them (contract section
//! 10.1): similarities fall along the retrieval order while distances rise, and each
//! kind has its range. Counted one trace at a time; the counts add up, so partials
//! of a batch merge to the batch's own.

use crate::batch::BatchWarning;
use crate::config::ScoreKind;
use crate::diagnostic::Severity;
use crate::score_kind::{range_text, rises_with_distance};
use crate::trace_analysis::{ScoreDirection, TraceAnalysis};
use serde::{Deserialize, Serialize};

/// The code of the line that says the scores contradict the declared kind.
pub(crate) const KIND_MISMATCH: &str = "score-kind-mismatch";
/// The code of the line that says most scores are out of their kind's range.
pub(crate) const MOSTLY_OUT_OF_RANGE: &str = "scores-out-of-range";

/// How a batch's scores fit its kinds, as counts that add up.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub(crate) struct ScoreFit {
    /// Traces whose scored dense candidates rise along the rank (first < last).
    rising: usize,
    /// ... fall along it (first > last).
    falling: usize,
    /// Traces of either direction that contradict their own kind.
    contradicting: usize,
    /// Scores read under a kind other than l2, which has no range to check (a dense
    /// score, a `denseDistance` read).
    read: usize,
    /// Of them, those outside their kind's range.
    out_of_range: usize,
    /// Traces with at least one score out of range.
    traces_out_of_range: usize,
}

impl ScoreFit {
    pub(crate) fn add(&mut self, t: &TraceAnalysis) {
        if let Some(direction) = t.score_direction() {
            let rises = direction == ScoreDirection::Rising;
            if rises {
                self.rising += 1;
            } else {
                self.falling += 1;
            }
            if rises != rises_with_distance(t.config.score_kind) {
                self.contradicting += 1;
            }
        }
        let (read, out) = t.scores_read();
        self.read = self.read.saturating_add(read);
        self.out_of_range = self.out_of_range.saturating_add(out);
        self.traces_out_of_range += usize::from(out > 0);
    }

    pub(crate) fn merge(&mut self, other: &ScoreFit) {
        self.rising = self.rising.saturating_add(other.rising);
        self.falling = self.falling.saturating_add(other.falling);
        self.contradicting = self.contradicting.saturating_add(other.contradicting);
        self.read = self.read.saturating_add(other.read);
        self.out_of_range = self.out_of_range.saturating_add(other.out_of_range);
        self.traces_out_of_range = self
            .traces_out_of_range
            .saturating_add(other.traces_out_of_range);
    }

    /// The batch's lines about its scores under `kind` (the batch's configuration):
    /// one when more than half of the traces with a direction contradict their kind,
    /// one when more than half of the scores read are out of their kind's range.
    pub(crate) fn warnings(&self, kind: ScoreKind) -> impl Iterator<Item = BatchWarning> {
        let directed = self.rising.saturating_add(self.falling);
        let mismatch = (self.contradicting > directed / 2 && self.contradicting > 0).then(|| {
            let (verb, count, look) = if self.rising >= self.falling {
                ("rise", self.rising, "distances")
            } else {
                ("fall", self.falling, "similarities")
            };
            BatchWarning {
                code: KIND_MISMATCH.to_owned(),
                severity: Severity::Warning,
                traces: self.contradicting,
                message: format!(
                    "scores {verb} along the rank in {count} of {directed} traces: these look like {look}, but scoreKind is {}",
                    kind.as_str()
                ),
                examples: Vec::new(),
            }
        });
        let out_of_range =
            (self.out_of_range > self.read / 2 && self.out_of_range > 0).then(|| BatchWarning {
                code: MOSTLY_OUT_OF_RANGE.to_owned(),
                severity: Severity::Warning,
                traces: self.traces_out_of_range,
                message: format!(
                    "{} of {} scores are outside the range {} of scoreKind {}: the scores are of another kind",
                    self.out_of_range,
                    self.read,
                    range_text(kind),
                    kind.as_str()
                ),
                examples: Vec::new(),
            });
        mismatch.into_iter().chain(out_of_range)
    }
}

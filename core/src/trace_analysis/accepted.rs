//! What a golden evaluation reads of an analysis, kept so that a shell can tell, before
//! evaluating, that a new analysis would give the report the last one gave.

use super::{Decided, TraceAnalysis};
use crate::input::Trace;
use crate::pipeline::Status;
use std::sync::Arc;

/// Each trace's accepted blocks (in `acceptedRank` order) and effective `returnN` under
/// one analysis: all that [`evaluate_analysis`](crate::evaluate_analysis) reads of it
/// besides the traces as read and the configuration it echoes. Two analyses whose
/// accepted lists are equal give equal reports for any cases, `config` aside.
///
/// Only `returnN` and `maxChunksPerDocument` decide which blocks are accepted; a move of
/// `maxL2Distance`, `hybridQuality`, a threshold or `excerptMaxChars` leaves the lists
/// as they were. Comparing is cheap after such a move
/// ([`Analysis::reanalyze`](crate::analysis::Analysis::reanalyze) shares the decisions, so a trace
/// compares by pointer); otherwise a trace compares its accepted candidates' indices.
#[derive(Debug, Clone, PartialEq)]
pub struct AcceptedLists(Vec<AcceptedList>);

/// One trace's part of [`AcceptedLists`].
#[derive(Debug, Clone)]
struct AcceptedList {
    trace: Arc<Trace>,
    /// The trace's effective `returnN`: the ranking metrics' cut-off.
    k: usize,
    decided: Arc<[Decided]>,
}

fn accepted_indices(decided: &[Decided]) -> impl Iterator<Item = usize> + '_ {
    decided
        .iter()
        .filter(|d| d.status == Status::Accepted)
        .map(|d| d.index)
}

impl PartialEq for AcceptedList {
    fn eq(&self, other: &Self) -> bool {
        // The same trace read once (its name, caseId, query and blocks' text), the same
        // cut-off, and the same candidates accepted in the same order.
        Arc::ptr_eq(&self.trace, &other.trace)
            && self.k == other.k
            && (Arc::ptr_eq(&self.decided, &other.decided)
                || accepted_indices(&self.decided).eq(accepted_indices(&other.decided)))
    }
}

impl AcceptedList {
    fn of(trace: &TraceAnalysis) -> Self {
        AcceptedList {
            trace: Arc::clone(&trace.trace),
            k: trace.return_n(),
            decided: Arc::clone(&trace.decided),
        }
    }
}

impl AcceptedLists {
    /// The accepted lists of `traces`, one analysis's traces in batch order.
    pub(crate) fn of(traces: &[TraceAnalysis]) -> Self {
        AcceptedLists(traces.iter().map(AcceptedList::of).collect())
    }
}

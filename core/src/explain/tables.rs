//! What `returnN` and `maxChunksPerDocument` do to one trace, for every value at once,
//! read off the pipeline's own decisions.
//!
//! Three facts of contract section 3.3 make this exact with the analysis' decisions
//! under the configuration and one walk with no limits (which accepts every candidate
//! but those no setting accepts: [`crate::pipeline::never_accepted`]):
//!
//! - Under a fixed cap, the blocks accepted with `returnN = R` are the first `R` of
//!   those accepted with no `returnN` limit: the walk is the same until `R` blocks are
//!   accepted, and after that nothing more is. So one pass with no limit gives, per
//!   candidate, the least `returnN` that accepts it under that cap (its position in
//!   that pass) and, per `returnN`, the accepted list and its top quality.
//! - A cap of `m` or more, where `m` is the most blocks one document gets with no cap
//!   at all, decides as no cap does. So the caps `1 ..= m` are every behaviour there is.
//! - Under a cap of `c` (and no `returnN` limit) a document's blocks are accepted in the
//!   walk's order until `c` of them are: the blocks accepted are those the walk with no
//!   limit at all accepts as one of the first `c` of their document, in its order. So
//!   one walk with no limits decides every cap.
//!
//! Nothing here is monotone in the cap: a larger cap can push a candidate past `returnN`
//! (its document's extra blocks take the places), which is why every cap is decided.

use crate::pipeline::{never_accepted, Status};
use crate::trace_analysis::{quality_of, TraceAnalysis};

/// The acceptance of every candidate of one trace under every cap, with no `returnN`
/// limit, and the qualities under the trace's current configuration (the integer
/// settings never change a quality).
#[derive(Debug, Clone, Default)]
pub(crate) struct Tables {
    /// Candidates, in processing order (section 3.3).
    positions: usize,
    /// The cap from which on every cap decides the same (at least 1).
    saturating_cap: usize,
    /// `accepted[(cap - 1) * positions + j]`: the 1-based position among the accepted of
    /// candidate `j` under `cap` and no `returnN` limit; 0 when it is not accepted.
    accepted: Vec<u32>,
    /// `best[(cap - 1) * positions + k]`: the best quality among the first `k + 1` accepted
    /// under `cap`. Empty when the qualities only fall along the walk (see `first_top`).
    best: Vec<f64>,
    /// When the qualities of the blocks the walk with no limits accepts never rise along
    /// it (retrieval order is usually quality order), the first of them: the first block
    /// every setting accepts, hence the top quality under every setting that accepts any.
    first_top: Option<f64>,
    /// Accepted under each cap with no `returnN` limit.
    totals: Vec<usize>,
    /// Per candidate in processing order: its quality (0 for a candidate no setting
    /// accepts: a duplicate or an invalid rank, whose quality nothing reads), its status
    /// now.
    pub(crate) quality: Vec<f64>,
    pub(crate) status: Vec<Status>,
    /// The trace's current `maxChunksPerDocument` and `returnN`.
    pub(crate) cap: usize,
    pub(crate) return_n: usize,
    /// The caps that decide differently from the current one, as `(distance, cap)`,
    /// nearest first (see [`Tables::other_caps`]).
    caps: Vec<(usize, usize)>,
    /// Per entry of `caps`, where its row starts in `accepted`.
    cap_rows: Vec<usize>,
    /// `common[cap - 1]`: how many accepted blocks the walks under `cap` and under the
    /// current cap (both with no `returnN` limit) share before they first differ.
    common: Vec<usize>,
    /// Scratch of [`Tables::fill`]: blocks per document with no cap, and per candidate
    /// in processing order how many of its document's blocks that walk accepted before
    /// it (`usize::MAX`: not accepted).
    per_doc_count: Vec<usize>,
    occurrence: Vec<usize>,
}

impl Tables {
    /// Decides `t`'s trace under every cap.
    #[cfg(test)]
    pub(crate) fn of(t: &TraceAnalysis) -> Tables {
        let mut tables = Tables::default();
        tables.fill(t);
        tables
    }

    /// [`Tables::of`] into these tables' buffers: explaining a batch reuses one set of
    /// tables, so a trace allocates nothing here.
    pub(crate) fn fill(&mut self, t: &TraceAnalysis) {
        let (trace, config) = (&*t.trace, &t.config);
        let n = trace.candidates().len();
        let positions = trace.hot().len();
        self.positions = positions;
        self.cap = config.max_chunks_per_document;
        self.return_n = config.return_n;
        // The statuses under the configuration are the analysis's own decisions.
        self.status.clear();
        self.status.extend(t.statuses());
        // No cap: each candidate the walk accepts (every one but those no setting
        // accepts), with how many blocks of its document were accepted before it (its
        // occurrence), hence the saturating cap. Only the blocks this walk accepts are
        // accepted under any cap and `returnN`, so only their qualities are ever read.
        self.per_doc_count.clear();
        self.per_doc_count.resize(trace.doc_count(), 0);
        self.occurrence.clear();
        self.quality.clear();
        for h in trace.hot() {
            if never_accepted(h).is_some() {
                self.occurrence.push(usize::MAX);
                self.quality.push(0.0);
                continue;
            }
            let at = match self.per_doc_count.get_mut(h.doc_slot) {
                Some(count) => {
                    *count += 1;
                    *count - 1
                }
                // The walk holds nothing for a slot it has no room for.
                None => 0,
            };
            self.occurrence.push(at);
            self.quality.push(quality_of(h, n, config).score);
        }
        self.saturating_cap = self.per_doc_count.iter().copied().max().unwrap_or(0).max(1);
        let m = self.saturating_cap;
        self.first_top = falling_first(&self.occurrence, &self.quality);
        self.accepted.clear();
        self.accepted.resize(m * positions, 0);
        self.best.clear();
        if self.first_top.is_none() {
            self.best.resize(m * positions, 0.0);
        }
        self.totals.clear();
        self.totals.resize(m, 0);
        self.common.clear();
        let current = self.cap.clamp(1, m);
        // Every cap from the one walk with no limits (the module's third fact): under
        // `cap`, the candidates accepted with an occurrence below it, in order.
        for cap in 1..=m {
            let row = (cap - 1) * positions;
            let Some(accepted) = self.accepted.get_mut(row..row + positions) else {
                self.common.push(0);
                continue;
            };
            let mut total = 0usize;
            // The blocks this walk accepts before it first differs from the current
            // cap's walk (see `common`).
            let mut shared = 0usize;
            let mut diverged = false;
            // Each block is written whether this cap accepts it or not, by selects rather
            // than a branch: the occurrences of a trace's blocks mix, so a branch on them
            // is mispredicted often. A block left out writes 0 (as the row holds).
            let mut count = |slot: &mut u32, at: usize| {
                let inside = at < cap;
                diverged |= inside != (at < current);
                shared += usize::from(inside && !diverged);
                total += usize::from(inside);
                *slot = if inside { total as u32 } else { 0 };
                (inside, total)
            };
            // The best qualities only when the top quality is not known without them:
            // their chain of maxima is what bounds this loop's speed.
            let best = match self.first_top {
                Some(_) => None,
                None => self.best.get_mut(row..row + positions),
            };
            match best {
                None => {
                    for (slot, &at) in accepted.iter_mut().zip(&self.occurrence) {
                        count(slot, at);
                    }
                }
                Some(best) => {
                    // A block left out writes the best so far again, unchanged.
                    let mut top = 0.0f64;
                    for ((slot, &at), &q) in
                        accepted.iter_mut().zip(&self.occurrence).zip(&self.quality)
                    {
                        let (inside, total) = count(slot, at);
                        let raised = if total >= 2 { top.max(q) } else { q };
                        top = if inside { raised } else { top };
                        if let Some(b) = best.get_mut(total.wrapping_sub(1)) {
                            *b = top;
                        }
                    }
                }
            }
            if let Some(slot) = self.totals.get_mut(cap - 1) {
                *slot = total;
            }
            self.common.push(shared);
        }
        let from = self.cap;
        self.caps.clear();
        self.caps.extend(
            (1..=m)
                .filter(|&cap| cap != current)
                .map(|cap| (cap.abs_diff(from), cap)),
        );
        self.caps.sort_unstable();
        self.cap_rows.clear();
        self.cap_rows
            .extend(self.caps.iter().map(|&(_, cap)| (cap - 1) * positions));
    }

    fn row(&self, cap: usize) -> usize {
        (cap.clamp(1, self.saturating_cap) - 1) * self.positions
    }

    /// Candidates in processing order.
    pub(crate) fn positions(&self) -> usize {
        self.positions
    }

    /// The cap from which on every cap decides as no cap does.
    #[cfg(test)]
    pub(crate) fn saturating_cap(&self) -> usize {
        self.saturating_cap
    }

    /// Candidate `j`'s position among the accepted under `cap` with no `returnN` limit:
    /// the least `returnN` that accepts it under `cap`; `None` when no `returnN` does.
    pub(crate) fn least_return_n(&self, j: usize, cap: usize) -> Option<usize> {
        match self.accepted.get(self.row(cap) + j).copied() {
            None | Some(0) => None,
            Some(at) => Some(at as usize),
        }
    }

    /// Whether candidate `j` is accepted under `cap` and `return_n`.
    pub(crate) fn accepts(&self, j: usize, cap: usize, return_n: usize) -> bool {
        self.least_return_n(j, cap).is_some_and(|at| at <= return_n)
    }

    /// How many blocks are accepted under `cap` and `return_n`.
    pub(crate) fn accepted_count(&self, cap: usize, return_n: usize) -> usize {
        self.totals
            .get(cap.clamp(1, self.saturating_cap) - 1)
            .copied()
            .unwrap_or(0)
            .min(return_n)
    }

    /// The top quality under `cap` and `return_n` (`None`: nothing accepted).
    pub(crate) fn top_quality(&self, cap: usize, return_n: usize) -> Option<f64> {
        let count = self.accepted_count(cap, return_n);
        if count == 0 {
            return None;
        }
        self.first_top
            .or_else(|| self.best.get(self.row(cap) + count - 1).copied())
    }

    /// What names the list accepted under `cap` and `return_n`: the caps that decide
    /// alike as one class, and the list's length. Settings with the same key accept the
    /// very same blocks in the same order (the first blocks of the same walk).
    pub(crate) fn list_key(&self, cap: usize, return_n: usize) -> (usize, usize) {
        (
            cap.clamp(1, self.saturating_cap),
            self.accepted_count(cap, return_n),
        )
    }

    /// Whether `cap` and `return_n` accept the very list the current settings do.
    /// Both lists are the first blocks of their walks, so they are the same list when
    /// they are as long and the two walks agree that far.
    pub(crate) fn same_list(&self, cap: usize, return_n: usize) -> bool {
        let now = self.accepted_count(self.cap, self.return_n);
        let shared = self
            .common
            .get(cap.clamp(1, self.saturating_cap) - 1)
            .copied()
            .unwrap_or(0);
        self.accepted_count(cap, return_n) == now && shared >= now
    }

    /// The caps that decide differently from the current one, nearest first: `1 ..
    /// saturating` as themselves and the saturating class as its value nearest to the
    /// current cap. Each comes with its distance from the current cap.
    pub(crate) fn other_caps(&self) -> &[(usize, usize)] {
        &self.caps
    }

    /// The nearest caps (one, or two at the same distance) for which `holds` is true.
    pub(crate) fn nearest_caps<'a>(
        &'a self,
        holds: impl Fn(usize) -> bool + 'a,
    ) -> impl Iterator<Item = usize> + 'a {
        self.nearest_where(move |k| self.caps.get(k).is_some_and(|&(_, cap)| holds(cap)))
    }

    /// [`Tables::nearest_caps`] under which candidate `j` is accepted with `return_n`
    /// (`accepted`) or is not (`!accepted`): what each candidate asks, read straight
    /// off the rows.
    pub(crate) fn nearest_caps_where(
        &self,
        j: usize,
        return_n: usize,
        accepted: bool,
    ) -> impl Iterator<Item = usize> + '_ {
        self.nearest_where(move |k| {
            let at = self
                .cap_rows
                .get(k)
                .and_then(|&row| self.accepted.get(row + j))
                .map_or(0, |&at| at as usize);
            (at != 0 && at <= return_n) == accepted
        })
    }

    /// The nearest caps (one, or two at the same distance) whose place `k` in `caps`
    /// `holds`.
    fn nearest_where<'a>(
        &'a self,
        holds: impl Fn(usize) -> bool + 'a,
    ) -> impl Iterator<Item = usize> + 'a {
        let first = (0..self.caps.len())
            .find(|&k| holds(k))
            .unwrap_or(self.caps.len());
        let distance = self.caps.get(first).map(|&(d, _)| d);
        (first..self.caps.len())
            .take_while(move |&k| self.caps.get(k).map(|&(d, _)| d) == distance)
            .filter(move |&k| holds(k))
            .filter_map(|k| self.caps.get(k).map(|&(_, cap)| cap))
    }

    /// Whether the list accepted under `cap` and `return_n` starts with the current one
    /// (the same cap and at least as many blocks): every hit found now is still found,
    /// and every text read now is still read in the same order.
    pub(crate) fn extends_current(&self, cap: usize, return_n: usize) -> bool {
        self.row(cap) == self.row(self.cap)
            && self.accepted_count(cap, return_n) >= self.accepted_count(self.cap, self.return_n)
    }
}

/// The quality of the first block the walk with no limits accepts, when no later one
/// it accepts has a higher quality (`None` also when it accepts none, or a quality is
/// not a number: then the best qualities are tabled).
fn falling_first(occurrence: &[usize], quality: &[f64]) -> Option<f64> {
    let mut walked = occurrence
        .iter()
        .zip(quality)
        .filter(|&(&at, _)| at != usize::MAX)
        .map(|(_, &q)| q);
    let first = walked.next()?;
    let mut last = first;
    for q in walked {
        // A NaN on either side compares as neither, and fails too.
        if !matches!(
            q.partial_cmp(&last),
            Some(std::cmp::Ordering::Less | std::cmp::Ordering::Equal)
        ) {
            return None;
        }
        last = q;
    }
    Some(first)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Config, Settings};
    use crate::pipeline::decide_hot;

    /// Doc `a` has three chunks at ranks 1-3, `b` one at rank 4; returnN 3, cap 2.
    #[test]
    fn every_cap_is_decided_and_a_lower_cap_can_accept() {
        let text = r#"{"mode":"dense","options":{"returnN":3,"maxChunksPerDocument":2},"candidates":[
            {"docId":"a","evidenceKey":"a1","originalRank":1,"score":0.1},
            {"docId":"a","evidenceKey":"a2","originalRank":2,"score":0.2},
            {"docId":"a","evidenceKey":"a3","originalRank":3,"score":0.3},
            {"docId":"b","evidenceKey":"b1","originalRank":4,"score":0.4}]}"#;
        let batch = crate::input::parse_document("t", text);
        let Ok(analysis) = crate::analysis::analyze(&batch, &Settings::default(), false) else {
            panic!("valid settings");
        };
        let Some(t) = analysis.traces.first() else {
            panic!("one trace");
        };
        let tables = Tables::of(t);
        assert_eq!(tables.saturating_cap(), 3);
        assert_eq!(
            tables.status,
            [
                Status::Accepted,
                Status::Accepted,
                Status::DocCap,
                Status::Accepted
            ]
        );
        // Cap 1 accepts b1 as the second block; cap 3 pushes it to the fourth.
        assert_eq!(tables.least_return_n(3, 1), Some(2));
        assert_eq!(tables.least_return_n(3, 2), Some(3));
        assert_eq!(tables.least_return_n(3, 3), Some(4));
        assert_eq!(tables.least_return_n(3, 9), Some(4));
        assert!(!tables.accepts(3, 3, 3));
        assert_eq!(tables.other_caps(), [(1, 1), (1, 3)]);
        let nearest: Vec<usize> = tables
            .nearest_caps(|cap| !tables.accepts(3, cap, 3))
            .collect();
        assert_eq!(nearest, [3]);
        // Two caps at the same distance that both keep a1: both are listed.
        let both: Vec<usize> = tables
            .nearest_caps(|cap| tables.accepts(0, cap, 3))
            .collect();
        assert_eq!(both, [1, 3]);
        assert!(tables.extends_current(2, 4) && !tables.extends_current(2, 2));
        // What each candidate asks, against the general search.
        for j in 0..tables.positions() {
            for return_n in 1..=5 {
                for accepted in [true, false] {
                    let general: Vec<usize> = tables
                        .nearest_caps(|cap| tables.accepts(j, cap, return_n) == accepted)
                        .collect();
                    let read: Vec<usize> =
                        tables.nearest_caps_where(j, return_n, accepted).collect();
                    assert_eq!(read, general, "{j} {return_n} {accepted}");
                }
            }
        }
        assert_eq!(tables.top_quality(2, 3), Some(0.9));
        assert!(tables.same_list(2, 3));
        assert!(!tables.same_list(3, 3));
        // A larger returnN adds nothing when every block is in already.
        assert!(tables.same_list(2, 4));
        // The same list exactly when every candidate's acceptance is the same.
        for cap in 1..=5 {
            for return_n in 1..=5 {
                let every = (0..tables.positions())
                    .all(|j| tables.accepts(j, cap, return_n) == tables.accepts(j, 2, 3));
                assert_eq!(tables.same_list(cap, return_n), every, "{cap} {return_n}");
            }
        }
    }

    /// The position in processing order of the hot entry `h` of `trace`.
    fn position_of(trace: &crate::input::Trace, h: &crate::input::Hot) -> usize {
        trace
            .hot()
            .iter()
            .position(|other| std::ptr::eq(other, h))
            .unwrap_or(usize::MAX)
    }

    /// The statuses read off the analysis are those a walk under the trace's
    /// configuration decides, every quality some setting can read is the one the
    /// pipeline computes, and every cap's and `returnN`'s acceptance and top quality
    /// is the walk's under them.
    #[test]
    fn the_analysis_decisions_and_the_qualities_read_are_the_pipelines() {
        let batch = crate::input::parse_document("t", &crate::sample::generate_batch(40, 12, 7));
        let mut some_not_accepted = false;
        // Traces whose qualities fall along the walk (the top quality read without the
        // tables) and traces where a later block's is higher.
        let (mut falling, mut rising) = (0, 0);
        for (return_n, cap) in [(None, None), (Some(3), Some(1)), (Some(20), Some(2))] {
            let settings = Settings {
                return_n,
                max_chunks_per_document: cap,
                ..Settings::default()
            };
            let Ok(analysis) = crate::analysis::analyze(&batch, &settings, false) else {
                panic!("valid settings");
            };
            for t in &analysis.traces {
                let tables = Tables::of(t);
                match tables.first_top {
                    Some(_) => falling += 1,
                    None => rising += 1,
                }
                let n = t.trace.candidates().len();
                let mut plain = Vec::new();
                decide_hot(&t.trace, &t.config, &mut Vec::new(), |h, decision| {
                    plain.push((decision.status, quality_of(h, n, &t.config).score));
                });
                assert_eq!(tables.status.len(), plain.len());
                // Every cap and returnN, against the walk under them.
                for cap in 1..=tables.saturating_cap() + 1 {
                    for return_n in 1..=plain.len() + 1 {
                        let under = Config {
                            max_chunks_per_document: cap,
                            return_n,
                            ..t.config
                        };
                        let mut top: Option<f64> = None;
                        decide_hot(&t.trace, &under, &mut Vec::new(), |h, decision| {
                            let at = decision.accepted_rank;
                            assert_eq!(
                                tables.accepts(position_of(&t.trace, h), cap, return_n),
                                at.is_some()
                            );
                            if at.is_some() {
                                let q = quality_of(h, n, &t.config).score;
                                top = Some(top.map_or(q, |best| best.max(q)));
                            }
                        });
                        assert_eq!(tables.top_quality(cap, return_n), top);
                    }
                }
                for (j, &(status, quality)) in plain.iter().enumerate() {
                    assert_eq!(tables.status.get(j), Some(&status));
                    if tables.least_return_n(j, usize::MAX).is_some() {
                        assert_eq!(tables.quality.get(j), Some(&quality));
                    } else {
                        some_not_accepted = true;
                        assert!(matches!(status, Status::Duplicate | Status::Invalid));
                    }
                }
            }
        }
        assert!(
            some_not_accepted,
            "the batch has duplicates or invalid ranks"
        );
        assert!(
            falling > 0 && rising > 0,
            "{falling} falling, {rising} rising"
        );
    }
}

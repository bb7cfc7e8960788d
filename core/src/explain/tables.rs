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
//!
//! Most of it is read off the walk's occurrences without a row per cap. A candidate at
//! occurrence `o` is accepted under cap `c` and `returnN = R` exactly when `o < c` and
//! fewer than `R` earlier blocks have an occurrence below `c`: the second holds up to
//! the `R`-th smallest occurrence before it, so the caps that accept it are one range
//! (its [`Span`]). Where a walk under `c` first differs from one under the current cap
//! is where an occurrence of the smaller of the two is first reached. Rows per cap are
//! tabled only for the best qualities, when the qualities rise somewhere along the walk.

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
    /// `common[cap - 1]`: how many accepted blocks the walks under `cap` and under the
    /// current cap (both with no `returnN` limit) share before they first differ.
    common: Vec<usize>,
    /// Per candidate in processing order, under the current `returnN`.
    spans: Vec<Span>,
    /// Per candidate in processing order, how many of its document's blocks the walk
    /// with no limits accepted before it (`usize::MAX`: not accepted).
    occurrence: Vec<usize>,
    /// Scratch of [`Tables::fill`]: blocks per document with no cap; per occurrence, how
    /// many blocks have it, and how many blocks the walk accepted before the first.
    per_doc_count: Vec<usize>,
    per_occurrence: Vec<usize>,
    walked_before: Vec<usize>,
}

/// One candidate under the current `returnN`: the caps that accept it, `first ..=
/// last` (none when `first > last`; `last` is `u32::MAX` when no cap is too large), and
/// its position among the accepted under the current cap with no `returnN` limit (its
/// least `returnN` there; 0 when that cap drops it).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Span {
    pub(crate) first: u32,
    pub(crate) last: u32,
    pub(crate) at_current: u32,
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
        let positions = trace.hot().len();
        self.positions = positions;
        self.cap = config.max_chunks_per_document;
        self.return_n = config.return_n;
        // The statuses under the configuration are the analysis's own decisions.
        self.status.clear();
        self.status.extend(t.statuses());
        self.walk(t);
        let m = self.saturating_cap;
        self.first_top = falling_first(&self.occurrence, &self.quality);
        // Accepted under each cap with no returnN limit: the blocks of a lower occurrence.
        self.totals.clear();
        let mut total = 0usize;
        for cap in 1..=m {
            total += self.per_occurrence.get(cap - 1).copied().unwrap_or(0);
            self.totals.push(total);
        }
        // Where the walks under `cap` and under the current cap first differ: at the
        // first block whose occurrence is the smaller cap (no block of a document gets
        // an occurrence before it has had every lower one).
        let current = self.cap.clamp(1, m);
        self.common.clear();
        for cap in 1..=m {
            let lower = cap.min(current);
            let shared = match self.walked_before.get(lower) {
                Some(&before) if cap != current => before,
                _ => self.totals.get(lower - 1).copied().unwrap_or(0),
            };
            self.common.push(shared);
        }
        self.best.clear();
        if self.first_top.is_none() {
            self.table_best();
        }
        let from = self.cap;
        self.caps.clear();
        self.caps.extend(
            (1..=m)
                .filter(|&cap| cap != current)
                .map(|cap| (cap.abs_diff(from), cap)),
        );
        self.caps.sort_unstable();
    }

    /// The walk with no limits: each candidate it accepts (every one but those no
    /// setting accepts) with its occurrence and quality, and each candidate's span.
    /// Only the blocks this walk accepts are accepted under any cap and `returnN`, so
    /// only their qualities are ever read.
    fn walk(&mut self, t: &TraceAnalysis) {
        let (trace, config) = (&*t.trace, &t.config);
        let n = trace.candidates().len();
        self.per_doc_count.clear();
        self.per_doc_count.resize(trace.doc_count(), 0);
        self.per_occurrence.clear();
        self.walked_before.clear();
        self.occurrence.clear();
        self.quality.clear();
        self.spans.clear();
        let return_n = self.return_n;
        // Occurrences are below the saturating cap, so below the current cap exactly
        // when below it clamped into `1 ..= saturating`.
        let current = self.cap.max(1);
        let mut walked = 0usize;
        let mut at_current = 0u32;
        // The `returnN`-th smallest occurrence among the blocks walked so far (`None`
        // while fewer have been walked), and how many have an occurrence up to it.
        let mut bound: Option<usize> = None;
        let mut up_to_bound = 0usize;
        for (j, h) in trace.hot().iter().enumerate() {
            // Below the floor under every cap and `returnN`: the floor is the trace's,
            // whatever the limits, and such a candidate holds no place in them.
            let below_floor = self.status.get(j) == Some(&Status::BelowFloor);
            if below_floor || never_accepted(h).is_some() {
                self.occurrence.push(usize::MAX);
                self.quality.push(0.0);
                self.spans.push(Span {
                    first: 1,
                    last: 0,
                    at_current: 0,
                });
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
            if at == self.per_occurrence.len() {
                self.per_occurrence.push(0);
                self.walked_before.push(walked);
            }
            // Under cap `c` it is accepted within `returnN` while fewer than `returnN`
            // earlier blocks have an occurrence below `c`: up to the bound.
            let last = match (return_n, bound) {
                (0, _) => 0,
                (_, Some(bound)) => u32::try_from(bound).unwrap_or(u32::MAX),
                (_, None) => u32::MAX,
            };
            if at < current {
                at_current += 1;
            }
            self.spans.push(Span {
                first: u32::try_from(at + 1).unwrap_or(u32::MAX),
                last,
                at_current: if at < current { at_current } else { 0 },
            });
            if let Some(count) = self.per_occurrence.get_mut(at) {
                *count += 1;
            }
            walked += 1;
            match bound {
                None if return_n > 0 && walked >= return_n => {
                    let mut up_to = 0usize;
                    for (value, &count) in self.per_occurrence.iter().enumerate() {
                        up_to += count;
                        if up_to >= return_n {
                            bound = Some(value);
                            up_to_bound = up_to;
                            break;
                        }
                    }
                }
                Some(mut value) if at <= value => {
                    // One more at or below the bound: it falls while the value below
                    // it still has `returnN` at or below it.
                    up_to_bound += 1;
                    while value > 0 {
                        let here = self.per_occurrence.get(value).copied().unwrap_or(0);
                        if up_to_bound - here < return_n {
                            break;
                        }
                        up_to_bound -= here;
                        value -= 1;
                    }
                    bound = Some(value);
                }
                _ => {}
            }
            self.occurrence.push(at);
            self.quality.push(quality_of(h, n, config).score);
        }
        self.saturating_cap = self.per_occurrence.len().max(1);
    }

    /// The best qualities per cap, from the walk with no limits (the module's third
    /// fact): under `cap`, the candidates accepted with an occurrence below it, in order.
    fn table_best(&mut self) {
        let (m, positions) = (self.saturating_cap, self.positions);
        self.best.resize(m * positions, 0.0);
        for cap in 1..=m {
            let row = (cap - 1) * positions;
            let Some(best) = self.best.get_mut(row..row + positions) else {
                continue;
            };
            // A block left out writes the best so far again, unchanged.
            let mut top = 0.0f64;
            let mut total = 0usize;
            for (&at, &q) in self.occurrence.iter().zip(&self.quality) {
                let inside = at < cap;
                total += usize::from(inside);
                let raised = if total >= 2 { top.max(q) } else { q };
                top = if inside { raised } else { top };
                if let Some(b) = best.get_mut(total.wrapping_sub(1)) {
                    *b = top;
                }
            }
        }
    }

    fn row(&self, cap: usize) -> usize {
        (cap.clamp(1, self.saturating_cap) - 1) * self.positions
    }

    /// Candidates in processing order.
    pub(crate) fn positions(&self) -> usize {
        self.positions
    }

    /// The cap from which on every cap decides as no cap does.
    pub(crate) fn saturating_cap(&self) -> usize {
        self.saturating_cap
    }

    /// Candidate `j`'s position among the accepted under `cap` with no `returnN` limit:
    /// the least `returnN` that accepts it under `cap`; `None` when no `returnN` does.
    /// Counted along the walk: for one candidate at a time, not for a whole list (see
    /// [`Tables::accepted_under`]).
    pub(crate) fn least_return_n(&self, j: usize, cap: usize) -> Option<usize> {
        let cap = cap.clamp(1, self.saturating_cap);
        let (before, at) = (self.occurrence.get(..j)?, *self.occurrence.get(j)?);
        (at < cap).then(|| 1 + before.iter().filter(|&&o| o < cap).count())
    }

    /// Candidate `j`'s occurrence in the walk with no limits (`None`: no setting
    /// accepts it).
    pub(crate) fn occurrence(&self, j: usize) -> Option<usize> {
        self.occurrence
            .get(j)
            .copied()
            .filter(|&at| at != usize::MAX)
    }

    /// [`Tables::least_return_n`] of candidate `j` under every cap at once, into
    /// `by_cap[cap - 1]` (0 where it is not accepted), for `1 ..= saturating`.
    /// `earlier[o]`: how many blocks before `j` the walk accepted at occurrence `o` (a
    /// walk over the candidates keeps it as it goes).
    pub(crate) fn least_return_n_by_cap(
        &self,
        j: usize,
        earlier: &[usize],
        by_cap: &mut Vec<usize>,
    ) {
        by_cap.clear();
        let Some(at) = self.occurrence(j) else {
            by_cap.resize(self.saturating_cap, 0);
            return;
        };
        // Under cap `c`: the earlier blocks below it, and then this one.
        let mut below = 0usize;
        by_cap.extend((0..self.saturating_cap).map(|occurrence| {
            below += earlier.get(occurrence).copied().unwrap_or(0);
            if at <= occurrence {
                1 + below
            } else {
                0
            }
        }));
    }

    /// The positions, in processing order, of the candidates accepted under `cap` and
    /// `return_n`.
    pub(crate) fn accepted_under(
        &self,
        cap: usize,
        return_n: usize,
    ) -> impl Iterator<Item = usize> + Clone + '_ {
        let cap = cap.clamp(1, self.saturating_cap);
        self.occurrence
            .iter()
            .enumerate()
            .filter(move |&(_, &at)| at < cap)
            .map(|(j, _)| j)
            .take(return_n)
    }

    /// Candidate `j`'s span under the current `returnN` (see [`Span`]).
    pub(crate) fn span(&self, j: usize) -> Option<Span> {
        self.spans.get(j).copied()
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

    /// The least pairs (returnN, cap) that give `holds_at`: for each cap other than the
    /// current one, nearest first, the least `returnN` (from `least_return_n`) when it is
    /// smaller than every nearer cap's: the pairs no other pair beats on both settings.
    pub(crate) fn least_pairs<'a>(
        &'a self,
        least_return_n: impl Fn(usize) -> Option<usize> + 'a,
    ) -> impl Iterator<Item = (usize, usize)> + 'a {
        let mut best = usize::MAX;
        self.other_caps().iter().filter_map(move |&(_, cap)| {
            let return_n = least_return_n(cap)?;
            (return_n < best && return_n != self.return_n).then(|| {
                best = return_n;
                (return_n, cap)
            })
        })
    }

    /// The nearest caps (one, or two at the same distance) for which `holds` is true.
    pub(crate) fn nearest_caps<'a>(
        &'a self,
        holds: impl Fn(usize) -> bool + 'a,
    ) -> impl Iterator<Item = usize> + 'a {
        self.nearest_where(move |k| self.caps.get(k).is_some_and(|&(_, cap)| holds(cap)))
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

    /// The caps of `span` (one range, without the current cap when it drops the
    /// candidate): the nearest to the current cap, which lies on one side of them.
    pub(crate) fn nearest_cap_inside(&self, span: Span) -> Option<usize> {
        let (first, last) = (
            span.first as usize,
            (span.last as usize).min(self.saturating_cap()),
        );
        if first > last {
            return None;
        }
        let current = self.cap.clamp(1, self.saturating_cap());
        match current {
            c if c < first => Some(first),
            c if c > last => Some(last),
            // The current cap accepts it: not asked.
            _ => None,
        }
    }

    /// The nearest caps (one, or two at the same distance, the lower first) outside
    /// `span`, which holds the current cap.
    pub(crate) fn nearest_caps_outside(&self, span: Span) -> impl Iterator<Item = usize> {
        let m = self.saturating_cap();
        let last = (span.last as usize).min(m);
        let below = (span.first as usize).checked_sub(1).filter(|&c| c >= 1);
        let above = Some(last + 1).filter(|&c| c <= m);
        let from = self.cap;
        let (below, above) = match (below, above) {
            (Some(b), Some(a)) => match from.abs_diff(b).cmp(&from.abs_diff(a)) {
                std::cmp::Ordering::Less => (Some(b), None),
                std::cmp::Ordering::Greater => (None, Some(a)),
                std::cmp::Ordering::Equal => (Some(b), Some(a)),
            },
            other => other,
        };
        below.into_iter().chain(above)
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
        // Each candidate's span under returnN 3: the caps that accept it, as one range.
        let spans: Vec<(u32, u32, u32)> = (0..tables.positions())
            .filter_map(|j| tables.span(j))
            .map(|s| (s.first, s.last.min(3), s.at_current))
            .collect();
        assert_eq!(spans, [(1, 3, 1), (2, 3, 2), (3, 3, 0), (1, 2, 3)]);
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
                let quality = |h: &crate::input::Hot| quality_of(h, n, &t.config).score;
                decide_hot(
                    &t.trace,
                    &t.config,
                    &mut Vec::new(),
                    t.floor,
                    quality,
                    |h, decision| {
                        plain.push((decision.status, quality_of(h, n, &t.config).score));
                    },
                );
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
                        decide_hot(
                            &t.trace,
                            &under,
                            &mut Vec::new(),
                            t.floor,
                            quality,
                            |h, decision| {
                                let at = decision.accepted_rank;
                                assert_eq!(
                                    tables.accepts(position_of(&t.trace, h), cap, return_n),
                                    at.is_some()
                                );
                                if at.is_some() {
                                    let q = quality_of(h, n, &t.config).score;
                                    top = Some(top.map_or(q, |best| best.max(q)));
                                }
                            },
                        );
                        assert_eq!(tables.top_quality(cap, return_n), top);
                    }
                }
                // Each candidate's span is the range of caps that accept it under the
                // current returnN, and its least returnN under the current cap.
                let m = tables.saturating_cap();
                for j in 0..tables.positions() {
                    let Some(span) = tables.span(j) else {
                        panic!("a span per candidate");
                    };
                    for cap in 1..=m {
                        let inside = span.first as usize <= cap && cap <= span.last as usize;
                        assert_eq!(inside, tables.accepts(j, cap, t.config.return_n));
                    }
                    let at = tables.least_return_n(j, t.config.max_chunks_per_document);
                    assert_eq!(span.at_current as usize, at.unwrap_or(0));
                    // The span's nearest caps are the general search's over every cap.
                    let return_n = t.config.return_n;
                    let now = tables.accepts(j, tables.cap, return_n);
                    let general: Vec<usize> = tables
                        .nearest_caps(|cap| tables.accepts(j, cap, return_n) != now)
                        .collect();
                    let read: Vec<usize> = if now {
                        tables.nearest_caps_outside(span).collect()
                    } else {
                        tables.nearest_cap_inside(span).into_iter().collect()
                    };
                    if tables.occurrence(j).is_some() {
                        assert_eq!(read, general, "candidate {j}");
                    }
                    let mut earlier = vec![0; m];
                    for k in 0..j {
                        if let Some(slot) = tables.occurrence(k).and_then(|o| earlier.get_mut(o)) {
                            *slot += 1;
                        }
                    }
                    let mut by_cap = Vec::new();
                    tables.least_return_n_by_cap(j, &earlier, &mut by_cap);
                    let each: Vec<usize> = (1..=m)
                        .map(|cap| tables.least_return_n(j, cap).unwrap_or(0))
                        .collect();
                    assert_eq!(by_cap, each);
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

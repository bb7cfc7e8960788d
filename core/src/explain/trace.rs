//! One trace's counterfactuals: each candidate's, its level's and its low-quality flag's.

use super::boundary::{edge, next_up, SMALLEST_POSITIVE};
use super::change::{Change, ChangedSetting};
use super::tables::Tables;
use super::{
    CandidateExplanation, LevelIf, LowQualityIf, SetIf, SetIfList, TraceExplanation, Work,
};
use crate::config::{Config, HybridQuality, SettingKey, SettingValue, Settings};
use crate::input::Hot;
use crate::label::CanonicalLabel;
use crate::outcome::{outcome, Level};
use crate::pipeline::{Status, StatusReason};
use crate::quality::QualityBasis;
use crate::trace_analysis::{quality_of, reanalyze_trace, TraceAnalysis};
use std::borrow::Cow;

/// Explains `t` (analysed under `user`).
pub(crate) fn explain_trace(
    index: usize,
    t: &TraceAnalysis,
    user: &Settings,
    work: &mut Work,
) -> TraceExplanation {
    let mut tables = std::mem::take(&mut work.tables);
    tables.fill(&t.trace, &t.config, &mut work.per_doc);
    let explained = explain_with(index, t, user, &tables, work);
    work.tables = tables;
    explained
}

pub(crate) fn explain_with(
    index: usize,
    t: &TraceAnalysis,
    user: &Settings,
    tables: &Tables,
    work: &mut Work,
) -> TraceExplanation {
    let candidates = candidates(t, tables, work);
    let levels = Levels { t, tables, user };
    let hybrid = levels.hybrid_runs(work);
    let level_if = levels.level_if(&hybrid, work);
    let low_quality_if = levels.low_quality_if(&hybrid, work);
    let reason = level_if.is_empty().then(|| {
        if tables.accepted_count(tables.cap, tables.return_n) == 0 {
            "no candidate can be accepted (none has a valid rank): no setting changes this"
                .to_owned()
        } else {
            "no setting changes the level alone".to_owned()
        }
    });
    TraceExplanation {
        index,
        request_id: t.trace.request_id.clone(),
        level: t.relevance_level,
        low_quality: t.low_quality,
        level_if,
        low_quality_if,
        reason,
        candidates,
    }
}

/// The least pairs (cap, returnN) that give `holds_at`: for each cap other than the
/// current one, nearest first, the least `returnN` (from `least_return_n`) when it is
/// smaller than every nearer cap's: the pairs no other pair beats on both settings.
pub(crate) fn least_pairs(
    tables: &Tables,
    least_return_n: impl Fn(usize) -> Option<usize>,
) -> Vec<Change> {
    let mut best = usize::MAX;
    let mut pairs = Vec::new();
    for &(_, cap) in tables.other_caps() {
        if let Some(return_n) = least_return_n(cap) {
            if return_n < best && return_n != tables.return_n {
                best = return_n;
                pairs.push(Change::pair(
                    ChangedSetting {
                        key: SettingKey::ReturnN,
                        value: SettingValue::Count(return_n),
                    },
                    ChangedSetting {
                        key: SettingKey::MaxChunksPerDocument,
                        value: SettingValue::Count(cap),
                    },
                ));
            }
        }
    }
    pairs
}

fn candidates(t: &TraceAnalysis, tables: &Tables, work: &mut Work) -> Vec<CandidateExplanation> {
    let (cap, return_n) = (tables.cap, tables.return_n);
    let candidates = t.trace.candidates();
    let hot = t.trace.hot();
    let Work {
        first_of_doc,
        input_indices,
        doc_ids,
        reasons,
        changes,
        ..
    } = work;
    // In a large batch every candidate read is a cache miss: what the entries read of
    // their candidates is read first, in short loops that have many misses in flight,
    // where the loop that builds the entries would wait for each. Every entry of a
    // document shares its first candidate's docId `Arc`, cloned before any entry is
    // written: a clone writes the count atomically, which waits for every write before
    // it, and the entries are written to memory not yet in cache.
    first_of_doc.clear();
    first_of_doc.resize(t.trace.doc_count(), usize::MAX);
    for h in hot {
        if let Some(first) = first_of_doc.get_mut(h.doc_slot) {
            if *first == usize::MAX {
                *first = h.index;
            }
        }
    }
    input_indices.clear();
    input_indices.extend(
        hot.iter()
            .map(|h| candidates.get(h.index).map(|c| c.input_index)),
    );
    for &first in first_of_doc.iter() {
        if let Some(c) = candidates.get(first) {
            std::hint::black_box(c.doc_id.as_bytes().first().copied());
        }
    }
    doc_ids.clear();
    doc_ids.extend(hot.iter().map(|h| {
        let first = first_of_doc
            .get(h.doc_slot)
            .and_then(|&first| candidates.get(first));
        first.or(candidates.get(h.index)).map(|c| c.doc_id.clone())
    }));
    // Sized once: growing it would free the smaller buffers as it goes, and the
    // allocator then merges them again on the next large request.
    let mut out = Vec::with_capacity(hot.len());
    // The hot entries, not the blocks: a block computes its quality again when built.
    let explained = t
        .trace
        .hot()
        .iter()
        .zip(&tables.status)
        .enumerate()
        .filter_map(|(j, (h, &status))| Some((j, candidates.get(h.index)?, status)))
        .map(|(j, candidate, status)| {
            // Built in one buffer, then held in place by the entry (see `SetIfList`).
            changes.clear();
            let reason = match status {
                Status::Duplicate | Status::Invalid => {
                    let why = if status == Status::Duplicate {
                        "evidence dedup is not a setting"
                    } else {
                        "a candidate with an invalid rank is never accepted"
                    };
                    let status_reason = t.status_reason_at(j);
                    // A duplicate's sentence names only the rank it repeats: written once
                    // per rank, then copied.
                    let known = match &status_reason {
                        Some(reason @ StatusReason::Duplicate { .. }) => reasons
                            .iter()
                            .find(|(r, _)| r == reason)
                            .map(|(_, text)| text.clone()),
                        _ => None,
                    };
                    Some(Cow::Owned(known.unwrap_or_else(|| {
                        let text = match &status_reason {
                            Some(reason) => {
                                format!("{reason}: {why}, so no setting changes this")
                            }
                            None => format!(": {why}, so no setting changes this"),
                        };
                        if let Some(reason @ StatusReason::Duplicate { .. }) = status_reason {
                            reasons.push((reason, text.clone()));
                        }
                        text
                    })))
                }
                Status::Accepted => {
                    if let Some(at) = tables.least_return_n(j, cap).filter(|&at| at >= 2) {
                        changes.push(SetIf {
                            set: Change::return_n(at - 1),
                        });
                    }
                    for c in tables.nearest_caps(|c| !tables.accepts(j, c, return_n)) {
                        changes.push(SetIf {
                            set: Change::max_chunks(c),
                        });
                    }
                    changes.is_empty().then_some(Cow::Borrowed(
                        "the first block of the walk is kept under every setting",
                    ))
                }
                Status::DocCap | Status::ReturnN => {
                    if let Some(at) = tables.least_return_n(j, cap) {
                        changes.push(SetIf {
                            set: Change::return_n(at),
                        });
                    }
                    for c in tables.nearest_caps(|c| tables.accepts(j, c, return_n)) {
                        changes.push(SetIf {
                            set: Change::max_chunks(c),
                        });
                    }
                    if changes.is_empty() {
                        changes.extend(
                            least_pairs(tables, |c| tables.least_return_n(j, c))
                                .into_iter()
                                .map(|set| SetIf { set }),
                        );
                    }
                    changes
                        .is_empty()
                        .then_some(Cow::Borrowed("no setting accepts it"))
                }
            };
            let (accepted_if, dropped_if) = match status {
                Status::Accepted => (SetIfList::new(), SetIfList::from_slice(changes)),
                _ => (SetIfList::from_slice(changes), SetIfList::new()),
            };
            CandidateExplanation {
                index: input_indices
                    .get(j)
                    .copied()
                    .flatten()
                    .unwrap_or(candidate.input_index),
                doc_id: doc_ids
                    .get_mut(j)
                    .and_then(Option::take)
                    .unwrap_or_else(|| candidate.doc_id.clone()),
                status,
                accepted_if,
                dropped_if,
                reason,
            }
        });
    out.extend(explained);
    out
}

/// A `hybridQuality` change and the level and `lowQuality` the pipeline then gives
/// (`None`: the change makes the configuration invalid).
struct HybridRun {
    change: Change,
    after: Option<(Level, bool)>,
}

/// Which way a change moves the level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Direction {
    Up,
    Down,
}

/// The level's and the low-quality flag's counterfactuals of one trace.
struct Levels<'a> {
    t: &'a TraceAnalysis,
    tables: &'a Tables,
    user: &'a Settings,
}

/// The threshold a top quality must reach for `level` (none for `NO_MATCH` and
/// `LOW_RELEVANCE`, which no threshold raises a trace to).
fn threshold_of(level: Level, config: &Config) -> Option<(SettingKey, f64)> {
    match level {
        Level::Precise => Some((SettingKey::PreciseThreshold, config.precise_threshold)),
        Level::HighlyRelevant => Some((
            SettingKey::HighlyRelevantThreshold,
            config.highly_relevant_threshold,
        )),
        Level::Relevant => Some((SettingKey::ReferenceThreshold, config.reference_threshold)),
        Level::LowRelevance | Level::NoMatch => None,
    }
}

/// The level one step better than `level`, among those a top quality reaches.
fn above(level: Level) -> Option<Level> {
    match level {
        Level::Precise | Level::NoMatch => None,
        Level::HighlyRelevant => Some(Level::Precise),
        Level::Relevant => Some(Level::HighlyRelevant),
        Level::LowRelevance => Some(Level::Relevant),
    }
}

impl Levels<'_> {
    fn level_at(&self, top: Option<f64>) -> Level {
        outcome(top, &self.t.config, None).level
    }

    fn low_at(&self, top: Option<f64>) -> bool {
        outcome(top, &self.t.config, None).low_quality
    }

    /// The trace under `change`, by the pipeline; `None` when the change makes the
    /// configuration invalid.
    fn run(&self, change: &Change, work: &mut Work) -> Option<TraceAnalysis> {
        let (settings, global) = change.apply(self.user).ok()?;
        Some(reanalyze_trace(
            self.t,
            &settings,
            &global,
            &mut work.scratch,
        ))
    }

    fn better(&self, level: Level, direction: Direction) -> bool {
        match direction {
            Direction::Up => level < self.t.relevance_level,
            Direction::Down => level > self.t.relevance_level,
        }
    }

    /// Per setting, the nearest change that raises the level and the nearest that
    /// lowers it.
    fn level_if(&self, hybrid: &[HybridRun], work: &mut Work) -> Vec<LevelIf> {
        let mut out = Vec::new();
        for direction in [Direction::Up, Direction::Down] {
            self.distance_level(direction, work, &mut out);
        }
        for direction in [Direction::Up, Direction::Down] {
            self.return_n_level(direction, &mut out);
        }
        for direction in [Direction::Up, Direction::Down] {
            let tables = self.tables;
            let moved = |c: usize| {
                let level = self.level_at(tables.top_quality(c, tables.return_n));
                self.better(level, direction)
            };
            for c in tables.nearest_caps(moved) {
                out.push(LevelIf {
                    set: Change::max_chunks(c),
                    level: self.level_at(tables.top_quality(c, tables.return_n)),
                });
            }
        }
        for direction in [Direction::Up, Direction::Down] {
            self.threshold_level(direction, work, &mut out);
        }
        for run in hybrid {
            if let Some((level, _)) = run.after {
                if level != self.t.relevance_level {
                    out.push(LevelIf {
                        set: run.change,
                        level,
                    });
                }
            }
        }
        out
    }

    /// The least `returnN` above the current one that raises the level, or the
    /// greatest below it that lowers it (the top quality only grows with `returnN`).
    fn return_n_level(&self, direction: Direction, out: &mut Vec<LevelIf>) {
        let tables = self.tables;
        let (cap, current) = (tables.cap, tables.return_n);
        let top = |r: usize| tables.top_quality(cap, r);
        let found = match direction {
            Direction::Up => {
                let most = tables.accepted_count(cap, usize::MAX);
                (current.saturating_add(1)..=most)
                    .find(|&r| self.better(self.level_at(top(r)), direction))
            }
            Direction::Down => (1..current.min(tables.positions().max(1) + 1))
                .rev()
                .find(|&r| self.better(self.level_at(top(r)), direction)),
        };
        if let Some(r) = found {
            out.push(LevelIf {
                set: Change::return_n(r),
                level: self.level_at(top(r)),
            });
        }
    }

    /// The accepted blocks now: their hot entries and qualities.
    fn accepted(&self) -> impl Iterator<Item = (&Hot, f64)> + '_ {
        let tables = self.tables;
        self.t
            .trace
            .hot()
            .iter()
            .enumerate()
            .filter(move |(j, _)| tables.accepts(*j, tables.cap, tables.return_n))
            .map(move |(j, h)| (h, tables.quality.get(j).copied().unwrap_or(0.0)))
    }

    /// The nearest `maxL2Distance` at which the top quality reaches `threshold` (up)
    /// or falls below it (down); `None` when none does.
    fn distance_edge(&self, threshold: f64, direction: Direction) -> Option<f64> {
        let config = self.t.config;
        let n = self.t.trace.candidates().len();
        let current = config.max_l2_distance;
        let quality_at = |h: &Hot, m: f64| {
            quality_of(
                h,
                n,
                &Config {
                    max_l2_distance: m,
                    ..config
                },
            )
            .score
        };
        let mut result: Option<f64> = None;
        for (h, q) in self.accepted() {
            let basis = quality_of(h, n, &config).basis;
            let distance = match basis {
                QualityBasis::Dense { d, .. }
                | QualityBasis::DenseDistance { d, .. }
                | QualityBasis::MaxRankDense { d, .. } => Some(d),
                _ => None,
            };
            // Where 1 - d / M = t in real numbers.
            let estimate = |d: f64| {
                if threshold < 1.0 {
                    d / (1.0 - threshold)
                } else {
                    f64::MAX
                }
            };
            match direction {
                Direction::Up => {
                    let Some(d) = distance else { continue };
                    let holds = |m: f64| quality_at(h, m) >= threshold;
                    if let Some(m) = edge(current, f64::MAX, estimate(d), holds) {
                        result = Some(result.map_or(m, |r| r.min(m)));
                    }
                }
                Direction::Down => {
                    if q < threshold {
                        continue;
                    }
                    // A quality that does not read the distance keeps the level.
                    let d = distance?;
                    let holds = |m: f64| quality_at(h, m) < threshold;
                    let m = edge(current, SMALLEST_POSITIVE, estimate(d), holds)?;
                    result = Some(result.map_or(m, |r| r.min(m)));
                }
            }
        }
        result
    }

    fn distance_level(&self, direction: Direction, work: &mut Work, out: &mut Vec<LevelIf>) {
        let level = self.t.relevance_level;
        let target = match direction {
            Direction::Up => above(level).and_then(|l| threshold_of(l, &self.t.config)),
            Direction::Down => threshold_of(level, &self.t.config),
        };
        let Some((_, threshold)) = target else { return };
        let Some(m) = self.distance_edge(threshold, direction) else {
            return;
        };
        let change = Change::number(SettingKey::MaxL2Distance, m);
        if let Some(after) = self.run(&change, work) {
            if self.better(after.relevance_level, direction) {
                out.push(LevelIf {
                    set: change,
                    level: after.relevance_level,
                });
            }
        }
    }

    /// The threshold of the level above moved down to the top quality (up), or the
    /// current level's moved just above it (down): the only single thresholds that
    /// move the level, since each threshold only bounds its own level.
    fn threshold_level(&self, direction: Direction, work: &mut Work, out: &mut Vec<LevelIf>) {
        let Some(top) = self.t.top_quality else {
            return;
        };
        let level = self.t.relevance_level;
        let (key, value) = match direction {
            Direction::Up => match above(level).and_then(|l| threshold_of(l, &self.t.config)) {
                Some((key, _)) => (key, top),
                None => return,
            },
            Direction::Down => match threshold_of(level, &self.t.config) {
                Some((key, _)) => (key, next_up(top)),
                None => return,
            },
        };
        if value > 1.0 {
            return;
        }
        let change = Change::number(key, value);
        if let Some(after) = self.run(&change, work) {
            if self.better(after.relevance_level, direction) {
                out.push(LevelIf {
                    set: change,
                    level: after.relevance_level,
                });
            }
        }
    }

    /// The other `hybridQuality` values, when some hybrid candidate carries a
    /// `denseDistance` (else every value gives the same qualities).
    fn hybrid_quality_changes(&self) -> impl Iterator<Item = Change> + '_ {
        let reads_dense = self
            .t
            .trace
            .hot()
            .iter()
            .any(|h| h.label == Some(CanonicalLabel::Hybrid) && h.dense_distance().is_some());
        HybridQuality::ALL
            .into_iter()
            .filter(move |&h| reads_dense && h != self.t.config.hybrid_quality)
            .map(Change::hybrid_quality)
    }

    /// Each other `hybridQuality` value run by the pipeline once, for both the level's
    /// and the low-quality flag's counterfactuals.
    fn hybrid_runs(&self, work: &mut Work) -> Vec<HybridRun> {
        self.hybrid_quality_changes()
            .map(|change| HybridRun {
                change,
                after: self
                    .run(&change, work)
                    .map(|after| (after.relevance_level, after.low_quality)),
            })
            .collect()
    }

    /// Per setting, the nearest change that flips `lowQuality`.
    fn low_quality_if(&self, hybrid: &[HybridRun], work: &mut Work) -> Vec<LowQualityIf> {
        let mut out = Vec::new();
        let tables = self.tables;
        let low = self.t.low_quality;
        let reference = self.t.config.reference_threshold;
        // Raising the top quality to the reference threshold clears the flag;
        // lowering it below sets it.
        let direction = if low { Direction::Up } else { Direction::Down };
        if self.t.top_quality.is_some() {
            if let Some(m) = self.distance_edge(reference, direction) {
                self.confirm_low(Change::number(SettingKey::MaxL2Distance, m), work, &mut out);
            }
        }
        let (cap, current) = (tables.cap, tables.return_n);
        let flipped = |top: Option<f64>| self.low_at(top) != low;
        let found = if low {
            (current.saturating_add(1)..=tables.accepted_count(cap, usize::MAX))
                .find(|&r| flipped(tables.top_quality(cap, r)))
        } else {
            (1..current.min(tables.positions().max(1) + 1))
                .rev()
                .find(|&r| flipped(tables.top_quality(cap, r)))
        };
        if let Some(r) = found {
            out.push(LowQualityIf {
                set: Change::return_n(r),
                low_quality: !low,
            });
        }
        for c in tables.nearest_caps(|c| flipped(tables.top_quality(c, current))) {
            out.push(LowQualityIf {
                set: Change::max_chunks(c),
                low_quality: !low,
            });
        }
        if let Some(top) = self.t.top_quality {
            let value = if low { top } else { next_up(top) };
            if value <= 1.0 {
                self.confirm_low(
                    Change::number(SettingKey::ReferenceThreshold, value),
                    work,
                    &mut out,
                );
            }
        }
        for run in hybrid {
            if let Some((_, low_quality)) = run.after {
                if low_quality != self.t.low_quality {
                    out.push(LowQualityIf {
                        set: run.change,
                        low_quality,
                    });
                }
            }
        }
        out
    }

    fn confirm_low(&self, change: Change, work: &mut Work, out: &mut Vec<LowQualityIf>) {
        if let Some(after) = self.run(&change, work) {
            if after.low_quality != self.t.low_quality {
                out.push(LowQualityIf {
                    set: change,
                    low_quality: after.low_quality,
                });
            }
        }
    }
}

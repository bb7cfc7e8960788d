//! A trace's level and low-quality flag: the nearest change of each setting that
//! moves them, confirmed by the pipeline.

use super::boundary::{edge, next_up, SMALLEST_POSITIVE};
use super::change::Change;
use super::distance::DistanceSearch;
use super::tables::Tables;
use super::{LevelIf, LowQualityIf, Work};
use crate::config::{Config, HybridQuality, SettingKey, Settings};
use crate::input::Hot;
use crate::label::CanonicalLabel;
use crate::outcome::{outcome, Level, Outcome};
use crate::pipeline::Status;
use crate::quality::QualityBasis;
use crate::trace_analysis::{quality_of, reanalyze_outcome, TraceAnalysis};

/// A `hybridQuality` change and the level and `lowQuality` the pipeline then gives
/// (`None`: the change makes the configuration invalid).
pub(crate) struct HybridRun {
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
pub(crate) struct Levels<'a> {
    pub(crate) t: &'a TraceAnalysis,
    pub(crate) tables: &'a Tables,
    pub(crate) user: &'a Settings,
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

    /// The trace's outcome under `change`, by the pipeline; `None` when the change
    /// makes the configuration invalid.
    fn run(&self, change: &Change, work: &mut Work) -> Option<Outcome> {
        let (settings, global) = change.apply(self.user).ok()?;
        Some(reanalyze_outcome(
            self.t,
            self.user,
            &settings,
            &global,
            &mut work.scratch,
        ))
    }

    /// Lists `change` when the pipeline confirms that it moves the level `direction`.
    fn confirm_level(
        &self,
        change: Change,
        direction: Direction,
        work: &mut Work,
        out: &mut Vec<LevelIf>,
    ) {
        if let Some(after) = self.run(&change, work) {
            if self.better(after.level, direction) {
                out.push(LevelIf {
                    set: change,
                    level: after.level,
                });
            }
        }
    }

    fn better(&self, level: Level, direction: Direction) -> bool {
        match direction {
            Direction::Up => level < self.t.relevance_level,
            Direction::Down => level > self.t.relevance_level,
        }
    }

    /// Per setting, the nearest change that raises the level and the nearest that
    /// lowers it.
    /// `floored`: the search of `maxL2Distance` under a floor above 0 (`None` without
    /// one, when the accepted blocks' edges are exact).
    pub(crate) fn level_if(
        &self,
        hybrid: &[HybridRun],
        mut floored: Option<&mut DistanceSearch>,
        work: &mut Work,
    ) -> Vec<LevelIf> {
        let mut out = std::mem::take(&mut work.level_if);
        out.clear();
        for direction in [Direction::Up, Direction::Down] {
            match floored.as_deref_mut() {
                Some(search) => self.floored_distance_level(search, direction, work, &mut out),
                None => self.distance_level(direction, work, &mut out),
            }
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
        let listed = out.to_vec();
        work.level_if = out;
        listed
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
            .filter(move |(j, _)| tables.status.get(*j) == Some(&Status::Accepted))
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
                    // A block whose quality has not reached the threshold at the
                    // nearest edge found yet reaches it only farther (its quality only
                    // grows with the distance), if at all: its edge is not searched.
                    if result.is_some_and(|r| !holds(r)) {
                        continue;
                    }
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
                    // A block already below the threshold at the farthest edge found
                    // yet falls below it nearer (or there): it does not move the edge.
                    if result.is_some_and(&holds) {
                        continue;
                    }
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
        self.confirm_level(change, direction, work, out);
    }

    /// Under a floor: the nearest `maxL2Distance` on either side that moves the level
    /// `direction` (both when as near), each confirmed by the pipeline.
    fn floored_distance_level(
        &self,
        search: &mut DistanceSearch,
        direction: Direction,
        work: &mut Work,
        out: &mut Vec<LevelIf>,
    ) {
        let sought = |top| self.better(self.level_at(top), direction);
        for m in search.nearest(sought, direction == Direction::Up) {
            let change = Change::number(SettingKey::MaxL2Distance, m);
            self.confirm_level(change, direction, work, out);
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
        self.confirm_level(change, direction, work, out);
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
    pub(crate) fn hybrid_runs(&self, work: &mut Work) -> Vec<HybridRun> {
        self.hybrid_quality_changes()
            .map(|change| HybridRun {
                change,
                after: self
                    .run(&change, work)
                    .map(|after| (after.level, after.low_quality)),
            })
            .collect()
    }

    /// Per setting, the nearest change that flips `lowQuality`.
    pub(crate) fn low_quality_if(
        &self,
        hybrid: &[HybridRun],
        floored: Option<&mut DistanceSearch>,
        work: &mut Work,
    ) -> Vec<LowQualityIf> {
        let mut out = std::mem::take(&mut work.low_quality_if);
        out.clear();
        let tables = self.tables;
        let low = self.t.low_quality;
        let reference = self.t.config.reference_threshold;
        // Raising the top quality to the reference threshold clears the flag;
        // lowering it below sets it.
        let direction = if low { Direction::Up } else { Direction::Down };
        match floored {
            Some(search) => {
                for m in search.nearest(|top| self.low_at(top) != low, low) {
                    self.confirm_low(Change::number(SettingKey::MaxL2Distance, m), work, &mut out);
                }
            }
            None if self.t.top_quality.is_some() => {
                if let Some(m) = self.distance_edge(reference, direction) {
                    self.confirm_low(Change::number(SettingKey::MaxL2Distance, m), work, &mut out);
                }
            }
            None => {}
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
        let listed = out.to_vec();
        work.low_quality_if = out;
        listed
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

//! The level-vs-outcome table: recomputed and recorded levels against golden outcomes.

use super::Observation;
use crate::golden::GoldenLevel;
use crate::outcome::Level;
use serde::Serialize;

/// Golden outcomes of a group of cases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct OutcomeCounts {
    pub n: usize,
    pub strong: usize,
    pub medium: usize,
    pub weak: usize,
    pub miss: usize,
}

impl OutcomeCounts {
    pub(super) fn add(&mut self, outcome: GoldenLevel) {
        self.n += 1;
        match outcome {
            GoldenLevel::Strong => self.strong += 1,
            GoldenLevel::Medium => self.medium += 1,
            GoldenLevel::Weak => self.weak += 1,
            GoldenLevel::Miss => self.miss += 1,
        }
    }

    /// Counts best outcome first: strong, medium, weak, miss.
    fn by_rank(&self) -> [usize; 4] {
        [self.strong, self.medium, self.weak, self.miss]
    }

    /// strong + medium.
    pub fn found(&self) -> usize {
        self.strong + self.medium
    }
}

/// One row of the level-vs-outcome table.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct LevelRow {
    pub level: Level,
    /// Cases whose trace has this recomputed level.
    pub recomputed: OutcomeCounts,
    /// Cases whose trace recorded this level.
    pub recorded: OutcomeCounts,
}

/// Recomputed and recorded levels against golden outcomes.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct LevelTable {
    /// One row per level, best first.
    pub rows: Vec<LevelRow>,
    /// Cases whose trace recorded no level, or one that is not a level.
    pub recorded_unknown: OutcomeCounts,
    /// Pairs of cases where the higher recomputed level has the worse outcome
    /// (0 = the table is monotone).
    pub discordant_pairs: u64,
    /// The same over the recorded levels (unknown ones left out).
    pub recorded_discordant_pairs: u64,
}

pub(super) fn level_table(observations: &[Observation]) -> LevelTable {
    let mut recomputed = [OutcomeCounts::default(); 5];
    let mut recorded = [OutcomeCounts::default(); 5];
    let mut recorded_unknown = OutcomeCounts::default();
    for o in observations {
        recomputed[o.level.index()].add(o.outcome);
        match o.recorded {
            Some(level) => recorded[level.index()].add(o.outcome),
            None => recorded_unknown.add(o.outcome),
        }
    }
    LevelTable {
        rows: Level::ALL
            .iter()
            .zip(recomputed.iter().zip(&recorded))
            .map(|(&level, (&recomputed, &recorded))| LevelRow {
                level,
                recomputed,
                recorded,
            })
            .collect(),
        recorded_unknown,
        discordant_pairs: discordant_pairs(&recomputed),
        recorded_discordant_pairs: discordant_pairs(&recorded),
    }
}

/// Pairs (a, b) where a's level is strictly higher and a's outcome strictly worse.
/// `rows` is best level first.
pub(super) fn discordant_pairs(rows: &[OutcomeCounts; 5]) -> u64 {
    let mut total = 0u64;
    for (i, higher) in rows.iter().enumerate() {
        for lower in &rows[i + 1..] {
            let h = higher.by_rank();
            let l = lower.by_rank();
            for (worse, &count_h) in h.iter().enumerate() {
                for &count_l in &l[..worse] {
                    total += (count_h as u64) * (count_l as u64);
                }
            }
        }
    }
    total
}

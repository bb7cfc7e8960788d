//! Batch counts (contract section 4): levels, recorded levels, transitions, split by mode.

use crate::batch::ScoreFit;
use crate::label::CanonicalLabel;
use crate::outcome::{normalise_level, Level};
use crate::trace_analysis::{RecordedLevel, TraceAnalysis};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Counts over a set of traces. Count maps list only keys with a count >= 1.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ModeSummary {
    pub traces: usize,
    pub levels: BTreeMap<Level, usize>,
    /// Keyed by the recorded level, trimmed and uppercased; traces without one are left out.
    pub recorded_levels: BTreeMap<String, usize>,
    /// `"FROM->TO"`, recorded -> recomputed.
    pub transitions: BTreeMap<String, usize>,
    pub low_quality: usize,
    pub retry_unfiltered: usize,
    /// Beyond the contract: traces whose recorded level differs from the recomputed one.
    pub level_differs: usize,
}

/// Recorded levels as small indices: the five levels first (`Level as usize`), then any
/// other normalised text in order of first appearance. Counting by index instead of
/// by `String` key allocates nothing per trace; the maps are built once at the end.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct RecordedKeys {
    other: Vec<String>,
}

impl RecordedKeys {
    fn key(&mut self, recorded: &str) -> usize {
        if let Some(level) = Level::parse_recorded(recorded) {
            return level as usize;
        }
        let normalised = normalise_level(recorded);
        let at = match self.other.iter().position(|k| *k == normalised) {
            Some(at) => at,
            None => {
                self.other.push(normalised);
                self.other.len() - 1
            }
        };
        Level::ALL.len() + at
    }

    /// The key of a name that is already normalised and names no level.
    fn intern(&mut self, normalised: &str) -> usize {
        let at = match self.other.iter().position(|k| k == normalised) {
            Some(at) => at,
            None => {
                self.other.push(normalised.to_owned());
                self.other.len() - 1
            }
        };
        Level::ALL.len() + at
    }

    fn len(&self) -> usize {
        Level::ALL.len() + self.other.len()
    }

    fn name(&self, key: usize) -> &str {
        match Level::ALL.get(key) {
            Some(level) => level.as_str(),
            None => self
                .other
                .get(key - Level::ALL.len())
                .map_or("", String::as_str),
        }
    }
}

/// A [`ModeSummary`] being counted.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct Tally {
    traces: usize,
    levels: [usize; 5],
    /// `[recorded key][recomputed level]`.
    transitions: Vec<[usize; 5]>,
    low_quality: usize,
    retry_unfiltered: usize,
    level_differs: usize,
}

impl Tally {
    fn add(&mut self, t: &TraceAnalysis, recorded: Option<usize>) {
        let level = t.relevance_level as usize;
        self.traces += 1;
        if let Some(count) = self.levels.get_mut(level) {
            *count += 1;
        }
        if let Some(key) = recorded {
            if self.transitions.len() <= key {
                self.transitions.resize(key + 1, [0; 5]);
            }
            if let Some(count) = self.transitions.get_mut(key).and_then(|r| r.get_mut(level)) {
                *count += 1;
            }
        }
        self.low_quality += usize::from(t.low_quality);
        self.retry_unfiltered += usize::from(t.retry_unfiltered);
        self.level_differs += usize::from(t.level_differs);
    }

    /// Adds `other`'s counts; `keys[k]` is this tally's key for `other`'s key `k`.
    fn merge(&mut self, other: &Tally, keys: &[usize]) {
        self.traces = self.traces.saturating_add(other.traces);
        for (count, more) in self.levels.iter_mut().zip(&other.levels) {
            *count = count.saturating_add(*more);
        }
        for (key, row) in other.transitions.iter().enumerate() {
            let Some(&to) = keys.get(key) else {
                continue;
            };
            if self.transitions.len() <= to {
                self.transitions.resize(to + 1, [0; 5]);
            }
            if let Some(mine) = self.transitions.get_mut(to) {
                for (count, more) in mine.iter_mut().zip(row) {
                    *count = count.saturating_add(*more);
                }
            }
        }
        self.low_quality = self.low_quality.saturating_add(other.low_quality);
        self.retry_unfiltered = self.retry_unfiltered.saturating_add(other.retry_unfiltered);
        self.level_differs = self.level_differs.saturating_add(other.level_differs);
    }

    fn finish(&self, keys: &RecordedKeys) -> ModeSummary {
        let mut out = ModeSummary {
            traces: self.traces,
            low_quality: self.low_quality,
            retry_unfiltered: self.retry_unfiltered,
            level_differs: self.level_differs,
            ..ModeSummary::default()
        };
        for (level, &count) in Level::ALL.iter().zip(&self.levels) {
            if count > 0 {
                out.levels.insert(*level, count);
            }
        }
        for (key, row) in self.transitions.iter().enumerate() {
            let from = keys.name(key);
            let total = row.iter().fold(0usize, |sum, n| sum.saturating_add(*n));
            if total == 0 {
                continue;
            }
            out.recorded_levels.insert(from.to_owned(), total);
            for (to, &count) in Level::ALL.iter().zip(row) {
                if count > 0 {
                    out.transitions
                        .insert(format!("{from}->{}", to.as_str()), count);
                }
            }
        }
        out
    }
}

/// Builds a [`Summary`] one trace at a time, so `analyze` can count each trace while it
/// is still in cache instead of walking the whole result again.
///
/// Builders merge: the counts of two sets of traces add up to those of both, whatever
/// the order the recorded spellings first appeared in.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(crate) struct SummaryBuilder {
    keys: RecordedKeys,
    all: Tally,
    dense: Tally,
    hybrid: Tally,
    /// How the scores fit their kinds (the batch's warnings read it).
    #[serde(default)]
    pub(crate) score_fit: ScoreFit,
}

impl SummaryBuilder {
    pub(crate) fn add(&mut self, t: &TraceAnalysis) {
        let recorded = match t.recorded_level() {
            RecordedLevel::Absent => None,
            RecordedLevel::Level(level) => Some(level as usize),
            // Text that names no level is counted under its own normalised key.
            RecordedLevel::Other => t
                .trace
                .recorded_relevance_level
                .as_deref()
                .map(|r| self.keys.key(r)),
        };
        self.all.add(t, recorded);
        self.score_fit.add(t);
        match t.mode() {
            Some(CanonicalLabel::Dense) => self.dense.add(t, recorded),
            Some(CanonicalLabel::Hybrid) => self.hybrid.add(t, recorded),
            None => {}
        }
    }

    /// Adds the counts of `other` (another set of traces) to these.
    pub(crate) fn merge(&mut self, other: &SummaryBuilder) {
        let keys: Vec<usize> = (0..other.keys.len())
            .map(|key| match Level::ALL.get(key) {
                Some(_) => key,
                None => self.keys.intern(other.keys.name(key)),
            })
            .collect();
        self.all.merge(&other.all, &keys);
        self.dense.merge(&other.dense, &keys);
        self.hybrid.merge(&other.hybrid, &keys);
        self.score_fit.merge(&other.score_fit);
    }

    /// Whether every count refers to a recorded spelling this builder knows (a builder
    /// decoded from bytes is checked with this before use).
    pub(crate) fn is_consistent(&self) -> bool {
        [&self.all, &self.dense, &self.hybrid]
            .iter()
            .all(|tally| tally.transitions.len() <= self.keys.len())
    }

    pub(crate) fn finish(&self) -> Summary {
        Summary {
            all: self.all.finish(&self.keys),
            by_mode: ByMode {
                dense: self.dense.finish(&self.keys),
                hybrid: self.hybrid.finish(&self.keys),
            },
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ByMode {
    pub dense: ModeSummary,
    pub hybrid: ModeSummary,
}

/// The whole batch, and the same counts per canonical trace mode
/// (traces whose mode is unknown count only in `all`). Serialises with the batch-wide
/// counts at the top level, then `byMode` (contract section 7).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    #[serde(flatten)]
    pub all: ModeSummary,
    pub by_mode: ByMode,
}

impl ModeSummary {
    /// Traces recomputed at the level named `key` (0 for a name that is not a level).
    pub fn recomputed(&self, key: &str) -> usize {
        Level::parse(key).map_or(0, |level| self.levels.get(&level).copied().unwrap_or(0))
    }

    /// Traces whose recorded level normalises to `key`.
    pub fn recorded(&self, key: &str) -> usize {
        self.recorded_levels.get(key).copied().unwrap_or(0)
    }

    /// How the count at `key` moved from recorded to recomputed (recomputed - recorded).
    pub fn change(&self, key: &str) -> i64 {
        let signed = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
        signed(self.recomputed(key)) - signed(self.recorded(key))
    }

    /// Recorded spellings that are none of the five levels, in key order.
    pub fn other_recorded(&self) -> impl Iterator<Item = &str> {
        self.recorded_levels
            .keys()
            .map(String::as_str)
            .filter(|key| Level::parse(key).is_none())
    }

    /// The rows of a distribution table: the five levels, then the other recorded spellings.
    pub fn distribution_keys(&self) -> Vec<String> {
        Level::ALL
            .iter()
            .map(|level| level.as_str())
            .chain(self.other_recorded())
            .map(str::to_owned)
            .collect()
    }

    /// The rows of a transition matrix: the recorded keys with at least one trace, the
    /// five levels first (in level order), then the other spellings. Empty when no trace
    /// recorded a level.
    pub fn transition_keys(&self) -> Vec<String> {
        Level::ALL
            .iter()
            .map(|level| level.as_str())
            .filter(|key| self.recorded(key) > 0)
            .chain(self.other_recorded())
            .map(str::to_owned)
            .collect()
    }

    /// Traces recorded as `from` and recomputed as `to`.
    pub fn transition(&self, from: &str, to: Level) -> usize {
        self.transitions
            .get(&format!("{from}->{}", to.as_str()))
            .copied()
            .unwrap_or(0)
    }
}

/// The names of [`Summary::scopes`], in its order.
pub const SCOPES: [&str; 3] = ["all", "dense", "hybrid"];

impl Summary {
    /// The scopes a batch view splits by: all traces, dense, hybrid (see [`SCOPES`]).
    pub fn scopes(&self) -> [(&'static str, &ModeSummary); 3] {
        [
            (SCOPES[0], &self.all),
            (SCOPES[1], &self.by_mode.dense),
            (SCOPES[2], &self.by_mode.hybrid),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Settings;

    fn counts<K: Ord>(pairs: impl IntoIterator<Item = (K, usize)>) -> BTreeMap<K, usize> {
        pairs.into_iter().collect()
    }

    /// The counts, against values worked out by hand from the six traces: the dense
    /// qualities are 1 - d (0.9 and 0.1), a single hybrid hit has rank quality 1, an
    /// empty trace has no level, and an unknown mode gives quality 0.
    #[test]
    fn summary_counts_match_the_definition() {
        let text = [
            r#"{"mode":"dense","relevanceLevel":" highly-relevant ","candidates":[{"score":0.1}]}"#,
            r#"{"mode":"hybrid","relevanceLevel":"weird","candidates":[{"score":0.1}]}"#,
            r#"{"mode":"hybrid","relevanceLevel":"Weird ","candidates":[]}"#,
            r#"{"mode":"dense","relevanceLevel":"no match","candidates":[{"score":0.9}]}"#,
            r#"{"candidates":[{"score":0.9}]}"#,
            r#"{"mode":"x","relevanceLevel":"précise","candidates":[{"score":0.9}]}"#,
        ]
        .join("\n");
        let batch = crate::input::parse_document("t", &text);
        let analysis = crate::analysis::analyze(&batch, &Settings::default(), false);
        let Ok(analysis) = analysis else {
            panic!("default settings are valid");
        };
        let levels = counts([
            (Level::Precise, 2),
            (Level::LowRelevance, 3),
            (Level::NoMatch, 1),
        ]);
        let recorded = counts([
            ("HIGHLY_RELEVANT".to_owned(), 1),
            ("NO_MATCH".to_owned(), 1),
            ("PRéCISE".to_owned(), 1),
            ("WEIRD".to_owned(), 2),
        ]);
        let transitions = counts([
            ("HIGHLY_RELEVANT->PRECISE".to_owned(), 1),
            ("NO_MATCH->LOW_RELEVANCE".to_owned(), 1),
            ("PRéCISE->LOW_RELEVANCE".to_owned(), 1),
            ("WEIRD->NO_MATCH".to_owned(), 1),
            ("WEIRD->PRECISE".to_owned(), 1),
        ]);
        let all = &analysis.summary.all;
        assert_eq!(all.traces, 6);
        assert_eq!(all.levels, levels);
        assert_eq!(all.recorded_levels, recorded);
        assert_eq!(all.transitions, transitions);
        assert_eq!((all.low_quality, all.level_differs), (4, 5));
        assert_eq!(all.retry_unfiltered, 0);
        let dense = &analysis.summary.by_mode.dense;
        assert_eq!(dense.traces, 2);
        assert_eq!(
            dense.levels,
            counts([(Level::Precise, 1), (Level::LowRelevance, 1)])
        );
        assert_eq!(
            dense.recorded_levels,
            counts([
                ("HIGHLY_RELEVANT".to_owned(), 1),
                ("NO_MATCH".to_owned(), 1)
            ])
        );
        let hybrid = &analysis.summary.by_mode.hybrid;
        assert_eq!(hybrid.traces, 2);
        assert_eq!(
            hybrid.levels,
            counts([(Level::Precise, 1), (Level::NoMatch, 1)])
        );
        assert_eq!(hybrid.recorded_levels, counts([("WEIRD".to_owned(), 2)]));
        assert_eq!(
            hybrid.transitions,
            counts([
                ("WEIRD->NO_MATCH".to_owned(), 1),
                ("WEIRD->PRECISE".to_owned(), 1)
            ])
        );

        // The accessors a distribution table and a transition matrix read.
        assert_eq!(all.distribution_keys().len(), 5 + 2); // WEIRD and PRéCISE
        assert_eq!(all.distribution_keys()[5], "PRéCISE"); // ASCII-only uppercasing
        for key in all.distribution_keys() {
            let level_count =
                Level::parse(&key).map_or(0, |l| levels.get(&l).copied().unwrap_or(0));
            assert_eq!(all.recomputed(&key), level_count, "{key}");
            assert_eq!(
                all.recorded(&key),
                recorded.get(&key).copied().unwrap_or(0),
                "{key}"
            );
            assert_eq!(
                all.change(&key),
                all.recomputed(&key) as i64 - all.recorded(&key) as i64
            );
        }
        assert_eq!(all.change("WEIRD"), -2);
        let rows = all.transition_keys();
        assert_eq!(rows, ["HIGHLY_RELEVANT", "NO_MATCH", "PRéCISE", "WEIRD"]);
        let row_total: usize = Level::ALL
            .iter()
            .map(|&to| all.transition("WEIRD", to))
            .sum();
        assert_eq!(row_total, 2);
        let scopes = analysis.summary.scopes();
        assert_eq!(
            scopes.map(|(name, m)| (name, m.traces)),
            [("all", 6), ("dense", 2), ("hybrid", 2)]
        );
    }
}

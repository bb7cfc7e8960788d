//! `maxL2Distance` under a score floor above 0: the nearest value, on either side of
//! the current one, at which a trace's top quality gives a sought outcome.
//!
//! Without a floor the accepted list does not read the qualities, so the top quality
//! only grows with `maxL2Distance` and its edges are searched among the blocks accepted
//! now. Under a floor a distance also moves candidates across it (contract section
//! 10.2): a candidate's quality `max(c, 1 - min(d, M) / M)` and the floor
//! `max(minQuality, relativeQuality x qMax)` both follow `M`, so candidates enter and
//! leave the walk, and the top can rise or fall in either direction of `M`. Where a
//! candidate's quality meets the floor (each pair of the two functions' pieces, in
//! real numbers) is a breakpoint; between two of them the candidates past the floor
//! are fixed, so the accepted list is too and the top only grows with `M`, and the
//! outcome changes at most once there. So the search walks the breakpoints outwards
//! on each side, reads the top at each with the pipeline's own walk, and bisects to
//! the exact `f64` inside the first stretch where the outcome is the one sought. A
//! breakpoint's formula is only near its `f64` edge, so each is a small window that
//! the search steps over at both ends.

use super::boundary::{edge, SMALLEST_POSITIVE};
use crate::config::Config;
use crate::input::Hot;
use crate::pipeline::{decide_hot, floor_from, floor_of, is_below_floor, never_accepted, Status};
use crate::quality::{dense_quality, QualityBasis};
use crate::trace_analysis::{quality_of, TraceAnalysis};
use std::cell::RefCell;

/// How far, relative to its value, a breakpoint's `f64` edge may lie from its formula.
const WINDOW: f64 = 1e-7;

/// A candidate's quality as a function of `maxL2Distance`: `max(constant, 1 - min(d,
/// M) / M)`, or the constant alone when it reads no distance.
#[derive(Debug, Clone, Copy, Default)]
struct Part {
    constant: f64,
    distance: Option<f64>,
    /// A valid rank: counted in `qMax`.
    valid: bool,
}

impl Part {
    /// The very score the pipeline computes at `m` (`quality_of`): the larger of a
    /// rank's quality and the dense one, or one of them alone.
    fn at(&self, m: f64) -> f64 {
        match self.distance {
            Some(d) => self.constant.max(dense_quality(d, m)),
            None => self.constant,
        }
    }
}

/// The accepted blocks' qualities at one `M`: their best, and as a function of `M`
/// (the best constant and the least distance among them).
#[derive(Debug, Clone, Copy)]
struct Top {
    top: Option<f64>,
    constant: f64,
    distance: Option<f64>,
}

impl Top {
    /// The same accepted blocks' best quality at `m`.
    fn at(&self, m: f64) -> Option<f64> {
        self.top?;
        Some(match self.distance {
            Some(d) => self.constant.max(dense_quality(d, m)),
            None => self.constant,
        })
    }
}

/// A point the search reads the top at; `center` is the breakpoint a window ends at.
#[derive(Debug, Clone, Copy)]
struct Probe {
    at: f64,
    center: Option<f64>,
    top: Option<Top>,
}

/// One trace's search (built only under a floor above 0, and only when some quality
/// reads a distance).
pub(crate) struct DistanceSearch<'a> {
    t: &'a TraceAnalysis,
    /// Per candidate by its input index.
    parts: Vec<Part>,
    /// Outwards from the current `maxL2Distance`: smaller values, then larger ones.
    below: Vec<Probe>,
    above: Vec<Probe>,
    /// The walk's count per document, reused.
    per_doc: RefCell<Vec<usize>>,
}

impl<'a> DistanceSearch<'a> {
    /// `None` when no floor is above 0 (the search among the accepted blocks is then
    /// exact) or no quality reads a distance (then `maxL2Distance` changes nothing).
    pub(crate) fn new(t: &'a TraceAnalysis) -> Option<DistanceSearch<'a>> {
        let config = &t.config;
        if config.min_quality <= 0.0 && config.relative_quality <= 0.0 {
            return None;
        }
        let hot = t.trace.hot();
        let n = t.trace.candidates().len();
        let mut parts = vec![Part::default(); n];
        for h in hot {
            let quality = quality_of(h, n, config);
            let (constant, distance) = match quality.basis {
                QualityBasis::Dense { d, .. } | QualityBasis::DenseDistance { d, .. } => {
                    (0.0, Some(d))
                }
                QualityBasis::MaxRankDense { rank_q, d, .. } => (rank_q, Some(d)),
                _ => (quality.score, None),
            };
            if let Some(part) = parts.get_mut(h.index) {
                *part = Part {
                    constant,
                    distance,
                    valid: h.rank().is_some(),
                };
            }
        }
        if !parts.iter().any(|p| p.valid && p.distance.is_some()) {
            return None;
        }
        let mut search = DistanceSearch {
            t,
            parts,
            below: Vec::new(),
            above: Vec::new(),
            per_doc: RefCell::new(Vec::new()),
        };
        search.place_probes(hot);
        Some(search)
    }

    /// Whether the candidate `part` is past the floor at `m`, from the envelope of the
    /// valid qualities (`qMax` = the larger of the best constant and the quality of the
    /// least distance: a dense quality only falls with the distance).
    fn passes(&self, part: &Part, m: f64, best_constant: f64, least: Option<f64>) -> bool {
        let config = &self.t.config;
        let best = least.map_or(best_constant, |d| best_constant.max(dense_quality(d, m)));
        let floor = floor_from(config.min_quality, config.relative_quality, best);
        !is_below_floor(part.at(m), floor)
    }

    /// The breakpoints where some candidate the walk can accept meets the floor, as
    /// windows of probes on each side of the current value.
    fn place_probes(&mut self, hot: &[Hot]) {
        let config = self.t.config;
        let (min_q, rel) = (config.min_quality, config.relative_quality);
        let valid = self.parts.iter().filter(|p| p.valid);
        let best_constant = valid.clone().map(|p| p.constant).fold(0.0f64, f64::max);
        let least = valid.filter_map(|p| p.distance).reduce(f64::min);
        let mut breakpoints = Vec::new();
        for h in hot.iter().filter(|h| never_accepted(h).is_none()) {
            let Some(part) = self.parts.get(h.index).copied() else {
                continue;
            };
            let mut estimates = [f64::NAN; 4];
            if let Some(d) = part.distance {
                // Its dense quality meets minQuality, relativeQuality x the best
                // constant, or relativeQuality x the least distance's quality.
                if min_q > 0.0 && min_q < 1.0 {
                    estimates[0] = d / (1.0 - min_q);
                }
                if rel > 0.0 && rel * best_constant < 1.0 {
                    estimates[1] = d / (1.0 - rel * best_constant);
                }
                if let (Some(least), true) = (least, rel > 0.0 && rel < 1.0) {
                    estimates[2] = (d - rel * least) / (1.0 - rel);
                }
            }
            // Its constant meets relativeQuality x the least distance's quality (for a
            // constant of 0: where that quality leaves 0, and the floor with it).
            if let (Some(least), true) = (least, rel > 0.0 && part.constant < rel) {
                estimates[3] = least / (1.0 - part.constant / rel);
            }
            for e in estimates {
                if !(e.is_finite() && e > 0.0) {
                    continue;
                }
                let (lo, hi) = (e * (1.0 - WINDOW), e * (1.0 + WINDOW));
                let lo = lo.max(SMALLEST_POSITIVE);
                if self.passes(&part, lo, best_constant, least)
                    != self.passes(&part, hi, best_constant, least)
                {
                    breakpoints.push(e);
                }
            }
        }
        let current = config.max_l2_distance;
        breakpoints.sort_by(f64::total_cmp);
        breakpoints.dedup();
        self.above = probes(
            current,
            f64::MAX,
            breakpoints.iter().copied().filter(|&e| e >= current),
        );
        self.below = probes(
            current,
            SMALLEST_POSITIVE,
            breakpoints.iter().rev().copied().filter(|&e| e <= current),
        );
    }

    /// The top at `m` as the pipeline decides it: the trace's floor and walk under
    /// the qualities at `m`.
    fn top_at(&self, m: f64) -> Top {
        let config = Config {
            max_l2_distance: m,
            ..self.t.config
        };
        let parts = &self.parts;
        let quality = |h: &Hot| parts.get(h.index).map_or(0.0, |p| p.at(m));
        let trace = &self.t.trace;
        let floor = floor_of(trace, &config, quality);
        let mut top = Top {
            top: None,
            constant: 0.0,
            distance: None,
        };
        decide_hot(
            trace,
            &config,
            &mut self.per_doc.borrow_mut(),
            floor,
            quality,
            |h, decision| {
                if decision.status != Status::Accepted {
                    return;
                }
                let Some(part) = parts.get(h.index) else {
                    return;
                };
                let q = part.at(m);
                top.top = Some(top.top.map_or(q, |best| best.max(q)));
                top.constant = top.constant.max(part.constant);
                if let Some(d) = part.distance {
                    top.distance = Some(top.distance.map_or(d, |least| least.min(d)));
                }
            },
        );
        top
    }

    /// The nearest `maxL2Distance` on either side at which `sought` holds of the top
    /// quality; both when the two sides are as near (smaller first). `upwards_first`:
    /// the side where it is likelier (a larger distance raises qualities), searched
    /// first so that the other side is searched only as far.
    pub(crate) fn nearest(
        &mut self,
        sought: impl Fn(Option<f64>) -> bool,
        upwards_first: bool,
    ) -> Vec<f64> {
        if !self.reachable(&sought) {
            return Vec::new();
        }
        let current = self.t.config.max_l2_distance;
        let first = self.search(upwards_first, &sought, None);
        let bound = first.map(|m| (current - m).abs());
        let second = self.search(!upwards_first, &sought, bound);
        let (below, above) = if upwards_first {
            (second, first)
        } else {
            (first, second)
        };
        match (below, above) {
            (Some(b), Some(a)) => {
                let (db, da) = ((current - b).abs(), (a - current).abs());
                if db < da {
                    vec![b]
                } else if da < db {
                    vec![a]
                } else {
                    vec![b, a]
                }
            }
            (Some(b), None) => vec![b],
            (None, Some(a)) => vec![a],
            (None, None) => Vec::new(),
        }
    }

    /// Whether some top quality gives what is sought: the outcome is a step function of
    /// the top with its steps at the thresholds, so those, the values just below them,
    /// the ends and no top at all are every outcome there is. A level no distance can
    /// reach is not searched for.
    fn reachable(&self, sought: &impl Fn(Option<f64>) -> bool) -> bool {
        let config = &self.t.config;
        let steps = [
            config.precise_threshold,
            config.highly_relevant_threshold,
            config.reference_threshold,
        ];
        let below = steps.map(|t| f64::from_bits(t.to_bits().saturating_sub(1)).max(0.0));
        sought(None)
            || [0.0, 1.0]
                .into_iter()
                .chain(steps)
                .chain(below)
                .any(|top| sought(Some(top)))
    }

    /// The nearest value on one side at which `sought` holds, no farther than `bound`.
    fn search(
        &mut self,
        upwards: bool,
        sought: &impl Fn(Option<f64>) -> bool,
        bound: Option<f64>,
    ) -> Option<f64> {
        let current = self.t.config.max_l2_distance;
        let beyond = |m: f64| bound.is_some_and(|b| (m - current).abs() > b);
        let mut from = current;
        let count = if upwards {
            self.above.len()
        } else {
            self.below.len()
        };
        for k in 0..count {
            if beyond(from) {
                return None;
            }
            let probe = self.probe(upwards, k)?;
            let top = match probe.top {
                Some(top) => top,
                None => {
                    let top = self.top_at(probe.at);
                    let side = if upwards {
                        &mut self.above
                    } else {
                        &mut self.below
                    };
                    if let Some(p) = side.get_mut(k) {
                        p.top = Some(top);
                    }
                    top
                }
            };
            if !sought(top.top) {
                from = probe.at;
                continue;
            }
            // A window: the edge lies a few steps past its breakpoint. Else the
            // accepted blocks are those at the probe all along: their qualities'
            // formula gives the edge.
            let estimate = match probe.center {
                Some(center) => center,
                None => edge(from, probe.at, probe.at, |m| sought(top.at(m))).unwrap_or(probe.at),
            };
            let found = edge(from, probe.at, estimate, |m| sought(self.top_at(m).top))?;
            return (!beyond(found)).then_some(found);
        }
        None
    }

    fn probe(&self, upwards: bool, k: usize) -> Option<Probe> {
        if upwards {
            self.above.get(k).copied()
        } else {
            self.below.get(k).copied()
        }
    }
}

/// The probes from `current` towards `limit`: around each breakpoint (in that order)
/// a window's near and far ends, the far end naming the breakpoint, then the limit.
fn probes(current: f64, limit: f64, breakpoints: impl Iterator<Item = f64>) -> Vec<Probe> {
    let upwards = limit > current;
    let past = |a: f64, b: f64| if upwards { a > b } else { a < b };
    let mut out: Vec<Probe> = Vec::new();
    let mut last = current;
    for e in breakpoints {
        let (near, far) = if upwards {
            (e * (1.0 - WINDOW), e * (1.0 + WINDOW))
        } else {
            (
                e * (1.0 + WINDOW),
                (e * (1.0 - WINDOW)).max(SMALLEST_POSITIVE),
            )
        };
        let far = if upwards { far.min(limit) } else { far };
        if past(near, last) {
            out.push(Probe {
                at: near,
                center: None,
                top: None,
            });
            last = near;
        }
        if past(far, last) {
            out.push(Probe {
                at: far,
                center: Some(e),
                top: None,
            });
            last = far;
        }
    }
    if past(limit, last) {
        out.push(Probe {
            at: limit,
            center: None,
            top: None,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Settings;

    /// The search reads each quality as `max(constant, dense)` and the top through the
    /// pipeline's floor and walk: at every distance tried, each candidate's quality is
    /// the pipeline's, and at the current one the top is the analysis's, under each
    /// `hybridQuality` and both floors.
    #[test]
    fn the_qualities_and_the_top_read_are_the_pipelines() {
        let batch = crate::input::parse_document("t", &crate::sample::generate_batch(40, 12, 7));
        // Traces searched, and candidates whose quality is a rank's and a distance's.
        let (mut searched, mut both) = (0, 0);
        for hybrid in ["rank", "denseWhenPresent", "maxRankDense"] {
            let mut settings = Settings::default();
            for (key, value) in [
                ("hybridQuality", hybrid),
                ("minQuality", "0.3"),
                ("relativeQuality", "0.6"),
            ] {
                if settings.set(key, value).is_err() {
                    panic!("{key} {value}");
                }
            }
            let Ok(analysis) = crate::analysis::analyze(&batch, &settings, false) else {
                panic!("valid settings");
            };
            for t in &analysis.traces {
                let Some(search) = DistanceSearch::new(t) else {
                    continue;
                };
                searched += 1;
                assert_eq!(search.top_at(t.config.max_l2_distance).top, t.top_quality);
                let n = t.trace.candidates().len();
                for m in [1e-3, 0.2, 0.7, 1.0, 1.3, 2.5, 1e3] {
                    let under = Config {
                        max_l2_distance: m,
                        ..t.config
                    };
                    for h in t.trace.hot() {
                        let part = search.parts.get(h.index).copied().unwrap_or_default();
                        both += usize::from(part.constant > 0.0 && part.distance.is_some());
                        assert_eq!(part.at(m), quality_of(h, n, &under).score, "{hybrid} {m}");
                    }
                }
            }
        }
        assert!(
            searched > 0 && both > 0,
            "{searched} traces, {both} candidates"
        );
    }

    /// Without a floor there is nothing to search here: the accepted blocks' edges are
    /// exact.
    #[test]
    fn no_search_without_a_floor() {
        let batch = crate::input::parse_document("t", &crate::sample::generate_batch(5, 8, 3));
        let Ok(analysis) = crate::analysis::analyze(&batch, &Settings::default(), false) else {
            panic!("valid settings");
        };
        assert!(analysis
            .traces
            .iter()
            .all(|t| DistanceSearch::new(t).is_none()));
    }
}

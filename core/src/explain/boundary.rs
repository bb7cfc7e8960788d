//! The exact edge of a monotone predicate over positive floating-point numbers.
//!
//! The formulas of contract sections 3.2 and 3.4 give where a quality crosses a
//! threshold as a real number, but the pipeline computes in `f64`, where
//! `1 - d / (d / (1 - t))` need not equal `t`. So the formula only brackets the
//! answer: the edge itself is found by bisecting on the bit patterns, which for
//! non-negative finite `f64`s are ordered as the numbers are, with the very
//! function the pipeline evaluates. The edge is then the `f64` on the changed side
//! that is nearest to the current value: no `f64` strictly between them gives the
//! result.

/// The next `f64` above a non-negative finite `x`.
pub(crate) fn next_up(x: f64) -> f64 {
    if x.is_nan() || x == f64::INFINITY {
        return x;
    }
    if x == 0.0 {
        return f64::from_bits(1);
    }
    f64::from_bits(x.to_bits() + 1)
}

/// The next `f64` below a positive finite `x` (0 for the smallest positive one).
#[cfg(test)]
fn next_down(x: f64) -> f64 {
    if x <= 0.0 || x.is_nan() {
        return x;
    }
    f64::from_bits(x.to_bits() - 1)
}

/// `x` moved `steps` representable values towards `towards` (not past it).
fn step(x: f64, towards: f64, steps: u64) -> f64 {
    let (a, b) = (x.to_bits(), towards.to_bits());
    if b > a {
        f64::from_bits(a.saturating_add(steps).min(b))
    } else {
        f64::from_bits(a.saturating_sub(steps).max(b))
    }
}

/// The value nearest to `from` (where `holds` is false) on the far side of the edge,
/// searching towards `limit`: `holds(result)` is true and no value strictly between
/// `from` and `result` has it. `estimate` is where the formula puts the edge. `None`
/// when `holds(limit)` is false. `holds` must be monotone between `from` and `limit`
/// (false, then true), and every value involved positive and finite.
pub(crate) fn edge(
    from: f64,
    limit: f64,
    estimate: f64,
    holds: impl Fn(f64) -> bool,
) -> Option<f64> {
    let towards_limit = limit > from;
    let inside = |x: f64| {
        x.is_finite()
            && if towards_limit {
                x > from && x <= limit
            } else {
                x < from && x >= limit
            }
    };
    // A true value: the estimate, else galloping from it towards the limit.
    let mut start = if inside(estimate) { estimate } else { limit };
    let mut gallop = 1u64;
    while !holds(start) {
        if start == limit {
            return None;
        }
        start = step(start, limit, gallop);
        gallop = gallop.saturating_mul(4);
    }
    // A false value near it: galloping back towards `from`.
    let mut truthy = start;
    let mut falsy = from;
    let mut gallop = 1u64;
    loop {
        let probe = step(truthy, from, gallop);
        if probe == from {
            break;
        }
        if holds(probe) {
            truthy = probe;
            gallop = gallop.saturating_mul(4);
        } else {
            falsy = probe;
            break;
        }
    }
    // Bisect on the bit patterns.
    let (mut t, mut f) = (truthy.to_bits(), falsy.to_bits());
    while t.abs_diff(f) > 1 {
        let mid = t.min(f) + t.abs_diff(f) / 2;
        if holds(f64::from_bits(mid)) {
            t = mid;
        } else {
            f = mid;
        }
    }
    Some(f64::from_bits(t))
}

/// The smallest positive `f64`: the limit of a search downwards (a setting that must
/// stay > 0).
pub(crate) const SMALLEST_POSITIVE: f64 = 5e-324;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quality::dense_quality;

    #[test]
    fn the_edge_is_exact_whatever_the_estimate() {
        // The least M with 1 - 0.3 / M >= 0.75: 1.2 in real numbers.
        let holds = |m: f64| dense_quality(0.3, m) >= 0.75;
        for estimate in [1.2, 1.0, 1.5, 1e300, 0.5] {
            let m = edge(1.0, f64::MAX, estimate, holds).unwrap_or(f64::NAN);
            assert!(holds(m), "{estimate}: {m}");
            assert!(!holds(next_down(m)), "{estimate}: {m}");
        }
        // Downwards: the largest M with quality below 0.5.
        let below_half = |m: f64| dense_quality(0.3, m) < 0.5;
        let m = edge(1.0, SMALLEST_POSITIVE, 0.6, below_half).unwrap_or(f64::NAN);
        assert!(below_half(m) && !below_half(next_up(m)), "{m}");
        // Never reached.
        assert_eq!(edge(1.0, f64::MAX, 2.0, |_| false), None);
        assert_eq!(next_up(0.0), SMALLEST_POSITIVE);
    }
}

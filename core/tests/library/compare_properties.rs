//! Invariants of the run-comparison statistics, over generated rankings.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use ragtrace_core::{holm, kendall_tau_b, overlap_count, rbo, sign_flip_p_values, Rbo};

/// A ranking of distinct items drawn from a small universe, so lists overlap often.
fn ranking() -> impl Strategy<Value = Vec<u8>> {
    proptest::sample::subsequence((0u8..30).collect::<Vec<_>>(), 0..15).prop_shuffle()
}

proptest! {
    #[test]
    fn rbo_is_in_0_1_symmetric_and_bounded(a in ranking(), b in ranking(), p in 0.05f64..0.99) {
        let (Some(ab), Some(ba)) = (rbo(&a, &b, p), rbo(&b, &a, p)) else {
            prop_assert!(a.is_empty() && b.is_empty());
            return Ok(());
        };
        for x in [ab.ext, ab.min, ab.residual] {
            prop_assert!((0.0..=1.0).contains(&x), "{:?}", ab);
        }
        prop_assert!((ab.ext - ba.ext).abs() < 1e-12);
        prop_assert!((ab.min - ba.min).abs() < 1e-12);
        prop_assert!((ab.residual - ba.residual).abs() < 1e-12);
        // The extrapolation lies within the bounds.
        prop_assert!(ab.min <= ab.ext + 1e-12 && ab.ext <= ab.min + ab.residual + 1e-12, "{:?}", ab);
    }

    #[test]
    fn rbo_of_a_ranking_with_itself_is_1(a in ranking(), p in 0.05f64..0.99) {
        prop_assume!(!a.is_empty());
        let r = rbo(&a, &a, p).unwrap_or(Rbo { ext: f64::NAN, min: 0.0, residual: 0.0 });
        prop_assert!((r.ext - 1.0).abs() < 1e-12, "{:?}", r);
    }

    #[test]
    fn overlap_never_shrinks_with_k(a in ranking(), b in ranking()) {
        let counts: Vec<usize> = (0..=16).map(|k| overlap_count(&a, &b, k)).collect();
        prop_assert!(counts.windows(2).all(|w| w[0] <= w[1]), "{:?}", counts);
        prop_assert_eq!(overlap_count(&a, &a, 16), a.len());
    }

    #[test]
    fn kendall_tau_b_is_in_minus_1_1_and_1_against_itself(x in proptest::collection::vec(0u8..6, 2..20)) {
        let x: Vec<f64> = x.into_iter().map(f64::from).collect();
        let reversed: Vec<f64> = x.iter().map(|v| -v).collect();
        if let Some(tau) = kendall_tau_b(&x, &x) {
            prop_assert!((tau - 1.0).abs() < 1e-12);
            let anti = kendall_tau_b(&x, &reversed).unwrap_or(f64::NAN);
            prop_assert!((anti + 1.0).abs() < 1e-12);
        }
    }

    /// Identical runs: every difference is 0, so every sign flip ties the observed mean.
    #[test]
    fn permutation_p_of_identical_runs_is_1(n in 0usize..200) {
        let zeros = vec![0.0; n];
        prop_assert_eq!(sign_flip_p_values(&[&zeros, &zeros], 500, 7), vec![1.0, 1.0]);
    }

    #[test]
    fn holm_is_monotone_in_the_p_order_and_at_least_the_raw_p(ps in proptest::collection::vec(0.0f64..1.0, 1..8)) {
        let adjusted = holm(&ps);
        for (i, (&p, &q)) in ps.iter().zip(&adjusted).enumerate() {
            prop_assert!(q >= p && q <= 1.0);
            for (j, &r) in ps.iter().enumerate() {
                if p < r {
                    prop_assert!(q <= adjusted[j], "{} {}", i, j);
                }
            }
        }
    }
}

//! Two f64 sums added side by side, for the resampling tests' inner loops.
//!
//! In wasm, a `v128` of the SIMD proposal (every current browser has it): the page's
//! build is optimised for size, which neither unrolls nor vectorises loops, so the
//! loops that sum many measures are written out with these pairs. Natively, two plain
//! f64 that the compiler vectorises itself. Each lane is an ordinary IEEE addition, so
//! a sum has the same bits either way.
//!
//! Functions that use these pairs in wasm carry
//! `#[cfg_attr(target_arch = "wasm32", target_feature(enable = "simd128"))]`: the
//! pairs' methods are then inlined into them (a SIMD function is not inlined into one
//! without the feature).

#[cfg(target_arch = "wasm32")]
mod imp {
    use core::arch::wasm32::{f64x2, f64x2_add, f64x2_extract_lane, v128};

    #[derive(Clone, Copy)]
    pub(crate) struct F64x2(v128);

    impl F64x2 {
        #[inline]
        #[target_feature(enable = "simd128")]
        pub(crate) fn zero() -> Self {
            F64x2(f64x2(0.0, 0.0))
        }

        #[inline]
        #[target_feature(enable = "simd128")]
        pub(crate) fn new(low: f64, high: f64) -> Self {
            F64x2(f64x2(low, high))
        }

        #[inline]
        #[target_feature(enable = "simd128")]
        pub(crate) fn add(self, other: Self) -> Self {
            F64x2(f64x2_add(self.0, other.0))
        }

        #[inline]
        #[target_feature(enable = "simd128")]
        pub(crate) fn low(self) -> f64 {
            f64x2_extract_lane::<0>(self.0)
        }

        #[inline]
        #[target_feature(enable = "simd128")]
        pub(crate) fn high(self) -> f64 {
            f64x2_extract_lane::<1>(self.0)
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod imp {
    #[derive(Clone, Copy)]
    pub(crate) struct F64x2([f64; 2]);

    impl F64x2 {
        #[inline]
        pub(crate) fn zero() -> Self {
            F64x2([0.0; 2])
        }

        #[inline]
        pub(crate) fn new(low: f64, high: f64) -> Self {
            F64x2([low, high])
        }

        #[inline]
        pub(crate) fn add(self, other: Self) -> Self {
            F64x2([self.0[0] + other.0[0], self.0[1] + other.0[1]])
        }

        #[inline]
        pub(crate) fn low(self) -> f64 {
            self.0[0]
        }

        #[inline]
        pub(crate) fn high(self) -> f64 {
            self.0[1]
        }
    }
}

pub(crate) use imp::F64x2;

impl F64x2 {
    /// The pair `[low, high]` of a slice's two values.
    #[inline]
    #[cfg_attr(target_arch = "wasm32", target_feature(enable = "simd128"))]
    pub(crate) fn load(pair: &[f64; 2]) -> Self {
        F64x2::new(pair[0], pair[1])
    }
}

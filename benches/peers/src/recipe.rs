//! The random recipe of the scene definitions: a fresh `ChaCha8Rng::seed_from_u64(seed)` per
//! scene or pair set, read only through `next_u64()`, every value computed in f64 (cast to f32
//! when handed to the engine). Tumble's `benches/src/recipe.rs` draws the same numbers in the
//! same order, so both engines get the same bodies and pairs.

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// One scene's (or one pair set's) stream of random numbers.
pub struct Recipe {
    rng: ChaCha8Rng,
}

impl Recipe {
    /// A fresh stream (the reference figures use seed 42).
    pub fn new(seed: u64) -> Self {
        Self {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// `(next_u64() >> 11) · 2⁻⁵³`, in [0, 1).
    pub fn unit(&mut self) -> f64 {
        const SCALE: f64 = 1.0 / (1u64 << 53) as f64;
        (self.rng.next_u64() >> 11) as f64 * SCALE
    }

    /// `a + (b − a) · unit()`.
    pub fn uniform(&mut self, a: f64, b: f64) -> f64 {
        a + (b - a) * self.unit()
    }

    /// Three draws of `uniform(a, b)`: x, then y, then z.
    pub fn uniform3(&mut self, a: f64, b: f64) -> [f64; 3] {
        [self.uniform(a, b), self.uniform(a, b), self.uniform(a, b)]
    }

    /// A uniform random rotation (Shoemake), as a normalised quaternion `[x, y, z, w]`;
    /// draws u1, u2, u3 in that order.
    pub fn rotation(&mut self) -> [f64; 4] {
        let (u1, u2, u3) = (self.unit(), self.unit(), self.unit());
        let tau = std::f64::consts::TAU;
        let (r1, r2) = ((1.0 - u1).sqrt(), u1.sqrt());
        let q = [
            r1 * (tau * u2).sin(),
            r1 * (tau * u2).cos(),
            r2 * (tau * u3).sin(),
            r2 * (tau * u3).cos(),
        ];
        let norm = q.iter().map(|c| c * c).sum::<f64>().sqrt();
        q.map(|c| c / norm)
    }

    /// A uniform random unit vector: `z = uniform(−1, 1)`, then `φ = uniform(0, 2π)`.
    pub fn direction(&mut self) -> [f64; 3] {
        let z = self.uniform(-1.0, 1.0);
        let phi = self.uniform(0.0, std::f64::consts::TAU);
        let r = (1.0 - z * z).sqrt();
        [r * phi.cos(), r * phi.sin(), z]
    }
}

/// The smallest integer `s` with `s³ ≥ n`, in integers (no floating-point cube root at the
/// boundary).
pub fn lattice_side(n: usize) -> usize {
    let mut s = 0;
    while s * s * s < n {
        s += 1;
    }
    s
}

/// The smallest integer `s` with `s² ≥ n`.
pub fn square_side(n: usize) -> usize {
    let mut s = 0;
    while s * s < n {
        s += 1;
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sides() {
        assert_eq!(lattice_side(1000), 10);
        assert_eq!(lattice_side(1001), 11);
        assert_eq!(lattice_side(10000), 22);
        assert_eq!(lattice_side(50000), 37);
        assert_eq!(lattice_side(4000), 16);
        assert_eq!(square_side(2500), 50);
        assert_eq!(square_side(2501), 51);
    }

    #[test]
    fn draws_are_in_range_and_repeatable() {
        let (mut a, mut b) = (Recipe::new(42), Recipe::new(42));
        for _ in 0..1000 {
            let x = a.unit();
            assert!((0.0..1.0).contains(&x));
            assert_eq!(x.to_bits(), b.unit().to_bits());
        }
        let q = a.rotation();
        let n: f64 = q.iter().map(|c| c * c).sum();
        assert!((n - 1.0).abs() < 1e-12);
    }
}

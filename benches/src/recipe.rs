//! The random recipe of `shared/peers/rapier-bench/README.md`, followed to the letter so that
//! Tumble's scenes and pair sets are the peer harness's, draw for draw.
//!
//! A fresh `ChaCha8Rng::seed_from_u64(seed)` per scene or pair set, used only through
//! `next_u64()`; all values in f64, cast to f32 when handed to the engine.

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The generator of one scene or pair set.
pub struct Recipe {
    rng: ChaCha8Rng,
}

impl Recipe {
    /// A fresh generator seeded as the peer harness seeds it (the scenes use seed 42).
    pub fn new(seed: u64) -> Self {
        Self {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// `(next_u64() >> 11) · 2⁻⁵³`, uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// `a + (b − a) · unit()`.
    pub fn uniform(&mut self, a: f64, b: f64) -> f64 {
        a + (b - a) * self.unit()
    }

    /// Three uniform draws in order x, y, z.
    pub fn uniform3(&mut self, a: f64, b: f64) -> [f64; 3] {
        let x = self.uniform(a, b);
        let y = self.uniform(a, b);
        let z = self.uniform(a, b);
        [x, y, z]
    }

    /// A uniform unit quaternion by Shoemake's method, as `(x, y, z, w)`, normalised.
    /// Draws u1, u2, u3 in that order.
    pub fn rotation(&mut self) -> [f64; 4] {
        let u1 = self.unit();
        let u2 = self.unit();
        let u3 = self.unit();
        let tau = std::f64::consts::TAU;
        let (a, b) = ((1.0 - u1).sqrt(), u1.sqrt());
        let q = [
            a * (tau * u2).sin(),
            a * (tau * u2).cos(),
            b * (tau * u3).sin(),
            b * (tau * u3).cos(),
        ];
        let n = (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]).sqrt();
        [q[0] / n, q[1] / n, q[2] / n, q[3] / n]
    }

    /// A random unit direction (parry-micro): `z = uniform(−1, 1)`, `φ = uniform(0, 2π)`.
    pub fn direction(&mut self) -> [f64; 3] {
        let z = self.uniform(-1.0, 1.0);
        let phi = self.uniform(0.0, std::f64::consts::TAU);
        let s = (1.0 - z * z).sqrt();
        [s * phi.cos(), s * phi.sin(), z]
    }
}

/// The smallest integer `s` with `s³ ≥ n`, computed exactly.
pub fn lattice_side(n: usize) -> usize {
    let mut s = (n as f64).cbrt().round() as usize;
    while s * s * s < n {
        s += 1;
    }
    while s > 0 && (s - 1) * (s - 1) * (s - 1) >= n {
        s -= 1;
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lattice_side_matches_the_readme_instances() {
        assert_eq!(lattice_side(1000), 10);
        assert_eq!(lattice_side(10000), 22);
        assert_eq!(lattice_side(50000), 37);
        assert_eq!(lattice_side(1), 1);
        assert_eq!(lattice_side(9), 3);
    }

    #[test]
    fn unit_is_in_range_and_seeded() {
        let mut a = Recipe::new(42);
        let mut b = Recipe::new(42);
        for _ in 0..1000 {
            let x = a.unit();
            assert!((0.0..1.0).contains(&x));
            assert_eq!(x.to_bits(), b.unit().to_bits());
        }
    }
}

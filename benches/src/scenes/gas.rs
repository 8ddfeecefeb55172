//! The peer scene `gas` (shared/peers/rapier-bench/README.md, normative): collision detection
//! only, no gravity, no dynamics, no response.
//!
//! `L = cbrt(N · (4/3)·π·0.5³ / 0.05)` (5 % volume fraction). Ball i draws px, py, pz =
//! `uniform(0, L)`, then vx, vy, vz = `uniform(−5, 5)`; radius 0.5. Each step: `p ← p + v·dt`,
//! then per axis `p ← p − L·floor(p/L)` (periodic wrap, positions kept in f64), and the new
//! positions go to the engine as f32. There is no minimum-image convention: pairs across the
//! periodic boundary are not counted.

use crate::recipe::Recipe;

/// The radius of every gas ball (metres).
pub const GAS_RADIUS: f64 = 0.5;

/// The side `L` of the periodic box holding `n` balls at 5 % volume fraction (metres).
pub fn gas_box_side(n: usize) -> f64 {
    let ball_volume = 4.0 / 3.0 * std::f64::consts::PI * GAS_RADIUS.powi(3);
    (n as f64 * ball_volume / 0.05).cbrt()
}

/// The state of the gas: positions and velocities in f64, as the recipe keeps them.
#[derive(Clone, Debug, PartialEq)]
pub struct Gas {
    /// Side of the periodic box (metres); positions lie in [0, L).
    pub side: f64,
    /// Ball centres (metres), world space.
    pub positions: Vec<[f64; 3]>,
    /// Ball velocities (m/s), constant.
    pub velocities: Vec<[f64; 3]>,
}

impl Gas {
    /// The gas of `n` balls, recipe seeded with `seed` (42 for the peer figures).
    pub fn new(n: usize, seed: u64) -> Self {
        let side = gas_box_side(n);
        let mut rng = Recipe::new(seed);
        let mut positions = Vec::with_capacity(n);
        let mut velocities = Vec::with_capacity(n);
        for _ in 0..n {
            positions.push(rng.uniform3(0.0, side));
            velocities.push(rng.uniform3(-5.0, 5.0));
        }
        Self {
            side,
            positions,
            velocities,
        }
    }

    /// Moves every ball by `v·dt` (seconds) and wraps it back into [0, L) per axis.
    pub fn advance(&mut self, dt: f64) {
        let l = self.side;
        for (p, v) in self.positions.iter_mut().zip(&self.velocities) {
            for k in 0..3 {
                let x = p[k] + v[k] * dt;
                p[k] = x - l * (x / l).floor();
            }
        }
    }

    /// The positions as handed to the engine (cast to f32).
    pub fn positions_f32(&self) -> Vec<[f32; 3]> {
        self.positions
            .iter()
            .map(|p| [p[0] as f32, p[1] as f32, p[2] as f32])
            .collect()
    }
}

/// The number of pairs with centre distance < 2·0.5 = 1.0 among `positions`, by testing every
/// pair (O(n²): the oracle for the tests and for `--verify`-like checks at small n). The
/// distance is computed in f64 from the f32 values the engine sees.
pub fn brute_force_pairs(positions: &[[f32; 3]]) -> usize {
    let reach = 2.0 * GAS_RADIUS;
    let mut count = 0;
    for (i, a) in positions.iter().enumerate() {
        for b in &positions[i + 1..] {
            let d2: f64 = (0..3)
                .map(|k| {
                    let d = f64::from(a[k]) - f64::from(b[k]);
                    d * d
                })
                .sum();
            if d2 < reach * reach {
                count += 1;
            }
        }
    }
    count
}

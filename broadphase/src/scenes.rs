//! Box scenes for measuring and testing the broad phases on the layouts a game level makes:
//! uniform crowds, sizes spread over six decades, far coordinates, specks beside buildings and
//! dense piles. The same generator feeds the equivalence tests, the criterion benches
//! (`benches/benches/broadphase.rs`), the `scene_frames` example and `broadphase_compare`.
//!
//! Every scene is a fixed set of box centres and half extents from a seed (a SplitMix64
//! stream, so the scenes need no random-number crate), and a frame moves each box by a jitter
//! of at most 5 % of its half extent around its centre: the statistics stay stationary, so a
//! frame's cost is comparable from frame to frame. The region grows with `n^(1/3)`, so the
//! density, and the pairs per proxy, do not depend on `n`.

use crate::math::{Point, Real};
use crate::Aabb;

/// One of the measured layouts (see each variant for its boxes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SceneKind {
    /// Half extents 0.2–1 m, centres uniform in a cube holding one proxy per 10.5 m³ (the
    /// density of the `gas` scene): about 0.8 pairs per proxy.
    Uniform,
    /// Half extents log-uniform over 5·10⁻⁴…5·10² m (extents 10⁻³…10³ m, aspect up to 2 per
    /// axis), centres uniform in a cube of side `300·n^(1/3)` m: about half a pair per proxy,
    /// most of them involving the large boxes.
    MixedSizes,
    /// Sides 1–10 m, centres within ±`222·(n/10⁵)^(1/3)` m of (3·10⁷, 3·10⁷, −3·10⁷), where
    /// an `f32` coordinate steps by 2 m.
    FarCoordinates,
    /// 55 % boxes of sides 5–10 m over a cube of side `447·(n/10⁵)^(1/3)` m, and 45 % specks
    /// of sides 1–3 mm in a cube of side `(n/10⁵)^(1/3)` m at its centre.
    SpecksBesideBoxes,
    /// Sides 0.5–1 m in 8 piles (cubes, 40 % of each filled with box volume), the piles
    /// spread over a cube eight times their side: about 6 pairs per proxy.
    DenseClusters,
}

impl SceneKind {
    /// Every scene, uniform first.
    pub const ALL: [SceneKind; 5] = [
        SceneKind::Uniform,
        SceneKind::MixedSizes,
        SceneKind::FarCoordinates,
        SceneKind::SpecksBesideBoxes,
        SceneKind::DenseClusters,
    ];

    /// Short name: `uniform`, `mixed`, `far`, `specks` or `clusters`.
    pub fn name(&self) -> &'static str {
        match self {
            Self::Uniform => "uniform",
            Self::MixedSizes => "mixed",
            Self::FarCoordinates => "far",
            Self::SpecksBesideBoxes => "specks",
            Self::DenseClusters => "clusters",
        }
    }

    /// The scene of a short name (see [`name`](Self::name)).
    pub fn from_name(name: &str) -> Option<SceneKind> {
        Self::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// A SplitMix64 stream (Steele, Lea and Flood 2014): small, fast and good enough for layouts.
#[derive(Clone, Debug)]
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[lo, hi)` (f64).
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * ((self.next() >> 11) as f64 / (1u64 << 53) as f64)
    }

    fn point(&mut self, lo: [f64; 3], side: f64) -> [f64; 3] {
        std::array::from_fn(|d| self.range(lo[d], lo[d] + side))
    }
}

/// The boxes of a scene, frame after frame.
#[derive(Clone, Debug)]
pub struct Scene {
    kind: SceneKind,
    centres: Vec<[f64; 3]>,
    halves: Vec<[f64; 3]>,
    rng: SplitMix,
    frame: u64,
}

impl Scene {
    /// `n` boxes of the scene `kind` laid out from `seed`.
    pub fn new(kind: SceneKind, n: usize, seed: u64) -> Self {
        let mut rng = SplitMix(seed ^ 0x5CE4_E5B9_0000_0000);
        let scale = (n.max(1) as f64 / 1.0e5).cbrt();
        let mut centres = Vec::with_capacity(n);
        let mut halves = Vec::with_capacity(n);
        match kind {
            SceneKind::Uniform => {
                let side = (n as f64 * 4.0 / 3.0 * std::f64::consts::PI * 0.125 / 0.05).cbrt();
                for _ in 0..n {
                    centres.push(rng.point([0.0; 3], side));
                    let h = rng.range(0.2, 1.0);
                    halves.push([h; 3]);
                }
            }
            SceneKind::MixedSizes => {
                let side = 300.0 * (n.max(1) as f64).cbrt();
                for _ in 0..n {
                    centres.push(rng.point([0.0; 3], side));
                    let h = 5.0e-4 * 1.0e6f64.powf(rng.range(0.0, 1.0));
                    halves.push(std::array::from_fn(|_| h * rng.range(0.5, 1.0)));
                }
            }
            SceneKind::FarCoordinates => {
                let r = 222.0 * scale;
                for _ in 0..n {
                    let c = rng.point([-r; 3], 2.0 * r);
                    centres.push([3.0e7 + c[0], 3.0e7 + c[1], -3.0e7 + c[2]]);
                    halves.push(std::array::from_fn(|_| rng.range(0.5, 5.0)));
                }
            }
            SceneKind::SpecksBesideBoxes => {
                let side = 447.0 * scale;
                let boxes = n * 55 / 100;
                for k in 0..n {
                    if k < boxes {
                        centres.push(rng.point([0.0; 3], side));
                        halves.push(std::array::from_fn(|_| rng.range(2.5, 5.0)));
                    } else {
                        let s = scale;
                        centres.push(rng.point([0.5 * (side - s); 3], s));
                        halves.push(std::array::from_fn(|_| rng.range(0.5e-3, 1.5e-3)));
                    }
                }
            }
            SceneKind::DenseClusters => {
                // Mean box volume 0.75³ m³; 40 % filled.
                let per = n.div_ceil(8).max(1) as f64;
                let pile = (per * 0.42 / 0.4).cbrt();
                let piles: Vec<[f64; 3]> =
                    (0..8).map(|_| rng.point([0.0; 3], 7.0 * pile)).collect();
                for k in 0..n {
                    centres.push(rng.point(piles[k % 8], pile));
                    halves.push(std::array::from_fn(|_| rng.range(0.25, 0.5)));
                }
            }
        }
        Self {
            kind,
            centres,
            halves,
            rng,
            frame: 0,
        }
    }

    /// Which scene this is.
    pub fn kind(&self) -> SceneKind {
        self.kind
    }

    /// Number of boxes.
    pub fn len(&self) -> usize {
        self.centres.len()
    }

    /// True when the scene has no box.
    pub fn is_empty(&self) -> bool {
        self.centres.is_empty()
    }

    /// The boxes of the current frame (frame 0: the layout itself).
    pub fn boxes(&self) -> Vec<Aabb> {
        let mut rng = SplitMix(self.rng.0 ^ self.frame.wrapping_mul(0xA24B_AED4_963E_E407));
        let jitter = self.frame > 0;
        self.centres
            .iter()
            .zip(&self.halves)
            .map(|(c, h)| {
                let mut at = |d: usize| {
                    let j = if jitter {
                        0.05 * h[d] * rng.range(-1.0, 1.0)
                    } else {
                        0.0
                    };
                    c[d] + j
                };
                let c = [at(0), at(1), at(2)];
                let lo = Point::new(
                    (c[0] - h[0]) as Real,
                    (c[1] - h[1]) as Real,
                    (c[2] - h[2]) as Real,
                );
                let hi = Point::new(
                    (c[0] + h[0]) as Real,
                    (c[1] + h[1]) as Real,
                    (c[2] + h[2]) as Real,
                );
                // Rounding to f32 is monotone, so lo ≤ hi still holds.
                Aabb::new_unchecked(lo, hi)
            })
            .collect()
    }

    /// Moves to the next frame (each box jittered anew around its centre).
    pub fn advance(&mut self) {
        self.frame += 1;
    }
}

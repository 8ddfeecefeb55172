//! Choosing a structure at run time: [`BroadPhaseKind`] and the enum dispatch [`AnyBroadPhase`].

use crate::handle::Pair;
use crate::math::{Point, Real, Vector};
use crate::{Aabb, BroadPhase, BroadPhaseError, BruteForce, Bvh, Grid, ProxyHandle, SweepAndPrune};
use std::fmt;
use std::str::FromStr;

/// Which broad-phase structure to use. The default is the one that won the typical scenes in
/// the benchmarks (see `benches/benches/broadphase.rs` and the crate docs' figures): the
/// hierarchical grid.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum BroadPhaseKind {
    /// Every pair tested (reference; O(n²)).
    BruteForce,
    /// Hierarchical grid / spatial hash.
    #[default]
    Grid,
    /// Sweep and prune: one sorted axis, the two others pruned by columns.
    SweepAndPrune,
    /// Bounding-volume hierarchy.
    Bvh,
}

impl BroadPhaseKind {
    /// Every kind, in declaration order.
    pub const ALL: [BroadPhaseKind; 4] = [
        BroadPhaseKind::BruteForce,
        BroadPhaseKind::Grid,
        BroadPhaseKind::SweepAndPrune,
        BroadPhaseKind::Bvh,
    ];

    /// The short name accepted by [`FromStr`]: `brute`, `grid`, `sap` or `bvh`.
    pub fn name(&self) -> &'static str {
        match self {
            Self::BruteForce => "brute",
            Self::Grid => "grid",
            Self::SweepAndPrune => "sap",
            Self::Bvh => "bvh",
        }
    }
}

impl fmt::Display for BroadPhaseKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error of parsing a [`BroadPhaseKind`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownKind(pub String);

impl fmt::Display for UnknownKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown broad phase {:?}: use brute, grid, sap or bvh",
            self.0
        )
    }
}

impl std::error::Error for UnknownKind {}

impl FromStr for BroadPhaseKind {
    type Err = UnknownKind;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "brute" | "bruteforce" | "brute-force" | "brute_force" => Ok(Self::BruteForce),
            "grid" | "hash" | "spatial-hash" => Ok(Self::Grid),
            "sap" | "sweep" | "sweep-and-prune" | "sweepandprune" => Ok(Self::SweepAndPrune),
            "bvh" | "tree" => Ok(Self::Bvh),
            _ => Err(UnknownKind(s.to_string())),
        }
    }
}

/// Enum dispatch over the four structures; implements [`BroadPhase`].
// A world holds one of these, so the size of its largest variant (the grid's reused buffers)
// costs nothing worth a box and its indirection on every call.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum AnyBroadPhase {
    /// See [`BruteForce`].
    BruteForce(BruteForce),
    /// See [`Grid`].
    Grid(Grid),
    /// See [`SweepAndPrune`].
    SweepAndPrune(SweepAndPrune),
    /// See [`Bvh`].
    Bvh(Bvh),
}

impl Default for AnyBroadPhase {
    fn default() -> Self {
        Self::new(BroadPhaseKind::default())
    }
}

impl AnyBroadPhase {
    /// An empty broad phase of the given kind, with default parameters.
    pub fn new(kind: BroadPhaseKind) -> Self {
        match kind {
            BroadPhaseKind::BruteForce => Self::BruteForce(BruteForce::new()),
            BroadPhaseKind::Grid => Self::Grid(Grid::new()),
            BroadPhaseKind::SweepAndPrune => Self::SweepAndPrune(SweepAndPrune::new()),
            BroadPhaseKind::Bvh => Self::Bvh(Bvh::new()),
        }
    }

    /// Which structure this is.
    pub fn kind(&self) -> BroadPhaseKind {
        match self {
            Self::BruteForce(_) => BroadPhaseKind::BruteForce,
            Self::Grid(_) => BroadPhaseKind::Grid,
            Self::SweepAndPrune(_) => BroadPhaseKind::SweepAndPrune,
            Self::Bvh(_) => BroadPhaseKind::Bvh,
        }
    }

    fn inner(&self) -> &dyn BroadPhase {
        match self {
            Self::BruteForce(b) => b,
            Self::Grid(b) => b,
            Self::SweepAndPrune(b) => b,
            Self::Bvh(b) => b,
        }
    }

    fn inner_mut(&mut self) -> &mut dyn BroadPhase {
        match self {
            Self::BruteForce(b) => b,
            Self::Grid(b) => b,
            Self::SweepAndPrune(b) => b,
            Self::Bvh(b) => b,
        }
    }
}

impl BroadPhase for AnyBroadPhase {
    fn insert(&mut self, aabb: Aabb, user_data: u64) -> Result<ProxyHandle, BroadPhaseError> {
        self.inner_mut().insert(aabb, user_data)
    }
    fn insert_batch(&mut self, items: &[(Aabb, u64)]) -> Result<Vec<ProxyHandle>, BroadPhaseError> {
        self.inner_mut().insert_batch(items)
    }
    fn remove(&mut self, h: ProxyHandle) -> Result<(), BroadPhaseError> {
        self.inner_mut().remove(h)
    }
    fn update(&mut self, h: ProxyHandle, aabb: Aabb) -> Result<(), BroadPhaseError> {
        self.inner_mut().update(h, aabb)
    }
    fn update_batch(&mut self, items: &[(ProxyHandle, Aabb)]) -> Result<(), BroadPhaseError> {
        self.inner_mut().update_batch(items)
    }
    fn update_batch_with<F>(
        &mut self,
        handles: &[ProxyHandle],
        aabb_of: F,
    ) -> Result<(), BroadPhaseError>
    where
        F: Fn(usize) -> Aabb + Sync,
    {
        match self {
            Self::BruteForce(b) => b.update_batch_with(handles, aabb_of),
            Self::Grid(b) => b.update_batch_with(handles, aabb_of),
            Self::SweepAndPrune(b) => b.update_batch_with(handles, aabb_of),
            Self::Bvh(b) => b.update_batch_with(handles, aabb_of),
        }
    }
    fn find_pairs(&mut self, out: &mut Vec<Pair>) {
        self.inner_mut().find_pairs(out)
    }
    fn max_pairs(&self) -> usize {
        self.inner().max_pairs()
    }
    fn set_max_pairs(&mut self, max: usize) {
        self.inner_mut().set_max_pairs(max)
    }
    fn dropped_pairs(&self) -> usize {
        self.inner().dropped_pairs()
    }
    fn shrink_buffers(&mut self) {
        self.inner_mut().shrink_buffers()
    }
    fn query_aabb(&self, aabb: &Aabb, out: &mut Vec<ProxyHandle>) {
        self.inner().query_aabb(aabb, out)
    }
    fn query_point(&self, p: &Point, out: &mut Vec<ProxyHandle>) {
        self.inner().query_point(p, out)
    }
    fn cast_ray(
        &self,
        origin: &Point,
        dir: &Vector,
        max_t: Real,
        out: &mut Vec<(ProxyHandle, Real)>,
    ) {
        self.inner().cast_ray(origin, dir, max_t, out)
    }
    fn aabb(&self, h: ProxyHandle) -> Result<Aabb, BroadPhaseError> {
        self.inner().aabb(h)
    }
    fn user_data(&self, h: ProxyHandle) -> Result<u64, BroadPhaseError> {
        self.inner().user_data(h)
    }
    fn len(&self) -> usize {
        self.inner().len()
    }
    fn validate(&self) -> Result<(), String> {
        self.inner().validate()
    }
}

//! The four broad-phase structures, one file each. All store their proxies in the same
//! `ProxyStore` (shared handle arena, so handles agree across structures) and report pairs
//! through the same canonical sort.
//!
//! * [`BruteForce`]: tests every pair, O(n²). The reference every test compares against.
//! * [`Grid`]: hierarchical grid / spatial hash (Mirtich 1996), rebuilt by a counting sort each
//!   frame; each proxy sits in every cell its box touches at the level whose cells fit its size,
//!   and a pair is reported only in the cell that holds the minimum corner of the two boxes'
//!   overlap, so no hash set is needed to deduplicate.
//! * [`SweepAndPrune`]: box pruning (Terdiman 2007): proxies sorted by their lower bound along
//!   the axis of largest spread of the centres, kept sorted between frames by insertion sort
//!   (inserts merged), pairs found by a sweep that keeps the active proxies in columns of the
//!   two other axes.
//! * [`Bvh`]: a bounding-volume hierarchy built by binned SAH, refitted when proxies move and
//!   rebuilt when refitting has degraded it; pairs by traversing the tree against itself.

mod brute_force;
mod bvh;
mod grid;
mod levels;
mod sap;

pub use brute_force::BruteForce;
pub use bvh::{Bvh, BINS, MAX_LEAF, REBUILD_RATIO};
pub use grid::{Grid, GridMode, LEVEL_RATIO};
pub use sap::{SapStats, SweepAndPrune, AXIS_PERIOD, BAND_RATIO, SWAP_BUDGET_PER_PROXY};

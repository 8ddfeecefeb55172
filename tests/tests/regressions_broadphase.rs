//! Regressions of the broad phases: the grid's cell index far from tiny cells.
//!
//! One named test per bug the fuzzers found (see `fuzz/`), written as the smallest case that
//! shows it; the raw crash inputs are in `fuzz/regressions/<target>/` (replayed by
//! `fuzz_replay` on every test run). A test of an open bug is `#[ignore]`d with the reason, and
//! its inputs wait in `fuzz/regressions/open/<target>/` until the fix lands.

use tumble::broadphase::{AnyBroadPhase, BroadPhase, BroadPhaseKind};
use tumble::math::{Point, Real};
use tumble::narrowphase::Aabb;

/// Fuzz target `broadphase`, input `grid_cell_of_overflow_far_negative`: with cells made tiny
/// by point-like proxies, a query box far from the origin makes `x · inv` exceed the `i32`
/// range; `as i32` saturates to `i32::MIN`, and the floor correction `t − 1` overflows (a
/// panic with overflow checks; with them off, a wrap to `i32::MAX` that clamps to the top cell,
/// so the query silently misses every proxy).
///
/// Where: `broadphase/src/structure/grid.rs`, `Grid::cell_of`. Fix: clamp `y` to
/// `±CELL_LIMIT` before the conversion (or `t.saturating_sub(..)`).
///
/// Fixed (the float is now clamped before the conversion); kept as a regression.
#[test]
fn grid_query_far_from_tiny_cells_finds_every_proxy() {
    let mut grid = AnyBroadPhase::new(BroadPhaseKind::Grid);
    let mut handles = Vec::new();
    for i in 0..100 {
        // 100 points in a 0.1 mm cube: cells of about 40 µm, so ±1e6 m is ±2.3e10 cells.
        let p = Point::new((i % 5) as Real, ((i / 5) % 5) as Real, (i / 25) as Real) * 2e-5;
        handles.push(grid.insert(Aabb::new(p, p).unwrap(), i).unwrap());
    }
    let mut pairs = Vec::new();
    grid.find_pairs(&mut pairs); // sizes the cells from the proxies
    let everything = Aabb::new(Point::new(-1e6, -1e6, -1e6), Point::new(1e6, 1e6, 1e6)).unwrap();
    let mut out = Vec::new();
    grid.query_aabb(&everything, &mut out);
    assert_eq!(out, handles, "a query holding every proxy missed some");
    grid.query_aabb(
        &Aabb::new(Point::new(-1e6, 0.0, 0.0), Point::new(-1e6, 0.0, 0.0)).unwrap(),
        &mut out,
    );
    assert!(out.is_empty());
    grid.validate().unwrap();
}

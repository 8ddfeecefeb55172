//! Regressions of the planar polygons: concave polygons touching themselves refused, ear
//! clipping covering every corner and no more than the area, the area of a convex polygon far
//! from the origin.
//!
//! One named test per bug the fuzzers found (see `fuzz/`), written as the smallest case that
//! shows it; the raw crash inputs are in `fuzz/regressions/<target>/` (replayed by
//! `fuzz_replay` on every test run). A test of an open bug is `#[ignore]`d with the reason, and
//! its inputs wait in `fuzz/regressions/open/<target>/` until the fix lands.

mod common;

use common::fuzz_inputs::replay_shapes_input;
use tumble::math::Point2;
use tumble::narrowphase::planar::ConcavePolygon;
use tumble::narrowphase::ShapeError;

/// Fuzz target `shapes` (18 of 1 322 crashing inputs), input
/// `concave_polygon_misses_a_corner`: `ConcavePolygon::new` accepted corners
/// (10⁻³⁰, −7.19), (10⁻³⁰, 10⁻³⁰), (9.37, 0.195), (4.75, −10), (0, 0), whose last corner lies
/// 10⁻³⁰ from the first edge (x = 10⁻³⁰): a polygon touching itself, whose ear-clipped pieces
/// then missed a corner.
///
/// Where: `narrowphase/src/planar/concave.rs`, `segments_touch`: `turn` calls the corner
/// collinear with the edge (within its relative 10⁻⁶), but the "between the ends" test was an
/// exact bounding box, and 0 < 10⁻³⁰ put it outside. Fixed: "between" is tolerant too (up to
/// 10⁻⁶ of the edge's length), so the polygon is refused as self-intersecting.
#[test]
fn concave_polygon_covers_every_corner() {
    let corners = [
        Point2::new(1e-30, -7.190_203_7),
        Point2::new(1e-30, 1e-30),
        Point2::new(9.374_99, 0.194_551_47),
        Point2::new(4.75, -10.0),
        Point2::new(0.0, 0.0),
    ];
    assert_eq!(
        ConcavePolygon::new(&corners),
        Err(ShapeError::SelfIntersecting)
    );
    replay_shapes_input("shapes", "concave_polygon_misses_a_corner");
}

/// Fuzz target `shapes` (29 of 1 322 crashing inputs), input
/// `ear_clipping_covers_more_than_the_area`: the corners (0, 9.84), (10⁻³⁰, 4.95),
/// (9.30, 9.92), (−1.8·10⁻¹⁵, 9.37), (−10, 0) were accepted as a simple polygon, though the
/// fourth lies 1.8·10⁻¹⁵ left of the first edge (on x = 0 between y = 4.95 and 9.84); its ear
/// clipping covered 63.56 of a shoelace area of 18.20.
///
/// Where and fix: as `concave_polygon_covers_every_corner` (the exact bounding-box test in
/// `segments_touch` called −1.8·10⁻¹⁵ "not between 0 and 10⁻³⁰"). Refused as self-intersecting.
#[test]
fn ear_clipping_never_covers_more_than_the_area() {
    let corners = [
        Point2::new(0.0, 9.843_748),
        Point2::new(1e-30, 4.951_094_6),
        Point2::new(9.296_864, 9.922_178),
        Point2::new(-1.777_233_3e-15, 9.372_549),
        Point2::new(-10.0, 0.0),
    ];
    assert_eq!(
        ConcavePolygon::new(&corners),
        Err(ShapeError::SelfIntersecting)
    );
    replay_shapes_input("shapes", "ear_clipping_covers_more_than_the_area");
}

/// Fuzz target `shapes` (1 of 7 inputs), input `convex_polygon_of_zero_area`:
/// a valid (strictly convex) polygon reported area 0.
///
/// Where: `narrowphase/src/planar/convex.rs`, `twice_signed_area`: the shoelace sum over
/// absolute f32 coordinates cancelled for a small polygon away from the origin. Fixed: a fan
/// about the first corner, summed in f64. The area of a unit square moved far from the origin
/// stays 1.
#[test]
fn convex_polygon_area_survives_an_offset() {
    replay_shapes_input("shapes", "convex_polygon_of_zero_area");
    use tumble::narrowphase::math::Point2;
    use tumble::narrowphase::planar::ConvexPolygon;
    for offset in [0.0, 1e3, 1e5, 3e5] {
        let corners = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
            .map(|(x, y)| Point2::new(x + offset, y + offset));
        let area = ConvexPolygon::new(&corners).unwrap().area();
        assert!((area - 1.0).abs() < 1e-6, "offset {offset}: area {area}");
    }
}

/// Fuzz target `shapes`, input `concave_polygon_misses_a_corner_after_the_self_touch_fix`:
/// `ConcavePolygon::new` accepted the simple polygon (−10, −707761.6), (5.76, 1.78),
/// (0, −9.94), (0, 0) — a needle 7·10⁵ m long with a notch at its top — but corner (0, 0) was
/// in no piece.
///
/// Where: `narrowphase/src/planar/concave.rs`, `ear_clip`. The polygon is simple (corner
/// (0, −9.94) is 1.4·10⁻⁴ m inside the needle's left edge), so it must be covered, not
/// refused. The last triangle (area 49.7 m²) was judged by the sine at its needle tip,
/// 2·10⁻¹⁰, and dropped as straight. Fixed: ears and the last triangle are judged by the f64
/// sign of their area; the tolerant turn (at the widest corner) only drops a straight corner
/// when no ear is found. The replay checks that the pieces add up to the area (`check_shapes`).
#[test]
fn concave_needle_with_a_notch_covers_every_corner() {
    replay_shapes_input(
        "shapes",
        "concave_polygon_misses_a_corner_after_the_self_touch_fix",
    );
    let corners = [
        Point2::new(-10.0, -707_761.6),
        Point2::new(5.764_705_7, 1.780_270_6),
        Point2::new(-1.216_442e-25, -9.938_659),
        Point2::new(0.0, 0.0),
    ];
    let p = ConcavePolygon::new(&corners).unwrap();
    assert!(corners.iter().all(|c| p.contains_point(c)));
    assert_eq!(p.pieces().len(), 2);
}

//! The size limit of a convex hull: clouds whose hull has more than `MAX_HULL_VERTICES`
//! corners are refused with a typed error (a 36 000-point sphere used to build for 50 s into
//! a hull whose 68 087 face directions overflowed a `u16` index), clouds of any size whose
//! hull is small build, and a serialised polyhedron beyond the limit is refused before any
//! quadratic check runs.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tumble_narrowphase::math::{Point, Real};
use tumble_narrowphase::shape::{ConvexPolyhedron, MAX_HULL_VERTICES};
use tumble_narrowphase::ShapeError;

mod query_oracle;

/// `n` points on the unit sphere (Fibonacci lattice): every one is a corner of their hull.
fn sphere(n: usize) -> Vec<Point> {
    query_oracle::sphere_directions(n)
        .into_iter()
        .map(Point::from)
        .collect()
}

/// The cloud: 36 000 points on a sphere. Refused, naming the limit.
#[test]
fn hull_of_thirty_six_thousand_sphere_points_is_refused() {
    let e = ConvexPolyhedron::from_points(&sphere(36_000)).unwrap_err();
    assert_eq!(e, ShapeError::TooManyVertices(MAX_HULL_VERTICES));
    assert!(e.to_string().contains("256"), "{e}");
}

/// At the limit and just past it: 256 sphere points make a hull of 256 corners, 257 are refused.
#[test]
fn hull_at_the_limit_builds_and_one_past_it_is_refused() {
    let h = ConvexPolyhedron::from_points(&sphere(MAX_HULL_VERTICES)).unwrap();
    assert_eq!(h.vertices().len(), MAX_HULL_VERTICES);
    h.validate().unwrap();
    assert_eq!(
        ConvexPolyhedron::from_points(&sphere(MAX_HULL_VERTICES + 1)).unwrap_err(),
        ShapeError::TooManyVertices(MAX_HULL_VERTICES)
    );
}

/// 36 000 points uniform in a box plus its 8 corners: the hull is the box, whatever the count
/// of points inside it.
#[test]
fn large_cloud_with_a_small_hull_builds() {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let mut pts: Vec<Point> = (0..36_000)
        .map(|_| {
            Point::new(
                rng.gen_range(-1.0..1.0),
                rng.gen_range(-2.0..2.0),
                rng.gen_range(-0.5..0.5),
            )
        })
        .collect();
    for k in 0..8 {
        let s = |b: usize, h: Real| if k >> b & 1 == 0 { -h } else { h };
        pts.push(Point::new(s(0, 1.0), s(1, 2.0), s(2, 0.5)));
    }
    let h = ConvexPolyhedron::from_points(&pts).unwrap();
    assert_eq!(h.vertices().len(), 8);
    assert_eq!(h.faces().len(), 6);
}

/// A polyhedron read back with more corners than the limit (a 100 × 100 latitude–longitude
/// sphere of 9 802 corners, written field by field as the serialised form is) is refused
/// before its faces are checked; the same form at 12 × 12 restores.
#[test]
fn serialised_polyhedron_beyond_the_limit_is_refused() {
    fn uv_sphere(rings: usize, segments: usize) -> serde_json::Value {
        let mut v = vec![[0.0f32, 1.0, 0.0]];
        for i in 1..rings {
            let phi = std::f32::consts::PI * i as f32 / rings as f32;
            for j in 0..segments {
                let th = std::f32::consts::TAU * j as f32 / segments as f32;
                v.push([phi.sin() * th.cos(), phi.cos(), phi.sin() * th.sin()]);
            }
        }
        v.push([0.0, -1.0, 0.0]);
        let at = |i: usize, j: usize| (1 + (i - 1) * segments + j % segments) as u32;
        let south = (v.len() - 1) as u32;
        let mut faces: Vec<Vec<u32>> = Vec::new();
        for j in 0..segments {
            faces.push(vec![0, at(1, j + 1), at(1, j)]);
            faces.push(vec![south, at(rings - 1, j), at(rings - 1, j + 1)]);
            for i in 1..rings - 1 {
                faces.push(vec![at(i, j), at(i, j + 1), at(i + 1, j + 1)]);
                faces.push(vec![at(i, j), at(i + 1, j + 1), at(i + 1, j)]);
            }
        }
        serde_json::json!({ "vertices": v, "faces": faces })
    }
    let small: Result<ConvexPolyhedron, _> = serde_json::from_value(uv_sphere(12, 12));
    let small = small.unwrap();
    small.validate().unwrap();
    let big: Result<ConvexPolyhedron, _> = serde_json::from_value(uv_sphere(100, 100));
    let e = big.unwrap_err().to_string();
    assert!(e.contains("256"), "{e}");
}

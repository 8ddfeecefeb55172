//! Every shape constructor on arbitrary numbers (any bit pattern: NaN, infinities, zeros,
//! subnormals, huge values): it never panics, it accepts exactly the inputs its doc accepts,
//! and what it accepts keeps its invariants (finite unit normals, hulls that contain their
//! points and pass `validate`, polygons whose pieces cover their area, AABBs that hold the
//! shape).

use super::input::real_in;
use arbitrary::{Arbitrary, Result, Unstructured};
use tumble::math::{Isometry, Point, Point2, Real, Rotation, Translation, Vector, Vector2};
use tumble::narrowphase::planar::{
    polygon_circle, polygon_polygon, Circle, ConcavePolygon, ConvexPolygon, Line, Rect, Segment,
};
use tumble::narrowphase::shape::{Ball, Capsule, ConvexPolyhedron, Cuboid, Obb, Triangle};
use tumble::narrowphase::Aabb;

/// A number from any bit pattern, a special value, or a bounded finite value (so that the
/// accepting branches are reached often).
pub fn any_real(u: &mut Unstructured<'_>) -> Result<Real> {
    Ok(match u.int_in_range(0u8..=5)? {
        0 => Real::arbitrary(u)?,
        1 => *u.choose(&[
            Real::NAN,
            Real::INFINITY,
            Real::NEG_INFINITY,
            0.0,
            -0.0,
            Real::MAX,
            Real::MIN_POSITIVE,
            1e-30,
            1e30,
            -1.0,
        ])?,
        2 => real_in(u, -10.0, 10.0, true)?,
        _ => real_in(u, -10.0, 10.0, false)?,
    })
}

fn any_vector(u: &mut Unstructured<'_>) -> Result<Vector> {
    Ok(Vector::new(any_real(u)?, any_real(u)?, any_real(u)?))
}

fn any_point2(u: &mut Unstructured<'_>) -> Result<Point2> {
    Ok(Point2::new(any_real(u)?, any_real(u)?))
}

fn finite(v: &Vector) -> bool {
    v.iter().all(|x| x.is_finite())
}

/// Fuzz entry: one constructor per input, chosen by the first byte.
pub fn check_shapes(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let _ = run(&mut u);
}

fn run(u: &mut Unstructured<'_>) -> Result<()> {
    match u.int_in_range(0u8..=9)? {
        0 => {
            let r = any_real(u)?;
            let t = any_vector(u)?;
            let ball = Ball::new(r);
            assert_eq!(ball.is_ok(), r.is_finite() && r > 0.0, "Ball::new({r})");
            if let Ok(b) = ball {
                assert_eq!(b.radius(), r);
                check_aabb_holds(&b.aabb(&pose_of(t)), &[pose_of(t) * Point::origin()], r, t);
            }
        }
        1 => {
            let he = any_vector(u)?;
            let t = any_vector(u)?;
            let c = Cuboid::new(he);
            assert_eq!(
                c.is_ok(),
                finite(&he) && he.iter().all(|&x| x > 0.0),
                "Cuboid::new({he:?})"
            );
            if let Ok(c) = c {
                assert_eq!(c.half_extents(), he);
                let p = pose_of(t);
                let corners: Vec<Point> = Obb::from_cuboid(&c, &p).corners().to_vec();
                check_aabb_holds(&c.aabb(&p), &corners, 0.0, t);
            }
        }
        2 => {
            let (h, r) = (any_real(u)?, any_real(u)?);
            let c = Capsule::new(h, r);
            let ok = h.is_finite() && r.is_finite() && h > 0.0 && r > 0.0;
            assert_eq!(c.is_ok(), ok, "Capsule::new({h}, {r})");
            if let Ok(c) = c {
                let t = any_vector(u)?;
                let (a, b) = c.segment(&pose_of(t));
                check_aabb_holds(&c.aabb(&pose_of(t)), &[a, b], r, t);
            }
        }
        3 => {
            let (mins, maxs) = (Point::from(any_vector(u)?), Point::from(any_vector(u)?));
            let ok =
                finite(&mins.coords) && finite(&maxs.coords) && (0..3).all(|i| mins[i] <= maxs[i]);
            assert_eq!(
                Aabb::new(mins, maxs).is_ok(),
                ok,
                "Aabb::new({mins:?}, {maxs:?})"
            );
            let pts = points(u, 0, 6)?;
            match Aabb::from_points(&pts) {
                Some(b) => {
                    assert!(b.is_valid());
                    assert!(pts.iter().all(|p| b.contains_point(p)));
                }
                None => assert!(pts.is_empty() || pts.iter().any(|p| !finite(&p.coords))),
            }
        }
        4 => {
            let [a, b, c] = [
                Point::from(any_vector(u)?),
                Point::from(any_vector(u)?),
                Point::from(any_vector(u)?),
            ];
            let t = Triangle::new(a, b, c);
            let all_finite = [a, b, c].iter().all(|p| finite(&p.coords));
            if !all_finite {
                assert!(t.is_err(), "Triangle::new accepted a non-finite corner");
            }
            if let Ok(t) = t {
                let n = t.normal();
                assert!(
                    finite(&n) && (n.norm() - 1.0).abs() < 1e-3,
                    "triangle normal {n:?}"
                );
                assert_eq!(t.corners(), &[a, b, c]);
            } else if all_finite {
                // A clearly non-degenerate triangle (area well above the tolerance) is accepted.
                let cross = (b - a).cross(&(c - a)).norm();
                let e = (b - a).norm().max((c - a).norm()).max((c - b).norm());
                if e < 1e3 && e > 1e-2 && cross > 1e-2 * e * e {
                    panic!("Triangle::new refused {a:?} {b:?} {c:?} (area·2 = {cross})");
                }
            }
        }
        5 => {
            let pts = if bool::arbitrary(u)? {
                points(u, 0, 16)?
            } else {
                (0..u.int_in_range(0..=16)?)
                    .map(|_| {
                        Ok(Point::new(
                            real_in(u, -2.0, 2.0, true)?,
                            real_in(u, -2.0, 2.0, true)?,
                            real_in(u, -2.0, 2.0, true)?,
                        ))
                    })
                    .collect::<Result<_>>()?
            };
            check_hull(&pts);
        }
        6 => {
            let c = Point::from(any_vector(u)?);
            let he = any_vector(u)?;
            let axes = [any_vector(u)?, any_vector(u)?, any_vector(u)?];
            if let Ok(o) = Obb::new(c, axes, he) {
                let m = o.axes();
                assert!(
                    (m.transpose() * m - tumble::math::Matrix::identity())
                        .abs()
                        .max()
                        < 1e-3
                );
            }
            let q =
                nalgebra::Quaternion::new(any_real(u)?, any_real(u)?, any_real(u)?, any_real(u)?);
            if let Ok(o) = Obb::from_rotation(c, &Rotation::new_unchecked(q), he) {
                assert!(o.axes().iter().all(|x| x.is_finite()));
            }
        }
        7 => {
            let n = u.int_in_range(0..=10)?;
            let corners: Vec<Point2> = (0..n).map(|_| any_point2(u)).collect::<Result<_>>()?;
            check_polygons(&corners);
        }
        8 => {
            let n = u.int_in_range(0..=10)?;
            let corners: Vec<Point2> = (0..n)
                .map(|_| {
                    Ok(Point2::new(
                        real_in(u, -3.0, 3.0, true)?,
                        real_in(u, -3.0, 3.0, true)?,
                    ))
                })
                .collect::<Result<_>>()?;
            check_polygons(&corners);
        }
        _ => {
            let (c, r) = (any_point2(u)?, any_real(u)?);
            let circle = Circle::new(c, r);
            if circle.is_ok() {
                assert!(r.is_finite() && r > 0.0 && c.iter().all(|x| x.is_finite()));
            }
            let (he, angle) = (Vector2::new(any_real(u)?, any_real(u)?), any_real(u)?);
            if let Ok(rect) = Rect::new(c, he, angle) {
                assert!(rect
                    .corners()
                    .iter()
                    .all(|p| p.iter().all(|x| x.is_finite())));
            }
            let (p, q) = (any_point2(u)?, any_point2(u)?);
            if let Ok(s) = Segment::new(p, q) {
                let n = s.normal();
                assert!((n.norm() - 1.0).abs() < 1e-3, "segment normal {n:?}");
            }
            if let Ok(l) = Line::new(p, q - Point2::origin()) {
                assert!((l.normal().norm() - 1.0).abs() < 1e-3 && l.offset().is_finite());
            }
        }
    }
    Ok(())
}

fn pose_of(t: Vector) -> Isometry {
    let t = if finite(&t) { t } else { Vector::zeros() };
    Isometry::from_parts(
        Translation::from(t),
        Rotation::from_euler_angles(0.3, 0.5, 0.7),
    )
}

fn points(u: &mut Unstructured<'_>, min: usize, max: usize) -> Result<Vec<Point>> {
    (0..u.int_in_range(min..=max)?)
        .map(|_| any_vector(u).map(Point::from))
        .collect()
}

/// A shape's AABB at a moderate pose is valid and holds the given points grown by `r`.
fn check_aabb_holds(aabb: &Aabb, pts: &[Point], r: Real, t: Vector) {
    let big = pts
        .iter()
        .map(|p| p.coords.abs().max())
        .fold(0.0, Real::max)
        + r;
    if !finite(&t) || !big.is_finite() || big >= 1e30 {
        return; // overflow to infinity is the caller's (World::insert's) to refuse
    }
    assert!(aabb.is_valid(), "AABB {aabb:?} not valid");
    let tol = 1e-5 * (1.0 + big);
    let grown = aabb.loosened(tol);
    for p in pts {
        for d in [Vector::x(), Vector::y(), Vector::z()] {
            for s in [-r, r] {
                assert!(
                    grown.contains_point(&(p + d * s)),
                    "AABB {aabb:?} misses {p:?} ± {r}"
                );
            }
        }
    }
}

fn check_hull(pts: &[Point]) {
    let Ok(h) = ConvexPolyhedron::from_points(pts) else {
        return;
    };
    assert!(
        pts.len() >= 4 && pts.iter().all(|p| finite(&p.coords)),
        "hull of bad input accepted"
    );
    if let Err(e) = h.validate() {
        panic!("hull of {pts:?} fails validate: {e}");
    }
    assert!(
        h.vertices().iter().all(|v| pts.contains(v)),
        "hull vertex not an input point"
    );
    let scale = pts
        .iter()
        .map(|p| p.coords.abs().max())
        .fold(0.0, Real::max);
    let tol = 1e-4 * (1.0 + scale);
    for f in h.faces() {
        let p0 = h.vertices()[h.face_loop(f)[0] as usize];
        for p in pts {
            let out = f.normal.dot(&(p - p0));
            assert!(out <= tol, "input point {p:?} is {out} outside a hull face");
        }
    }
}

fn shoelace(c: &[Point2]) -> Real {
    let n = c.len();
    0.5 * (0..n)
        .map(|i| c[i].coords.perp(&c[(i + 1) % n].coords))
        .sum::<Real>()
}

fn check_polygons(corners: &[Point2]) {
    let finite2 = corners.iter().all(|p| p.iter().all(|x| x.is_finite()));
    let scale = corners
        .iter()
        .map(|p| p.coords.abs().max())
        .fold(0.0, Real::max);
    let moderate = finite2 && scale < 1e6;
    if let Ok(p) = ConvexPolygon::new(corners) {
        assert!(
            finite2 && corners.len() >= 3,
            "convex polygon of bad input accepted"
        );
        if moderate {
            assert!(p.area() > 0.0, "convex polygon with area {}", p.area());
            assert!(p.normals().iter().all(|n| (n.norm() - 1.0).abs() < 1e-3));
            assert!(
                corners.iter().all(|c| p.contains_point(c)),
                "polygon misses a corner"
            );
            let sat = polygon_polygon(&p, &p);
            assert!(
                sat.intersects() && sat.separation.is_finite(),
                "polygon against itself: {sat:?}"
            );
            if let Ok(c) = Circle::new(corners[0], 0.5) {
                let s = polygon_circle(&p, &c);
                assert!(
                    s.intersects() && (s.normal.norm() - 1.0).abs() < 1e-3,
                    "{s:?}"
                );
            }
        }
    }
    if let Ok(p) = ConcavePolygon::new(corners) {
        assert!(
            finite2 && corners.len() >= 3,
            "concave polygon of bad input accepted"
        );
        if moderate {
            let pieces: Real = p.pieces().iter().map(|q| q.area()).sum();
            let area = shoelace(corners).abs();
            assert!(
                (pieces - area).abs() <= 1e-3 * (1.0 + area) * (1.0 + scale),
                "ear clipping covers {pieces} of area {area}"
            );
            assert!(
                corners.iter().all(|c| p.contains_point(c)),
                "concave polygon misses a corner: {corners:?}"
            );
        }
    }
}

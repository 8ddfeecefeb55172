//! Planar tests (`tumble_narrowphase::planar`) against dense sampling of directions (10 000
//! projection axes), named worked cases, ear clipping against crossing-number oracles, and
//! bad input.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::f32::consts::PI;
use tumble_narrowphase::math::{Point2, Real, Vector2};
use tumble_narrowphase::planar::*;
use tumble_narrowphase::ShapeError;

const DIRECTIONS: usize = 10_000;
const TOL: Real = 5.0e-3;

fn rand_convex(rng: &mut ChaCha8Rng) -> Option<ConvexPolygon> {
    let n = rng.gen_range(3..10);
    let mut angles: Vec<Real> = (0..n).map(|_| rng.gen_range(0.0..2.0 * PI)).collect();
    angles.sort_by(|a, b| a.total_cmp(b));
    let (rx, ry) = (rng.gen_range(0.2..1.5), rng.gen_range(0.2..1.5));
    let rot = rng.gen_range(0.0..PI);
    let c = Vector2::new(rng.gen_range(-1.5..1.5), rng.gen_range(-1.5..1.5));
    let mut pts: Vec<Point2> = angles
        .iter()
        .map(|a| {
            let (x, y) = (rx * a.cos(), ry * a.sin());
            Point2::new(x * rot.cos() - y * rot.sin(), x * rot.sin() + y * rot.cos()) + c
        })
        .collect();
    if rng.gen_bool(0.5) {
        pts.reverse();
    }
    ConvexPolygon::new(&pts).ok()
}

/// Projection of a point set on an axis.
fn proj_points(pts: &[Point2], axis: &Vector2) -> (Real, Real) {
    pts.iter()
        .fold((Real::INFINITY, Real::NEG_INFINITY), |(lo, hi), p| {
            let d = p.coords.dot(axis);
            (lo.min(d), hi.max(d))
        })
}

/// Largest projection gap over sampled directions (the oracle of the signed separation).
fn sampled_separation(
    a: impl Fn(&Vector2) -> (Real, Real),
    b: impl Fn(&Vector2) -> (Real, Real),
) -> Real {
    (0..DIRECTIONS)
        .map(|k| {
            let th = 2.0 * PI * k as Real / DIRECTIONS as Real;
            let axis = Vector2::new(th.cos(), th.sin());
            let (amin, amax) = a(&axis);
            let (bmin, bmax) = b(&axis);
            (bmin - amax).max(amin - bmax)
        })
        .fold(Real::NEG_INFINITY, Real::max)
}

/// Checks a SAT result against the sampled oracle and against its own normal.
fn check(
    r: &SatResult,
    a: impl Fn(&Vector2) -> (Real, Real) + Copy,
    b: impl Fn(&Vector2) -> (Real, Real) + Copy,
) {
    assert!((r.normal.norm() - 1.0).abs() < 1e-5);
    let oracle = sampled_separation(a, b);
    // The gap on the reported normal, B ahead of A, is the reported separation.
    let (_, amax) = a(&r.normal);
    let (bmin, _) = b(&r.normal);
    assert!(
        (bmin - amax - r.separation).abs() < 1e-4,
        "normal does not point from A to B"
    );
    if r.separation <= 0.0 {
        // Overlap: no direction separates more than the minimal translation says, and the
        // best sampled direction is close to it.
        assert!(
            oracle <= r.separation + TOL,
            "sampled {oracle} > SAT {}",
            r.separation
        );
        assert!(
            oracle >= r.separation - TOL,
            "sampled {oracle} < SAT {}",
            r.separation
        );
    } else {
        assert!(
            oracle >= r.separation - TOL,
            "SAT gap {} not found by sampling {oracle}",
            r.separation
        );
    }
    // Separated by sampling iff separated by SAT (away from touching).
    if oracle > TOL {
        assert!(
            r.separation > 0.0,
            "sampling separates by {oracle}, SAT says {}",
            r.separation
        );
    }
    if r.separation > TOL {
        assert!(oracle > 0.0);
    }
}

#[test]
fn polygon_polygon_matches_sampling() {
    let mut rng = ChaCha8Rng::seed_from_u64(41);
    let (mut inter, mut apart) = (0, 0);
    for _ in 0..200 {
        let (Some(a), Some(b)) = (rand_convex(&mut rng), rand_convex(&mut rng)) else {
            continue;
        };
        let r = polygon_polygon(&a, &b);
        check(
            &r,
            |x| proj_points(a.corners(), x),
            |x| proj_points(b.corners(), x),
        );
        match r.axis {
            Axis::EdgeOfA(i) => assert!((a.normals()[i].dot(&r.normal).abs() - 1.0).abs() < 1e-5),
            Axis::EdgeOfB(i) => assert!((b.normals()[i].dot(&r.normal).abs() - 1.0).abs() < 1e-5),
            Axis::CornerOfA(_) => panic!("no corner axis between polygons"),
        }
        if r.intersects() {
            inter += 1;
            // The minimal translation separates.
            let shift = r.normal * (r.depth() + 1e-3);
            let moved: Vec<Point2> = b.corners().iter().map(|p| p + shift).collect();
            let moved = ConvexPolygon::new(&moved).unwrap();
            assert!(!polygon_polygon(&a, &moved).intersects());
        } else {
            apart += 1;
        }
    }
    assert!(inter > 30 && apart > 30, "{inter} {apart}");
}

#[test]
fn polygon_rect_segment_circle_match_sampling() {
    let mut rng = ChaCha8Rng::seed_from_u64(42);
    let mut counts = [0usize; 2];
    for _ in 0..150 {
        let Some(a) = rand_convex(&mut rng) else {
            continue;
        };
        let pa = |x: &Vector2| proj_points(a.corners(), x);
        let c = Point2::new(rng.gen_range(-2.0..2.0), rng.gen_range(-2.0..2.0));
        // Rectangle.
        let rect = Rect::new(
            c,
            Vector2::new(rng.gen_range(0.05..1.0), rng.gen_range(0.05..1.0)),
            rng.gen_range(-3.0..3.0),
        )
        .unwrap();
        let r = polygon_rect(&a, &rect);
        check(&r, pa, |x| proj_points(&rect.corners(), x));
        assert!(
            !matches!(r.axis, Axis::EdgeOfB(k) if k > 1),
            "a rectangle has two axes"
        );
        counts[r.intersects() as usize] += 1;
        // Segment.
        let e = Point2::new(rng.gen_range(-2.0..2.0), rng.gen_range(-2.0..2.0));
        let seg = Segment::new(c, e).unwrap();
        let r = polygon_segment(&a, &seg);
        check(&r, pa, |x| proj_points(&seg.ends(), x));
        counts[r.intersects() as usize] += 1;
        // Circle.
        let circle = Circle::new(c, rng.gen_range(0.05..1.0)).unwrap();
        let r = polygon_circle(&a, &circle);
        let cproj = |x: &Vector2| {
            let d = circle.center().coords.dot(x);
            (d - circle.radius(), d + circle.radius())
        };
        check(&r, pa, cproj);
        // For a circle the SAT gap is the exact distance: compare with a brute-force one.
        if !r.intersects() {
            let dist = (0..a.corners().len())
                .map(|i| {
                    let (p, q) = (a.corners()[i], a.corners()[(i + 1) % a.corners().len()]);
                    let t = ((c - p).dot(&(q - p)) / (q - p).norm_squared()).clamp(0.0, 1.0);
                    (c - (p + (q - p) * t)).norm()
                })
                .fold(Real::INFINITY, Real::min);
            assert!((dist - circle.radius() - r.separation).abs() < 1e-4);
        }
        counts[r.intersects() as usize] += 1;
        // Line.
        let line = Line::new(c, e - c).unwrap();
        let r = polygon_line(&a, &line);
        let (lo, hi) = pa(&line.normal());
        let crosses = lo <= line.offset() && line.offset() <= hi;
        assert_eq!(r.intersects(), crosses);
    }
    assert!(counts[0] > 50 && counts[1] > 50, "{counts:?}");
}

/// The L of three unit squares, corners counter-clockwise from the origin: (0, 0), (2, 0),
/// (2, 1), (1, 1), (1, 2), (0, 2); its notch corner is (1, 1).
fn l_shape() -> [Point2; 6] {
    let p = |x: Real, y: Real| Point2::new(x, y);
    [
        p(0.0, 0.0),
        p(2.0, 0.0),
        p(2.0, 1.0),
        p(1.0, 1.0),
        p(1.0, 2.0),
        p(0.0, 2.0),
    ]
}

fn unit_square_cw() -> ConvexPolygon {
    // Clockwise on purpose: the constructor normalises the winding.
    ConvexPolygon::new(&[
        Point2::new(0.0, 0.0),
        Point2::new(0.0, 1.0),
        Point2::new(1.0, 1.0),
        Point2::new(1.0, 0.0),
    ])
    .unwrap()
}

#[test]
fn unit_square_against_each_shape_worked_cases() {
    let a = unit_square_cw();
    assert!(a.area() > 0.0, "stored counter-clockwise");
    // Points on an edge and a corner are inside; just outside is not.
    assert!(a.contains_point(&Point2::new(1.0, 0.5)));
    assert!(a.contains_point(&Point2::new(1.0, 1.0)));
    assert!(!a.contains_point(&Point2::new(1.001, 0.5)));
    // Overlap by 0.25 along x: minimal translation +x by 0.25 through A's right edge.
    let b = ConvexPolygon::new(&[
        Point2::new(0.75, 0.0),
        Point2::new(1.75, 0.0),
        Point2::new(1.75, 1.0),
        Point2::new(0.75, 1.0),
    ])
    .unwrap();
    let r = polygon_polygon(&a, &b);
    assert!((r.depth() - 0.25).abs() < 1e-6);
    assert!((r.normal - Vector2::x()).norm() < 1e-6);
    let Axis::EdgeOfA(i) = r.axis else {
        panic!("{:?}", r.axis)
    };
    assert!((a.normals()[i] - Vector2::x()).norm() < 1e-6);
    // Circle centred on a corner touches; on the edge line at distance r touches (0 gap).
    let on_corner = polygon_circle(&a, &Circle::new(Point2::new(1.0, 1.0), 0.5).unwrap());
    assert!(on_corner.intersects());
    let touching = polygon_circle(&a, &Circle::new(Point2::new(1.5, 0.5), 0.5).unwrap());
    assert!(touching.intersects() && touching.separation.abs() < 1e-6);
    // Diagonal off a corner: the corner axis separates.
    let off = polygon_circle(&a, &Circle::new(Point2::new(1.5, 1.5), 0.5).unwrap());
    assert!(!off.intersects());
    assert!(matches!(off.axis, Axis::CornerOfA(_)));
    assert!((off.separation - (0.5_f32.sqrt() - 0.5)).abs() < 1e-5);
    // A rectangle turned 45° next to the square, touching its corner on x = 1.
    let d = 0.5 * 2.0_f32.sqrt();
    let rect = Rect::new(
        Point2::new(1.0 + d + 0.1, 0.5),
        Vector2::new(0.5, 0.5),
        PI / 4.0,
    )
    .unwrap();
    let r = polygon_rect(&a, &rect);
    assert!((r.separation - 0.1).abs() < 1e-5 && r.axis == Axis::EdgeOfA(i));
    // A segment through the square.
    let s = Segment::new(Point2::new(-1.0, 0.5), Point2::new(2.0, 0.6)).unwrap();
    assert!(polygon_segment(&a, &s).intersects());
    let s = Segment::new(Point2::new(-1.0, 1.5), Point2::new(2.0, 1.2)).unwrap();
    assert!(!polygon_segment(&a, &s).intersects());
    // A line along y = 1 touches the top edge.
    assert!(
        polygon_line(&a, &Line::new(Point2::new(5.0, 1.0), Vector2::x()).unwrap()).intersects()
    );
}

#[test]
fn bad_input_is_refused() {
    let p = |x: Real, y: Real| Point2::new(x, y);
    assert_eq!(
        ConvexPolygon::new(&[p(0.0, 0.0), p(1.0, 0.0)]),
        Err(ShapeError::TooFewPoints(2, 3))
    );
    assert!(matches!(
        ConvexPolygon::new(&[p(0.0, 0.0), p(1.0, 0.0), p(Real::NAN, 1.0)]),
        Err(ShapeError::NonFinite(_))
    ));
    assert!(matches!(
        ConvexPolygon::new(&[p(0.0, 0.0), p(1.0, 0.0), p(1.0, 0.0), p(0.0, 1.0)]),
        Err(ShapeError::Degenerate(_))
    ));
    assert!(matches!(
        ConvexPolygon::new(&[p(0.0, 0.0), p(1.0, 0.0), p(2.0, 0.0), p(0.0, 1.0)]),
        Err(ShapeError::Degenerate(_))
    ));
    assert!(matches!(
        ConvexPolygon::new(&[p(0.0, 0.0), p(1.0, 0.0), p(2.0, 0.0)]),
        Err(ShapeError::Degenerate(_))
    ));
    // An L shape is not convex.
    assert_eq!(ConvexPolygon::new(&l_shape()), Err(ShapeError::NotConvex));
    // A pentagram: every turn agrees, yet it is not convex.
    let star: Vec<Point2> = (0..5)
        .map(|k| {
            let a = 2.0 * PI * (2 * k) as Real / 5.0;
            p(a.cos(), a.sin())
        })
        .collect();
    assert_eq!(ConvexPolygon::new(&star), Err(ShapeError::NotConvex));
    assert_eq!(
        ConcavePolygon::new(&star),
        Err(ShapeError::SelfIntersecting)
    );
    // A bow tie.
    let bow = [p(0.0, 0.0), p(1.0, 1.0), p(1.0, 0.0), p(0.0, 1.0)];
    assert_eq!(ConcavePolygon::new(&bow), Err(ShapeError::SelfIntersecting));
    assert!(Circle::new(p(0.0, 0.0), 0.0).is_err());
    assert!(Rect::new(p(0.0, 0.0), Vector2::new(1.0, -1.0), 0.0).is_err());
    assert!(Segment::new(p(1.0, 1.0), p(1.0, 1.0)).is_err());
    assert!(Line::new(p(1.0, 1.0), Vector2::zeros()).is_err());
}

/// A random star-shaped (so simple) polygon around `c`.
fn rand_star(rng: &mut ChaCha8Rng) -> Vec<Point2> {
    let n = rng.gen_range(3..16);
    let mut angles: Vec<Real> = (0..n).map(|_| rng.gen_range(0.0..2.0 * PI)).collect();
    angles.sort_by(|a, b| a.total_cmp(b));
    let c = Vector2::new(rng.gen_range(-1.0..1.0), rng.gen_range(-1.0..1.0));
    let mut pts: Vec<Point2> = angles
        .iter()
        .map(|a| {
            let r = rng.gen_range(0.3..1.5);
            Point2::new(r * a.cos(), r * a.sin()) + c
        })
        .collect();
    if rng.gen_bool(0.5) {
        pts.reverse();
    }
    pts
}

/// Crossing-number point-in-polygon (boundary excluded), an oracle independent of the pieces.
fn crossing_inside(poly: &[Point2], p: &Point2) -> bool {
    let n = poly.len();
    let mut inside = false;
    for i in 0..n {
        let (a, b) = (poly[i], poly[(i + 1) % n]);
        if (a.y > p.y) != (b.y > p.y) {
            let x = a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x);
            if p.x < x {
                inside = !inside;
            }
        }
    }
    inside
}

fn seg_cross(p: &Point2, q: &Point2, r: &Point2, s: &Point2) -> bool {
    let o =
        |a: &Point2, b: &Point2, c: &Point2| (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
    o(p, q, r) * o(p, q, s) < 0.0 && o(r, s, p) * o(r, s, q) < 0.0
}

#[test]
fn concave_split_matches_oracles() {
    let mut rng = ChaCha8Rng::seed_from_u64(43);
    let mut built = 0;
    let (mut hit, mut miss) = (0, 0);
    for _ in 0..300 {
        let pts = rand_star(&mut rng);
        let Ok(poly) = ConcavePolygon::new(&pts) else {
            continue;
        };
        built += 1;
        assert_eq!(
            poly.pieces().len(),
            pts.len() - 2,
            "a triangulation has n − 2 triangles"
        );
        let area: Real = poly.pieces().iter().map(|t| t.area()).sum();
        let n = pts.len();
        let true_area = 0.5
            * (0..n)
                .map(|i| pts[i].x * pts[(i + 1) % n].y - pts[(i + 1) % n].x * pts[i].y)
                .sum::<Real>()
                .abs();
        assert!((area - true_area).abs() < 1e-4 * (1.0 + true_area));
        for _ in 0..50 {
            let q = Point2::new(rng.gen_range(-2.5..2.5), rng.gen_range(-2.5..2.5));
            let near_edge = (0..n).any(|i| {
                let (p, r) = (pts[i], pts[(i + 1) % n]);
                let t = ((q - p).dot(&(r - p)) / (r - p).norm_squared()).clamp(0.0, 1.0);
                (q - (p + (r - p) * t)).norm() < 1e-4
            });
            if !near_edge {
                assert_eq!(poly.contains_point(&q), crossing_inside(&pts, &q));
            }
        }
        // Against a convex polygon: they meet iff edges cross or a corner of one is inside
        // the other (oracle on the raw corner lists).
        if let Some(b) = rand_convex(&mut rng) {
            let (bc, m) = (b.corners(), b.corners().len());
            let oracle = (0..n).any(|i| {
                (0..m).any(|j| seg_cross(&pts[i], &pts[(i + 1) % n], &bc[j], &bc[(j + 1) % m]))
            }) || pts.iter().any(|p| b.contains_point(p))
                || bc.iter().any(|p| crossing_inside(&pts, p));
            assert_eq!(poly.intersects_polygon(&b), oracle);
            if oracle {
                hit += 1
            } else {
                miss += 1
            }
        }
    }
    assert!(built > 200 && hit > 30 && miss > 30, "{built} {hit} {miss}");
}

#[test]
fn l_shape_circle_in_the_notch_and_at_the_inner_corner() {
    // An L: a circle in the notch touches nothing, one at the inner corner touches.
    let p = |x: Real, y: Real| Point2::new(x, y);
    let l = ConcavePolygon::new(&l_shape()).unwrap();
    assert_eq!(l.pieces().len(), 4);
    assert!(!l.intersects_circle(&Circle::new(p(1.6, 1.6), 0.5).unwrap()));
    assert!(l.intersects_circle(&Circle::new(p(1.5, 1.5), 0.5 * 2.0_f32.sqrt()).unwrap()));
    assert!(!l.contains_point(&p(1.5, 1.5)));
    assert!(l.contains_point(&p(0.5, 1.5)));
}

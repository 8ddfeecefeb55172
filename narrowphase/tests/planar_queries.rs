//! The planar queries against brute force: `planar::distance`/`closest_points` against dense
//! samples of the shapes' boundaries (an upper bound) and separations along 720 axes and the
//! reported normal (a lower bound), with the reported points on the boundaries; the SAT tests
//! must agree on which pairs overlap and bound the distance from below; segment–segment
//! against sampled pairs; the 2D ray casts against fine marching along the ray. Hand-worked
//! cases and bad input close the file.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tumble_narrowphase::math::{Point2, Real, Vector2};
use tumble_narrowphase::planar::*;

const KINDS: [&str; 6] = ["point", "segment", "line", "circle", "polygon", "rect"];

/// An owned planar shape of each kind.
#[derive(Clone, Debug)]
enum Owned {
    Point(Point2),
    Segment(Segment),
    Line(Line),
    Circle(Circle),
    Polygon(ConvexPolygon),
    Rect(Rect),
}

impl Owned {
    fn view(&self) -> PlanarShape<'_> {
        match self {
            Owned::Point(p) => PlanarShape::from(*p),
            Owned::Segment(s) => s.into(),
            Owned::Line(l) => l.into(),
            Owned::Circle(c) => c.into(),
            Owned::Polygon(p) => p.into(),
            Owned::Rect(r) => r.into(),
        }
    }

    /// Points of the boundary (for a line, 2001 points 0.02 m apart around the foot of `near`).
    fn boundary(&self, near: &Point2) -> Vec<Point2> {
        let along = |a: Point2, b: Point2, n: usize| -> Vec<Point2> {
            (0..=n)
                .map(|i| a + (b - a) * (i as Real / n as Real))
                .collect()
        };
        let ring = |c: &[Point2]| -> Vec<Point2> {
            (0..c.len())
                .flat_map(|i| along(c[i], c[(i + 1) % c.len()], 150))
                .collect()
        };
        match self {
            Owned::Point(p) => vec![*p],
            Owned::Segment(s) => along(s.ends()[0], s.ends()[1], 800),
            Owned::Line(l) => {
                let n = l.normal();
                let d = Vector2::new(-n.y, n.x);
                let foot = near - n * (n.dot(&near.coords) - l.offset());
                along(foot - d * 20.0, foot + d * 20.0, 2000)
            }
            Owned::Circle(c) => (0..1500)
                .map(|i| {
                    let a = i as Real / 1500.0 * std::f32::consts::TAU;
                    c.center() + Vector2::new(a.cos(), a.sin()) * c.radius()
                })
                .collect(),
            Owned::Polygon(p) => ring(p.corners()),
            Owned::Rect(r) => ring(&r.corners()),
        }
    }

    /// The projection interval on unit `u` (infinite for a line not across `u`).
    fn project(&self, u: &Vector2) -> (Real, Real) {
        let of = |c: &[Point2], r: Real| {
            let (lo, hi) = c
                .iter()
                .map(|p| p.coords.dot(u))
                .fold((Real::INFINITY, Real::NEG_INFINITY), |(l, h), x| {
                    (l.min(x), h.max(x))
                });
            (lo - r, hi + r)
        };
        match self {
            Owned::Point(p) => of(&[*p], 0.0),
            Owned::Segment(s) => of(&s.ends(), 0.0),
            Owned::Circle(c) => of(&[c.center()], c.radius()),
            Owned::Polygon(p) => of(p.corners(), 0.0),
            Owned::Rect(r) => of(&r.corners(), 0.0),
            Owned::Line(l) => {
                // A point on the line's own normal (either way), the whole axis otherwise.
                let n = l.normal();
                if (u - n).norm() < 1e-7 || (u + n).norm() < 1e-7 {
                    let a = n.dot(u).signum();
                    (l.offset() * a, l.offset() * a)
                } else {
                    (Real::NEG_INFINITY, Real::INFINITY)
                }
            }
        }
    }

    /// How far `p` is from the boundary (for solids: the largest edge-plane offset, 0 exactly
    /// on the boundary).
    fn off_boundary(&self, p: &Point2) -> Real {
        let planes = |c: &[Point2]| {
            let n = c.len();
            (0..n)
                .map(|i| {
                    let e = c[(i + 1) % n] - c[i];
                    let out = Vector2::new(e.y, -e.x).normalize();
                    out.dot(&(p - c[i]))
                })
                .fold(Real::NEG_INFINITY, Real::max)
                .abs()
        };
        match self {
            Owned::Point(q) => (p - q).norm(),
            Owned::Segment(s) => seg_dist(p, &s.ends()[0], &s.ends()[1]),
            Owned::Line(l) => (l.normal().dot(&p.coords) - l.offset()).abs(),
            Owned::Circle(c) => ((p - c.center()).norm() - c.radius()).abs(),
            Owned::Polygon(q) => planes(q.corners()),
            Owned::Rect(r) => planes(&r.corners()),
        }
    }

    /// True when `p` is in the shape, within `tol`.
    fn holds(&self, p: &Point2, tol: Real) -> bool {
        let inside = |c: &[Point2]| {
            let n = c.len();
            (0..n).all(|i| {
                let e = c[(i + 1) % n] - c[i];
                Vector2::new(e.y, -e.x).normalize().dot(&(p - c[i])) <= tol
            })
        };
        match self {
            Owned::Circle(c) => (p - c.center()).norm() <= c.radius() + tol,
            Owned::Polygon(q) => inside(q.corners()),
            Owned::Rect(r) => inside(&r.corners()),
            other => other.off_boundary(p) <= tol,
        }
    }
}

fn seg_dist(p: &Point2, a: &Point2, b: &Point2) -> Real {
    let ab = b - a;
    let t = ((p - a).dot(&ab) / ab.norm_squared()).clamp(0.0, 1.0);
    (p - (a + ab * t)).norm()
}

fn point(r: &mut ChaCha8Rng, s: Real) -> Point2 {
    Point2::new(r.gen_range(-s..s), r.gen_range(-s..s))
}

/// A random shape of kind `k` (the order of `KINDS`), within about 3 m of the origin.
fn shape(r: &mut ChaCha8Rng, k: usize) -> Owned {
    loop {
        let c = point(r, 3.0);
        let s = match k {
            0 => return Owned::Point(c),
            1 => Segment::new(c, c + point(r, 1.5).coords).map(Owned::Segment),
            2 => Line::new(c, point(r, 1.0).coords).map(Owned::Line),
            3 => Circle::new(c, r.gen_range(0.1..1.0)).map(Owned::Circle),
            4 => {
                // Corners on an ellipse at sorted angles: convex.
                let n = r.gen_range(3..9);
                let mut angles: Vec<Real> = (0..n)
                    .map(|_| r.gen_range(0.0..std::f32::consts::TAU))
                    .collect();
                angles.sort_by(|a, b| a.total_cmp(b));
                let (ax, ay, turn) = (
                    r.gen_range(0.2..1.2),
                    r.gen_range(0.2..1.2),
                    r.gen_range(0.0..3.0f32),
                );
                let corners: Vec<Point2> = angles
                    .iter()
                    .map(|t| {
                        let (x, y) = (ax * t.cos(), ay * t.sin());
                        c + Vector2::new(
                            x * turn.cos() - y * turn.sin(),
                            x * turn.sin() + y * turn.cos(),
                        )
                    })
                    .collect();
                ConvexPolygon::new(&corners).map(Owned::Polygon)
            }
            _ => Rect::new(
                c,
                Vector2::new(r.gen_range(0.05..1.0), r.gen_range(0.05..1.0)),
                r.gen_range(-3.0..3.0),
            )
            .map(Owned::Rect),
        };
        if let Ok(s) = s {
            return s;
        }
    }
}

fn axes(n: usize) -> Vec<Vector2> {
    (0..n)
        .map(|i| {
            let a = i as Real / n as Real * std::f32::consts::TAU;
            Vector2::new(a.cos(), a.sin())
        })
        .collect()
}

fn separation(a: &Owned, b: &Owned, u: &Vector2) -> Real {
    let ((alo, ahi), (blo, bhi)) = (a.project(u), b.project(u));
    (blo - ahi).max(alo - bhi)
}

/// Checks `closest_points(a, b)` against the brute force (see [`distance_matches_brute_force`]);
/// true when the pair is apart.
fn check_pair(a: &Owned, b: &Owned, what: &str, dirs: &[Vector2]) -> bool {
    const TOL: Real = 2e-4;
    let p = closest_points(a.view(), b.view()).unwrap();
    assert_eq!(distance(a.view(), b.view()), Some(p.distance()));
    match p {
        PlanarProximity::Apart {
            distance,
            point_a,
            point_b,
            normal,
        } => {
            assert!(distance > 0.0, "{what}");
            assert!(
                ((point_b - point_a).norm() - distance).abs() < TOL,
                "{what}: {p:?}"
            );
            assert!(
                (point_b - point_a - normal * distance).norm() < TOL,
                "{what}: {p:?}"
            );
            assert!(a.off_boundary(&point_a) < TOL, "{what}: {p:?}");
            assert!(b.off_boundary(&point_b) < TOL, "{what}: {p:?}");
            let along = separation(a, b, &normal);
            assert!(
                along >= distance - TOL,
                "{what}: {p:?} gap along normal {along}"
            );
            let lower = dirs
                .iter()
                .map(|u| separation(a, b, u))
                .fold(Real::NEG_INFINITY, Real::max);
            assert!(distance >= lower - TOL, "{what}: {p:?} below {lower}");
            let (sa, sb) = (a.boundary(&point_b), b.boundary(&point_a));
            let sampled = sa
                .iter()
                .flat_map(|x| sb.iter().map(move |y| (x - y).norm()))
                .fold(Real::INFINITY, Real::min);
            assert!(distance <= sampled + TOL, "{what}: {p:?} sampled {sampled}");
            // The reversed pair.
            let back = closest_points(b.view(), a.view()).unwrap();
            assert!((back.distance() - distance).abs() < TOL, "{what}: {back:?}");
            true
        }
        PlanarProximity::Overlapping { point } => {
            assert!(
                a.holds(&point, 1e-3) && b.holds(&point, 1e-3),
                "{what}: {p:?}"
            );
            for u in dirs {
                assert!(
                    separation(a, b, u) <= TOL,
                    "{what}: {p:?} separated along {u}"
                );
            }
            assert_eq!(
                closest_points(b.view(), a.view()).unwrap().distance(),
                0.0,
                "{what}"
            );
            false
        }
    }
}

/// Apart pairs: the distance is pinned between the sampled boundary pairs (above) and the
/// separations along sampled axes and the reported normal (below); the points are on the
/// boundaries. Overlapping pairs: the common point is in both shapes and no axis separates.
#[test]
fn distance_matches_brute_force() {
    let mut r = ChaCha8Rng::seed_from_u64(51);
    let dirs = axes(720);
    let (mut apart, mut over) = ([[0usize; 6]; 6], [[0usize; 6]; 6]);
    for _ in 0..30 {
        for ka in 0..6 {
            for kb in 0..6 {
                let (a, b) = (shape(&mut r, ka), shape(&mut r, kb));
                let what = format!("{} vs {}: {a:?} {b:?}", KINDS[ka], KINDS[kb]);
                if check_pair(&a, &b, &what, &dirs) {
                    apart[ka][kb] += 1;
                } else {
                    over[ka][kb] += 1;
                }
            }
        }
    }
    for (ka, row) in apart.iter().enumerate() {
        for (kb, n) in row.iter().enumerate() {
            // Two random lines always cross.
            if (ka, kb) != (2, 2) {
                assert!(*n >= 3, "{} vs {}: {n} apart", KINDS[ka], KINDS[kb]);
            }
        }
    }
    assert!(over.iter().flatten().sum::<usize>() > 100);
}

impl Owned {
    /// The shape translated by `d`.
    fn translated(&self, d: Vector2) -> Owned {
        match self {
            Owned::Point(p) => Owned::Point(p + d),
            Owned::Segment(s) => {
                Owned::Segment(Segment::new(s.ends()[0] + d, s.ends()[1] + d).unwrap())
            }
            Owned::Line(l) => {
                let n = l.normal();
                let p = Point2::from(n * l.offset()) + d;
                Owned::Line(Line::new(p, Vector2::new(-n.y, n.x)).unwrap())
            }
            Owned::Circle(c) => Owned::Circle(Circle::new(c.center() + d, c.radius()).unwrap()),
            Owned::Polygon(p) => {
                let c: Vec<Point2> = p.corners().iter().map(|c| c + d).collect();
                Owned::Polygon(ConvexPolygon::new(&c).unwrap())
            }
            Owned::Rect(r) => {
                let u = r.axes()[0];
                Owned::Rect(Rect::new(r.center() + d, r.half_extents(), u.y.atan2(u.x)).unwrap())
            }
        }
    }
}

/// Nearly touching pairs: B moved toward A along the normal until the gap is `δ`, `δ` within
/// ±1 cm: apart by `δ` (the separation along the normal is then `δ`, and the closest pair is
/// `δ` apart) when `δ > 0`; every pair also passes the brute-force checks of
/// [`distance_matches_brute_force`], which decide the pairs pushed past touching.
#[test]
fn nearly_touching_pairs() {
    let mut r = ChaCha8Rng::seed_from_u64(55);
    let dirs = axes(720);
    let (mut apart, mut over) = (0, 0);
    for _ in 0..3000 {
        let (ka, kb) = (r.gen_range(0..6), r.gen_range(0..6));
        if ka == 2 && kb == 2 {
            continue;
        }
        let (a, b) = (shape(&mut r, ka), shape(&mut r, kb));
        let Some(PlanarProximity::Apart {
            distance: d,
            normal,
            ..
        }) = closest_points(a.view(), b.view())
        else {
            continue;
        };
        let delta = r.gen_range(1e-4..1e-2) * if r.gen_bool(0.5) { 1.0 } else { -1.0 };
        let near = b.translated(-normal * (d - delta));
        let what = format!("{} vs {} δ {delta}: {a:?} {near:?}", KINDS[ka], KINDS[kb]);
        let got = distance(a.view(), near.view()).unwrap();
        if delta > 0.0 {
            apart += 1;
            assert!((got - delta).abs() < 1e-4, "{what}: {got}");
        } else {
            // Pushed past: usually overlapping, but shapes meeting corner to corner (or
            // without an inside) may come apart again; the brute force decides.
            over += (got == 0.0) as usize;
        }
        check_pair(&a, &near, &what, &dirs);
    }
    assert!(apart > 800 && over > 800, "{apart} {over}");
}

/// The separating-axis tests agree with the distance on which pairs overlap (away from
/// touching), and their separation of an apart pair is at most the distance.
#[test]
fn sat_agrees_and_bounds_the_distance_from_below() {
    let mut r = ChaCha8Rng::seed_from_u64(52);
    let mut checked = 0;
    for _ in 0..3000 {
        let Owned::Polygon(a) = shape(&mut r, 4) else {
            unreachable!()
        };
        let kb = r.gen_range(1..6);
        let b = shape(&mut r, kb);
        let sat = match &b {
            Owned::Segment(s) => polygon_segment(&a, s),
            Owned::Line(l) => polygon_line(&a, l),
            Owned::Circle(c) => polygon_circle(&a, c),
            Owned::Polygon(p) => polygon_polygon(&a, p),
            Owned::Rect(q) => polygon_rect(&a, q),
            Owned::Point(_) => unreachable!(),
        };
        let d = distance(&a, b.view()).unwrap();
        if sat.separation.abs() < 1e-4 {
            continue;
        }
        checked += 1;
        assert_eq!(sat.intersects(), d == 0.0, "{} {sat:?} {d}", KINDS[kb]);
        if !sat.intersects() {
            assert!(sat.separation <= d + 1e-5, "{} {sat:?} {d}", KINDS[kb]);
        }
    }
    assert!(checked > 2500, "{checked}");
}

/// Segment–segment: the test agrees with the closest points, and the closest points' distance
/// is no more than any of 201 × 201 sampled pairs' and no less than the best by 1 mm
/// (the sampling's resolution).
#[test]
fn segment_pairs_match_sampling() {
    let mut r = ChaCha8Rng::seed_from_u64(53);
    let mut crossing = 0;
    for _ in 0..400 {
        let s = |r: &mut ChaCha8Rng| loop {
            if let Ok(s) = Segment::new(point(r, 1.0), point(r, 1.0)) {
                break s;
            }
        };
        let (a, b) = (s(&mut r), s(&mut r));
        let (p, q) = closest_points_segments(&a, &b);
        let d = (q - p).norm();
        let [a0, a1] = a.ends();
        let [b0, b1] = b.ends();
        assert!(seg_dist(&p, &a0, &a1) < 1e-5 && seg_dist(&q, &b0, &b1) < 1e-5);
        let mut best = Real::INFINITY;
        for i in 0..=200 {
            for j in 0..=200 {
                let x = a0 + (a1 - a0) * (i as Real / 200.0);
                let y = b0 + (b1 - b0) * (j as Real / 200.0);
                best = best.min((x - y).norm());
            }
        }
        assert!(d <= best + 1e-5, "{a:?} {b:?}: {d} vs {best}");
        // Within the sampling's resolution: half a step on each segment.
        let step = ((a1 - a0).norm() + (b1 - b0).norm()) / 400.0;
        assert!(d >= best - step - 1e-5, "{a:?} {b:?}: {d} vs {best}");
        assert_eq!(segments_intersect(&a, &b), d == 0.0, "{a:?} {b:?}: {d}");
        crossing += (d == 0.0) as usize;
    }
    assert!(crossing > 50, "{crossing}");
}

/// The ray casts against marching: 20 000 steps over `[0, max_t]`; the first step inside (or,
/// for a segment, across it) brackets the hit, whose normal faces the ray and is the
/// boundary's outward normal there.
#[test]
fn rays_match_marching() {
    const STEPS: usize = 20_000;
    let mut r = ChaCha8Rng::seed_from_u64(54);
    let mut hits = [0usize; 5];
    for i in 0..1500 {
        let kind = [1, 3, 4, 5, 2][i % 5];
        let s = shape(&mut r, kind);
        // Aimed near the shape, reaching 0.8 to 2 times as far as the aim point.
        let centre = match &s {
            Owned::Segment(x) => Point2::from((x.ends()[0].coords + x.ends()[1].coords) * 0.5),
            Owned::Circle(x) => x.center(),
            Owned::Polygon(x) => x.corners()[0],
            Owned::Rect(x) => x.center(),
            Owned::Line(x) => Point2::from(x.normal() * x.offset()),
            _ => unreachable!(),
        };
        let origin = point(&mut r, 6.0);
        let target = centre + point(&mut r, 1.0).coords;
        let k = r.gen_range(0.2..1.0);
        let ray = Ray2::new(origin, (target - origin) * k).unwrap();
        let max_t = r.gen_range(0.8..2.0) / k;
        let h = match &s {
            Owned::Segment(x) => ray_segment(&ray, x, max_t),
            Owned::Circle(x) => ray_circle(&ray, x, max_t),
            Owned::Polygon(x) => ray_polygon(&ray, x, max_t),
            Owned::Rect(x) => ray_rect(&ray, x, max_t),
            Owned::Line(x) => ray_line(&ray, x, max_t),
            _ => unreachable!(),
        };
        let dt = max_t / STEPS as Real;
        let reached = |t: Real| -> bool {
            let p = ray.point_at(t);
            match &s {
                Owned::Segment(x) => {
                    // Across the segment's line between t − dt and t, within its length.
                    let [a, b] = x.ends();
                    let side = |q: Point2| (b - a).perp(&(q - a));
                    let (s0, s1) = (side(ray.point_at((t - dt).max(0.0))), side(p));
                    (t == 0.0 && s1 == 0.0 || s0 * s1 <= 0.0 && t > 0.0)
                        && seg_dist(&p, &a, &b) <= dt * ray.dir().norm() + 1e-5
                }
                Owned::Line(x) => {
                    // Across the line between t − dt and t.
                    let side = |q: Point2| x.normal().dot(&q.coords) - x.offset();
                    let (s0, s1) = (side(ray.point_at((t - dt).max(0.0))), side(p));
                    t == 0.0 && s1 == 0.0 || s0 * s1 <= 0.0 && t > 0.0
                }
                other => other.holds(&p, 0.0),
            }
        };
        let first = (0..=STEPS).map(|k| k as Real * dt).find(|&t| reached(t));
        let what = format!("{} {ray:?} max_t {max_t}: {h:?} vs {first:?}", KINDS[kind]);
        match (first, h) {
            (Some(t1), Some(h)) => {
                hits[i % 5] += 1;
                assert!(h.t <= t1 + 1e-4 && h.t >= t1 - dt - 1e-4, "{what}");
                assert!((h.normal.norm() - 1.0).abs() < 1e-5, "{what}");
                assert!(h.normal.dot(&ray.dir()) <= 1e-6, "{what}");
                assert!((h.point - ray.point_at(h.t)).norm() < 1e-5, "{what}");
                if h.t > 0.0 {
                    assert!(s.off_boundary(&h.point) < 1e-3, "{what}");
                    if let Owned::Circle(c) = &s {
                        assert!(
                            (h.normal - (h.point - c.center()) / c.radius()).norm() < 1e-3,
                            "{what}"
                        );
                    }
                } else {
                    assert!((h.normal + ray.dir().normalize()).norm() < 1e-5, "{what}");
                }
            }
            (Some(_), None) => panic!("{what}: marched into it, no hit"),
            (None, Some(h)) => {
                // A graze between two steps: the hit is on the boundary, within a step.
                assert!(s.off_boundary(&h.point) < 1e-3, "{what}");
            }
            (None, None) => {}
        }
    }
    assert!(hits.iter().all(|&n| n > 60), "{hits:?}");
}

/// Hand-worked cases.
#[test]
fn worked_cases() {
    let sq = |x: Real, y: Real| {
        ConvexPolygon::new(&[
            Point2::new(x, y),
            Point2::new(x + 1.0, y),
            Point2::new(x + 1.0, y + 1.0),
            Point2::new(x, y + 1.0),
        ])
        .unwrap()
    };
    // Unit squares corner to corner, 1 apart on each axis: √2 between (1, 1) and (2, 2). The
    // SAT separation is only 1 (along an edge normal): the lower bound of the module docs.
    let (a, b) = (sq(0.0, 0.0), sq(2.0, 2.0));
    assert!((distance(&a, &b).unwrap() - 2f32.sqrt()).abs() < 1e-6);
    assert_eq!(polygon_polygon(&a, &b).separation, 1.0);
    // A point 3 above the line y = x + 1 along its normal, and that line against a parallel
    // one through the origin: 1/√2.
    let l = Line::new(Point2::new(0.0, 1.0), Vector2::new(1.0, 1.0)).unwrap();
    let m = Line::new(Point2::origin(), Vector2::new(-2.0, -2.0)).unwrap();
    let above = Point2::new(0.0, 1.0) + l.normal() * 3.0;
    assert!((distance(&l, above).unwrap() - 3.0).abs() < 1e-5);
    assert!((distance(&l, &m).unwrap() - 0.5f32.sqrt()).abs() < 1e-6);
    // A circle inside a rectangle overlaps it; one beyond its corner (the corner region of
    // RTCD §5.2.5's sphere–box test, in 2D) is the corner distance minus the radius: from
    // (2, 1) to (5, 5), 5 − 1.
    let rect = Rect::new(Point2::origin(), Vector2::new(2.0, 1.0), 0.0).unwrap();
    let inner = Circle::new(Point2::new(0.5, 0.0), 0.2).unwrap();
    assert_eq!(distance(&rect, &inner), Some(0.0));
    let outer = Circle::new(Point2::new(5.0, 5.0), 1.0).unwrap();
    assert!((distance(&rect, &outer).unwrap() - 4.0).abs() < 1e-6);
    // Segments: a T touching, and parallel ones 0.5 apart.
    let s = |x0, y0, x1, y1| Segment::new(Point2::new(x0, y0), Point2::new(x1, y1)).unwrap();
    assert!(segments_intersect(
        &s(0.0, 0.0, 2.0, 0.0),
        &s(1.0, 0.0, 1.0, 1.0)
    ));
    assert_eq!(
        distance(&s(0.0, 0.0, 2.0, 0.0), &s(1.0, 0.5, 3.0, 0.5)),
        Some(0.5)
    );
    // A ray from inside a circle: t = 0 against the ray; a ray along a segment: its near end.
    let c = Circle::new(Point2::origin(), 1.0).unwrap();
    let ray = Ray2::new(Point2::new(0.2, 0.0), Vector2::new(0.0, 3.0)).unwrap();
    let h = ray_circle(&ray, &c, 1.0).unwrap();
    assert_eq!((h.t, h.normal), (0.0, -Vector2::y()));
    let along = Ray2::new(Point2::new(-2.0, 0.0), Vector2::new(1.0, 0.0)).unwrap();
    let h = ray_segment(&along, &s(0.0, 0.0, 2.0, 0.0), 10.0).unwrap();
    assert_eq!((h.t, h.normal), (2.0, -Vector2::x()));
    let h = ray_segment(
        &Ray2::new(Point2::new(1.0, -1.0), Vector2::new(0.0, 2.0)).unwrap(),
        &s(0.0, 0.0, 2.0, 0.0),
        10.0,
    )
    .unwrap();
    assert_eq!((h.t, h.normal), (0.5, -Vector2::y()));
    // A ray up from (0, −2) against the line y = 1: 3 along, facing down; one along the line
    // from a point of it: t = 0 against the ray; one parallel to it below: no hit.
    let y1 = Line::new(Point2::new(0.0, 1.0), Vector2::x()).unwrap();
    let up = Ray2::new(Point2::new(0.0, -2.0), Vector2::y()).unwrap();
    let h = ray_line(&up, &y1, 10.0).unwrap();
    assert_eq!((h.t, h.normal), (3.0, -Vector2::y()));
    let on = Ray2::new(Point2::new(4.0, 1.0), -Vector2::x()).unwrap();
    assert_eq!(ray_line(&on, &y1, 1.0).unwrap().normal, Vector2::x());
    let below = Ray2::new(Point2::new(0.0, -2.0), Vector2::x()).unwrap();
    assert_eq!(ray_line(&below, &y1, 100.0), None);
}

/// Bad input: `None` or a typed error, never a panic.
#[test]
fn bad_input() {
    let c = Circle::new(Point2::origin(), 1.0).unwrap();
    let nan = Point2::new(Real::NAN, 0.0);
    assert_eq!(distance(nan, &c), None);
    assert_eq!(closest_points(&c, Point2::new(0.0, Real::INFINITY)), None);
    assert!(Ray2::new(nan, Vector2::x()).is_err());
    assert!(Ray2::new(Point2::origin(), Vector2::zeros()).is_err());
    assert!(Ray2::new(Point2::origin(), Vector2::new(Real::INFINITY, 0.0)).is_err());
    let ray = Ray2::new(Point2::new(-5.0, 0.0), Vector2::x()).unwrap();
    assert_eq!(ray_circle(&ray, &c, Real::NAN), None);
    assert_eq!(ray_circle(&ray, &c, -1.0), None);
    let rect = Rect::new(Point2::origin(), Vector2::new(1.0, 1.0), 0.0).unwrap();
    assert_eq!(ray_rect(&ray, &rect, Real::NAN), None);
    // Far-out points whose differences overflow: no infinite distance escapes.
    let far = Point2::new(3e38, 3e38);
    let other = Point2::new(-3e38, -3e38);
    assert!(distance(far, other).is_none_or(|d| d.is_finite()));
}

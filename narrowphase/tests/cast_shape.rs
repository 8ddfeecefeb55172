//! `sweep::cast_shape` against fine time stepping: the first of 2000 sampled times at which
//! `query::intersection_test` (or, with a skin, `query::distance ≤ skin`) holds bounds the time
//! of impact from above, and at the reported time the shapes must touch (pushed together by
//! twice the tolerance along the normal, they overlap). The closed forms (a ball against a
//! ball, box, capsule or triangle) are compared with conservative advancement on the same
//! pairs (the box and the triangle as hulls), plus hand-worked cases and bad input.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tumble_narrowphase::math::{Isometry, Point, Real, Rotation, Translation, Vector};
use tumble_narrowphase::query::{self, QueryError};
use tumble_narrowphase::shape::{Ball, ConvexPolyhedron, Cuboid, Shape, Triangle};
use tumble_narrowphase::sweep::{cast_shape, CastHit, CastOptions, CastStatus};

mod query_oracle;
use query_oracle::{moved, shape};

const KINDS: [&str; 5] = ["ball", "cuboid", "capsule", "triangle", "hull"];
const STEPS: usize = 2000;

fn random_pose(r: &mut ChaCha8Rng, c: Vector, s: Real) -> Isometry {
    let v = c + Vector::new(r.gen_range(-s..s), r.gen_range(-s..s), r.gen_range(-s..s));
    let q = nalgebra::Quaternion::new(
        r.gen_range(-1.0..1.0),
        r.gen_range(-1.0..1.0),
        r.gen_range(-1.0..1.0),
        r.gen_range(-1.0..1.0),
    );
    Isometry::from_parts(Translation::from(v), Rotation::from_quaternion(q))
}

/// A pair heading roughly at each other: A near the origin, B about 4 m away, B's velocity
/// relative to A's aimed at A's centre within a random miss of up to 1.5 m.
struct Case {
    sa: Shape,
    sb: Shape,
    pa: Isometry,
    pb: Isometry,
    va: Vector,
    vb: Vector,
}

fn case(r: &mut ChaCha8Rng, ka: usize, kb: usize) -> Case {
    let (sa, sb) = (shape(r, ka), shape(r, kb));
    let pa = random_pose(r, Vector::zeros(), 0.3);
    let dir = query_oracle::sphere_directions(64)[r.gen_range(0..64)];
    let pb = random_pose(r, dir * 4.0, 0.3);
    let va = Vector::new(
        r.gen_range(-1.0..1.0),
        r.gen_range(-1.0..1.0),
        r.gen_range(-1.0..1.0),
    );
    let miss = Vector::new(
        r.gen_range(-1.5..1.5),
        r.gen_range(-1.5..1.5),
        r.gen_range(-1.5..1.5),
    );
    let aim = pa.translation.vector + miss - pb.translation.vector;
    let vb = va + aim * r.gen_range(0.8..1.6);
    Case {
        sa,
        sb,
        pa,
        pb,
        va,
        vb,
    }
}

impl Case {
    fn at(&self, t: Real) -> (Isometry, Isometry) {
        (moved(&self.pa, self.va * t), moved(&self.pb, self.vb * t))
    }

    /// The first sampled time in `(0, t_max]` at which `close` holds.
    fn first_sampled(
        &self,
        t_max: Real,
        close: impl Fn(&Isometry, &Isometry) -> bool,
    ) -> Option<Real> {
        (1..=STEPS)
            .map(|k| t_max * k as Real / STEPS as Real)
            .find(|&t| {
                let (pa, pb) = self.at(t);
                close(&pa, &pb)
            })
    }

    /// At the hit's time, B pushed toward A by `push` along the normal overlaps A.
    fn touches(&self, h: &CastHit, push: Real) -> bool {
        let (pa, pb) = self.at(h.toi);
        query::intersection_test(&pa, &self.sa, &moved(&pb, -h.normal * push), &self.sb).unwrap()
    }

    fn cast(&self, o: &CastOptions) -> Option<CastHit> {
        cast_shape(
            &self.pa, &self.va, &self.sa, &self.pb, &self.vb, &self.sb, o,
        )
        .unwrap()
    }
}

/// Every kind against every kind, touching (skin 0): the hit is no later than the first
/// sampled overlap, the shapes touch at it, and no hit is reported when no sampled time
/// overlaps unless the shapes touch at it (a graze between two samples).
#[test]
fn toi_brackets_first_sampled_overlap() {
    let mut r = ChaCha8Rng::seed_from_u64(41);
    let o = CastOptions::default();
    let mut hits = [[0usize; 5]; 5];
    let mut misses = 0;
    for _ in 0..10 {
        for ka in 0..5 {
            for kb in 0..5 {
                let c = case(&mut r, ka, kb);
                if query::intersection_test(&c.pa, &c.sa, &c.pb, &c.sb).unwrap() {
                    continue;
                }
                let what = format!("{} vs {}", KINDS[ka], KINDS[kb]);
                let first = c.first_sampled(o.t_max, |pa, pb| {
                    query::intersection_test(pa, &c.sa, pb, &c.sb).unwrap()
                });
                let hit = c.cast(&o);
                match (first, hit) {
                    (Some(t1), Some(h)) => {
                        hits[ka][kb] += 1;
                        assert_eq!(h.status, CastStatus::Converged, "{what}: {h:?}");
                        assert!(
                            h.toi <= t1 + 1e-5,
                            "{what}: {h:?} after the sampled overlap {t1}"
                        );
                        assert!(
                            c.touches(&h, 2.0 * o.tolerance),
                            "{what}: not touching at {h:?}"
                        );
                        assert!((h.normal.norm() - 1.0).abs() < 1e-4, "{what}: {h:?}");
                        assert!(
                            (h.witness_b - h.witness_a).norm() < 2.0 * o.tolerance,
                            "{what}: {h:?}"
                        );
                        // The normal closes the shapes (B comes toward A along it).
                        assert!((c.vb - c.va).dot(&h.normal) < 0.0, "{what}: {h:?}");
                    }
                    (Some(t1), None) => panic!("{what}: overlap sampled at {t1} but no hit"),
                    (None, Some(h)) => {
                        assert!(c.touches(&h, 2.0 * o.tolerance), "{what}: phantom {h:?}");
                    }
                    (None, None) => misses += 1,
                }
            }
        }
    }
    for (ka, row) in hits.iter().enumerate() {
        for (kb, n) in row.iter().enumerate() {
            assert!(*n >= 2, "{} vs {}: only {n} hits", KINDS[ka], KINDS[kb]);
        }
    }
    assert!(misses >= 5, "the cases always hit: {misses} misses");
}

/// With a skin: the hit is no later than the first sampled time the distance is at most the
/// skin, and the distance at the hit is the skin within the tolerance.
#[test]
fn skin_stops_at_the_target_distance() {
    let mut r = ChaCha8Rng::seed_from_u64(42);
    let mut hits = 0;
    for _ in 0..6 {
        for (ka, name_a) in KINDS.iter().enumerate() {
            for (kb, name_b) in KINDS.iter().enumerate() {
                let c = case(&mut r, ka, kb);
                let o = CastOptions {
                    skin: r.gen_range(0.01..0.3),
                    ..CastOptions::default()
                };
                if query::distance(&c.pa, &c.sa, &c.pb, &c.sb).unwrap() <= o.skin {
                    continue;
                }
                let what = format!("{} vs {} skin {}", name_a, name_b, o.skin);
                let first = c.first_sampled(o.t_max, |pa, pb| {
                    query::distance(pa, &c.sa, pb, &c.sb).unwrap() <= o.skin
                });
                match (first, c.cast(&o)) {
                    (Some(t1), Some(h)) => {
                        hits += 1;
                        assert!(h.toi <= t1 + 1e-5, "{what}: {h:?} after {t1}");
                        let (pa, pb) = c.at(h.toi);
                        let d = query::distance(&pa, &c.sa, &pb, &c.sb).unwrap();
                        assert!(
                            (d - o.skin).abs() <= o.tolerance * 1.5,
                            "{what}: {d} at {h:?}"
                        );
                        let gap = (h.witness_b - h.witness_a).norm();
                        assert!((gap - o.skin).abs() <= o.tolerance * 1.5, "{what}: {h:?}");
                    }
                    (Some(t1), None) => panic!("{what}: within the skin at {t1} but no hit"),
                    (None, Some(h)) => {
                        let (pa, pb) = c.at(h.toi);
                        let d = query::distance(&pa, &c.sa, &pb, &c.sb).unwrap();
                        assert!(
                            (d - o.skin).abs() <= o.tolerance * 1.5,
                            "{what}: {d} at {h:?}"
                        );
                    }
                    (None, None) => {}
                }
            }
        }
    }
    assert!(hits >= 60, "{hits}");
}

/// The closed forms against conservative advancement on the same geometry: a ball against a
/// box and against a triangle, then against the same box and triangle as hulls. The two times
/// differ by at most the time the closing speed takes to cover twice the tolerance.
#[test]
fn closed_forms_match_conservative_advancement() {
    let mut r = ChaCha8Rng::seed_from_u64(43);
    let o = CastOptions::default();
    let mut compared = 0;
    for i in 0..400 {
        let kb = if i % 2 == 0 { 1 } else { 3 };
        let c = case(&mut r, 0, kb);
        let hull = match &c.sb {
            Shape::Cuboid(b) => ConvexPolyhedron::from_cuboid(b),
            Shape::Triangle(t) => ConvexPolyhedron::from_triangle(t),
            _ => unreachable!(),
        };
        for ball_first in [true, false] {
            let (exact, advanced) = if ball_first {
                (
                    c.cast(&o),
                    cast_shape(&c.pa, &c.va, &c.sa, &c.pb, &c.vb, &hull, &o).unwrap(),
                )
            } else {
                (
                    cast_shape(&c.pb, &c.vb, &c.sb, &c.pa, &c.va, &c.sa, &o).unwrap(),
                    cast_shape(&c.pb, &c.vb, &hull, &c.pa, &c.va, &c.sa, &o).unwrap(),
                )
            };
            match (exact, advanced) {
                (Some(x), Some(y)) => {
                    compared += 1;
                    let closing = (c.vb - c.va).dot(&x.normal).abs();
                    assert!(
                        (x.toi - y.toi).abs() * closing <= 2.0 * o.tolerance + 1e-5,
                        "{x:?} vs {y:?}"
                    );
                }
                (None, None) => {}
                (x, y) => {
                    // A graze: one side's hit must touch.
                    let h = x.or(y).unwrap();
                    let (pa, pb) = c.at(h.toi);
                    let d = query::distance(&pa, &c.sa, &pb, &c.sb).unwrap();
                    assert!(d <= 2.0 * o.tolerance, "{x:?} vs {y:?}: distance {d}");
                }
            }
        }
    }
    assert!(compared > 300, "{compared}");
}

/// Grazing passes (B's path tangent to A at a clearance within ±2 mm of touching, for the
/// pairs cast by conservative advancement): each cast returns within its iteration bound, and
/// a converged hit touches while a reported miss never overlapped at a sampled time.
#[test]
fn grazing_passes_stay_conservative() {
    let mut r = ChaCha8Rng::seed_from_u64(44);
    let o = CastOptions::default();
    let (mut hit, mut missed) = (0, 0);
    for _ in 0..300 {
        let (ka, kb) = (r.gen_range(1..5), r.gen_range(1..5));
        let (sa, sb) = (shape(&mut r, ka), shape(&mut r, kb));
        let pa = random_pose(&mut r, Vector::zeros(), 1e-3);
        let side = query_oracle::sphere_directions(64)[r.gen_range(0..64)];
        let pb = random_pose(&mut r, side * 4.0, 1e-3);
        // B brought toward A along `side` until they touch (conservative steps of the
        // distance), then moved off by up to ±2 mm: the point P its path passes through.
        let mut p = pb;
        for _ in 0..100 {
            let g = query::distance(&pa, &sa, &p, &sb).unwrap();
            if g < 1e-6 {
                break;
            }
            p = moved(&p, -side * g);
        }
        // Tangent to the contact there: offset along its normal, the path across it.
        let n = query::closest_points(&pa, &sa, &p, &sb).unwrap().normal;
        let p = moved(&p, n * r.gen_range(-2e-3..2e-3));
        // The path: across the normal, through P at t = 0.5.
        let across = n.cross(&query_oracle::sphere_directions(64)[r.gen_range(0..64)]);
        let Some(across) = across.try_normalize(1e-3) else {
            continue;
        };
        let start = moved(&p, -across * 3.0);
        let c = Case {
            sa,
            sb,
            pa,
            pb: start,
            va: Vector::zeros(),
            vb: across * 6.0,
        };
        if query::intersection_test(&c.pa, &c.sa, &c.pb, &c.sb).unwrap() {
            continue;
        }
        let first = c.first_sampled(o.t_max, |pa, pb| {
            query::intersection_test(pa, &c.sa, pb, &c.sb).unwrap()
        });
        match c.cast(&o) {
            Some(h) if h.status == CastStatus::Converged => {
                hit += 1;
                assert!(c.touches(&h, 2.0 * o.tolerance), "{h:?}");
                assert!(first.is_none_or(|t1| h.toi <= t1 + 1e-5), "{h:?} {first:?}");
            }
            Some(h) => {
                // Out of iterations: a time before any sampled overlap.
                assert_eq!(h.status, CastStatus::OutOfIterations);
                assert!(first.is_none_or(|t1| h.toi <= t1 + 1e-5), "{h:?} {first:?}");
            }
            None => {
                missed += 1;
                assert_eq!(first, None, "missed a sampled overlap");
            }
        }
    }
    assert!(hit > 20 && missed > 20, "{hit} hits, {missed} misses");
}

/// Hand-worked cases.
#[test]
fn worked_cases() {
    let id = Isometry::identity();
    let still = Vector::zeros();
    // A unit cube at 4 m/s toward a wall whose face is at x = 2.5: the cube's face at 0.5
    // covers 2 m in 0.5 s. With a 5 cm skin, 1.95 m: 0.4875 s.
    let cube = Cuboid::new(Vector::repeat(0.5)).unwrap();
    let wall = Cuboid::new(Vector::new(0.5, 5.0, 5.0)).unwrap();
    let at_wall = Isometry::translation(3.0, 0.0, 0.0);
    let v = Vector::new(4.0, 0.0, 0.0);
    let h = cast_shape(
        &id,
        &v,
        &cube,
        &at_wall,
        &still,
        &wall,
        &CastOptions::default(),
    )
    .unwrap()
    .unwrap();
    assert!(
        (h.toi - 0.5).abs() < 1e-4 && (h.normal - Vector::x()).norm() < 1e-4,
        "{h:?}"
    );
    assert!(
        (h.witness_a.x - 2.5).abs() < 1e-4 && (h.witness_b.x - 2.5).abs() < 1e-4,
        "{h:?}"
    );
    let skin = CastOptions {
        skin: 0.05,
        ..CastOptions::default()
    };
    let h = cast_shape(&id, &v, &cube, &at_wall, &still, &wall, &skin)
        .unwrap()
        .unwrap();
    assert!((h.toi - 0.4875).abs() < 1e-4, "{h:?}");
    // Not within t_max = 0.4 s.
    let short = CastOptions::with_t_max(0.4);
    assert_eq!(
        cast_shape(&id, &v, &cube, &at_wall, &still, &wall, &short).unwrap(),
        None
    );
    // The wall moving toward the cube at 1 m/s as well: 2 m at 5 m/s, 0.4 s.
    let h = cast_shape(
        &id,
        &v,
        &cube,
        &at_wall,
        &-Vector::x(),
        &wall,
        &CastOptions::default(),
    )
    .unwrap()
    .unwrap();
    assert!((h.toi - 0.4).abs() < 1e-4, "{h:?}");

    // Two spheres as in RTCD §5.5.5 (one moving, one still), worked by hand: radius 1 at the
    // origin moving by (10, 0, 0) over the step, radius 1 at (5, 1, 0): the centres are 2
    // apart when x = 5 − √3, at t = 0.3268, along (√3, 1, 0)/2.
    let one = Ball::new(1.0).unwrap();
    let h = cast_shape(
        &id,
        &Vector::new(10.0, 0.0, 0.0),
        &one,
        &Isometry::translation(5.0, 1.0, 0.0),
        &still,
        &one,
        &CastOptions::default(),
    )
    .unwrap()
    .unwrap();
    let want = (5.0 - 3f32.sqrt()) / 10.0;
    assert!((h.toi - want).abs() < 1e-5, "{h:?} vs {want}");
    let n = Vector::new(3f32.sqrt(), 1.0, 0.0) / 2.0;
    assert!((h.normal - n).norm() < 1e-4, "{h:?}");

    // A ball dropped on a triangle floor from 2 m at 10 m/s: its bottom reaches the floor
    // after 1.5 m, 0.15 s; a ball moving along the floor never hits it.
    let floor = Triangle::new(
        Point::new(-5.0, 0.0, -5.0),
        Point::new(5.0, 0.0, -5.0),
        Point::new(0.0, 0.0, 5.0),
    )
    .unwrap();
    let half = Ball::new(0.5).unwrap();
    let up = Isometry::translation(0.0, 2.0, 0.0);
    let h = cast_shape(
        &up,
        &Vector::new(0.0, -10.0, 0.0),
        &half,
        &id,
        &still,
        &floor,
        &CastOptions::default(),
    )
    .unwrap()
    .unwrap();
    assert!(
        (h.toi - 0.15).abs() < 1e-5 && (h.normal + Vector::y()).norm() < 1e-5,
        "{h:?}"
    );
    let along = cast_shape(
        &up,
        &Vector::new(10.0, 0.0, 0.0),
        &half,
        &id,
        &still,
        &floor,
        &CastOptions::default(),
    );
    assert_eq!(along.unwrap(), None);
}

/// Shapes that start within the skin: a hit at 0 with `stop_at_penetration`; without it, a
/// hit only when the motion closes them.
#[test]
fn starting_within_the_skin() {
    let id = Isometry::identity();
    let cube = Cuboid::new(Vector::repeat(0.5)).unwrap();
    let over = Isometry::translation(0.9, 0.0, 0.0);
    let (away, toward) = (Vector::new(1.0, 0.0, 0.0), Vector::new(-1.0, 0.0, 0.0));
    let stop = CastOptions::default();
    let pass = CastOptions {
        stop_at_penetration: false,
        ..CastOptions::default()
    };
    for v in [away, toward] {
        let h = cast_shape(&id, &Vector::zeros(), &cube, &over, &v, &cube, &stop)
            .unwrap()
            .unwrap();
        assert_eq!((h.toi, h.status), (0.0, CastStatus::StartedWithin), "{h:?}");
        assert!((h.normal - Vector::x()).norm() < 1e-5);
    }
    assert_eq!(
        cast_shape(&id, &Vector::zeros(), &cube, &over, &away, &cube, &pass).unwrap(),
        None
    );
    let h = cast_shape(&id, &Vector::zeros(), &cube, &over, &toward, &cube, &pass)
        .unwrap()
        .unwrap();
    assert_eq!(h.status, CastStatus::StartedWithin);
    // Apart by 0.1 but within a skin of 0.2.
    let near = Isometry::translation(1.1, 0.0, 0.0);
    let skin = CastOptions {
        skin: 0.2,
        stop_at_penetration: false,
        ..CastOptions::default()
    };
    assert_eq!(
        cast_shape(&id, &Vector::zeros(), &cube, &near, &away, &cube, &skin).unwrap(),
        None
    );
    let h = cast_shape(&id, &Vector::zeros(), &cube, &near, &toward, &cube, &skin)
        .unwrap()
        .unwrap();
    assert_eq!((h.toi, h.status), (0.0, CastStatus::StartedWithin));
}

/// Bad input gives a typed error; degenerate motion gives no hit; nothing panics or hangs.
#[test]
fn bad_input_and_degenerate_motion() {
    let id = Isometry::identity();
    let ball = Ball::new(0.5).unwrap();
    let cube = Cuboid::new(Vector::repeat(0.5)).unwrap();
    let far = Isometry::translation(3.0, 0.0, 0.0);
    let v = Vector::new(1.0, 0.0, 0.0);
    let nan = Vector::new(Real::NAN, 0.0, 0.0);
    let o = CastOptions::default();
    let e = cast_shape(&id, &nan, &cube, &far, &v, &ball, &o);
    assert!(matches!(e, Err(QueryError::NonFinite(_))), "{e:?}");
    let e = cast_shape(
        &id,
        &v,
        &cube,
        &far,
        &Vector::repeat(Real::INFINITY),
        &ball,
        &o,
    );
    assert!(matches!(e, Err(QueryError::NonFinite(_))), "{e:?}");
    let e = cast_shape(
        &Isometry::translation(Real::NAN, 0.0, 0.0),
        &v,
        &cube,
        &far,
        &v,
        &ball,
        &o,
    );
    assert!(matches!(e, Err(QueryError::NonFinite(_))), "{e:?}");
    for bad in [
        CastOptions::with_t_max(Real::NAN),
        CastOptions::with_t_max(-1.0),
        CastOptions::with_t_max(Real::INFINITY),
        CastOptions { skin: -0.1, ..o },
        CastOptions {
            skin: Real::NAN,
            ..o
        },
        CastOptions {
            tolerance: 0.0,
            ..o
        },
    ] {
        let e = cast_shape(&id, &v, &cube, &far, &Vector::zeros(), &ball, &bad);
        assert!(
            matches!(e, Err(QueryError::InvalidOption(_))),
            "{bad:?}: {e:?}"
        );
    }
    // Opposite velocities that overflow their difference.
    let big = Vector::new(Real::MAX, 0.0, 0.0);
    let e = cast_shape(&id, &-big, &cube, &far, &big, &cube, &o);
    assert!(matches!(e, Err(QueryError::NonFinite(_))), "{e:?}");
    // No relative motion, t_max = 0, a huge horizon with a crawl: no hit, promptly.
    assert_eq!(
        cast_shape(&id, &v, &cube, &far, &v, &cube, &o).unwrap(),
        None
    );
    assert_eq!(
        cast_shape(
            &id,
            &v,
            &cube,
            &far,
            &Vector::zeros(),
            &cube,
            &CastOptions::with_t_max(0.0)
        )
        .unwrap(),
        None
    );
    let crawl = Vector::new(1e-30, 0.0, 0.0);
    let h = cast_shape(
        &id,
        &crawl,
        &cube,
        &far,
        &Vector::zeros(),
        &cube,
        &CastOptions::with_t_max(1e35),
    )
    .unwrap()
    .unwrap();
    assert!((h.toi - 2e30).abs() < 1e26, "{h:?}");
}

//! `query::distance`, `query::signed_distance` and `query::closest_points` on every pair of
//! shape kinds, in both orders, against brute-force oracles (`query_oracle`): sampled point
//! pairs bound the distance from above, separations along sampled axes (and along the reported
//! normal) from below, the reported points must lie on the surfaces, and for overlapping pairs
//! the depth must be at most the projections' overlap on every sampled axis while moving B by
//! it along the normal separates the pair (`intersection_test`). The closed forms are also
//! compared with GJK on the same pairs, and a few hand-worked cases are kept.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tumble_narrowphase::gjk::{self, GjkResult, Segment, SinglePoint};
use tumble_narrowphase::math::{Isometry, Point, Real, Rotation, Translation, Vector};
use tumble_narrowphase::query::{self, QueryError};
use tumble_narrowphase::shape::{Ball, Capsule, Cuboid, Shape, Triangle};

mod query_oracle;
use query_oracle::*;

const KINDS: [&str; 5] = ["ball", "cuboid", "capsule", "triangle", "hull"];

fn random_pose(r: &mut ChaCha8Rng, s: Real) -> Isometry {
    let v = Vector::new(r.gen_range(-s..s), r.gen_range(-s..s), r.gen_range(-s..s));
    let q = nalgebra::Quaternion::new(
        r.gen_range(-1.0..1.0),
        r.gen_range(-1.0..1.0),
        r.gen_range(-1.0..1.0),
        r.gen_range(-1.0..1.0),
    );
    Isometry::from_parts(Translation::from(v), Rotation::from_quaternion(q))
}

/// Apart pairs: the reported distance is within `TOL` of the truth, pinned from above by the
/// sampled pairs and the reported points (on the surfaces, `|pb − pa|` = distance) and from
/// below by the separation along the reported normal.
#[test]
fn apart_pairs_match_brute_force() {
    const TOL: Real = 2e-4;
    let mut r = ChaCha8Rng::seed_from_u64(31);
    let dirs = sphere_directions(1500);
    let round_dirs = sphere_directions(60);
    let mut checked = [[0usize; 5]; 5];
    for _ in 0..12 {
        for ka in 0..5 {
            for kb in 0..5 {
                let (sa, sb) = (shape(&mut r, ka), shape(&mut r, kb));
                let (pa, pb) = (random_pose(&mut r, 1.0), random_pose(&mut r, 2.5));
                let c = query::closest_points(&pa, &sa, &pb, &sb).unwrap();
                if c.distance <= 1e-3 {
                    continue;
                }
                checked[ka][kb] += 1;
                let what = format!("{} vs {}: {c:?}", KINDS[ka], KINDS[kb]);
                let (a, b) = (Solid::new(&sa, &pa), Solid::new(&sb, &pb));
                // Unit normal along pb − pa, and |pb − pa| = distance.
                assert!((c.normal.norm() - 1.0).abs() < 1e-5, "{what}");
                let d = c.point_b - c.point_a;
                assert!((d.norm() - c.distance).abs() < TOL, "{what}");
                assert!((d - c.normal * c.distance).norm() < TOL, "{what}");
                // Points on the surfaces.
                assert!(
                    a.off_surface(&c.point_a) < TOL,
                    "{what}: A off by {}",
                    a.off_surface(&c.point_a)
                );
                assert!(
                    b.off_surface(&c.point_b) < TOL,
                    "{what}: B off by {}",
                    b.off_surface(&c.point_b)
                );
                // From below: the separation along the normal (and no sampled axis beats it).
                let along = separation_lower_bound(&a, &b, &[c.normal]);
                assert!(
                    along >= c.distance - TOL,
                    "{what}: gap along normal {along}"
                );
                let lower = separation_lower_bound(&a, &b, &dirs);
                assert!(
                    c.distance >= lower - TOL,
                    "{what}: below the axis bound {lower}"
                );
                // From above: no sampled pair is closer.
                let sampled = sampled_distance(
                    &a.samples(&mut r, 400, &round_dirs),
                    &b.samples(&mut r, 400, &round_dirs),
                );
                assert!(c.distance <= sampled + TOL, "{what}: sampled {sampled}");
                // The other entry points agree.
                let plain = query::distance(&pa, &sa, &pb, &sb).unwrap();
                assert_eq!(plain, c.distance);
                assert_eq!(
                    query::signed_distance(&pa, &sa, &pb, &sb).unwrap(),
                    c.distance
                );
                // The reversed order gives the same distance and the flipped points.
                let rev = query::closest_points(&pb, &sb, &pa, &sa).unwrap();
                assert!(
                    (rev.distance - c.distance).abs() < TOL,
                    "{what}: reversed {rev:?}"
                );
                assert!(
                    (rev.normal + c.normal).norm() < 1e-2,
                    "{what}: reversed {rev:?}"
                );
            }
        }
    }
    for (ka, row) in checked.iter().enumerate() {
        for (kb, n) in row.iter().enumerate() {
            assert!(
                *n >= 3,
                "{} vs {}: only {n} apart pairs",
                KINDS[ka],
                KINDS[kb]
            );
        }
    }
}

/// Overlapping pairs: `signed_distance` is minus a depth no larger than the projections'
/// overlap on any sampled axis (the minimal translation is the least overlap), and moving B
/// along the normal by the depth plus a millimetre separates the pair.
#[test]
fn overlapping_pairs_report_the_minimal_translation() {
    const TOL: Real = 1e-3;
    let mut r = ChaCha8Rng::seed_from_u64(32);
    let dirs = sphere_directions(3000);
    let mut checked = [[0usize; 5]; 5];
    for _ in 0..40 {
        for ka in 0..5 {
            for kb in 0..5 {
                let (sa, sb) = (shape(&mut r, ka), shape(&mut r, kb));
                let (pa, pb) = (random_pose(&mut r, 0.3), random_pose(&mut r, 0.6));
                let c = query::closest_points(&pa, &sa, &pb, &sb).unwrap();
                let what = format!("{} vs {}: {c:?}", KINDS[ka], KINDS[kb]);
                let overlaps = query::intersection_test(&pa, &sa, &pb, &sb).unwrap();
                if !overlaps {
                    assert!(c.distance > -TOL, "{what}: apart but negative");
                    continue;
                }
                assert!(c.distance <= TOL, "{what}: overlapping but positive");
                assert_eq!(
                    query::distance(&pa, &sa, &pb, &sb).unwrap(),
                    c.distance.max(0.0)
                );
                if c.distance > -0.01 {
                    continue;
                }
                checked[ka][kb] += 1;
                let depth = -c.distance;
                let (a, b) = (Solid::new(&sa, &pa), Solid::new(&sb, &pb));
                let least = overlap_upper_bound(&a, &b, &dirs);
                assert!(depth <= least + TOL, "{what}: least overlap {least}");
                assert!((c.normal.norm() - 1.0).abs() < 1e-5, "{what}");
                let out = moved(&pb, c.normal * (depth + TOL));
                assert!(
                    !query::intersection_test(&pa, &sa, &out, &sb).unwrap(),
                    "{what}: still overlapping after the translation"
                );
                assert!(
                    (c.point_b - c.point_a - c.normal * c.distance).norm() < 1e-3,
                    "{what}"
                );
            }
        }
    }
    for (ka, row) in checked.iter().enumerate() {
        for (kb, n) in row.iter().enumerate() {
            assert!(
                *n >= 3,
                "{} vs {}: only {n} deep pairs",
                KINDS[ka],
                KINDS[kb]
            );
        }
    }
}

/// Nearly touching pairs: B moved toward A along the normal until the gap along it is `δ`,
/// `δ` within ±1 cm. Apart (`δ > 0`): the distance is `δ` (the separation along the normal is
/// `δ` and the old closest points are now `δ` apart), with the points on the surfaces. Pushed
/// past (`δ < 0`): the projections on the normal overlap by `|δ|`, so the depth is at most that.
#[test]
fn nearly_touching_pairs() {
    let mut r = ChaCha8Rng::seed_from_u64(34);
    let (mut apart, mut pushed) = (0, 0);
    for _ in 0..60 {
        for (ka, name_a) in KINDS.iter().enumerate() {
            for (kb, name_b) in KINDS.iter().enumerate() {
                let (sa, sb) = (shape(&mut r, ka), shape(&mut r, kb));
                let (pa, pb) = (random_pose(&mut r, 1.0), random_pose(&mut r, 2.5));
                let c = query::closest_points(&pa, &sa, &pb, &sb).unwrap();
                if c.distance <= 1e-3 {
                    continue;
                }
                let delta = r.gen_range(1e-5..1e-2) * if r.gen_bool(0.5) { 1.0 } else { -1.0 };
                let near = moved(&pb, -c.normal * (c.distance - delta));
                let n = query::closest_points(&pa, &sa, &near, &sb).unwrap();
                let what = format!("{} vs {} δ {delta}: {c:?} → {n:?}", name_a, name_b);
                if delta > 0.0 {
                    apart += 1;
                    assert!((n.distance - delta).abs() < 1e-4, "{what}");
                    let (a, b) = (Solid::new(&sa, &pa), Solid::new(&sb, &near));
                    assert!(a.off_surface(&n.point_a) < 2e-4, "{what}");
                    assert!(b.off_surface(&n.point_b) < 2e-4, "{what}");
                } else {
                    pushed += 1;
                    assert!(n.distance >= delta - 1e-4, "{what}");
                }
            }
        }
    }
    assert!(apart > 500 && pushed > 500, "{apart} {pushed}");
}

/// The closed forms (ball–ball, ball–cuboid, capsule–ball, capsule–capsule) against GJK on the
/// cores of the same pairs, with the radii taken off.
#[test]
fn closed_forms_match_gjk() {
    let mut r = ChaCha8Rng::seed_from_u64(33);
    let mut compared = 0;
    for _ in 0..3000 {
        let (ka, kb) = [(0, 0), (1, 0), (0, 1), (2, 0), (0, 2), (2, 2)][r.gen_range(0..6)];
        let (sa, sb) = (shape(&mut r, ka), shape(&mut r, kb));
        let (pa, pb) = (random_pose(&mut r, 1.0), random_pose(&mut r, 2.5));
        let c = query::closest_points(&pa, &sa, &pb, &sb).unwrap();
        let (core_a, ra) = core(&sa, &pa);
        let (core_b, rb) = core(&sb, &pb);
        let g = match (&core_a, &core_b) {
            (Core::Point(p), Core::Point(q)) => gjk::distance(
                &at(p),
                &SinglePoint(Point::origin()),
                &at(q),
                &SinglePoint(Point::origin()),
            ),
            (Core::Point(p), Core::Seg(s)) => gjk::distance(
                &at(p),
                &SinglePoint(Point::origin()),
                &Isometry::identity(),
                s,
            ),
            (Core::Seg(s), Core::Point(p)) => gjk::distance(
                &Isometry::identity(),
                s,
                &at(p),
                &SinglePoint(Point::origin()),
            ),
            (Core::Seg(s), Core::Seg(t)) => {
                gjk::distance(&Isometry::identity(), s, &Isometry::identity(), t)
            }
            (Core::Box(e), Core::Point(p)) => {
                gjk::distance(&pa, e, &at(p), &SinglePoint(Point::origin()))
            }
            (Core::Point(p), Core::Box(e)) => {
                gjk::distance(&at(p), &SinglePoint(Point::origin()), &pb, e)
            }
            _ => unreachable!(),
        };
        if let GjkResult::Separated {
            distance, normal, ..
        } = g
        {
            compared += 1;
            let want = distance - ra - rb;
            assert!(
                (c.distance - want).abs() < 1e-4,
                "{} vs {}: {c:?} vs {want}",
                KINDS[ka],
                KINDS[kb]
            );
            assert!((c.normal - normal).norm() < 1e-3, "{c:?} vs {normal}");
        }
    }
    assert!(compared > 2000, "{compared}");
}

enum Core {
    Point(Point),
    Seg(Segment),
    Box(Cuboid),
}

fn at(p: &Point) -> Isometry {
    Isometry::translation(p.x, p.y, p.z)
}

fn core(s: &Shape, pose: &Isometry) -> (Core, Real) {
    match s {
        Shape::Ball(b) => (Core::Point(pose.translation.vector.into()), b.radius()),
        Shape::Capsule(c) => {
            let (a, b) = c.segment(pose);
            (Core::Seg(Segment { a, b }), c.radius())
        }
        Shape::Cuboid(c) => (Core::Box(*c), 0.0),
        _ => unreachable!(),
    }
}

/// Hand-worked cases.
#[test]
fn worked_cases() {
    let id = Isometry::identity();
    // The spheres of the `ericson_spheres_apart` unit test (`query/ball_ball.rs`): (0,0,0)
    // r 2 and (3,3,0) r 2 are √18 − 4 = 0.2426 apart, along (1,1,0)/√2.
    let two = Ball::new(2.0).unwrap();
    let c = query::closest_points(&id, &two, &Isometry::translation(3.0, 3.0, 0.0), &two).unwrap();
    assert!((c.distance - (18f32.sqrt() - 4.0)).abs() < 1e-6, "{c:?}");
    let diag = Vector::new(1.0, 1.0, 0.0).normalize();
    assert!((c.normal - diag).norm() < 1e-6);
    assert!((c.point_a - Point::from(diag * 2.0)).norm() < 1e-6);

    // Two unit cubes 3.5 apart on x, offset 0.2 in y: the gap between the faces x = 1 and
    // x = 2.5 is 1.5 (the box case of the GJK unit tests), by GJK.
    let cube = Cuboid::new(Vector::repeat(1.0)).unwrap();
    let c =
        query::closest_points(&id, &cube, &Isometry::translation(3.5, 0.2, -0.1), &cube).unwrap();
    assert!(
        (c.distance - 1.5).abs() < 1e-5 && (c.normal - Vector::x()).norm() < 1e-5,
        "{c:?}"
    );

    // Two capsules whose axes are skew at right angles (the skew segments of RTCD §5.1.9),
    // worked by hand: axes along y at the origin and along x at height z = 2, radii 0.5 and
    // 0.25: 2 − 0.75 = 1.25 apart along +z, closest points (0, 0, 0.5) and (0, 0, 1.75).
    let ca = Capsule::new(1.0, 0.5).unwrap();
    let cb = Capsule::new(1.0, 0.25).unwrap();
    let turned = Isometry::from_parts(
        Translation::new(0.0, 0.0, 2.0),
        Rotation::from_axis_angle(&Vector::z_axis(), std::f32::consts::FRAC_PI_2),
    );
    let c = query::closest_points(&id, &ca, &turned, &cb).unwrap();
    assert!((c.distance - 1.25).abs() < 1e-6, "{c:?}");
    assert!((c.point_a - Point::new(0.0, 0.0, 0.5)).norm() < 1e-6);
    assert!((c.point_b - Point::new(0.0, 0.0, 1.75)).norm() < 1e-6);

    // A ball of radius 0.5 centred 0.2 inside the face x = 1 of the unit cube: depth 0.7
    // through that face.
    let half = Ball::new(0.5).unwrap();
    let c =
        query::closest_points(&id, &cube, &Isometry::translation(0.8, 0.0, 0.0), &half).unwrap();
    assert!(
        (c.distance + 0.7).abs() < 1e-6 && (c.normal - Vector::x()).norm() < 1e-6,
        "{c:?}"
    );

    // A triangle lying in z = 0 and a ball above its interior at height 3, radius 1: 2 apart.
    let tri = Triangle::new(
        Point::new(-1.0, -1.0, 0.0),
        Point::new(2.0, -1.0, 0.0),
        Point::new(-1.0, 2.0, 0.0),
    )
    .unwrap();
    let one = Ball::new(1.0).unwrap();
    let c = query::closest_points(&id, &tri, &Isometry::translation(0.0, 0.0, 3.0), &one).unwrap();
    assert!((c.distance - 2.0).abs() < 1e-5, "{c:?}");
    assert!((c.point_a - Point::origin()).norm() < 1e-5 && (c.normal - Vector::z()).norm() < 1e-5);
}

/// Non-finite poses are refused with a typed error, never a panic or a NaN.
#[test]
fn non_finite_poses_are_errors() {
    let b = Ball::new(1.0).unwrap();
    let cube = Cuboid::new(Vector::repeat(1.0)).unwrap();
    let ok = Isometry::identity();
    for bad in [
        Isometry::translation(Real::NAN, 0.0, 0.0),
        Isometry::translation(0.0, Real::INFINITY, 0.0),
        Isometry::from_parts(
            Translation::identity(),
            Rotation::new_unchecked(nalgebra::Quaternion::new(Real::NAN, 0.0, 0.0, 0.0)),
        ),
    ] {
        assert!(matches!(
            query::distance(&bad, &b, &ok, &cube),
            Err(QueryError::NonFinite(_))
        ));
        assert!(matches!(
            query::closest_points(&ok, &cube, &bad, &b),
            Err(QueryError::NonFinite(_))
        ));
        assert!(matches!(
            query::signed_distance(&bad, &cube, &bad, &cube),
            Err(QueryError::NonFinite(_))
        ));
    }
    // A rotation that is not a unit quaternion.
    let stretched = Isometry::from_parts(
        Translation::identity(),
        Rotation::new_unchecked(nalgebra::Quaternion::new(2.0, 0.0, 0.0, 0.0)),
    );
    assert!(matches!(
        query::closest_points(&stretched, &cube, &ok, &b),
        Err(QueryError::NotUnitRotation(_))
    ));
    // Finite but huge poses whose difference overflows: an error, not an infinite distance.
    let far = Isometry::translation(3e38, 0.0, 0.0);
    let near = Isometry::translation(-3e38, 0.0, 0.0);
    match query::closest_points(&far, &cube, &near, &b) {
        Ok(c) => assert!(c.is_finite()),
        Err(e) => assert!(matches!(e, QueryError::NonFinite(_))),
    }
}

//! World queries against brute force over every body, on random worlds (seeded ChaCha), with
//! random filters; hand-picked cases with the figures they come from; bad input.

mod common;

use common::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tumble::math::{Isometry, Point, Real, Rotation, Vector};
use tumble::narrowphase::query::{closest_points, intersects_any};
use tumble::narrowphase::ray::Ray;
use tumble::narrowphase::sweep::{cast_shape, CastOptions};
use tumble::narrowphase::Aabb;
use tumble::{
    project_point_on_shape, ray_shape, Ball, BodyBuilder, BodyHandle, BodyKind, Capsule,
    ConvexPolyhedron, Cuboid, QueryFilter, SensorMode, Shape, Triangle, World, WorldConfig,
    WorldError,
};

/// What the test knows of each body it made.
#[derive(Clone, Copy, Debug)]
struct Spec {
    handle: BodyHandle,
    memberships: u32,
    filter: u32,
}

/// A filter described by plain data, applied by the test's own rule ([`Rules::accepts`]) and
/// turned into a [`QueryFilter`].
#[derive(Clone, Debug, Default)]
struct Rules {
    exclude: Option<BodyHandle>,
    list: Vec<BodyHandle>,
    groups: Option<(u32, u32)>,
    sensors: SensorMode,
    ex_dynamic: bool,
    ex_kinematic: bool,
    ex_static: bool,
    /// Skip bodies whose slot index is ≡ 1 mod 3.
    predicate: bool,
}

fn predicate(h: BodyHandle) -> bool {
    h.index() % 3 != 1
}

impl Rules {
    fn random(rng: &mut ChaCha8Rng, specs: &[Spec]) -> Rules {
        let pick = |rng: &mut ChaCha8Rng| specs[rng.gen_range(0..specs.len())].handle;
        let mut r = Rules::default();
        if rng.gen_bool(0.5) {
            r.exclude = Some(pick(rng));
        }
        if rng.gen_bool(0.3) {
            r.list = (0..rng.gen_range(1..6)).map(|_| pick(rng)).collect();
        }
        if rng.gen_bool(0.3) {
            r.groups = Some((
                1 << rng.gen_range(0..3),
                [0b111, 0b011, 0b101][rng.gen_range(0..3)],
            ));
        }
        r.sensors =
            [SensorMode::Include, SensorMode::Exclude, SensorMode::Only][rng.gen_range(0..3)];
        r.ex_dynamic = rng.gen_bool(0.2);
        r.ex_kinematic = rng.gen_bool(0.2);
        r.ex_static = rng.gen_bool(0.2);
        r.predicate = rng.gen_bool(0.3);
        r
    }

    fn filter(&self) -> QueryFilter<'_> {
        let mut f = QueryFilter::new().exclude_bodies(&self.list);
        f.exclude_body = self.exclude;
        f.groups = self.groups;
        f.sensors = self.sensors;
        f.exclude_dynamic = self.ex_dynamic;
        f.exclude_kinematic = self.ex_kinematic;
        f.exclude_static = self.ex_static;
        if self.predicate {
            f = f.predicate(&predicate);
        }
        f
    }

    fn accepts(&self, w: &World, s: &Spec) -> bool {
        let Some(b) = w.body(s.handle) else {
            return false;
        };
        if self.exclude == Some(s.handle) || self.list.contains(&s.handle) {
            return false;
        }
        match b.kind() {
            BodyKind::Dynamic if self.ex_dynamic => return false,
            BodyKind::Kinematic if self.ex_kinematic => return false,
            BodyKind::Static if self.ex_static => return false,
            _ => {}
        }
        match self.sensors {
            SensorMode::Exclude if b.is_sensor() => return false,
            SensorMode::Only if !b.is_sensor() => return false,
            _ => {}
        }
        if let Some((m, f)) = self.groups {
            if m & s.filter == 0 || s.memberships & f == 0 {
                return false;
            }
        }
        !self.predicate || predicate(s.handle)
    }
}

fn random_rotation(rng: &mut ChaCha8Rng) -> Rotation {
    let axis = Vector::new(
        rng.gen_range(-1.0..1.0),
        rng.gen_range(-1.0..1.0),
        rng.gen_range(-1.0..1.0),
    );
    Rotation::from_scaled_axis(axis * rng.gen_range(0.0..3.0))
}

fn random_vector(rng: &mut ChaCha8Rng, half: Real) -> Vector {
    Vector::new(
        rng.gen_range(-half..half),
        rng.gen_range(-half..half),
        rng.gen_range(-half..half),
    )
}

fn random_shape(rng: &mut ChaCha8Rng, with_triangle: bool) -> Shape {
    match rng.gen_range(0..if with_triangle { 5 } else { 4 }) {
        0 => Ball::new(rng.gen_range(0.2..1.0)).unwrap().into(),
        1 => Cuboid::new(Vector::new(
            rng.gen_range(0.1..1.0),
            rng.gen_range(0.1..1.0),
            rng.gen_range(0.1..1.0),
        ))
        .unwrap()
        .into(),
        2 => Capsule::new(rng.gen_range(0.1..0.8), rng.gen_range(0.1..0.5))
            .unwrap()
            .into(),
        3 => {
            let pts: Vec<Point> = (0..10)
                .map(|_| Point::from(random_vector(rng, 0.8)))
                .collect();
            ConvexPolyhedron::from_points(&pts).unwrap().into()
        }
        _ => Triangle::new(
            Point::from(random_vector(rng, 1.0)),
            Point::from(random_vector(rng, 1.0)),
            Point::from(random_vector(rng, 1.0)),
        )
        .unwrap()
        .into(),
    }
}

/// A compound of 2 to 4 random children within 1 m of its origin, the first one solid (so a
/// dynamic body of it has mass).
fn random_compound(rng: &mut ChaCha8Rng) -> Shape {
    let n = rng.gen_range(2..5);
    let children: Vec<(Isometry, Shape)> = (0..n)
        .map(|k| {
            let pose = Isometry::from_parts(random_vector(rng, 1.0).into(), random_rotation(rng));
            (pose, random_shape(rng, k > 0))
        })
        .collect();
    Shape::compound(children).unwrap()
}

/// Sixty bodies of every shape, kind, sensor flag and collision group in an 8 m cube; every
/// seventh removed and a few inserted again, so handles are stale and slots reused; then six
/// compounds.
fn random_world(seed: u64) -> (World, Vec<Spec>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut w = World::new(WorldConfig::default()).unwrap();
    let mut specs = Vec::new();
    let add = |w: &mut World, rng: &mut ChaCha8Rng, compound: bool| {
        let shape = if compound {
            random_compound(rng)
        } else {
            random_shape(rng, true)
        };
        let kind = if matches!(shape, Shape::Triangle(_)) {
            rng.gen_range(1..3)
        } else {
            rng.gen_range(0..3)
        };
        let builder = match kind {
            0 => BodyBuilder::dynamic(shape),
            1 => BodyBuilder::fixed(shape),
            _ => BodyBuilder::kinematic(shape),
        };
        let memberships = 1 << rng.gen_range(0..3);
        let filter = [0b111, 0b011, 0b101, 0b110][rng.gen_range(0..4)];
        let handle = w
            .insert(
                builder
                    .translation(random_vector(rng, 4.0))
                    .rotation(random_rotation(rng))
                    .sensor(rng.gen_bool(0.15))
                    .collision_groups(memberships, filter),
            )
            .unwrap();
        Spec {
            handle,
            memberships,
            filter,
        }
    };
    for _ in 0..60 {
        let s = add(&mut w, &mut rng, false);
        specs.push(s);
    }
    for k in (0..specs.len()).step_by(7) {
        w.remove(specs[k].handle).unwrap();
    }
    for _ in 0..4 {
        let s = add(&mut w, &mut rng, false);
        specs.push(s);
    }
    for _ in 0..6 {
        let s = add(&mut w, &mut rng, true);
        specs.push(s);
    }
    (w, specs)
}

/// Random rays, shapes and points: near the bodies, some starting inside them.
fn random_origin(rng: &mut ChaCha8Rng, w: &World, specs: &[Spec]) -> Point {
    if rng.gen_bool(0.3) {
        let s = specs[rng.gen_range(0..specs.len())];
        if let Some(b) = w.body(s.handle) {
            return Point::from(b.translation() + random_vector(rng, 0.2));
        }
    }
    Point::from(random_vector(rng, 6.0))
}

#[test]
fn cast_ray_and_cast_ray_all_match_brute_force() {
    for seed in 0..4 {
        let (w, specs) = random_world(seed);
        let mut rng = ChaCha8Rng::seed_from_u64(100 + seed);
        let mut all = Vec::new();
        let mut checked_hits = 0;
        for _ in 0..300 {
            let rules = Rules::random(&mut rng, &specs);
            let origin = random_origin(&mut rng, &w, &specs);
            let aim = specs[rng.gen_range(0..specs.len())].handle;
            let dir = match w.body(aim) {
                Some(b) if rng.gen_bool(0.5) => {
                    (b.translation() - origin.coords) * rng.gen_range(0.1..2.0)
                        + random_vector(&mut rng, 0.05)
                }
                _ => random_vector(&mut rng, 1.0),
            };
            let max_t = rng.gen_range(0.0..40.0);
            let ray = Ray::new(origin, dir).unwrap();
            let mut expect: Vec<(Real, BodyHandle)> = specs
                .iter()
                .filter(|s| rules.accepts(&w, s))
                .filter_map(|s| {
                    let b = w.body(s.handle)?;
                    ray_shape(&ray, b.shape(), &b.shape_pose(), max_t).map(|h| (h.t, s.handle))
                })
                .collect();
            expect.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            let first = w.cast_ray(origin, dir, max_t, &rules.filter()).unwrap();
            assert_eq!(
                first.map(|h| (h.t, h.body)),
                expect.first().copied(),
                "{rules:?}"
            );
            w.cast_ray_all(origin, dir, max_t, &rules.filter(), &mut all)
                .unwrap();
            let got: Vec<(Real, BodyHandle)> = all.iter().map(|h| (h.t, h.body)).collect();
            assert_eq!(got, expect, "{rules:?}");
            checked_hits += expect.len();
        }
        assert!(checked_hits > 50, "the rays hit something: {checked_hits}");
    }
}

#[test]
fn cast_shape_matches_brute_force() {
    for seed in 0..3 {
        let (w, specs) = random_world(seed);
        let mut rng = ChaCha8Rng::seed_from_u64(200 + seed);
        let mut hits = 0;
        for _ in 0..150 {
            let rules = Rules::random(&mut rng, &specs);
            let shape = random_shape(&mut rng, false);
            let pose = Isometry::from_parts(
                random_origin(&mut rng, &w, &specs).coords.into(),
                random_rotation(&mut rng),
            );
            let vel = random_vector(&mut rng, 10.0);
            let max_toi = rng.gen_range(0.0..2.0);
            let options = CastOptions::with_t_max(max_toi);
            let oracle = |h: BodyHandle| {
                let b = w.body(h)?;
                cast_shape(
                    &pose,
                    &vel,
                    &shape,
                    &b.shape_pose(),
                    &Vector::zeros(),
                    b.shape(),
                    &options,
                )
                .ok()
                .flatten()
            };
            let best = specs
                .iter()
                .filter(|s| rules.accepts(&w, s))
                .filter_map(|s| oracle(s.handle).map(|h| (h.toi, s.handle)))
                .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            let got = w
                .cast_shape(&shape, &pose, &vel, max_toi, &rules.filter())
                .unwrap();
            match (got, best) {
                (None, None) => {}
                (Some(g), Some((toi, h))) => {
                    hits += 1;
                    // The world limits each search to the best time so far, the oracle does
                    // not: equal up to the cast's tolerance (10⁻⁴ m over ≤ 20 m/s).
                    assert!((g.toi - toi).abs() <= 1e-4, "{} vs {toi}", g.toi);
                    if g.body != h {
                        let theirs = oracle(g.body).expect("the world's body is hit").toi;
                        assert!((theirs - toi).abs() <= 1e-4, "a tie: {theirs} vs {toi}");
                    }
                    assert!(rules.accepts(&w, specs.iter().find(|s| s.handle == g.body).unwrap()));
                    assert!((g.normal.norm() - 1.0).abs() < 1e-3);
                }
                (g, b) => panic!("world {g:?}, brute force {b:?} ({rules:?})"),
            }
        }
        assert!(hits > 20, "the casts hit something: {hits}");
    }
}

#[test]
fn project_point_matches_brute_force() {
    for seed in 0..3 {
        let (w, specs) = random_world(seed);
        let mut rng = ChaCha8Rng::seed_from_u64(300 + seed);
        let mut inside = 0;
        for _ in 0..300 {
            let rules = Rules::random(&mut rng, &specs);
            let p = if rng.gen_bool(0.1) {
                Point::from(random_vector(&mut rng, 200.0))
            } else {
                random_origin(&mut rng, &w, &specs)
            };
            let best = specs
                .iter()
                .filter(|s| rules.accepts(&w, s))
                .filter_map(|s| {
                    let b = w.body(s.handle)?;
                    project_point_on_shape(&p, b.shape(), &b.shape_pose()).map(|x| (s.handle, x))
                })
                .min_by(|a, b| {
                    a.1.signed_distance()
                        .total_cmp(&b.1.signed_distance())
                        .then(a.0.cmp(&b.0))
                });
            let got = w.project_point(&p, &rules.filter()).unwrap();
            assert_eq!(got, best, "{p:?} {rules:?}");
            inside += got.is_some_and(|g| g.1.inside) as usize;
        }
        assert!(inside > 5, "some points were inside a body: {inside}");
    }
}

/// Checks the projection of `p` on `shape` at `pose` against the narrow phase's closest points
/// of the shape and a ball of 0.1 mm about the point (an independent computation: closed forms
/// and GJK); returns the signed distance.
fn check_projection(shape: &Shape, pose: &Isometry, p: &Point) -> Real {
    let probe = Ball::new(1e-4).unwrap();
    let got = project_point_on_shape(p, shape, pose).unwrap();
    let c = closest_points(pose, shape, &Isometry::translation(p.x, p.y, p.z), &probe).unwrap();
    let signed = c.distance + 1e-4;
    assert!(
        (got.signed_distance() - signed).abs() < 2e-4,
        "{shape:?} {p:?}: {got:?} vs {c:?}"
    );
    if signed > 1e-3 {
        assert!(!got.inside);
        assert!(
            (got.point - c.point_a).norm() < 2e-3,
            "{shape:?}: {got:?} vs {c:?}"
        );
    }
    if signed < -1e-3 {
        assert!(got.inside);
    }
    signed
}

/// The projection on one shape against the narrow phase's closest points.
#[test]
fn project_point_on_shape_matches_closest_points() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut outside = 0;
    for _ in 0..2000 {
        let shape = random_shape(&mut rng, true);
        let pose = Isometry::from_parts(
            random_vector(&mut rng, 3.0).into(),
            random_rotation(&mut rng),
        );
        let p = Point::from(pose.translation.vector + random_vector(&mut rng, 2.0));
        if check_projection(&shape, &pose, &p) > 1e-3 {
            outside += 1;
        }
    }
    assert!(outside > 1000);
}

/// The same for compounds: the projection on the nearest child (the deepest one from inside)
/// against the compound's closest points to the probe, the least over its children.
#[test]
fn project_point_on_compound_matches_closest_points() {
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    let (mut outside, mut inside) = (0, 0);
    for _ in 0..1000 {
        let shape = random_compound(&mut rng);
        let pose = Isometry::from_parts(
            random_vector(&mut rng, 3.0).into(),
            random_rotation(&mut rng),
        );
        // Half the points near a child's origin, so that many are inside.
        let Shape::Compound(parts) = &shape else {
            unreachable!()
        };
        let near = if rng.gen_bool(0.5) {
            let (cp, _) = &parts.children()[rng.gen_range(0..parts.len())];
            (pose * cp).translation.vector + random_vector(&mut rng, 0.3)
        } else {
            pose.translation.vector + random_vector(&mut rng, 2.0)
        };
        let signed = check_projection(&shape, &pose, &Point::from(near));
        outside += (signed > 1e-3) as usize;
        inside += (signed < -1e-3) as usize;
    }
    assert!(
        outside > 300 && inside > 200,
        "{outside} outside, {inside} inside"
    );
}

#[test]
fn overlaps_match_brute_force() {
    for seed in 0..3 {
        let (w, specs) = random_world(seed);
        let mut rng = ChaCha8Rng::seed_from_u64(400 + seed);
        let mut out = Vec::new();
        let mut found = 0;
        for _ in 0..200 {
            let rules = Rules::random(&mut rng, &specs);
            let shape = random_shape(&mut rng, true);
            let pose = Isometry::from_parts(
                random_origin(&mut rng, &w, &specs).coords.into(),
                random_rotation(&mut rng),
            );
            let mut expect: Vec<BodyHandle> = specs
                .iter()
                .filter(|s| rules.accepts(&w, s))
                .filter(|s| {
                    let b = w.body(s.handle).unwrap();
                    intersects_any(&pose, &shape, &b.shape_pose(), b.shape()) == Some(true)
                })
                .map(|s| s.handle)
                .collect();
            expect.sort();
            w.intersections_with_shape(&shape, &pose, &rules.filter(), &mut out)
                .unwrap();
            assert_eq!(out, expect, "{rules:?}");
            found += out.len();

            let aabb = shape.aabb(&pose);
            let mut expect: Vec<BodyHandle> = specs
                .iter()
                .filter(|s| rules.accepts(&w, s))
                .filter(|s| {
                    let b = w.body(s.handle).unwrap();
                    b.shape().aabb(&b.shape_pose()).intersects(&aabb)
                })
                .map(|s| s.handle)
                .collect();
            expect.sort();
            w.query_aabb_into(&aabb, &rules.filter(), &mut out).unwrap();
            assert_eq!(out, expect);
        }
        assert!(found > 20, "the shapes overlapped something: {found}");
    }
}

#[test]
fn contacts_of_matches_a_scan_of_every_pair() {
    for seed in 0..3 {
        let (mut w, mut specs) = random_world(seed);
        // Under gravity onto a floor, so the bodies pile up and touch.
        w.set_gravity(Vector::new(0.0, -9.81, 0.0)).unwrap();
        let floor = w
            .insert(
                BodyBuilder::fixed(Cuboid::new(Vector::new(8.0, 0.5, 8.0)).unwrap())
                    .translation(Vector::new(0.0, -5.0, 0.0)),
            )
            .unwrap();
        specs.push(Spec {
            handle: floor,
            memberships: u32::MAX,
            filter: u32::MAX,
        });
        let mut total = 0;
        for step in 0..80 {
            w.step();
            if step % 10 != 3 {
                continue;
            }
            if step == 43 {
                // A removal between steps: its pairs stay in the cache until the next step
                // and are not reported for the slot's new body.
                w.remove(specs[1].handle).unwrap();
                w.insert(ball(0.5, Vector::zeros())).unwrap();
            }
            for s in &specs {
                let Ok(of) = w.contacts_of(s.handle) else {
                    assert!(!w.contains(s.handle));
                    continue;
                };
                let got: Vec<_> = of
                    .map(|c| (c.a, c.b, c.touching, c.manifold.normal))
                    .collect();
                let mut expect: Vec<_> = w
                    .contacts()
                    .filter(|c| c.a == s.handle || c.b == s.handle)
                    .map(|c| (c.a, c.b, c.touching, c.manifold.normal))
                    .collect();
                let other = |c: &(BodyHandle, BodyHandle, bool, Vector)| {
                    if c.0 == s.handle {
                        c.1
                    } else {
                        c.0
                    }
                };
                expect.sort_by_key(other);
                assert_eq!(got, expect);
                total += got.len();
            }
        }
        assert!(total > 20, "the bodies touched: {total}");
    }
}

/// A ray from the centre of ball A (radius 0.5 at x = 0) along +x toward ball B (radius 0.5
/// at x = 3): A is hit at t = 0 (solid), and with A excluded B's near side at x = 2.5.
#[test]
fn ray_starting_inside_the_body_it_skips() {
    let mut w = world_with_gravity(Vector::zeros());
    let a = w.insert(ball(0.5, Vector::zeros())).unwrap();
    let b = w.insert(ball(0.5, Vector::new(3.0, 0.0, 0.0))).unwrap();
    let o = Point::origin();
    let hit = w
        .cast_ray(o, Vector::x(), 10.0, &QueryFilter::new())
        .unwrap()
        .unwrap();
    assert_eq!((hit.body, hit.t, hit.normal), (a, 0.0, -Vector::x()));
    let hit = w
        .cast_ray(o, Vector::x(), 10.0, &QueryFilter::new().exclude_body(a))
        .unwrap()
        .unwrap();
    assert_eq!(hit.body, b);
    assert!((hit.t - 2.5).abs() < 1e-5 && (hit.normal + Vector::x()).norm() < 1e-5);
    let mut all = Vec::new();
    w.cast_ray_all(o, Vector::x(), 10.0, &QueryFilter::new(), &mut all)
        .unwrap();
    assert_eq!(all.iter().map(|h| h.body).collect::<Vec<_>>(), vec![a, b]);
    // Filters by kind and by predicate.
    let not_b = |h: BodyHandle| h != b;
    let f = QueryFilter::new().exclude_body(a).predicate(&not_b);
    assert!(w.cast_ray(o, Vector::x(), 10.0, &f).unwrap().is_none());
    let f = QueryFilter::new().exclude_dynamic();
    assert!(w.cast_ray(o, Vector::x(), 10.0, &f).unwrap().is_none());
}

/// Hand-picked figures: a unit cube at the origin; a ball of radius 0.25 cast at 4 m/s along
/// +x from x = −3 touches the cube's face x = −0.5 when its centre reaches x = −0.75, after
/// 2.25 m, at t = 0.5625 s; the point (0.3, 0.1, 0) inside projects to the face x = 0.5 at
/// 0.2 m; the point (2, 0, 0) outside to (0.5, 0, 0) at 1.5 m.
#[test]
fn hand_picked_cast_and_projection() {
    let mut w = world_with_gravity(Vector::zeros());
    let cube = w
        .insert(BodyBuilder::fixed(
            Cuboid::new(Vector::repeat(0.5)).unwrap(),
        ))
        .unwrap();
    let probe: Shape = Ball::new(0.25).unwrap().into();
    let hit = w
        .cast_shape(
            &probe,
            &Isometry::translation(-3.0, 0.0, 0.0),
            &Vector::new(4.0, 0.0, 0.0),
            1.0,
            &QueryFilter::new(),
        )
        .unwrap()
        .unwrap();
    assert_eq!(hit.body, cube);
    assert!((hit.toi - 0.5625).abs() < 1e-4, "{}", hit.toi);
    assert!(
        (hit.normal + Vector::x()).norm() < 1e-4,
        "out of the cube toward the ball"
    );
    assert!((hit.witness_body.x + 0.5).abs() < 1e-3 && (hit.witness_shape.x + 0.5).abs() < 1e-3);
    let (h, p) = w
        .project_point(&Point::new(0.3, 0.1, 0.0), &QueryFilter::new())
        .unwrap()
        .unwrap();
    assert_eq!(h, cube);
    assert!(p.inside && (p.distance - 0.2).abs() < 1e-6);
    assert!((p.point - Point::new(0.5, 0.1, 0.0)).norm() < 1e-6);
    let (_, p) = w
        .project_point(&Point::new(2.0, 0.0, 0.0), &QueryFilter::new())
        .unwrap()
        .unwrap();
    assert!(!p.inside && (p.distance - 1.5).abs() < 1e-6);
    // Far away: the growing search still finds it (2 km: six four-fold growths from 1 m).
    let (_, p) = w
        .project_point(&Point::new(0.0, 2000.0, 0.0), &QueryFilter::new())
        .unwrap()
        .unwrap();
    assert!((p.distance - 1999.5).abs() < 1e-2);
    assert!(w
        .project_point(&Point::origin(), &QueryFilter::new().exclude_static())
        .unwrap()
        .is_none());
}

#[test]
fn bad_input_is_an_error_never_a_panic() {
    let mut w = world_with_gravity(Vector::zeros());
    let a = w.insert(ball(0.5, Vector::zeros())).unwrap();
    let f = QueryFilter::new();
    let nan = Real::NAN;
    let mut hits = Vec::new();
    assert!(w
        .cast_ray(Point::new(nan, 0.0, 0.0), Vector::x(), 1.0, &f)
        .is_err());
    assert!(w
        .cast_ray(Point::origin(), Vector::zeros(), 1.0, &f)
        .is_err());
    assert!(w.cast_ray(Point::origin(), Vector::x(), nan, &f).is_err());
    assert!(w
        .cast_ray_all(Point::origin(), Vector::x(), -1.0, &f, &mut hits)
        .is_err());
    let s: Shape = Ball::new(0.1).unwrap().into();
    let bad_pose = Isometry::translation(nan, 0.0, 0.0);
    assert!(w.cast_shape(&s, &bad_pose, &Vector::x(), 1.0, &f).is_err());
    assert!(w
        .cast_shape(
            &s,
            &Isometry::identity(),
            &Vector::new(nan, 0.0, 0.0),
            1.0,
            &f
        )
        .is_err());
    assert!(w
        .cast_shape(&s, &Isometry::identity(), &Vector::x(), Real::INFINITY, &f)
        .is_err());
    // A zero velocity reports what the shape touches now.
    let now = w
        .cast_shape(&s, &Isometry::identity(), &Vector::zeros(), 1.0, &f)
        .unwrap();
    assert_eq!(now.map(|h| (h.body, h.toi)), Some((a, 0.0)));
    assert!(w.project_point(&Point::new(0.0, nan, 0.0), &f).is_err());
    assert!(w
        .intersections_with_shape(&s, &bad_pose, &f, &mut Vec::new())
        .is_err());
    let bad_box = Aabb::new_unchecked(Point::new(1.0, 0.0, 0.0), Point::new(0.0, 1.0, 1.0));
    assert!(w.query_aabb_into(&bad_box, &f, &mut Vec::new()).is_err());
    w.remove(a).unwrap();
    assert!(matches!(w.contacts_of(a), Err(WorldError::StaleHandle(_))));
}

/// A kinematic box driven to a pose 0.5 m away and turned by 0.8 rad (the exact branch of the
/// integrator), then by 0.02 rad (its first-order branch): it arrives within rounding, and
/// its previous pose is where it started (so it is interpolated, not teleported).
#[test]
fn next_kinematic_pose_arrives_in_one_step() {
    let mut w = world_with_gravity(Vector::new(0.0, -9.81, 0.0));
    let k = w
        .insert(
            BodyBuilder::kinematic(Cuboid::new(Vector::new(1.0, 0.2, 0.5)).unwrap())
                .translation(Vector::new(0.0, 1.0, 0.0))
                .local_offset(Isometry::translation(0.3, 0.0, 0.0)),
        )
        .unwrap();
    for angle in [0.8, 0.02] {
        let start = w.body(k).unwrap().pose();
        let target = Isometry::from_parts(
            (start.translation.vector + Vector::new(0.5, 0.1, -0.2)).into(),
            Rotation::from_scaled_axis(Vector::new(0.0, angle, 0.0)) * start.rotation,
        );
        w.set_next_kinematic_pose(k, target).unwrap();
        w.step();
        let got = w.body(k).unwrap().pose();
        assert!(
            (got.translation.vector - target.translation.vector).norm() < 1e-5,
            "{got:?}"
        );
        assert!(got.rotation.angle_to(&target.rotation) < 1e-5, "{angle}");
        assert_eq!(w.previous_pose(k).unwrap(), start);
    }
    let fixed = w
        .insert(BodyBuilder::fixed(Ball::new(1.0).unwrap()))
        .unwrap();
    assert!(matches!(
        w.set_next_kinematic_pose(fixed, Isometry::identity()),
        Err(WorldError::NotKinematic(_))
    ));
    assert!(w
        .set_next_kinematic_pose(k, Isometry::translation(Real::NAN, 0.0, 0.0))
        .is_err());
}

/// The collision world's queries against brute force over every collider at its last set
/// pose: half of them moved after the last update (their broad-phase boxes stale), with and
/// without a predicate.
#[test]
fn collision_world_queries_match_brute_force() {
    use tumble::{ColliderHandle, CollisionWorld};
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut cw = CollisionWorld::default();
    let mut handles = Vec::new();
    for _ in 0..50 {
        let pose = Isometry::from_parts(
            random_vector(&mut rng, 4.0).into(),
            random_rotation(&mut rng),
        );
        handles.push(cw.insert(random_shape(&mut rng, true), pose, 0).unwrap());
    }
    cw.update();
    for &h in handles.iter().step_by(2) {
        let pose = Isometry::from_parts(
            random_vector(&mut rng, 4.0).into(),
            random_rotation(&mut rng),
        );
        cw.set_pose(h, pose).unwrap();
    }
    cw.remove(handles[5]).unwrap();
    let live: Vec<ColliderHandle> = handles
        .iter()
        .copied()
        .filter(|h| cw.get(*h).is_some())
        .collect();
    let odd = |h: ColliderHandle| h.index() % 2 == 1;
    let (mut all, mut over) = (Vec::new(), Vec::new());
    let mut found = 0;
    for k in 0..200 {
        let filter: tumble::ColliderFilter<'_> = if k % 2 == 0 { None } else { Some(&odd) };
        let keep = |h: &ColliderHandle| filter.is_none_or(|f| f(*h));
        let origin = Point::from(random_vector(&mut rng, 6.0));
        // Aimed at a collider's centre, give or take 0.3 m.
        let (_, aim, _) = cw.get(live[rng.gen_range(0..live.len())]).unwrap();
        let dir = aim.translation.vector - origin.coords + random_vector(&mut rng, 0.3);
        let ray = Ray::new(origin, dir).unwrap();
        let mut expect: Vec<(Real, ColliderHandle)> = live
            .iter()
            .filter(|h| keep(h))
            .filter_map(|&h| {
                let (s, p, _) = cw.get(h).unwrap();
                tumble::narrowphase::ray::ray_shape(&ray, &p, s, 20.0).map(|x| (x.t, h))
            })
            .collect();
        expect.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        cw.cast_ray_all(origin, dir, 20.0, filter, &mut all)
            .unwrap();
        assert_eq!(all.iter().map(|x| (x.1.t, x.0)).collect::<Vec<_>>(), expect);
        let first = cw.cast_ray(origin, dir, 20.0, filter).unwrap();
        assert_eq!(first.map(|x| (x.1.t, x.0)), expect.first().copied());
        found += expect.len();

        let shape = random_shape(&mut rng, false);
        let pose = Isometry::from_parts(
            random_vector(&mut rng, 5.0).into(),
            random_rotation(&mut rng),
        );
        let mut expect: Vec<ColliderHandle> = live
            .iter()
            .copied()
            .filter(|h| keep(h))
            .filter(|&h| {
                let (s, p, _) = cw.get(h).unwrap();
                intersects_any(&pose, &shape, &p, s) == Some(true)
            })
            .collect();
        expect.sort();
        cw.intersections_with_shape(&shape, &pose, filter, &mut over)
            .unwrap();
        assert_eq!(over, expect);

        let vel = random_vector(&mut rng, 5.0);
        let options = CastOptions::with_t_max(1.0);
        let best = live
            .iter()
            .copied()
            .filter(|h| keep(h))
            .filter_map(|h| {
                let (s, p, _) = cw.get(h).unwrap();
                cast_shape(&pose, &vel, &shape, &p, &Vector::zeros(), s, &options)
                    .ok()
                    .flatten()
                    .map(|x| (x.toi, h))
            })
            .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let got = cw
            .cast_shape(&shape, &pose, &vel, &options, filter)
            .unwrap();
        assert_eq!(got.is_some(), best.is_some());
        if let (Some(g), Some(b)) = (got, best) {
            assert!((g.1.toi - b.0).abs() <= 1e-4);
        }

        let p = Point::from(random_vector(&mut rng, 6.0));
        let best = live
            .iter()
            .copied()
            .filter(|h| keep(h))
            .filter_map(|h| {
                let (s, q, _) = cw.get(h).unwrap();
                project_point_on_shape(&p, s, &q).map(|x| (h, x))
            })
            .min_by(|a, b| {
                a.1.signed_distance()
                    .total_cmp(&b.1.signed_distance())
                    .then(a.0.cmp(&b.0))
            });
        assert_eq!(cw.project_point(&p, filter).unwrap(), best);
    }
    assert!(found > 150, "the rays hit something: {found}");
}

/// A point above a static heightfield and above the equivalent triangle mesh projects onto
/// the surface: a flat 3 × 3-sample field at y = 0.5 (scale 4 × 1 × 4) seen from 2 m above
/// gives the foot 1.5 m below, not inside; both shapes the same answer.
#[test]
fn project_point_onto_meshes() {
    use tumble::narrowphase::mesh::HeightField;
    let field = HeightField::new(3, 3, &[0.5; 9], Vector::new(4.0, 1.0, 4.0)).unwrap();
    let mesh = field.to_trimesh().unwrap();
    for shape in [Shape::from(field.clone()), Shape::from(mesh)] {
        let mut w = World::new(WorldConfig::default()).unwrap();
        let h = w.insert(tumble::BodyBuilder::fixed(shape)).unwrap();
        let p = Point::new(0.3, 2.0, -0.4);
        let (hit, proj) = w
            .project_point(&p, &tumble::QueryFilter::default())
            .unwrap()
            .expect("the ground is found");
        assert_eq!(hit, h);
        assert!(!proj.inside);
        assert!(
            (proj.distance - 1.5).abs() < 1e-5,
            "distance {}",
            proj.distance
        );
        assert!(
            (proj.point - Point::new(0.3, 0.5, -0.4)).norm() < 1e-5,
            "{:?}",
            proj.point
        );
    }
}

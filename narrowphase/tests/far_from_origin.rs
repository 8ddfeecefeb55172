//! Every query far from the origin: translating a pair (or a ray and its shape, or a mesh and
//! the shape against it) as a whole by 10⁵ m must not change its answers beyond 10⁻⁴ of the
//! shapes' size (about 1 m), for every pair of kinds.
//!
//! The property tests place each pair near the origin with translations on the grid of 1/128 m
//! (the spacing of `f32` between 65 536 and 131 072), then add a translation of 0.7·10⁵ to
//! 1.3·10⁵ m per coordinate: every far coordinate is exact, so the far pair has the near
//! pair's relative pose bit for bit, and any difference in the answers is the queries' own.
//! Depths, normals, distances, times of impact and ray parameters are compared to 10⁻⁴ m.
//! Points are reported in world coordinates, spaced 1/128 m apart at 10⁵ m: a ray's hit point
//! is compared to that spacing; a contact point, a closest point or a cast's witness is
//! checked to lie on its shapes (in their boxes, grown by the depth, 10⁻⁴ m and that spacing),
//! since it is not unique where features meet along a stretch (two nearly parallel edges:
//! one rounding more or less moves the point along it, at the origin as far from it).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::f32::consts::FRAC_1_SQRT_2;
use tumble_narrowphase::math::{Isometry, Point, Real, Rotation, Translation, Vector};
use tumble_narrowphase::mesh::{HeightField, TriMesh};
use tumble_narrowphase::query::{
    closest_points, contact_any, distance, intersects_any, ClosestPoints,
};
use tumble_narrowphase::ray::{ray_shape, Ray, RayHit};
use tumble_narrowphase::shape::{Ball, Capsule, ConvexPolyhedron, Cuboid, Shape, Triangle};
use tumble_narrowphase::sweep::{cast_shape, time_of_impact, CastHit, CastOptions};
use tumble_narrowphase::Manifold;

fn unit_box() -> Shape {
    Shape::from(Cuboid::new(Vector::new(0.5, 0.5, 0.5)).unwrap())
}

fn depth(pa: &Isometry, a: &Shape, pb: &Isometry, b: &Shape) -> Option<Real> {
    contact_any(pa, a, pb, b, 0.0).unwrap().map(|m| m.depth())
}

/// The triangle of the issue report against a unit box at x = 10⁵.
#[test]
fn far_triangle_box_depth_is_not_quantised() {
    let tri = Shape::from(
        Triangle::new(
            Point::new(-0.4, -0.3, 0.0),
            Point::new(0.4, -0.3, 0.0),
            Point::new(0.0, 0.5, 0.0),
        )
        .unwrap(),
    );
    let rot = Rotation::from_quaternion(nalgebra::Quaternion::new(0.8253356, 0.0, 0.5646425, 0.0));
    let pa = Isometry::translation(100000.0, 0.0, 0.0);
    let pb = Isometry::from_parts(Translation::new(1e5 + 0.6171875, 0.0546875, 0.03125), rot);
    let near = depth(
        &Isometry::identity(),
        &unit_box(),
        &Isometry::from_parts(Translation::new(0.6171875, 0.0546875, 0.03125), rot),
        &tri,
    )
    .expect("touching at the origin");
    assert!((near - 0.0277556).abs() < 1e-6, "at the origin: {near}");
    let far = depth(&pa, &unit_box(), &pb, &tri).expect("touching far away");
    assert!((far - near).abs() <= 1e-4, "far {far} near {near}");
}

/// The capsule of the issue report against a unit box at x = 10⁵.
#[test]
fn far_capsule_box_depth_is_not_quantised() {
    let cap = Shape::from(Capsule::new(0.3, 0.1).unwrap());
    let rot = Rotation::from_quaternion(nalgebra::Quaternion::new(
        FRAC_1_SQRT_2,
        FRAC_1_SQRT_2,
        0.0,
        0.0,
    ));
    let pa = Isometry::translation(100000.0, 0.0, 0.0);
    let pb = Isometry::from_parts(Translation::new(1e5 + 0.5546875, 0.5546875, 0.0), rot);
    let near = depth(
        &Isometry::identity(),
        &unit_box(),
        &Isometry::from_parts(Translation::new(0.5546875, 0.5546875, 0.0), rot),
        &cap,
    )
    .expect("touching at the origin");
    assert!((near - 0.0226602).abs() < 1e-6, "at the origin: {near}");
    let far = depth(&pa, &unit_box(), &pb, &cap).expect("touching far away");
    assert!((far - near).abs() <= 1e-4, "far {far} near {near}");
}

/// The shapes' size scale, metres (their largest extent is about 1 m).
const SIZE: Real = 1.0;
/// How far a far answer may be from the near one: 10⁻⁴ of the size.
const TOL: Real = 1e-4 * SIZE;
/// The spacing of `f32` world coordinates near 10⁵ m: a far point is reported rounded to it.
const WORLD_ULP: Real = 1.0 / 128.0;
/// Prediction distance of the contact queries, metres.
const PREDICTION: Real = 0.05;

/// The kinds of shape `random_shape` makes, by its index: the five convex kinds and a compound.
const KINDS: [&str; 6] = ["ball", "cuboid", "capsule", "triangle", "hull", "compound"];

fn random_shape(rng: &mut ChaCha8Rng, kind: usize) -> Shape {
    let s = |rng: &mut ChaCha8Rng| rng.gen_range(0.15..0.5);
    match kind {
        // Two or three convex children, each up to 0.4 m from the compound's origin.
        5 => {
            let children: Vec<(Isometry, Shape)> = (0..rng.gen_range(2..=3))
                .map(|_| {
                    let kind = rng.gen_range(0..5);
                    let at = pose_at(grid_vector(rng, 0.4), random_rotation(rng));
                    (at, random_shape(rng, kind))
                })
                .collect();
            Shape::compound(children).unwrap()
        }
        0 => Shape::from(Ball::new(s(rng)).unwrap()),
        1 => Shape::from(Cuboid::new(Vector::new(s(rng), s(rng), s(rng))).unwrap()),
        2 => Shape::from(Capsule::new(s(rng), s(rng) * 0.5).unwrap()),
        3 => loop {
            let mut p = || Point::new(s(rng) * 2.0 - 0.5, s(rng) * 2.0 - 0.5, 0.0);
            if let Ok(t) = Triangle::new(p(), p(), p()) {
                return Shape::from(t);
            }
        },
        _ => loop {
            let pts: Vec<Point> = (0..10)
                .map(|_| {
                    Point::new(
                        rng.gen_range(-0.5..0.5),
                        rng.gen_range(-0.5..0.5),
                        rng.gen_range(-0.5..0.5),
                    )
                })
                .collect();
            if let Ok(h) = ConvexPolyhedron::from_points(&pts) {
                return Shape::from(h);
            }
        },
    }
}

fn random_rotation(rng: &mut ChaCha8Rng) -> Rotation {
    Rotation::from_quaternion(nalgebra::Quaternion::new(
        rng.gen_range(-1.0..1.0),
        rng.gen_range(-1.0..1.0),
        rng.gen_range(-1.0..1.0),
        rng.gen_range(-1.0..1.0),
    ))
}

/// A vector whose coordinates are multiples of 1/128 m in `[−lim, lim]`.
fn grid_vector(rng: &mut ChaCha8Rng, lim: Real) -> Vector {
    let k = (lim * 128.0) as i32;
    Vector::from_fn(|_, _| rng.gen_range(-k..=k) as Real / 128.0)
}

/// A translation of 0.7·10⁵ to 1.3·10⁵ m on each axis, either sign.
fn far_shift(rng: &mut ChaCha8Rng) -> Vector {
    Vector::from_fn(|_, _| {
        let x: Real = rng.gen_range(0.7e5..1.3e5);
        if rng.gen_bool(0.5) {
            x
        } else {
            -x
        }
    })
}

/// A pose at the grid translation `t` with rotation `r`.
fn pose_at(t: Vector, r: Rotation) -> Isometry {
    Isometry::from_parts(Translation::from(t), r)
}

/// `pose` translated by `shift`, checked exact: the far pose differs from the near one by
/// `shift` and nothing else.
fn moved(pose: &Isometry, shift: &Vector) -> Isometry {
    let far = pose_at(pose.translation.vector + shift, pose.rotation);
    assert_eq!(
        far.translation.vector - shift,
        pose.translation.vector,
        "a far translation is not exact"
    );
    far
}

/// The far value of a quantity against the near one: within [`TOL`] once multiplied by
/// `scale` (metres per unit of it: 1 for lengths, the speed for a time).
fn assert_near(quantity: &str, near: Real, far: Real, scale: Real, what: &str) {
    assert!(
        (near - far).abs() * scale <= TOL,
        "{what}: {quantity} {far} far, {near} near"
    );
}

/// The far normal against the near one, within [`TOL`].
fn assert_same_normal(near: &Vector, far: &Vector, what: &str) {
    assert!(
        (near - far).norm() <= TOL,
        "{what}: normal {far:?} far, {near:?} near"
    );
}

/// The far point `far` brought back by `shift` (exact) against the near point `near`.
fn assert_same_point(near: &Point, far: &Point, shift: &Vector, what: &str) {
    let back = far - shift;
    assert!(
        (back - near).amax() <= WORLD_ULP,
        "{what}: point {back:?} far (moved back), {near:?} near"
    );
}

/// One shape under its near pose.
type Placed<'a> = (&'a Shape, &'a Isometry);

/// The far point `far`, brought back by `shift` (exact), lies in the box of each of `on` grown
/// by `margin`, 10⁻⁴ m and the spacing of far world coordinates.
fn assert_point_on(far: &Point, shift: &Vector, on: &[Placed], margin: Real, what: &str) {
    let back = far - shift;
    for (shape, pose) in on {
        assert!(
            shape
                .aabb(pose)
                .loosened(margin + TOL + WORLD_ULP)
                .contains_point(&back),
            "{what}: point {back:?} (far, moved back) off the shape {shape:?} at {pose:?}"
        );
    }
}

/// How far beyond its depth a contact point may lie from the shapes: 0 for a convex pair
/// (each point is midway between the surfaces along the normal); [`PREDICTION`] for a mesh
/// or compound pair, whose reduced manifold takes each part's point depth along the reduced
/// normal (so a point is within the prediction distance of both shapes, not within that
/// depth).
fn point_slack(pair: &[Placed; 2]) -> Real {
    if pair
        .iter()
        .any(|(s, _)| s.is_mesh() || matches!(s, Shape::Compound(_)))
    {
        PREDICTION
    } else {
        0.0
    }
}

/// The same contact, near and far: depth, normal, point count, point depths and ids; each
/// far point on both shapes.
fn assert_same_manifold(
    near: &Manifold,
    far: &Manifold,
    shift: &Vector,
    pair: [Placed; 2],
    what: &str,
) {
    assert_near("depth", near.depth(), far.depth(), 1.0, what);
    assert_same_normal(&near.normal, &far.normal, what);
    assert_eq!(
        near.len(),
        far.len(),
        "{what}: point count\n{near:?}\n{far:?}"
    );
    for (p, q) in near.points().iter().zip(far.points()) {
        assert_near("point depth", p.depth, q.depth, 1.0, what);
        assert_eq!(p.id, q.id, "{what}: point ids");
        let margin = q.depth.abs() + point_slack(&pair);
        assert_point_on(&q.point, shift, &pair, margin, what);
    }
}

/// Near and far contacts with [`PREDICTION`]: the same manifold, or none on both sides,
/// or one only at the edge of the prediction distance. True when both had a manifold.
fn assert_same_contact(
    near: Option<Manifold>,
    far: Option<Manifold>,
    shift: &Vector,
    pair: [Placed; 2],
    what: &str,
) -> bool {
    match (near, far) {
        (Some(n), Some(f)) => {
            assert_same_manifold(&n, &f, shift, pair, what);
            true
        }
        (None, None) => false,
        (n, f) => {
            let d = n.or(f).unwrap().depth();
            assert!(
                (d + PREDICTION).abs() <= TOL,
                "{what}: contact {} far, {} near, depth {d}",
                f.is_some(),
                n.is_some()
            );
            false
        }
    }
}

/// Near and far boolean tests agree, unless the pair touches within [`TOL`] (`depth`: the
/// near contact's depth, if any).
fn assert_same_test(near: bool, far: bool, depth: Option<Real>, what: &str) {
    if near != far {
        let d = depth.unwrap_or(-PREDICTION);
        assert!(
            d.abs() <= TOL,
            "{what}: intersecting {far} far, {near} near (depth {d})"
        );
    }
}

/// The same closest points, near and far: distance, normal; each far point on its shape.
fn assert_same_closest(
    near: &ClosestPoints,
    far: &ClosestPoints,
    shift: &Vector,
    [a, b]: [Placed; 2],
    what: &str,
) {
    assert_near("distance", near.distance, far.distance, 1.0, what);
    assert_same_normal(&near.normal, &far.normal, what);
    let depth = (-far.distance).max(0.0);
    assert_point_on(&far.point_a, shift, &[a], depth, what);
    assert_point_on(&far.point_b, shift, &[b], depth, what);
}

/// Every pair of kinds (ball, box, capsule, triangle, hull, compound), in both orders, from
/// penetrating to a few centimetres apart, near the origin and 10⁵ m away: the same contact
/// (depth, normal, points), boolean test, distance and closest points.
#[test]
fn far_pairs_match_the_pair_at_the_origin() {
    let mut rng = ChaCha8Rng::seed_from_u64(0xfa4);
    let (mut compared, mut apart) = (0, 0);
    for (kind_a, name_a) in KINDS.iter().enumerate() {
        for (kind_b, name_b) in KINDS.iter().enumerate() {
            for _ in 0..150 {
                let a = random_shape(&mut rng, kind_a);
                let b = random_shape(&mut rng, kind_b);
                let shift = far_shift(&mut rng);
                let ta = grid_vector(&mut rng, 0.5);
                let tb = ta + grid_vector(&mut rng, 0.8);
                let pa = pose_at(ta, random_rotation(&mut rng));
                let pb = pose_at(tb, random_rotation(&mut rng));
                let (fa, fb) = (moved(&pa, &shift), moved(&pb, &shift));
                let what = format!("{}/{}\n{a:?} {pa:?}\n{b:?} {pb:?}", name_a, name_b);
                let near = contact_any(&pa, &a, &pb, &b, PREDICTION).unwrap();
                let far = contact_any(&fa, &a, &fb, &b, PREDICTION).unwrap();
                let depth = near.map(|m| m.depth());
                let pair = [(&a, &pa), (&b, &pb)];
                compared += assert_same_contact(near, far, &shift, pair, &what) as usize;
                assert_same_test(
                    intersects_any(&pa, &a, &pb, &b).unwrap(),
                    intersects_any(&fa, &a, &fb, &b).unwrap(),
                    depth,
                    &what,
                );
                let (dn, df) = (
                    distance(&pa, &a, &pb, &b).unwrap(),
                    distance(&fa, &a, &fb, &b).unwrap(),
                );
                assert_near("distance", dn, df, 1.0, &what);
                apart += (dn > TOL) as usize;
                assert_same_closest(
                    &closest_points(&pa, &a, &pb, &b).unwrap(),
                    &closest_points(&fa, &a, &fb, &b).unwrap(),
                    &shift,
                    pair,
                    &what,
                );
            }
        }
    }
    assert!(compared > 1000, "only {compared} contacts compared");
    assert!(apart > 500, "only {apart} pairs apart");
}

/// The same cast hit, near and far: time (to [`TOL`] of motion), status, normal; each far
/// witness on its shape at the far time (`moving`: each shape's near pose and velocity).
fn assert_same_cast(
    near: &CastHit,
    far: &CastHit,
    speed: Real,
    shift: &Vector,
    moving: [(&Shape, &Isometry, &Vector); 2],
    what: &str,
) {
    assert_eq!(near.status, far.status, "{what}: status");
    assert_near("time of impact", near.toi, far.toi, speed, what);
    assert_same_normal(&near.normal, &far.normal, what);
    let [(a, pa, va), (b, pb, vb)] = moving;
    let at = |p: &Isometry, v: &Vector| pose_at(p.translation.vector + v * far.toi, p.rotation);
    let (pa, pb) = (at(pa, va), at(pb, vb));
    // The witnesses are the closest points at `toi`: `depth` apart when the pair starts
    // penetrating (`CastStatus::StartedWithin`), the skin (0) apart otherwise.
    let depth = (far.witness_b - far.witness_a).norm();
    assert_point_on(&far.witness_a, shift, &[(a, &pa)], depth, what);
    assert_point_on(&far.witness_b, shift, &[(b, &pb)], depth, what);
}

/// The same time of impact (a fraction of the motion, `speed` metres long), near and far, or
/// none on both sides. True when there was one.
fn assert_same_toi(near: Option<Real>, far: Option<Real>, speed: Real, what: &str) -> bool {
    match (near, far) {
        (Some(n), Some(f)) => {
            assert_near("time of impact", n, f, speed, what);
            true
        }
        (None, None) => false,
        (n, f) => panic!("{what}: time of impact {f:?} far, {n:?} near"),
    }
}

/// Every pair of kinds (the compound included), B thrown at A from 1–2 m away (or passing by), near the origin
/// and 10⁵ m away: the same `cast_shape` hit and the same conservative-advancement time of
/// impact.
#[test]
fn far_casts_match_the_cast_at_the_origin() {
    let mut rng = ChaCha8Rng::seed_from_u64(0xfa5);
    let options = CastOptions {
        tolerance: 1e-5,
        ..CastOptions::default()
    };
    let (mut casts, mut tois) = (0, 0);
    for (kind_a, name_a) in KINDS.iter().enumerate() {
        for (kind_b, name_b) in KINDS.iter().enumerate() {
            for _ in 0..60 {
                let a = random_shape(&mut rng, kind_a);
                let b = random_shape(&mut rng, kind_b);
                let shift = far_shift(&mut rng);
                let ta = grid_vector(&mut rng, 0.5);
                let offset = grid_vector(&mut rng, 2.0);
                let pa = pose_at(ta, random_rotation(&mut rng));
                let pb = pose_at(ta + offset, random_rotation(&mut rng));
                let (fa, fb) = (moved(&pa, &shift), moved(&pb, &shift));
                // Toward A, give or take half a metre: most hit, some pass by.
                let vel_b = -offset + grid_vector(&mut rng, 0.5);
                let vel_a = grid_vector(&mut rng, 0.25);
                let speed = (vel_b - vel_a).norm();
                let what = format!(
                    "{}/{}\n{a:?} {pa:?} {vel_a:?}\n{b:?} {pb:?} {vel_b:?}",
                    name_a, name_b
                );
                let near = cast_shape(&pa, &vel_a, &a, &pb, &vel_b, &b, &options).unwrap();
                let far = cast_shape(&fa, &vel_a, &a, &fb, &vel_b, &b, &options).unwrap();
                match (near, far) {
                    (Some(n), Some(f)) => {
                        let moving = [(&a, &pa, &vel_a), (&b, &pb, &vel_b)];
                        assert_same_cast(&n, &f, speed, &shift, moving, &what);
                        casts += 1;
                    }
                    (None, None) => {}
                    (n, f) => panic!("{what}: cast {f:?} far, {n:?} near"),
                }
                let slop = 0.005;
                let near = time_of_impact(&a, &pa, &vel_a, &b, &pb, &vel_b, slop);
                let far = time_of_impact(&a, &fa, &vel_a, &b, &fb, &vel_b, slop);
                tois += assert_same_toi(near, far, speed, &what) as usize;
            }
        }
    }
    assert!(casts > 600, "only {casts} casts hit");
    assert!(tois > 600, "only {tois} times of impact");
}

/// The same ray hit, near and far: `t` (to [`TOL`] along the ray), normal, point.
fn assert_same_hit(near: &RayHit, far: &RayHit, dir_len: Real, shift: &Vector, what: &str) {
    assert_near("t", near.t, far.t, dir_len, what);
    assert_same_normal(&near.normal, &far.normal, what);
    assert_same_point(&near.point, &far.point, shift, what);
}

/// A small bumpy triangle mesh (5 × 5 samples over 2 × 2 m) and a heightfield of other samples.
fn meshes(rng: &mut ChaCha8Rng) -> [Shape; 2] {
    let n = 5;
    let heights: Vec<Real> = (0..n * n).map(|_| rng.gen_range(-0.15..0.15)).collect();
    let vertices: Vec<Point> = (0..n * n)
        .map(|k| {
            let (i, j) = ((k % n) as Real, (k / n) as Real);
            Point::new(i * 0.5 - 1.0, heights[k], j * 0.5 - 1.0)
        })
        .collect();
    let mut indices = Vec::new();
    for j in 0..n - 1 {
        for i in 0..n - 1 {
            let v = (j * n + i) as u32;
            let n = n as u32;
            indices.push([v, v + n, v + 1]);
            indices.push([v + n, v + n + 1, v + 1]);
        }
    }
    let field: Vec<Real> = (0..n * n).map(|_| rng.gen_range(-0.3..0.3)).collect();
    [
        Shape::from(TriMesh::new(&vertices, &indices).unwrap()),
        Shape::from(HeightField::new(n, n, &field, Vector::new(2.0, 0.5, 2.0)).unwrap()),
    ]
}

/// Rays at every kind of shape (the five convex kinds, a compound, a triangle mesh, a
/// heightfield), from 1–3 m away toward a point near the shape, near the origin and 10⁵ m
/// away: the same hit.
#[test]
fn far_rays_match_the_ray_at_the_origin() {
    let mut rng = ChaCha8Rng::seed_from_u64(0xfa6);
    let mut hits = [0; 8];
    for (kind, hits) in hits.iter_mut().enumerate() {
        for _ in 0..300 {
            let shape = if kind < KINDS.len() {
                random_shape(&mut rng, kind)
            } else {
                meshes(&mut rng)[kind - KINDS.len()].clone()
            };
            let shift = far_shift(&mut rng);
            let pose = pose_at(grid_vector(&mut rng, 0.5), random_rotation(&mut rng));
            let origin = Point::from(pose.translation.vector + grid_vector(&mut rng, 3.0));
            let aim = match &shape {
                // A point of the triangle (it has no inside to aim near).
                Shape::Triangle(t) => {
                    let [x, y, z] = t.world_corners(&pose);
                    let (u, v): (Real, Real) = (rng.gen_range(0.0..1.0), rng.gen_range(0.0..1.0));
                    let (u, v) = if u + v > 1.0 {
                        (1.0 - u, 1.0 - v)
                    } else {
                        (u, v)
                    };
                    x + (y - x) * u + (z - x) * v
                }
                _ => Point::from(pose.translation.vector) + grid_vector(&mut rng, 0.5),
            };
            let dir = (aim - origin) * rng.gen_range(0.5..2.0);
            let Ok(ray) = Ray::new(origin, dir) else {
                continue;
            };
            let far_ray = Ray::new(origin + shift, dir).unwrap();
            assert_eq!(
                far_ray.origin() - shift,
                origin,
                "a far origin is not exact"
            );
            let far_pose = moved(&pose, &shift);
            let what = format!("{shape:?} {pose:?} {ray:?}");
            let near = ray_shape(&ray, &pose, &shape, 10.0);
            let far = ray_shape(&far_ray, &far_pose, &shape, 10.0);
            match (near, far) {
                (Some(n), Some(f)) => {
                    assert_same_hit(&n, &f, dir.norm(), &shift, &what);
                    *hits += 1;
                }
                (None, None) => {}
                (n, f) => panic!("{what}: hit {f:?} far, {n:?} near"),
            }
        }
    }
    assert!(hits.iter().all(|&h| h > 60), "hits per kind: {hits:?}");
}

/// A triangle mesh and a heightfield against every convex kind and a compound, in both orders,
/// resting on or just above the surface (and swept down at it), near the origin and 10⁵ m
/// away: the same reduced contact, boolean test, distance, closest points and time of impact.
#[test]
fn far_mesh_pairs_match_the_pair_at_the_origin() {
    let mut rng = ChaCha8Rng::seed_from_u64(0xfa7);
    let (mut compared, mut tois) = (0, 0);
    for mesh_kind in 0..2 {
        for kind in 0..KINDS.len() {
            for _ in 0..80 {
                let mesh = meshes(&mut rng)[mesh_kind].clone();
                let other = random_shape(&mut rng, kind);
                let shift = far_shift(&mut rng);
                let pm = pose_at(grid_vector(&mut rng, 0.5), random_rotation(&mut rng));
                // Over the mesh (within its 2 × 2 m), near its surface: up to 0.7 m from its
                // middle plane in its frame, the offset rounded to the grid.
                let up =
                    (pm.rotation * grid_vector(&mut rng, 0.7)).map(|x| (x * 128.0).round() / 128.0);
                let po = pose_at(pm.translation.vector + up, random_rotation(&mut rng));
                let (fm, fo) = (moved(&pm, &shift), moved(&po, &shift));
                let what = format!("{mesh:?} {pm:?}\n{other:?} {po:?}");
                for swap in [false, true] {
                    let [(a, pa, fa), (b, pb, fb)] = if swap {
                        [(&other, &po, &fo), (&mesh, &pm, &fm)]
                    } else {
                        [(&mesh, &pm, &fm), (&other, &po, &fo)]
                    };
                    let near = contact_any(pa, a, pb, b, PREDICTION).unwrap();
                    let far = contact_any(fa, a, fb, b, PREDICTION).unwrap();
                    let depth = near.map(|m| m.depth());
                    let pair = [(a, pa), (b, pb)];
                    compared += assert_same_contact(near, far, &shift, pair, &what) as usize;
                    assert_same_test(
                        intersects_any(pa, a, pb, b).unwrap(),
                        intersects_any(fa, a, fb, b).unwrap(),
                        depth,
                        &what,
                    );
                    let (dn, df) = (
                        distance(pa, a, pb, b).unwrap(),
                        distance(fa, a, fb, b).unwrap(),
                    );
                    assert_near("distance", dn, df, 1.0, &what);
                    assert_same_closest(
                        &closest_points(pa, a, pb, b).unwrap(),
                        &closest_points(fa, a, fb, b).unwrap(),
                        &shift,
                        pair,
                        &what,
                    );
                }
                let down = -(pm.rotation * Vector::y()) + grid_vector(&mut rng, 0.25);
                let zero = Vector::zeros();
                let near = time_of_impact(&other, &po, &down, &mesh, &pm, &zero, 0.005);
                let far = time_of_impact(&other, &fo, &down, &mesh, &fm, &zero, 0.005);
                tois += assert_same_toi(near, far, down.norm(), &what) as usize;
            }
        }
    }
    assert!(compared > 500, "only {compared} contacts compared");
    assert!(tois > 100, "only {tois} times of impact");
}

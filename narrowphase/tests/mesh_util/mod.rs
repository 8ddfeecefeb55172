//! Shared helpers of the mesh and heightfield tests: the two mesh types behind one trait, the
//! shapes to throw at them, and brute-force oracles that loop over every triangle with the
//! crate's per-pair kernels (no hierarchy, no grid walk).
#![allow(dead_code)]

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use tumble_narrowphase::contact::Manifold;
use tumble_narrowphase::gjk::{self, GjkResult, Segment, SinglePoint};
use tumble_narrowphase::math::{Isometry, Point, Real, Rotation, Translation, Vector};
use tumble_narrowphase::mesh::{HeightField, MeshContact, MeshRayHit, MeshToi, TriMesh};
use tumble_narrowphase::query::{closest_points, contact_any, distance, intersects_any};
use tumble_narrowphase::ray::{ray_triangle, Ray};
use tumble_narrowphase::shape::{Ball, Capsule, ConvexPolyhedron, Cuboid, ShapeRef, Triangle};
use tumble_narrowphase::sweep::{sweep_sphere_triangle, time_of_impact};

/// The queries of both mesh types.
pub trait MeshLike {
    fn count(&self) -> usize;
    fn tri(&self, id: u32) -> Triangle;
    fn view(&self) -> ShapeRef<'_>;
    fn contacts(&self, mp: &Isometry, op: &Isometry, o: ShapeRef, pred: Real) -> Vec<MeshContact>;
    fn tri_contact(
        &self,
        id: u32,
        mp: &Isometry,
        op: &Isometry,
        o: ShapeRef,
        pred: Real,
    ) -> Option<Manifold>;
    fn intersects(&self, mp: &Isometry, op: &Isometry, o: ShapeRef) -> bool;
    fn ray(&self, mp: &Isometry, ray: &Ray, max_t: Real) -> Option<MeshRayHit>;
    fn sweep(
        &self,
        mp: &Isometry,
        p0: &Isometry,
        s: ShapeRef,
        motion: &Vector,
        slop: Real,
    ) -> Option<MeshToi>;
}

macro_rules! mesh_like {
    ($t:ty) => {
        impl MeshLike for $t {
            fn count(&self) -> usize {
                self.triangle_count()
            }
            fn tri(&self, id: u32) -> Triangle {
                self.triangle(id).expect("id in range")
            }
            fn view(&self) -> ShapeRef<'_> {
                ShapeRef::from(self)
            }
            fn contacts(
                &self,
                mp: &Isometry,
                op: &Isometry,
                o: ShapeRef,
                pred: Real,
            ) -> Vec<MeshContact> {
                let mut out = Vec::new();
                <$t>::contacts(self, mp, op, o, pred, &mut out).expect("supported pair");
                out
            }
            fn tri_contact(
                &self,
                id: u32,
                mp: &Isometry,
                op: &Isometry,
                o: ShapeRef,
                pred: Real,
            ) -> Option<Manifold> {
                self.triangle_contact(id, mp, op, o, pred)
                    .expect("supported pair")
            }
            fn intersects(&self, mp: &Isometry, op: &Isometry, o: ShapeRef) -> bool {
                self.intersection_test(mp, op, o).expect("supported pair")
            }
            fn ray(&self, mp: &Isometry, ray: &Ray, max_t: Real) -> Option<MeshRayHit> {
                self.cast_ray(mp, ray, max_t)
            }
            fn sweep(
                &self,
                mp: &Isometry,
                p0: &Isometry,
                s: ShapeRef,
                motion: &Vector,
                slop: Real,
            ) -> Option<MeshToi> {
                self.cast_shape(mp, p0, s, motion, slop)
            }
        }
    };
}
mesh_like!(TriMesh);
mesh_like!(HeightField);

/// One shape of every kind the crate collides, about 0.3–1 m across.
pub struct Shapes {
    pub ball: Ball,
    pub cuboid: Cuboid,
    pub capsule: Capsule,
    pub tri: Triangle,
    pub hull: ConvexPolyhedron,
}

impl Shapes {
    pub fn new() -> Self {
        let hull_points: Vec<Point> = (0..12)
            .map(|k| {
                let a = k as Real * 0.9;
                Point::new(0.4 * a.cos(), 0.3 * ((k % 3) as Real - 1.0), 0.35 * a.sin())
            })
            .collect();
        Shapes {
            ball: Ball::new(0.35).unwrap(),
            cuboid: Cuboid::new(Vector::new(0.5, 0.2, 0.3)).unwrap(),
            capsule: Capsule::new(0.4, 0.15).unwrap(),
            tri: Triangle::new(
                Point::new(-0.5, 0.0, -0.2),
                Point::new(0.4, 0.1, 0.3),
                Point::new(0.0, -0.3, 0.5),
            )
            .unwrap(),
            hull: ConvexPolyhedron::from_points(&hull_points).unwrap(),
        }
    }

    pub fn views(&self) -> [ShapeRef<'_>; 5] {
        [
            ShapeRef::from(&self.ball),
            ShapeRef::from(&self.cuboid),
            ShapeRef::from(&self.capsule),
            ShapeRef::from(&self.tri),
            ShapeRef::from(&self.hull),
        ]
    }
}

/// `query::closest_points` and `query::distance` of the mesh (at `mp`) and `s` (at `op`), as A
/// and as B, against the least over every triangle of the same queries on the triangle at
/// `mp`: the same signed distance bit for bit, the normal flipped with the order.
pub fn check_distance(m: &dyn MeshLike, mp: &Isometry, op: &Isometry, s: ShapeRef) {
    let brute = |mesh_first: bool| {
        (0..m.count() as u32)
            .map(|id| {
                let t = m.tri(id);
                let c = if mesh_first {
                    closest_points(mp, &t, op, s)
                } else {
                    closest_points(op, s, mp, &t)
                };
                c.expect("triangle pair").distance
            })
            .fold(Real::INFINITY, Real::min)
    };
    let want = brute(true);
    let got = closest_points(mp, m.view(), op, s).expect("mesh pair");
    assert_eq!(got.distance, want, "{} at {op}", s.kind_name());
    assert!((got.normal.norm() - 1.0).abs() < 1e-4);
    let swapped = closest_points(op, s, mp, m.view()).expect("mesh pair as B");
    assert_eq!(swapped.distance, brute(false), "{} as A", s.kind_name());
    let d = distance(mp, m.view(), op, s).expect("mesh distance");
    assert!(
        (d - want.max(0.0)).abs() <= 1e-5 * (1.0 + want.abs()),
        "{} distance {d} against {want}",
        s.kind_name()
    );
}

/// A uniformly random rotation (Shoemake).
pub fn rotation(r: &mut ChaCha8Rng) -> Rotation {
    let (u1, u2, u3): (f64, f64, f64) = (r.gen(), r.gen(), r.gen());
    let tau = std::f64::consts::TAU;
    Rotation::from_quaternion(nalgebra::Quaternion::new(
        (u1.sqrt() * (tau * u3).cos()) as Real,
        ((1.0 - u1).sqrt() * (tau * u2).sin()) as Real,
        ((1.0 - u1).sqrt() * (tau * u2).cos()) as Real,
        (u1.sqrt() * (tau * u3).sin()) as Real,
    ))
}

/// A point uniform in the box `[lo, hi]`.
pub fn point_in(r: &mut ChaCha8Rng, lo: &Point, hi: &Point) -> Point {
    Point::new(
        r.gen_range(lo.x..=hi.x),
        r.gen_range(lo.y..=hi.y),
        r.gen_range(lo.z..=hi.z),
    )
}

/// A random pose whose centre is uniform in `[lo, hi]`.
pub fn pose_in(r: &mut ChaCha8Rng, lo: &Point, hi: &Point) -> Isometry {
    let c = point_in(r, lo, hi);
    Isometry::from_parts(Translation::from(c.coords), rotation(r))
}

/// A random unit vector.
pub fn direction(r: &mut ChaCha8Rng) -> Vector {
    loop {
        let v = Vector::new(
            r.gen_range(-1.0..1.0),
            r.gen_range(-1.0..1.0),
            r.gen_range(-1.0..1.0),
        );
        let n = v.norm();
        if n > 0.1 && n <= 1.0 {
            return v / n;
        }
    }
}

/// Brute force: the triangles the per-pair boolean kernel finds overlapping.
pub fn brute_intersects(m: &dyn MeshLike, mp: &Isometry, op: &Isometry, o: ShapeRef) -> bool {
    (0..m.count() as u32).any(|i| intersects_any(mp, &m.tri(i), op, o).expect("supported"))
}

/// Brute force: the ids of the triangles the raw (uncorrected) per-pair contact kernel
/// reports within `pred`.
pub fn brute_contact_ids(
    m: &dyn MeshLike,
    mp: &Isometry,
    op: &Isometry,
    o: ShapeRef,
    pred: Real,
) -> Vec<u32> {
    (0..m.count() as u32)
        .filter(|&i| {
            contact_any(mp, &m.tri(i), op, o, pred)
                .expect("supported")
                .is_some()
        })
        .collect()
}

/// Brute force: the earliest hit over every triangle (world corners), lowest id on ties.
pub fn brute_ray(m: &dyn MeshLike, mp: &Isometry, ray: &Ray, max_t: Real) -> Option<(u32, Real)> {
    let mut best: Option<(u32, Real)> = None;
    for i in 0..m.count() as u32 {
        let [a, b, c] = m.tri(i).world_corners(mp);
        if let Some(h) = ray_triangle(ray, &a, &b, &c, max_t) {
            if best.is_none_or(|(_, t)| h.t < t) {
                best = Some((i, h.t));
            }
        }
    }
    best
}

/// Brute force: the earliest time of impact over every triangle, with the rule the mesh sweep
/// documents: exact sphere sweep for a ball; for other shapes `t = 0` when within `slop` at
/// the start, else conservative advancement.
pub fn brute_sweep(
    m: &dyn MeshLike,
    mp: &Isometry,
    p0: &Isometry,
    s: ShapeRef,
    motion: &Vector,
    slop: Real,
) -> Option<(u32, Real)> {
    let mut best: Option<(u32, Real)> = None;
    for i in 0..m.count() as u32 {
        let tri = m.tri(i);
        let t = match s {
            ShapeRef::Ball(b) => {
                let [x, y, z] = tri.world_corners(mp);
                let c0 = Point::from(p0.translation.vector);
                sweep_sphere_triangle(&c0, &(c0 + motion), b.radius(), &x, &y, &z).map(|t| t.t)
            }
            _ => match contact_any(mp, &tri, p0, s, slop).expect("supported") {
                Some(c) if c.depth() >= -slop => Some(0.0),
                _ => time_of_impact(&tri, mp, &Vector::zeros(), s, p0, motion, slop),
            },
        };
        if let Some(t) = t {
            if best.is_none_or(|(_, b)| t < b) {
                best = Some((i, t));
            }
        }
    }
    best
}

/// Checks every query of `m` against the brute-force oracles for `n` random placements of
/// every shape kind inside `[lo, hi]` (mesh at `mp`); returns how many placements touched,
/// how many rays hit and how many sweeps hit, so callers can check the cases were not all
/// misses.
pub fn check_against_brute_force(
    m: &dyn MeshLike,
    mp: &Isometry,
    r: &mut ChaCha8Rng,
    lo: &Point,
    hi: &Point,
    n: usize,
) -> (usize, usize, usize) {
    let shapes = Shapes::new();
    let (mut touching, mut ray_hits, mut sweep_hits) = (0, 0, 0);
    let mut missed_far = 0;
    for _ in 0..n {
        for s in shapes.views() {
            let op = pose_in(r, lo, hi);
            // Boolean test.
            let want = brute_intersects(m, mp, &op, s);
            assert_eq!(m.intersects(mp, &op, s), want, "{} at {op}", s.kind_name());
            touching += want as usize;
            // Contacts: the same triangles as the raw kernel, and each manifold the one the
            // single-triangle query gives.
            let pred = r.gen_range(0.0..0.1);
            let got = m.contacts(mp, &op, s, pred);
            let ids: Vec<u32> = got.iter().map(|c| c.triangle).collect();
            let want = brute_contact_ids(m, mp, &op, s, pred);
            // Every reported triangle is one the raw kernel reports; a triangle the raw kernel
            // reports but the mesh does not lies truly farther than `pred` (the kernel's
            // separating-axis bound called it near, but its box is beyond reach).
            for i in &ids {
                assert!(
                    want.contains(i),
                    "{}: triangle {i} not in {want:?}",
                    s.kind_name()
                );
            }
            for w in &want {
                if !ids.contains(w) {
                    let d = true_distance(&m.tri(*w), mp, s, &op);
                    assert!(
                        d > pred - 1e-4,
                        "{} at {op}: triangle {w} at distance {d} missing (prediction {pred})",
                        s.kind_name()
                    );
                }
            }
            missed_far += want.len() - ids.len();
            for c in &got {
                assert_eq!(
                    Some(c.manifold),
                    m.tri_contact(c.triangle, mp, &op, s, pred)
                );
                assert!((c.manifold.normal.norm() - 1.0).abs() < 1e-4);
                assert!(c.manifold.depth() >= -pred - 1e-5);
            }
            // Closest points and distance: the least over every triangle, in both orders.
            check_distance(m, mp, &op, s);
            // Sweep from the placement toward a random point of the box.
            let target = point_in(r, lo, hi);
            let motion = target - Point::from(op.translation.vector);
            let slop = 1e-3;
            let got = m.sweep(mp, &op, s, &motion, slop);
            let want = brute_sweep(m, mp, &op, s, &motion, slop);
            match (got, want) {
                (None, None) => {}
                (Some(g), Some((wi, wt))) => {
                    sweep_hits += 1;
                    assert!(
                        (g.toi.t - wt).abs() <= 1e-5,
                        "{}: sweep t {} (triangle {}) against brute force {wt} (triangle {wi})",
                        s.kind_name(),
                        g.toi.t,
                        g.triangle
                    );
                    assert!((g.toi.normal.norm() - 1.0).abs() < 1e-4);
                }
                (g, w) => panic!("{}: sweep {g:?} against brute force {w:?}", s.kind_name()),
            }
        }
        // A ray from a random point toward a random direction.
        let origin = point_in(r, lo, hi);
        // Half aimed at another point of the box, half in a random direction.
        let dir = if r.gen_bool(0.5) {
            (point_in(r, lo, hi) - origin)
                .try_normalize(1e-3)
                .unwrap_or_else(|| direction(r))
        } else {
            direction(r)
        };
        let ray = Ray::new(origin, dir * r.gen_range(0.5..2.0)).unwrap();
        let max_t = if r.gen_bool(0.5) {
            Real::INFINITY
        } else {
            r.gen_range(0.0..5.0)
        };
        let got = m.ray(mp, &ray, max_t);
        let want = brute_ray(m, mp, &ray, max_t);
        match (got, want) {
            (None, None) => {}
            (Some(g), Some((wi, wt))) => {
                ray_hits += 1;
                assert!(
                    (g.hit.t - wt).abs() <= 1e-5,
                    "ray t {} (triangle {}) against brute force {wt} (triangle {wi})",
                    g.hit.t,
                    g.triangle
                );
                // Another triangle only when it is hit at the same time.
                if g.triangle != wi {
                    let [a, b, c] = m.tri(g.triangle).world_corners(mp);
                    let own = ray_triangle(&ray, &a, &b, &c, max_t).expect("reported triangle hit");
                    assert!((own.t - wt).abs() <= 1e-5);
                }
            }
            (g, w) => panic!("ray {ray:?} max_t {max_t}: {g:?} against brute force {w:?}"),
        }
    }
    // The far pairs are rare: most of the raw kernel's contacts are the mesh's too.
    assert!(missed_far * 20 <= touching.max(1), "{missed_far} far pairs");
    (touching, ray_hits, sweep_hits)
}

/// The distance between triangle `tri` (placed by `mp`) and shape `s` at `op`, by GJK (0 when
/// they overlap).
pub fn true_distance(tri: &Triangle, mp: &Isometry, s: ShapeRef, op: &Isometry) -> Real {
    let c = Point::from(op.translation.vector);
    let (d, r) = match s {
        ShapeRef::Ball(b) => (
            gjk::distance(mp, tri, &Isometry::identity(), &SinglePoint(c)),
            b.radius(),
        ),
        ShapeRef::Capsule(k) => {
            let (a, b) = k.segment(op);
            (
                gjk::distance(mp, tri, &Isometry::identity(), &Segment { a, b }),
                k.radius(),
            )
        }
        ShapeRef::Cuboid(k) => (gjk::distance(mp, tri, op, k), 0.0),
        ShapeRef::Triangle(k) => (gjk::distance(mp, tri, op, k), 0.0),
        ShapeRef::Convex(k) => (gjk::distance(mp, tri, op, k), 0.0),
        ShapeRef::TriMesh(_) | ShapeRef::HeightField(_) | ShapeRef::Compound(_) => {
            panic!("the oracle measures convex shapes against a triangle")
        }
    };
    match d {
        GjkResult::Separated { distance, .. } => (distance - r).max(0.0),
        _ => 0.0,
    }
}

/// Where a body slides: on the plane y = `top`, its lowest point `sink` metres below it,
/// along x over `xs` (400 steps) on each line z ∈ `zs`.
pub struct Slide {
    pub top: Real,
    /// Negative: the body hovers that far above the plane (seen through `prediction`).
    pub sink: Real,
    pub prediction: Real,
    pub xs: std::ops::Range<Real>,
    pub zs: Vec<Real>,
}

/// The normals of every contact of a body (lowest point `bottom` metres below its centre)
/// lying on a flat surface (the plane y = `top`,
/// normal +y) as it slides across the seams: returns (largest deviation of a corrected
/// normal from +y, number of raw kernel normals deviating by more than 10⁻³, depth error).
pub fn slide_across_seams(
    m: &dyn MeshLike,
    s: ShapeRef,
    bottom: Real,
    plan: &Slide,
    yaw: Real,
) -> (Real, usize, Real) {
    let Slide {
        top,
        sink,
        prediction,
        xs,
        zs,
    } = plan;
    let (top, sink, prediction) = (*top, *sink, *prediction);
    let (mut worst, mut raw_sideways, mut depth_err): (Real, usize, Real) = (0.0, 0, 0.0);
    let steps = 400;
    for &z in zs.iter() {
        for k in 0..=steps {
            let x = xs.start + (xs.end - xs.start) * k as Real / steps as Real;
            // The body's lowest point sits `sink` below the surface.
            let pose = Isometry::from_parts(
                Translation::new(x, top + bottom - sink, z),
                Rotation::from_axis_angle(&Vector::y_axis(), yaw),
            );
            let got = m.contacts(&Isometry::identity(), &pose, s, prediction);
            assert!(!got.is_empty(), "no contact at x = {x}, z = {z}");
            let mut deepest = Real::NEG_INFINITY;
            for c in &got {
                worst = worst.max((c.manifold.normal - Vector::y()).norm());
                deepest = deepest.max(c.manifold.depth());
                let raw = contact_any(
                    &Isometry::identity(),
                    &m.tri(c.triangle),
                    &pose,
                    s,
                    prediction,
                )
                .unwrap()
                .expect("the raw kernel touches too");
                if (raw.normal - Vector::y()).norm() > 1e-3 {
                    raw_sideways += 1;
                }
            }
            depth_err = depth_err.max((deepest - sink).abs());
        }
    }
    (worst, raw_sideways, depth_err)
}

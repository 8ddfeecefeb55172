//! Compounds (`tumble_narrowphase::shape::Compound`) against oracles over seeded random
//! children and poses:
//!
//! - a compound of one child answers every query as that child at the composed pose (the
//!   compound's pose times the child's), bit for bit where the compound calls the same
//!   kernel, with the contact's feature ids mixed with the child index; the compound computes
//!   in its own frame (its position the origin, [`compound_frame`]), so the child is asked in
//!   that frame too and its points moved back;
//! - a compound of several children is their union: boolean test = OR over the children,
//!   distance = min, signed distance = min, ray `t` = min, shape cast and time of impact = the
//!   earliest child; its contact holds only points of its children's contacts, with distinct
//!   ids;
//! - against another compound, a mesh and a heightfield, the same over child pairs;
//! - contact feature ids stay the same while a compound slides a little.

mod common;

use common::*;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;
use tumble_narrowphase::contact::Manifold;
use tumble_narrowphase::math::{Isometry, Point, Real, Translation, Vector};
use tumble_narrowphase::mesh::{HeightField, TriMesh};
use tumble_narrowphase::query::{
    closest_points, contact, distance, intersection_test, signed_distance, ClosestPoints,
    QueryError,
};
use tumble_narrowphase::ray::{ray_shape, Ray, RayHit};
use tumble_narrowphase::shape::{
    compound_feature_id, Ball, Capsule, Compound, ConvexPolyhedron, Cuboid, Shape, Triangle,
};
use tumble_narrowphase::sweep::{cast_shape, time_of_impact, CastHit, CastOptions};

/// A random convex shape about `s` across: ball, cuboid, capsule, triangle or hull.
fn convex(r: &mut ChaCha8Rng, s: Real) -> Shape {
    match r.gen_range(0..5) {
        0 => Ball::new(r.gen_range(0.2..0.6) * s).unwrap().into(),
        1 => Cuboid::new(half_extents(r, s * 0.6)).unwrap().into(),
        2 => Capsule::new(r.gen_range(0.1..0.5) * s, r.gen_range(0.1..0.3) * s)
            .unwrap()
            .into(),
        3 => loop {
            let p = [(); 3].map(|_| Point::from(direction(r) * s * 0.6));
            if let Ok(t) = Triangle::new(p[0], p[1], p[2]) {
                break t.into();
            }
        },
        _ => loop {
            let pts: Vec<Point> = (0..r.gen_range(4..12))
                .map(|_| Point::from(direction(r) * s * r.gen_range(0.3..0.6)))
                .collect();
            if let Ok(h) = ConvexPolyhedron::from_points(&pts) {
                break h.into();
            }
        },
    }
}

/// A random compound of `n` convex children within about `spread` of its origin.
fn compound_of(r: &mut ChaCha8Rng, n: usize, spread: Real) -> Compound {
    let children = (0..n)
        .map(|_| {
            let c = Vector::new(
                r.gen_range(-spread..spread),
                r.gen_range(-spread..spread),
                r.gen_range(-spread..spread),
            );
            (pose(r, c), convex(r, 1.0))
        })
        .collect();
    Compound::new(children).unwrap()
}

/// A pose near the origin: the shapes meet, touch or miss.
fn near(r: &mut ChaCha8Rng) -> Isometry {
    let c = Vector::new(
        r.gen_range(-2.0..2.0),
        r.gen_range(-2.0..2.0),
        r.gen_range(-2.0..2.0),
    );
    pose(r, c)
}

/// The compound's frame, as its queries compute in it: the compound's pose `pc` and another
/// pose `po` moved by the compound's position (which is then the origin), and that position.
/// A child placed under the moved `pc` ([`placed`]) is where the compound asks it.
fn compound_frame(pc: &Isometry, po: &Isometry) -> (Isometry, Isometry, Vector) {
    let o = pc.translation.vector;
    let moved = |p: &Isometry| {
        Isometry::from_parts(Translation::from(p.translation.vector - o), p.rotation)
    };
    (moved(pc), moved(po), o)
}

/// The ray moved by `-o` (as [`compound_frame`] moves poses).
fn moved_ray(ray: &Ray, o: &Vector) -> Ray {
    Ray::new(ray.origin() - o, ray.dir()).unwrap()
}

/// A hit of the moved ray, in world space: its point on the world `ray`.
fn hit_back(ray: &Ray, h: RayHit) -> RayHit {
    RayHit {
        point: ray.point_at(h.t),
        ..h
    }
}

/// Closest points of the compound's frame moved back to world space.
fn closest_back(c: ClosestPoints, o: &Vector) -> ClosestPoints {
    ClosestPoints {
        point_a: c.point_a + o,
        point_b: c.point_b + o,
        ..c
    }
}

/// A cast hit of the compound's frame moved back to world space.
fn cast_back(h: CastHit, o: &Vector) -> CastHit {
    CastHit {
        witness_a: h.witness_a + o,
        witness_b: h.witness_b + o,
        ..h
    }
}

/// The compound's children, each with its pose under `pose`.
fn placed(c: &Compound, pose: &Isometry) -> Vec<(Isometry, Shape)> {
    c.children()
        .iter()
        .map(|(p, s)| (pose * p, s.clone()))
        .collect()
}

fn close(a: Real, b: Real, tol: Real) -> bool {
    (a - b).abs() <= tol * (1.0 + a.abs().max(b.abs()))
}

/// The manifold of the child (computed in the compound's frame, whose origin is `o`) with its
/// points moved back to world space and its ids mixed as the compound mixes them.
fn with_child_ids(m: &Manifold, child: u32, o: &Vector) -> Vec<(Point, Real, u32)> {
    m.points()
        .iter()
        .map(|p| (p.point + o, p.depth, compound_feature_id(child, p.id)))
        .collect()
}

/// The boolean test of the pair gives `expected` in both orders.
fn assert_test_both_ways(pa: &Isometry, a: &Shape, pb: &Isometry, b: &Shape, expected: bool) {
    assert_eq!(intersection_test(pa, a, pb, b).unwrap(), expected);
    assert_eq!(intersection_test(pb, b, pa, a).unwrap(), expected);
}

fn points(m: &Manifold) -> Vec<(Point, Real, u32)> {
    m.points()
        .iter()
        .map(|p| (p.point, p.depth, p.id))
        .collect()
}

/// A compound of one child is that child at the composed pose: every query, both orders.
#[test]
fn one_child_is_the_child_at_the_composed_pose() {
    let mut r = rng(21);
    let (mut hits, mut contacts) = (0, 0);
    for k in 0..1500 {
        let one = compound_of(&mut r, 1, 0.8);
        let c = Shape::from(one.clone());
        let other = convex(&mut r, 1.0);
        let pc = near(&mut r);
        let at = pc.translation.vector + direction(&mut r) * r.gen_range(0.0..2.0);
        let po = pose(&mut r, at);
        let (pc_f, po_f, o) = compound_frame(&pc, &po);
        let (child_pose, child) = placed(&one, &pc_f).remove(0);

        let t = intersection_test(&pc, &c, &po, &other).unwrap();
        assert_eq!(
            t,
            intersection_test(&child_pose, &child, &po_f, &other).unwrap()
        );
        assert_eq!(
            intersection_test(&po, &other, &pc, &c).unwrap(),
            intersection_test(&po_f, &other, &child_pose, &child).unwrap(),
            "case {k}"
        );
        hits += t as usize;

        let pred = 0.1;
        let mc = contact(&pc, &c, &po, &other, pred).unwrap();
        let mo = contact(&child_pose, &child, &po_f, &other, pred).unwrap();
        match (&mc, &mo) {
            (Some(a), Some(b)) => {
                assert_eq!(a.normal, b.normal, "case {k}");
                assert_eq!(a.depth(), b.depth(), "case {k}");
                assert_eq!(points(a), with_child_ids(b, 0, &o), "case {k}");
                contacts += 1;
            }
            (None, None) => {}
            // The compound skips a child whose box is beyond the prediction distance: the
            // child's kernel may still report a speculative contact there (its gap is a
            // lower bound), but the pair is truly farther than `pred`.
            (None, Some(_)) => {
                let d = distance(&child_pose, &child, &po_f, &other).unwrap();
                assert!(d > pred * 0.99, "case {k}: culled a child {d} m away");
            }
            (Some(_), None) => panic!("case {k}: the compound has a contact its child has not"),
        }
        let flipped = contact(&po, &other, &pc, &c, pred).unwrap();
        assert_eq!(flipped.map(|m| m.normal), mc.map(|m| -m.normal), "case {k}");

        assert_eq!(
            distance(&pc, &c, &po, &other),
            distance(&child_pose, &child, &po_f, &other)
        );
        assert_eq!(
            closest_points(&pc, &c, &po, &other),
            closest_points(&child_pose, &child, &po_f, &other).map(|c| closest_back(c, &o)),
            "case {k}"
        );
        assert_eq!(
            closest_points(&po, &other, &pc, &c),
            closest_points(&po_f, &other, &child_pose, &child).map(|c| closest_back(c, &o)),
            "case {k}"
        );

        let origin = Point::from(po.translation.vector) + direction(&mut r) * 4.0;
        let target = Point::from(pc.translation.vector) + direction(&mut r) * 0.5;
        let ray = Ray::new(origin, (target - origin) * 0.5).unwrap();
        assert_eq!(
            ray_shape(&ray, &pc, &c, 4.0),
            ray_shape(&moved_ray(&ray, &o), &child_pose, &child, 4.0).map(|h| hit_back(&ray, h)),
            "case {k}"
        );

        let v = direction(&mut r) * 3.0;
        let opts = CastOptions::with_t_max(1.5);
        let z = Vector::zeros();
        let back = |h: Result<Option<CastHit>, QueryError>| h.map(|h| h.map(|h| cast_back(h, &o)));
        assert_eq!(
            cast_shape(&po, &v, &other, &pc, &z, &c, &opts),
            back(cast_shape(
                &po_f,
                &v,
                &other,
                &child_pose,
                &z,
                &child,
                &opts
            )),
            "case {k}"
        );
        assert_eq!(
            cast_shape(&pc, &v, &c, &po, &z, &other, &opts),
            back(cast_shape(
                &child_pose,
                &v,
                &child,
                &po_f,
                &z,
                &other,
                &opts
            )),
            "case {k}"
        );
        let toi_c = time_of_impact(&c, &pc, &v, &other, &po, &z, 0.005);
        let toi_o = time_of_impact(&child, &child_pose, &v, &other, &po_f, &z, 0.005);
        assert_eq!(toi_c, toi_o, "case {k}");
    }
    assert!(
        hits > 150 && contacts > 200,
        "{hits} hits, {contacts} contacts"
    );
}

/// A compound of several children is their union: OR, min, earliest, over the children.
#[test]
fn several_children_are_their_union() {
    let mut r = rng(22);
    let (mut hits, mut contacts, mut rays, mut casts) = (0, 0, 0, 0);
    for k in 0..800 {
        let n = r.gen_range(2..7);
        let comp = compound_of(&mut r, n, 1.2);
        let c = Shape::from(comp.clone());
        let pc = near(&mut r);
        let other = convex(&mut r, 1.0);
        let at = pc.translation.vector + direction(&mut r) * r.gen_range(0.0..2.5);
        let po = pose(&mut r, at);
        // The children as the compound asks them, in its frame (see `compound_frame`), with
        // `po_f` the other shape's pose there.
        let (pc_f, po_f, o) = compound_frame(&pc, &po);
        let kids = placed(&comp, &pc_f);

        let any = kids
            .iter()
            .any(|(p, s)| intersection_test(p, s, &po_f, &other).unwrap());
        assert_test_both_ways(&pc, &c, &po, &other, any);
        hits += any as usize;

        let d_min = kids
            .iter()
            .map(|(p, s)| distance(p, s, &po_f, &other).unwrap())
            .fold(Real::INFINITY, Real::min);
        let d = distance(&pc, &c, &po, &other).unwrap();
        assert!(close(d, d_min, 1e-6), "case {k}: {d} vs {d_min}");
        let s_min = kids
            .iter()
            .map(|(p, s)| signed_distance(p, s, &po_f, &other).unwrap())
            .fold(Real::INFINITY, Real::min);
        let cp = closest_points(&pc, &c, &po, &other).unwrap();
        assert!(
            close(cp.distance, s_min, 1e-6),
            "case {k}: {} vs {s_min}",
            cp.distance
        );
        assert!((cp.normal.norm() - 1.0).abs() < 1e-4);
        let back = closest_points(&po, &other, &pc, &c).unwrap();
        assert!(close(back.distance, s_min, 1e-6), "case {k}");
        assert!((back.normal + cp.normal).norm() < 1e-5, "case {k}");

        // Contact: present when some child is; its points are children's points.
        let pred = 0.05;
        let per_child: Vec<Option<Manifold>> = kids
            .iter()
            .map(|(p, s)| contact(p, s, &po_f, &other, pred).unwrap())
            .collect();
        let m = contact(&pc, &c, &po, &other, pred).unwrap();
        if any {
            let m = m.unwrap_or_else(|| panic!("case {k}: overlapping, no contact"));
            contacts += 1;
            assert!((m.normal.norm() - 1.0).abs() < 1e-4);
            assert!(!m.is_empty() && m.len() <= 4);
            let ids: BTreeSet<u32> = m.points().iter().map(|p| p.id).collect();
            assert_eq!(ids.len(), m.len(), "case {k}: repeated ids");
            for p in m.points() {
                let from_child = per_child.iter().enumerate().any(|(i, cm)| {
                    cm.as_ref().is_some_and(|cm| {
                        cm.points().iter().any(|q| {
                            q.point + o == p.point && compound_feature_id(i as u32, q.id) == p.id
                        })
                    })
                });
                assert!(from_child, "case {k}: a point no child has");
            }
            // The deepest child's normal.
            let deepest = per_child
                .iter()
                .flatten()
                .map(|cm| (cm.max_depth(), cm.normal))
                .fold((Real::NEG_INFINITY, Vector::zeros()), |a, b| {
                    if b.0 > a.0 {
                        b
                    } else {
                        a
                    }
                });
            assert_eq!(m.normal, deepest.1, "case {k}");
            let f = contact(&po, &other, &pc, &c, pred).unwrap().unwrap();
            assert_eq!(f.normal, -m.normal);
        } else if m.is_some() {
            assert!(per_child.iter().any(Option::is_some), "case {k}");
        }

        // Ray: the least t over the children.
        let origin = Point::from(pc.translation.vector) + direction(&mut r) * 5.0;
        let target = Point::from(pc.translation.vector) + direction(&mut r) * 0.8;
        let ray = Ray::new(origin, target - origin).unwrap();
        let t_min = kids
            .iter()
            .filter_map(|(p, s)| ray_shape(&moved_ray(&ray, &o), p, s, 2.0).map(|h| h.t))
            .fold(None, |a: Option<Real>, t| Some(a.map_or(t, |a| a.min(t))));
        let hit = ray_shape(&ray, &pc, &c, 2.0);
        assert_eq!(hit.is_some(), t_min.is_some(), "case {k}");
        if let (Some(h), Some(t)) = (hit, t_min) {
            assert!(close(h.t, t, 1e-5), "case {k}: {} vs {t}", h.t);
        }
        rays += hit.is_some() as usize;
        if let Some(h) = comp.cast_ray(&pc, &ray, 2.0) {
            let (p, s) = &kids[h.child as usize];
            assert_eq!(
                ray_shape(&moved_ray(&ray, &o), p, s, 2.0).map(|x| hit_back(&ray, x)),
                Some(h.hit),
                "case {k}"
            );
        }

        // Shape cast and time of impact: the earliest child.
        let v = (Vector::from(pc.translation.vector) - po.translation.vector) * 1.5
            + direction(&mut r) * 0.5;
        let z = Vector::zeros();
        let opts = CastOptions::with_t_max(1.0);
        let min_toi = |hits: &mut dyn Iterator<Item = Option<Real>>| {
            hits.flatten()
                .fold(None, |a: Option<Real>, t| Some(a.map_or(t, |a| a.min(t))))
        };
        // Each child's search stops at the earliest time so far; the closed-form sweeps scale
        // their fraction of the motion by it, so the times agree to rounding.
        let same = |t: Option<Real>, earliest: Option<Real>| match (t, earliest) {
            (Some(a), Some(b)) => close(a, b, 1e-5),
            (a, b) => a == b,
        };
        let earliest = min_toi(&mut kids.iter().map(|(p, s)| {
            cast_shape(&po_f, &v, &other, p, &z, s, &opts)
                .unwrap()
                .map(|h| h.toi)
        }));
        let h = cast_shape(&po, &v, &other, &pc, &z, &c, &opts).unwrap();
        let toi = h.map(|h| h.toi);
        assert!(same(toi, earliest), "case {k}: {h:?} vs {earliest:?}");
        let earliest = min_toi(&mut kids.iter().map(|(p, s)| {
            cast_shape(p, &(-v), s, &po_f, &z, &other, &opts)
                .unwrap()
                .map(|h| h.toi)
        }));
        let h2 = cast_shape(&pc, &(-v), &c, &po, &z, &other, &opts).unwrap();
        let toi = h2.map(|h| h.toi);
        assert!(same(toi, earliest), "case {k}: {h2:?} vs {earliest:?}");
        casts += h.is_some() as usize;

        let slop = 0.005;
        let touching = kids.iter().any(|(p, s)| {
            contact(p, s, &po_f, &other, slop)
                .unwrap()
                .is_some_and(|m| m.max_depth() >= -slop)
        });
        let toi = time_of_impact(&other, &po, &v, &c, &pc, &z, slop);
        if touching {
            assert_eq!(toi, None, "case {k}");
        } else {
            let first = kids
                .iter()
                .filter_map(|(p, s)| time_of_impact(&other, &po_f, &v, s, p, &z, slop))
                .fold(None, |a: Option<Real>, t| Some(a.map_or(t, |a| a.min(t))));
            assert_eq!(toi, first, "case {k}");
        }
    }
    assert!(
        hits > 100 && contacts > 100 && rays > 150 && casts > 150,
        "{hits} hits, {contacts} contacts, {rays} rays, {casts} casts"
    );
}

/// Two compounds: OR and min over every pair of children, in both orders.
#[test]
fn compound_against_compound_is_over_child_pairs() {
    let mut r = rng(23);
    let mut hits = 0;
    for k in 0..300 {
        let (na, nb) = (r.gen_range(1..5), r.gen_range(1..5));
        let (ca, cb) = (compound_of(&mut r, na, 1.0), compound_of(&mut r, nb, 1.0));
        let pa = near(&mut r);
        let at = pa.translation.vector + direction(&mut r) * 1.5;
        let pb = pose(&mut r, at);
        let (ka, kb) = (placed(&ca, &pa), placed(&cb, &pb));
        let (sa, sb) = (Shape::from(ca), Shape::from(cb));
        let mut any = false;
        let mut d_min = Real::INFINITY;
        for (p, s) in &ka {
            for (q, t) in &kb {
                any |= intersection_test(p, s, q, t).unwrap();
                d_min = d_min.min(distance(p, s, q, t).unwrap());
            }
        }
        assert_test_both_ways(&pa, &sa, &pb, &sb, any);
        assert!(
            close(distance(&pa, &sa, &pb, &sb).unwrap(), d_min, 1e-6),
            "case {k}"
        );
        assert!(
            close(distance(&pb, &sb, &pa, &sa).unwrap(), d_min, 1e-6),
            "case {k}"
        );
        let m = contact(&pa, &sa, &pb, &sb, 0.0).unwrap();
        if any {
            let m = m.unwrap_or_else(|| panic!("case {k}: overlapping, no contact"));
            let ids: BTreeSet<u32> = m.points().iter().map(|p| p.id).collect();
            assert_eq!(ids.len(), m.len(), "case {k}: repeated ids");
            hits += 1;
        }
    }
    assert!(hits > 30, "{hits}");
}

/// A compound against a mesh and a heightfield: the boolean test is the OR of its children's,
/// the contact one manifold pointing out of the ground, the ray the least over both.
#[test]
fn compound_against_meshes() {
    // A bumpy 8 × 8 m heightfield and the same surface as a triangle mesh.
    let n = 9;
    let heights: Vec<Real> = (0..n * n)
        .map(|i| 0.2 * ((i % n) as Real * 0.9).sin() * ((i / n) as Real * 0.7).cos())
        .collect();
    let hf = HeightField::new(n, n, &heights, Vector::new(8.0, 1.0, 8.0)).unwrap();
    let mesh: TriMesh = hf.to_trimesh().unwrap();
    let grounds = [Shape::from(hf), Shape::from(mesh)];
    let mut r = rng(24);
    let mut hits = 0;
    for k in 0..300 {
        let n = r.gen_range(1..5);
        let comp = compound_of(&mut r, n, 0.8);
        let at = Vector::new(
            r.gen_range(-3.0..3.0),
            r.gen_range(-0.5..1.5),
            r.gen_range(-3.0..3.0),
        );
        let pc = pose(&mut r, at);
        let id = Isometry::identity();
        // The children as the compound asks them, in its frame, with `ground` the ground's
        // pose there (see `compound_frame`).
        let (pc_f, ground, _) = compound_frame(&pc, &id);
        let kids = placed(&comp, &pc_f);
        let c = Shape::from(comp);
        for g in &grounds {
            let any = kids
                .iter()
                .any(|(p, s)| intersection_test(&ground, g, p, s).unwrap());
            assert_test_both_ways(&pc, &c, &id, g, any);
            let m = contact(&id, g, &pc, &c, 0.0).unwrap();
            if any {
                let m = m.unwrap_or_else(|| panic!("case {k}: overlapping, no contact"));
                // The normal of the child whose own contact with the ground is deepest.
                let deepest = kids
                    .iter()
                    .filter_map(|(p, s)| contact(&ground, g, p, s, 0.0).unwrap())
                    .fold(None, |a: Option<Manifold>, m| match a {
                        Some(a) if a.max_depth() >= m.max_depth() => Some(a),
                        _ => Some(m),
                    })
                    .unwrap();
                assert_eq!(m.normal, deepest.normal, "case {k}");
                hits += 1;
            }
            // Distance: the least over the children of each child's distance to the ground.
            let least = kids
                .iter()
                .map(|(p, s)| distance(p, s, &ground, g).unwrap())
                .fold(Real::INFINITY, Real::min);
            assert_eq!(distance(&pc, &c, &id, g).unwrap(), least, "case {k}");
        }
    }
    assert!(hits > 100, "{hits}");
}

/// A table (top and four legs) resting on a box: the legs' feet are the contact, four points
/// with normal +y; sliding the table a millimetre keeps every feature id.
#[test]
fn table_contact_ids_are_stable() {
    let top = Shape::from(Cuboid::new(Vector::new(1.0, 0.05, 0.6)).unwrap());
    let leg = Shape::from(Cuboid::new(Vector::new(0.05, 0.4, 0.05)).unwrap());
    let mut children = vec![(Isometry::translation(0.0, 0.85, 0.0), top)];
    for (x, z) in [(-0.9, -0.5), (0.9, -0.5), (-0.9, 0.5), (0.9, 0.5)] {
        children.push((Isometry::translation(x, 0.4, z), leg.clone()));
    }
    let table = Shape::compound(children).unwrap();
    let ground = Cuboid::new(Vector::new(5.0, 0.5, 5.0)).unwrap();
    let pg = Isometry::translation(0.0, -0.5, 0.0);
    let mut last: Option<Vec<u32>> = None;
    for step in 0..20 {
        let pt = Isometry::translation(0.001 * step as Real, -0.002, 0.0005 * step as Real);
        let m = contact(&pg, &ground, &pt, &table, 0.02).unwrap().unwrap();
        assert!((m.normal - Vector::y()).norm() < 1e-6);
        assert_eq!(m.len(), 4);
        assert!((m.depth() - 0.002).abs() < 1e-5);
        // Corners of the feet, spanning the table.
        for p in m.points() {
            let (x, z) = (p.point.x - pt.translation.x, p.point.z - pt.translation.z);
            assert!((x.abs() - 0.9).abs() < 0.051 && (z.abs() - 0.5).abs() < 0.051);
        }
        let span = |f: fn(&Point) -> Real| {
            let v: Vec<Real> = m.points().iter().map(|p| f(&p.point)).collect();
            v.iter().copied().fold(Real::MIN, Real::max)
                - v.iter().copied().fold(Real::MAX, Real::min)
        };
        assert!(span(|p| p.x) > 1.7 && span(|p| p.z) > 0.9);
        let ids: Vec<u32> = m.points().iter().map(|p| p.id).collect();
        if let Some(l) = &last {
            assert_eq!(l, &ids, "step {step}: ids changed");
        }
        last = Some(ids);
    }
}

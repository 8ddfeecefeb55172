//! Property tests over many random pairs (thin plates, long sticks, near-touching, nested,
//! huge and tiny, rotated at random): the fast cuboid–cuboid, triangle–cuboid and triangle–triangle
//! tests agree with the generic convex SAT built from corners and with an independent GJK
//! distance, except within 10⁻⁴ × size of touching; contact depths pass the
//! minimal-translation check; contact points lie in both shapes within tolerance.

mod common;

use common::*;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use tumble_narrowphase::gjk::{self, Segment};
use tumble_narrowphase::math::{Isometry, Point, Real, Translation, Vector};
use tumble_narrowphase::query::{contact, intersection_test};
use tumble_narrowphase::sat::convex::{convex_convex, Posed};
use tumble_narrowphase::shape::{Ball, Capsule, ConvexPolyhedron, Cuboid, Shape};

fn hull(r: &mut ChaCha8Rng, s: Real) -> ConvexPolyhedron {
    let n = r.gen_range(4..24);
    let stretch = Vector::new(
        r.gen_range(0.1..1.0),
        r.gen_range(0.1..1.0),
        r.gen_range(0.1..1.0),
    );
    loop {
        let pts: Vec<Point> = (0..n)
            .map(|_| {
                let d = direction(r);
                Point::from(d.component_mul(&stretch) * s * r.gen_range(0.5..1.0))
            })
            .collect();
        if let Ok(h) = ConvexPolyhedron::from_points(&pts) {
            return h;
        }
    }
}

fn centres(r: &mut ChaCha8Rng, s: Real, reach: Real) -> (Vector, Vector) {
    let ca = Vector::new(
        r.gen_range(-5.0..5.0),
        r.gen_range(-5.0..5.0),
        r.gen_range(-5.0..5.0),
    ) * s;
    // Mostly around the touching distance; sometimes nested (centres close).
    let f = if r.gen_range(0..6) == 0 {
        r.gen_range(0.0..0.2)
    } else {
        r.gen_range(0.2..1.1)
    };
    (ca, ca + direction(r) * f * reach)
}

const SCALES: [Real; 4] = [1.0, 1e-3, 1e3, 0.05];

#[test]
fn cuboid_cuboid_fast_generic_and_gjk_agree() {
    let mut r = rng(11);
    let mut seen = [0usize; 2];
    for k in 0..6000 {
        let s = SCALES[k % 4];
        let (ea, eb) = (half_extents(&mut r, s), half_extents(&mut r, s));
        let (ca, cb) = centres(&mut r, s, ea.norm() + eb.norm());
        let (pa, pb) = (pose(&mut r, ca), pose(&mut r, cb));
        let (ba, bb) = (Cuboid::new(ea).unwrap(), Cuboid::new(eb).unwrap());
        let fast = intersection_test(&pa, &Shape::from(ba), &pb, &Shape::from(bb)).unwrap();
        let (ha, hb) = (
            ConvexPolyhedron::from_cuboid(&ba),
            ConvexPolyhedron::from_cuboid(&bb),
        );
        let generic = convex_convex(&Posed::new(&ha, &pa), &Posed::new(&hb, &pb)).is_none();
        let d = gjk_distance(&pa, &ba, &pb, &bb);
        let sep = brute_cuboid_cuboid(&pa, &ea, &pb, &eb);
        if near_touching(sep, d, s) {
            continue;
        }
        agree(&mut seen, k, fast, generic, d, sep);
    }
    assert!(seen[0] > 1000 && seen[1] > 1000, "{seen:?}");
}

#[test]
fn triangle_cuboid_fast_generic_and_gjk_agree() {
    let mut r = rng(12);
    let mut seen = [0usize; 2];
    for k in 0..6000 {
        let s = SCALES[k % 4];
        let t = random_triangle(&mut r, s);
        let e = half_extents(&mut r, s);
        let (ca, cb) = centres(&mut r, s, s * 1.7 + e.norm());
        let (pa, pb) = (pose(&mut r, ca), pose(&mut r, cb));
        let c = Cuboid::new(e).unwrap();
        let fast = intersection_test(&pa, &Shape::from(t), &pb, &Shape::from(c)).unwrap();
        let rev = intersection_test(&pb, &Shape::from(c), &pa, &Shape::from(t)).unwrap();
        assert_eq!(fast, rev);
        let (ht, hc) = (
            ConvexPolyhedron::from_triangle(&t),
            ConvexPolyhedron::from_cuboid(&c),
        );
        let generic = convex_convex(&Posed::new(&ht, &pa), &Posed::new(&hc, &pb)).is_none();
        let d = gjk_distance(&pa, &t, &pb, &c);
        let sep = brute_poly(&pa, &ht, &pb, &hc);
        if near_touching(sep, d, s) {
            continue;
        }
        agree(&mut seen, k, fast, generic, d, sep);
    }
    assert!(seen[0] > 1000 && seen[1] > 1000, "{seen:?}");
}

#[test]
fn triangle_triangle_fast_generic_and_gjk_agree() {
    let mut r = rng(13);
    let mut seen = [0usize; 2];
    for k in 0..6000 {
        let s = SCALES[k % 4];
        let (ta, tb) = (random_triangle(&mut r, s), random_triangle(&mut r, s));
        let (ca, cb) = centres(&mut r, s, s * 0.5);
        let pa = pose(&mut r, ca);
        // One case in five: B in A's plane (coplanar triangles).
        let pb = if k % 5 == 0 {
            let n = pa.rotation * ta.normal();
            let off = cb - ca;
            Isometry::from_parts(Translation::from(ca + off - n * n.dot(&off)), pa.rotation)
        } else {
            pose(&mut r, cb)
        };
        let fast = intersection_test(&pa, &Shape::from(ta), &pb, &Shape::from(tb)).unwrap();
        let (ha, hb) = (
            ConvexPolyhedron::from_triangle(&ta),
            ConvexPolyhedron::from_triangle(&tb),
        );
        let generic = convex_convex(&Posed::new(&ha, &pa), &Posed::new(&hb, &pb)).is_none();
        let d = gjk_distance(&pa, &ta, &pb, &tb);
        let sep = brute_poly(&pa, &ha, &pb, &hb);
        if near_touching(sep, d, s) {
            continue;
        }
        if k % 5 == 0 && d == 0.0 && sep > 0.0 {
            // Coplanar, apart in the plane: GJK's flat simplex may stop at distance 0 only
            // when the shapes touch; a positive brute separation means it must not.
            panic!("case {k}: GJK says touching, brute separation {sep}");
        }
        agree(&mut seen, k, fast, generic, d, sep);
    }
    assert!(seen[0] > 1000 && seen[1] > 1000, "{seen:?}");
}

#[test]
fn hulls_are_valid_and_sat_agrees_with_gjk() {
    let mut r = rng(14);
    for k in 0..1500 {
        let s = SCALES[k % 4];
        let (a, b) = (hull(&mut r, s), hull(&mut r, s));
        a.validate().unwrap_or_else(|e| panic!("case {k}: {e}"));
        for v in a.vertices() {
            for f in a.faces() {
                let v0 = a.vertices()[a.face_loop(f)[0] as usize];
                assert!(f.normal.dot(&(v - v0)) <= 1e-4 * s);
            }
        }
        let (ca, cb) = centres(&mut r, s, 2.0 * s);
        let (pa, pb) = (pose(&mut r, ca), pose(&mut r, cb));
        let (sa, sb) = (Shape::from(a.clone()), Shape::from(b.clone()));
        let hit = intersection_test(&pa, &sa, &pb, &sb).unwrap();
        let d = gjk_distance(&pa, &a, &pb, &b);
        let sep = brute_poly(&pa, &a, &pb, &b);
        if near_touching(sep, d, s) {
            continue;
        }
        assert_eq!(hit, d == 0.0, "case {k}: SAT vs GJK {d}");
        assert_eq!(hit, sep < 0.0, "case {k}: SAT vs brute {sep}");
        check_contact(
            &pa,
            &sa,
            &pb,
            &sb,
            s,
            &|pb: &Isometry| brute_poly(&pa, &a, pb, &b),
            k,
        );
    }
}

/// True within the stated tolerance of touching (10⁻⁴ of the scale `s`), where the oracles
/// may legitimately disagree: `sep` is the brute-force SAT separation, `d` the GJK distance.
fn near_touching(sep: Real, d: Real, s: Real) -> bool {
    let tol = 1e-4 * s;
    sep.abs() < tol || (d > 0.0 && d < tol)
}

/// Asserts that a fast boolean test agrees with the generic SAT (`generic`: intersecting) and
/// with the GJK distance `d` of case `k`, and counts the verdict in `seen`.
fn agree(seen: &mut [usize; 2], k: usize, fast: bool, generic: bool, d: Real, sep: Real) {
    seen[fast as usize] += 1;
    assert_eq!(fast, generic, "case {k}: fast vs generic SAT (sep {sep})");
    assert_eq!(
        fast,
        d == 0.0,
        "case {k}: fast vs GJK distance {d} (sep {sep})"
    );
}

#[test]
fn triangle_cuboid_and_triangle_triangle_contacts() {
    let mut r = rng(15);
    for k in 0..3000 {
        let s = SCALES[k % 4];
        let t = random_triangle(&mut r, s);
        let other: Shape = if k % 2 == 0 {
            Shape::from(Cuboid::new(half_extents(&mut r, s)).unwrap())
        } else {
            Shape::from(random_triangle(&mut r, s))
        };
        let (ca, cb) = centres(&mut r, s, 2.5 * s);
        let (pa, pb) = (pose(&mut r, ca), pose(&mut r, cb));
        let ht = ConvexPolyhedron::from_triangle(&t);
        let ho = match &other {
            Shape::Cuboid(c) => ConvexPolyhedron::from_cuboid(c),
            Shape::Triangle(u) => ConvexPolyhedron::from_triangle(u),
            _ => unreachable!(),
        };
        check_contact(
            &pa,
            &Shape::from(t),
            &pb,
            &other,
            s,
            &|pb: &Isometry| brute_poly(&pa, &ht, pb, &ho),
            k,
        );
    }
}

#[test]
fn capsule_pairs_contacts() {
    let mut r = rng(16);
    for k in 0..4000 {
        let s = SCALES[k % 4];
        let cap = Capsule::new(r.gen_range(0.05..1.0) * s, r.gen_range(0.05..0.5) * s).unwrap();
        let (other, reach): (Shape, Real) = match k % 4 {
            0 => {
                let rad = r.gen_range(0.05..1.0) * s;
                (Shape::from(Ball::new(rad).unwrap()), rad)
            }
            1 => {
                let c =
                    Capsule::new(r.gen_range(0.05..1.0) * s, r.gen_range(0.05..0.5) * s).unwrap();
                (Shape::from(c), c.half_height() + c.radius())
            }
            2 => {
                let e = half_extents(&mut r, s);
                (Shape::from(Cuboid::new(e).unwrap()), e.norm())
            }
            _ => (Shape::from(random_triangle(&mut r, s)), 1.7 * s),
        };
        let (ca, cb) = centres(&mut r, s, cap.half_height() + cap.radius() + reach);
        let (pa, pb) = (pose(&mut r, ca), pose(&mut r, cb));
        let sa = Shape::from(cap);
        // Oracle: GJK distance between the capsule's core and the other shape's core, minus
        // the radii; for penetrating cores, a brute SAT of the segment against the polyhedron.
        let gap = |pb: &Isometry| -> Real {
            let (a0, a1) = cap.segment(&pa);
            let seg = Segment { a: a0, b: a1 };
            let id = Isometry::identity();
            let (d, rb, poly) = match &other {
                Shape::Ball(b) => {
                    let p = gjk::SinglePoint(Point::origin());
                    (gjk_distance(&id, &seg, pb, &p), b.radius(), None)
                }
                Shape::Capsule(c) => {
                    let (b0, b1) = c.segment(pb);
                    (
                        gjk_distance(&id, &seg, &id, &Segment { a: b0, b: b1 }),
                        c.radius(),
                        None,
                    )
                }
                Shape::Cuboid(c) => (
                    gjk_distance(&id, &seg, pb, c),
                    0.0,
                    Some(ConvexPolyhedron::from_cuboid(c)),
                ),
                Shape::Triangle(t) => (
                    gjk_distance(&id, &seg, pb, t.as_ref()),
                    0.0,
                    Some(ConvexPolyhedron::from_triangle(t)),
                ),
                _ => unreachable!(),
            };
            if d > 0.0 {
                return d - cap.radius() - rb;
            }
            match poly {
                None => -cap.radius() - rb, // crossing cores: only for balls/capsules, then depth ≥ radii
                Some(h) => {
                    let wv: Vec<Point> = h.vertices().iter().map(|v| pb * v).collect();
                    let seg_pts = [a0, a1];
                    let dir = (a1 - a0).normalize();
                    let mut best = Real::NEG_INFINITY;
                    for n in h.face_normals() {
                        best = best.max(separation_on(&(pb.rotation * n), &wv, &seg_pts));
                    }
                    for e in h.edge_directions() {
                        let c = dir.cross(&(pb.rotation * e));
                        if c.norm() > 1e-3 {
                            best = best.max(separation_on(&c.normalize(), &wv, &seg_pts));
                        }
                    }
                    best - cap.radius()
                }
            }
        };
        // Crossing cores of two round shapes have no single-number oracle here; skip them.
        if matches!(other, Shape::Ball(_) | Shape::Capsule(_)) {
            let (a0, a1) = cap.segment(&pa);
            let seg = Segment { a: a0, b: a1 };
            let id = Isometry::identity();
            let core = match &other {
                Shape::Ball(_) => gjk_distance(&id, &seg, &pb, &gjk::SinglePoint(Point::origin())),
                Shape::Capsule(c) => {
                    let (b0, b1) = c.segment(&pb);
                    gjk_distance(&id, &seg, &id, &Segment { a: b0, b: b1 })
                }
                _ => unreachable!(),
            };
            if core < 1e-3 * s {
                continue;
            }
        }
        check_contact(&pa, &sa, &pb, &other, s, &gap, k);
    }
}

#[test]
fn ball_against_hull_and_triangle() {
    let mut r = rng(17);
    for k in 0..3000 {
        let s = SCALES[k % 4];
        let (poly, shape) = if k % 2 == 0 {
            let h = hull(&mut r, s);
            (h.clone(), Shape::from(h))
        } else {
            let t = random_triangle(&mut r, s);
            (ConvexPolyhedron::from_triangle(&t), Shape::from(t))
        };
        let rad = r.gen_range(0.05..1.0) * s;
        let (ca, cb) = centres(&mut r, s, 1.5 * s + rad);
        let pa = pose(&mut r, ca);
        let pb = Isometry::translation(cb.x, cb.y, cb.z);
        let gap = |pb: &Isometry| -> Real {
            let c = Point::from(pb.translation.vector);
            let at = Isometry::translation(c.x, c.y, c.z);
            let d = gjk_distance(&pa, &poly, &at, &gjk::SinglePoint(Point::origin()));
            if d > 0.0 {
                return d - rad;
            }
            // Inside: minus the distance to the nearest face plane.
            let l = pa.inverse_transform_point(&c);
            let inside = poly
                .faces()
                .iter()
                .map(|f| {
                    f.normal
                        .dot(&(l - poly.vertices()[poly.face_loop(f)[0] as usize]))
                })
                .fold(Real::NEG_INFINITY, Real::max);
            inside - rad
        };
        check_contact(
            &pa,
            &shape,
            &pb,
            &Shape::from(Ball::new(rad).unwrap()),
            s,
            &gap,
            k,
        );
    }
}

#[test]
fn no_panic_on_extreme_finite_inputs() {
    let mut r = rng(18);
    let sizes: [Real; 3] = [1e-6, 1.0, 1e6];
    for k in 0..3000 {
        let s = sizes[k % 3];
        let far = Vector::repeat(if k % 2 == 0 { 1e6 } else { 0.0 });
        let shapes = [
            Shape::from(Ball::new(s).unwrap()),
            Shape::from(Cuboid::new(half_extents(&mut r, s)).unwrap()),
            Shape::from(Capsule::new(s, s * 0.5).unwrap()),
            Shape::from(random_triangle(&mut r, s)),
            Shape::from(hull(&mut r, s)),
        ];
        let (ca, cb) = centres(&mut r, s, 2.0 * s);
        let (pa, pb) = (pose(&mut r, ca + far), pose(&mut r, cb + far));
        for a in &shapes {
            for b in &shapes {
                let _ = intersection_test(&pa, a, &pb, b).unwrap();
                for pred in [0.0, s] {
                    if let Some(m) = contact(&pa, a, &pb, b, pred).unwrap() {
                        assert!(m.normal.iter().all(|x| x.is_finite()), "{a:?} {b:?}");
                        assert!(m.depth().is_finite());
                        for p in m.points() {
                            assert!(p.depth.is_finite() && p.point.iter().all(|x| x.is_finite()));
                        }
                    }
                }
                // Exactly coincident poses.
                let _ = contact(&pa, a, &pa, b, 0.0).unwrap();
            }
        }
    }
}

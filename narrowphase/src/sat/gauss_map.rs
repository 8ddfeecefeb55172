//! The exact separating axis test of two convex polyhedra of any size, with the edge × edge
//! candidates pruned on the Gauss map (Gregorius, "The Separating Axis Test between Convex
//! Polyhedra", GDC 2013).
//!
//! The faces of the Minkowski difference `A − B` are of three kinds: a face of A, a face of
//! B, and the parallelogram `e_A ⊕ (−e_B)` of an edge pair — but only for the pairs whose
//! arcs cross on the Gauss map. The Gauss map puts every face normal on the unit sphere; an
//! edge becomes the arc joining the normals of its two faces (the normals under which that
//! edge is the support). Edge `e_A` and edge `e_B` give a face of `A − B` exactly when the
//! arc of `e_A` crosses the arc of `e_B` mapped through `n ↦ −n`: some direction `l` then
//! has `e_A` as A's support along `l` and `e_B` as B's support along `−l`.
//!
//! When A and B penetrate, the minimal translation is the distance from the origin to the
//! boundary of `A − B`, reached on one of its faces. So the largest separation over the face
//! normals of A and B and the crossing edge pairs **is** the penetration depth, exactly as
//! the full test over every edge pair of [`super::convex`] would give it, without its
//! O(E_A·E_B·(V_A + V_B)) cost:
//! - each face normal costs one projection of both shapes ([`deepest_face_axis`]),
//! - each edge pair costs two dot products for the first arc test (most pairs stop there),
//!   and a crossing pair's separation comes from one corner of each edge (both edges *are*
//!   the supports along its axis), not from a projection.
//!
//! When A and B are apart, the same maximum is a lower bound of their distance (exact when
//! the closest features are a face and something, or two crossing edges); the caller uses
//! GJK for the distance itself.
//!
//! A flat polyhedron (a triangle: two faces back to back, normals `n` and `−n`) has half
//! great circles for arcs; each edge is then split into the two quarter arcs `n → m` and
//! `m → −n`, with `m` the edge's outward normal in the triangle's plane.
//!
//! Everything is computed in A's local frame; B's normals and corners are brought there once.

use super::convex::{deepest_face_axis, DeepestAxis, Posed, PARALLEL_SINE};
use super::SeparatingAxis;
use crate::math::{Matrix, Real, Vector};
use crate::shape::ConvexPolyhedron;

/// One edge's arc on the Gauss map: from normal `from` to normal `to` (unit, shorter than a
/// half circle), for edge number `edge` of the polyhedron.
#[derive(Clone, Copy, Debug)]
struct Arc {
    from: Vector,
    to: Vector,
    edge: u32,
}

/// The arcs of every edge of `p`, normals turned by `rot` and multiplied by `sign` (−1 for
/// B, whose Gauss map enters `A − B` negated).
fn arcs(p: &ConvexPolyhedron, rot: &Matrix, sign: Real) -> Vec<Arc> {
    let faces = p.faces();
    let normal = |f: u32| rot * faces[f as usize].normal * sign;
    if !p.is_flat() {
        return p
            .edge_faces()
            .iter()
            .enumerate()
            .map(|(e, &[f, g])| Arc {
                from: normal(f),
                to: normal(g),
                edge: e as u32,
            })
            .collect();
    }
    // A flat polyhedron: each edge's half circle n → m → −n, split at m.
    let n = faces[0].normal;
    let v = p.vertices();
    let mut out = Vec::with_capacity(2 * p.edges().len());
    for (e, &[i, j]) in p.edges().iter().enumerate() {
        let (pi, pj) = (v[i as usize], v[j as usize]);
        let Some(mut m) = (pj - pi).cross(&n).try_normalize(0.0) else {
            continue;
        };
        if m.dot(&(pi - p.centroid())) < 0.0 {
            m = -m;
        }
        let (n, m) = (rot * n * sign, rot * m * sign);
        out.push(Arc {
            from: n,
            to: m,
            edge: e as u32,
        });
        out.push(Arc {
            from: m,
            to: -n,
            edge: e as u32,
        });
    }
    out
}

/// True when the arc `a → b` crosses the arc `c → d` (all unit, each arc shorter than a half
/// circle), given `b_x_a = b × a` and `d_x_c = d × c` (Gregorius 2013): `c` and `d` lie on
/// either side of the great circle of `a b`, `a` and `b` on either side of that of `c d`,
/// and the crossing is on the same hemisphere for both (not antipodal). Strict: arcs that
/// only touch at an end do not count (the face normal at that end is a candidate anyway).
#[inline]
fn arcs_cross(
    a: &Vector,
    b: &Vector,
    b_x_a: &Vector,
    c: &Vector,
    d: &Vector,
    d_x_c: &Vector,
) -> bool {
    let cba = c.dot(b_x_a);
    let dba = d.dot(b_x_a);
    let adc = a.dot(d_x_c);
    let bdc = b.dot(d_x_c);
    cba * dba < 0.0 && adc * bdc < 0.0 && cba * bdc > 0.0
}

/// The crossing edge pair of largest separation: exact penetration on the edge × edge axes
/// (see the module docs), without the face normals. `normal` points from A to B (world).
/// None when no pair crosses (or every crossing pair is nearly parallel, skipped as in
/// [`super::convex`] below [`PARALLEL_SINE`]).
pub fn deepest_edge_axis(a: &Posed, b: &Posed) -> Option<DeepestAxis> {
    let rel = a.pose.inv_mul(b.pose);
    let rot_b = rel.rotation.to_rotation_matrix().into_inner();
    let arcs_a = arcs(a.shape, &Matrix::identity(), 1.0);
    let arcs_b = arcs(b.shape, &rot_b, -1.0);
    // B's arcs as columns (c, d, d × c): the first test reads only c and d, in a tight loop.
    let cross_b: Vec<Vector> = arcs_b.iter().map(|k| k.to.cross(&k.from)).collect();
    let (va, vb) = (a.shape.vertices(), b.shape.vertices());
    let (ea, eb) = (a.shape.edges(), b.shape.edges());
    let mut best: Option<(Real, Vector, u32, u32)> = None;
    for arc in &arcs_a {
        let (na, nb) = (arc.from, arc.to);
        let u = nb.cross(&na);
        for (k, (bk, v)) in arcs_b.iter().zip(&cross_b).enumerate() {
            if !arcs_cross(&na, &nb, &u, &bk.from, &bk.to, v) {
                continue;
            }
            // u and v run along the two edges: their cross product is the face normal.
            let l = u.cross(v);
            let len2 = l.norm_squared();
            // (Also true for a degenerate arc: u or v zero.)
            if len2 <= PARALLEL_SINE * PARALLEL_SINE * u.norm_squared() * v.norm_squared() {
                continue;
            }
            let mut l = l / len2.sqrt();
            // The crossing lies on A's arc, so it is an outward normal of A's edge.
            if l.dot(&(na + nb)) < 0.0 {
                l = -l;
            }
            let pa = va[ea[arc.edge as usize][0] as usize];
            let pb = rel * vb[eb[arcs_b[k].edge as usize][0] as usize];
            let sep = l.dot(&(pb - pa));
            if !matches!(best, Some((s, ..)) if sep <= s) {
                best = Some((sep, l, arc.edge, arcs_b[k].edge));
            }
        }
    }
    let (separation, l, e_a, e_b) = best?;
    Some(DeepestAxis {
        separation,
        normal: a.pose.rotation * l,
        axis: SeparatingAxis::EdgeEdge(
            a.shape.edge_direction_of()[e_a as usize],
            b.shape.edge_direction_of()[e_b as usize],
        ),
    })
}

/// The axis of largest separation (least penetration) of A and B, exact for penetrating
/// pairs of any size: [`deepest_face_axis`] and [`deepest_edge_axis`], faces preferred unless
/// an edge pair is better by more than `tolerance` metres (as [`super::convex::deepest_axis`]
/// does). For apart pairs the separation is a lower bound of the distance.
pub fn deepest_axis(a: &Posed, b: &Posed, tolerance: Real) -> Option<DeepestAxis> {
    let face = deepest_face_axis(a, b, tolerance);
    match (face, deepest_edge_axis(a, b)) {
        (Some(f), Some(e)) if e.separation > f.separation + tolerance => Some(e),
        (Some(f), _) => Some(f),
        (None, e) => e,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Isometry, Point, Rotation};

    /// A small deterministic generator (xorshift), so the tests need no crate.
    struct Rand(u64);
    impl Rand {
        fn next(&mut self) -> Real {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 >> 40) as Real / (1u64 << 24) as Real * 2.0 - 1.0
        }
        fn unit(&mut self) -> Vector {
            loop {
                let v = Vector::new(self.next(), self.next(), self.next());
                if v.norm() > 0.1 && v.norm() <= 1.0 {
                    return v.normalize();
                }
            }
        }
    }

    /// Whether the arcs cross, by the crossing point of their great circles: one of `±p` on
    /// both arcs (a point `x` is on arc `a → b` when `(a × x)` and `(x × b)` point along
    /// `a × b`).
    fn arcs_cross_slow(a: &Vector, b: &Vector, c: &Vector, d: &Vector) -> Option<bool> {
        let (n1, n2) = (a.cross(b), c.cross(d));
        let p = n1.cross(&n2).try_normalize(1e-6)?;
        let on = |x: &Vector, s: &Vector, t: &Vector, n: &Vector| {
            let (u, v) = (s.cross(x).dot(n), x.cross(t).dot(n));
            if u.abs() < 1e-4 || v.abs() < 1e-4 {
                None
            } else {
                Some(u > 0.0 && v > 0.0)
            }
        };
        let mut any = false;
        for x in [p, -p] {
            any |= on(&x, a, b, &n1)? && on(&x, c, d, &n2)?;
        }
        Some(any)
    }

    #[test]
    fn arc_crossing_agrees_with_the_great_circle_construction() {
        let mut r = Rand(0x9E37_79B9_7F4A_7C15);
        let mut seen = [0usize; 2];
        for _ in 0..40_000 {
            let a = r.unit();
            // c near a, so that about a third of the pairs cross.
            let c = (a + r.unit() * 1.2).normalize();
            // Arcs up to about 100°.
            let b = (a + r.unit() * 1.5 * r.next().abs()).normalize();
            let d = (c + r.unit() * 1.5 * r.next().abs()).normalize();
            if a.dot(&b) < -0.2 || c.dot(&d) < -0.2 {
                continue;
            }
            let Some(want) = arcs_cross_slow(&a, &b, &c, &d) else {
                continue;
            };
            let got = arcs_cross(&a, &b, &b.cross(&a), &c, &d, &d.cross(&c));
            assert_eq!(got, want, "{a:?} {b:?} / {c:?} {d:?}");
            seen[got as usize] += 1;
        }
        assert!(seen[0] > 1000 && seen[1] > 1000, "{seen:?}");
    }

    fn ball_hull(r: &mut Rand, n: usize, stretch: Vector) -> ConvexPolyhedron {
        let pts: Vec<Point> = (0..n)
            .map(|_| Point::from(r.unit().component_mul(&stretch)))
            .collect();
        ConvexPolyhedron::from_points(&pts).unwrap()
    }

    fn rotation(r: &mut Rand) -> Rotation {
        Rotation::from_scaled_axis(r.unit() * (r.next() * 3.0))
    }

    /// Against the full test of [`super::super::convex::deepest_axis`] (every edge direction
    /// pair, projections): the same largest separation on penetrating pairs, and edge pairs
    /// winning a fair share of them.
    #[test]
    fn same_depth_as_the_full_test_on_penetrating_hulls() {
        let mut r = Rand(7);
        let mut edge_wins = 0;
        let mut checked = 0;
        for k in 0..120 {
            let a = ball_hull(&mut r, 8 + k % 30, Vector::new(1.0, 0.6, 0.8));
            let b = ball_hull(&mut r, 8 + (k * 7) % 30, Vector::new(0.5, 1.0, 0.7));
            let ca = r.unit();
            let pa = Isometry::from_parts(ca.into(), rotation(&mut r));
            let pb = Isometry::from_parts((ca + r.unit() * 1.2).into(), rotation(&mut r));
            let (sa, sb) = (Posed::new(&a, &pa), Posed::new(&b, &pb));
            let full = super::super::convex::deepest_axis(&sa, &sb, 0.0).unwrap();
            if full.separation >= 0.0 {
                continue;
            }
            let fast = deepest_axis(&sa, &sb, 0.0).unwrap();
            checked += 1;
            assert!(
                (fast.separation - full.separation).abs() < 1e-5,
                "case {k}: {fast:?} vs {full:?}"
            );
            if matches!(fast.axis, SeparatingAxis::EdgeEdge(..)) {
                edge_wins += 1;
            }
        }
        assert!(checked > 60 && edge_wins > 5, "{checked} {edge_wins}");
    }
}

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
//! the full test over every edge pair of [`super::convex`] gives it, without its
//! O(E_A·E_B·(V_A + V_B)) cost:
//! - a face of A costs one pass over B's corners (the support of B against the face's plane),
//!   and the other way round;
//! - an edge pair costs two dot products for the first arc test (most pairs stop there), and
//!   a crossing pair's separation comes from one corner of each edge (both edges *are* the
//!   supports along its axis), not from a projection.
//!
//! Most candidates are not even tried: each has a cheap upper bound of its separation, from
//! the other shape's inner ball (centred on its centroid, touching its nearest face plane;
//! the other shape reaches at least that far in every direction). A face or an edge whose
//! bound cannot beat the best separation found so far is skipped; on two sphere-like hulls
//! that leaves the features facing the other shape.
//!
//! When A and B are apart, the same maximum is a lower bound of their distance (exact when
//! the closest features are a face and something, or two crossing edges); the caller uses
//! GJK for the distance itself.
//!
//! A flat polyhedron (a triangle: two faces back to back, normals `n` and `−n`) has half
//! great circles for arcs; each edge is then split into the two quarter arcs `n → m` and
//! `m → −n`, with `m` the edge's outward normal in the triangle's plane.
//!
//! Everything is computed in A's local frame, except B's faces, tried in B's frame.

use super::convex::{DeepestAxis, Posed, PARALLEL_SINE};
use super::SeparatingAxis;
use crate::math::{Isometry, Matrix, Point, Real, Vector};
use crate::shape::ConvexPolyhedron;

/// The Gauss map of a polyhedron: points of the unit sphere (the face normals, and for a
/// flat polyhedron its edges' in-plane normals too) and the arcs between them.
struct GaussMap {
    /// The points, in the frame and with the sign asked for.
    normals: Vec<Vector>,
    /// Each arc: indices of its two end points in `normals` (the arc is shorter than a half
    /// circle), and the number of its edge in the polyhedron.
    arcs: Vec<[u32; 3]>,
}

impl GaussMap {
    /// The Gauss map of `p`, normals turned by `rot` and multiplied by `sign` (−1 for B,
    /// whose map enters `A − B` negated).
    fn new(p: &ConvexPolyhedron, rot: &Matrix, sign: Real) -> Self {
        let mut normals: Vec<Vector> = p.faces().iter().map(|f| rot * f.normal * sign).collect();
        if !p.is_flat() {
            let arcs = p
                .edge_faces()
                .iter()
                .enumerate()
                .map(|(e, &[f, g])| [f, g, e as u32])
                .collect();
            return Self { normals, arcs };
        }
        // Flat: faces 0 and 1 have normals n and −n; each edge's half circle n → m → −n is
        // split at its in-plane outward normal m.
        let n = p.faces()[0].normal;
        let v = p.vertices();
        let mut arcs = Vec::with_capacity(2 * p.edges().len());
        for (e, &[i, j]) in p.edges().iter().enumerate() {
            let (pi, pj) = (v[i as usize], v[j as usize]);
            let Some(mut m) = (pj - pi).cross(&n).try_normalize(0.0) else {
                continue;
            };
            if m.dot(&(pi - p.centroid())) < 0.0 {
                m = -m;
            }
            let k = normals.len() as u32;
            normals.push(rot * m * sign);
            arcs.push([0, k, e as u32]);
            arcs.push([k, 1, e as u32]);
        }
        Self { normals, arcs }
    }
}

/// True when the arc `a → b` crosses the arc `c → d` (all unit, each arc shorter than a half
/// circle), given `cba = c · (b × a)`, `dba = d · (b × a)`, `adc = a · (d × c)` and
/// `bdc = b · (d × c)` (Gregorius 2013): `c` and `d` lie on either side of the great circle
/// of `a b`, `a` and `b` on either side of that of `c d`, and the crossing is on the same
/// hemisphere for both (not antipodal). Strict: arcs that only touch at an end do not count
/// (the face normal at that end is a candidate anyway).
#[inline]
fn arcs_cross(cba: Real, dba: Real, adc: Real, bdc: Real) -> bool {
    cba * dba < 0.0 && adc * bdc < 0.0 && cba * bdc > 0.0
}

/// Radius of the largest ball centred on the centroid inside `p`: the distance to the
/// nearest face plane (0 for a flat polyhedron).
fn inner_radius(p: &ConvexPolyhedron) -> Real {
    let c = p.centroid();
    p.faces()
        .iter()
        .map(|f| {
            f.normal
                .dot(&(p.vertices()[p.face_loop(f)[0] as usize] - c))
        })
        .fold(Real::INFINITY, Real::min)
        .max(0.0)
}

/// The face of `own` of largest separation from `other`, whose corners are given in `own`'s
/// frame (`other_centre` its centroid, `other_radius` its inner radius): (separation, face
/// index). Faces whose bound `n · c − r − h` cannot beat the best so far are skipped; the
/// face facing the other centroid most is tried first, to start from a good best. Stops at
/// the first face that separates by more than `limit`.
fn deepest_face(
    own: &ConvexPolyhedron,
    other: &[Point],
    other_centre: &Point,
    other_radius: Real,
    limit: Real,
) -> (Real, usize) {
    let (faces, v) = (own.faces(), own.vertices());
    let offset = |k: usize| {
        faces[k]
            .normal
            .dot(&v[own.face_loop(&faces[k])[0] as usize].coords)
    };
    let bound = |k: usize| faces[k].normal.dot(&other_centre.coords) - other_radius - offset(k);
    let separation = |k: usize| {
        let n = faces[k].normal;
        other
            .iter()
            .map(|p| n.dot(&p.coords))
            .fold(Real::INFINITY, Real::min)
            - offset(k)
    };
    let towards = other_centre - own.centroid();
    let first = (0..faces.len())
        .map(|k| (faces[k].normal.dot(&towards), k))
        .fold(
            (Real::NEG_INFINITY, 0),
            |b, x| if x.0 > b.0 { x } else { b },
        )
        .1;
    let mut best = (separation(first), first);
    for k in 0..faces.len() {
        if best.0 > limit {
            break;
        }
        if k != first && bound(k) > best.0 {
            let s = separation(k);
            if s > best.0 || (s == best.0 && k < best.1) {
                best = (s, k);
            }
        }
    }
    best
}

/// The face pair of largest separation, faces of A preferred unless one of B is better by
/// more than `tolerance`; None as soon as a face separates by more than `limit`.
fn deepest_face_axis(f: &Frames, tolerance: Real, limit: Real) -> Option<DeepestAxis> {
    let (sa, ka) = deepest_face(f.a.shape, &f.b_in_a, &f.cb_in_a, f.rb, limit);
    if sa > limit {
        return None;
    }
    let (sb, kb) = deepest_face(f.b.shape, &f.a_in_b, &f.ca_in_b, f.ra, limit);
    if sb > limit {
        return None;
    }
    Some(if sb > sa + tolerance {
        let face = &f.b.shape.faces()[kb];
        DeepestAxis {
            separation: sb,
            normal: -(f.b.pose.rotation * face.normal),
            axis: SeparatingAxis::FaceB(face.direction),
        }
    } else {
        let face = &f.a.shape.faces()[ka];
        DeepestAxis {
            separation: sa,
            normal: f.a.pose.rotation * face.normal,
            axis: SeparatingAxis::FaceA(face.direction),
        }
    })
}

/// Both shapes, each one's corners and centroid in the other's frame, and their inner radii.
struct Frames<'a> {
    a: &'a Posed<'a>,
    b: &'a Posed<'a>,
    /// B's frame in A's.
    rel: Isometry,
    b_in_a: Vec<Point>,
    a_in_b: Vec<Point>,
    cb_in_a: Point,
    ca_in_b: Point,
    ra: Real,
    rb: Real,
}

impl<'a> Frames<'a> {
    fn new(a: &'a Posed<'a>, b: &'a Posed<'a>) -> Self {
        let rel = a.pose.inv_mul(b.pose);
        let inv = rel.inverse();
        Self {
            a,
            b,
            rel,
            b_in_a: b.shape.vertices().iter().map(|p| rel * p).collect(),
            a_in_b: a.shape.vertices().iter().map(|p| inv * p).collect(),
            cb_in_a: rel * b.shape.centroid(),
            ca_in_b: inv * a.shape.centroid(),
            ra: inner_radius(a.shape),
            rb: inner_radius(b.shape),
        }
    }
}

/// Upper bounds of the separation on any axis of each arc of `map` (A's frame), and one
/// corner of each arc's edge. For an arc of A (`towards_b`), along an axis `l` of the arc A
/// reaches `l · p` (p on the edge) and B at least `r_B` past its centroid `c`: separation
/// ≤ `l · (c − p) − r_B`. For an arc of B (negated map), B starts at `l · p` and A reaches
/// at least `r_A` past its centroid: separation ≤ `l · (p − c) − r_A`. Over the arc,
/// `l · w ≤ m · w + |a − m| |w|` with `m` the arc's mid-point and `a` one of its ends.
fn arc_bounds(
    map: &GaussMap,
    corners: &[Point],
    edges: &[[u32; 2]],
    centre: &Point,
    radius: Real,
    towards_b: bool,
) -> Vec<(Real, Point)> {
    map.arcs
        .iter()
        .map(|&[i, j, e]| {
            let (a, b) = (map.normals[i as usize], map.normals[j as usize]);
            let p = corners[edges[e as usize][0] as usize];
            let w = if towards_b { centre - p } else { p - centre };
            let bound = match (a + b).try_normalize(0.0) {
                Some(m) => m.dot(&w) + (a - m).norm() * w.norm(),
                None => w.norm(),
            };
            (bound - radius, p)
        })
        .collect()
}

/// The largest `l · p` over `pts`.
fn max_along(pts: &[Point], l: &Vector) -> Real {
    pts.iter()
        .map(|p| l.dot(&p.coords))
        .fold(Real::NEG_INFINITY, Real::max)
}

/// The crossing edge pair of largest separation above `floor` (see the module docs);
/// `normal` points from A to B (world). None when no pair beats `floor` (nearly parallel
/// pairs are skipped as in [`super::convex`], below [`PARALLEL_SINE`]).
///
/// Cost: arcs whose bound ([`arc_bounds`]) is at most the best so far are skipped; for the
/// others, two dot products per pair for the first half of [`arcs_cross`], and for the few
/// that pass, the rest of it and, if they cross, a separation from one corner of each edge.
fn deepest_edge_axis(f: &Frames, floor: Real) -> Option<DeepestAxis> {
    let (a, b) = (f.a.shape, f.b.shape);
    let rot_b = f.rel.rotation.to_rotation_matrix().into_inner();
    let map_a = GaussMap::new(a, &Matrix::identity(), 1.0);
    let map_b = GaussMap::new(b, &rot_b, -1.0);
    let bounds_a = arc_bounds(&map_a, a.vertices(), a.edges(), &f.cb_in_a, f.rb, true);
    let bounds_b = arc_bounds(&map_b, &f.b_in_a, b.edges(), &a.centroid(), f.ra, false);
    // B's arcs that may beat the floor: ends c, d, d × c, a corner of the edge, edge index.
    let arcs_b: Vec<(Vector, Vector, Vector, Point, u32)> = map_b
        .arcs
        .iter()
        .zip(&bounds_b)
        .filter(|(_, (bound, _))| *bound > floor)
        .map(|(&[c, d, e], &(_, p))| {
            let (c, d) = (map_b.normals[c as usize], map_b.normals[d as usize]);
            (c, d, d.cross(&c), p, e)
        })
        .collect();
    let mut best: Option<(Real, Vector, u32, u32)> = None;
    let mut best_sep = floor;
    for (&[i, j, edge_a], &(bound, pa)) in map_a.arcs.iter().zip(&bounds_a) {
        if bound <= best_sep {
            continue;
        }
        let (na, nb) = (map_a.normals[i as usize], map_a.normals[j as usize]);
        let u = nb.cross(&na);
        for &(c, d, v, pb, edge_b) in &arcs_b {
            let (cba, dba) = (c.dot(&u), d.dot(&u));
            if cba * dba >= 0.0 || !arcs_cross(cba, dba, na.dot(&v), nb.dot(&v)) {
                continue;
            }
            // u and v run along the two edges: their cross product is the face normal.
            let l = u.cross(&v);
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
            // Both edges are the supports along `l` when the arcs cross, so one corner of each
            // gives the separation; but on slivers (dihedral angles near π, arcs near half
            // circles) the crossing test can be wrong and that value bogus (a hull–box pair
            // penetrating by 1.24 m was reported apart). When the shortcut would raise the
            // best, the separation is taken from all corners instead: a true separation along
            // `l` whatever the arcs say, equal to the shortcut when they do cross.
            let sep = l.dot(&(pb - pa));
            if sep > best_sep {
                let (amax, bmin) = (max_along(a.vertices(), &l), -max_along(&f.b_in_a, &-l));
                let sep = bmin - amax;
                if sep <= best_sep {
                    continue;
                }
                best_sep = sep;
                best = Some((sep, l, edge_a, edge_b));
            }
        }
    }
    let (separation, l, e_a, e_b) = best?;
    Some(DeepestAxis {
        separation,
        normal: f.a.pose.rotation * l,
        axis: SeparatingAxis::EdgeEdge(
            a.edge_direction_of()[e_a as usize],
            b.edge_direction_of()[e_b as usize],
        ),
    })
}

/// The axis of largest separation (least penetration) of A and B, exact for penetrating
/// pairs of any size: the face normals of both, then the crossing edge pairs, faces
/// preferred unless an edge pair is better by more than `tolerance` metres and A's faces
/// unless one of B's is (as [`super::convex::deepest_axis`] does). For apart pairs the
/// separation is a lower bound of the distance.
pub fn deepest_axis(a: &Posed, b: &Posed, tolerance: Real) -> DeepestAxis {
    deepest_axis_within(a, b, tolerance, Real::INFINITY).expect("no limit")
}

/// [`deepest_axis`], or None as soon as some axis separates A and B by more than `limit`
/// metres (then they are more than `limit` apart: every axis's separation is a lower bound
/// of the distance). Cheaper than [`deepest_axis`] on pairs far apart: it may stop at the
/// first face tried.
pub fn deepest_axis_within(
    a: &Posed,
    b: &Posed,
    tolerance: Real,
    limit: Real,
) -> Option<DeepestAxis> {
    let frames = Frames::new(a, b);
    let face = deepest_face_axis(&frames, tolerance, limit)?;
    let floor = face.separation + tolerance;
    let side = deepest_side_axis(&frames).filter(|s| s.separation > floor);
    let floor = side.map_or(floor, |s| s.separation);
    match deepest_edge_axis(&frames, floor).or(side) {
        Some(other) if other.separation > limit => None,
        Some(other) => Some(other),
        None => Some(face),
    }
}

/// The in-plane outward normal of each edge of a flat polyhedron (own frame), with the
/// edge's index: the side faces of the zero-thickness prism. On the Gauss map they are the
/// points where each edge's half circle is split, not faces, so an arc of the other shape
/// passing exactly through one (a box edge perpendicular to the triangle's plane, under the
/// triangle's edge) crosses neither quarter arc strictly, and that edge pair — whose axis is
/// this normal — would be missed (a box and a triangle on a grid: depth 0.75 for 0.65).
fn side_normals(p: &ConvexPolyhedron) -> impl Iterator<Item = (Vector, usize)> + '_ {
    let n = p.faces()[0].normal;
    let v = p.vertices();
    p.edges()
        .iter()
        .enumerate()
        .filter_map(move |(e, &[i, j])| {
            let (pi, pj) = (v[i as usize], v[j as usize]);
            let m = (pj - pi).cross(&n).try_normalize(0.0)?;
            Some((
                if m.dot(&(pi - p.centroid())) < 0.0 {
                    -m
                } else {
                    m
                },
                e,
            ))
        })
}

/// The side normal ([`side_normals`]) of a flat A or B of largest separation (`normal` from A
/// to B, world), as the full test's in-plane candidates; None when neither is flat.
fn deepest_side_axis(f: &Frames) -> Option<DeepestAxis> {
    let mut best: Option<DeepestAxis> = None;
    let mut consider = |own: &Posed, other: &[Point], is_a: bool| {
        if !own.shape.is_flat() {
            return;
        }
        for (m, e) in side_normals(own.shape) {
            let offset = own
                .shape
                .vertices()
                .iter()
                .map(|p| m.dot(&p.coords))
                .fold(Real::NEG_INFINITY, Real::max);
            let sep = other
                .iter()
                .map(|p| m.dot(&p.coords))
                .fold(Real::INFINITY, Real::min)
                - offset;
            if best.is_some_and(|b| sep <= b.separation) {
                continue;
            }
            let dir = own.shape.edge_direction_of()[e];
            let world = own.pose.rotation * m;
            best = Some(if is_a {
                DeepestAxis {
                    separation: sep,
                    normal: world,
                    axis: SeparatingAxis::InPlaneA(dir),
                }
            } else {
                DeepestAxis {
                    separation: sep,
                    normal: -world,
                    axis: SeparatingAxis::InPlaneB(dir),
                }
            });
        }
    };
    consider(f.a, &f.b_in_a, true);
    consider(f.b, &f.a_in_b, false);
    best
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
            let (u, v) = (b.cross(&a), d.cross(&c));
            let got = arcs_cross(c.dot(&u), d.dot(&u), a.dot(&v), b.dot(&v));
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
            let fast = deepest_axis(&sa, &sb, 0.0);
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

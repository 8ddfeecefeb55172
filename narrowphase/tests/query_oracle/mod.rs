//! Brute-force models of the five 3D shapes for the distance and shape-cast tests, written
//! without the crate's query code: each shape is its world-space core corners plus a radius,
//! with exact projections on an axis (so separations along sampled axes bound the distance
//! from below), dense point samples of the solid (so sampled pair distances bound it from
//! above) and a surface test for reported points.
#![allow(dead_code)]

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use tumble_narrowphase::math::{Isometry, Point, Real, Translation, Vector};
use tumble_narrowphase::shape::{Ball, Capsule, ConvexPolyhedron, Cuboid, Shape, Triangle};

/// A random shape of kind `k` (0 ball, 1 cuboid, 2 capsule, 3 triangle, 4 hull), about 0.4 to
/// 2 m across.
pub fn shape(r: &mut ChaCha8Rng, k: usize) -> Shape {
    match k {
        0 => Shape::from(Ball::new(r.gen_range(0.2..1.0)).unwrap()),
        1 => Shape::from(
            Cuboid::new(Vector::new(
                r.gen_range(0.1..1.0),
                r.gen_range(0.1..1.0),
                r.gen_range(0.1..1.0),
            ))
            .unwrap(),
        ),
        2 => Shape::from(Capsule::new(r.gen_range(0.05..0.8), r.gen_range(0.1..0.6)).unwrap()),
        3 => loop {
            let mut p = || {
                Point::new(
                    r.gen_range(-1.0..1.0),
                    r.gen_range(-1.0..1.0),
                    r.gen_range(-1.0..1.0),
                )
            };
            let (a, b, c) = (p(), p(), p());
            if (b - a).cross(&(c - a)).norm() > 0.2 {
                break Shape::from(Triangle::new(a, b, c).unwrap());
            }
        },
        _ => {
            let n = r.gen_range(6..16);
            let pts: Vec<Point> = (0..n)
                .map(|_| {
                    Point::new(
                        r.gen_range(-0.8..0.8),
                        r.gen_range(-0.8..0.8),
                        r.gen_range(-0.8..0.8),
                    )
                })
                .collect();
            Shape::from(ConvexPolyhedron::from_points(&pts).unwrap())
        }
    }
}

/// A shape placed in the world: its core corners (world), its radius, and for polyhedra its
/// face planes (world unit normal `n`, offset `d`: the face is `n · x = d`).
pub struct Solid {
    pub corners: Vec<Point>,
    pub radius: Real,
    pub planes: Vec<(Vector, Real)>,
    pub kind: usize,
}

impl Solid {
    /// The model of `s` at `pose` (the five kinds of `shape`; any other kind has none).
    #[allow(unreachable_patterns)]
    pub fn new(s: &Shape, pose: &Isometry) -> Self {
        let mut planes = Vec::new();
        let (corners, radius, kind) = match s {
            Shape::Ball(b) => (vec![Point::from(pose.translation.vector)], b.radius(), 0),
            Shape::Cuboid(c) => {
                let e = c.half_extents();
                let mut v = Vec::new();
                for i in 0..8 {
                    let sx = if i & 1 == 0 { -1.0 } else { 1.0 };
                    let sy = if i & 2 == 0 { -1.0 } else { 1.0 };
                    let sz = if i & 4 == 0 { -1.0 } else { 1.0 };
                    v.push(pose * Point::new(sx * e.x, sy * e.y, sz * e.z));
                }
                for i in 0..3 {
                    for s in [-1.0, 1.0] {
                        let n = pose.rotation * (Vector::ith(i, 1.0) * s);
                        let d = n.dot(&pose.translation.vector) + e[i];
                        planes.push((n, d));
                    }
                }
                (v, 0.0, 1)
            }
            Shape::Capsule(c) => {
                let (a, b) = c.segment(pose);
                (vec![a, b], c.radius(), 2)
            }
            Shape::Triangle(t) => (t.world_corners(pose).to_vec(), 0.0, 3),
            Shape::Convex(h) => {
                for f in h.faces() {
                    let n = pose.rotation * f.normal;
                    let v = pose * h.vertices()[h.face_loop(f)[0] as usize];
                    planes.push((n, n.dot(&v.coords)));
                }
                let v = h.vertices().iter().map(|p| pose * p).collect();
                (v, 0.0, 4)
            }
            _ => panic!("no brute-force model of this shape kind"),
        };
        Solid {
            corners,
            radius,
            planes,
            kind,
        }
    }

    /// The interval of the solid's projection on unit `u`.
    pub fn project(&self, u: &Vector) -> (Real, Real) {
        let (lo, hi) = self
            .corners
            .iter()
            .map(|c| c.coords.dot(u))
            .fold((Real::INFINITY, Real::NEG_INFINITY), |(l, h), x| {
                (l.min(x), h.max(x))
            });
        (lo - self.radius, hi + self.radius)
    }

    /// The solid translated by `d`.
    pub fn translated(&self, d: &Vector) -> Solid {
        Solid {
            corners: self.corners.iter().map(|c| c + d).collect(),
            radius: self.radius,
            planes: self
                .planes
                .iter()
                .map(|(n, o)| (*n, o + n.dot(d)))
                .collect(),
            kind: self.kind,
        }
    }

    /// Points of the solid: the corners, points on the core (convex combinations of corners
    /// on a grid for the box and triangle, random ones for the hull and the capsule's axis),
    /// each also offset by `radius` along `dirs` for round shapes.
    pub fn samples(&self, r: &mut ChaCha8Rng, n: usize, dirs: &[Vector]) -> Vec<Point> {
        let c = &self.corners;
        let mut core: Vec<Point> = c.clone();
        match self.kind {
            1 => {
                // Points on the box's faces: corner 0 plus grid steps along its three edges.
                let (o, ex, ey, ez) = (c[0], c[1] - c[0], c[2] - c[0], c[4] - c[0]);
                let m = 12;
                for i in 0..=m {
                    for j in 0..=m {
                        let (s, t) = (i as Real / m as Real, j as Real / m as Real);
                        for (u, v, w) in [(ex, ey, ez), (ey, ez, ex), (ez, ex, ey)] {
                            core.push(o + u * s + v * t);
                            core.push(o + u * s + v * t + w);
                        }
                    }
                }
            }
            3 => {
                let m = 30;
                for i in 0..=m {
                    for j in 0..=(m - i) {
                        let (s, t) = (i as Real / m as Real, j as Real / m as Real);
                        core.push(c[0] + (c[1] - c[0]) * s + (c[2] - c[0]) * t);
                    }
                }
            }
            2 => {
                for i in 0..=60 {
                    core.push(c[0] + (c[1] - c[0]) * (i as Real / 60.0));
                }
            }
            4 => {
                for _ in 0..n {
                    let (i, j, k) = (
                        r.gen_range(0..c.len()),
                        r.gen_range(0..c.len()),
                        r.gen_range(0..c.len()),
                    );
                    let (s, t): (Real, Real) = (r.gen(), r.gen());
                    let (s, t) = if s + t > 1.0 {
                        (1.0 - s, 1.0 - t)
                    } else {
                        (s, t)
                    };
                    core.push(c[i] + (c[j] - c[i]) * s + (c[k] - c[i]) * t);
                }
            }
            _ => {}
        }
        if self.radius == 0.0 {
            return core;
        }
        let mut out = Vec::new();
        for p in &core {
            for d in dirs {
                out.push(p + d * self.radius);
            }
        }
        out
    }

    /// How far `p` is from the solid's surface (0 on it), by formulas of each kind: the centre
    /// distance minus the radius, the axis distance minus the radius, the largest face-plane
    /// offset (0 exactly on the boundary of a polytope), the triangle's plane and edges.
    pub fn off_surface(&self, p: &Point) -> Real {
        let c = &self.corners;
        match self.kind {
            0 => ((p - c[0]).norm() - self.radius).abs(),
            2 => (segment_distance(p, &c[0], &c[1]) - self.radius).abs(),
            3 => triangle_distance(p, &c[0], &c[1], &c[2]),
            _ => self
                .planes
                .iter()
                .map(|(n, d)| n.dot(&p.coords) - d)
                .fold(Real::NEG_INFINITY, Real::max)
                .abs(),
        }
    }
}

/// Distance from `p` to the segment `ab` (clamped projection).
pub fn segment_distance(p: &Point, a: &Point, b: &Point) -> Real {
    let ab = b - a;
    let t = ((p - a).dot(&ab) / ab.norm_squared()).clamp(0.0, 1.0);
    (p - (a + ab * t)).norm()
}

/// Distance from `p` to triangle `abc`: the plane distance when the projection falls inside
/// (edge-side signs), else the nearest edge.
pub fn triangle_distance(p: &Point, a: &Point, b: &Point, c: &Point) -> Real {
    let n = (b - a).cross(&(c - a)).normalize();
    let h = (p - a).dot(&n);
    let proj = p - n * h;
    let inside = [(a, b), (b, c), (c, a)]
        .iter()
        .all(|(s, e)| (*e - *s).cross(&(proj - *s)).dot(&n) >= 0.0);
    if inside {
        h.abs()
    } else {
        segment_distance(p, a, b)
            .min(segment_distance(p, b, c))
            .min(segment_distance(p, c, a))
    }
}

/// `n` unit directions spread over the sphere (Fibonacci lattice).
pub fn sphere_directions(n: usize) -> Vec<Vector> {
    let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
    (0..n)
        .map(|i| {
            let y = 1.0 - 2.0 * (i as f64 + 0.5) / n as f64;
            let r = (1.0 - y * y).sqrt();
            let th = golden * i as f64;
            Vector::new((r * th.cos()) as Real, y as Real, (r * th.sin()) as Real)
        })
        .collect()
}

/// The largest separation of `a` and `b` over the axes `dirs` (positive: apart by at least
/// that much) — a lower bound on their distance.
pub fn separation_lower_bound(a: &Solid, b: &Solid, dirs: &[Vector]) -> Real {
    dirs.iter()
        .map(|u| {
            let (alo, ahi) = a.project(u);
            let (blo, bhi) = b.project(u);
            (blo - ahi).max(alo - bhi)
        })
        .fold(Real::NEG_INFINITY, Real::max)
}

/// The smallest overlap of the projections of `a` and `b` over the axes `dirs` — an upper
/// bound on the penetration depth (the minimal translation is at most the overlap on any axis).
pub fn overlap_upper_bound(a: &Solid, b: &Solid, dirs: &[Vector]) -> Real {
    -separation_lower_bound(a, b, dirs)
}

/// The smallest distance between a sample of `a` and a sample of `b` — an upper bound on
/// their distance.
pub fn sampled_distance(a: &[Point], b: &[Point]) -> Real {
    let mut best = Real::INFINITY;
    for p in a {
        for q in b {
            best = best.min((p - q).norm_squared());
        }
    }
    best.sqrt()
}

/// `pose` translated by `d`.
pub fn moved(pose: &Isometry, d: Vector) -> Isometry {
    Isometry::from_parts(
        Translation::from(pose.translation.vector + d),
        pose.rotation,
    )
}

//! Independent geometry for the narrow-phase oracles, written from the shapes' recipes (never
//! from the narrow phase's own data): world-space corners, support functions and a generic
//! corner-based separating-axis test (Ericson, RTCD §4.4 and §5.2.1; Gottschalk's OBB test is
//! its 15-axis special case).
//!
//! - The **overlap along a unit axis `n`** (A → B) is `h_A(n) + h_B(−n)`, with `h` the support
//!   function: moving B along `n` by more than it separates the projections on `n`, hence
//!   the shapes. It is exact for every convex shape.
//! - For two polytopes the penetration depth is the least overlap over the candidate axes
//!   (face normals of both, in-plane side normals of flat ones, cross products of edge
//!   directions); a negative least overlap proves separation. [`sat_overlap`] computes it
//!   exactly for polytope pairs and as an upper bound (sampled axes) for round shapes.

use super::input::ShapeRecipe;
use tumble::math::{Isometry, Point, Real, Vector};
use tumble::narrowphase::sat::cuboid_cuboid::PARALLEL_EPSILON;

/// A shape placed in the world, as the oracle sees it.
#[derive(Clone, Debug)]
pub enum Geom {
    /// Every point within `radius` of the core (one point: a ball; two: a capsule's segment).
    Round {
        /// The core's end points, world space.
        core: Vec<Point>,
        /// Radius, metres.
        radius: Real,
    },
    /// The convex hull of `corners` (world space), with its candidate SAT directions.
    Poly {
        /// Corners, world space (a superset of the hull's vertices is fine).
        corners: Vec<Point>,
        /// Candidate face normals (unit, world; sign irrelevant).
        faces: Vec<Vector>,
        /// Edge directions (unit, world; sign irrelevant).
        edges: Vec<Vector>,
    },
}

fn unit(v: Vector) -> Option<Vector> {
    let n = v.norm();
    (n > 1e-6).then(|| v / n)
}

impl Geom {
    /// The recipe placed at `pose`.
    pub fn new(recipe: &ShapeRecipe, pose: &Isometry) -> Geom {
        match recipe {
            ShapeRecipe::Ball(r) => Geom::Round {
                core: vec![pose * Point::origin()],
                radius: *r,
            },
            ShapeRecipe::Capsule(h, r) => Geom::Round {
                core: vec![
                    pose * Point::new(0.0, -h, 0.0),
                    pose * Point::new(0.0, *h, 0.0),
                ],
                radius: *r,
            },
            ShapeRecipe::Cuboid(he) => {
                let corners = (0..8)
                    .map(|k| {
                        let s = |bit: usize| if k >> bit & 1 == 1 { 1.0 } else { -1.0 };
                        pose * Point::new(s(0) * he.x, s(1) * he.y, s(2) * he.z)
                    })
                    .collect();
                let axes: Vec<Vector> = (0..3)
                    .map(|i| pose.rotation * Vector::ith(i, 1.0))
                    .collect();
                Geom::Poly {
                    corners,
                    faces: axes.clone(),
                    edges: axes,
                }
            }
            ShapeRecipe::Triangle(c) => Self::cloud(c.iter().map(|p| pose * p).collect()),
            ShapeRecipe::Hull(points) => Self::cloud(points.iter().map(|p| pose * p).collect()),
        }
    }

    /// A polytope known only by its points: every triple's normal is a candidate face, every
    /// pair a candidate edge, and for flat clouds the in-plane side normals are faces too.
    fn cloud(corners: Vec<Point>) -> Geom {
        let n = corners.len();
        let mut edges = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                edges.extend(unit(corners[j] - corners[i]));
            }
        }
        let mut faces = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                for k in j + 1..n {
                    if let Some(f) =
                        unit((corners[j] - corners[i]).cross(&(corners[k] - corners[i])))
                    {
                        faces.push(f);
                        for e in [
                            corners[j] - corners[i],
                            corners[k] - corners[j],
                            corners[i] - corners[k],
                        ] {
                            faces.extend(unit(f.cross(&e)));
                        }
                    }
                }
            }
        }
        Geom::Poly {
            corners,
            faces,
            edges,
        }
    }

    /// The support function `max_{p ∈ shape} p · d` for a unit `d`.
    pub fn support(&self, d: &Vector) -> Real {
        match self {
            Geom::Round { core, radius } => {
                core.iter()
                    .map(|p| p.coords.dot(d))
                    .fold(Real::NEG_INFINITY, Real::max)
                    + radius
            }
            Geom::Poly { corners, .. } => corners
                .iter()
                .map(|p| p.coords.dot(d))
                .fold(Real::NEG_INFINITY, Real::max),
        }
    }

    /// A point of the shape (its first core point or corner).
    pub fn anchor(&self) -> Point {
        match self {
            Geom::Round { core, .. } => core[0],
            Geom::Poly { corners, .. } => corners[0],
        }
    }

    /// The shape translated by `t`.
    pub fn translated(&self, t: &Vector) -> Geom {
        let mut g = self.clone();
        match &mut g {
            Geom::Round { core, .. } => core.iter_mut().for_each(|p| *p += t),
            Geom::Poly { corners, .. } => corners.iter_mut().for_each(|p| *p += t),
        }
        g
    }
}

/// How far B must move along the unit axis `n` (A → B) to separate the projections; negative
/// when they are already apart by that much.
pub fn overlap_along(a: &Geom, b: &Geom, n: &Vector) -> Real {
    a.support(n) + b.support(&-n)
}

/// The 26 directions to the neighbours of a cube cell, normalised: within 27.4° of any
/// direction, so a translation of length `ε` along one of them moves at least `0.88 ε` along
/// any given axis.
pub fn cube_directions() -> Vec<Vector> {
    let mut out = Vec::with_capacity(26);
    for x in -1i8..=1 {
        for y in -1i8..=1 {
            for z in -1i8..=1 {
                if (x, y, z) != (0, 0, 0) {
                    out.push(Vector::new(x as Real, y as Real, z as Real).normalize());
                }
            }
        }
    }
    out
}

/// The least overlap over the candidate axes and the axis (A → B) giving it. Exact (the
/// penetration depth, or minus a lower bound of the gap) when both shapes are polytopes; for
/// round shapes the axes are sampled and the result is an upper bound of the depth.
/// The boolean says whether the result is exact.
pub fn sat_overlap(a: &Geom, b: &Geom) -> (Real, Vector, bool) {
    let mut axes: Vec<Vector> = cube_directions();
    let mut exact = true;
    for g in [a, b] {
        match g {
            Geom::Poly { faces, .. } => axes.extend_from_slice(faces),
            Geom::Round { core, .. } => {
                exact = false;
                if core.len() == 2 {
                    axes.extend(unit(core[1] - core[0]));
                }
            }
        }
    }
    if let (Geom::Poly { edges: ea, .. }, Geom::Poly { edges: eb, .. }) = (a, b) {
        for u in ea {
            for v in eb {
                axes.extend(unit(u.cross(v)));
            }
        }
    }
    // Round shapes: the directions from each core point to each corner or core point of the
    // other shape and along the core segments' common normal approximate the true axis.
    let points = |g: &Geom| -> Vec<Point> {
        match g {
            Geom::Round { core, .. } => core.clone(),
            Geom::Poly { corners, .. } => corners.clone(),
        }
    };
    if !exact {
        for p in points(a) {
            for q in points(b) {
                axes.extend(unit(q - p));
            }
        }
        if let (Geom::Round { core: ca, .. }, Geom::Round { core: cb, .. }) = (a, b) {
            if ca.len() == 2 && cb.len() == 2 {
                axes.extend(unit((ca[1] - ca[0]).cross(&(cb[1] - cb[0]))));
            }
        }
    }
    let mut best = (Real::INFINITY, Vector::x());
    for axis in axes {
        for n in [axis, -axis] {
            let o = overlap_along(a, b, &n);
            if o < best.0 {
                best = (o, n);
            }
        }
    }
    (best.0, best.1, exact)
}

/// How far apart two boxes can be while `intersection_test` still (by design) says they touch.
///
/// The cuboid–cuboid test (`tumble::narrowphase::sat::cuboid_cuboid`, Ericson RTCD §4.4.1) takes the
/// projection radii with `|Rᵢⱼ| + ε` ([`PARALLEL_EPSILON`]) instead of `|Rᵢⱼ|`, so each radius
/// is overestimated by ε times the sum of the half-extents it multiplies. Per candidate axis
/// (`a₀..a₂`, `b₀..b₂` the boxes' unit axes, `e`, `f` their half-extents; `i₁, i₂` the other
/// two indices of `i`):
///
/// | axis | slack of `rA + rB` | length of the axis | slack of the separation (metres) |
/// |---|---|---|---|
/// | face `aᵢ` | `ε (f₀ + f₁ + f₂)` | 1 | `ε Σf` |
/// | face `bⱼ` | `ε (e₀ + e₁ + e₂)` | 1 | `ε Σe` |
/// | edge `aᵢ × bⱼ` | `ε (e_{i₁} + e_{i₂} + f_{j₁} + f_{j₂})` | `sin θᵢⱼ = ‖aᵢ × bⱼ‖` | slack / `sin θᵢⱼ` |
///
/// The edge axes are not normalised in the test, so their slack is divided by the axis length:
/// for edges θ from parallel it is `ε (…) / sin θ`, millimetres for 6 m boxes at θ ≈ 10⁻³.
/// The test says "touching" only if no axis separates by more than its slack; so a "touching"
/// verdict is correct exactly when every one of the 15 axes separates the boxes by at most its
/// slack (plus the rounding tolerance `tol`). This function checks that.
///
/// `(ha, pa)`, `(hb, pb)`: half-extents and poses; `tol`: the rounding tolerance of the check.
pub fn cuboid_cuboid_within_parallel_slack(
    ha: &Vector,
    pa: &Isometry,
    hb: &Vector,
    pb: &Isometry,
    tol: Real,
) -> bool {
    let ga = Geom::new(&ShapeRecipe::Cuboid(*ha), pa);
    let gb = Geom::new(&ShapeRecipe::Cuboid(*hb), pb);
    let a: Vec<Vector> = (0..3).map(|i| pa.rotation * Vector::ith(i, 1.0)).collect();
    let b: Vec<Vector> = (0..3).map(|j| pb.rotation * Vector::ith(j, 1.0)).collect();
    let (sum_a, sum_b) = (ha.sum(), hb.sum());
    // Separation along unit `n` (either sign): the larger of the two one-sided gaps.
    let gap = |n: &Vector| -overlap_along(&ga, &gb, n).min(overlap_along(&ga, &gb, &-n));
    let eps = PARALLEL_EPSILON;
    let faces_ok = a.iter().all(|n| gap(n) <= eps * sum_b + tol)
        && b.iter().all(|n| gap(n) <= eps * sum_a + tol);
    let edges_ok = (0..3).all(|i| {
        (0..3).all(|j| {
            let l = a[i].cross(&b[j]);
            let len = l.norm();
            let (i1, i2, j1, j2) = ((i + 1) % 3, (i + 2) % 3, (j + 1) % 3, (j + 2) % 3);
            let slack = eps * (ha[i1] + ha[i2] + hb[j1] + hb[j2]);
            // A zero-length axis cannot separate (the test's sums are all ≥ 0 there).
            len == 0.0 || gap(&(l / len)) <= slack / len + tol
        })
    });
    faces_ok && edges_ok
}

//! The exact minimal bounding sphere of a point set, by Welzl's algorithm (E. Welzl,
//! "Smallest enclosing disks (balls and ellipsoids)", 1991), in its incremental form:
//!
//! ```text
//! ball(points[..end], support):          // support: ≤ 4 points that must lie on the surface
//!     s = the sphere through `support` (the smallest such)
//!     if |support| == 4: return s
//!     for i in 0..end:
//!         if points[i] outside s:        // then points[i] is on the surface of ball(points[..=i])
//!             s = ball(points[..i], support + points[i])
//!     return s
//! ```
//!
//! The nesting is at most four deep (one level per support point), so there is no deep
//! recursion whatever the input size, and no explicit stack is needed. Expected time is linear
//! when the points come in random order; to stay deterministic the points are shuffled with a
//! fixed-seed xorshift generator (same input → same sphere, bit for bit).
//!
//! A point counts as inside when within a relative `1e-5` of the radius, so points that should
//! sit on the surface do not re-trigger the nested loop through rounding; a final pass then
//! refits the radius so that every point is contained exactly.

use super::sphere::{enclosing_radius, finite_sphere, BoundingSphere};
use crate::math::{is_finite_point, Point, Real, Vector};

/// A candidate sphere during the search; `radius2 < 0` is the empty sphere.
#[derive(Clone, Copy)]
struct Ball {
    center: Point,
    radius2: Real,
}

impl Ball {
    const EMPTY: Ball = Ball {
        center: Point::new(0.0, 0.0, 0.0),
        radius2: -1.0,
    };

    fn holds(&self, p: &Point) -> bool {
        (p - self.center).norm_squared() <= self.radius2 * (1.0 + 2.0e-5) + Real::MIN_POSITIVE
    }
}

impl BoundingSphere {
    /// The smallest sphere holding every point (Welzl's algorithm, see [`crate::bounding`]'s
    /// `welzl` notes): exact up to a relative `1e-5`. Deterministic. None for an empty slice,
    /// a non-finite point or an overflowing result.
    pub fn from_points_minimal(points: &[Point]) -> Option<Self> {
        if points.is_empty() || !points.iter().all(is_finite_point) {
            return None;
        }
        let mut pts = points.to_vec();
        shuffle(&mut pts);
        let mut support = Vec::with_capacity(4);
        let ball = welzl(&pts, pts.len(), &mut support);
        finite_sphere(ball.center, enclosing_radius(&ball.center, points))
    }
}

/// Fisher–Yates with a fixed-seed xorshift64: deterministic, and random enough to give the
/// expected linear running time on sorted or adversarially ordered input.
fn shuffle(points: &mut [Point]) {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    for i in (1..points.len()).rev() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let j = (state % (i as u64 + 1)) as usize;
        points.swap(i, j);
    }
}

fn welzl(points: &[Point], end: usize, support: &mut Vec<Point>) -> Ball {
    let mut ball = ball_through(support);
    if support.len() == 4 {
        return ball;
    }
    for i in 0..end {
        if !ball.holds(&points[i]) {
            support.push(points[i]);
            ball = welzl(points, i, support);
            support.pop();
        }
    }
    ball
}

/// The smallest sphere with every support point on its surface (0 to 4 points). Degenerate
/// supports (collinear triples, coplanar quadruples) fall back to the smallest sphere through
/// a subset that holds them all.
fn ball_through(support: &[Point]) -> Ball {
    match *support {
        [] => Ball::EMPTY,
        [a] => Ball {
            center: a,
            radius2: 0.0,
        },
        [a, b] => Ball {
            center: nalgebra::center(&a, &b),
            radius2: (b - a).norm_squared() * 0.25,
        },
        [a, b, c] => circumcircle(&a, &b, &c).unwrap_or_else(|| smallest_of_subsets(support)),
        [a, b, c, d] => {
            circumsphere(&a, &b, &c, &d).unwrap_or_else(|| smallest_of_subsets(support))
        }
        _ => smallest_of_subsets(&support[..4]),
    }
}

/// Circle through three points (as a sphere): centre
/// `a + ((|u|² v − |v|² u) × (u × v)) / (2 |u × v|²)` with `u = b − a`, `v = c − a`.
fn circumcircle(a: &Point, b: &Point, c: &Point) -> Option<Ball> {
    let u = b - a;
    let v = c - a;
    let w = u.cross(&v);
    let w2 = w.norm_squared();
    if w2 <= 1.0e-10 * u.norm_squared() * v.norm_squared() {
        return None;
    }
    let offset = (v * u.norm_squared() - u * v.norm_squared()).cross(&w) / (2.0 * w2);
    Some(Ball {
        center: a + offset,
        radius2: offset.norm_squared(),
    })
}

/// Sphere through four points: centre `a + x` with `2 [u; v; w] x = [|u|², |v|², |w|²]`,
/// solved by Cramer's rule as `(|u|² (v × w) + |v|² (w × u) + |w|² (u × v)) / (2 u · (v × w))`.
fn circumsphere(a: &Point, b: &Point, c: &Point, d: &Point) -> Option<Ball> {
    let u = b - a;
    let v = c - a;
    let w = d - a;
    let det = u.dot(&v.cross(&w));
    let scale = u.norm() * v.norm() * w.norm();
    if det.abs() <= 1.0e-5 * scale {
        return None;
    }
    let offset: Vector = (v.cross(&w) * u.norm_squared()
        + w.cross(&u) * v.norm_squared()
        + u.cross(&v) * w.norm_squared())
        / (2.0 * det);
    Some(Ball {
        center: a + offset,
        radius2: offset.norm_squared(),
    })
}

/// The smallest sphere through two or three of `points` that holds them all (brute force over
/// the ≤ 10 subsets; used only for degenerate supports).
fn smallest_of_subsets(points: &[Point]) -> Ball {
    let n = points.len();
    let mut best = Ball::EMPTY;
    let mut consider = |cand: Ball| {
        if (best.radius2 < 0.0 || cand.radius2 < best.radius2)
            && points.iter().all(|p| cand.holds(p))
        {
            best = cand;
        }
    };
    for i in 0..n {
        for j in i + 1..n {
            consider(ball_through(&[points[i], points[j]]));
            for k in j + 1..n {
                if let Some(b) = circumcircle(&points[i], &points[j], &points[k]) {
                    consider(b);
                }
            }
        }
    }
    if best.radius2 < 0.0 {
        // Nothing held them all (cannot happen in exact arithmetic): the centroid sphere.
        let center =
            Point::from(points.iter().fold(Vector::zeros(), |s, p| s + p.coords) / n as Real);
        let r = enclosing_radius(&center, points);
        best = Ball {
            center,
            radius2: r * r,
        };
    }
    best
}

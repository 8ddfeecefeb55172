//! Capsule against sphere and capsule against capsule: closest points of the core segments
//! (Ericson, RTCD §5.1.9), then the sphere–sphere answer on those points; two points when two
//! capsules lie side by side (parallel cores overlapping along their length), so a capsule can
//! rest on another without rocking.

use super::ball_ball::{contact_spheres_or, intersection_ball_ball};
use crate::contact::closest::{closest_point_on_segment, closest_points_segments};
use crate::contact::{ContactPoint, Manifold};
use crate::math::{Point, Real, Vector};

/// A capsule's world core segment and radius.
#[derive(Clone, Copy, Debug)]
pub struct CapsuleCore {
    /// First end (world).
    pub a: Point,
    /// Second end (world).
    pub b: Point,
    /// Radius, metres.
    pub radius: Real,
}

/// True when the capsule and the sphere (world `center`, `radius`) overlap or touch.
pub fn intersection_capsule_ball(cap: &CapsuleCore, center: &Point, radius: Real) -> bool {
    let (q, _) = closest_point_on_segment(center, &cap.a, &cap.b);
    intersection_ball_ball(&q, cap.radius, center, radius)
}

/// Contact of a capsule (A) against a sphere (B), gap at most `prediction`.
pub fn contact_capsule_ball(
    cap: &CapsuleCore,
    center: &Point,
    radius: Real,
    prediction: Real,
) -> Option<Manifold> {
    let (q, t) = closest_point_on_segment(center, &cap.a, &cap.b);
    let axis = cap.b - cap.a;
    // Closest point inside the core: the direction to the centre is exactly across the axis.
    // Rounding leaves a trace of the axis in `center − q` (about one ulp of the coordinates,
    // divided by the distance once normalised), and along the axis the capsule reaches far:
    // remove it.
    let d = if t > 0.0 && t < 1.0 {
        without_component(&(center - q), &axis)
    } else {
        center - q
    };
    // A centre on the core: push out across the core, never along it.
    let across = perpendicular(&axis);
    spheres_apart_by(&q, cap.radius, &d, radius, prediction, &across)
}

/// The sphere–sphere contact of a sphere at `ca` and one at `ca + d`, computed from `d`
/// itself: forming `ca + d` and subtracting again would round `d` to the ulp of the
/// coordinates, which for centres a few µm apart turns the normal by degrees.
fn spheres_apart_by(
    ca: &Point,
    ra: Real,
    d: &Vector,
    rb: Real,
    prediction: Real,
    coincident_normal: &Vector,
) -> Option<Manifold> {
    let at_origin = contact_spheres_or(
        &Point::origin(),
        ra,
        &Point::from(*d),
        rb,
        prediction,
        coincident_normal,
    )?;
    let mut m = Manifold::new(at_origin.normal);
    for p in at_origin.points() {
        m.push(ContactPoint {
            point: p.point + ca.coords,
            ..*p
        });
    }
    Some(m)
}

/// `v` minus its component along `d` (any length; `v` unchanged when `d` is zero), done
/// twice: one pass leaves a residue of about one ulp of `|v|` along `d`, the second removes
/// it to one ulp of the (possibly much shorter) result.
pub(crate) fn without_component(v: &Vector, d: &Vector) -> Vector {
    let Some(u) = d.try_normalize(0.0) else {
        return *v;
    };
    let once = v - u * v.dot(&u);
    once - u * once.dot(&u)
}

/// A unit vector perpendicular to `d` (deterministic; +y when `d` is zero).
fn perpendicular(d: &Vector) -> Vector {
    let a = d.abs();
    // Cross with the coordinate axis least aligned with `d`.
    let e = if a.x <= a.y && a.x <= a.z {
        Vector::x()
    } else if a.y <= a.z {
        Vector::y()
    } else {
        Vector::z()
    };
    d.cross(&e).try_normalize(0.0).unwrap_or_else(Vector::y)
}

/// `d` scaled to unit length, `None` when it is zero. Scaled by its largest component first:
/// a candidate of a few 10⁻²⁰ m (coincident crossing cores) has a squared norm in f32's
/// subnormal range, where `try_normalize` loses digits (fuzz input
/// `capsule_capsule_crossing_depth_minus_tol_separates`: a "unit" normal of length 1.00043,
/// whose depth then overstated the overlap along it by 1.2 mm).
fn unit_of(d: &Vector) -> Option<Vector> {
    let m = d.amax();
    if m > 0.0 && m.is_finite() {
        (d / m).try_normalize(0.0)
    } else {
        None
    }
}

/// True when the two capsules overlap or touch.
pub fn intersection_capsule_capsule(a: &CapsuleCore, b: &CapsuleCore) -> bool {
    let (ca, cb, _, _) = closest_points_segments(&a.a, &a.b, &b.a, &b.b);
    intersection_ball_ball(&ca, a.radius, &cb, b.radius)
}

/// Sine below which two cores count as parallel for the two-point manifold.
const PARALLEL_SINE: Real = 1e-2;

/// Contact of two capsules, gap at most `prediction`. One point (ids 0), or two (ids 1, 2)
/// when the cores are parallel and overlap along their length.
pub fn contact_capsule_capsule(
    a: &CapsuleCore,
    b: &CapsuleCore,
    prediction: Real,
) -> Option<Manifold> {
    let (mut ca, mut cb, mut s, mut t) = closest_points_segments(&a.a, &a.b, &b.a, &b.b);
    let da = a.b - a.a;
    let db = b.b - b.a;
    // Parallel cores that overlap along their length: any pair of closest points is as close as
    // any other, and the segment routine may return two at different heights, whose difference
    // runs along the axis. Take the pair facing each other at the middle of the overlap, so the
    // normal points across the cores (the direction of least depth) - unless the segment
    // routine's pair is closer (cores only nearly parallel, converging within the overlap).
    let (la, lb) = (da.norm(), db.norm());
    if la > 0.0 && lb > 0.0 && da.cross(&db).norm() < PARALLEL_SINE * la * lb {
        let u = da / la;
        let (s0, s1) = (u.dot(&(b.a - a.a)), u.dot(&(b.b - a.a)));
        let (lo, hi) = (s0.min(s1).max(0.0), s0.max(s1).min(la));
        if lo <= hi {
            let mid = a.a + u * (0.5 * (lo + hi));
            let (mid_b, mid_t) = closest_point_on_segment(&mid, &b.a, &b.b);
            let across = |p: Point, q: Point| without_component(&(q - p), &da).norm();
            if across(mid, mid_b) <= across(ca, cb) {
                (s, ca, cb, t) = (0.5 * (lo + hi) / la, mid, mid_b, mid_t);
            }
        }
    }
    // Closest points inside a core: their difference is exactly across that core (across
    // both: along da × db). Remove what rounding left along the axes (see
    // `contact_capsule_ball`).
    let (inside_a, inside_b) = (s > 0.0 && s < 1.0, t > 0.0 && t < 1.0);
    let between = cb - ca;
    let between = match da.cross(&db).try_normalize(0.0) {
        Some(n) if inside_a && inside_b && da.cross(&db).norm() >= PARALLEL_SINE * la * lb => {
            n * n.dot(&between)
        }
        _ if inside_a => without_component(&between, &da),
        _ if inside_b => without_component(&between, &db),
        _ => between,
    };

    // Crossing cores: separate along their common perpendicular, oriented from A to B.
    let across = match da.cross(&db).try_normalize(Real::EPSILON) {
        Some(n) => {
            let centres = (b.a.coords + b.b.coords - a.a.coords - a.b.coords) * 0.5;
            if n.dot(&centres) < 0.0 {
                -n
            } else {
                n
            }
        }
        None => perpendicular(&da),
    };
    // The pair above is the closest up to rounding, but for nearly parallel cores that rounding
    // turns its direction. The depth along a unit `n` is `ra + rb − sep(n)`, `sep(n)` the gap
    // of the cores along it, and the least depth is along the direction of largest `sep`: so
    // the candidate directions (that pair's, across either core at the pair's point, across
    // both cores, a fixed perpendicular of coaxial cores) compete on `sep`, and the winner gives
    // the normal and the depth together.
    let sep = |n: &Vector| {
        n.dot(&b.a.coords).min(n.dot(&b.b.coords)) - n.dot(&a.a.coords).max(n.dot(&a.b.coords))
    };
    let mut candidates = vec![
        between,
        without_component(&between, &db),
        without_component(&between, &da),
        perpendicular(&da),
        -perpendicular(&da),
    ];
    // (Below a sine of 10⁻⁶ the cross product of the axes is rounding noise.)
    if da.cross(&db).norm() > 1e-6 * la * lb {
        if let Some(c) = da.cross(&db).try_normalize(0.0) {
            candidates.extend([c, -c]);
        }
    }
    let mut best: Option<(Real, Vector)> = None;
    for n in candidates.iter().filter_map(unit_of) {
        let g = sep(&n);
        if best.is_none_or(|(bg, _)| g > bg) {
            best = Some((g, n));
        }
    }
    let (between, across) = match best {
        // A positive gap: the difference vector along the winner, of that length. Should the
        // gap be too small for its own direction (coaxial cores a rounding error apart), the
        // winner is still the normal, not `across`: for nearly parallel cores that cross
        // product is rounding noise (fuzz input `capsule_capsule_coaxial_normal_tilted`: a
        // normal 6.5 mrad off the perpendicular of coaxial cores, overlap 9.7 mm more than
        // the depth along it).
        Some((g, n)) if g > 0.0 => (n * g, n),
        // Touching or crossing cores: depth ra + rb along the winner.
        Some((_, n)) => (Vector::zeros(), n),
        None => (between, across),
    };
    let mut m = spheres_apart_by(&ca, a.radius, &between, b.radius, prediction, &across)?;
    if la > 0.0 && lb > 0.0 && da.cross(&db).norm() < PARALLEL_SINE * la * lb {
        // Overlap of B's core projected on A's core, as parameters along A.
        let u = da / la;
        let t0 = u.dot(&(b.a - a.a)).clamp(0.0, la);
        let t1 = u.dot(&(b.b - a.a)).clamp(0.0, la);
        if (t1 - t0).abs() > 1e-3 * la {
            let n = m.normal;
            let mut two = Manifold::new(n);
            for (k, t) in [t0, t1].into_iter().enumerate() {
                let pa = a.a + u * t;
                let (pb, _) = closest_point_on_segment(&pa, &b.a, &b.b);
                let gap = n.dot(&(pb - pa)) - a.radius - b.radius;
                if gap <= prediction {
                    let sa = pa + n * a.radius;
                    two.push(ContactPoint {
                        point: sa + n * (0.5 * gap),
                        depth: -gap,
                        id: 1 + k as u32,
                    });
                }
            }
            if two.len() == 2 {
                two.set_depth(m.depth());
                m = two;
            }
        }
    }
    Some(m)
}

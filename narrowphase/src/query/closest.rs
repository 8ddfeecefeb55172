//! Distance and closest points of any two shapes: the result type, the typed error and the
//! dispatch on the kinds of the pair.
//!
//! Every shape is taken as a *core* (a point for a ball, a segment for a capsule, the shape
//! itself for a box, a triangle or a hull) grown by a radius (zero for the polyhedra). The
//! distance of two shapes is the distance of their cores minus both radii (van den Bergen
//! 2004, §4.3.3; Ericson, RTCD §5.1.9 for capsules): a closed form computes it for the pairs
//! whose cores are points and segments, or a point against a box (the pairs of
//! [`super::closest_round`]), and GJK ([`crate::gjk::distance`]) for every other pair
//! ([`super::closest_gjk`]).
//!
//! When the cores themselves touch, the penetration depth is not a function of the cores'
//! distance: it comes from the pair's contact routine ([`super::contact`]: SAT for polyhedra,
//! the nearest face for a ball centred in a box, the perpendicular of crossing capsule cores),
//! whose depth is the minimal translation along its normal.
//!
//! Every pair is computed with both poses moved to the midpoint of their translations
//! ([`super::Frame::between`]) and the points moved back, so that the answers are as exact far
//! from the origin as next to it (see [`super`], "The frame of computation").

use super::closest_gjk::closest_points_gjk;
use super::closest_round::closest_points_round;
use super::{contact_in_frame, Frame, UnsupportedPair};
use crate::contact::Manifold;
use crate::math::{is_finite_point, is_finite_vector, Isometry, Point, Real, Vector};
use crate::shape::ShapeRef;
use std::fmt;

/// The closest points of two shapes and their signed distance, all in world space (metres).
///
/// - `distance` is **signed**: `> 0` the gap between the shapes, `0` touching, `< 0`
///   penetrating, `−distance` then being the penetration depth (moving B by
///   `normal · (−distance + ε)` separates the pair, by `normal · (−distance − ε)` it does not);
/// - `normal` is unit length and points **from A toward B**: for apart shapes it is the
///   direction of `point_b − point_a` (computed from the cores, so it stays accurate when the
///   gap is tiny);
/// - Apart: `point_a` and `point_b` are the closest points, on A's and B's surfaces,
///   `point_b = point_a + normal · distance` up to rounding. Penetrating: the points half the
///   depth on either side of the contact routine's deepest contact point along `normal` —
///   A's point deepest inside B and B's deepest inside A when the shapes are round or meet
///   vertex to face — again `point_b = point_a + normal · distance` (B's point is then
///   *behind* A's).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClosestPoints {
    /// Signed distance, metres: positive apart, negative penetrating.
    pub distance: Real,
    /// Closest (or deepest) point of A, world space.
    pub point_a: Point,
    /// Closest (or deepest) point of B, world space.
    pub point_b: Point,
    /// Unit direction from A toward B, world space.
    pub normal: Vector,
}

impl ClosestPoints {
    /// True when every field is finite (the queries return no other result).
    #[inline]
    pub fn is_finite(&self) -> bool {
        self.distance.is_finite()
            && is_finite_point(&self.point_a)
            && is_finite_point(&self.point_b)
            && is_finite_vector(&self.normal)
    }

    /// The same pair seen from B: normal negated, points swapped, distance unchanged.
    #[inline]
    pub fn flipped(&self) -> Self {
        Self {
            distance: self.distance,
            point_a: self.point_b,
            point_b: self.point_a,
            normal: -self.normal,
        }
    }

    /// The result for a penetrating (or touching) pair from its contact manifold: the deepest
    /// contact point (midway between the surfaces) moved half the depth onto each surface.
    pub(crate) fn from_manifold(m: &Manifold) -> Option<Self> {
        let deepest = m
            .points()
            .iter()
            .max_by(|x, y| x.depth.total_cmp(&y.depth))?;
        let depth = m.depth().max(deepest.depth);
        let half = m.normal * (0.5 * depth);
        Some(Self {
            distance: -depth,
            point_a: deepest.point + half,
            point_b: deepest.point - half,
            normal: m.normal,
        })
    }
}

/// Why a distance query or a shape cast has no answer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum QueryError {
    /// A pose or velocity was NaN or infinite, or a result would overflow. Names the input.
    NonFinite(&'static str),
    /// A pose's rotation is not a unit quaternion (its squared norm is more than 10⁻³ from 1).
    /// Names the pose.
    NotUnitRotation(&'static str),
    /// An option out of its documented range. Names the option and the range.
    InvalidOption(&'static str),
    /// The crate has no algorithm for this pair of kinds.
    Unsupported(UnsupportedPair),
}

impl fmt::Display for QueryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QueryError::NonFinite(what) => write!(f, "{what} is not finite or out of range"),
            QueryError::NotUnitRotation(what) => {
                write!(f, "the rotation of {what} is not a unit quaternion")
            }
            QueryError::InvalidOption(what) => write!(f, "option out of range: {what}"),
            QueryError::Unsupported(p) => p.fmt(f),
        }
    }
}

impl std::error::Error for QueryError {}

impl From<UnsupportedPair> for QueryError {
    fn from(p: UnsupportedPair) -> Self {
        QueryError::Unsupported(p)
    }
}

/// Largest departure of a pose rotation's squared norm from 1 that the queries accept.
const UNIT_TOLERANCE: Real = 1e-3;

/// Checks a pose: finite translation, finite unit rotation (its quaternion's squared norm
/// within [`UNIT_TOLERANCE`] of 1). `what` names the pose in the error.
#[inline]
pub(crate) fn check_pose(p: &Isometry, what: &'static str) -> Result<(), QueryError> {
    let q = &p.rotation.coords;
    if !(is_finite_vector(&p.translation.vector) && q.iter().all(|c| c.is_finite())) {
        return Err(QueryError::NonFinite(what));
    }
    if (q.norm_squared() - 1.0).abs() > UNIT_TOLERANCE {
        return Err(QueryError::NotUnitRotation(what));
    }
    Ok(())
}

/// Distance between `a` at `pose_a` and `b` at `pose_b`, metres: `> 0` apart, `0` when they
/// touch or overlap. Closed forms for ball–ball, ball–cuboid, capsule–ball and
/// capsule–capsule, GJK for the other pairs (see the module docs); unlike
/// [`closest_points`], it skips the penetration depth of overlapping pairs. Errors:
/// [`QueryError::NonFinite`] for a non-finite pose (or a result that would overflow),
/// [`QueryError::NotUnitRotation`] for a pose whose rotation is not unit,
/// [`QueryError::Unsupported`] for a pair without an algorithm.
///
/// ```
/// use tumble_narrowphase::math::Isometry;
/// use tumble_narrowphase::query;
/// use tumble_narrowphase::shape::Ball;
///
/// let b = Ball::new(1.0).unwrap();
/// let d = query::distance(&Isometry::identity(), &b, &Isometry::translation(3.0, 0.0, 0.0), &b);
/// assert!((d.unwrap() - 1.0).abs() < 1e-6);
/// ```
pub fn distance<'a, 'b>(
    pose_a: &Isometry,
    a: impl Into<ShapeRef<'a>>,
    pose_b: &Isometry,
    b: impl Into<ShapeRef<'b>>,
) -> Result<Real, QueryError> {
    let (a, b) = (a.into(), b.into());
    check_pose(pose_a, "pose of A")?;
    check_pose(pose_b, "pose of B")?;
    // A compound or a mesh computes in its own frame, part by part.
    if let Some(r) = super::compound::distance_pair(pose_a, a, pose_b, b) {
        return r;
    }
    if let Some(r) = crate::mesh::distance::distance_pair(pose_a, a, pose_b, b) {
        return r;
    }
    let f = Frame::between(pose_a, pose_b);
    let (pose_a, pose_b) = (&f.pose(pose_a), &f.pose(pose_b));
    // Overlapping cores need no penetration depth here: the distance is 0.
    let d = match closest_points_round(pose_a, a, pose_b, b) {
        Some(c) => c.distance.max(0.0),
        None => closest_points_gjk(pose_a, a, pose_b, b)?.map_or(0.0, |c| c.distance.max(0.0)),
    };
    if d.is_finite() {
        Ok(d)
    } else {
        Err(QueryError::NonFinite("result (the poses are too far out)"))
    }
}

/// Signed distance between `a` at `pose_a` and `b` at `pose_b`, metres: the gap when apart,
/// minus the penetration depth when they overlap (see [`ClosestPoints::distance`]). Errors as
/// [`distance`].
pub fn signed_distance<'a, 'b>(
    pose_a: &Isometry,
    a: impl Into<ShapeRef<'a>>,
    pose_b: &Isometry,
    b: impl Into<ShapeRef<'b>>,
) -> Result<Real, QueryError> {
    closest_points(pose_a, a, pose_b, b).map(|c| c.distance)
}

/// The closest points of `a` at `pose_a` and `b` at `pose_b`, their signed distance and the
/// unit normal from A to B, world space (see [`ClosestPoints`] for the conventions, also for
/// penetrating pairs). Errors as [`distance`].
///
/// ```
/// use tumble_narrowphase::math::{Isometry, Vector};
/// use tumble_narrowphase::query;
/// use tumble_narrowphase::shape::{Ball, Cuboid};
///
/// let cube = Cuboid::new(Vector::new(0.5, 0.5, 0.5)).unwrap();
/// let ball = Ball::new(0.25).unwrap();
/// let c = query::closest_points(&Isometry::identity(), &cube,
///                               &Isometry::translation(2.0, 0.0, 0.0), &ball).unwrap();
/// assert!((c.distance - 1.25).abs() < 1e-6);
/// assert!((c.point_a.x - 0.5).abs() < 1e-6 && (c.point_b.x - 1.75).abs() < 1e-6);
/// assert_eq!(c.normal, Vector::x());
/// ```
pub fn closest_points<'a, 'b>(
    pose_a: &Isometry,
    a: impl Into<ShapeRef<'a>>,
    pose_b: &Isometry,
    b: impl Into<ShapeRef<'b>>,
) -> Result<ClosestPoints, QueryError> {
    let (a, b) = (a.into(), b.into());
    check_pose(pose_a, "pose of A")?;
    check_pose(pose_b, "pose of B")?;
    // A compound or a mesh computes in its own frame, part by part.
    if let Some(r) = super::compound::closest_points_pair(pose_a, a, pose_b, b) {
        return r;
    }
    if let Some(r) = crate::mesh::distance::closest_points_pair(pose_a, a, pose_b, b) {
        return r;
    }
    let f = Frame::between(pose_a, pose_b);
    let c = f.world_closest(closest_points_in_frame(
        &f.pose(pose_a),
        a,
        &f.pose(pose_b),
        b,
    )?);
    if c.is_finite() {
        Ok(c)
    } else {
        Err(QueryError::NonFinite("result (the poses are too far out)"))
    }
}

/// [`closest_points`] of two checked poses already moved next to the pair (a sweep's frame),
/// points in that frame.
pub(crate) fn closest_points_in_frame(
    pose_a: &Isometry,
    a: ShapeRef,
    pose_b: &Isometry,
    b: ShapeRef,
) -> Result<ClosestPoints, QueryError> {
    let c = match closest_points_round(pose_a, a, pose_b, b) {
        Some(c) => c,
        None => match closest_points_gjk(pose_a, a, pose_b, b)? {
            Some(c) => c,
            None => penetration(pose_a, a, pose_b, b)?,
        },
    };
    // Rounding (on shapes far apart, or of extreme sizes) can leave a normal that is not unit:
    // rescale it, or use the direction between the origins (+y when they coincide).
    let c = if (c.normal.norm() - 1.0).abs() <= 1e-4 {
        c
    } else {
        ClosestPoints {
            normal: unit_of(&c.normal)
                .or_else(|| unit_of(&(pose_b.translation.vector - pose_a.translation.vector)))
                .unwrap_or_else(Vector::y),
            ..c
        }
    };
    if c.is_finite() {
        Ok(c)
    } else {
        Err(QueryError::NonFinite("result (the poses are too far out)"))
    }
}

/// `v` scaled to unit length (by its largest component first, so that subnormal vectors keep
/// their direction), `None` when it is zero or not finite.
fn unit_of(v: &Vector) -> Option<Vector> {
    let m = v.amax();
    if m > 0.0 && m.is_finite() {
        (v / m).try_normalize(0.0)
    } else {
        None
    }
}

/// The answer for shapes whose cores touch: the contact routine's minimal translation. When
/// the contact routine sees a gap of rounding size instead (GJK and SAT disagreeing on a
/// touching pair), the pair touches: distance 0, both points where the gap's midpoint is; when
/// it sees none within `10⁻⁴ (1 + |origin offset|)` metres, distance 0 at the midpoint of the
/// two origins.
fn penetration(
    pose_a: &Isometry,
    a: ShapeRef,
    pose_b: &Isometry,
    b: ShapeRef,
) -> Result<ClosestPoints, QueryError> {
    let reach = 1e-4 * (1.0 + (pose_b.translation.vector - pose_a.translation.vector).norm());
    for prediction in [0.0, reach] {
        if let Some(c) = contact_in_frame(pose_a, a, pose_b, b, prediction)?
            .as_ref()
            .and_then(ClosestPoints::from_manifold)
        {
            // A gap of rounding size next to cores that GJK saw touching: touching.
            let half = c.normal * (0.5 * c.distance.max(0.0));
            return Ok(ClosestPoints {
                distance: c.distance.min(0.0),
                point_a: c.point_a + half,
                point_b: c.point_b - half,
                normal: c.normal,
            });
        }
    }
    let (ca, cb) = (
        Point::from(pose_a.translation.vector),
        Point::from(pose_b.translation.vector),
    );
    let mid = ca + (cb - ca) * 0.5;
    Ok(ClosestPoints {
        distance: 0.0,
        point_a: mid,
        point_b: mid,
        normal: unit_of(&(cb - ca)).unwrap_or_else(Vector::y),
    })
}

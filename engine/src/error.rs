//! Typed errors of the engine. Every message names the problem and, where there is one, the fix.

use crate::handle::BodyHandle;
use std::fmt;
use tumble_broadphase::BroadPhaseError;
use tumble_narrowphase::math::Real;
use tumble_narrowphase::ShapeError;

/// Why a world call was refused. Nothing is changed when an error is returned.
#[derive(Clone, Debug, PartialEq)]
pub enum WorldError {
    /// A position, rotation, velocity, force, impulse, size or time was NaN or infinite. Names the field.
    NonFinite(&'static str),
    /// A rotation quaternion whose norm is not 1 (within 10⁻³): it is not a rotation. Names
    /// the pose and gives the norm found; normalise the quaternion (e.g.
    /// `UnitQuaternion::new_normalize`) before handing it over.
    NotUnit {
        /// The pose whose rotation is not a unit quaternion.
        what: &'static str,
        /// The quaternion's norm.
        norm: Real,
    },
    /// The inertia tensor of a dynamic body has no inverse representable in `f32`: the body is
    /// too small and light (inverse above `f32::MAX`) or too large and heavy for single
    /// precision. Gives the tensor's largest diagonal entry, kg·m²; change the body's size or
    /// density.
    InertiaOutOfRange(Real),
    /// A quantity that must be strictly positive (mass, density, dt, …) was zero or negative.
    NonPositive(&'static str, Real),
    /// A quantity that must be at least zero (friction, damping, a frame time) was negative.
    Negative(&'static str, Real),
    /// A quantity outside its closed range `[min, max]` (restitution must lie in `[0, 1]`).
    OutOfRange {
        /// The field.
        what: &'static str,
        /// The value given.
        value: Real,
        /// Smallest allowed value.
        min: Real,
        /// Largest allowed value.
        max: Real,
    },
    /// The handle refers to a body that was removed (or never existed in this world).
    StaleHandle(BodyHandle),
    /// The handle refers to a collider of a [`CollisionWorld`](crate::CollisionWorld) that was
    /// removed (slot index given).
    StaleCollider(u32),
    /// The operation needs a dynamic body (forces, impulses) and this one is static or kinematic.
    NotDynamic(BodyHandle),
    /// The operation drives a kinematic body (a target pose) and this one is static or dynamic.
    NotKinematic(BodyHandle),
    /// The shape refused its parameters.
    Shape(ShapeError),
    /// The broad phase refused an operation (its typed error is kept).
    BroadPhase(BroadPhaseError),
    /// A configuration value is invalid (message says which and why).
    Config(String),
    /// A snapshot could not be decoded or failed validation after decoding.
    Snapshot(String),
    /// The handle refers to a joint that was removed (or never existed in this world).
    StaleJoint(crate::handle::JointHandle),
    /// A joint description is invalid (the message says why).
    Joint(&'static str),
    /// A dynamic body was given a triangle mesh or heightfield ([`Shape::TriMesh`],
    /// [`Shape::HeightField`]). A mesh is a surface, not a solid: it encloses no volume, so it
    /// has no mass or inertia to move it by, and it has no inside, so a body pushed through it
    /// stays caught on the far side. Make the body static or kinematic, or give a dynamic body
    /// convex shapes (several of them as a compound,
    /// [`Shape::compound`](tumble_narrowphase::Shape::compound)).
    ///
    /// [`Shape::TriMesh`]: tumble_narrowphase::Shape::TriMesh
    /// [`Shape::HeightField`]: tumble_narrowphase::Shape::HeightField
    DynamicMesh,
}

impl fmt::Display for WorldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WorldError::NonFinite(what) => write!(f, "{what} is not finite (NaN or infinite)"),
            WorldError::NotUnit { what, norm } => write!(
                f,
                "{what} has a rotation quaternion of norm {norm}: a rotation must be a unit \
                 quaternion (normalise it)"
            ),
            WorldError::InertiaOutOfRange(i) => write!(
                f,
                "inertia tensor (largest entry {i} kg·m²) has no inverse representable in f32: \
                 the body is too small and light, or too large and heavy, for single precision; \
                 change its size or density"
            ),
            WorldError::NonPositive(what, v) => write!(f, "{what} must be positive, got {v}"),
            WorldError::Negative(what, v) => write!(f, "{what} must not be negative, got {v}"),
            WorldError::OutOfRange {
                what,
                value,
                min,
                max,
            } => write!(f, "{what} must lie in [{min}, {max}], got {value}"),
            WorldError::StaleHandle(h) => write!(
                f,
                "stale body handle {h:?}: the body was removed or belongs to another world"
            ),
            WorldError::StaleCollider(i) => write!(
                f,
                "stale collider handle (slot {i}): the collider was removed"
            ),
            WorldError::NotDynamic(h) => write!(
                f,
                "body {h:?} is not dynamic: forces and impulses act on dynamic bodies only"
            ),
            WorldError::NotKinematic(h) => write!(
                f,
                "body {h:?} is not kinematic: only kinematic bodies follow a target pose"
            ),
            WorldError::Shape(e) => write!(f, "invalid shape: {e}"),
            WorldError::BroadPhase(e) => write!(f, "broad phase error: {e}"),
            WorldError::Config(e) => write!(f, "invalid world configuration: {e}"),
            WorldError::Snapshot(e) => write!(f, "invalid snapshot: {e}"),
            WorldError::StaleJoint(h) => write!(
                f,
                "stale joint handle {h:?}: the joint was removed or belongs to another world"
            ),
            WorldError::Joint(e) => write!(f, "invalid joint: {e}"),
            WorldError::DynamicMesh => f.write_str(
                "a triangle mesh or heightfield cannot be the shape of a dynamic body (it has no \
                 volume, mass or inside): make the body static or kinematic",
            ),
        }
    }
}

impl std::error::Error for WorldError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            WorldError::Shape(e) => Some(e),
            WorldError::BroadPhase(e) => Some(e),
            _ => None,
        }
    }
}

impl From<tumble_narrowphase::ShapeError> for WorldError {
    fn from(e: tumble_narrowphase::ShapeError) -> Self {
        WorldError::Shape(e)
    }
}

/// `Ok` when `finite`, else [`WorldError::NonFinite`] naming `what`.
fn finite_if(finite: bool, what: &'static str) -> Result<(), WorldError> {
    if finite {
        Ok(())
    } else {
        Err(WorldError::NonFinite(what))
    }
}

/// Checks that `v` is finite, naming `what` otherwise.
pub(crate) fn check_finite(what: &'static str, v: Real) -> Result<(), WorldError> {
    finite_if(v.is_finite(), what)
}

/// Checks that every component of `v` is finite.
pub(crate) fn check_vector(
    what: &'static str,
    v: &tumble_narrowphase::math::Vector,
) -> Result<(), WorldError> {
    finite_if(tumble_narrowphase::math::is_finite_vector(v), what)
}

/// Checks that a rotation quaternion is finite ([`WorldError::NonFinite`]) and of unit norm
/// within 10⁻³ ([`WorldError::NotUnit`]); the caller renormalises it.
pub(crate) fn check_rotation(
    what: &'static str,
    r: &tumble_narrowphase::math::Rotation,
) -> Result<(), WorldError> {
    let q = r.quaternion();
    finite_if(q.coords.iter().all(|c| c.is_finite()), what)?;
    let norm = q.norm();
    if (norm - 1.0).abs() < 1e-3 {
        Ok(())
    } else {
        Err(WorldError::NotUnit { what, norm })
    }
}

/// Checks that an isometry has a finite translation and a finite unit rotation.
pub(crate) fn check_isometry(
    what: &'static str,
    p: &tumble_narrowphase::math::Isometry,
) -> Result<(), WorldError> {
    check_vector(what, &p.translation.vector)?;
    check_rotation(what, &p.rotation)
}

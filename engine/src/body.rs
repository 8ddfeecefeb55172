//! Bodies: kinds, the builder users make them with, the stored state, and the read-only view.

use crate::error::{check_isometry, check_vector, WorldError};
use crate::material::{CombineRule, Material};
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};
use tumble_narrowphase::math::{Isometry, Matrix, Real, Rotation, Vector};
use tumble_narrowphase::shape::Shape;

/// How a body moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub enum BodyKind {
    /// Moved by gravity, forces and contacts; has finite mass.
    Dynamic,
    /// Never moves (unless the user sets its pose); infinite mass.
    Static,
    /// Moves with the velocity the user sets, unaffected by contacts or gravity; infinite mass.
    Kinematic,
}

/// Makes a body: `BodyBuilder::dynamic(shape).translation(v).density(2.0)`; handed to
/// [`World::insert`](crate::World::insert), which validates every field.
///
/// **Several shapes on one body** come as one shape, a compound
/// ([`Shape::compound`](tumble_narrowphase::Shape::compound), a list of `(pose, shape)` with
/// each pose in the body frame), on a body of any kind:
///
/// ```
/// use tumble::math::{Isometry, Vector};
/// use tumble::narrowphase::shape::{Cuboid, Shape};
/// use tumble::{BodyBuilder, World, WorldConfig};
///
/// let top = Cuboid::new(Vector::new(1.0, 0.05, 0.6)).unwrap();
/// let leg = Cuboid::new(Vector::new(0.05, 0.4, 0.05)).unwrap();
/// let mut parts = vec![(Isometry::translation(0.0, 0.85, 0.0), Shape::from(top))];
/// for (x, z) in [(-0.9, -0.5), (0.9, -0.5), (-0.9, 0.5), (0.9, 0.5)] {
///     parts.push((Isometry::translation(x, 0.4, z), Shape::from(leg)));
/// }
/// let table = Shape::compound(parts).unwrap(); // a leg that is a mesh would be refused here
/// let mut world = World::new(WorldConfig::default()).unwrap();
/// let h = world.insert(BodyBuilder::dynamic(table).translation(Vector::new(0.0, 0.1, 0.0))).unwrap();
/// // The body's origin stays where the parts were placed from (the floor under the legs);
/// // it turns about the parts' centre of mass, higher up.
/// let b = world.body(h).unwrap();
/// assert_eq!(b.translation(), Vector::new(0.0, 0.1, 0.0));
/// assert!(b.center_of_mass().y > 0.5);
/// ```
///
/// This is rapier's `SharedShape::compound` (parry's `Compound`) rather than Box2D's one call
/// per shape: a body keeps one shape, so every world query, the snapshot, the broad phase
/// (one box per body) and the contact cache (one manifold per pair of bodies) take a compound
/// as they take any shape, and a bad part is refused with a typed
/// [`ShapeError`](tumble_narrowphase::ShapeError) where the compound is made, naming the part,
/// not later at insert. The body frame is the compound's frame: the origin is where the parts
/// were placed from, the centre of mass the parts' own (stored per body, so the origin need
/// not be the centre of mass), and mass and inertia the parts' summed at the body's density.
#[derive(Clone, Debug)]
pub struct BodyBuilder {
    pub(crate) kind: BodyKind,
    pub(crate) shape: Shape,
    pub(crate) pose: Isometry,
    pub(crate) linvel: Vector,
    pub(crate) angvel: Vector,
    pub(crate) material: Material,
    pub(crate) memberships: u32,
    pub(crate) filter: u32,
    pub(crate) sensor: bool,
    pub(crate) ccd: bool,
    pub(crate) local_offset: Isometry,
    pub(crate) user_data: u64,
    pub(crate) can_sleep: bool,
    pub(crate) sleeping: bool,
    pub(crate) kinematic_contacts: bool,
}

impl BodyBuilder {
    fn new(kind: BodyKind, shape: impl Into<Shape>) -> Self {
        Self {
            kind,
            shape: shape.into(),
            pose: Isometry::identity(),
            linvel: Vector::zeros(),
            angvel: Vector::zeros(),
            material: Material::default(),
            memberships: u32::MAX,
            filter: u32::MAX,
            sensor: false,
            ccd: false,
            local_offset: Isometry::identity(),
            user_data: 0,
            can_sleep: true,
            sleeping: false,
            kinematic_contacts: false,
        }
    }

    /// A dynamic body with this shape.
    pub fn dynamic(shape: impl Into<Shape>) -> Self {
        Self::new(BodyKind::Dynamic, shape)
    }

    /// A static (fixed) body with this shape.
    pub fn fixed(shape: impl Into<Shape>) -> Self {
        Self::new(BodyKind::Static, shape)
    }

    /// A kinematic body with this shape.
    pub fn kinematic(shape: impl Into<Shape>) -> Self {
        Self::new(BodyKind::Kinematic, shape)
    }

    /// Position of the body frame's origin, world frame, metres.
    pub fn translation(mut self, t: Vector) -> Self {
        self.pose.translation.vector = t;
        self
    }

    /// Orientation of the body frame, world frame.
    pub fn rotation(mut self, r: Rotation) -> Self {
        self.pose.rotation = r;
        self
    }

    /// The whole pose of the body frame.
    pub fn pose(mut self, p: Isometry) -> Self {
        self.pose = p;
        self
    }

    /// Linear velocity of the centre of mass, world frame, m/s.
    pub fn linvel(mut self, v: Vector) -> Self {
        self.linvel = v;
        self
    }

    /// Angular velocity, world frame, rad/s.
    pub fn angvel(mut self, w: Vector) -> Self {
        self.angvel = w;
        self
    }

    /// Density, kg/m³ (> 0 for dynamic bodies).
    pub fn density(mut self, d: Real) -> Self {
        self.material.density = d;
        self
    }

    /// Friction coefficient (≥ 0).
    pub fn friction(mut self, f: Real) -> Self {
        self.material.friction = f;
        self
    }

    /// Restitution in `[0, 1]`.
    pub fn restitution(mut self, e: Real) -> Self {
        self.material.restitution = e;
        self
    }

    /// How its friction combines with another body's (default: geometric mean).
    pub fn friction_combine(mut self, rule: CombineRule) -> Self {
        self.material.friction_combine = rule;
        self
    }

    /// How its restitution combines with another body's (default: maximum).
    pub fn restitution_combine(mut self, rule: CombineRule) -> Self {
        self.material.restitution_combine = rule;
        self
    }

    /// The whole material.
    pub fn material(mut self, m: Material) -> Self {
        self.material = m;
        self
    }

    /// Collision groups: two bodies interact when `a.memberships & b.filter != 0` and
    /// `b.memberships & a.filter != 0`. Default: all bits in both.
    pub fn collision_groups(mut self, memberships: u32, filter: u32) -> Self {
        self.memberships = memberships;
        self.filter = filter;
        self
    }

    /// A sensor reports overlaps ([`Event::SensorEnter`](crate::Event::SensorEnter) /
    /// [`Event::SensorExit`](crate::Event::SensorExit)) and takes part in no contact response.
    pub fn sensor(mut self, s: bool) -> Self {
        self.sensor = s;
        self
    }

    /// Continuous collision for this body (when [`WorldConfig::ccd`](crate::WorldConfig::ccd) is on).
    pub fn ccd(mut self, on: bool) -> Self {
        self.ccd = on;
        self
    }

    /// Pose of the shape in the body frame (the centre of mass is the shape's own, placed by
    /// this pose; for a compound, its parts').
    pub fn local_offset(mut self, o: Isometry) -> Self {
        self.local_offset = o;
        self
    }

    /// Any number the user wants to find again on the body.
    pub fn user_data(mut self, d: u64) -> Self {
        self.user_data = d;
        self
    }

    /// Whether the body may fall asleep with its island (default: true; see [`crate::island`]).
    /// A body that may not keeps every island it touches awake: nothing it rests on sleeps.
    pub fn can_sleep(mut self, can: bool) -> Self {
        self.can_sleep = can;
        self
    }

    /// Contacts with static and kinematic bodies too (default: false; rapier's
    /// `ActiveCollisionTypes::KINEMATIC_FIXED | KINEMATIC_KINEMATIC`). A pair of a kinematic
    /// body with a static or kinematic body gets contact manifolds (in
    /// [`World::contacts`](crate::World::contacts) and
    /// [`World::contacts_of`](crate::World::contacts_of)) and contact events when either body
    /// asks for them: a kinematic player or platform learns what it touches. Such a pair is
    /// never solved (neither body can be pushed). Contacts with dynamic bodies are always on.
    pub fn kinematic_contacts(mut self, on: bool) -> Self {
        self.kinematic_contacts = on;
        self
    }

    /// Inserts the body asleep (default: false), as an island of its own: it costs nothing
    /// until something wakes it (see [`crate::island`]). Only a dynamic body that may sleep,
    /// at rest (zero velocities), in a world with [`WorldConfig::sleep`](crate::WorldConfig::sleep)
    /// on, can be inserted asleep; [`World::insert`](crate::World::insert) refuses the others
    /// with [`WorldError::Config`].
    pub fn sleeping(mut self, asleep: bool) -> Self {
        self.sleeping = asleep;
        self
    }

    /// Validates every field and computes the mass properties.
    pub(crate) fn build(self) -> Result<Body, WorldError> {
        check_isometry("body pose", &self.pose)?;
        check_isometry("local offset", &self.local_offset)?;
        check_vector("linear velocity", &self.linvel)?;
        check_vector("angular velocity", &self.angvel)?;
        self.material.validate()?;
        let shape_aabb = self.shape.aabb(&Isometry::identity());
        if !shape_aabb.is_valid() {
            return Err(WorldError::NonFinite("shape size"));
        }
        let mut pose = self.pose;
        pose.rotation.renormalize();
        let mut local_offset = self.local_offset;
        local_offset.rotation.renormalize();
        let MassProps {
            com_local,
            mass,
            inv_mass,
            inv_inertia_local: inv_inertia,
        } = MassProps::of(self.kind, &self.shape, self.material.density, &local_offset)?;
        if self.sleeping {
            if self.kind != BodyKind::Dynamic || !self.can_sleep {
                return Err(WorldError::Config(
                    "only a dynamic body that may sleep can be inserted asleep".into(),
                ));
            }
            if self.linvel != Vector::zeros() || self.angvel != Vector::zeros() {
                return Err(WorldError::Config(
                    "a body inserted asleep must have zero velocities".into(),
                ));
            }
        }
        let (linvel, angvel) = if self.kind == BodyKind::Static {
            (Vector::zeros(), Vector::zeros())
        } else {
            (self.linvel, self.angvel)
        };
        Ok(Body {
            kind: self.kind,
            shape: self.shape,
            local_offset,
            com_local,
            material: self.material,
            pose,
            prev_pose: pose,
            rest_pose: pose,
            linvel,
            angvel,
            force: Vector::zeros(),
            torque: Vector::zeros(),
            mass,
            inv_mass,
            inv_inertia_local: inv_inertia,
            memberships: self.memberships,
            filter: self.filter,
            sensor: self.sensor,
            ccd: self.ccd,
            user_data: self.user_data,
            frozen: false,
            can_sleep: self.can_sleep,
            kinematic_contacts: self.kinematic_contacts,
            sleep_time: 0.0,
            smoothed_vel: (Vector::zeros(), Vector::zeros()),
            // `World::insert` puts a body built asleep into an island of its own.
            island: AWAKE,
        })
    }
}

/// The mass properties a body stores, all derived from its kind, shape, density and local
/// offset (and so recomputed and compared when a snapshot is restored).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct MassProps {
    /// Centre of mass in the body frame, metres.
    pub com_local: Vector,
    /// kg; 0 unless dynamic.
    pub mass: Real,
    /// 1/kg; 0 unless dynamic.
    pub inv_mass: Real,
    /// Inverse inertia about the centre of mass, body frame, 1/(kg·m²); 0 unless dynamic.
    pub inv_inertia_local: Matrix,
}

impl MassProps {
    /// The mass properties of a body of `kind` with `shape` of `density` (kg/m³) placed in the
    /// body frame by `local_offset` (whose rotation is already normalised); errors as
    /// [`World::insert`](crate::World::insert) does when a dynamic body has no usable mass or
    /// inertia, or has a mesh ([`WorldError::DynamicMesh`]).
    pub(crate) fn of(
        kind: BodyKind,
        shape: &Shape,
        density: Real,
        local_offset: &Isometry,
    ) -> Result<MassProps, WorldError> {
        if kind == BodyKind::Dynamic && shape.is_mesh() {
            return Err(WorldError::DynamicMesh);
        }
        let props = shape.mass_properties(density);
        // Centre of mass in the body frame: the shape's own centre of mass, placed by the offset.
        let com_local = (local_offset * props.local_center).coords;
        let (mass, inertia) = match kind {
            BodyKind::Dynamic => {
                let m = props.mass;
                if !(m.is_finite() && m > 0.0) {
                    return Err(WorldError::NonPositive("mass (density × volume)", m));
                }
                let r = local_offset.rotation.to_rotation_matrix();
                let i = r.matrix() * props.inertia * r.matrix().transpose();
                if !i.iter().all(|x| x.is_finite()) {
                    return Err(WorldError::NonFinite("inertia tensor"));
                }
                (m, i)
            }
            _ => (0.0, Matrix::zeros()),
        };
        let (inv_mass, inv_inertia_local) = if mass > 0.0 {
            let inv = invert_inertia(&inertia).ok_or_else(|| {
                WorldError::InertiaOutOfRange(inertia.iter().fold(0.0, |a, x| a.max(x.abs())))
            })?;
            (1.0 / mass, inv)
        } else {
            (0.0, Matrix::zeros())
        };
        Ok(MassProps {
            com_local,
            mass,
            inv_mass,
            inv_inertia_local,
        })
    }

    /// True when every number of `self` has the bit pattern of the same number of `other`.
    pub(crate) fn same_bits(&self, other: &MassProps) -> bool {
        fn numbers(p: &MassProps) -> impl Iterator<Item = u32> + '_ {
            [p.mass, p.inv_mass]
                .into_iter()
                .chain(p.com_local.iter().copied())
                .chain(p.inv_inertia_local.iter().copied())
                .map(Real::to_bits)
        }
        numbers(self).eq(numbers(other))
    }

    /// The stored mass properties of `body`.
    pub(crate) fn stored(body: &Body) -> MassProps {
        MassProps {
            com_local: body.com_local,
            mass: body.mass,
            inv_mass: body.inv_mass,
            inv_inertia_local: body.inv_inertia_local,
        }
    }
}

/// The inverse of a symmetric positive-definite inertia tensor (kg·m² → 1/(kg·m²)), or `None`
/// when it has none representable in `f32` (a diagonal entry of the inverse not a positive
/// normal `f32`).
///
/// Where the tensor's determinant is a normal `f32` (a ball of density 1 between about 3 mm and
/// 300 m, of density 1000 between about 0.7 mm and 80 m) this is `f32`'s own 3 × 3 inverse.
/// Beyond, the determinant, a cube of the moments, under- or overflows `f32` long before the
/// inverse does, so the tensor is inverted in `f64`, where it cannot, and the result rounded
/// to `f32` (as it is when `f32`'s inverse is not usable).
pub(crate) fn invert_inertia(inertia: &Matrix) -> Option<Matrix> {
    let usable = |inv: &Matrix| {
        inv.iter().all(|x| x.is_finite())
            && (0..3).all(|i| inv[(i, i)].is_normal() && inv[(i, i)] > 0.0)
    };
    if inertia.determinant().is_normal() {
        if let Some(inv) = inertia.try_inverse().filter(usable) {
            return Some(inv);
        }
    }
    inertia
        .cast::<f64>()
        .try_inverse()
        .map(|inv| inv.cast::<Real>())
        .filter(usable)
}

/// Mass (kg) and inertia tensor about the shape's centre of mass (kg·m², shape frame) of
/// `shape` at `density` (kg/m³): exact for every shape (see
/// [`Shape::mass_properties`](tumble_narrowphase::Shape::mass_properties)); a triangle, a
/// triangle mesh and a heightfield have mass 0 and cannot be the shape of a dynamic body.
pub fn mass_properties(shape: &Shape, density: Real) -> (Real, Matrix) {
    let p = shape.mass_properties(density);
    (p.mass, p.inertia)
}

/// [`Body::island`] of an awake body.
pub(crate) const AWAKE: u32 = u32::MAX;

/// A body as stored by the world.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub(crate) struct Body {
    pub kind: BodyKind,
    pub shape: Shape,
    /// Shape pose in the body frame.
    pub local_offset: Isometry,
    /// Centre of mass in the body frame (the shape's centre of mass placed by `local_offset`).
    pub com_local: Vector,
    pub material: Material,
    /// Body frame in the world.
    pub pose: Isometry,
    /// Pose at the start of the last step (for interpolation).
    pub prev_pose: Isometry,
    /// The pose at which the body's sleep timer last restarted (see [`crate::island`]).
    pub rest_pose: Isometry,
    /// Velocity of the centre of mass, world frame, m/s.
    pub linvel: Vector,
    /// Angular velocity, world frame, rad/s.
    pub angvel: Vector,
    /// User force on the centre of mass, world frame, N; kept until cleared.
    pub force: Vector,
    /// User torque, world frame, N·m; kept until cleared.
    pub torque: Vector,
    pub mass: Real,
    pub inv_mass: Real,
    /// Inverse inertia about the centre of mass, body frame.
    pub inv_inertia_local: Matrix,
    pub memberships: u32,
    pub filter: u32,
    pub sensor: bool,
    pub ccd: bool,
    pub user_data: u64,
    /// Frozen after a non-finite value reached it: treated as static until unfrozen.
    pub frozen: bool,
    /// Whether the body may fall asleep (see [`crate::island`]).
    pub can_sleep: bool,
    /// Whether its pairs with static and kinematic bodies get contacts (see
    /// [`BodyBuilder::kinematic_contacts`]).
    pub kinematic_contacts: bool,
    /// How long the body has stayed below the sleep thresholds, seconds (0 when asleep is not
    /// possible or it moved faster in the last step).
    pub sleep_time: Real,
    /// The linear and angular velocities (world frame, m/s and rad/s) averaged over the last
    /// [`crate::island::SLEEP_SMOOTHING`] seconds, which the sleep test compares with the
    /// thresholds (see [`crate::island`]); zero while asleep.
    pub smoothed_vel: (Vector, Vector),
    /// The id of the sleeping island the body belongs to, or [`AWAKE`].
    pub island: u32,
}

impl Body {
    /// True when contacts and gravity move this body this step (dynamic, not frozen, awake).
    #[inline]
    pub fn is_dynamic(&self) -> bool {
        self.kind == BodyKind::Dynamic && !self.frozen && self.island == AWAKE
    }

    /// True when the body's pose may change during steps (dynamic or kinematic, not frozen,
    /// awake): the body is *active*. Pairs with an active body go through the narrow phase;
    /// pairs between two inactive bodies keep their cached contacts (see [`crate::island`]).
    #[inline]
    pub fn is_moving(&self) -> bool {
        self.kind != BodyKind::Static && !self.frozen && self.island == AWAKE
    }

    /// True when the body is asleep (see [`crate::island`]).
    #[inline]
    pub fn is_sleeping(&self) -> bool {
        self.island != AWAKE
    }

    /// True when the body is dynamic and not frozen, awake or asleep: contacts with it are
    /// contacts (a static or kinematic body needs one of these on the other side).
    #[inline]
    pub fn is_dynamic_kind(&self) -> bool {
        self.kind == BodyKind::Dynamic && !self.frozen
    }

    /// True for a kinematic body (not frozen) with a non-zero velocity: it keeps the islands
    /// it links with awake.
    #[inline]
    pub fn moves_kinematically(&self) -> bool {
        self.kind == BodyKind::Kinematic
            && !self.frozen
            && (self.linvel != Vector::zeros() || self.angvel != Vector::zeros())
    }

    /// World pose of the shape.
    #[inline]
    pub fn shape_pose(&self) -> Isometry {
        self.pose * self.local_offset
    }

    /// Centre of mass, world frame.
    #[inline]
    pub fn com(&self) -> Vector {
        self.pose.translation.vector + self.pose.rotation * self.com_local
    }

    /// Inverse inertia tensor about the centre of mass, world frame (zero unless dynamic).
    #[inline]
    pub fn inv_inertia_world(&self) -> Matrix {
        if !self.is_dynamic_kind() {
            return Matrix::zeros();
        }
        let r = self.pose.rotation.to_rotation_matrix();
        r.matrix() * self.inv_inertia_local * r.matrix().transpose()
    }

    /// True when the pose and velocities are finite.
    pub fn is_finite(&self) -> bool {
        tumble_narrowphase::math::is_finite_vector(&self.pose.translation.vector)
            && self
                .pose
                .rotation
                .quaternion()
                .coords
                .iter()
                .all(|c| c.is_finite())
            && tumble_narrowphase::math::is_finite_vector(&self.linvel)
            && tumble_narrowphase::math::is_finite_vector(&self.angvel)
    }

    /// True when the two bodies' collision groups let them interact.
    #[inline]
    pub fn groups_match(&self, other: &Body) -> bool {
        (self.memberships & other.filter) != 0 && (other.memberships & self.filter) != 0
    }
}

/// A read-only view of one body.
#[derive(Clone, Copy)]
pub struct BodyView<'a> {
    pub(crate) body: &'a Body,
    /// The world's blend factor between the last two steps ([`World::alpha`](crate::World::alpha)).
    pub(crate) alpha: Real,
}

impl<'a> BodyView<'a> {
    /// The pose to draw: the body frame blended between the start and the end of the last
    /// step by the world's `alpha` (world frame; the same as
    /// [`World::render_pose`](crate::World::render_pose)).
    pub fn render_pose(&self) -> Isometry {
        crate::pose::interpolate_pose(&self.body.prev_pose, &self.body.pose, self.alpha)
    }

    /// Pose of the body frame, world frame (the state at the end of the last step).
    pub fn pose(&self) -> Isometry {
        self.body.pose
    }
    /// Position of the body frame's origin, world frame, metres.
    pub fn translation(&self) -> Vector {
        self.body.pose.translation.vector
    }
    /// Orientation of the body frame.
    pub fn rotation(&self) -> Rotation {
        self.body.pose.rotation
    }
    /// Pose of the shape (body pose × local offset), world frame.
    pub fn shape_pose(&self) -> Isometry {
        self.body.shape_pose()
    }
    /// Centre of mass, world frame, metres.
    pub fn center_of_mass(&self) -> Vector {
        self.body.com()
    }
    /// Linear velocity of the centre of mass, world frame, m/s.
    pub fn linvel(&self) -> Vector {
        self.body.linvel
    }
    /// Angular velocity, world frame, rad/s.
    pub fn angvel(&self) -> Vector {
        self.body.angvel
    }
    /// The body's kind.
    pub fn kind(&self) -> BodyKind {
        self.body.kind
    }
    /// The body's shape, in its own frame.
    pub fn shape(&self) -> &'a Shape {
        &self.body.shape
    }
    /// The body's material.
    pub fn material(&self) -> Material {
        self.body.material
    }
    /// Mass in kg (0 for static and kinematic bodies).
    pub fn mass(&self) -> Real {
        self.body.mass
    }
    /// True when the body was frozen because a non-finite value reached it.
    pub fn is_frozen(&self) -> bool {
        self.body.frozen
    }
    /// True when the body is asleep: it does not move, costs nothing in a step, and wakes with
    /// its island (see [`crate::island`] for what wakes it).
    pub fn is_sleeping(&self) -> bool {
        self.body.is_sleeping()
    }
    /// Whether the body may fall asleep (see [`BodyBuilder::can_sleep`]).
    pub fn can_sleep(&self) -> bool {
        self.body.can_sleep
    }
    /// Whether its pairs with static and kinematic bodies get contacts (see
    /// [`BodyBuilder::kinematic_contacts`]).
    pub fn kinematic_contacts(&self) -> bool {
        self.body.kinematic_contacts
    }
    /// How long the body has stayed below the sleep thresholds, seconds (see
    /// [`WorldConfig::time_to_sleep`](crate::WorldConfig::time_to_sleep)).
    pub fn sleep_time(&self) -> Real {
        self.body.sleep_time
    }
    /// True for a sensor.
    pub fn is_sensor(&self) -> bool {
        self.body.sensor
    }
    /// The user data given to the builder.
    pub fn user_data(&self) -> u64 {
        self.body.user_data
    }
    /// Accumulated user force, world frame, N.
    pub fn force(&self) -> Vector {
        self.body.force
    }
    /// Inertia tensor about the centre of mass, world frame, kg·m² (zero unless dynamic, or
    /// when the inverse inertia cannot be inverted).
    pub fn inertia_world(&self) -> Matrix {
        self.body
            .inv_inertia_world()
            .try_inverse()
            .unwrap_or_else(Matrix::zeros)
    }
    /// Angular momentum about the centre of mass, world frame, kg·m²/s (`I_world·ω`; zero unless
    /// dynamic).
    pub fn angular_momentum(&self) -> Vector {
        self.inertia_world() * self.body.angvel
    }
    /// Kinetic energy, J (translational + rotational; 0 unless dynamic).
    pub fn kinetic_energy(&self) -> Real {
        if self.body.kind != BodyKind::Dynamic {
            return 0.0;
        }
        let r = self.body.pose.rotation.to_rotation_matrix();
        let inertia_local = invert_inertia(&self.body.inv_inertia_local).unwrap_or(Matrix::zeros());
        let i_world = r.matrix() * inertia_local * r.matrix().transpose();
        0.5 * self.body.mass * self.body.linvel.norm_squared()
            + 0.5 * self.body.angvel.dot(&(i_world * self.body.angvel))
    }
}

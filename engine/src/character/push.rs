//! Pushing dynamic bodies: each dynamic body the character ran into gets the impulse of a
//! perfectly inelastic collision, along the hit normal, between it and a body of the
//! character's mass moving at the character's velocity (Jolt's `CharacterVirtual` pushes
//! bodies by an impulse of this kind; the formula is the textbook two-body impulse, e.g.
//! Mirtich 1996, §3.3, with the character as a point mass).

use super::{CharacterCollision, CharacterController};
use crate::error::WorldError;
use crate::world::World;

impl CharacterController {
    /// Applies to each dynamic body of `collisions` (the first collision with each body; the
    /// output of [`CharacterController::move_shape`]) the impulse
    /// `j = max(0, (v_c − v_p)·d) / (1/m_c + 1/m_b(d))` along `d = −normal` (into the body),
    /// at its witness point: `v_c` the character's velocity at the hit, `v_p` the velocity of
    /// the body's point there, `m_c` the character's [`mass`](Self::mass) and `m_b(d)` the
    /// body's effective mass at that point along `d`. Bodies that are gone, static, kinematic
    /// or frozen are skipped; a sleeping body is pushed and woken with its island. Returns how many bodies were pushed. Errors on invalid settings
    /// (nothing is pushed) or, from [`World::apply_impulse_at_point`], on an impulse that would
    /// not leave the body's velocity finite (the bodies before it keep their push).
    pub fn apply_pushes(
        &self,
        world: &mut World,
        collisions: &[CharacterCollision],
    ) -> Result<usize, WorldError> {
        self.validate()?;
        let mut pushed = 0;
        for (k, c) in collisions.iter().enumerate() {
            if collisions[..k].iter().any(|o| o.body == c.body) {
                continue;
            }
            let Ok(b) = world.get(c.body) else { continue };
            // Asleep or awake (the impulse wakes its island).
            if !b.is_dynamic_kind() {
                continue;
            }
            let d = -c.normal;
            let r = c.witness_body.coords - b.com();
            let v_point = b.linvel + b.angvel.cross(&r);
            let closing = (c.velocity - v_point).dot(&d);
            if closing.is_nan() || closing <= 0.0 {
                continue;
            }
            let rd = r.cross(&d);
            let rot = b.pose.rotation.to_rotation_matrix();
            let inv_inertia = rot.matrix() * b.inv_inertia_local * rot.matrix().transpose();
            let k_body = b.inv_mass + rd.dot(&(inv_inertia * rd));
            let j = closing / (1.0 / self.mass + k_body);
            if !j.is_finite() {
                continue;
            }
            world.apply_impulse_at_point(c.body, d * j, c.witness_body)?;
            pushed += 1;
        }
        Ok(pushed)
    }
}

//! Queries against the world: rays, shape casts, point projection, overlaps, the contacts of
//! one body. They read the state at the end of the last step (or after the last teleport):
//! the broad phase finds the candidates (bodies whose broad-phase box the query's ray, box or
//! swept box meets), the narrow phase's exact tests decide, and a [`QueryFilter`] says which
//! bodies may be reported.
//!
//! One file per concept: [`filter`] (the filter), `ray` (first hit and every hit along a
//! ray), `cast` (shape casts), `point` (projection of a point on the nearest body), `overlap`
//! (boxes and shapes overlapping a query shape), `contacts` (the contacts of one body),
//! `collider` (the same queries on a [`CollisionWorld`](crate::CollisionWorld)).
//!
//! Results go into the caller's buffers (the `…_into` and `&mut Vec` forms clear them first) or
//! come back as one value; the broad-phase candidates go through a buffer kept per thread, so a
//! query allocates nothing once the buffers have grown. Ties between bodies are broken by
//! handle order, so every answer is deterministic.

mod cast;
mod collider;
mod contacts;
pub(crate) mod filter;
mod overlap;
mod point;
mod ray;
mod shared;

pub use cast::ShapeHit;
pub use collider::ColliderFilter;
pub use contacts::ContactsOf;
pub use filter::{QueryFilter, SensorMode};
pub use point::{project_point_on_shape, PointProjection};
pub use ray::RayCastHit;
pub use shared::ray_shape;

use crate::body::Body;
use crate::handle::BodyHandle;
use crate::world::World;
use tumble_broadphase::ProxyHandle;

impl World {
    /// The live body behind broad-phase proxy `p`, with its handle, when `filter` accepts it.
    pub(crate) fn filtered_body(
        &self,
        p: ProxyHandle,
        filter: &QueryFilter<'_>,
    ) -> Option<(BodyHandle, &Body)> {
        let i = *self.proxies.body_of_proxy.get(p.index() as usize)?;
        let slot = self.state.slots.get(i as usize)?;
        let b = slot.body.as_ref()?;
        let h = BodyHandle::new(i, slot.generation);
        filter.accepts(h, b).then_some((h, b))
    }
}

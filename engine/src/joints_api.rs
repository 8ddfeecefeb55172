//! The world's joint calls: insert, remove, look up, and the joints' part of `validate`.

use crate::body::BodyKind;
use crate::error::WorldError;
use crate::handle::BodyHandle;
use crate::joint::{JointBuilder, JointHandle, JointSlot, JointView};
use crate::state::State;
use crate::world::World;

impl World {
    /// Adds a joint between two live bodies (at least one dynamic) in their current poses,
    /// which become the joint's rest pose, and wakes both; validates every field of the builder
    /// (a typed error names the first wrong one, and nothing changes). Returns its handle.
    pub fn insert_joint(&mut self, builder: JointBuilder) -> Result<JointHandle, WorldError> {
        let (a, b) = builder.bodies();
        let joint = builder.build(self.get(a)?, self.get(b)?)?;
        let st = &mut self.state;
        let index = match st.joint_free.pop() {
            Some(i) => i,
            None => {
                if st.joints.len() >= (u32::MAX - 1) as usize {
                    return Err(WorldError::Config("too many joints".into()));
                }
                st.joints.push(JointSlot {
                    generation: 0,
                    joint: None,
                });
                (st.joints.len() - 1) as u32
            }
        };
        if !joint.collide_connected {
            let (a, b) = (joint.a.index(), joint.b.index());
            let key = (a.min(b), a.max(b));
            if let Err(at) = st.joint_pairs.binary_search(&key) {
                st.joint_pairs.insert(at, key);
            }
        }
        let slot = &mut st.joints[index as usize];
        slot.joint = Some(joint);
        let handle = JointHandle::new(index, slot.generation);
        // A new link wakes both islands (checked live above).
        self.wake_up(a)?;
        self.wake_up(b)?;
        Ok(handle)
    }

    /// Removes a joint and wakes its bodies; they collide again if it kept them apart.
    pub fn remove_joint(&mut self, h: JointHandle) -> Result<(), WorldError> {
        let (a, b) = {
            let j = self.joint(h).ok_or(WorldError::StaleJoint(h))?;
            (j.body_a(), j.body_b())
        };
        self.wake_up(a)?;
        self.wake_up(b)?;
        self.free_joint(h.index());
        self.state.rebuild_joint_pairs();
        Ok(())
    }

    /// A read-only view of a joint, or `None` for a stale handle.
    pub fn joint(&self, h: JointHandle) -> Option<JointView<'_>> {
        match self.state.joints.get(h.index() as usize) {
            Some(JointSlot {
                generation,
                joint: Some(joint),
            }) if *generation == h.generation() => Some(JointView { joint }),
            _ => None,
        }
    }

    /// Every joint, in handle order.
    pub fn joints(&self) -> impl Iterator<Item = (JointHandle, JointView<'_>)> + '_ {
        self.state.joints.iter().enumerate().filter_map(|(i, s)| {
            s.joint.as_ref().map(|joint| {
                (
                    JointHandle::new(i as u32, s.generation),
                    JointView { joint },
                )
            })
        })
    }

    /// Number of joints.
    pub fn joint_count(&self) -> usize {
        self.state
            .joints
            .iter()
            .filter(|s| s.joint.is_some())
            .count()
    }

    /// Empties joint slot `i` and puts it on the free list.
    pub(crate) fn free_joint(&mut self, i: u32) {
        if let Some(slot) = self.state.joints.get_mut(i as usize) {
            if slot.joint.take().is_some() {
                slot.generation = slot.generation.wrapping_add(1);
                self.state.joint_free.push(i);
            }
        }
    }

    /// Removes every joint of body `h`; their handles, in handle order.
    pub(crate) fn remove_joints_of(&mut self, h: BodyHandle) -> Vec<JointHandle> {
        let gone: Vec<JointHandle> = self
            .joints()
            .filter(|(_, j)| j.body_a() == h || j.body_b() == h)
            .map(|(jh, _)| jh)
            .collect();
        if !gone.is_empty() {
            for jh in &gone {
                self.free_joint(jh.index());
            }
            self.state.rebuild_joint_pairs();
        }
        gone
    }

    /// The joints' invariants (see [`crate::joint`]).
    pub(crate) fn validate_joints(&self) -> Result<(), String> {
        let st = &self.state;
        let mut is_free = vec![false; st.joints.len()];
        for &f in &st.joint_free {
            let f = f as usize;
            if f >= st.joints.len() || is_free[f] || st.joints[f].joint.is_some() {
                return Err(format!(
                    "joint free list entry {f} is out of range, repeated or live"
                ));
            }
            is_free[f] = true;
        }
        for (i, s) in st.joints.iter().enumerate() {
            let Some(j) = &s.joint else {
                if !is_free[i] {
                    return Err(format!("joint slot {i} is empty but not in the free list"));
                }
                continue;
            };
            j.validate().map_err(|e| format!("joint {i}: {e}"))?;
            let (Ok(a), Ok(b)) = (self.get(j.a), self.get(j.b)) else {
                return Err(format!("joint {i} names a body that is not live"));
            };
            if a.kind != BodyKind::Dynamic && b.kind != BodyKind::Dynamic {
                return Err(format!("joint {i} has no dynamic body"));
            }
        }
        if st.joint_pairs != State::joint_pairs_of(&st.joints) {
            return Err("the joints' non-colliding pairs are stale".into());
        }
        Ok(())
    }
}

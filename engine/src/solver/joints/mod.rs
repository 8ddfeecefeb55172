//! Joints in the sub-stepped soft step (Box2D v3's joint solver, `joint.c`, in three
//! dimensions; Catto, "Solver2D", 2024).
//!
//! Once per step, `prepare` turns every joint between live bodies (at least one of them
//! dynamic) into a [`JointConstraint`] (or a lane of a socket bundle): its bodies' masses and
//! start poses, its anchors relative to the centres of mass, the inverse mass matrices of its
//! point and rotation blocks. Then in
//! every substep, before the contacts of each pass, the joints are warm-started, solved with a
//! soft push-back of their position error, and relaxed without it (`Pass::WarmStart`,
//! `Pass::Solve`, `Pass::Relax`); restitution leaves them alone. A joint recomputes its bodies'
//! rotations, anchors and axes from how far the substeps have moved them (`Geometry`), so its
//! position error is the one at that moment, as the contacts recompute their separation.
//!
//! **Colours.** The joints are coloured like the contacts, greedily, so that no two joints of
//! one colour share a dynamic body, and sorted by colour (in insert order within a colour). A
//! colour's joints may run on several threads at once; a joint the `COLOURS` colours cannot
//! place goes to an overflow colour solved on one thread. Within a colour the order does not
//! change the result, so it is the same for any thread count; the joints run before the contact
//! colours of each pass.
//!
//! Each joint reads its bodies' velocities (scaled angular velocities turned back into world
//! ones), solves its rows in order (`kinds`, each row as in `rows`), and writes the velocities
//! of its dynamic bodies back. It sums the impulses it gave body B over the step: divided by
//! `dt`, the force and torque reported to the user.
//!
//! **Sockets.** The ball-and-socket joints without limits (chains, nets, ragdoll shoulders)
//! are the most common kind and need only their point block: `socket` solves them four of a
//! colour at a time, one per lane, in the solver's scaled coordinates, and a colour's stage
//! runs its socket bundles beside its other joints (they share no dynamic body). The overflow
//! colour's sockets take one bundle each.

pub(super) mod constraint;
mod kinds;
mod rows;
pub(super) mod socket;

pub(crate) use constraint::JointConstraint;
use socket::{SocketBundle, SocketJoint};

use super::body::{BodyMass, SolverBody};
use super::lanes::LANES;
use super::params::{Pass, SolverParams, COLOURS};
use super::shared::BodiesPtr;
use crate::joint::{Joint, JointImpulses, JointSlot};
use crate::state::Slot;
use rows::{Ctx, Vel};
use tumble_broadphase::par::prelude::*;
use tumble_narrowphase::math::Vector;

/// What a joint applied over the step, read after the solve.
#[derive(Clone, Copy, Debug)]
pub(crate) struct JointResult {
    /// The joint's slot in the world.
    pub joint: u32,
    /// Its accumulated impulses, for warm starting the next step.
    pub imp: JointImpulses,
    /// The linear impulse (N·s) and the angular impulse about B's centre of mass (N·m·s) it
    /// gave body B over the step, world frame.
    pub impulse: Vector,
    pub angular_impulse: Vector,
}

/// Joints per block of a colour's parallel stage.
pub(super) const JOINT_BLOCK: usize = 64;
/// Socket bundles (four joints each) per block of a colour's parallel stage.
pub(super) const SOCKET_BLOCK: usize = 32;

/// The joints of one step, in colour order: the plain ball-and-socket joints in bundles of
/// four (`socket`), the others one by one.
#[derive(Default)]
pub(crate) struct JointSolver {
    /// The constraints other than plain sockets, sorted by colour.
    pub constraints: Vec<JointConstraint>,
    /// `colour_starts[c]..colour_starts[c + 1]` are colour `c`'s constraints; the last range
    /// (index `COLOURS`) is the overflow colour.
    pub colour_starts: Vec<usize>,
    /// The plain ball-and-socket joints, four of one colour per bundle (one per bundle in the
    /// overflow colour), sorted by colour.
    pub sockets: Vec<SocketBundle>,
    /// `socket_starts[c]..socket_starts[c + 1]` are colour `c`'s socket bundles.
    pub socket_starts: Vec<usize>,
    /// Per joint to solve, its colour, its slot and whether it is a plain socket, sorted by
    /// colour (scratch of `prepare`).
    placed: Vec<(u8, u32, bool)>,
    /// The plain sockets' slots in colour order (scratch of `prepare`).
    socket_order: Vec<u32>,
    /// Per socket bundle, its first socket in `socket_order` and how many (scratch of
    /// `prepare`).
    spans: Vec<(u32, u8)>,
    /// Per body slot, the colours its joints took (scratch of `prepare`).
    used: Vec<u64>,
}

impl JointSolver {
    /// The constraints of the live joints of `joints` between the bodies of `slots`, whose
    /// solver masses are `masses`; substeps of `h` seconds. A sleeping body (`awake` false)
    /// counts as fixed, and a joint with no awake dynamic body is left out (its island sleeps;
    /// a joint between a sleeping and an awake body wakes the sleeping one's island at the end
    /// of the step, see `island`). Marks in `linked` (per slot) every body a joint reaches.
    pub fn prepare(
        &mut self,
        joints: &[JointSlot],
        slots: &[Slot],
        masses: &[BodyMass],
        awake: impl Fn(u32) -> bool + Sync,
        h: tumble_narrowphase::math::Real,
        linked: &mut [bool],
    ) {
        self.placed.clear();
        self.socket_order.clear();
        self.spans.clear();
        self.constraints.clear();
        self.colour_starts.clear();
        self.sockets.clear();
        self.socket_starts.clear();
        if joints.iter().all(|j| j.joint.is_none()) {
            return;
        }
        self.used.clear();
        self.used.resize(slots.len(), 0);
        for (index, js) in joints.iter().enumerate() {
            let Some(j) = &js.joint else { continue };
            let Some(((sa, da), (sb, db))) = Self::movers(j, slots, masses, &awake) else {
                continue;
            };
            if !da && !db {
                continue;
            }
            let mut mask = 0u64;
            for (s, d) in [(sa, da), (sb, db)] {
                if d {
                    mask |= self.used[s as usize];
                }
            }
            let colour = (!mask).trailing_zeros() as usize;
            if colour < COLOURS {
                for (s, d) in [(sa, da), (sb, db)] {
                    if d {
                        self.used[s as usize] |= 1 << colour;
                    }
                }
            }
            for s in [sa, sb] {
                if let Some(l) = linked.get_mut(s as usize) {
                    *l = true;
                }
            }
            self.placed
                .push((colour as u8, index as u32, socket::plain(&j.kind)));
        }
        // Sorted by colour, stably (slot order within a colour); each colour's ranges.
        self.placed.sort_by_key(|&(colour, _, _)| colour);
        // The bundles' spans of `socket_order`, colour by colour; the other joints one by one.
        let mut next = 0;
        for colour in 0..=COLOURS {
            self.colour_starts.push(self.constraints.len());
            self.socket_starts.push(self.spans.len());
            // The overflow colour's sockets may share bodies: one per bundle.
            let per_bundle = if colour < COLOURS { LANES } else { 1 };
            let first = self.socket_order.len();
            while let Some(&(c, index, socket)) = self.placed.get(next) {
                if c as usize != colour {
                    break;
                }
                next += 1;
                if socket {
                    self.socket_order.push(index);
                    continue;
                }
                let Some(j) = &joints[index as usize].joint else {
                    continue;
                };
                if let Some((a, b)) = Self::ends(j, slots, masses, &awake) {
                    self.constraints
                        .push(JointConstraint::new(index, j, a, b, h));
                }
            }
            for start in (first..self.socket_order.len()).step_by(per_bundle) {
                let len = per_bundle.min(self.socket_order.len() - start);
                self.spans.push((start as u32, len as u8));
            }
        }
        // The bundles, each on its own (in parallel), in order.
        let (order, spans) = (&self.socket_order, &self.spans);
        spans
            .par_iter()
            .with_min_len(SOCKET_BLOCK)
            .map(|&(start, len)| {
                let mut lanes = [SocketJoint::default(); LANES];
                let mut n = 0;
                let order = order.get(start as usize..).unwrap_or_default();
                for &index in order.iter().take(len as usize) {
                    // Checked by the colouring above: these are live plain sockets.
                    let Some(j) = &joints[index as usize].joint else {
                        continue;
                    };
                    let ends = Self::ends(j, slots, masses, &awake);
                    if let Some(socket) = ends.and_then(|ends| SocketJoint::of(index, j, ends)) {
                        lanes[n] = socket;
                        n += 1;
                    }
                }
                SocketBundle::new(&lanes[..n])
            })
            .collect_into_vec(&mut self.sockets);
        self.colour_starts.push(self.constraints.len());
        self.socket_starts.push(self.spans.len());
    }

    /// The slot index and slot of body `h` when it is live (same generation;
    /// `masses[i].live` is whether slot `i` holds a body), its solver masses, and whether the
    /// solver moves it (dynamic and awake): the one rule of [`Self::movers`] and
    /// [`Self::ends`].
    #[inline(always)]
    fn end_of<'a>(
        h: crate::handle::BodyHandle,
        slots: &'a [Slot],
        masses: &'a [BodyMass],
        awake: &impl Fn(u32) -> bool,
    ) -> Option<(u32, &'a Slot, &'a BodyMass, bool)> {
        let i = h.index() as usize;
        let slot = slots.get(i)?;
        (slot.generation == h.generation()).then_some(())?;
        let m = masses.get(i)?;
        m.live
            .then(|| (h.index(), slot, m, m.dynamic && awake(h.index())))
    }

    /// The slots of a joint's two bodies and whether the solver moves each, when both are live
    /// ([`Self::end_of`]): all the colouring needs, read without touching the bodies.
    #[allow(clippy::type_complexity)]
    fn movers(
        j: &Joint,
        slots: &[Slot],
        masses: &[BodyMass],
        awake: &impl Fn(u32) -> bool,
    ) -> Option<((u32, bool), (u32, bool))> {
        let end = |h| Self::end_of(h, slots, masses, awake).map(|(s, _, _, moves)| (s, moves));
        Some((end(j.a)?, end(j.b)?))
    }

    /// The slots, bodies and solver masses of a joint's two bodies, when both are live
    /// ([`Self::end_of`]); the masses of a body the solver does not move (asleep) as a fixed
    /// body's.
    #[allow(clippy::type_complexity)]
    fn ends<'a>(
        j: &Joint,
        slots: &'a [Slot],
        masses: &'a [BodyMass],
        awake: &impl Fn(u32) -> bool,
    ) -> Option<(
        (u32, &'a crate::body::Body, BodyMass),
        (u32, &'a crate::body::Body, BodyMass),
    )> {
        let end = |h| {
            let (s, slot, m, moves) = Self::end_of(h, slots, masses, awake)?;
            let body = slot.body.as_ref()?;
            let mut m = *m;
            if m.dynamic && !moves {
                m = BodyMass::new(
                    0.0,
                    &tumble_narrowphase::math::Matrix::zeros(),
                    &body.com(),
                    &m.material,
                    false,
                );
            }
            Some((s, body, m))
        };
        Some((end(j.a)?, end(j.b)?))
    }

    /// Number of colour ranges (the overflow colour included), each possibly empty.
    pub fn colour_count(&self) -> usize {
        self.colour_starts.len().saturating_sub(1)
    }

    /// The range of colour `c`'s constraints (other than plain sockets).
    pub fn colour_range(&self, c: usize) -> std::ops::Range<usize> {
        self.colour_starts[c]..self.colour_starts[c + 1]
    }

    /// The range of colour `c`'s socket bundles.
    pub fn socket_range(&self, c: usize) -> std::ops::Range<usize> {
        self.socket_starts[c]..self.socket_starts[c + 1]
    }

    /// Whether there is no joint to solve.
    pub fn is_empty(&self) -> bool {
        self.constraints.is_empty() && self.sockets.is_empty()
    }

    /// Number of joints to solve.
    pub fn len(&self) -> usize {
        self.constraints.len() + self.socket_order.len()
    }

    /// What every joint applied over the step (after the solve).
    pub fn results(&self) -> impl Iterator<Item = JointResult> + '_ {
        let sockets = self.sockets.iter().flat_map(SocketBundle::results);
        self.constraints
            .iter()
            .map(|c| JointResult {
                joint: c.joint,
                imp: c.imp,
                impulse: c.pb_sum,
                angular_impulse: c.tb_sum,
            })
            .chain(sockets)
    }

    /// One pass over every joint, colour after colour, on the calling thread.
    pub(super) fn run(
        &mut self,
        bodies: BodiesPtr,
        deltas: BodiesPtr,
        p: &SolverParams,
        pass: Pass,
    ) {
        if pass == Pass::Restitution || self.is_empty() {
            return;
        }
        let ctx = ctx(p, pass);
        for c in 0..self.colour_count() {
            let (sockets, general) = (self.socket_range(c), self.colour_range(c));
            // SAFETY: the caller guarantees that `bodies` and `deltas` hold every slot the
            // joints name, and that nothing else touches them during the pass; one bundle or
            // joint at a time.
            unsafe {
                socket::solve_sockets(&mut self.sockets[sockets], bodies, deltas, &ctx);
                solve_joints(&mut self.constraints[general], bodies, deltas, &ctx);
            }
        }
    }
}

/// What the rows of a pass need of the step's parameters.
pub(super) fn ctx(p: &SolverParams, pass: Pass) -> Ctx {
    Ctx {
        pass,
        inv_h: p.inv_h,
        h: p.h,
        soft: p.joint_soft,
        max_push: p.max_push,
    }
}

/// Solves the joints `cons` for one pass, one after the other.
///
/// # Safety
/// Every body slot the joints name is below the length of the arrays behind `bodies` and
/// `deltas`; during the call no one else reads or writes the dynamic bodies these joints name,
/// or writes any body they name or any delta (joints of one colour share no dynamic body; the
/// deltas change only in the per-body stages).
pub(super) unsafe fn solve_joints(
    cons: &mut [JointConstraint],
    bodies: BodiesPtr,
    deltas: BodiesPtr,
    ctx: &Ctx,
) {
    for jc in cons {
        let (ia, ib) = (jc.a.slot as usize, jc.b.slot as usize);
        // SAFETY: in bounds and not written by anyone else meanwhile (the caller's contract).
        let (ba, bb, da, db): (SolverBody, SolverBody, SolverBody, SolverBody) = unsafe {
            (
                *bodies.at(ia),
                *bodies.at(ib),
                *deltas.at(ia),
                *deltas.at(ib),
            )
        };
        let g = jc.geometry(&da, &db);
        let mut vel = Vel {
            va: ba.v(),
            wa: jc.a.unscale(ba.w()),
            vb: bb.v(),
            wb: jc.b.unscale(bb.w()),
            ta: Vector::zeros(),
            tb: Vector::zeros(),
            pb: Vector::zeros(),
        };
        kinds::solve_kind(jc, &g, &mut vel, ctx);
        jc.pb_sum += vel.pb;
        jc.tb_sum += vel.tb;
        for (body, slot, v, t, ptr_i) in [
            (&jc.a, ia, vel.va, vel.ta, ba),
            (&jc.b, ib, vel.vb, vel.tb, bb),
        ] {
            if body.inv_mass <= 0.0 {
                continue;
            }
            let mut out = ptr_i;
            out.lin[..3].copy_from_slice(v.as_slice());
            if body.spin {
                let dw = body.u * t;
                for k in 0..3 {
                    out.ang[k] += dw[k];
                }
            }
            // SAFETY: a dynamic body of this joint: no one else touches it during the call
            // (the caller's contract), and the slot is in bounds.
            unsafe { *bodies.at(slot) = out };
        }
    }
}

//! The narrow stage: exact contacts of the candidate pairs from `tumble_narrowphase::query`, with
//! last step's impulses carried over by feature id (or the nearest old point) for warm starting,
//! and sensor overlaps by boolean tests.

use crate::contact::{checked_max_depth, Candidate, ContactPair, PointImpulse};
use crate::events::StepReport;
use crate::handle::BodyHandle;
use crate::parallel::{hits_in_order, HitChunk};
use crate::state::{Slot, State};
use crate::step::pairs::{PairScratch, NONE};
use tumble_broadphase::par::prelude::*;
use tumble_narrowphase::math::{Isometry, Real, Vector};
use tumble_narrowphase::query::{self, contact_any, intersects_any, BoxFrame};
use tumble_narrowphase::{Manifold, Shape};

/// Old and new contact points closer than this (metres) are the same point for warm starting
/// when their feature ids differ.
const MATCH_DISTANCE: Real = 0.02;

/// The narrow stage's buffers (kept between steps) and its output.
#[derive(Default)]
pub(crate) struct NarrowScratch {
    /// Per fixed chunk of candidates, the contact pairs it yields (see
    /// [`hits_in_order`]).
    chunks: Vec<HitChunk<ContactPair>>,
    /// Per sensor candidate: overlapping, apart, or unsupported.
    sensor_out: Vec<Option<bool>>,
    /// Per slot, what the narrow phase reads of the body (see [`PairBody`]).
    pair_bodies: Vec<PairBody>,
    /// Per slot, the rotation matrix and centre of a cuboid's shape (zero for other shapes).
    box_frames: Vec<BoxFrame>,
    /// This step's contact cache, sorted by `(a.index, b.index)`.
    pub(crate) new_contacts: Vec<ContactPair>,
    /// This step's sensor overlaps, sorted.
    pub(crate) new_sensor_pairs: Vec<(BodyHandle, BodyHandle)>,
}

#[inline(never)]
/// The contact manifolds of the contact candidates (in parallel, output in pair order) with
/// last step's impulses carried over, and the sensor overlaps of the sensor candidates; both
/// into `sc`; kept candidates (two inactive bodies) and kept sensor overlaps are copied from
/// last step. `poses` are the shapes' world poses, indexed by slot.
pub(crate) fn narrow_phase(
    state: &State,
    poses: &[Isometry],
    pairs: &PairScratch,
    sc: &mut NarrowScratch,
    report: &mut StepReport,
) {
    let slots = &state.slots;
    let prev = &state.contacts;
    let slop = state.config.linear_slop;
    // What the pairs read of each body, once per body rather than once per pair, packed
    // so that a pair of balls or boxes never touches the (large) slots.
    slots
        .par_iter()
        .zip(poses.par_iter())
        .with_min_len(256)
        .map(|(slot, pose)| PairBody::of(slot, pose))
        .unzip_into_vecs(&mut sc.pair_bodies, &mut sc.box_frames);
    let input = NarrowInput {
        slots,
        bodies: &sc.pair_bodies,
        frames: &sc.box_frames,
        poses,
        prev,
        slop,
    };
    let mut unsupported = hits_in_order(
        &pairs.candidates,
        &mut sc.chunks,
        &mut sc.new_contacts,
        |cands, out| input.run(cands, out),
    );
    // Sensors: boolean overlap tests.
    sc.sensor_out.clear();
    pairs
        .sensor_candidates
        .par_iter()
        .with_min_len(64)
        .map(|&(a, b)| {
            let (ba, bb) = (
                slots[a as usize].body.as_ref()?,
                slots[b as usize].body.as_ref()?,
            );
            intersects_any(&ba.shape_pose(), &ba.shape, &bb.shape_pose(), &bb.shape)
        })
        .collect_into_vec(&mut sc.sensor_out);
    sc.new_sensor_pairs.clear();
    let mut kept = pairs.kept_sensors.iter().peekable();
    let key = |p: &(BodyHandle, BodyHandle)| (p.0.index(), p.1.index());
    for (&(a, b), hit) in pairs.sensor_candidates.iter().zip(&sc.sensor_out) {
        // The kept overlaps (two inactive bodies) merged in pair order.
        while let Some(k) = kept.next_if(|k| key(k) < (a, b)) {
            sc.new_sensor_pairs.push(*k);
        }
        match hit {
            Some(true) => sc.new_sensor_pairs.push((
                BodyHandle::new(a, slots[a as usize].generation),
                BodyHandle::new(b, slots[b as usize].generation),
            )),
            Some(false) => {}
            None => unsupported += 1,
        }
    }
    sc.new_sensor_pairs.extend(kept);
    report.unsupported_pairs += unsupported;
}

/// The shape of a [`PairBody`]: the pairs of balls and of boxes take a fast path that reads
/// only the packed per-body data; the other pairs read the body's shape.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum PairShape {
    /// A free slot.
    #[default]
    Empty,
    Ball,
    Cuboid,
    /// Any other shape: read from the slot.
    Other,
}

/// What the narrow phase reads of one body, built once per step (32 bytes, so that a pair
/// of balls or boxes reads two of these, and for boxes two [`BoxFrame`]s, instead of two
/// slots of several hundred bytes).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct PairBody {
    /// The shape's centre (translation of its world pose), metres.
    centre: Vector,
    /// A ball's radius in `x`, a box's half-extents (metres); zero otherwise.
    size: Vector,
    /// The slot's generation.
    generation: u32,
    shape: PairShape,
}

impl PairBody {
    /// The packed data of `slot`, whose shape is at `pose`, and the shape's frame for a box
    /// (zero otherwise).
    fn of(slot: &Slot, pose: &Isometry) -> (Self, BoxFrame) {
        let mut p = PairBody {
            centre: pose.translation.vector,
            size: Vector::zeros(),
            generation: slot.generation,
            shape: PairShape::Other,
        };
        let mut frame = BoxFrame::default();
        match slot.body.as_ref().map(|b| &b.shape) {
            None => p.shape = PairShape::Empty,
            Some(Shape::Ball(b)) => {
                p.shape = PairShape::Ball;
                p.size.x = b.radius();
            }
            Some(Shape::Cuboid(c)) => {
                p.shape = PairShape::Cuboid;
                p.size = c.half_extents();
                frame = BoxFrame::of(pose);
            }
            Some(_) => {}
        }
        (p, frame)
    }
}

/// What the narrow phase reads besides the candidates, built once per step.
#[derive(Clone, Copy)]
struct NarrowInput<'a> {
    slots: &'a [Slot],
    /// Per slot, what a pair of balls or boxes reads.
    bodies: &'a [PairBody],
    /// Per slot, a box's frame (zero for other shapes).
    frames: &'a [BoxFrame],
    /// Per slot, the shape's world pose.
    poses: &'a [Isometry],
    /// Last step's contact cache, which `Candidate::prev` indexes.
    prev: &'a [ContactPair],
    /// `WorldConfig::linear_slop`, metres.
    slop: Real,
}

impl NarrowInput<'_> {
    /// The narrow phase of `cands`, in order, onto `out`; returns how many are unsupported
    /// pairs of shapes.
    fn run(&self, cands: &[Candidate], out: &mut Vec<ContactPair>) -> usize {
        // One length for both per-slot tables, so that one bounds check covers both.
        let n = self.bodies.len();
        let input = NarrowInput {
            frames: &self.frames[..n],
            ..*self
        };
        let mut unsupported = 0;
        for c in cands {
            if c.kept {
                // Two inactive bodies: last step's pair as it was (see `crate::island`).
                out.push(self.prev[c.prev as usize]);
                continue;
            }
            if input.contact_pair(c, out).is_err() {
                unsupported += 1;
            }
        }
        unsupported
    }

    /// The narrow phase of one candidate: pushes its manifold, with last step's impulses
    /// matched by feature id, onto `out`; pushes nothing when the shapes are farther apart
    /// than the prediction; `Err` (nothing pushed) for an unsupported pair of shapes. Balls and
    /// boxes read only `bodies` (and `frames`); what `query::contact` would run for them is
    /// called directly.
    #[inline(always)]
    fn contact_pair(&self, c: &Candidate, out: &mut Vec<ContactPair>) -> Result<(), ()> {
        let (ia, ib) = (c.a as usize, c.b as usize);
        let (pa, pb) = (&self.bodies[ia], &self.bodies[ib]);
        let m = match (pa.shape, pb.shape) {
            (PairShape::Cuboid, PairShape::Cuboid) => query::contact_cuboid_cuboid_frames(
                &self.frames[ia],
                &pa.size,
                &self.frames[ib],
                &pb.size,
                c.prediction,
            ),
            (PairShape::Ball, PairShape::Ball) => query::contact_ball_ball(
                &pa.centre.into(),
                pa.size.x,
                &pb.centre.into(),
                pb.size.x,
                c.prediction,
            ),
            (PairShape::Empty, _) | (_, PairShape::Empty) => return Ok(()),
            _ => self.contact_other(c)?,
        };
        self.push(c, pa, pb, m, out);
        Ok(())
    }

    /// The manifold of a candidate that is neither two balls nor two boxes (kept out of the
    /// loop over candidates, whose registers it would otherwise take).
    #[inline(never)]
    fn contact_other(&self, c: &Candidate) -> Result<Option<Manifold>, ()> {
        let (ia, ib) = (c.a as usize, c.b as usize);
        let (Some(ba), Some(bb)) = (self.slots[ia].body.as_ref(), self.slots[ib].body.as_ref())
        else {
            return Ok(None);
        };
        let (pa, pb) = (&self.poses[ia], &self.poses[ib]);
        contact_any(pa, &ba.shape, pb, &bb.shape, c.prediction).map_err(|_| ())
    }

    /// Pushes the contact pair of `c` (bodies `pa`, `pb`) with manifold `m` onto `out`, unless
    /// `m` is `None`, empty or not finite; its impulses are last step's, matched by feature id.
    #[inline(always)]
    fn push(
        &self,
        c: &Candidate,
        pa: &PairBody,
        pb: &PairBody,
        m: Option<Manifold>,
        out: &mut Vec<ContactPair>,
    ) {
        let Some(m) = m else { return };
        if m.is_empty() {
            return;
        }
        let Ok(depth) = checked_max_depth(&m) else {
            return;
        };
        // Pushed first, its impulses matched in place.
        let at = out.len();
        out.push(ContactPair {
            a: BodyHandle::new(c.a, pa.generation),
            b: BodyHandle::new(c.b, pb.generation),
            touching: depth >= -self.slop,
            manifold: m,
            impulses: [PointImpulse::default(); 4],
        });
        if c.prev == NONE {
            return;
        }
        let ContactPair {
            manifold: m,
            impulses,
            ..
        } = &mut out[at];
        let old = &self.prev[c.prev as usize];
        let olds = old.manifold.points();
        for (k, p) in m.points().iter().enumerate() {
            // By feature id; failing that (the narrow phase may switch reference faces), the
            // nearest old point within `MATCH_DISTANCE`.
            let by_id = olds.iter().position(|q| q.id == p.id);
            let near = || {
                olds.iter()
                    .enumerate()
                    .map(|(i, q)| (i, (q.point - p.point).norm_squared()))
                    .filter(|&(_, d2)| d2 < MATCH_DISTANCE * MATCH_DISTANCE)
                    .min_by(|x, y| x.1.total_cmp(&y.1))
                    .map(|(i, _)| i)
            };
            if let Some(o) = by_id.or_else(near) {
                let imp = old.impulses[o];
                impulses[k] = PointImpulse {
                    normal: imp.normal,
                    tangent: imp.tangent - m.normal * m.normal.dot(&imp.tangent),
                };
            }
        }
    }
}

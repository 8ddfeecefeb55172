//! The pair stage: the broad phase's pairs of overlapping boxes mapped to body slots, filtered
//! (collision groups, at least one dynamic body, sensors apart), sorted by body pair and
//! matched with last step's contact cache, so that the narrow phase can carry impulses over.

use crate::body::Body;
use crate::config::WorldConfig;
use crate::contact::{Candidate, ContactPair};
use crate::handle::BodyHandle;
use crate::parallel::concat_into;
use crate::state::{ccd_margin, State};
use tumble_broadphase::par::prelude::*;
use tumble_broadphase::{AnyBroadPhase, BroadPhase, Pair};
use tumble_narrowphase::math::Real;

pub(crate) const NONE: u32 = u32::MAX;

/// Broad-phase pairs per chunk when mapping them to candidates (and candidates per chunk when
/// matching them with the old contact cache). The chunks are fixed by the list alone, never by
/// the thread count.
pub(crate) const PAIR_CHUNK: usize = 2048;

/// What one chunk of broad-phase pairs yields (buffers kept between steps).
#[derive(Default)]
pub(crate) struct PairChunk {
    contacts: Vec<Candidate>,
    sensors: Vec<(u32, u32)>,
    /// Both lists are strictly increasing by body pair.
    sorted: bool,
}

/// How a pair of bodies interacts.
enum PairKind {
    Contact,
    Sensor,
}

/// What the pair filter needs of a body, packed (built once per step, read per pair).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct BodyInfo {
    live: bool,
    /// Dynamic and not frozen, awake or asleep.
    dynamic: bool,
    /// Kinematic and not frozen.
    kinematic: bool,
    /// Its pairs with static and kinematic bodies get contacts.
    kinematic_contacts: bool,
    /// Moved by the solver this step: dynamic, not frozen, awake.
    pub(crate) awake: bool,
    /// Active (awake dynamic or kinematic, not frozen: `Body::is_moving`): its pairs go through
    /// the narrow phase.
    pub(crate) moving: bool,
    sensor: bool,
    memberships: u32,
    filter: u32,
    /// Continuous-collision margin, metres.
    margin: Real,
}

impl BodyInfo {
    /// What the filter needs of body `b`.
    pub(crate) fn of(cfg: &WorldConfig, b: &Body) -> Self {
        Self {
            live: true,
            dynamic: b.is_dynamic_kind(),
            kinematic: b.kind == crate::body::BodyKind::Kinematic && !b.frozen,
            kinematic_contacts: b.kinematic_contacts,
            awake: b.is_dynamic(),
            moving: b.is_moving(),
            sensor: b.sensor,
            memberships: b.memberships,
            filter: b.filter,
            margin: ccd_margin(cfg, b),
        }
    }
}

fn classify(a: &BodyInfo, b: &BodyInfo) -> Option<PairKind> {
    if !(a.live && b.live) || (a.memberships & b.filter) == 0 || (b.memberships & a.filter) == 0 {
        return None;
    }
    if a.sensor || b.sensor {
        if (a.sensor && b.sensor) || (!a.moving && !b.moving) {
            return None;
        }
        return Some(PairKind::Sensor);
    }
    let kinematic_pair =
        (a.kinematic || b.kinematic) && (a.kinematic_contacts || b.kinematic_contacts);
    if a.dynamic || b.dynamic || kinematic_pair {
        Some(PairKind::Contact)
    } else {
        None
    }
}

/// The pair stage's buffers (kept between steps).
#[derive(Default)]
pub(crate) struct PairScratch {
    /// The broad phase's proxy pairs.
    bp_pairs: Vec<Pair>,
    /// Per fixed chunk of `bp_pairs`, the candidates it yields (see [`PAIR_CHUNK`]).
    chunks: Vec<PairChunk>,
    /// This step's contact candidates, sorted by `(a, b)`, each matched with last step's pair.
    pub(crate) candidates: Vec<Candidate>,
    /// This step's sensor candidates `(a, b)`, `a < b`, sorted.
    pub(crate) sensor_candidates: Vec<(u32, u32)>,
    /// Last step's contact pairs kept without the narrow phase (both bodies inactive), as
    /// candidates with `kept` set, sorted.
    kept: Vec<Candidate>,
    /// The active candidates before the kept ones are merged in.
    merged: Vec<Candidate>,
    /// Last step's sensor overlaps kept (both bodies inactive), sorted.
    pub(crate) kept_sensors: Vec<(BodyHandle, BodyHandle)>,
}

/// The candidate pairs of this step: the broad phase's pairs with at least one active body
/// (see [`crate::island`]) mapped to body slots, filtered ([`classify`]), sorted by `(a, b)`
/// and matched with last step's contact cache; then last step's pairs between two inactive
/// bodies merged in as kept candidates (and their sensor overlaps into `kept_sensors`).
/// Without an active body the broad phase is not asked at all. Returns the number of
/// candidates that go through the narrow phase (contact and sensor).
#[inline(never)]
pub(crate) fn find_pairs(
    state: &State,
    broad: &mut AnyBroadPhase,
    body_of_proxy: &[u32],
    info: &[BodyInfo],
    activity: Activity,
    sc: &mut PairScratch,
) -> usize {
    let cfg = &state.config;
    if activity.any_active {
        broad.find_pairs(&mut sc.bp_pairs);
    } else {
        sc.bp_pairs.clear();
    }

    // Fixed chunks of the (sorted) pair list, mapped in parallel; each chunk's output is
    // the same whatever the thread count, and the chunks are concatenated in order.
    let chunks = sc.bp_pairs.len().div_ceil(PAIR_CHUNK);
    if sc.chunks.len() < chunks {
        sc.chunks.resize_with(chunks, PairChunk::default);
    }
    sc.bp_pairs
        .par_chunks(PAIR_CHUNK)
        .zip(sc.chunks[..chunks].par_iter_mut())
        .for_each(|(pairs, out)| {
            out.contacts.clear();
            out.sensors.clear();
            for &(pa, pb) in pairs {
                let (Some(&ia), Some(&ib)) = (
                    body_of_proxy.get(pa.index() as usize),
                    body_of_proxy.get(pb.index() as usize),
                ) else {
                    continue;
                };
                let (a, b) = if ia < ib { (ia, ib) } else { (ib, ia) };
                let (Some(ba), Some(bb)) = (info.get(a as usize), info.get(b as usize)) else {
                    continue;
                };
                if !(ba.moving || bb.moving) {
                    // Two inactive bodies: last step's pair, if any, is kept as it was.
                    continue;
                }
                match classify(ba, bb) {
                    Some(PairKind::Contact) if state.joint_blocks(a, b) => {}
                    Some(PairKind::Contact) => out.contacts.push(Candidate {
                        a,
                        b,
                        prev: NONE,
                        prediction: cfg.prediction_distance + ba.margin + bb.margin,
                        kept: false,
                    }),
                    Some(PairKind::Sensor) => out.sensors.push((a, b)),
                    None => {}
                }
            }
            out.sorted = out
                .contacts
                .windows(2)
                .all(|w| (w[0].a, w[0].b) < (w[1].a, w[1].b))
                && out.sensors.windows(2).all(|w| w[0] < w[1]);
        });
    let parts = &sc.chunks[..chunks];
    // Proxy order follows slot order in practice (both arenas allocate alike), so the
    // lists are usually sorted already: each chunk checked its own, the joins between
    // chunks are checked here.
    let sorted = parts.iter().all(|c| c.sorted)
        && increasing_joins(
            parts,
            |c| c.contacts.first().map(|c| (c.a, c.b)),
            |c| c.contacts.last().map(|c| (c.a, c.b)),
        )
        && increasing_joins(
            parts,
            |c| c.sensors.first().copied(),
            |c| c.sensors.last().copied(),
        );
    concat_into(parts, |c| &c.contacts, &mut sc.candidates);
    concat_into(parts, |c| &c.sensors, &mut sc.sensor_candidates);
    if !sorted {
        sc.candidates.par_sort_unstable_by_key(|c| (c.a, c.b));
        sc.sensor_candidates.sort_unstable();
    }
    // Match last step's contact cache (sorted the same way) by merge join, per chunk from
    // the first old pair not below the chunk's first key.
    let prev = &state.contacts;
    let slots = &state.slots;
    let key = |p: &ContactPair| (p.a.index(), p.b.index());
    sc.candidates.par_chunks_mut(PAIR_CHUNK).for_each(|chunk| {
        let first = (chunk[0].a, chunk[0].b);
        let mut j = prev.partition_point(|p| key(p) < first);
        for c in chunk.iter_mut() {
            let k = (c.a, c.b);
            while j < prev.len() && key(&prev[j]) < k {
                j += 1;
            }
            if j < prev.len() && key(&prev[j]) == k {
                let (ga, gb) = (
                    slots[c.a as usize].generation,
                    slots[c.b as usize].generation,
                );
                if prev[j].a.generation() == ga && prev[j].b.generation() == gb {
                    c.prev = j as u32;
                }
            }
        }
    });
    let found = sc.candidates.len() + sc.sensor_candidates.len();
    keep_inactive_pairs(state, info, activity, sc);
    found
}

/// What the first stage found of the bodies' activity.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Activity {
    /// Some body is active (awake dynamic or kinematic).
    pub(crate) any_active: bool,
    /// Some body is inactive and not static (asleep or frozen): last step's pairs may be kept.
    pub(crate) any_inactive: bool,
}

/// Last step's contact pairs and sensor overlaps between two inactive bodies, both still
/// live (same generations) and still interacting, merged into the candidates (kept, matched
/// with their old pair) and into `kept_sensors`.
fn keep_inactive_pairs(state: &State, info: &[BodyInfo], activity: Activity, sc: &mut PairScratch) {
    sc.kept.clear();
    sc.kept_sensors.clear();
    if !activity.any_inactive {
        return;
    }
    let slots = &state.slots;
    let still = |a: BodyHandle, b: BodyHandle| -> Option<PairKind> {
        let (ia, ib) = (a.index() as usize, b.index() as usize);
        let (sa, sb) = (slots.get(ia)?, slots.get(ib)?);
        if sa.generation != a.generation() || sb.generation != b.generation() {
            return None;
        }
        let (ba, bb) = (info.get(ia)?, info.get(ib)?);
        if ba.moving || bb.moving {
            return None;
        }
        classify_resting(ba, bb)
    };
    sc.kept.par_extend(
        state
            .contacts
            .par_iter()
            .enumerate()
            .with_min_len(1024)
            .filter(|(_, c)| matches!(still(c.a, c.b), Some(PairKind::Contact)))
            .map(|(j, c)| Candidate {
                a: c.a.index(),
                b: c.b.index(),
                prev: j as u32,
                prediction: 0.0,
                kept: true,
            }),
    );
    sc.kept_sensors.extend(
        state
            .sensor_pairs
            .iter()
            .filter(|(a, b)| matches!(still(*a, *b), Some(PairKind::Sensor)))
            .copied(),
    );
    if sc.kept.is_empty() {
        return;
    }
    // Merge two sorted, disjoint lists (a kept pair has no active body, a found one has one).
    std::mem::swap(&mut sc.merged, &mut sc.candidates);
    sc.candidates.clear();
    sc.candidates.reserve(sc.merged.len() + sc.kept.len());
    let (found, kept) = (&sc.merged, &sc.kept);
    let (mut i, mut j) = (0, 0);
    while i < found.len() && j < kept.len() {
        if (found[i].a, found[i].b) < (kept[j].a, kept[j].b) {
            sc.candidates.push(found[i]);
            i += 1;
        } else {
            sc.candidates.push(kept[j]);
            j += 1;
        }
    }
    sc.candidates.extend_from_slice(&found[i..]);
    sc.candidates.extend_from_slice(&kept[j..]);
}

/// How a pair of two inactive bodies interacts when it is kept: as [`classify`] would, but
/// a sensor overlap needs no moving body (it was found while one moved).
fn classify_resting(a: &BodyInfo, b: &BodyInfo) -> Option<PairKind> {
    if !(a.live && b.live) || (a.memberships & b.filter) == 0 || (b.memberships & a.filter) == 0 {
        return None;
    }
    if a.sensor || b.sensor {
        return (!(a.sensor && b.sensor)).then_some(PairKind::Sensor);
    }
    (a.dynamic || b.dynamic).then_some(PairKind::Contact)
}

/// Whether each non-empty part's first key is above the last key of the non-empty parts
/// before it (with every part sorted, whether their concatenation is strictly increasing).
fn increasing_joins(
    parts: &[PairChunk],
    first: impl Fn(&PairChunk) -> Option<(u32, u32)>,
    last: impl Fn(&PairChunk) -> Option<(u32, u32)>,
) -> bool {
    let mut prev = None;
    parts.iter().all(|p| {
        let ok = match (prev, first(p)) {
            (Some(l), Some(f)) => l < f,
            _ => true,
        };
        prev = last(p).or(prev);
        ok
    })
}

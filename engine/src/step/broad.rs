//! The last stage of a step: the moving bodies' new boxes into the broad phase, in one batch, so
//! that queries between steps see current boxes.

use crate::body::BodyKind;
use crate::events::StepReport;
use crate::handle::BodyHandle;
use crate::parallel::concat_into;
use crate::proxies::BodyProxies;
use crate::state::{broad_aabb, State};
use crate::step::integrate::{freeze, report_frozen};
use tumble_broadphase::par::prelude::*;
use tumble_broadphase::{BroadPhase, ProxyHandle};
use tumble_narrowphase::Aabb;

/// Slots per chunk of the broad-phase update pass (each chunk's updates stay in the core's
/// cache until they are concatenated).
pub(crate) const UPDATE_CHUNK: usize = 512;

/// The update stage's buffers (kept between steps).
#[derive(Default)]
pub(crate) struct UpdateScratch {
    /// Per fixed chunk of slots, the updates of its bodies (see [`UPDATE_CHUNK`]).
    chunks: Vec<Vec<(ProxyHandle, Aabb)>>,
    /// The chunks' updates concatenated in slot order.
    updates: Vec<(ProxyHandle, Aabb)>,
}

/// Moving bodies' AABBs into the broad phase (at the end of each step, so that queries
/// between steps see current boxes); bodies whose box is not finite are frozen. Sleeping
/// bodies keep their boxes, except those in `slept` (increasing slots), which fell asleep
/// during this step and so moved (and lost their continuous-collision margin).
#[inline(never)]
pub(crate) fn update_broad_phase(
    state: &mut State,
    proxies: &mut BodyProxies,
    sc: &mut UpdateScratch,
    flags: &mut Vec<bool>,
    slept: &[u32],
    report: &mut StepReport,
) {
    let cfg = &state.config;
    let n = state.slots.len();
    flags.clear();
    flags.resize(n, false);
    // Per body, independent of the others: fixed chunks of slots in parallel, each writing
    // the updates of its bodies into its own buffer (kept between steps), concatenated in
    // slot order; the bodies frozen here are reported afterwards in slot order.
    let chunks = n.div_ceil(UPDATE_CHUNK);
    if sc.chunks.len() < chunks {
        sc.chunks.resize_with(chunks, Vec::new);
    }
    state
        .slots
        .par_chunks_mut(UPDATE_CHUNK)
        .zip(flags.par_chunks_mut(UPDATE_CHUNK))
        .zip(proxies.of_body.par_chunks(UPDATE_CHUNK))
        .zip(sc.chunks[..chunks].par_iter_mut())
        .for_each(|(((slots, flags), proxies), out)| {
            out.clear();
            for ((slot, frozen), &proxy) in slots.iter_mut().zip(flags).zip(proxies) {
                // Frozen bodies too: one frozen during this step lost its CCD margin (and
                // may have moved), and every proxy must hold exactly `broad_aabb`.
                let Some(b) = slot
                    .body
                    .as_mut()
                    .filter(|b| b.kind != BodyKind::Static && !b.is_sleeping())
                else {
                    continue;
                };
                let aabb = broad_aabb(cfg, b).or_else(|| {
                    // Out of the world: back to the step's start pose (within the
                    // limits), frozen and reported (once: a body frozen earlier in the
                    // step is reported already).
                    *frozen = !b.frozen;
                    b.pose = b.prev_pose;
                    freeze(b);
                    broad_aabb(cfg, b)
                });
                if let Some(aabb) = aabb {
                    out.push((proxy, aabb));
                }
            }
        });
    if flags.contains(&true) {
        report_frozen(&state.slots, flags, report);
    }
    concat_into(&sc.chunks[..chunks], |c| c, &mut sc.updates);
    for &i in slept {
        let b = state.slots[i as usize].body.as_ref();
        // A body that fell asleep is within the limits: it passed them at the end of the step.
        if let Some(aabb) = b.and_then(|b| broad_aabb(cfg, b)) {
            sc.updates.push((proxies.of_body[i as usize], aabb));
        }
    }
    if proxies.broad.update_batch(&sc.updates).is_err() {
        // Some AABB is not finite: update one by one and freeze the offenders.
        for k in 0..sc.updates.len() {
            let (proxy, aabb) = sc.updates[k];
            if proxies.broad.update(proxy, aabb).is_err() {
                let i = proxies.body_of_proxy[proxy.index() as usize] as usize;
                let slot = &mut state.slots[i];
                if let Some(b) = slot.body.as_mut() {
                    freeze(b);
                    report
                        .frozen
                        .push(BodyHandle::new(i as u32, slot.generation));
                }
            }
        }
    }
}

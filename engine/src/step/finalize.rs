//! The stage after the solve and continuous collision: the final non-finite check, the contact
//! and sensor events of the step (old caches merged against the new), the step's counts, and the
//! new caches swapped in for the next step.

use crate::contact::ContactPair;
use crate::events::{Event, StepReport};
use crate::handle::BodyHandle;
use crate::state::State;
use crate::step::integrate::{freeze, report_frozen};
use crate::step::narrow::NarrowScratch;
use crate::step::output::StepOutput;
use tumble_broadphase::par::prelude::*;

/// New contact pairs per chunk of the contact-event merge in `finalize` (fixed by the cache
/// alone, never by the thread count).
const EVENT_CHUNK: usize = 1024;

/// What one chunk of the contact-event merge yields (buffers kept between steps).
#[derive(Default)]
pub(crate) struct EventChunk {
    events: Vec<Event>,
    /// Contact points of the chunk's new pairs.
    points: usize,
    /// Touching pairs among them.
    touching: usize,
}

/// The finalize stage's buffers (kept between steps).
#[derive(Default)]
pub(crate) struct FinalizeScratch {
    /// Per fixed chunk of the new contact cache, its events and counts (see [`EVENT_CHUNK`]).
    chunks: Vec<EventChunk>,
}

#[inline(never)]
/// The final non-finite check, contact and sensor events (old caches against new), the step's
/// counts, and the new caches swapped in for the next step.
pub(crate) fn finalize(
    state: &mut State,
    narrow: &mut NarrowScratch,
    sc: &mut FinalizeScratch,
    flags: &mut Vec<bool>,
    out: &mut StepOutput,
    report: &mut StepReport,
) {
    // Final non-finite check, per body in parallel; the frozen are reported in slot order.
    flags.clear();
    flags.resize(state.slots.len(), false);
    let any_frozen = state
        .slots
        .par_iter_mut()
        .zip(flags.par_iter_mut())
        .with_min_len(256)
        .map(|(slot, frozen)| {
            if let Some(b) = slot.body.as_mut() {
                if b.is_moving() && !b.is_finite() {
                    freeze(b);
                    *frozen = true;
                }
            }
            *frozen
        })
        .par_reduce(|| false, |x, y| x | y);
    if any_frozen {
        report_frozen(&state.slots, flags, report);
    }
    // Contact events: merge join of the old and new caches, over fixed chunks of the new
    // cache in parallel, each from the first old pair not below its first key (the first
    // chunk from the start, the last to the end of the old cache), so the chunks' events
    // concatenated in order are the serial merge's. The counts come from the same pass.
    let (old, new) = (&state.contacts, &narrow.new_contacts);
    let key = |c: &ContactPair| (c.a.index(), c.b.index());
    let chunks = new.len().div_ceil(EVENT_CHUNK).max(1);
    if sc.chunks.len() < chunks {
        sc.chunks.resize_with(chunks, EventChunk::default);
    }
    let old_start = |j: usize| match j {
        0 => 0,
        j if j >= new.len() => old.len(),
        j => old.partition_point(|o| key(o) < key(&new[j])),
    };
    sc.chunks[..chunks]
        .par_iter_mut()
        .enumerate()
        .for_each(|(c, out)| {
            let (j0, j1) = (c * EVENT_CHUNK, ((c + 1) * EVENT_CHUNK).min(new.len()));
            let i1 = if c + 1 == chunks {
                old.len()
            } else {
                old_start(j1)
            };
            let new = &new[j0..j1];
            out.events.clear();
            contact_events(&old[old_start(j0)..i1], new, &mut out.events);
            out.points = new.iter().map(|c| c.manifold.len()).sum();
            out.touching = new.iter().filter(|c| c.touching).count();
        });
    let parts = &sc.chunks[..chunks];
    for part in parts {
        out.events.extend_from_slice(&part.events);
    }
    out.counts.contact_pairs = new.len();
    out.counts.contacts = parts.iter().map(|p| p.points).sum();
    out.counts.touching_pairs = parts.iter().map(|p| p.touching).sum();
    // Sensor events.
    let slots = &state.slots;
    let sensor_of = |a: BodyHandle, b: BodyHandle| -> (BodyHandle, BodyHandle) {
        let a_is_sensor = slots
            .get(a.index() as usize)
            .filter(|s| s.generation == a.generation())
            .and_then(|s| s.body.as_ref())
            .is_some_and(|b| b.sensor);
        if a_is_sensor {
            (a, b)
        } else {
            (b, a)
        }
    };
    let (old, new) = (&state.sensor_pairs, &narrow.new_sensor_pairs);
    let (mut i, mut j) = (0, 0);
    while i < old.len() || j < new.len() {
        let ord = match (old.get(i), new.get(j)) {
            (Some(o), Some(n)) => (o.0.index(), o.1.index()).cmp(&(n.0.index(), n.1.index())),
            (Some(_), None) => std::cmp::Ordering::Less,
            _ => std::cmp::Ordering::Greater,
        };
        let exit = |p: (BodyHandle, BodyHandle)| {
            let (sensor, other) = sensor_of(p.0, p.1);
            Event::SensorExit { sensor, other }
        };
        let enter = |p: (BodyHandle, BodyHandle)| {
            let (sensor, other) = sensor_of(p.0, p.1);
            Event::SensorEnter { sensor, other }
        };
        match ord {
            std::cmp::Ordering::Less => {
                out.events.push(exit(old[i]));
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.events.push(enter(new[j]));
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                if old[i] != new[j] {
                    out.events.push(exit(old[i]));
                    out.events.push(enter(new[j]));
                }
                i += 1;
                j += 1;
            }
        }
    }
    std::mem::swap(&mut state.contacts, &mut narrow.new_contacts);
    std::mem::swap(&mut state.sensor_pairs, &mut narrow.new_sensor_pairs);
}

/// Appends the contact events between the old and new contact caches `old` and `new` (each
/// sorted by body-index pair) to `events`, in pair order: a pair touching only in `old`
/// stopped, one touching only in `new` started; a pair whose bodies' slots were reused
/// (other generations) counts as two different pairs.
fn contact_events(old: &[ContactPair], new: &[ContactPair], events: &mut Vec<Event>) {
    use std::cmp::Ordering;
    let key = |c: &ContactPair| (c.a.index(), c.b.index());
    let (mut i, mut j) = (0, 0);
    loop {
        // The next pair of the merge: from `old` only, from `new` only, or from both.
        let (o, n) = match (old.get(i), new.get(j)) {
            (None, None) => break,
            (Some(o), Some(n)) => match key(o).cmp(&key(n)) {
                Ordering::Less => (Some(o), None),
                Ordering::Greater => (None, Some(n)),
                Ordering::Equal => (Some(o), Some(n)),
            },
            only => only,
        };
        // Touching in both caches, with the same generations: no event.
        let kept = matches!((o, n), (Some(o), Some(n))
            if o.touching && n.touching && o.a == n.a && o.b == n.b);
        if let Some(o) = o.filter(|o| o.touching && !kept) {
            events.push(Event::ContactStopped { a: o.a, b: o.b });
        }
        if let Some(n) = n.filter(|n| n.touching && !kept) {
            events.push(Event::ContactStarted { a: n.a, b: n.b });
        }
        i += o.is_some() as usize;
        j += n.is_some() as usize;
    }
}

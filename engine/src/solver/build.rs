//! Building the bundles: one constraint per touching pair, four per bundle, one per lane,
//! with last step's impulses matched for warm starting (see the module docs of `solver`).

use super::body::{mass_lanes, velocity_lanes, BodyMass, SolverBody};
use super::bundle::{
    tangent_lanes, Bundle, BundleHead, Constraints, PointState, PointW, RowW, TangentW, NO_PAIR,
};
use super::colour::Colouring;
use super::lanes::{prefetch, transpose, F4, LANES, M4, V4};
use super::shared::PointsPtr;
use crate::contact::ContactPair;
use crate::material::Material;
use tumble_broadphase::par::prelude::*;
use tumble_narrowphase::math::{Real, Vector};

/// Bundles built per rayon task.
const BUILD_CHUNK: usize = 64;
/// How many bundles ahead the build prefetches bodies (and twice as far, contact pairs).
const PREFETCH_AHEAD: usize = 2;

/// Fills `cons`'s bundles (sized by `colouring`) with the constraints of the contact pairs of
/// `ctx`, four at a time (see [`build_bundle`]), in parallel.
pub(super) fn build(colouring: &Colouring, cons: &mut Constraints, ctx: &BuildContext) {
    let pts = PointsPtr::of(cons);
    // The bundles of each (colour, region), region by region: rayon's first split gives
    // region 0 to the calling thread, which met those bodies and contact pairs in the
    // stages before (they are in slot and pair order) and meets them in the passes after.
    let regions = colouring.regions.max(1);
    let colours = colouring.bundle_starts.len().saturating_sub(1);
    let mut segments = Vec::with_capacity(colours * regions);
    let (mut bundles, mut heads) = (&mut cons.bundles[..], &colouring.heads[..]);
    let mut at = 0;
    for colour in 0..colours {
        let (start, end) = (
            colouring.bundle_starts[colour],
            colouring.bundle_starts[colour + 1],
        );
        for region in 0..regions {
            let to = match colouring.region_starts.get(colour * regions + region + 1) {
                Some(&r) if region + 1 < regions => start + r,
                _ => end,
            }
            .clamp(at, end);
            let (b, rest) = std::mem::take(&mut bundles).split_at_mut(to - at);
            let (h, hrest) = heads.split_at(to - at);
            (bundles, heads) = (rest, hrest);
            segments.push((region, colour, b, h));
            at = to;
        }
    }
    segments.sort_unstable_by_key(|s| (s.0, s.1));
    segments.into_par_iter().for_each(|(_, _, bundles, heads)| {
        bundles
            .par_chunks_mut(BUILD_CHUNK)
            .zip(heads.par_chunks(BUILD_CHUNK))
            .for_each(|(chunk, heads)| build_chunk(chunk, heads, pts, ctx));
    });
}

/// What building a bundle reads (see [`Solver::build`]).
pub(super) struct BuildContext<'a> {
    pub(super) contacts: &'a [ContactPair],
    pub(super) bodies: &'a [SolverBody],
    /// Accelerations of the bodies over the step (world frame, as `bodies`).
    pub(super) accel: &'a [SolverBody],
    pub(super) masses: &'a [BodyMass],
    pub(super) restitution_threshold: Real,
    pub(super) zero: u32,
}

/// Builds the bundles of `chunk` from their `heads` one after the other (see
/// [`build_bundle`]), their points in `pts`. Bundles are in colour order, so
/// their contact pairs and bodies are scattered in memory: the pairs are prefetched two steps
/// ahead, then their bodies.
#[inline(never)]
pub(super) fn build_chunk(
    chunk: &mut [Bundle],
    heads: &[BundleHead],
    pts: PointsPtr,
    ctx: &BuildContext,
) {
    let contacts_of = |h: &BundleHead| {
        h.pair
            .into_iter()
            .filter_map(|k| ctx.contacts.get(k as usize))
    };
    for (j, head) in heads.iter().enumerate().take(chunk.len()) {
        if let Some(far) = heads.get(j + 2 * PREFETCH_AHEAD) {
            contacts_of(far).for_each(prefetch);
        }
        if let Some(near) = heads.get(j + PREFETCH_AHEAD) {
            for cp in contacts_of(near) {
                for i in [cp.a.index() as usize, cp.b.index() as usize] {
                    if let Some(m) = ctx.masses.get(i) {
                        prefetch(m);
                    }
                    if let Some(b) = ctx.bodies.get(i) {
                        prefetch(b);
                    }
                }
            }
        }
        let bundle = &mut chunk[j];
        *bundle = Bundle::new(head.lens, head.first);
        let (first, len) = (bundle.first as usize, bundle.len as usize);
        // SAFETY: the range is reserved for this bundle alone by `colour`; the vectors are
        // alive and not resized during the build.
        let Some((points, states)) = (unsafe { pts.range(first, len) }) else {
            debug_assert!(false, "bundle points out of bounds");
            *bundle = Bundle::new([0; LANES], 0);
            continue;
        };
        build_bundle(bundle, head.pair, points, states, ctx);
    }
}

/// Builds the (up to four) constraints of `bd`, one per lane, and their points `points` and
/// `states` (point `k` of every lane in `points[k]` and `states[k]`). Per lane, the scalar part: bodies, normal and tangent
/// basis, friction and restitution; then per point, four lanes at once: the anchors relative
/// to the centres of mass, the normal and tangent rows ([`RowW::new`]), the separation, last
/// step's impulses (the tangent one projected on the tangents) and the approach speed `vn0`.
/// Lanes without a point `k` get zeros. Each lane does the scalar arithmetic of one constraint
/// in the scalar order, so the result does not depend on which lane a constraint lands in.
#[inline(never)]
pub(super) fn build_bundle(
    bd: &mut Bundle,
    pair: [u32; LANES],
    points: &mut [PointW],
    states: &mut [PointState],
    ctx: &BuildContext,
) {
    let zero = ctx.zero;
    let mut src: [Option<&ContactPair>; LANES] = [None; LANES];
    let mut mass_a: [&BodyMass; LANES] = [&BodyMass::DEAD; LANES];
    let mut mass_b: [&BodyMass; LANES] = [&BodyMass::DEAD; LANES];
    let mut vel_a = [SolverBody::ZERO; LANES];
    let mut vel_b = [SolverBody::ZERO; LANES];
    let mut acc_a = [SolverBody::ZERO; LANES];
    let mut acc_b = [SolverBody::ZERO; LANES];
    let mut normal = [Vector::zeros(); LANES];
    let mut friction = [0.0; LANES];
    let mut restitution = [0.0; LANES];
    for l in 0..LANES {
        bd.a[l] = zero;
        bd.b[l] = zero;
        bd.write_a[l] = false;
        bd.write_b[l] = false;
        let lens = bd.lens[l];
        bd.lens[l] = 0;
        let Some(cp) = ctx.contacts.get(pair[l] as usize) else {
            continue;
        };
        let (a, b) = (cp.a.index(), cp.b.index());
        let (Some(ma), Some(mb)) = (ctx.masses.get(a as usize), ctx.masses.get(b as usize)) else {
            continue;
        };
        bd.a[l] = a;
        bd.b[l] = b;
        // Contact pairs name live bodies; an empty constraint (a no-op) otherwise.
        if !(ma.live && mb.live) {
            continue;
        }
        let len = cp.manifold.len().min(lens as usize).min(bd.len as usize);
        bd.write_a[l] = ma.dynamic;
        bd.write_b[l] = mb.dynamic;
        bd.lens[l] = len as u8;
        src[l] = Some(cp);
        (mass_a[l], mass_b[l]) = (ma, mb);
        let body = |i: u32| {
            ctx.bodies
                .get(i as usize)
                .copied()
                .unwrap_or(SolverBody::ZERO)
        };
        (vel_a[l], vel_b[l]) = (body(a), body(b));
        let acc = |i: u32| {
            ctx.accel
                .get(i as usize)
                .copied()
                .unwrap_or(SolverBody::ZERO)
        };
        (acc_a[l], acc_b[l]) = (acc(a), acc(b));
        normal[l] = cp.manifold.normal;
        friction[l] = Material::combine_friction(&ma.material, &mb.material);
        restitution[l] = Material::combine_restitution(&ma.material, &mb.material);
    }
    let n = V4::from_lanes(|l| normal[l]);
    // `tangent_basis` of each lane's normal (the empty lanes' are not used: their rows and
    // impulses are zero).
    let t = tangent_lanes(&n);
    let inv_mass_a = F4::from_array(mass_a.map(|m| m.inv_mass));
    let inv_mass_b = F4::from_array(mass_b.map(|m| m.inv_mass));
    let inv_mass = inv_mass_a + inv_mass_b;
    let (ua, com_a) = mass_lanes(&mass_a);
    let (ub, com_b) = mass_lanes(&mass_b);
    let spin_a = M4::from_array(mass_a.map(|m| m.spin));
    let spin_b = M4::from_array(mass_b.map(|m| m.spin));
    let (va, wa) = velocity_lanes(&vel_a);
    let (vb, wb) = velocity_lanes(&vel_b);
    let dv = vb - va;
    // The normal acceleration of B relative to A (linear; positive when they accelerate
    // apart).
    let (aa, _) = velocity_lanes(&acc_a);
    let (ab, _) = velocity_lanes(&acc_b);
    let an = n.dot(&(ab - aa));
    let threshold = F4::splat(-ctx.restitution_threshold);
    let mut approaching = M4::from_array([false; LANES]);
    for (k, (w, state)) in points.iter_mut().zip(states.iter_mut()).enumerate() {
        let keep = bd.active(k);
        // Point `k` of each lane, read once: position and separation, last step's impulses
        // (zeros in lanes without one), one row per lane, then transposed into lanes.
        let mut at = [F4::ZERO; LANES];
        let mut imps = [F4::ZERO; LANES];
        for l in 0..LANES {
            let Some(cp) = src[l] else { continue };
            let (Some(q), Some(imp)) = (cp.manifold.points().get(k), cp.impulses.get(k)) else {
                continue;
            };
            at[l] = F4::from_array([q.point.x, q.point.y, q.point.z, -q.depth]);
            imps[l] = F4::from_array([imp.normal, imp.tangent.x, imp.tangent.y, imp.tangent.z]);
        }
        let [px, py, pz, sep] = transpose(at);
        let p = V4 {
            x: px,
            y: py,
            z: pz,
        };
        let [jn, jx, jy, jz] = transpose(imps);
        let jt = V4 {
            x: jx,
            y: jy,
            z: jz,
        };
        let (ra, rb) = (p - com_a, p - com_b);
        let row = |d: &V4| RowW::new(&ra, &rb, d, inv_mass, (&ua, spin_a), (&ub, spin_b), keep);
        let (normal, cross_a, cross_b) = row(&n);
        let (t1, t2) = (row(&t[0]).0, row(&t[1]).0);
        // The friction block: `k_ij = (t_i·t_j)/m + (Lᵀ(r × t_i))·(Lᵀ(r × t_j))` summed over the
        // spinning bodies (`t₁·t₂ = 0`); zero in lanes without a point `k`.
        let spin_dot = |x: &RowW, y: &RowW| {
            spin_a.select(x.ang_a.dot(&y.ang_a), F4::ZERO)
                + spin_b.select(x.ang_b.dot(&y.ang_b), F4::ZERO)
        };
        let tk = [
            keep.select(inv_mass + spin_dot(&t1, &t1), F4::ZERO),
            keep.select(inv_mass + spin_dot(&t2, &t2), F4::ZERO),
            keep.select(spin_dot(&t1, &t2), F4::ZERO),
        ];
        let tangent = |r: RowW| TangentW {
            ang_a: r.ang_a,
            ang_b: r.ang_b,
        };
        // The relative normal velocity `n·(vb − va) + (rb × n)·wb − (ra × n)·wa` (world
        // angular velocities).
        let vn_start = n.dot(&dv) + cross_b.dot(&wb) - cross_a.dot(&wa);
        // The approach speed at impact: a point apart by `sep > 0` and approaching, while
        // gravity and forces speed it up, closes faster when it touches than at the start of
        // the step (`vn² + 2·(−aₙ)·sep`, the speed after falling the gap), and that speed is
        // what restitution must give back.
        let closing = F4::ZERO.gt(vn_start).and(sep.gt(F4::ZERO));
        let at_impact = (vn_start * vn_start - (an + an) * sep).max(F4::ZERO).sqrt();
        let vn0 = closing.select(F4::ZERO - at_impact, vn_start);
        approaching = approaching.or(keep.and(threshold.gt(vn0)));
        // Lanes without a point `k` are zero (no select needed when every lane has one).
        let all = keep.all();
        let kept = |x: F4| if all { x } else { keep.select(x, F4::ZERO) };
        *w = PointW {
            normal,
            tangent: [tangent(t1), tangent(t2)],
            tk,
            sep: kept(sep),
            vn0: kept(vn0),
        };
        *state = PointState {
            jn: kept(jn),
            jt: [kept(jt.dot(&t[0])), kept(jt.dot(&t[1]))],
            max_jn: F4::ZERO,
        };
    }
    bd.normal = n;
    bd.friction = F4::from_array(friction);
    // No point approaches fast enough to bounce: the restitution pass can skip the lane.
    bd.restitution = approaching.select(F4::from_array(restitution), F4::ZERO);
    bd.inv_mass_a = inv_mass_a;
    bd.inv_mass_b = inv_mass_b;
    bd.spin_bits = (0..LANES).fold(0, |bits, l| {
        bits | (mass_a[l].spin as u8) << l | (mass_b[l].spin as u8) << (LANES + l)
    });
    bd.spin_all = spin_a.and(spin_b).all();
    bd.masked = (0..LANES).any(|l| pair[l] != NO_PAIR && bd.lens[l] < bd.len);
}

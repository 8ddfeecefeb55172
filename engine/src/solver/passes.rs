//! The passes over a colour's bundles: warm start, solve, relax and restitution, two bundles in
//! lockstep.

use super::bundle::{tangent_lanes, Bundle, PointState, PointW, RowW, Spin, MAX_EFFECTIVE_MASS};
use super::lanes::{F4, LANES, M4, V4};
use super::params::{Pass, Softness, SolverParams};
use super::shared::{BodiesPtr, PointsPtr};

/// The velocities of the two bodies of each lane.
pub(super) struct Velocities {
    pub(super) va: V4,
    pub(super) wa: V4,
    pub(super) vb: V4,
    pub(super) wb: V4,
}

impl Velocities {
    /// All four lanes at rest.
    pub(super) const ZERO: Velocities = Velocities {
        va: V4::ZERO,
        wa: V4::ZERO,
        vb: V4::ZERO,
        wb: V4::ZERO,
    };

    /// Applies impulse `d` (per lane, N·s) along `dir` to B and its opposite to A, through
    /// `row`'s angular terms; only in the lanes of `mask` when there is one.
    #[inline(always)]
    pub(super) fn apply_row<const SPIN_ALL: bool>(
        &mut self,
        b: &Bundle,
        spin: &Spin,
        dir: &V4,
        row: &RowW,
        d: F4,
        mask: Option<M4>,
    ) {
        let (da, db) = spin.split::<SPIN_ALL>(d);
        self.apply(
            b,
            dir.scale(d),
            row.ang_a.scale(da),
            row.ang_b.scale(db),
            mask,
        );
    }

    /// Applies an impulse `lin` (world vector, N·s) to B and its opposite to A, whose effects
    /// on the scaled angular velocities are `ang_a`, `ang_b` (zero in lanes whose body does
    /// not spin); only in the lanes of `mask` when there is one.
    #[inline(always)]
    pub(super) fn apply(&mut self, b: &Bundle, lin: V4, ang_a: V4, ang_b: V4, mask: Option<M4>) {
        let va = self.va - lin.scale(b.inv_mass_a);
        let wa = self.wa - ang_a;
        let vb = self.vb + lin.scale(b.inv_mass_b);
        let wb = self.wb + ang_b;
        match mask {
            None => {
                self.va = va;
                self.wa = wa;
                self.vb = vb;
                self.wb = wb;
            }
            Some(m) => {
                self.va = V4::select(m, va, self.va);
                self.wa = V4::select(m, wa, self.wa);
                self.vb = V4::select(m, vb, self.vb);
                self.wb = V4::select(m, wb, self.wb);
            }
        }
    }
}

/// Solves the bundles `bundles` (consecutive, of one colour) for one pass, reading and writing
/// their bodies through `ptr`, whose array holds every slot the bundles name (the caller
/// checks that it is at least [`Solver::body_bound`] long). With `pairs` (any colour but the
/// overflow, whose bundles may share bodies), two bundles at a time in lockstep (see
/// [`lockstep`]); else one by one.
#[inline]
pub(super) fn solve_bundles(
    bundles: &[Bundle],
    pairs: bool,
    ptr: BodiesPtr,
    deltas: BodiesPtr,
    pts: PointsPtr,
    p: &SolverParams,
    pass: Pass,
) {
    if !pairs {
        for bd in bundles {
            match bd.spin_all {
                true => solve_one::<true>(bd, ptr, deltas, pts, p, pass),
                false => solve_one::<false>(bd, ptr, deltas, pts, p, pass),
            }
        }
        return;
    }
    for two in bundles.chunks(2) {
        match *two {
            [ref a, ref b] => match (a.spin_all, b.spin_all) {
                (true, true) => solve_two::<true, true>(a, b, ptr, deltas, pts, p, pass),
                (true, false) => solve_two::<true, false>(a, b, ptr, deltas, pts, p, pass),
                (false, true) => solve_two::<false, true>(a, b, ptr, deltas, pts, p, pass),
                (false, false) => solve_two::<false, false>(a, b, ptr, deltas, pts, p, pass),
            },
            [ref a] => match a.spin_all {
                true => solve_one::<true>(a, ptr, deltas, pts, p, pass),
                false => solve_one::<false>(a, ptr, deltas, pts, p, pass),
            },
            _ => {}
        }
    }
}

/// One bundle for one pass ([`solve_bundles`]); `SPIN_ALL` is its `spin_all`.
#[inline(never)]
pub(super) fn solve_one<const SPIN_ALL: bool>(
    bd: &Bundle,
    ptr: BodiesPtr,
    deltas: BodiesPtr,
    pts: PointsPtr,
    p: &SolverParams,
    pass: Pass,
) {
    // SAFETY: see `Open::new`; the bundle is alone.
    let c = PassConsts::new(p, pass);
    if let Some(mut a) = unsafe { Open::<SPIN_ALL>::new(bd, ptr, deltas, pts, pass, &c) } {
        lockstep(&mut a, &mut Idle, &c, pass);
        // SAFETY: see `Open::close`.
        unsafe { a.close(ptr) };
    }
}

/// Two bundles of one colour for one pass, in lockstep ([`solve_bundles`], [`lockstep`]);
/// `SA`, `SB` are their `spin_all`.
#[inline(never)]
pub(super) fn solve_two<const SA: bool, const SB: bool>(
    a: &Bundle,
    b: &Bundle,
    ptr: BodiesPtr,
    deltas: BodiesPtr,
    pts: PointsPtr,
    p: &SolverParams,
    pass: Pass,
) {
    // SAFETY: see `Open::new`: the two bundles are of one colour (not the overflow), so they
    // touch disjoint dynamic bodies and their own points.
    let c = PassConsts::new(p, pass);
    let (oa, ob) = unsafe {
        (
            Open::<SA>::new(a, ptr, deltas, pts, pass, &c),
            Open::<SB>::new(b, ptr, deltas, pts, pass, &c),
        )
    };
    // SAFETY (the `close` calls): see `Open::close`.
    match (oa, ob) {
        (Some(mut x), Some(mut y)) => {
            lockstep(&mut x, &mut y, &c, pass);
            unsafe { x.close(ptr) };
            unsafe { y.close(ptr) };
        }
        (Some(mut x), None) => {
            lockstep(&mut x, &mut Idle, &c, pass);
            unsafe { x.close(ptr) };
        }
        (None, Some(mut y)) => {
            lockstep(&mut y, &mut Idle, &c, pass);
            unsafe { y.close(ptr) };
        }
        (None, None) => {}
    }
}

/// Runs one pass over two independent bundles point by point: point `k` of `a`, then point
/// `k` of `b`. Each bundle's points form one long chain of dependent operations (every
/// impulse changes the velocities the next one reads), so one bundle alone leaves the
/// processor waiting on latencies; two interleaved chains fill those waits. Each bundle does
/// exactly what it would do alone, in the same order, so the results do not change.
#[inline(always)]
pub(super) fn lockstep(a: &mut impl Chain, b: &mut impl Chain, c: &PassConsts, pass: Pass) {
    let len = a.len().max(b.len());
    match pass {
        Pass::WarmStart => {
            for k in 0..len {
                a.warm(k);
                b.warm(k);
            }
        }
        // Friction first, normal last (the normal matters most).
        Pass::Solve | Pass::Relax => {
            for k in 0..len {
                a.friction(k);
                b.friction(k);
            }
            for k in 0..len {
                a.normal(k, c);
                b.normal(k, c);
            }
        }
        Pass::Restitution => {
            for k in 0..len {
                a.restitute(k, c);
                b.restitute(k, c);
            }
        }
    }
}

/// What a pass needs of [`SolverParams`], in lanes.
pub(super) struct PassConsts {
    pub(super) speculative_bias: F4,
    /// Softness between dynamic bodies: bias rate, mass scale, impulse scale.
    pub(super) soft: [F4; 3],
    /// Softness against a static or kinematic body.
    pub(super) static_soft: [F4; 3],
    pub(super) allowed: F4,
    pub(super) max_push: F4,
    pub(super) use_bias: bool,
    pub(super) threshold: F4,
}

impl PassConsts {
    #[inline(always)]
    pub(super) fn new(p: &SolverParams, pass: Pass) -> Self {
        let use_bias = pass == Pass::Solve;
        let lanes = |s: &Softness| {
            if use_bias {
                [
                    F4::splat(s.bias_rate),
                    F4::splat(s.mass_scale),
                    F4::splat(s.impulse_scale),
                ]
            } else {
                [F4::ZERO, F4::splat(1.0), F4::ZERO]
            }
        };
        Self {
            speculative_bias: F4::splat(p.inv_h),
            soft: lanes(&p.soft),
            static_soft: lanes(&p.static_soft),
            allowed: F4::splat(p.allowed_penetration),
            max_push: F4::splat(-p.max_push),
            use_bias,
            threshold: F4::splat(-p.restitution_threshold),
        }
    }
}

/// A bundle's share of a pass, point by point (see [`lockstep`]); a point `k` beyond the
/// bundle's length is skipped.
pub(super) trait Chain {
    /// Points in the bundle.
    fn len(&self) -> usize;
    /// Applies last step's impulses of point `k`.
    fn warm(&mut self, k: usize);
    /// The friction of point `k`.
    fn friction(&mut self, k: usize);
    /// The normal impulse of point `k`.
    fn normal(&mut self, k: usize, c: &PassConsts);
    /// The restitution of point `k`.
    fn restitute(&mut self, k: usize, c: &PassConsts);
}

/// No bundle (the second of [`lockstep`] when there is one only).
pub(super) struct Idle;

impl Chain for Idle {
    #[inline(always)]
    fn len(&self) -> usize {
        0
    }
    #[inline(always)]
    fn warm(&mut self, _: usize) {}
    #[inline(always)]
    fn friction(&mut self, _: usize) {}
    #[inline(always)]
    fn normal(&mut self, _: usize, _: &PassConsts) {}
    #[inline(always)]
    fn restitute(&mut self, _: usize, _: &PassConsts) {}
}

/// A bundle being solved: its points, and its bodies' velocities in lanes (gathered by
/// [`Open::new`], written back by [`Open::close`]). `SPIN_ALL` is the bundle's `spin_all`.
pub(super) struct Open<'a, const SPIN_ALL: bool> {
    pub(super) bd: &'a Bundle,
    pub(super) points: &'a [PointW],
    pub(super) states: &'a mut [PointState],
    pub(super) vel: Velocities,
    /// The bundle's tangents ([`tangent_lanes`] of its normal).
    pub(super) tangents: [V4; 2],
    /// Which bodies spin (unused when `SPIN_ALL`).
    pub(super) spin: Spin,
    /// How far the bodies moved since the start of the step (solve and relax passes; zero
    /// in the others): `ddp = Δxb − Δxa`, and the (scaled) rotation vectors `Δθ̃a`, `Δθ̃b`,
    /// so that a point's separation now is `sep + row.velocity(n·ddp, Δθ̃a, Δθ̃b)` (the
    /// anchors moved with the bodies, to first order in the rotation).
    pub(super) moved: Velocities,
    /// The lanes' softness (bias rate, mass scale, impulse scale): stiffer where a body is
    /// static or kinematic.
    pub(super) soft: [F4; 3],
}

impl<'a, const SPIN_ALL: bool> Open<'a, SPIN_ALL> {
    /// Gathers the velocities of `bd`'s bodies; `None` when the pass has nothing to do for it
    /// (restitution for a bundle that cannot bounce) or its points are out of bounds.
    ///
    /// # Safety
    /// `bd`'s body slots are below the length of `ptr`'s array (the caller checked it against
    /// [`Solver::body_bound`]; only `build` sets slots, and it updates the bound), and until
    /// [`Open::close`] no other thread writes these bodies (see [`BodiesPtr`]) nor touches the
    /// bundle's points (see [`PointsPtr`]); both arrays outlive the pass.
    #[inline(always)]
    pub(super) unsafe fn new(
        bd: &'a Bundle,
        ptr: BodiesPtr,
        deltas: BodiesPtr,
        pts: PointsPtr,
        pass: Pass,
        c: &PassConsts,
    ) -> Option<Self> {
        if pass == Pass::Restitution && bd.restitution.eq(F4::ZERO).all() {
            return None;
        }
        // SAFETY: the caller's guarantee.
        let Some((points, states)) = (unsafe { pts.range(bd.first as usize, bd.len as usize) })
        else {
            debug_assert!(false, "bundle points out of bounds");
            return None;
        };
        // SAFETY: the caller's guarantee.
        let gather = |ptr: BodiesPtr, idx: &[u32; LANES]| unsafe { ptr.lanes(idx) };
        let (va, wa) = gather(ptr, &bd.a);
        let (vb, wb) = gather(ptr, &bd.b);
        let moved = if matches!(pass, Pass::Solve | Pass::Relax) {
            let (da, ta) = gather(deltas, &bd.a);
            let (db, tb) = gather(deltas, &bd.b);
            Velocities {
                va: da,
                wa: ta,
                vb: db,
                wb: tb,
            }
        } else {
            Velocities::ZERO
        };
        let both_dynamic = M4::from_array(std::array::from_fn(|l| bd.write_a[l] && bd.write_b[l]));
        let soft = std::array::from_fn(|i| both_dynamic.select(c.soft[i], c.static_soft[i]));
        let spin = if SPIN_ALL {
            Spin {
                a: M4::from_array([true; LANES]),
                b: M4::from_array([true; LANES]),
            }
        } else {
            bd.spin_masks()
        };
        Some(Self {
            bd,
            points,
            states,
            vel: Velocities { va, wa, vb, wb },
            tangents: tangent_lanes(&bd.normal),
            spin,
            moved,
            soft,
        })
    }

    /// Writes the velocities back into the bundle's dynamic bodies.
    ///
    /// # Safety
    /// As for [`Open::new`].
    #[inline(always)]
    pub(super) unsafe fn close(self, ptr: BodiesPtr) {
        let (bd, vel) = (self.bd, &self.vel);
        // SAFETY: the caller's guarantee; only dynamic bodies (write_* true) are written.
        unsafe {
            ptr.write_lanes(&bd.a, &bd.write_a, &vel.va, &vel.wa);
            ptr.write_lanes(&bd.b, &bd.write_b, &vel.vb, &vel.wb);
        }
    }

    /// The lanes whose point `k` exists, when the bundle has lanes with fewer points.
    #[inline(always)]
    pub(super) fn mask(&self, k: usize) -> Option<M4> {
        self.bd.masked.then(|| self.bd.active(k))
    }
}

impl<const SPIN_ALL: bool> Chain for Open<'_, SPIN_ALL> {
    #[inline(always)]
    fn len(&self) -> usize {
        self.points.len().min(self.states.len())
    }

    #[inline(always)]
    fn warm(&mut self, k: usize) {
        let (Some(cp), Some(st)) = (self.points.get(k), self.states.get(k)) else {
            return;
        };
        let (bd, spin) = (self.bd, &self.spin);
        let [t1, t2] = &self.tangents;
        let [j1, j2] = st.jt;
        let [r1, r2] = &cp.tangent;
        let jn = st.jn;
        let ((na, nb), (j1a, j1b), (j2a, j2b)) = (
            spin.split::<SPIN_ALL>(jn),
            spin.split::<SPIN_ALL>(j1),
            spin.split::<SPIN_ALL>(j2),
        );
        let mask = self.mask(k);
        self.vel.apply(
            bd,
            bd.normal.scale(jn) + t1.scale(j1) + t2.scale(j2),
            cp.normal.ang_a.scale(na) + r1.ang_a.scale(j1a) + r2.ang_a.scale(j2a),
            cp.normal.ang_b.scale(nb) + r1.ang_b.scale(j1b) + r2.ang_b.scale(j2b),
            mask,
        );
    }

    #[inline(always)]
    fn friction(&mut self, k: usize) {
        let (Some(cp), Some(st)) = (self.points.get(k), self.states.get_mut(k)) else {
            return;
        };
        let (bd, vel, spin) = (self.bd, &mut self.vel, &self.spin);
        let [t1, t2] = &self.tangents;
        let dvl = vel.vb - vel.va;
        let [r1, r2] = &cp.tangent;
        let max_f = bd.friction * st.jn;
        let old = st.jt;
        // The tangent velocity `u` and the impulse `−α·u` against it that stops the bodies
        // along `u` (`uᵀ(u − α·K·u) = 0`): friction opposes the sliding direction itself,
        // whatever the coupling of the two tangent rows (rapier's 3D friction; solving the two
        // rows apart skews the impulse towards the row of larger effective mass).
        let u0 = r1.velocity(t1.dot(&dvl), &vel.wa, &vel.wb);
        let u1 = r2.velocity(t2.dot(&dvl), &vel.wa, &vel.wb);
        let [k11, k22, k12] = cp.tk;
        let uu = u0 * u0 + u1 * u1;
        let uku = k11 * u0 * u0 + k22 * u1 * u1 + (k12 + k12) * u0 * u1;
        let alpha = uku
            .gt(F4::ZERO)
            .select(uu.div(uku), F4::ZERO)
            .min(F4::splat(MAX_EFFECTIVE_MASS));
        let n0 = old[0] - alpha * u0;
        let n1 = old[1] - alpha * u1;
        // Clamp to the Coulomb disc `|jt| ≤ μ·jn`.
        let mag2 = n0 * n0 + n1 * n1;
        let clamp = mag2.gt(max_f * max_f);
        let s = mag2.gt(F4::ZERO).select(max_f.div(mag2.sqrt()), F4::ZERO);
        let new = [clamp.select(n0 * s, n0), clamp.select(n1 * s, n1)];
        st.jt = new;
        let (d1, d2) = (new[0] - old[0], new[1] - old[1]);
        let ((d1a, d1b), (d2a, d2b)) = (spin.split::<SPIN_ALL>(d1), spin.split::<SPIN_ALL>(d2));
        let mask = bd.masked.then(|| bd.active(k));
        vel.apply(
            bd,
            t1.scale(d1) + t2.scale(d2),
            r1.ang_a.scale(d1a) + r2.ang_a.scale(d2a),
            r1.ang_b.scale(d1b) + r2.ang_b.scale(d2b),
            mask,
        );
    }

    #[inline(always)]
    fn normal(&mut self, k: usize, c: &PassConsts) {
        let (Some(cp), Some(st)) = (self.points.get(k), self.states.get_mut(k)) else {
            return;
        };
        let (bd, vel) = (self.bd, &mut self.vel);
        let n_ = &bd.normal;
        let vn = cp
            .normal
            .velocity(n_.dot(&(vel.vb - vel.va)), &vel.wa, &vel.wb);
        // The separation now: at the start of the step, plus how far the anchors moved apart
        // along the normal since.
        let m = &self.moved;
        let s = cp.sep + cp.normal.velocity(n_.dot(&(m.vb - m.va)), &m.wa, &m.wb);
        // A speculative point (s > 0) may close the gap this substep, no more; a penetrating
        // one is pushed out softly (only in the biased passes).
        let speculative = s.gt(F4::ZERO);
        let [soft_bias, soft_mass, soft_impulse] = self.soft;
        let push = if c.use_bias {
            (soft_bias * (s + c.allowed).min(F4::ZERO)).max(c.max_push)
        } else {
            F4::ZERO
        };
        let bias = speculative.select(s * c.speculative_bias, push);
        let mass_scale = speculative.select(F4::splat(1.0), soft_mass);
        let impulse_scale = speculative.select(F4::ZERO, soft_impulse);
        let imp = -cp.normal.mass * mass_scale * (vn + bias) - impulse_scale * st.jn;
        let new = (st.jn + imp).max(F4::ZERO);
        let d = new - st.jn;
        st.jn = new;
        st.max_jn = st.max_jn.max(d);
        let mask = bd.masked.then(|| bd.active(k));
        vel.apply_row::<SPIN_ALL>(bd, &self.spin, n_, &cp.normal, d, mask);
    }

    #[inline(always)]
    fn restitute(&mut self, k: usize, c: &PassConsts) {
        let (Some(cp), Some(st)) = (self.points.get(k), self.states.get_mut(k)) else {
            return;
        };
        let (bd, vel) = (self.bd, &mut self.vel);
        // Only points that approached fast enough and took an impulse bounce.
        let bouncy = bd.restitution.eq(F4::ZERO).not();
        let skip = cp.vn0.gt(c.threshold).or(st.max_jn.eq(F4::ZERO));
        let m = skip.not().and(bouncy).and(bd.active(k));
        if !m.any() {
            return;
        }
        let n_ = &bd.normal;
        let vn = cp
            .normal
            .velocity(n_.dot(&(vel.vb - vel.va)), &vel.wa, &vel.wb);
        let imp = -cp.normal.mass * (vn + bd.restitution * cp.vn0);
        let new = (st.jn + imp).max(F4::ZERO);
        let d = new - st.jn;
        st.jn = m.select(new, st.jn);
        st.max_jn = m.select(st.max_jn.max(d), st.max_jn);
        vel.apply_row::<SPIN_ALL>(bd, &self.spin, n_, &cp.normal, d, Some(m));
    }
}

//! The contact solver: sequential impulses with accumulated, warm-started impulses and soft
//! contacts, after Catto ("Iterative Dynamics with Temporal Coherence", GDC 2005; "Fast and
//! Simple Physics using Sequential Impulses", GDC 2006) and Box2D v3's soft step ("Solver2D",
//! 2024), with one substep.
//!
//! Per step:
//! 1. **prepare**: one `Constraint` per touching pair (up to 4 points); per point and per
//!    direction (normal, two tangents) the angular Jacobians `r × d` of the anchors relative to
//!    the centres of mass, their images `I⁻¹(r × d)` under the inverse inertia, and the
//!    effective mass, so that the passes below need no cross or matrix products; the approach
//!    speed `vn0` (for restitution), and last step's impulses matched by feature id (or, when
//!    the narrow phase changed reference face, by the nearest old point within 2 cm). Points
//!    of all constraints live in one buffer, each constraint owning a disjoint range;
//! 2. **colour**: greedy graph colouring so that no two constraints of one colour share a
//!    dynamic body; constraints are stored colour by colour. Every pass below walks the colours
//!    in order, and a colour's constraints may run in parallel: they touch disjoint dynamic
//!    bodies, so the result is the same for any thread count;
//! 3. **warm start**: apply last step's accumulated impulses;
//! 4. **solve** (`solver_iterations` times): friction, clamped to the Coulomb disc
//!    `|jt| ≤ μ·jn`, then the normal impulse, accumulated and clamped `jn ≥ 0`. A point with a
//!    gap `s > 0` is speculative: the solver lets the bodies approach by at most `s` this step
//!    (`vn ≥ −s/dt`). A penetrating point is pushed out by a soft constraint (spring of
//!    `contact_hertz`, damping ratio `contact_damping_ratio`, push speed capped);
//! 5. (positions are integrated by the world);
//! 6. **relax** (`relax_iterations` times): the same without the push-out bias, so the push-out
//!    velocity does not survive the step (no energy gain from overlap);
//! 7. **restitution**: for points that approached faster than `restitution_threshold` and took
//!    an impulse, `vn ← −e·vn0`;
//! 8. **store**: accumulated impulses go back into the contact cache for the next step.

use crate::math::{Matrix, Real, Vector};
use rayon::prelude::*;

/// Velocity state of a body as the solver sees it (indexed by body slot).
#[derive(Clone, Copy, Debug)]
pub(crate) struct SolverBody {
    pub v: Vector,
    pub w: Vector,
    pub inv_mass: Real,
    pub inv_inertia: Matrix,
}

impl SolverBody {
    pub const STATIC: SolverBody = SolverBody {
        v: Vector::new(0.0, 0.0, 0.0),
        w: Vector::new(0.0, 0.0, 0.0),
        inv_mass: 0.0,
        inv_inertia: Matrix::new(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0),
    };
}

/// One row of a contact point along a unit direction `d` (the normal or a tangent), with the
/// angular parts of its Jacobian precomputed so that the solver passes need only dot products
/// and scaled additions (no cross products, no inertia products).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Row {
    /// `ra × d` and `rb × d` (metres): the relative velocity along `d` is
    /// `d·(vb − va) + ang_b·wb − ang_a·wa`.
    pub ang_a: Vector,
    pub ang_b: Vector,
    /// `Ia·(ra × d)` and `Ib·(rb × d)` (world-frame inverse inertia, 1/(kg·m)): an impulse `λ`
    /// along `d` changes `wa` by `−λ·imp_a` and `wb` by `+λ·imp_b`.
    pub imp_a: Vector,
    pub imp_b: Vector,
    /// Effective mass along `d`, kg (0 when both bodies are immovable).
    pub mass: Real,
}

impl Row {
    /// The row of anchors `ra`, `rb` (relative to the centres of mass, world frame) along `d`.
    #[inline]
    pub fn new(a: &SolverBody, b: &SolverBody, ra: &Vector, rb: &Vector, d: &Vector) -> Self {
        let ang_a = ra.cross(d);
        let ang_b = rb.cross(d);
        let imp_a = a.inv_inertia * ang_a;
        let imp_b = b.inv_inertia * ang_b;
        let k = a.inv_mass + b.inv_mass + ang_a.dot(&imp_a) + ang_b.dot(&imp_b);
        Self {
            ang_a,
            ang_b,
            imp_a,
            imp_b,
            mass: if k > 0.0 { 1.0 / k } else { 0.0 },
        }
    }

    /// Relative velocity along the row, given `dvl = vb − va` projected on `d` as `lin`.
    #[inline(always)]
    fn velocity(&self, lin: Real, wa: &Vector, wb: &Vector) -> Real {
        lin + self.ang_b.dot(wb) - self.ang_a.dot(wa)
    }
}

/// One contact point of a constraint.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ConstraintPoint {
    /// The normal row and the two friction rows.
    pub normal: Row,
    pub tangent: [Row; 2],
    /// Separation at the start of the step, metres (negative when penetrating).
    pub sep: Real,
    /// Accumulated impulses (N·s): normal, then along the two tangents.
    pub jn: Real,
    pub jt: [Real; 2],
    /// Normal relative velocity before solving (m/s, negative when approaching).
    pub vn0: Real,
    /// Largest normal impulse applied during this step.
    pub max_jn: Real,
}

/// A contact constraint between bodies `a` and `b` (slot indices).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Constraint {
    pub a: u32,
    pub b: u32,
    /// Whether the solver may write the body's velocity (dynamic bodies only).
    pub write_a: bool,
    pub write_b: bool,
    /// Index of the contact pair this constraint came from.
    pub pair: u32,
    pub normal: Vector,
    pub tangents: [Vector; 2],
    pub friction: Real,
    pub restitution: Real,
    /// The constraint's points are `Solver::points[first..first + len]`.
    pub first: u32,
    pub len: u8,
}

/// Soft-constraint coefficients (Box2D v3 `b2MakeSoft`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Softness {
    pub bias_rate: Real,
    pub mass_scale: Real,
    pub impulse_scale: Real,
}

impl Softness {
    /// Spring of `hertz` with damping ratio `zeta`, stepped with `h`.
    pub fn new(hertz: Real, zeta: Real, h: Real) -> Self {
        if hertz <= 0.0 {
            return Self {
                bias_rate: 0.0,
                mass_scale: 1.0,
                impulse_scale: 0.0,
            };
        }
        let omega = 2.0 * std::f32::consts::PI * hertz;
        let a1 = 2.0 * zeta + h * omega;
        let a2 = h * omega * a1;
        let a3 = 1.0 / (1.0 + a2);
        Self {
            bias_rate: omega / a1,
            mass_scale: a2 * a3,
            impulse_scale: a3,
        }
    }
}

/// Parameters shared by every constraint during one step.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SolverParams {
    pub inv_h: Real,
    pub soft: Softness,
    /// Penetration left uncorrected, metres (keeps resting contacts from jittering).
    pub allowed_penetration: Real,
    pub max_push: Real,
    pub restitution_threshold: Real,
}

/// Which pass a constraint is solved in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pass {
    WarmStart,
    Solve,
    Relax,
    Restitution,
}

/// The bodies, shared by the constraints of one colour. The colouring guarantees that within a
/// colour no two constraints write the same body, and bodies that are only read (static,
/// kinematic, frozen) are never written by anyone.
#[derive(Clone, Copy)]
struct BodiesPtr(*mut SolverBody);

// SAFETY: the pointer is only dereferenced during a colour pass, on indices that are in bounds
// (checked by `solve_colour`'s caller building constraints from valid slots); writes go to
// dynamic bodies, each owned by at most one constraint of the colour (graph colouring), and no
// constraint reads a dynamic body owned by another constraint of the same colour (a dynamic body
// appearing in two constraints would make them share it, which the colouring forbids).
unsafe impl Send for BodiesPtr {}
// SAFETY: see `Send` above.
unsafe impl Sync for BodiesPtr {}

/// The constraint points, shared by the constraints of one pass: each constraint owns the
/// disjoint range `first..first + len` (prefix sums of the lengths), so no two constraints
/// touch the same point.
#[derive(Clone, Copy)]
pub(crate) struct PointsPtr(pub *mut ConstraintPoint);

// SAFETY: only dereferenced within the disjoint range each constraint owns (see above), and
// only while the `points` vector it points into is alive and not resized.
unsafe impl Send for PointsPtr {}
// SAFETY: see `Send` above.
unsafe impl Sync for PointsPtr {}

/// Constraints smaller than this per colour are solved on the calling thread.
const PARALLEL_MIN: usize = 256;
/// Constraints per rayon task.
const CHUNK: usize = 128;

/// The solver's scratch: constraints stored colour by colour, and colour boundaries.
#[derive(Default)]
pub(crate) struct Solver {
    pub constraints: Vec<Constraint>,
    /// Points of all constraints, in constraint order.
    pub points: Vec<ConstraintPoint>,
    /// Offset of each constraint's first point (prefix sums of the lengths, colour order).
    pub offsets: Vec<u32>,
    /// Contact-pair indices in colour order (the order of `constraints`).
    pub order: Vec<u32>,
    /// `colour_starts[c]..colour_starts[c+1]` is colour `c` in `constraints`.
    pub colour_starts: Vec<usize>,
    colour_of: Vec<u8>,
    masks: Vec<u64>,
    counts: Vec<usize>,
}

/// Number of colours tried before a constraint goes to the overflow colour (solved last).
const COLOURS: usize = 64;

impl Solver {
    /// Greedy graph colouring of the constraints `(a, b, write_a, write_b)` given in pair order:
    /// each takes the lowest colour free on both of its dynamic bodies. Fills `order` (pair
    /// indices sorted by colour, pair order kept within a colour) and `colour_starts`.
    /// `n_bodies` bounds the slot indices.
    #[inline(never)]
    pub fn colour(&mut self, pairs: impl Iterator<Item = (u32, u32, bool, bool)>, n_bodies: usize) {
        self.masks.clear();
        self.masks.resize(n_bodies, 0);
        self.colour_of.clear();
        self.counts.clear();
        self.counts.resize(COLOURS + 1, 0);
        for (a, b, write_a, write_b) in pairs {
            let ma = if write_a { self.masks[a as usize] } else { 0 };
            let mb = if write_b { self.masks[b as usize] } else { 0 };
            let free = !(ma | mb);
            let colour = if free == 0 {
                COLOURS
            } else {
                free.trailing_zeros() as usize
            };
            if colour < COLOURS {
                let bit = 1u64 << colour;
                if write_a {
                    self.masks[a as usize] |= bit;
                }
                if write_b {
                    self.masks[b as usize] |= bit;
                }
            }
            self.colour_of.push(colour as u8);
            self.counts[colour] += 1;
        }
        // Counting sort by colour (stable).
        self.colour_starts.clear();
        let mut start = 0;
        for &n in &self.counts {
            self.colour_starts.push(start);
            start += n;
        }
        self.colour_starts.push(start);
        for c in 0..=COLOURS {
            self.counts[c] = self.colour_starts[c];
        }
        self.order.clear();
        self.order.resize(self.colour_of.len(), 0);
        for (k, &colour) in self.colour_of.iter().enumerate() {
            let slot = &mut self.counts[colour as usize];
            self.order[*slot] = k as u32;
            *slot += 1;
        }
    }

    /// Runs the whole velocity solve that precedes position integration: warm start, then
    /// `iterations` biased passes.
    #[inline(never)]
    pub fn solve_velocities(
        &mut self,
        bodies: &mut [SolverBody],
        p: &SolverParams,
        iterations: u32,
    ) {
        self.run(bodies, p, Pass::WarmStart);
        for _ in 0..iterations {
            self.run(bodies, p, Pass::Solve);
        }
    }

    /// The passes after position integration: relaxation and restitution.
    #[inline(never)]
    pub fn relax_and_restitute(
        &mut self,
        bodies: &mut [SolverBody],
        p: &SolverParams,
        iterations: u32,
    ) {
        for _ in 0..iterations {
            self.run(bodies, p, Pass::Relax);
        }
        self.run(bodies, p, Pass::Restitution);
    }

    fn run(&mut self, bodies: &mut [SolverBody], p: &SolverParams, pass: Pass) {
        let ptr = BodiesPtr(bodies.as_mut_ptr());
        let n = bodies.len();
        let pts = PointsPtr(self.points.as_mut_ptr());
        let n_points = self.points.len();
        let parallel = rayon::current_num_threads() > 1;
        for colour in 0..self.colour_starts.len().saturating_sub(1) {
            let (start, end) = (self.colour_starts[colour], self.colour_starts[colour + 1]);
            let slice = &self.constraints[start..end];
            // The overflow colour (index COLOURS) may share bodies: always serial.
            if parallel && slice.len() >= PARALLEL_MIN && colour < COLOURS {
                slice.par_chunks(CHUNK).for_each(|chunk| {
                    for c in chunk {
                        solve_constraint(c, ptr, n, pts, n_points, p, pass);
                    }
                });
            } else {
                for c in slice {
                    solve_constraint(c, ptr, n, pts, n_points, p, pass);
                }
            }
        }
    }
}

/// Solves one constraint for one pass, reading and writing the two bodies through `ptr`.
#[inline]
fn solve_constraint(
    c: &Constraint,
    ptr: BodiesPtr,
    n: usize,
    pts: PointsPtr,
    n_points: usize,
    p: &SolverParams,
    pass: Pass,
) {
    let len = c.len as usize;
    if (c.a as usize) >= n || (c.b as usize) >= n || c.first as usize + len > n_points {
        debug_assert!(false, "constraint out of bounds");
        return;
    }
    // SAFETY: the range is in bounds (checked above) and owned by this constraint alone
    // (see `PointsPtr`); the vector outlives the pass.
    let points = unsafe { std::slice::from_raw_parts_mut(pts.0.add(c.first as usize), len) };
    // SAFETY: indices are in bounds (constraints are built from live slots of this body array)
    // and see `BodiesPtr` for why no other thread writes these bodies during this colour.
    let (ba, bb) = unsafe { (&*ptr.0.add(c.a as usize), &*ptr.0.add(c.b as usize)) };
    let (mut va, mut wa, mut vb, mut wb) = (ba.v, ba.w, bb.v, bb.w);
    let (ima, imb) = (ba.inv_mass, bb.inv_mass);
    let n_ = c.normal;
    let [t1, t2] = c.tangents;

    // An impulse `lin` (world vector, N·s) whose angular effects on A and B are `ang_a`, `ang_b`.
    let apply = |lin: Vector,
                 ang_a: Vector,
                 ang_b: Vector,
                 va: &mut Vector,
                 wa: &mut Vector,
                 vb: &mut Vector,
                 wb: &mut Vector| {
        *va -= lin * ima;
        *wa -= ang_a;
        *vb += lin * imb;
        *wb += ang_b;
    };
    // Normal impulse `d` at point `cp`.
    let apply_normal = |cp: &ConstraintPoint,
                        d: Real,
                        va: &mut Vector,
                        wa: &mut Vector,
                        vb: &mut Vector,
                        wb: &mut Vector| {
        apply(
            n_ * d,
            cp.normal.imp_a * d,
            cp.normal.imp_b * d,
            va,
            wa,
            vb,
            wb,
        );
    };

    match pass {
        Pass::WarmStart => {
            for cp in points.iter() {
                let [j1, j2] = cp.jt;
                let [r1, r2] = &cp.tangent;
                apply(
                    n_ * cp.jn + t1 * j1 + t2 * j2,
                    cp.normal.imp_a * cp.jn + r1.imp_a * j1 + r2.imp_a * j2,
                    cp.normal.imp_b * cp.jn + r1.imp_b * j1 + r2.imp_b * j2,
                    &mut va,
                    &mut wa,
                    &mut vb,
                    &mut wb,
                );
            }
        }
        Pass::Solve | Pass::Relax => {
            let use_bias = pass == Pass::Solve;
            // Friction first, normal last (the normal matters most).
            for cp in points.iter_mut() {
                let dvl = vb - va;
                let [r1, r2] = &cp.tangent;
                let max_f = c.friction * cp.jn;
                let old = cp.jt;
                let mut new = [
                    old[0] - r1.mass * r1.velocity(t1.dot(&dvl), &wa, &wb),
                    old[1] - r2.mass * r2.velocity(t2.dot(&dvl), &wa, &wb),
                ];
                let mag2 = new[0] * new[0] + new[1] * new[1];
                if mag2 > max_f * max_f {
                    let s = if mag2 > 0.0 { max_f / mag2.sqrt() } else { 0.0 };
                    new = [new[0] * s, new[1] * s];
                }
                cp.jt = new;
                let (d1, d2) = (new[0] - old[0], new[1] - old[1]);
                apply(
                    t1 * d1 + t2 * d2,
                    r1.imp_a * d1 + r2.imp_a * d2,
                    r1.imp_b * d1 + r2.imp_b * d2,
                    &mut va,
                    &mut wa,
                    &mut vb,
                    &mut wb,
                );
            }
            for cp in points.iter_mut() {
                let vn = cp.normal.velocity(n_.dot(&(vb - va)), &wa, &wb);
                let s = cp.sep;
                let (bias, mass_scale, impulse_scale) = if s > 0.0 {
                    (s * p.inv_h, 1.0, 0.0)
                } else if use_bias {
                    (
                        (p.soft.bias_rate * (s + p.allowed_penetration).min(0.0)).max(-p.max_push),
                        p.soft.mass_scale,
                        p.soft.impulse_scale,
                    )
                } else {
                    (0.0, 1.0, 0.0)
                };
                let imp = -cp.normal.mass * mass_scale * (vn + bias) - impulse_scale * cp.jn;
                let new = (cp.jn + imp).max(0.0);
                let d = new - cp.jn;
                cp.jn = new;
                cp.max_jn = cp.max_jn.max(d);
                apply_normal(cp, d, &mut va, &mut wa, &mut vb, &mut wb);
            }
        }
        Pass::Restitution => {
            if c.restitution == 0.0 {
                return;
            }
            for cp in points.iter_mut() {
                if cp.vn0 > -p.restitution_threshold || cp.max_jn == 0.0 {
                    continue;
                }
                let vn = cp.normal.velocity(n_.dot(&(vb - va)), &wa, &wb);
                let imp = -cp.normal.mass * (vn + c.restitution * cp.vn0);
                let new = (cp.jn + imp).max(0.0);
                let d = new - cp.jn;
                cp.jn = new;
                cp.max_jn = cp.max_jn.max(d);
                apply_normal(cp, d, &mut va, &mut wa, &mut vb, &mut wb);
            }
        }
    }
    // SAFETY: as above; only dynamic bodies (write_* true) are written.
    unsafe {
        if c.write_a {
            let a = &mut *ptr.0.add(c.a as usize);
            a.v = va;
            a.w = wa;
        }
        if c.write_b {
            let b = &mut *ptr.0.add(c.b as usize);
            b.v = vb;
            b.w = wb;
        }
    }
}

/// Two unit tangents completing `n` to a right-handed orthonormal basis `(t1, t2, n)`;
/// deterministic in `n` (Duff et al., "Building an Orthonormal Basis, Revisited", 2017).
pub(crate) fn tangent_basis(n: &Vector) -> [Vector; 2] {
    let sign = if n.z >= 0.0 { 1.0 } else { -1.0 };
    let a = -1.0 / (sign + n.z);
    let b = n.x * n.y * a;
    [
        Vector::new(1.0 + sign * n.x * n.x * a, sign * b, -sign * n.x),
        Vector::new(b, sign + n.y * n.y * a, -n.y),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tangent_basis_is_orthonormal() {
        let dirs = [
            Vector::x(),
            Vector::y(),
            Vector::z(),
            -Vector::z(),
            Vector::new(1.0, 2.0, -3.0).normalize(),
            Vector::new(-0.3, 0.1, -0.9).normalize(),
        ];
        for n in dirs {
            let [t1, t2] = tangent_basis(&n);
            assert!((t1.norm() - 1.0).abs() < 1e-5);
            assert!((t2.norm() - 1.0).abs() < 1e-5);
            assert!(t1.dot(&n).abs() < 1e-5 && t2.dot(&n).abs() < 1e-5 && t1.dot(&t2).abs() < 1e-5);
        }
    }

    #[test]
    fn softness_limits() {
        let s = Softness::new(30.0, 10.0, 1.0 / 60.0);
        assert!(s.mass_scale > 0.0 && s.mass_scale < 1.0);
        assert!(s.impulse_scale > 0.0 && s.impulse_scale < 1.0);
        assert!((s.mass_scale + s.impulse_scale - 1.0).abs() < 1e-6);
        let rigid = Softness::new(0.0, 1.0, 0.1);
        assert_eq!(rigid.mass_scale, 1.0);
    }
}

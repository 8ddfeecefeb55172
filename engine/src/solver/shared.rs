//! Raw-pointer wrappers through which the parallel passes share the bodies, the bundle points
//! and the results, each with the one argument of why no two tasks touch the same element.

use super::body::{velocity_lanes, SolverBody};
use super::bundle::{Constraints, PointState, PointW};
use super::lanes::{transpose, F4, LANES, V4};

/// The bodies, shared by the bundles of one colour. The colouring guarantees that within a
/// colour no two constraints write the same body, and bodies that are only read (static,
/// kinematic, frozen, the zero body) are never written by anyone. Also shared by the blocks of
/// a conversion of the angular velocities, each owning a disjoint range of bodies.
#[derive(Clone, Copy)]
pub(super) struct BodiesPtr(pub(super) *mut SolverBody);

// SAFETY: the pointer is only dereferenced during a colour pass, on indices below
// `Solver::body_bound`, checked once per pass against the array's length; writes go to dynamic
// bodies, each owned by at most one constraint of the colour (graph colouring; the overflow
// colour has one constraint per bundle and runs on one thread), and no constraint reads a
// dynamic body owned by another constraint of the same colour (a dynamic body appearing in two
// constraints would make them share it, which the colouring forbids). During a conversion
// stage, each block reads and writes only its own range of bodies, below the array's length.
// Colours and conversions run one after the other, each finished and visible before the next
// starts (`stages`).
unsafe impl Send for BodiesPtr {}
// SAFETY: see `Send` above.
unsafe impl Sync for BodiesPtr {}

/// The bundle points (rows and states, two arrays of the same length), shared by the bundles
/// of one pass: each bundle owns the disjoint range `first..first + len` of both (prefix sums
/// of the lengths), so no two bundles touch the same point.
#[derive(Clone, Copy)]
pub(super) struct PointsPtr {
    pub(super) rows: *mut PointW,
    pub(super) states: *mut PointState,
    /// Length of both arrays.
    pub(super) len: usize,
}

// SAFETY: only dereferenced within the disjoint range each bundle owns (see above, checked
// against the vector's length), and only while the `points` vector it points into is alive
// and not resized.
unsafe impl Send for PointsPtr {}
// SAFETY: see `Send` above.
unsafe impl Sync for PointsPtr {}

impl PointsPtr {
    /// Both point arrays of `cons`.
    pub(super) fn of(cons: &mut Constraints) -> Self {
        debug_assert_eq!(cons.points.len(), cons.states.len());
        Self {
            rows: cons.points.as_mut_ptr(),
            states: cons.states.as_mut_ptr(),
            len: cons.points.len().min(cons.states.len()),
        }
    }

    /// The rows and states of points `first..first + len`; `None` when out of bounds.
    ///
    /// # Safety
    /// No one else may access these points while the slices live (each bundle owns its
    /// range, and the arrays are neither dropped nor resized during a build or a pass).
    #[inline(always)]
    pub(super) unsafe fn range<'a>(
        self,
        first: usize,
        len: usize,
    ) -> Option<(&'a mut [PointW], &'a mut [PointState])> {
        if first + len > self.len {
            return None;
        }
        // SAFETY: in bounds (checked above) of both arrays, which are `self.len` long; the
        // caller guarantees exclusive access.
        unsafe {
            Some((
                std::slice::from_raw_parts_mut(self.rows.add(first), len),
                std::slice::from_raw_parts_mut(self.states.add(first), len),
            ))
        }
    }
}

impl BodiesPtr {
    /// The address of body `i` (a method, so that closures capture the whole `Sync` wrapper).
    #[inline(always)]
    pub(super) fn at(self, i: usize) -> *mut SolverBody {
        self.0.wrapping_add(i)
    }

    /// The linear and (scaled) angular velocities of the bodies of `slots`, one per lane (one
    /// transpose each, [`velocity_lanes`]).
    ///
    /// # Safety
    /// Every slot is below the array's length, and no one writes these bodies meanwhile.
    #[inline(always)]
    pub(super) unsafe fn lanes(self, slots: &[u32; LANES]) -> (V4, V4) {
        // SAFETY: the caller's guarantee.
        velocity_lanes(&std::array::from_fn(|l| unsafe {
            *self.at(slots[l] as usize)
        }))
    }

    /// Writes linear velocities `v` and (scaled) angular velocities `w`, one body per lane,
    /// into the bodies of `slots` in the lanes where `write` is true.
    ///
    /// # Safety
    /// Every slot written is below the array's length, and its body is the caller's alone
    /// during the pass (a dynamic body of its constraint: see the type's docs).
    #[inline(always)]
    pub(super) unsafe fn write_lanes(
        self,
        slots: &[u32; LANES],
        write: &[bool; LANES],
        v: &V4,
        w: &V4,
    ) {
        // Back to one body per row (the fourth column is the zero pad).
        let rows = |v: &V4| transpose([v.x, v.y, v.z, F4::ZERO]).map(F4::to_array);
        let (v, w) = (rows(v), rows(w));
        for l in 0..LANES {
            if write[l] {
                // SAFETY: the caller's guarantee.
                unsafe {
                    *self.at(slots[l] as usize) = SolverBody {
                        lin: v[l],
                        ang: w[l],
                    }
                };
            }
        }
    }
}

/// A slice shared by tasks that each touch elements no other task touches: the joint
/// constraints or socket bundles of a joint stage (each block owns a disjoint range of one
/// colour), and the items [`Solver::store_results`] hands out (each contact pair sits in one
/// lane of one bundle). Every access is checked against the slice's length.
pub(super) struct SlicePtr<T> {
    ptr: *mut T,
    len: usize,
}

impl<T> Clone for SlicePtr<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for SlicePtr<T> {}

// SAFETY: only dereferenced within the slice's length (checked at each access), on elements
// each task holds alone (the callers' contracts), while the slice is borrowed by the call that
// shares it; `T: Send`, so handing an element to another thread is allowed.
unsafe impl<T: Send> Send for SlicePtr<T> {}
// SAFETY: see `Send` above.
unsafe impl<T: Send> Sync for SlicePtr<T> {}

impl<T> SlicePtr<T> {
    /// The elements of `items`.
    pub(super) fn of(items: &mut [T]) -> Self {
        Self {
            ptr: items.as_mut_ptr(),
            len: items.len(),
        }
    }

    /// Elements `from..to`; `None` when out of bounds.
    ///
    /// # Safety
    /// No one else may access these elements while the slice lives, and the shared slice
    /// outlives it (neither dropped nor resized meanwhile).
    pub(super) unsafe fn range<'a>(self, from: usize, to: usize) -> Option<&'a mut [T]> {
        if from > to || to > self.len {
            return None;
        }
        // SAFETY: in bounds (checked above); the caller guarantees exclusive access.
        unsafe {
            Some(std::slice::from_raw_parts_mut(
                self.ptr.add(from),
                to - from,
            ))
        }
    }

    /// Element `i`; `None` when out of bounds.
    ///
    /// # Safety
    /// As for [`Self::range`].
    pub(super) unsafe fn at<'a>(self, i: usize) -> Option<&'a mut T> {
        // SAFETY: the caller's guarantee.
        unsafe { self.range(i, i.saturating_add(1)) }.and_then(|s| s.first_mut())
    }
}

//! A bounding volume hierarchy over triangles: a binary tree of axis-aligned boxes stored as a
//! flat array, built top-down by binned surface-area heuristic (Wald, "On fast construction of
//! SAH-based bounding volume hierarchies", IEEE RT 2007; Ericson, RTCD §6.2 for the top-down
//! scheme).
//!
//! Build: at each node the triangles' centroids are dropped into [`BINS`] bins along the
//! longest axis of their bounds; the split between bins of least `area_left · count_left +
//! area_right · count_right` is kept unless a leaf is cheaper. Each level is linear in the
//! triangles below it, so the whole build is O(n log n). Below depth [`SAH_DEPTH`] nodes are
//! split at the median centroid instead, which halves the count per level and bounds the
//! depth by `SAH_DEPTH + log₂ n`, so the queries' fixed stack ([`STACK`]) cannot overflow.
//!
//! Memory: a node is 32 bytes (its box, and either its first triangle slot and count or its
//! first child's index; the two children of a node sit side by side), plus one `u32` per
//! triangle for the leaf order. With leaves of at most [`MAX_LEAF`] triangles there are fewer
//! than `2n` nodes, so at most 68 bytes per triangle.

use crate::bounding::Aabb;
use crate::math::{Point, Real, Vector};

/// Number of bins of the SAH sweep.
const BINS: usize = 16;
/// A node of at most this many triangles is a leaf when splitting does not pay.
const MAX_LEAF: usize = 4;
/// Below this depth, splits are at the median centroid (bounds the depth).
const SAH_DEPTH: usize = 40;
/// Entries of the traversal stack: the depth bound `SAH_DEPTH + 32` plus one.
const STACK: usize = SAH_DEPTH + 34;

/// One node: a leaf (`count > 0`, triangles `order[first .. first + count]`) or an inner node
/// (`count == 0`, children `first` and `first + 1`). Box in the mesh's local frame.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
struct Node {
    mins: [Real; 3],
    maxs: [Real; 3],
    first: u32,
    count: u32,
}

impl Node {
    #[inline]
    fn overlaps(&self, q: &Aabb) -> bool {
        self.mins[0] <= q.maxs.x
            && q.mins.x <= self.maxs[0]
            && self.mins[1] <= q.maxs.y
            && q.mins.y <= self.maxs[1]
            && self.mins[2] <= q.maxs.z
            && q.mins.z <= self.maxs[2]
    }

    /// Entry parameter of the ray `o + t d` (`inv` = 1/d per axis, `None` on a zero
    /// component) into the box, if it enters within `[0, max_t]`.
    #[inline]
    fn ray_entry(
        &self,
        o: &Point,
        d: &Vector,
        inv: &[Option<Real>; 3],
        max_t: Real,
    ) -> Option<Real> {
        let (mut t0, mut t1): (Real, Real) = (0.0, max_t);
        for i in 0..3 {
            match inv[i] {
                None => {
                    if o[i] < self.mins[i] || o[i] > self.maxs[i] {
                        return None;
                    }
                }
                Some(inv) => {
                    let a = (self.mins[i] - o[i]) * inv;
                    let b = (self.maxs[i] - o[i]) * inv;
                    let (a, b) = if d[i] < 0.0 { (b, a) } else { (a, b) };
                    t0 = t0.max(a);
                    t1 = t1.min(b);
                    if t0 > t1 {
                        return None;
                    }
                }
            }
        }
        Some(t0)
    }
}

/// The hierarchy: nodes (root first) and the triangle ids in leaf order.
#[derive(Clone, Debug)]
pub(crate) struct Bvh {
    nodes: Vec<Node>,
    order: Vec<u32>,
}

/// What the build needs per triangle.
struct Prim {
    aabb: Aabb,
    centroid: [Real; 3],
}

impl Bvh {
    /// Builds over the boxes `aabbs` (at least one, all finite), each grown by `pad` metres
    /// (so that rounding in the queries' box tests cannot lose a triangle on a box face).
    pub(crate) fn build(aabbs: &[Aabb], pad: Real) -> Bvh {
        let prims: Vec<Prim> = aabbs
            .iter()
            .map(|b| {
                let b = b.loosened(pad);
                let c = b.center();
                Prim {
                    aabb: b,
                    centroid: [c.x, c.y, c.z],
                }
            })
            .collect();
        let n = prims.len();
        let mut order: Vec<u32> = (0..n as u32).collect();
        let mut nodes = Vec::with_capacity(n.max(1));
        nodes.push(Node {
            mins: [0.0; 3],
            maxs: [0.0; 3],
            first: 0,
            count: 0,
        });
        // (node, start, end, depth)
        let mut todo: Vec<(usize, usize, usize, usize)> = vec![(0, 0, n, 0)];
        while let Some((ni, start, end, depth)) = todo.pop() {
            let slots = &mut order[start..end];
            let (bounds, cmin, cmax) = bounds_of(&prims, slots);
            let node = &mut nodes[ni];
            node.mins = [bounds.mins.x, bounds.mins.y, bounds.mins.z];
            node.maxs = [bounds.maxs.x, bounds.maxs.y, bounds.maxs.z];
            let count = end - start;
            let extent = [cmax[0] - cmin[0], cmax[1] - cmin[1], cmax[2] - cmin[2]];
            let axis = if extent[0] >= extent[1] && extent[0] >= extent[2] {
                0
            } else if extent[1] >= extent[2] {
                1
            } else {
                2
            };
            // All centroids at one point: no split separates them.
            let leaf = count <= 1 || extent[axis] <= 0.0;
            let mid = if leaf {
                None
            } else if depth < SAH_DEPTH {
                sah_split(&prims, slots, axis, cmin[axis], extent[axis], &bounds)
                    .or_else(|| (count > MAX_LEAF).then(|| median_split(&prims, slots, axis)))
            } else {
                Some(median_split(&prims, slots, axis))
            };
            match mid {
                Some(mid) if mid > 0 && mid < count => {
                    let left = nodes.len();
                    let blank = nodes[ni];
                    nodes[ni].first = left as u32;
                    nodes[ni].count = 0;
                    nodes.push(blank);
                    nodes.push(blank);
                    todo.push((left + 1, start + mid, end, depth + 1));
                    todo.push((left, start, start + mid, depth + 1));
                }
                _ => {
                    let node = &mut nodes[ni];
                    node.first = start as u32;
                    node.count = count as u32;
                }
            }
        }
        nodes.shrink_to_fit();
        Bvh { nodes, order }
    }

    /// The root's box (local frame): holds every triangle (grown by the build's pad).
    pub(crate) fn root_aabb(&self) -> Aabb {
        let r = &self.nodes[0];
        Aabb::new_unchecked(Point::from(r.mins), Point::from(r.maxs))
    }

    /// Heap bytes of the hierarchy (nodes and leaf order).
    pub(crate) fn heap_bytes(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<Node>()
            + self.order.capacity() * std::mem::size_of::<u32>()
    }

    /// Number of nodes.
    #[cfg(test)]
    pub(crate) fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Calls `f` with every triangle whose (padded) box overlaps `q` (local frame), until `f`
    /// returns false.
    pub(crate) fn visit_aabb(&self, q: &Aabb, mut f: impl FnMut(u32) -> bool) {
        let mut stack = [0u32; STACK];
        let mut sp = 1;
        while sp > 0 {
            sp -= 1;
            let node = &self.nodes[stack[sp] as usize];
            if !node.overlaps(q) {
                continue;
            }
            if node.count > 0 {
                let s = node.first as usize;
                for &t in &self.order[s..s + node.count as usize] {
                    if !f(t) {
                        return;
                    }
                }
            } else {
                stack[sp] = node.first + 1;
                stack[sp + 1] = node.first;
                sp += 2;
            }
        }
    }

    /// Visits the leaves the ray `o + t d` (local frame, `t ∈ [0, max_t]`) enters, nearest
    /// entry first, calling `f` with each triangle; `f` returns the ray's new bound (the `t`
    /// of the best hit so far, or the bound unchanged), and nodes entered beyond it are
    /// skipped.
    pub(crate) fn visit_ray(
        &self,
        o: &Point,
        d: &Vector,
        max_t: Real,
        mut f: impl FnMut(u32, Real) -> Real,
    ) {
        let inv = [0, 1, 2].map(|i| (d[i].abs() >= Real::MIN_POSITIVE).then(|| 1.0 / d[i]));
        let mut bound = max_t;
        let mut stack = [(0u32, 0.0 as Real); STACK];
        let mut sp = 0;
        if let Some(t) = self.nodes[0].ray_entry(o, d, &inv, bound) {
            stack[0] = (0, t);
            sp = 1;
        }
        while sp > 0 {
            sp -= 1;
            let (ni, entry) = stack[sp];
            if entry > bound {
                continue;
            }
            let node = &self.nodes[ni as usize];
            if node.count > 0 {
                let s = node.first as usize;
                for &t in &self.order[s..s + node.count as usize] {
                    bound = f(t, bound);
                }
            } else {
                let (l, r) = (node.first, node.first + 1);
                let tl = self.nodes[l as usize].ray_entry(o, d, &inv, bound);
                let tr = self.nodes[r as usize].ray_entry(o, d, &inv, bound);
                // The nearer child is pushed last (popped first).
                let mut push = |n: u32, t: Option<Real>| {
                    if let Some(t) = t {
                        stack[sp] = (n, t);
                        sp += 1;
                    }
                };
                match (tl, tr) {
                    (Some(a), Some(b)) if a <= b => {
                        push(r, tr);
                        push(l, tl);
                    }
                    _ => {
                        push(l, tl);
                        push(r, tr);
                    }
                }
            }
        }
    }
}

/// Bounds of the boxes and of the centroids of the triangles in `slots`.
fn bounds_of(prims: &[Prim], slots: &[u32]) -> (Aabb, [Real; 3], [Real; 3]) {
    let first = &prims[slots[0] as usize];
    let mut b = first.aabb;
    let (mut cmin, mut cmax) = (first.centroid, first.centroid);
    for &s in &slots[1..] {
        let p = &prims[s as usize];
        b = b.merged(&p.aabb);
        for k in 0..3 {
            cmin[k] = cmin[k].min(p.centroid[k]);
            cmax[k] = cmax[k].max(p.centroid[k]);
        }
    }
    (b, cmin, cmax)
}

/// The bin of a centroid coordinate `c` (bins span `[lo, lo + extent]`).
#[inline]
fn bin_of(c: Real, lo: Real, scale: Real) -> usize {
    (((c - lo) * scale) as usize).min(BINS - 1)
}

/// Binned SAH split of `slots` along `axis`: partitions them and returns the size of the
/// left part, or None when no split beats a leaf (only allowed for small nodes) or the best
/// split leaves a side empty.
fn sah_split(
    prims: &[Prim],
    slots: &mut [u32],
    axis: usize,
    lo: Real,
    extent: Real,
    bounds: &Aabb,
) -> Option<usize> {
    let scale = BINS as Real / extent;
    let mut counts = [0usize; BINS];
    let mut boxes: [Option<Aabb>; BINS] = [None; BINS];
    for &s in slots.iter() {
        let p = &prims[s as usize];
        let k = bin_of(p.centroid[axis], lo, scale);
        counts[k] += 1;
        boxes[k] = Some(boxes[k].map_or(p.aabb, |b| b.merged(&p.aabb)));
    }
    // Right-to-left suffix areas and counts.
    let mut right_area = [0.0 as Real; BINS];
    let mut right_count = [0usize; BINS];
    let (mut acc, mut n): (Option<Aabb>, usize) = (None, 0);
    for k in (1..BINS).rev() {
        if let Some(b) = boxes[k] {
            acc = Some(acc.map_or(b, |a| a.merged(&b)));
        }
        n += counts[k];
        right_area[k] = acc.map_or(0.0, |a| a.surface_area());
        right_count[k] = n;
    }
    let (mut acc, mut n): (Option<Aabb>, usize) = (None, 0);
    let mut best: Option<(Real, usize)> = None;
    for k in 0..BINS - 1 {
        if let Some(b) = boxes[k] {
            acc = Some(acc.map_or(b, |a| a.merged(&b)));
        }
        n += counts[k];
        if n == 0 || right_count[k + 1] == 0 {
            continue;
        }
        let cost = acc.map_or(0.0, |a| a.surface_area()) * n as Real
            + right_area[k + 1] * right_count[k + 1] as Real;
        if best.is_none_or(|(c, _)| cost < c) {
            best = Some((cost, k));
        }
    }
    let (cost, split) = best?;
    // A leaf costs its count times its area; one traversal step costs about one triangle.
    let leaf_cost = bounds.surface_area() * slots.len() as Real;
    if slots.len() <= MAX_LEAF && cost + bounds.surface_area() >= leaf_cost {
        return None;
    }
    let mut left = 0;
    for i in 0..slots.len() {
        if bin_of(prims[slots[i] as usize].centroid[axis], lo, scale) <= split {
            slots.swap(i, left);
            left += 1;
        }
    }
    (left > 0 && left < slots.len()).then_some(left)
}

/// Splits `slots` at the median centroid along `axis`; returns the size of the left half.
fn median_split(prims: &[Prim], slots: &mut [u32], axis: usize) -> usize {
    let mid = slots.len() / 2;
    slots.select_nth_unstable_by(mid, |&a, &b| {
        prims[a as usize].centroid[axis].total_cmp(&prims[b as usize].centroid[axis])
    });
    mid
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn boxes(n: usize, seed: u64) -> Vec<Aabb> {
        let mut r = ChaCha8Rng::seed_from_u64(seed);
        (0..n)
            .map(|_| {
                let c = Point::new(
                    r.gen_range(-10.0..10.0),
                    r.gen_range(-10.0..10.0),
                    r.gen_range(-10.0..10.0),
                );
                let h = Vector::new(r.gen_range(0.0..1.0), r.gen_range(0.0..1.0), 0.0);
                Aabb::new_unchecked(c - h, c + h)
            })
            .collect()
    }

    /// The box query visits every box a scan over all of them finds to overlap (and each at
    /// most once), and every triangle sits in exactly one leaf slot.
    #[test]
    fn box_query_matches_scan() {
        let b = boxes(3000, 1);
        let bvh = Bvh::build(&b, 0.0);
        let mut seen = bvh.order.clone();
        seen.sort_unstable();
        assert_eq!(seen, (0..3000).collect::<Vec<u32>>());
        let mut r = ChaCha8Rng::seed_from_u64(2);
        for _ in 0..200 {
            let c = Point::new(
                r.gen_range(-12.0..12.0),
                r.gen_range(-12.0..12.0),
                r.gen_range(-12.0..12.0),
            );
            let q = Aabb::new_unchecked(c, c + Vector::repeat(r.gen_range(0.0..3.0)));
            let mut got = Vec::new();
            bvh.visit_aabb(&q, |t| {
                got.push(t);
                true
            });
            got.sort_unstable();
            let visited = got.len();
            got.dedup();
            assert_eq!(got.len(), visited, "a triangle visited twice");
            // Leaves are visited whole: keep the triangles whose own box overlaps.
            got.retain(|&i| b[i as usize].intersects(&q));
            let want: Vec<u32> = (0..3000u32)
                .filter(|&i| b[i as usize].intersects(&q))
                .collect();
            assert_eq!(got, want);
        }
    }

    /// Identical boxes (one centroid) end in one leaf, with no split attempted.
    #[test]
    fn coincident_centroids_make_one_leaf() {
        let b = vec![Aabb::new_unchecked(Point::origin(), Point::new(1.0, 1.0, 1.0)); 50];
        let bvh = Bvh::build(&b, 0.0);
        assert_eq!(bvh.node_count(), 1);
        let mut n = 0;
        bvh.visit_aabb(&b[0], |_| {
            n += 1;
            true
        });
        assert_eq!(n, 50);
    }
}

//! A bounding volume hierarchy over triangles: a binary tree of axis-aligned boxes stored as a
//! flat array, built top-down by binned surface-area heuristic (Wald, "On fast construction of
//! SAH-based bounding volume hierarchies", IEEE RT 2007; Ericson, RTCD §6.2 for the top-down
//! scheme).
//!
//! Build: at each node the triangles' centroids are dropped into [`BINS`] bins along the
//! longest axis of their bounds; the split between bins of least `area_left · count_left +
//! area_right · count_right` is kept, and nodes of at most [`MAX_LEAF`] triangles are leaves.
//! The sweep's bin bounds give the children's bounds, so each node's triangles are read twice
//! (binning, partition), in memory order: the build moves the triangles' records, not
//! indices into them. Each level is linear in the triangles below it, so the whole build is
//! O(n log n). Deeper than [`SAH_DEPTH`] levels, nodes are split at the median centroid
//! instead, which halves the count per level and bounds the
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
/// A node of at most this many triangles is a leaf.
const MAX_LEAF: usize = 4;
/// Deeper than this, splits are at the median centroid (bounds the depth).
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

/// What the build needs per triangle. The build reorders these records themselves (not an
/// index array into them), so every pass over a node reads memory in order.
#[derive(Clone, Copy)]
struct Prim {
    aabb: Aabb,
    centroid: [Real; 3],
    id: u32,
}

impl Bvh {
    /// Builds over the boxes `aabbs` (at least one, all finite), each grown by `pad` metres
    /// (so that rounding in the queries' box tests cannot lose a triangle on a box face).
    pub(crate) fn build(aabbs: &[Aabb], pad: Real) -> Bvh {
        let mut prims: Vec<Prim> = aabbs
            .iter()
            .enumerate()
            .map(|(id, b)| {
                let b = b.loosened(pad);
                let c = b.center();
                Prim {
                    aabb: b,
                    centroid: [c.x, c.y, c.z],
                    id: id as u32,
                }
            })
            .collect();
        let n = prims.len();
        let mut nodes = Vec::with_capacity(n.max(1));
        nodes.push(Node {
            mins: [0.0; 3],
            maxs: [0.0; 3],
            first: 0,
            count: 0,
        });
        // (node, start, end, depth, bounds of its triangles)
        let root = Acc::of(&prims);
        let mut todo: Vec<(usize, usize, usize, usize, Acc)> = vec![(0, 0, n, 0, root)];
        while let Some((ni, start, end, depth, acc)) = todo.pop() {
            let slots = &mut prims[start..end];
            let node = &mut nodes[ni];
            node.mins = acc.bmin;
            node.maxs = acc.bmax;
            let count = end - start;
            let extent = [0, 1, 2].map(|k| acc.cmax[k] - acc.cmin[k]);
            let axis = if extent[0] >= extent[1] && extent[0] >= extent[2] {
                0
            } else if extent[1] >= extent[2] {
                1
            } else {
                2
            };
            // Small enough, or all centroids at one point (no split separates them).
            let leaf = count <= MAX_LEAF || extent[axis] <= 0.0;
            let split = if leaf {
                None
            } else if depth < SAH_DEPTH {
                sah_split(slots, axis, acc.cmin[axis], extent[axis])
                    .or_else(|| Some(median_split(slots, axis)))
            } else {
                Some(median_split(slots, axis))
            };
            match split {
                Some((mid, l, r)) if mid > 0 && mid < count => {
                    let left = nodes.len();
                    let blank = nodes[ni];
                    nodes[ni].first = left as u32;
                    nodes[ni].count = 0;
                    nodes.push(blank);
                    nodes.push(blank);
                    todo.push((left + 1, start + mid, end, depth + 1, r));
                    todo.push((left, start, start + mid, depth + 1, l));
                }
                _ => {
                    let node = &mut nodes[ni];
                    node.first = start as u32;
                    node.count = count as u32;
                }
            }
        }
        nodes.shrink_to_fit();
        let order = prims.iter().map(|p| p.id).collect();
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

/// The bounds of a set of triangles: of their boxes and of their centroids.
#[derive(Clone, Copy)]
struct Acc {
    bmin: [Real; 3],
    bmax: [Real; 3],
    cmin: [Real; 3],
    cmax: [Real; 3],
    count: usize,
}

impl Acc {
    const EMPTY: Acc = Acc {
        bmin: [Real::INFINITY; 3],
        bmax: [Real::NEG_INFINITY; 3],
        cmin: [Real::INFINITY; 3],
        cmax: [Real::NEG_INFINITY; 3],
        count: 0,
    };

    #[inline]
    fn add(&mut self, p: &Prim) {
        for k in 0..3 {
            self.bmin[k] = self.bmin[k].min(p.aabb.mins[k]);
            self.bmax[k] = self.bmax[k].max(p.aabb.maxs[k]);
            self.cmin[k] = self.cmin[k].min(p.centroid[k]);
            self.cmax[k] = self.cmax[k].max(p.centroid[k]);
        }
        self.count += 1;
    }

    #[inline]
    fn merge(&mut self, o: &Acc) {
        for k in 0..3 {
            self.bmin[k] = self.bmin[k].min(o.bmin[k]);
            self.bmax[k] = self.bmax[k].max(o.bmax[k]);
            self.cmin[k] = self.cmin[k].min(o.cmin[k]);
            self.cmax[k] = self.cmax[k].max(o.cmax[k]);
        }
        self.count += o.count;
    }

    fn of(slots: &[Prim]) -> Acc {
        let mut a = Acc::EMPTY;
        for p in slots {
            a.add(p);
        }
        a
    }

    /// Surface area of the box (0 when empty).
    #[inline]
    fn area(&self) -> Real {
        if self.count == 0 {
            return 0.0;
        }
        let d = [0, 1, 2].map(|k| self.bmax[k] - self.bmin[k]);
        2.0 * (d[0] * d[1] + d[1] * d[2] + d[2] * d[0])
    }
}

/// The bin of a centroid coordinate `c` (bins span `[lo, lo + extent]`).
#[inline]
fn bin_of(c: Real, lo: Real, scale: Real) -> usize {
    (((c - lo) * scale) as usize).min(BINS - 1)
}

/// Binned SAH split of `slots` along `axis`: partitions them and returns the size of the
/// left part and the bounds of both parts, or None when the best split leaves a side empty.
fn sah_split(slots: &mut [Prim], axis: usize, lo: Real, extent: Real) -> Option<(usize, Acc, Acc)> {
    let scale = BINS as Real / extent;
    let mut bins = [Acc::EMPTY; BINS];
    for p in slots.iter() {
        bins[bin_of(p.centroid[axis], lo, scale)].add(p);
    }
    // Right-to-left suffix bounds.
    let mut right = [Acc::EMPTY; BINS];
    let mut acc = Acc::EMPTY;
    for k in (1..BINS).rev() {
        acc.merge(&bins[k]);
        right[k] = acc;
    }
    let mut left = Acc::EMPTY;
    let mut best: Option<(Real, usize, Acc)> = None;
    for k in 0..BINS - 1 {
        left.merge(&bins[k]);
        let r = &right[k + 1];
        if left.count == 0 || r.count == 0 {
            continue;
        }
        let cost = left.area() * left.count as Real + r.area() * r.count as Real;
        if best.is_none_or(|(c, _, _)| cost < c) {
            best = Some((cost, k, left));
        }
    }
    let (_, split, l) = best?;
    let mut n = 0;
    for i in 0..slots.len() {
        if bin_of(slots[i].centroid[axis], lo, scale) <= split {
            slots.swap(i, n);
            n += 1;
        }
    }
    (n > 0 && n < slots.len()).then_some((n, l, right[split + 1]))
}

/// Splits `slots` at the median centroid along `axis`; returns the size of the left half and
/// the bounds of both halves.
fn median_split(slots: &mut [Prim], axis: usize) -> (usize, Acc, Acc) {
    let mid = slots.len() / 2;
    slots.select_nth_unstable_by(mid, |a, b| a.centroid[axis].total_cmp(&b.centroid[axis]));
    (mid, Acc::of(&slots[..mid]), Acc::of(&slots[mid..]))
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

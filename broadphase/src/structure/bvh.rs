//! Bounding-volume hierarchy: built top-down by binned SAH, refitted when proxies move, rebuilt
//! when refitting has degraded it.
//!
//! * Build: binned surface-area heuristic (Wald 2007, "On fast construction of SAH-based
//!   bounding volume hierarchies"): the centroids of a node's proxies are dropped into
//!   [`BINS`] bins, and the split between bins minimising
//!   `area(left)·n_left + area(right)·n_right` along the longest centroid axis is kept (a leaf when that is no cheaper than
//!   the leaf itself and the leaf is small). Nodes are stored in one array with the two children
//!   of a node side by side, always after their parent, so a refit is one reverse pass.
//! * Motion: when boxes move the tree is refitted bottom-up (O(n)); the summed area of the
//!   internal nodes (the SAH cost) is compared with its value just after the build, and the
//!   tree is rebuilt when it has grown by [`REBUILD_RATIO`] (Bullet's btDbvt and Box2D's
//!   dynamic tree keep quality by incremental rotations; when every proxy moves every frame a
//!   rebuild is both simpler and cheaper per proxy, so this tree is rebuild/refit based).
//! * Pairs: the tree is traversed against itself (self(n) = self(l) ∪ self(r) ∪ cross(l, r);
//!   cross descends the larger node first), with explicit stacks. The top of the traversal is
//!   split into tasks run in parallel with rayon; keys are sorted canonically.
//! * The same tree answers AABB, point and ray queries.

use crate::budget::Trim;
use crate::handle::Pair;
use crate::math::{Point, Real, Vector};
use crate::proxies::{pair_key, sort_ray_hits, PairKeys, ProxyStore, Ray};
use crate::{impl_proxy_bookkeeping, Aabb, BroadPhase, ProxyHandle};
use rayon::prelude::*;
use std::sync::atomic::AtomicUsize;

/// Number of SAH bins per axis.
pub const BINS: usize = 16;
/// Leaves hold at most this many proxies (unless all their centroids coincide).
pub const MAX_LEAF: usize = 4;
/// Rebuild when the refitted tree's SAH cost exceeds the fresh one's by this factor.
pub const REBUILD_RATIO: Real = 2.0;

/// A tree node. Leaf: `count > 0` proxies at `prims[start..start + count]`. Internal
/// (`count == 0`): children at `nodes[start]` and `nodes[start + 1]`.
#[derive(Clone, Copy, Debug)]
struct Node {
    bounds: Aabb,
    start: u32,
    count: u32,
}

impl Node {
    #[inline]
    fn is_leaf(&self) -> bool {
        self.count > 0
    }
}

/// A unit of pair-finding work.
#[derive(Clone, Copy, Debug)]
enum Task {
    /// Pairs within the subtree.
    Own(u32),
    /// Pairs between two disjoint subtrees.
    Cross(u32, u32),
}

/// Binned-SAH bounding-volume hierarchy broad phase. See the module documentation.
#[derive(Clone, Debug, Default)]
pub struct Bvh {
    store: ProxyStore,
    nodes: Vec<Node>,
    /// Slots in leaf order, and their boxes (copied for locality).
    prims: Vec<u32>,
    prim_boxes: Vec<Aabb>,
    /// Boxes moved since the last refit.
    dirty: bool,
    /// Proxies inserted or removed since the last build.
    rebuild_needed: bool,
    built_cost: Real,
    rebuilds: usize,
    found: PairKeys,
}

fn empty_box() -> Aabb {
    Aabb::new_unchecked(
        Point::from(Vector::repeat(Real::MAX)),
        Point::from(Vector::repeat(-Real::MAX)),
    )
}

/// Half the surface area of a box (the SAH only compares areas); 0 for the empty box.
#[inline]
fn half_area(b: &Aabb) -> Real {
    let d = b.maxs - b.mins;
    if d.x < 0.0 {
        return 0.0;
    }
    d.x * d.y + d.y * d.z + d.z * d.x
}

impl Bvh {
    /// An empty tree.
    pub fn new() -> Self {
        Self {
            rebuild_needed: true,
            ..Self::default()
        }
    }

    /// Number of full rebuilds so far (builds after inserts/removes and quality rebuilds).
    pub fn rebuild_count(&self) -> usize {
        self.rebuilds
    }

    fn on_insert(&mut self, _slot: usize) {
        self.rebuild_needed = true;
        self.dirty = true;
    }
    /// A removal invalidates what an insert does.
    fn on_remove(&mut self, slot: usize) {
        self.on_insert(slot);
    }
    fn on_moved(&mut self) {
        self.dirty = true;
    }

    /// SAH cost of the tree: summed half areas of the internal nodes over the root's.
    fn cost(&self) -> Real {
        let root = self
            .nodes
            .first()
            .map(|n| half_area(&n.bounds))
            .unwrap_or(0.0);
        if root <= 0.0 {
            return 0.0;
        }
        self.nodes
            .iter()
            .filter(|n| !n.is_leaf())
            .map(|n| half_area(&n.bounds))
            .sum::<Real>()
            / root
    }

    /// Builds the tree from scratch over the live proxies.
    fn build(&mut self) {
        self.prims.clear();
        self.prims.extend(self.store.arena.live_indices());
        let store = &self.store;
        self.prims
            .par_iter()
            .map(|&s| store.aabbs[s as usize])
            .collect_into_vec(&mut self.prim_boxes);
        let mut centroids: Vec<[Real; 3]> = self
            .prim_boxes
            .iter()
            .map(|b| {
                let c = b.center();
                [c.x, c.y, c.z]
            })
            .collect();
        self.nodes.clear();
        if self.prims.is_empty() {
            return;
        }
        self.nodes.push(Node {
            bounds: empty_box(),
            start: 0,
            count: self.prims.len() as u32,
        });
        let mut stack = vec![0usize];
        while let Some(ni) = stack.pop() {
            let Node { start, count, .. } = self.nodes[ni];
            let (s, e) = (start as usize, (start + count) as usize);
            let bounds = self.prim_boxes[s..e]
                .iter()
                .fold(empty_box(), |a, b| a.merged(b));
            self.nodes[ni].bounds = bounds;
            if let Some(mid) = self.split(s, e, &bounds, &mut centroids) {
                let left = self.nodes.len() as u32;
                self.nodes[ni] = Node {
                    bounds,
                    start: left,
                    count: 0,
                };
                self.nodes.push(Node {
                    bounds: empty_box(),
                    start: s as u32,
                    count: (mid - s) as u32,
                });
                self.nodes.push(Node {
                    bounds: empty_box(),
                    start: mid as u32,
                    count: (e - mid) as u32,
                });
                stack.push(left as usize + 1);
                stack.push(left as usize);
            }
        }
        self.built_cost = self.cost();
        self.rebuilds += 1;
        self.rebuild_needed = false;
        self.dirty = false;
    }

    /// Chooses and applies the split of `prims[s..e]`: the binned-SAH split, or the median of
    /// the longest centroid axis when binning cannot separate them. None: make a leaf.
    fn split(&mut self, s: usize, e: usize, bounds: &Aabb, cen: &mut [[Real; 3]]) -> Option<usize> {
        let n = e - s;
        if n <= 1 {
            return None;
        }
        let (mut cmin, mut cmax) = ([Real::MAX; 3], [-Real::MAX; 3]);
        for c in &cen[s..e] {
            for d in 0..3 {
                cmin[d] = cmin[d].min(c[d]);
                cmax[d] = cmax[d].max(c[d]);
            }
        }
        let mut best: Option<(Real, usize, usize)> = None; // (cost, axis, bins on the left)
                                                           // Bin along the longest centroid axis only (3× cheaper than all three, and nearly as
                                                           // good on the scenes measured).
        let longest = (0..3).fold(0, |a, d| {
            if cmax[d] - cmin[d] > cmax[a] - cmin[a] {
                d
            } else {
                a
            }
        });
        for d in [longest] {
            let ext = cmax[d] - cmin[d];
            if ext.is_nan() || ext <= 0.0 {
                continue;
            }
            let scale = BINS as Real / ext;
            let bin = |c: Real| (((c - cmin[d]) * scale) as usize).min(BINS - 1);
            let mut bb = [empty_box(); BINS];
            let mut bn = [0usize; BINS];
            for (c, b) in cen[s..e].iter().zip(&self.prim_boxes[s..e]) {
                let k = bin(c[d]);
                bn[k] += 1;
                bb[k] = bb[k].merged(b);
            }
            let mut right_area = [0.0; BINS];
            let mut acc = empty_box();
            for k in (1..BINS).rev() {
                acc = acc.merged(&bb[k]);
                right_area[k] = half_area(&acc);
            }
            let (mut acc, mut nl) = (empty_box(), 0);
            for k in 1..BINS {
                acc = acc.merged(&bb[k - 1]);
                nl += bn[k - 1];
                if nl == 0 || nl == n {
                    continue;
                }
                let cost = half_area(&acc) * nl as Real + right_area[k] * (n - nl) as Real;
                match best {
                    Some((c, _, _)) if c <= cost => {}
                    _ => best = Some((cost, d, k)),
                }
            }
        }
        let leaf_cost = half_area(bounds) * n as Real;
        match best {
            Some((cost, _, _)) if n <= MAX_LEAF && cost >= leaf_cost => None,
            Some((_, d, k)) => {
                let scale = BINS as Real / (cmax[d] - cmin[d]);
                let lo = cmin[d];
                let goes_left =
                    |c: &[Real; 3]| ((((c[d] - lo) * scale) as usize).min(BINS - 1)) < k;
                Some(self.partition(s, e, cen, goes_left))
            }
            None if n <= MAX_LEAF => None,
            None => {
                // All centroids coincide: split by count to keep the tree balanced.
                Some(s + n / 2)
            }
        }
    }

    /// Moves the proxies for which `left` holds to the front of `s..e`; returns the boundary.
    fn partition(
        &mut self,
        s: usize,
        e: usize,
        cen: &mut [[Real; 3]],
        left: impl Fn(&[Real; 3]) -> bool,
    ) -> usize {
        let mut i = s;
        for j in s..e {
            if left(&cen[j]) {
                cen.swap(i, j);
                self.prims.swap(i, j);
                self.prim_boxes.swap(i, j);
                i += 1;
            }
        }
        i
    }

    /// Copies the moved boxes and recomputes every node's box bottom-up.
    fn refit(&mut self) {
        let store = &self.store;
        self.prim_boxes
            .par_iter_mut()
            .zip(self.prims.par_iter())
            .with_min_len(4096)
            .for_each(|(b, &s)| *b = store.aabbs[s as usize]);
        for i in (0..self.nodes.len()).rev() {
            let n = self.nodes[i];
            let (s, c) = (n.start as usize, n.count as usize);
            self.nodes[i].bounds = if n.is_leaf() {
                self.prim_boxes[s..s + c]
                    .iter()
                    .fold(empty_box(), |a, b| a.merged(b))
            } else {
                self.nodes[s].bounds.merged(&self.nodes[s + 1].bounds)
            };
        }
        self.dirty = false;
    }

    /// Runs `task` to completion with an explicit stack.
    fn run(&self, task: Task, out: &mut Vec<u64>, trim: &Trim) {
        let mut stack = vec![task];
        while let Some(t) = stack.pop() {
            self.expand(t, out, &mut stack);
            trim.trim(out);
        }
    }

    /// Does one step of `task`: leaf work goes to `out`, sub-tasks to `more`.
    #[inline]
    fn expand(&self, task: Task, out: &mut Vec<u64>, more: &mut Vec<Task>) {
        match task {
            Task::Own(n) => {
                let node = &self.nodes[n as usize];
                let s = node.start as usize;
                if node.is_leaf() {
                    let e = s + node.count as usize;
                    for i in s..e {
                        for j in i + 1..e {
                            if self.prim_boxes[i].intersects(&self.prim_boxes[j]) {
                                out.push(pair_key(self.prims[i], self.prims[j]));
                            }
                        }
                    }
                } else {
                    let (l, r) = (s as u32, s as u32 + 1);
                    more.extend([Task::Own(l), Task::Own(r), Task::Cross(l, r)]);
                }
            }
            Task::Cross(a, b) => {
                let (na, nb) = (&self.nodes[a as usize], &self.nodes[b as usize]);
                if !na.bounds.intersects(&nb.bounds) {
                    return;
                }
                match (na.is_leaf(), nb.is_leaf()) {
                    (true, true) => {
                        let (sa, sb) = (na.start as usize, nb.start as usize);
                        for i in sa..sa + na.count as usize {
                            let bi = &self.prim_boxes[i];
                            for j in sb..sb + nb.count as usize {
                                if bi.intersects(&self.prim_boxes[j]) {
                                    out.push(pair_key(self.prims[i], self.prims[j]));
                                }
                            }
                        }
                    }
                    (la, lb) => {
                        let split_a = lb || (!la && half_area(&na.bounds) >= half_area(&nb.bounds));
                        if split_a {
                            more.extend([Task::Cross(na.start, b), Task::Cross(na.start + 1, b)]);
                        } else {
                            more.extend([Task::Cross(a, nb.start), Task::Cross(a, nb.start + 1)]);
                        }
                    }
                }
            }
        }
    }

    /// The pair keys into `keys` (unsorted), counting what the budget drops into `dropped`.
    fn find_pair_keys(&mut self, dropped: &AtomicUsize) {
        let trim = self.store.budget.start(dropped);
        let mut keys = std::mem::take(&mut self.found.keys);
        keys.clear();
        if !self.nodes.is_empty() {
            // Breadth-first expansion of the top of the traversal into parallel tasks.
            let mut tasks = vec![Task::Own(0)];
            let target = if self.prims.len() > 4096 { 256 } else { 1 };
            while tasks.len() < target {
                let mut next = Vec::with_capacity(tasks.len() * 3);
                for &t in &tasks {
                    self.expand(t, &mut keys, &mut next);
                    trim.trim(&mut keys);
                }
                if next.is_empty() {
                    break;
                }
                tasks = next;
            }
            // Folded and reduced rather than collected per task, so that the buffers alive at
            // once stay few, each within the pair budget's limit (see `crate::budget`).
            let rest = tasks
                .par_iter()
                .fold(Vec::new, |mut v, &t| {
                    self.run(t, &mut v, &trim);
                    v
                })
                .reduce(Vec::new, |mut a, b| {
                    a.extend_from_slice(&b);
                    trim.trim(&mut a);
                    a
                });
            keys.extend_from_slice(&rest);
            trim.trim(&mut keys);
        }
        self.found.keys = keys;
    }

    /// Slots of the leaves' proxies for which `hit_node(node box)` and `hit_prim(box)` hold.
    fn collect(&self, hit_node: impl Fn(&Aabb) -> bool, mut on_prim: impl FnMut(usize)) {
        if self.nodes.is_empty() {
            return;
        }
        let mut stack = vec![0usize];
        while let Some(i) = stack.pop() {
            let n = &self.nodes[i];
            if !hit_node(&n.bounds) {
                continue;
            }
            let s = n.start as usize;
            if n.is_leaf() {
                (s..s + n.count as usize).for_each(&mut on_prim);
            } else {
                stack.extend([s, s + 1]);
            }
        }
    }

    /// The proxies whose box passes `hits`, sorted by index (clears `out` first). `hits` also
    /// culls the nodes, so it must hold for every box enclosing a box that passes it.
    fn query_boxes(&self, hits: impl Fn(&Aabb) -> bool, out: &mut Vec<ProxyHandle>) {
        let mut slots = Vec::new();
        self.collect(&hits, |i| {
            if hits(&self.prim_boxes[i]) {
                slots.push(self.prims[i]);
            }
        });
        self.sorted_handles(slots, out);
    }

    fn sorted_handles(&self, mut slots: Vec<u32>, out: &mut Vec<ProxyHandle>) {
        slots.sort_unstable();
        out.clear();
        out.extend(slots.iter().map(|&s| self.store.arena.handle_of(s)));
    }
}

impl BroadPhase for Bvh {
    impl_proxy_bookkeeping!();

    fn find_pairs(&mut self, out: &mut Vec<Pair>) {
        let dropped = AtomicUsize::new(0);
        let searched = if self.rebuild_needed {
            self.build();
            self.find_pair_keys(&dropped);
            true
        } else if self.dirty {
            self.refit();
            if self.cost() > REBUILD_RATIO * self.built_cost {
                self.build();
            }
            self.find_pair_keys(&dropped);
            true
        } else {
            false
        };
        let counted = searched.then(|| dropped.into_inner());
        self.found.finish(&mut self.store, out, counted);
    }

    fn shrink_buffers(&mut self) {
        self.found.shrink();
    }

    fn query_aabb(&self, aabb: &Aabb, out: &mut Vec<ProxyHandle>) {
        if self.dirty || self.rebuild_needed || !aabb.is_valid() {
            return self.store.scan_aabb(aabb, out);
        }
        self.query_boxes(|b| b.intersects(aabb), out);
    }

    fn query_point(&self, p: &Point, out: &mut Vec<ProxyHandle>) {
        if self.dirty || self.rebuild_needed || !crate::math::is_finite_point(p) {
            return self.store.scan_point(p, out);
        }
        self.query_boxes(|b| b.contains_point(p), out);
    }

    fn cast_ray(
        &self,
        origin: &Point,
        dir: &Vector,
        max_t: Real,
        out: &mut Vec<(ProxyHandle, Real)>,
    ) {
        let ray = Ray::new(origin, dir, max_t);
        if self.dirty || self.rebuild_needed {
            return self.store.scan_ray(&ray, out);
        }
        out.clear();
        let Some(ray) = ray.valid() else { return };
        self.collect(
            |b| ray.hit(b).is_some(),
            |i| {
                if let Some(t) = ray.hit(&self.prim_boxes[i]) {
                    out.push((self.store.arena.handle_of(self.prims[i]), t));
                }
            },
        );
        sort_ray_hits(out);
    }

    fn validate(&self) -> Result<(), String> {
        self.store.validate()?;
        if self.rebuild_needed {
            return Ok(());
        }
        if self.prims.len() != self.store.arena.len() || self.prim_boxes.len() != self.prims.len() {
            return Err("bvh: leaves do not hold exactly the live proxies".into());
        }
        let mut seen = vec![false; self.store.arena.slot_count()];
        for &s in &self.prims {
            if !self.store.arena.is_alive(s as usize)
                || std::mem::replace(&mut seen[s as usize], true)
            {
                return Err(format!("bvh: slot {s} is dead or in two leaves"));
            }
        }
        if self.nodes.is_empty() {
            return if self.prims.is_empty() {
                Ok(())
            } else {
                Err("bvh: proxies but no root".into())
            };
        }
        // Every prim in exactly one leaf; every node's box contains its children's.
        let mut covered = vec![0u8; self.prims.len()];
        let mut reached = vec![false; self.nodes.len()];
        let mut stack = vec![0usize];
        while let Some(i) = stack.pop() {
            if std::mem::replace(&mut reached[i], true) {
                return Err(format!("bvh: node {i} reached twice"));
            }
            let n = &self.nodes[i];
            let s = n.start as usize;
            if n.is_leaf() {
                let e = s + n.count as usize;
                if e > self.prims.len() {
                    return Err(format!("bvh: leaf {i} range out of bounds"));
                }
                for (k, cov) in covered.iter_mut().enumerate().take(e).skip(s) {
                    *cov += 1;
                    let b = if self.dirty {
                        self.store.aabbs[self.prims[k] as usize]
                    } else {
                        self.prim_boxes[k]
                    };
                    if !self.dirty && !n.bounds.contains(&b) {
                        return Err(format!(
                            "bvh: leaf {i} does not contain proxy {}",
                            self.prims[k]
                        ));
                    }
                }
            } else {
                if s <= i || s + 1 >= self.nodes.len() {
                    return Err(format!("bvh: node {i} has bad children {s}"));
                }
                for c in [s, s + 1] {
                    if !self.dirty && !n.bounds.contains(&self.nodes[c].bounds) {
                        return Err(format!("bvh: node {i} does not contain child {c}"));
                    }
                }
                stack.extend([s, s + 1]);
            }
        }
        if covered.iter().any(|&c| c != 1) || reached.iter().any(|&r| !r) {
            return Err("bvh: leaves do not partition the proxies, or unreachable nodes".into());
        }
        if !self.dirty {
            for (k, &s) in self.prims.iter().enumerate() {
                if self.prim_boxes[k] != self.store.aabbs[s as usize] {
                    return Err(format!("bvh: box copy of slot {s} is stale"));
                }
            }
        }
        Ok(())
    }
}

//! Collision-only mode (like rapier's `CollisionPipeline`): shapes posed by the user, broad and
//! narrow phase on demand, no dynamics.
//!
//! A collider's handle is its broad-phase proxy handle, so pairs come out of the broad phase
//! already in canonical order and need no mapping. [`CollisionWorld::update`] allocates nothing
//! once its buffers have grown: the moved colliders' AABBs are computed in parallel and go to
//! the broad phase in one batch; the narrow phase runs in parallel over the pairs, its hits
//! written straight into the output in pair order except for the runs other threads took,
//! buffered and appended in order (`step::hits_in_order`), so the output is identical for any
//! thread count. A pair of
//! balls reads only a packed centre and radius per collider (16 bytes, kept up to date by
//! `insert`, `set_pose` and `remove`), not the colliders themselves.

use crate::error::{check_isometry, WorldError};
use crate::parallel::{hits_in_order, on_rayon_pool, HitChunk};
use crate::stage::{Stage, StageTimes, Timer};
use tumble_broadphase::par::prelude::*;
use tumble_broadphase::{AnyBroadPhase, BroadPhase, BroadPhaseKind, Pair, ProxyHandle};
use tumble_narrowphase::math::{Isometry, Point, Real, Vector};
use tumble_narrowphase::query::contact_any;
use tumble_narrowphase::shape::Shape;
use tumble_narrowphase::{query, Aabb, Manifold};

/// Names a collider of a [`CollisionWorld`] (generational; stale after removal).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ColliderHandle(ProxyHandle);

impl ColliderHandle {
    /// Slot index.
    pub fn index(&self) -> u32 {
        self.0.index()
    }
}

/// A pair of colliders in contact after the last update, with its manifold.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ColliderContact {
    /// Lower handle.
    pub a: ColliderHandle,
    /// Higher handle.
    pub b: ColliderHandle,
    /// Normal from `a` to `b`, world frame; depth positive when penetrating.
    pub manifold: Manifold,
}

#[derive(Clone, Debug)]
struct Collider {
    handle: ColliderHandle,
    shape: Shape,
    pose: Isometry,
    user_data: u64,
    /// The [`CollisionWorld::round`] in which the collider was last queued in `moved`: it is
    /// queued at most once per round, and a new round needs no pass clearing flags.
    queued: u64,
}

/// A collider as a pair of balls reads it: the ball's centre (world frame, metres) in
/// `[0..3]` and its radius (metres, ≥ 0) in `[3]`; the radius is [`NOT_BALL`] for any other
/// shape and for a free slot.
type PackedBall = [Real; 4];

/// The [`PackedBall`] of a collider that is not a ball and of a free slot (radius −1).
const NOT_BALL: PackedBall = [0.0, 0.0, 0.0, -1.0];

/// Pairs per block of the narrow phase's gather of packed balls.
const GATHER_BLOCK: usize = 64;

/// The [`PackedBall`] of `shape` at `pose`.
fn pack_ball(shape: &Shape, pose: &Isometry) -> PackedBall {
    match shape {
        Shape::Ball(b) => {
            let c = pose.translation.vector;
            [c.x, c.y, c.z, b.radius()]
        }
        _ => NOT_BALL,
    }
}

/// The box of a packed ball (a [`PackedBall`] with radius ≥ 0): the same arithmetic as
/// [`Ball::aabb`](tumble_narrowphase::shape::Ball::aabb), so the same bits.
#[inline]
fn ball_aabb(b: &PackedBall) -> Aabb {
    let c = Vector::new(b[0], b[1], b[2]);
    let r = Vector::repeat(b[3]);
    Aabb::new_unchecked((c - r).into(), (c + r).into())
}

/// Shapes and poses, no bodies. See the module docs.
pub struct CollisionWorld {
    colliders: Vec<Option<Collider>>,
    /// Per slot, kept in step with `colliders` (insert, set_pose, remove): a pair of balls
    /// reads two of these (16 bytes each) instead of two colliders.
    balls: Vec<PackedBall>,
    broad: AnyBroadPhase,
    prediction: Real,
    /// Colliders moved since the last update (handles of live colliders, each once, in
    /// `set_pose` order; `remove` takes its collider out).
    moved: Vec<ProxyHandle>,
    /// Number of colliders that are not balls (while it is 0, an update reads only `balls`).
    non_balls: usize,
    /// Counts updates (from 1): a collider is queued in `moved` when its `queued` differs.
    round: u64,
    /// The moved colliders' boxes, when some collider is not a ball.
    updates: Vec<(ProxyHandle, Aabb)>,
    bp_pairs: Vec<Pair>,
    hit_chunks: Vec<HitChunk<ColliderContact>>,
    contacts: Vec<ColliderContact>,
    unsupported: usize,
    times: StageTimes,
    /// See [`CollisionWorld::set_keep_pool_awake`].
    keep_pool_awake: bool,
}

impl Default for CollisionWorld {
    /// The default broad phase and pair budget, prediction 0 (touching pairs only).
    fn default() -> Self {
        let mut broad = AnyBroadPhase::new(BroadPhaseKind::default());
        broad.set_max_pairs(crate::config::DEFAULT_MAX_PAIRS as usize);
        Self {
            colliders: Vec::new(),
            balls: Vec::new(),
            broad,
            prediction: 0.0,
            moved: Vec::new(),
            non_balls: 0,
            round: 1,
            updates: Vec::new(),
            bp_pairs: Vec::new(),
            hit_chunks: Vec::new(),
            contacts: Vec::new(),
            unsupported: 0,
            times: StageTimes::default(),
            keep_pool_awake: true,
        }
    }
}

impl CollisionWorld {
    /// An empty collision world using the given broad phase; contact manifolds are reported for
    /// pairs closer than `prediction` metres (≥ 0; 0 = touching only).
    pub fn new(kind: BroadPhaseKind, prediction: Real) -> Result<Self, WorldError> {
        crate::error::check_finite("prediction", prediction)?;
        if prediction < 0.0 {
            return Err(WorldError::Negative("prediction", prediction));
        }
        let mut broad = AnyBroadPhase::new(kind);
        broad.set_max_pairs(crate::config::DEFAULT_MAX_PAIRS as usize);
        Ok(Self {
            broad,
            prediction,
            ..Self::default()
        })
    }

    /// Sets the pair budget: the most candidate pairs one [`update`](Self::update) takes, in
    /// `[1, MAX_PAIRS]` (default [`DEFAULT_MAX_PAIRS`](crate::DEFAULT_MAX_PAIRS)); see
    /// [`WorldConfig::max_pairs`](crate::WorldConfig::max_pairs) for which pairs are kept.
    /// Errors on a value outside the range, changing nothing.
    pub fn set_max_pairs(&mut self, max_pairs: u32) -> Result<(), WorldError> {
        crate::config::check_max_pairs(max_pairs)?;
        self.broad.set_max_pairs(max_pairs as usize);
        Ok(())
    }

    /// Whether an [`update`](Self::update) keeps the rayon pool's other threads awake between
    /// its parallel sections (default: true; see
    /// [`WorldConfig::keep_pool_awake`](crate::WorldConfig::keep_pool_awake)).
    pub fn set_keep_pool_awake(&mut self, keep_awake: bool) {
        self.keep_pool_awake = keep_awake;
    }

    /// Overlapping pairs the last [`update`](Self::update) left out for the pair budget.
    pub fn dropped_pair_count(&self) -> usize {
        self.broad.dropped_pairs()
    }

    fn aabb(&self, shape: &Shape, pose: &Isometry) -> Aabb {
        shape.aabb(pose).loosened(0.5 * self.prediction)
    }

    /// Adds a shape at a pose (world frame); errors on a non-finite pose or shape.
    pub fn insert(
        &mut self,
        shape: impl Into<Shape>,
        pose: Isometry,
        user_data: u64,
    ) -> Result<ColliderHandle, WorldError> {
        let shape = shape.into();
        check_isometry("collider pose", &pose)?;
        crate::state::validate_shape(&shape)
            .map_err(|_| WorldError::NonFinite("collider shape"))?;
        let aabb = self.aabb(&shape, &pose);
        if !aabb.is_valid() {
            return Err(WorldError::NonFinite("collider AABB"));
        }
        let proxy = self
            .broad
            .insert(aabb, user_data)
            .map_err(WorldError::BroadPhase)?;
        let i = proxy.index() as usize;
        if self.colliders.len() <= i {
            self.colliders.resize(i + 1, None);
            self.balls.resize(i + 1, NOT_BALL);
        }
        self.balls[i] = pack_ball(&shape, &pose);
        self.non_balls += usize::from(!matches!(shape, Shape::Ball(_)));
        let handle = ColliderHandle(proxy);
        self.colliders[i] = Some(Collider {
            handle,
            shape,
            pose,
            user_data,
            queued: 0,
        });
        Ok(handle)
    }

    fn get_mut(&mut self, h: ColliderHandle) -> Result<&mut Collider, WorldError> {
        match self.colliders.get_mut(h.index() as usize) {
            Some(Some(c)) if c.handle == h => Ok(c),
            _ => Err(WorldError::StaleCollider(h.index())),
        }
    }

    /// Removes a collider.
    pub fn remove(&mut self, h: ColliderHandle) -> Result<(), WorldError> {
        let ball = matches!(self.get_mut(h)?.shape, Shape::Ball(_));
        self.non_balls -= usize::from(!ball);
        self.broad.remove(h.0).map_err(WorldError::BroadPhase)?;
        self.colliders[h.index() as usize] = None;
        self.balls[h.index() as usize] = NOT_BALL;
        self.moved.retain(|&m| m != h.0);
        Ok(())
    }

    /// Moves a collider (world frame); takes effect at the next [`update`](Self::update).
    pub fn set_pose(&mut self, h: ColliderHandle, pose: Isometry) -> Result<(), WorldError> {
        check_isometry("collider pose", &pose)?;
        let i = h.index() as usize;
        // Not `get_mut`: `balls` is written too.
        let c = match self.colliders.get_mut(i) {
            Some(Some(c)) if c.handle == h => c,
            _ => return Err(WorldError::StaleCollider(h.index())),
        };
        c.pose = pose;
        self.balls[i] = pack_ball(&c.shape, &pose);
        if c.queued != self.round {
            c.queued = self.round;
            self.moved.push(h.0);
        }
        Ok(())
    }

    /// A collider's pose, shape and user data.
    pub fn get(&self, h: ColliderHandle) -> Option<(&Shape, Isometry, u64)> {
        match self.colliders.get(h.index() as usize) {
            Some(Some(c)) if c.handle == h => Some((&c.shape, c.pose, c.user_data)),
            _ => None,
        }
    }

    /// The colliders a query over `aabb` must test: those whose broad-phase box overlaps it,
    /// and those moved since the last [`update`](Self::update) (their box there is stale),
    /// written into `out` (cleared first) as slot indices, increasing, each once.
    pub(crate) fn query_candidates(&self, aabb: &Aabb, out: &mut Vec<ProxyHandle>) {
        self.broad.query_aabb(aabb, out);
        if !self.moved.is_empty() {
            out.extend_from_slice(&self.moved);
            out.sort_unstable_by_key(|p| p.index());
            out.dedup_by_key(|p| p.index());
        }
    }

    /// The live collider in slot `p`: its handle, shape and pose.
    pub(crate) fn collider_at(
        &self,
        p: ProxyHandle,
    ) -> Option<(ColliderHandle, &Shape, &Isometry)> {
        match self.colliders.get(p.index() as usize) {
            Some(Some(c)) => Some((c.handle, &c.shape, &c.pose)),
            _ => None,
        }
    }

    /// Number of colliders.
    pub fn len(&self) -> usize {
        self.broad.len()
    }

    /// True when there is no collider.
    pub fn is_empty(&self) -> bool {
        self.broad.is_empty()
    }

    /// The moved colliders' boxes into the broad phase, its pairs, then the narrow phase
    /// ([`Stage::UpdateBroadPhase`], [`Stage::FindPairs`], [`Stage::NarrowPhase`]): afterwards [`contacts`](Self::contacts) holds every pair
    /// within the prediction distance, in pair order.
    pub fn update(&mut self) {
        on_rayon_pool(self.keep_pool_awake, || self.update_stages());
    }

    fn update_stages(&mut self) {
        self.times.clear();
        let t = Timer::start();
        let (colliders, balls) = (&self.colliders, &self.balls);
        let prediction = self.prediction;
        let half = 0.5 * prediction;
        // `remove` takes its collider out of `moved`, so every handle there is live.
        if self.non_balls == 0 {
            // Only balls: each box straight from the packed centre and radius (16 bytes per
            // collider, not the collider), handed to the broad phase without a buffer between.
            let moved = &self.moved;
            let aabb_of = |i: usize| {
                let b = &balls[moved[i].index() as usize];
                ball_aabb(b).loosened(half)
            };
            if self.broad.update_batch_with(moved, aabb_of).is_err() {
                for (i, &p) in moved.iter().enumerate() {
                    // Poses are validated on entry; a box can only fail for absurd sizes.
                    let _ = self.broad.update(p, aabb_of(i));
                }
            }
        } else {
            // One read-only parallel pass, in `moved` order.
            self.moved
                .par_iter()
                .with_min_len(1024)
                .map(|&p| {
                    let c = colliders[p.index() as usize]
                        .as_ref()
                        .expect("moved colliders are live");
                    let aabb = match &c.shape {
                        // Inlined for the common case.
                        Shape::Ball(b) => b.aabb(&c.pose),
                        s => s.aabb(&c.pose),
                    };
                    (p, aabb.loosened(half))
                })
                .collect_into_vec(&mut self.updates);
            if self.broad.update_batch(&self.updates).is_err() {
                for &(p, aabb) in &self.updates {
                    let _ = self.broad.update(p, aabb);
                }
            }
        }
        // The next round starts by incrementing `round`, which un-queues every collider at once.
        self.moved.clear();
        self.round += 1;
        t.stop(&mut self.times, Stage::UpdateBroadPhase);

        let t = Timer::start();
        self.broad.find_pairs(&mut self.bp_pairs);
        t.stop(&mut self.times, Stage::FindPairs);

        let t = Timer::start();
        // Each pair's manifold written once, in pair order, whatever the thread count.
        self.unsupported = hits_in_order(
            &self.bp_pairs,
            &mut self.hit_chunks,
            &mut self.contacts,
            |pairs, out| {
                let mut unsupported = 0;
                // The packed balls of a block of pairs are gathered first, in a loop of loads
                // alone: `b` jumps about memory (pairs are in `a` order), and there many of
                // its cache misses are in flight at once, where between contact tests only a
                // few were (gas, one thread: narrow phase −13 % at 10⁵ balls, −5 to −14 % at
                // 10⁶).
                let mut got = [(NOT_BALL, NOT_BALL); GATHER_BLOCK];
                for block in pairs.chunks(GATHER_BLOCK) {
                    for (g, &(pa, pb)) in got.iter_mut().zip(block) {
                        let packed =
                            |h: ProxyHandle| *balls.get(h.index() as usize).unwrap_or(&NOT_BALL);
                        *g = (packed(pa), packed(pb));
                    }
                    for (&(pa, pb), (a, b)) in block.iter().zip(&got) {
                        let m = if a[3] >= 0.0 && b[3] >= 0.0 {
                            // Two balls: what `query::contact` runs for them, from the packed
                            // data.
                            Ok(query::contact_ball_ball(
                                &Point::new(a[0], a[1], a[2]),
                                a[3],
                                &Point::new(b[0], b[1], b[2]),
                                b[3],
                                prediction,
                            ))
                        } else {
                            let (ia, ib) = (pa.index() as usize, pb.index() as usize);
                            let (Some(Some(a)), Some(Some(b))) =
                                (colliders.get(ia), colliders.get(ib))
                            else {
                                continue;
                            };
                            contact_any(&a.pose, &a.shape, &b.pose, &b.shape, prediction)
                        };
                        match m {
                            Ok(Some(m)) if !m.is_empty() => out.push(ColliderContact {
                                a: ColliderHandle(pa),
                                b: ColliderHandle(pb),
                                manifold: m,
                            }),
                            Ok(_) => {}
                            Err(_) => unsupported += 1,
                        }
                    }
                }
                unsupported
            },
        );
        t.stop(&mut self.times, Stage::NarrowPhase);
    }

    /// Pairs with a manifold after the last update (within the prediction distance), pair order.
    pub fn contacts(&self) -> &[ColliderContact] {
        &self.contacts
    }

    /// The pairs of [`contacts`](Self::contacts) that actually touch (some depth ≥ 0).
    pub fn pairs(&self) -> impl Iterator<Item = (ColliderHandle, ColliderHandle)> + '_ {
        self.contacts
            .iter()
            .filter(|c| c.manifold.max_depth() >= 0.0)
            .map(|c| (c.a, c.b))
    }

    /// Number of touching pairs (some depth ≥ 0) after the last update.
    pub fn intersecting_pair_count(&self) -> usize {
        self.contacts
            .iter()
            .filter(|c| c.manifold.max_depth() >= 0.0)
            .count()
    }

    /// Pairs the broad phase reported in the last update.
    pub fn broad_phase_pair_count(&self) -> usize {
        self.bp_pairs.len()
    }

    /// Candidate pairs skipped in the last update for lack of a narrow-phase algorithm.
    pub fn unsupported_pair_count(&self) -> usize {
        self.unsupported
    }

    /// Stage times of the last update (broad and narrow phase only).
    pub fn stage_times(&self) -> &StageTimes {
        &self.times
    }

    /// Checks the broad phase's invariants and that every collider's proxy is live.
    pub fn validate(&self) -> Result<(), String> {
        self.broad.validate()?;
        let live = self.colliders.iter().flatten().count();
        if live != self.broad.len() {
            return Err(format!("{live} colliders but {} proxies", self.broad.len()));
        }
        Ok(())
    }
}

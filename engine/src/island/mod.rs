//! Islands and sleeping: resting groups of bodies stop costing anything until something
//! touches them.
//!
//! After Box2D v3's `island.c` and `solver_set.c` (Erin Catto, 2023–2024) and rapier's island
//! manager; the code is Tumble's own.
//!
//! **Islands.** Two dynamic bodies are linked when a contact pair between them *links*
//! (`links`: some point with separation ≤ 0, i.e. depth ≥ 0, or a positive normal impulse in
//! the last solve) or when the step adds a link between them (`Islands::link`, the hook for
//! joints). Static and kinematic bodies never link: a box resting on the ground and another
//! resting on the same ground are two islands. An island is a connected component of the
//! links among awake dynamic bodies; it is found afresh every step by union–find (like rapier,
//! unlike Box2D's persistent islands that split lazily), over the contact cache after the
//! solve, in slot order, so the result does not depend on the thread count.
//!
//! **Falling asleep.** Each awake dynamic body keeps a timer (`Body::sleep_time`) and the pose
//! at which the timer started (`Body::rest_pose`). The timer grows by `dt` every step that
//! ends with the body's velocities, averaged over the last `SLEEP_SMOOTHING` (0.1) seconds
//! (`Body::smoothed_vel`), below `sleep_linear_speed` and `sleep_angular_speed` (Box2D v3's
//! rule on a body's speed, with the tremor of a resting pile averaged out), its centre of
//! mass within `sleep_linear_speed × time_to_sleep` of the rest pose's and its rotation
//! within `sleep_angular_speed × time_to_sleep` radians of the rest pose's (its mean speeds
//! since the timer started below the thresholds too; see
//! [`WorldConfig::sleep_linear_speed`](crate::WorldConfig::sleep_linear_speed)), and restarts
//! from 0 at the current pose otherwise, when the body may not sleep
//! ([`BodyBuilder::can_sleep`](crate::BodyBuilder::can_sleep)), or when it has a linking
//! contact with a kinematic body that moves (Box2D: "a moving
//! kinematic body keeps the islands it touches awake"). An island falls asleep at the end of a step when
//! every one of its bodies has rested at least `time_to_sleep` seconds (Box2D v3's rule: the
//! island's sleep time is the smallest of its bodies'). Its bodies keep their timers, lose
//! their velocities, and their previous pose becomes their pose; the island is recorded in
//! `State::sleeping` under its id, the smallest slot of its members.
//!
//! **Asleep.** A sleeping body is treated as static by every stage: it is not integrated, not
//! swept, not in the solver (a contact between an awake body and a sleeping one sees the
//! sleeping one as immovable for that step), and its broad-phase box is not updated. A pair of
//! bodies that are both inactive (asleep, static or frozen; kinematic bodies are always
//! active) keeps its cached contact — manifold, warm-start impulses, touching flag
//! — without the narrow phase, so nothing changes and no contact event is reported while an
//! island sleeps, nor when it falls asleep or wakes. When no body at all is active, a step
//! runs none of its stages.
//!
//! **Cost.** A step with no active body runs no stage. With some active bodies, the stages
//! still pass over every body slot (O(bodies), a few tens of microseconds per 10 000 bodies
//! each), the broad phase still finds every overlapping pair (its structures rebuild or refit
//! over every proxy anyway; the pairs between two inactive bodies are dropped for their cached
//! contacts), and the island stage runs a union–find over the linking contacts of the awake
//! bodies.
//!
//! **Waking.** A sleeping island wakes whole (its member list in `State::sleeping`):
//! - in the step, after the narrow phase, when an active body has a contact pair with one of
//!   its bodies with a point at depth ≥ 0 (that island joins the solve of this very step, so
//!   an impact is shared), and after the solve, when an awake body links with one of its
//!   bodies (it joins the next step);
//! - by the [`World`](crate::World) calls that change a body: `set_pose`, `set_translation`,
//!   `set_linvel`, `set_angvel`, impulses, forces, torques, `clear_forces`, material, collision
//!   groups and sensor changes, `unfreeze`, [`World::wake_up`](crate::World::wake_up); the
//!   calls that can change what a body's neighbours rest on (removing a body, moving it, its
//!   groups, its sensor flag, its material) also wake the islands of every body it has a
//!   cached contact with; `set_gravity` wakes every island.
//!
//! Invariants (checked by `World::validate`):
//! - a sleeping body is dynamic, not frozen, may sleep, has zero velocities and its previous
//!   pose equal to its pose; a body that is not dynamic (or frozen, or may not sleep) is awake
//!   with a zero timer;
//! - `State::sleeping` maps each id to a non-empty, strictly increasing list of live slots
//!   whose bodies have that id, the id being the list's first slot; every sleeping body is in
//!   the list of its id; every timer is finite and ≥ 0; every averaged velocity is finite,
//!   and zero while the body sleeps;
//! - with [`WorldConfig::sleep`](crate::WorldConfig::sleep) off, no body sleeps.

use crate::body::{Body, AWAKE};
use crate::contact::ContactPair;
use crate::state::{broad_aabb, State};
use tumble_broadphase::par::prelude::*;
use tumble_narrowphase::math::{Real, Vector};

/// True when the contact pair links the islands of its bodies: some point has separation ≤ 0
/// (depth ≥ 0), or some point took a positive normal impulse in the last solve.
#[inline]
pub(crate) fn links(c: &ContactPair) -> bool {
    let n = c.manifold.len();
    c.manifold.points().iter().any(|p| p.depth >= 0.0)
        || c.impulses[..n.min(4)].iter().any(|i| i.normal > 0.0)
}

/// The live body in slot `i`, if any.
#[inline]
fn body(state: &State, i: u32) -> Option<&Body> {
    state.slots.get(i as usize).and_then(|s| s.body.as_ref())
}

/// Wakes the sleeping island of the body in slot `i` (nothing if it is awake or the slot is
/// empty): every member awake with a zero timer. Appends the woken slots to `woken`.
pub(crate) fn wake_island(state: &mut State, i: u32, woken: &mut Vec<u32>) {
    let Some(id) = body(state, i).map(|b| b.island).filter(|&id| id != AWAKE) else {
        return;
    };
    let Some(members) = state.sleeping.remove(&id) else {
        return;
    };
    for &m in &members {
        if let Some(b) = state.slots[m as usize].body.as_mut() {
            b.island = AWAKE;
            b.sleep_time = 0.0;
            b.rest_pose = b.pose;
        }
    }
    woken.extend_from_slice(&members);
}

/// Wakes the islands of every body that has a pair in the contact cache with the body in slot
/// `i` (and `i`'s own island). O(contact pairs).
pub(crate) fn wake_touching(state: &mut State, i: u32, woken: &mut Vec<u32>) {
    wake_island(state, i, woken);
    if state.sleeping.is_empty() {
        return;
    }
    let others: Vec<u32> = state
        .contacts
        .iter()
        .filter_map(|c| {
            let (a, b) = (c.a.index(), c.b.index());
            (a == i).then_some(b).or((b == i).then_some(a))
        })
        .collect();
    for o in others {
        wake_island(state, o, woken);
    }
}

/// Wakes every sleeping island.
pub(crate) fn wake_all(state: &mut State, woken: &mut Vec<u32>) {
    let ids: Vec<u32> = state.sleeping.keys().copied().collect();
    for id in ids {
        wake_island(state, id, woken);
    }
}

/// Puts the body in slot `i` asleep as an island of its own (a body inserted asleep).
pub(crate) fn sleep_alone(state: &mut State, i: u32) {
    if let Some(b) = state.slots[i as usize].body.as_mut() {
        put_to_sleep(b, i);
        state.sleeping.insert(i, vec![i]);
    }
}

/// Puts the island of the awake dynamic body in slot `i` asleep now: the bodies connected to
/// it by linking contacts (see [`links`]) in the contact cache, with the sleeping islands they
/// touch merged in. Returns the slots put asleep (increasing), or why not: a body of the
/// island may not sleep. O(contact pairs).
pub(crate) fn sleep_now(state: &mut State, i: u32) -> Result<Vec<u32>, &'static str> {
    let n = state.slots.len();
    let member = |b: &Body| b.is_dynamic() || b.is_sleeping();
    // Adjacency of the linking pairs between awake or sleeping dynamic bodies.
    let mut adjacent: Vec<Vec<u32>> = vec![Vec::new(); n];
    for c in state.contacts.iter().filter(|c| links(c)) {
        let (a, b) = (c.a.index(), c.b.index());
        if body(state, a).is_some_and(member) && body(state, b).is_some_and(member) {
            adjacent[a as usize].push(b);
            adjacent[b as usize].push(a);
        }
    }
    let mut seen = vec![false; n];
    let mut stack = vec![i];
    let mut island = Vec::new();
    seen[i as usize] = true;
    while let Some(k) = stack.pop() {
        island.push(k);
        let mut next: Vec<u32> = adjacent[k as usize].clone();
        // A sleeping body brings its whole island.
        if let Some(id) = body(state, k).map(|b| b.island).filter(|&id| id != AWAKE) {
            next.extend(state.sleeping.get(&id).into_iter().flatten());
        }
        for m in next {
            if !seen[m as usize] {
                seen[m as usize] = true;
                stack.push(m);
            }
        }
    }
    island.sort_unstable();
    if island
        .iter()
        .any(|&k| body(state, k).is_some_and(|b| !b.can_sleep))
    {
        return Err("a body of the island may not sleep");
    }
    let id = island[0];
    for &k in &island {
        if let Some(old) = body(state, k).map(|b| b.island).filter(|&o| o != AWAKE) {
            state.sleeping.remove(&old);
        }
    }
    for &k in &island {
        if let Some(b) = state.slots[k as usize].body.as_mut() {
            put_to_sleep(b, id);
        }
    }
    state.sleeping.insert(id, island.clone());
    Ok(island)
}

/// Marks one body asleep in island `id`: velocities zero, previous pose its pose.
fn put_to_sleep(b: &mut Body, id: u32) {
    b.island = id;
    b.linvel = Vector::zeros();
    b.angvel = Vector::zeros();
    b.smoothed_vel = (Vector::zeros(), Vector::zeros());
    b.prev_pose = b.pose;
}

/// The pre-solve wake: the slots of sleeping bodies that have, in `contacts` (this step's
/// cache), a pair with an active body (`active[slot]`) with a point at depth ≥ 0. Sorted,
/// each once.
pub(crate) fn touched_sleepers(
    state: &State,
    active: impl Fn(u32) -> bool + Sync,
    contacts: &[ContactPair],
) -> Vec<u32> {
    let sleeping = |i: u32| body(state, i).is_some_and(Body::is_sleeping);
    let mut seeds: Vec<u32> = contacts
        .par_iter()
        .with_min_len(1024)
        .filter_map(|c| {
            let (a, b) = (c.a.index(), c.b.index());
            let seed = if sleeping(a) && active(b) {
                a
            } else if sleeping(b) && active(a) {
                b
            } else {
                return None;
            };
            c.manifold
                .points()
                .iter()
                .any(|p| p.depth >= 0.0)
                .then_some(seed)
        })
        .collect();
    seeds.sort_unstable();
    seeds.dedup();
    seeds
}

/// The island stage's buffers, and the hook by which other constraints link bodies.
#[derive(Default)]
pub(crate) struct Islands {
    /// Extra links of this step, `(slot_a, slot_b)` (see [`Islands::link`]).
    links: Vec<(u32, u32)>,
    /// Union–find parent of each slot.
    parent: Vec<u32>,
    /// Per slot, the body's role (see [`Role`]).
    roles: Vec<Role>,
    /// Per slot, the body's sleep timer, seconds.
    times: Vec<Real>,
    /// This step's linking edges with an awake body, in cache order.
    edges: Vec<Edge>,
    /// Per slot: the smallest sleep time of the island it roots (roots only).
    min_time: Vec<Real>,
    /// Per root: the id of its island if it falls asleep this step, else `AWAKE`.
    sleep_id: Vec<u32>,
    /// Slots of bodies that fell asleep in the last call of [`update`], increasing.
    pub(crate) slept: Vec<u32>,
    /// Slots of bodies woken by the last call of [`update`].
    pub(crate) woken: Vec<u32>,
}

impl Islands {
    /// Gives back the memory of the per-pair buffers beyond their contents (the per-slot
    /// sleep state stays).
    pub(crate) fn shrink_buffers(&mut self) {
        self.links.shrink_to_fit();
        self.edges.shrink_to_fit();
    }

    /// Forgets the extra links of the last step.
    pub(crate) fn clear_links(&mut self) {
        self.links.clear();
    }

    /// Links the islands of the bodies in slots `a` and `b` for this step, as a linking contact
    /// does: if both are awake and dynamic they form one island (which sleeps only when both
    /// rest), if one is awake and the other asleep the sleeping one's island wakes, if one
    /// moves kinematically the other's timer is reset. Static, frozen and empty slots, and
    /// `a == b`, are ignored. This is the hook for joints: the step calls it (see
    /// `step::run`) before [`update`].
    pub(crate) fn link(&mut self, a: u32, b: u32) {
        if a != b {
            self.links.push((a.min(b), a.max(b)));
        }
    }
}

fn find(parent: &mut [u32], mut i: u32) -> u32 {
    while parent[i as usize] != i {
        let p = parent[i as usize];
        parent[i as usize] = parent[p as usize];
        i = p;
    }
    i
}

/// What one linking edge does (see [`Islands::link`]).
#[derive(Clone, Copy, Debug)]
enum Edge {
    /// Both awake dynamic: union.
    Union(u32, u32),
    /// A sleeping body linked to an awake dynamic one: wake the former's island, then a
    /// union.
    Wake(u32, u32),
    /// A dynamic body linked to a moving kinematic one: reset its timer.
    Taint(u32),
    /// Two sleeping bodies: a union if both wake this step.
    Dormant(u32, u32),
}

/// What the island stage needs of a body, one byte per slot (built in parallel, read by the
/// serial union–find without touching the slots).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Role {
    /// Empty slot, static or frozen body, kinematic body at rest: links nothing.
    #[default]
    None,
    /// Awake dynamic body.
    Awake,
    /// Sleeping body.
    Asleep,
    /// Kinematic body with a velocity.
    Carrier,
}

impl Role {
    fn of(b: &Body) -> Role {
        if b.is_dynamic() {
            Role::Awake
        } else if b.is_sleeping() {
            Role::Asleep
        } else if b.moves_kinematically() {
            Role::Carrier
        } else {
            Role::None
        }
    }
}

/// The island stage, at the end of a step (after the solve and the events; `state.contacts`
/// is this step's cache): the timers of the awake dynamic bodies, the islands, the islands
/// that fall asleep and those that wake (see the module docs). Fills `isl.slept` and
/// `isl.woken`. Returns whether some body is active afterwards.
pub(crate) fn update(state: &mut State, isl: &mut Islands) -> bool {
    isl.slept.clear();
    isl.woken.clear();
    let cfg = &state.config;
    let (dt, reach, turn) = (
        cfg.dt,
        cfg.sleep_linear_speed * cfg.time_to_sleep,
        cfg.sleep_angular_speed * cfg.time_to_sleep,
    );
    let speeds = (cfg.sleep_linear_speed, cfg.sleep_angular_speed);
    let sleep = cfg.sleep;
    let n = state.slots.len();
    isl.roles.resize(n, Role::None);
    isl.times.resize(n, 0.0);
    // Per body in parallel: the timers, the roles, and the number of active bodies.
    let active: usize = state
        .slots
        .par_iter_mut()
        .zip(isl.roles.par_iter_mut())
        .zip(isl.times.par_iter_mut())
        .with_min_len(512)
        .map(|((s, role), time)| {
            let Some(b) = s.body.as_mut() else {
                *role = Role::None;
                return 0;
            };
            if sleep && b.is_dynamic() {
                tick(b, dt, reach, turn, speeds);
            }
            *role = Role::of(b);
            *time = b.sleep_time;
            usize::from(b.is_moving())
        })
        .sum();
    if !sleep {
        return active > 0;
    }
    islands(state, isl);
    active + isl.woken.len() > isl.slept.len()
}

/// The links, the islands, and their sleeping and waking (serial, in slot order, on the roles
/// and timers gathered by [`update`]).
fn islands(state: &mut State, isl: &mut Islands) {
    let roles = &isl.roles;
    let role = |i: u32| roles.get(i as usize).copied().unwrap_or_default();
    // The linking edges with an awake body, in cache order, then the extra links.
    let edge = |a: u32, b: u32| -> Option<Edge> {
        match (role(a), role(b)) {
            (Role::Awake, Role::Awake) => Some(Edge::Union(a, b)),
            (Role::Awake, Role::Asleep) => Some(Edge::Wake(b, a)),
            (Role::Asleep, Role::Awake) => Some(Edge::Wake(a, b)),
            (Role::Awake, Role::Carrier) => Some(Edge::Taint(a)),
            (Role::Carrier, Role::Awake) => Some(Edge::Taint(b)),
            (Role::Asleep, Role::Asleep) => Some(Edge::Dormant(a, b)),
            _ => None,
        }
    };
    isl.edges.clear();
    isl.edges.par_extend(
        state
            .contacts
            .par_iter()
            .with_min_len(1024)
            .filter(|c| links(c))
            .filter_map(|c| edge(c.a.index(), c.b.index())),
    );
    let extra: Vec<Edge> = isl.links.iter().filter_map(|&(a, b)| edge(a, b)).collect();
    isl.edges.extend(extra);
    // Links with sleeping bodies first: their islands wake (timers 0) and join the islands of
    // this step, which therefore do not fall asleep now.
    let mut unions: Vec<(u32, u32)> = Vec::new();
    let mut any_wake = false;
    for e in &isl.edges {
        match *e {
            Edge::Wake(s, _) => {
                any_wake = true;
                wake_island(state, s, &mut isl.woken);
            }
            Edge::Taint(d) => {
                isl.times[d as usize] = 0.0;
                if let Some(b) = state.slots[d as usize].body.as_mut() {
                    b.sleep_time = 0.0;
                    b.rest_pose = b.pose;
                }
            }
            Edge::Union(a, b) => unions.push((a, b)),
            Edge::Dormant(..) => {}
        }
    }
    if any_wake {
        // The woken bodies are awake now, with zero timers: their links with each other (kept
        // while they slept) join the islands, and those with the body that woke them.
        for &w in &isl.woken {
            isl.roles[w as usize] = Role::Awake;
            isl.times[w as usize] = 0.0;
        }
        for e in &isl.edges {
            match *e {
                Edge::Wake(s, a) => unions.push((s, a)),
                Edge::Dormant(a, b)
                    if isl.roles[a as usize] == Role::Awake
                        && isl.roles[b as usize] == Role::Awake =>
                {
                    unions.push((a, b));
                }
                _ => {}
            }
        }
    }
    let n = state.slots.len();
    isl.parent.clear();
    isl.parent.extend(0..n as u32);
    for &(a, b) in &unions {
        let (ra, rb) = (find(&mut isl.parent, a), find(&mut isl.parent, b));
        if ra != rb {
            // The smaller slot becomes the root: the same forest whatever the order of edges.
            let (lo, hi) = (ra.min(rb), ra.max(rb));
            isl.parent[hi as usize] = lo;
        }
    }
    // Each island's smallest timer, at its root.
    isl.min_time.clear();
    isl.min_time.resize(n, Real::INFINITY);
    for i in 0..n {
        if isl.roles[i] == Role::Awake {
            let r = find(&mut isl.parent, i as u32) as usize;
            isl.min_time[r] = isl.min_time[r].min(isl.times[i]);
        }
    }
    let limit = state.config.time_to_sleep;
    let sleepy = |t: Real| t > 0.0 && t >= limit;
    if !(0..n).any(|i| isl.roles[i] == Role::Awake && sleepy(isl.min_time[i])) {
        return;
    }
    isl.sleep_id.clear();
    isl.sleep_id.resize(n, AWAKE);
    // The islands that rested long enough; one whose body is beyond the coordinate limit
    // (the broad-phase update freezes it) stays awake. Slots are visited in increasing order:
    // the first member met is the smallest, the island's id.
    for i in 0..n as u32 {
        if isl.roles[i as usize] != Role::Awake {
            continue;
        }
        let r = find(&mut isl.parent, i) as usize;
        if !sleepy(isl.min_time[r]) {
            continue;
        }
        let within = body(state, i).is_some_and(|b| broad_aabb(&state.config, b).is_some());
        if !within {
            isl.min_time[r] = 0.0;
            isl.sleep_id[r] = AWAKE;
            continue;
        }
        if isl.sleep_id[r] == AWAKE {
            isl.sleep_id[r] = i;
        }
    }
    for i in 0..n as u32 {
        if isl.roles[i as usize] != Role::Awake {
            continue;
        }
        let r = find(&mut isl.parent, i) as usize;
        let id = isl.sleep_id[r];
        if id == AWAKE || !sleepy(isl.min_time[r]) {
            continue;
        }
        if let Some(b) = state.slots[i as usize].body.as_mut() {
            put_to_sleep(b, id);
        }
        state.sleeping.entry(id).or_default().push(i);
        isl.slept.push(i);
    }
}

/// The time constant (seconds) of the exponential average of a body's velocities that the
/// sleep test compares with the thresholds. Resting piles tremble: the upper half of a
/// 20-layer pyramid of unit cubes breathes at about 9 Hz with ±5 cm/s, 0.9 mm of travel, and
/// a loaded cube rocks at contact frequencies; averaged over 0.1 s such a tremor keeps less
/// than a fifth of its speed (gain `1/√(1 + (2πfτ)²)`: 0.17 at 9 Hz), while a swing slower
/// than 1 Hz keeps more than 85 % of it. Jolt goes further and tests only how far three points
/// of the body move (`Body::UpdateSleepStateInternal`).
pub(crate) const SLEEP_SMOOTHING: Real = 0.1;

/// One step of body `b`'s sleep timer: it grows by `dt` while the body stays within `reach`
/// metres (its centre of mass) and `turn` radians of its rest pose and its velocities averaged
/// over the last [`SLEEP_SMOOTHING`] seconds stay below `speeds` (linear m/s, angular rad/s),
/// and restarts from 0 at the current pose otherwise (or when the body may not sleep). Both:
/// the displacement alone puts a slow pendulum to sleep at the end of a swing
/// (it stays within 2.5 cm of where it turned for half a second), and the speed alone lets a
/// body creep.
#[inline]
fn tick(b: &mut Body, dt: Real, reach: Real, turn: Real, speeds: (Real, Real)) {
    let a = (dt / SLEEP_SMOOTHING).min(1.0);
    let (mut v, mut w) = b.smoothed_vel;
    v += (b.linvel - v) * a;
    w += (b.angvel - w) * a;
    b.smoothed_vel = (v, w);
    let com = b.com();
    let rest_com = b.rest_pose.translation.vector + b.rest_pose.rotation * b.com_local;
    let resting = b.can_sleep
        && v.norm_squared() <= speeds.0 * speeds.0
        && w.norm_squared() <= speeds.1 * speeds.1
        && (com - rest_com).norm_squared() <= reach * reach
        && b.rest_pose.rotation.angle_to(&b.pose.rotation) <= turn;
    if resting {
        b.sleep_time += dt;
    } else {
        b.sleep_time = 0.0;
        b.rest_pose = b.pose;
    }
}

/// Checks the invariants of the module docs; `Err` names the first one broken.
pub(crate) fn validate(state: &State) -> Result<(), String> {
    for (i, s) in state.slots.iter().enumerate() {
        let Some(b) = &s.body else { continue };
        if !(b.sleep_time.is_finite() && b.sleep_time >= 0.0) {
            return Err(format!("body {i}: sleep time {}", b.sleep_time));
        }
        let (v, w) = b.smoothed_vel;
        if !(v.iter().chain(w.iter()).all(|x| x.is_finite())) {
            return Err(format!("body {i}: averaged velocity {v:?}, {w:?}"));
        }
        if b.is_sleeping() && (v != Vector::zeros() || w != Vector::zeros()) {
            return Err(format!(
                "body {i}: asleep with averaged velocity {v:?}, {w:?}"
            ));
        }
        if !b.is_sleeping() {
            if !(b.is_dynamic_kind() && b.can_sleep) && b.sleep_time != 0.0 {
                return Err(format!("body {i}: cannot sleep but has a sleep time"));
            }
            continue;
        }
        if !state.config.sleep {
            return Err(format!("body {i} asleep with sleeping off"));
        }
        if !b.is_dynamic_kind() || !b.can_sleep {
            return Err(format!(
                "body {i}: asleep but not a dynamic body that may sleep"
            ));
        }
        if b.linvel != Vector::zeros() || b.angvel != Vector::zeros() {
            return Err(format!("body {i}: asleep with a velocity"));
        }
        if b.prev_pose != b.pose {
            return Err(format!("body {i}: asleep with a previous pose of its own"));
        }
        let listed = state
            .sleeping
            .get(&b.island)
            .is_some_and(|m| m.binary_search(&(i as u32)).is_ok());
        if !listed {
            return Err(format!(
                "body {i}: asleep in island {} that does not list it",
                b.island
            ));
        }
    }
    for (&id, members) in &state.sleeping {
        if members.first() != Some(&id) {
            return Err(format!("sleeping island {id} does not start with its id"));
        }
        if !members.windows(2).all(|w| w[0] < w[1]) {
            return Err(format!("sleeping island {id}: members not increasing"));
        }
        for &m in members {
            if body(state, m).is_none_or(|b| b.island != id) {
                return Err(format!(
                    "sleeping island {id} lists slot {m}, which is not asleep in it"
                ));
            }
        }
    }
    Ok(())
}

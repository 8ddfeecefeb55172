//! The four broad phases driven by one arbitrary sequence of inserts, moves, removals, batch
//! calls and bad input, checked after every batch against a plain model (a list of live
//! AABBs and an all-pairs test written here) and against each other:
//! - every structure hands out the same handles (one shared allocator, the determinism rule);
//! - refused input (non-finite or inverted boxes, stale or unknown handles, a batch with one
//!   bad item) is an error and changes nothing;
//! - `find_pairs` equals the model's overlapping pairs (closed boxes) in canonical order;
//! - `query_aabb` and `query_point` equal the model's answers; `len` and `aabb` agree;
//! - `validate()` passes.

use super::input::real_in;
use arbitrary::{Arbitrary, Result, Unstructured};
use tumble::broadphase::{AnyBroadPhase, BroadPhase, BroadPhaseKind, Pair, ProxyHandle};
use tumble::math::{Point, Real, Vector};
use tumble::narrowphase::Aabb;

const KINDS: [BroadPhaseKind; 4] = [
    BroadPhaseKind::BruteForce,
    BroadPhaseKind::Grid,
    BroadPhaseKind::SweepAndPrune,
    BroadPhaseKind::Bvh,
];

/// A box: usually small and near the origin, sometimes flat, a point, or huge.
fn aabb(u: &mut Unstructured<'_>) -> Result<Aabb> {
    let grid = bool::arbitrary(u)?;
    let c = Point::new(
        real_in(u, -20.0, 20.0, grid)?,
        real_in(u, -20.0, 20.0, grid)?,
        real_in(u, -20.0, 20.0, grid)?,
    );
    let big = match u.int_in_range(0u8..=15)? {
        0 => 1e6,
        1 => 0.0,
        _ => 3.0,
    };
    let he = Vector::new(
        real_in(u, 0.0, big, grid)?,
        real_in(u, 0.0, big, grid)?,
        real_in(u, 0.0, big, grid)?,
    );
    Ok(Aabb::new_unchecked(c - he, c + he))
}

/// A box the broad phases must refuse.
fn bad_aabb(u: &mut Unstructured<'_>) -> Result<Aabb> {
    let good = aabb(u)?;
    Ok(match u.int_in_range(0u8..=2)? {
        0 => Aabb::new_unchecked(Point::new(Real::NAN, 0.0, 0.0), good.maxs),
        1 => Aabb::new_unchecked(
            good.mins,
            Point::new(good.maxs.x, Real::INFINITY, good.maxs.z),
        ),
        _ => Aabb::new_unchecked(good.maxs + Vector::repeat(1.0), good.mins),
    })
}

struct Model {
    live: Vec<(ProxyHandle, Aabb, u64)>,
    dead: Vec<ProxyHandle>,
}

impl Model {
    fn pairs(&self) -> Vec<Pair> {
        let mut out = Vec::new();
        for (i, (ha, a, _)) in self.live.iter().enumerate() {
            for (hb, b, _) in &self.live[i + 1..] {
                if a.intersects(b) {
                    out.push(if ha.index() < hb.index() {
                        (*ha, *hb)
                    } else {
                        (*hb, *ha)
                    });
                }
            }
        }
        out.sort_by_key(|(a, b)| (a.index(), b.index()));
        out
    }

    fn query(&self, f: impl Fn(&Aabb) -> bool) -> Vec<ProxyHandle> {
        let mut out: Vec<ProxyHandle> = self
            .live
            .iter()
            .filter(|(_, a, _)| f(a))
            .map(|(h, _, _)| *h)
            .collect();
        out.sort_by_key(|h| h.index());
        out
    }

    fn pick(&self, u: &mut Unstructured<'_>) -> Result<Option<usize>> {
        Ok(if self.live.is_empty() {
            None
        } else {
            Some(u.choose_index(self.live.len())?)
        })
    }
}

/// Applies one call to every structure; all must agree on the result.
fn all<T: PartialEq + std::fmt::Debug>(
    bps: &mut [AnyBroadPhase],
    what: &str,
    f: impl Fn(&mut AnyBroadPhase) -> T,
) -> T {
    let first = f(&mut bps[0]);
    for bp in &mut bps[1..] {
        let r = f(bp);
        assert_eq!(r, first, "{what}: {:?} differs from brute force", bp.kind());
    }
    first
}

/// Fuzz entry: an arbitrary operation sequence on all four broad phases.
pub fn check_broadphase(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let mut bps: Vec<AnyBroadPhase> = KINDS.iter().map(|&k| AnyBroadPhase::new(k)).collect();
    let mut model = Model {
        live: Vec::new(),
        dead: Vec::new(),
    };
    let mut next_ud = 0u64;
    let mut ops = 0;
    while !u.is_empty() && ops < 400 {
        ops += 1;
        if step(&mut u, &mut bps, &mut model, &mut next_ud).is_err() {
            break;
        }
    }
    compare(&mut bps, &model, None);
}

fn step(
    u: &mut Unstructured<'_>,
    bps: &mut [AnyBroadPhase],
    model: &mut Model,
    next_ud: &mut u64,
) -> Result<()> {
    match u.int_in_range(0u8..=9)? {
        0 | 1 => {
            let a = aabb(u)?;
            *next_ud += 1;
            let ud = *next_ud;
            let h = all(bps, "insert", |bp| bp.insert(a, ud)).expect("valid insert refused");
            model.live.push((h, a, ud));
        }
        2 => {
            let n = u.int_in_range(0..=20)?;
            let items: Vec<(Aabb, u64)> = (0..n)
                .map(|k| aabb(u).map(|a| (a, *next_ud + 1 + k as u64)))
                .collect::<Result<_>>()?;
            *next_ud += n as u64;
            let hs = all(bps, "insert_batch", |bp| bp.insert_batch(&items))
                .expect("valid batch refused");
            model
                .live
                .extend(hs.into_iter().zip(items).map(|(h, (a, ud))| (h, a, ud)));
        }
        3 => {
            if let Some(i) = model.pick(u)? {
                let (h, _, _) = model.live.swap_remove(i);
                all(bps, "remove", |bp| bp.remove(h)).expect("remove of a live proxy refused");
                model.dead.push(h);
            }
        }
        4 | 5 => {
            if let Some(i) = model.pick(u)? {
                let a = aabb(u)?;
                let h = model.live[i].0;
                all(bps, "update", |bp| bp.update(h, a)).expect("valid update refused");
                model.live[i].1 = a;
            }
        }
        6 => {
            let n = u.int_in_range(0..=model.live.len().min(30))?;
            let mut items = Vec::new();
            for _ in 0..n {
                if let Some(i) = model.pick(u)? {
                    items.push((i, aabb(u)?));
                }
            }
            let calls: Vec<(ProxyHandle, Aabb)> =
                items.iter().map(|&(i, a)| (model.live[i].0, a)).collect();
            all(bps, "update_batch", |bp| bp.update_batch(&calls))
                .expect("valid update batch refused");
            for (i, a) in items {
                model.live[i].1 = a;
            }
        }
        7 => {
            // Bad input of every kind: refused by all, nothing changes.
            let bad = bad_aabb(u)?;
            let stale = if model.dead.is_empty() {
                ProxyHandle::invalid()
            } else {
                model.dead[u.choose_index(model.dead.len())?]
            };
            let live = model.pick(u)?.map(|i| model.live[i].0);
            let good = aabb(u)?;
            let before: Vec<usize> = bps.iter().map(|b| b.len()).collect();
            for bp in bps.iter_mut() {
                assert!(
                    bp.insert(bad, 0).is_err(),
                    "{:?} accepted {bad:?}",
                    bp.kind()
                );
                assert!(
                    bp.insert_batch(&[(good, 1), (bad, 2)]).is_err(),
                    "{:?} accepted a bad batch",
                    bp.kind()
                );
                assert!(
                    bp.remove(stale).is_err(),
                    "{:?} removed a stale handle",
                    bp.kind()
                );
                assert!(
                    bp.update(stale, good).is_err(),
                    "{:?} updated a stale handle",
                    bp.kind()
                );
                if let Some(h) = live {
                    assert!(bp.update(h, bad).is_err(), "{:?} took a bad box", bp.kind());
                    assert!(
                        bp.update_batch(&[(h, good), (stale, good)]).is_err(),
                        "{:?} took a batch with a stale handle",
                        bp.kind()
                    );
                }
            }
            let after: Vec<usize> = bps.iter().map(|b| b.len()).collect();
            assert_eq!(before, after, "refused calls changed the proxy count");
        }
        _ => compare(bps, model, Some(aabb(u)?)),
    }
    Ok(())
}

fn compare(bps: &mut [AnyBroadPhase], model: &Model, query: Option<Aabb>) {
    let want = model.pairs();
    let mut got = Vec::new();
    for bp in bps.iter_mut() {
        if let Err(e) = bp.validate() {
            panic!("{:?}.validate(): {e}", bp.kind());
        }
        assert_eq!(bp.len(), model.live.len(), "{:?}.len()", bp.kind());
        bp.find_pairs(&mut got);
        assert_eq!(
            got,
            want,
            "{:?}.find_pairs differs from the all-pairs model",
            bp.kind()
        );
        for (h, a, ud) in &model.live {
            assert_eq!(bp.aabb(*h), Ok(*a), "{:?}.aabb", bp.kind());
            assert_eq!(bp.user_data(*h), Ok(*ud), "{:?}.user_data", bp.kind());
        }
        if let Some(q) = query {
            let mut out = Vec::new();
            bp.query_aabb(&q, &mut out);
            assert_eq!(
                out,
                model.query(|a| a.intersects(&q)),
                "{:?}.query_aabb",
                bp.kind()
            );
            let p = q.center();
            bp.query_point(&p, &mut out);
            assert_eq!(
                out,
                model.query(|a| a.contains_point(&p)),
                "{:?}.query_point",
                bp.kind()
            );
        }
    }
}

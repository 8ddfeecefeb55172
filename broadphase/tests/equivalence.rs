//! Every structure against the brute force: for many random scenes and random sequences of
//! moves, inserts and removes, the pair sets and query answers must be equal at every frame,
//! and `validate()` must pass after every operation batch.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tumble_broadphase::math::{Point, Real, Vector};
use tumble_broadphase::structure::GridMode;
use tumble_broadphase::{Aabb, AnyBroadPhase, BroadPhase, BroadPhaseKind, Grid, Pair, ProxyHandle};

#[derive(Clone, Copy, Debug)]
enum Scene {
    Uniform,
    SizesSpread100,
    Clusters,
    Piled,
    OnePlane,
    FarFromOrigin,
    OneHuge,
    Points,
    /// Two clusters 5·10⁴ m apart: too sparse for a dense grid, the grid hashes its cells.
    Sparse,
}

const SCENES: [Scene; 9] = [
    Scene::Uniform,
    Scene::SizesSpread100,
    Scene::Clusters,
    Scene::Piled,
    Scene::OnePlane,
    Scene::FarFromOrigin,
    Scene::OneHuge,
    Scene::Points,
    Scene::Sparse,
];

/// A random box for the scene; `k` is the proxy's ordinal (scene OneHuge makes #0 huge).
fn random_box(scene: Scene, rng: &mut ChaCha8Rng, k: usize) -> Aabb {
    let side = 20.0;
    let (c, h): (Point, Vector) = match scene {
        Scene::Uniform => (
            rand_point(rng, 0.0, side),
            Vector::repeat(rng.gen_range(0.2..1.0)),
        ),
        Scene::SizesSpread100 => {
            let s = 0.05 * 100f32.powf(rng.gen::<f32>());
            (
                rand_point(rng, 0.0, side),
                Vector::new(s, s * rng.gen_range(0.3..1.0), s),
            )
        }
        Scene::Clusters => {
            let centre = Point::new(
                [2.0, 10.0, 17.0][rng.gen_range(0..3)],
                [3.0, 15.0][rng.gen_range(0..2)],
                5.0,
            );
            (
                centre + rand_point(rng, -1.0, 1.0).coords,
                Vector::repeat(rng.gen_range(0.1..0.6)),
            )
        }
        Scene::Piled => (Point::new(1.0, 2.0, 3.0), Vector::new(0.5, 0.25, 1.0)),
        Scene::OnePlane => {
            let mut p = rand_point(rng, 0.0, side);
            p.y = 4.0;
            (
                p,
                Vector::new(rng.gen_range(0.2..1.0), 0.0, rng.gen_range(0.2..1.0)),
            )
        }
        Scene::FarFromOrigin => (
            rand_point(rng, 1.0e6, 1.0e6 + 200.0),
            Vector::repeat(rng.gen_range(1.0..8.0)),
        ),
        Scene::OneHuge => {
            if k == 0 {
                (Point::new(10.0, -1.0, 10.0), Vector::new(1.0e4, 1.0, 1.0e4))
            } else {
                (
                    rand_point(rng, 0.0, side),
                    Vector::repeat(rng.gen_range(0.2..1.0)),
                )
            }
        }
        Scene::Points => {
            // Integer coordinates so that coincident and touching points occur.
            let p = Point::new(
                rng.gen_range(0..6) as Real,
                rng.gen_range(0..6) as Real,
                rng.gen_range(0..3) as Real,
            );
            (p, Vector::zeros())
        }
        Scene::Sparse => {
            let far = if rng.gen_bool(0.5) { 0.0 } else { 5.0e4 };
            (
                rand_point(rng, far, far + side),
                Vector::repeat(rng.gen_range(0.2..1.5)),
            )
        }
    };
    Aabb::new(c - h, c + h).unwrap()
}

fn rand_point(rng: &mut ChaCha8Rng, lo: Real, hi: Real) -> Point {
    Point::new(
        rng.gen_range(lo..hi),
        rng.gen_range(lo..hi),
        rng.gen_range(lo..hi),
    )
}

fn moved(scene: Scene, rng: &mut ChaCha8Rng, b: &Aabb, k: usize) -> Aabb {
    if rng.gen_bool(0.1) {
        return random_box(scene, rng, k); // teleport
    }
    let step = match scene {
        Scene::FarFromOrigin => 4.0,
        Scene::Piled | Scene::Points => 0.0,
        _ => 0.3,
    };
    let d = Vector::new(
        rng.gen_range(-1.0..=1.0),
        rng.gen_range(-1.0..=1.0),
        rng.gen_range(-1.0..=1.0),
    ) * step;
    Aabb::new(b.mins + d, b.maxs + d).unwrap()
}

/// Checks pair set and queries of `bp` against the brute force `reference`.
fn compare(bp: &mut AnyBroadPhase, reference: &mut AnyBroadPhase, rng: &mut ChaCha8Rng, ctx: &str) {
    let (mut got, mut want) = (Vec::new(), Vec::new());
    bp.find_pairs(&mut got);
    reference.find_pairs(&mut want);
    assert_eq!(got.len(), want.len(), "{ctx}: pair count");
    assert_eq!(got, want, "{ctx}: pairs");
    bp.validate()
        .unwrap_or_else(|e| panic!("{ctx}: validate after find_pairs: {e}"));
    assert_eq!(bp.len(), reference.len());

    // Queries around existing boxes and at random places.
    let (mut g, mut w) = (Vec::new(), Vec::new());
    let (mut gr, mut wr) = (Vec::new(), Vec::new());
    let all: Vec<ProxyHandle> = {
        let mut v = Vec::new();
        let big = Aabb::new(
            Point::from(Vector::repeat(-1.0e30)),
            Point::from(Vector::repeat(1.0e30)),
        )
        .unwrap();
        reference.query_aabb(&big, &mut v);
        v
    };
    assert_eq!(all.len(), reference.len());
    for _ in 0..6 {
        let centre = if !all.is_empty() && rng.gen_bool(0.7) {
            let h = all[rng.gen_range(0..all.len())];
            reference.aabb(h).unwrap().center()
        } else {
            rand_point(rng, -5.0, 25.0)
        };
        let half = Vector::repeat(rng.gen_range(0.0..3.0));
        let q = Aabb::new(centre - half, centre + half).unwrap();
        bp.query_aabb(&q, &mut g);
        reference.query_aabb(&q, &mut w);
        assert_eq!(g, w, "{ctx}: query_aabb {q:?}");
        bp.query_point(&centre, &mut g);
        reference.query_point(&centre, &mut w);
        assert_eq!(g, w, "{ctx}: query_point {centre:?}");
        let dir = Vector::new(
            rng.gen_range(-1.0..1.0),
            rng.gen_range(-1.0..1.0),
            if rng.gen_bool(0.2) {
                0.0
            } else {
                rng.gen_range(-1.0..1.0)
            },
        );
        let origin = centre - dir * 10.0;
        let max_t = if rng.gen_bool(0.3) {
            Real::INFINITY
        } else {
            rng.gen_range(0.0..30.0)
        };
        bp.cast_ray(&origin, &dir, max_t, &mut gr);
        reference.cast_ray(&origin, &dir, max_t, &mut wr);
        assert_eq!(gr, wr, "{ctx}: cast_ray {origin:?} {dir:?} {max_t}");
    }
}

fn run_scene(make: &dyn Fn() -> AnyBroadPhase, scene: Scene, seed: u64, n: usize, frames: usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut bp = make();
    let kind = bp.kind();
    let mut reference = AnyBroadPhase::new(BroadPhaseKind::BruteForce);
    let items: Vec<(Aabb, u64)> = (0..n)
        .map(|k| (random_box(scene, &mut rng, k), k as u64))
        .collect();
    let mut handles = bp.insert_batch(&items).unwrap();
    assert_eq!(handles, reference.insert_batch(&items).unwrap());
    bp.validate().unwrap();
    let mut next_user = n as u64;
    for frame in 0..frames {
        let ctx = format!("{kind} {scene:?} seed {seed} frame {frame}");
        compare(&mut bp, &mut reference, &mut rng, &ctx);
        // A batch of operations: moves (batch or single), inserts, removes.
        let mut moves: Vec<(ProxyHandle, Aabb)> = Vec::new();
        for (k, &h) in handles.iter().enumerate() {
            if rng.gen_bool(0.6) {
                moves.push((h, moved(scene, &mut rng, &reference.aabb(h).unwrap(), k)));
            }
        }
        if rng.gen_bool(0.5) {
            bp.update_batch(&moves).unwrap();
            reference.update_batch(&moves).unwrap();
        } else {
            for &(h, a) in &moves {
                bp.update(h, a).unwrap();
                reference.update(h, a).unwrap();
            }
        }
        bp.validate()
            .unwrap_or_else(|e| panic!("{ctx}: validate after moves: {e}"));
        for _ in 0..rng.gen_range(0..4) {
            if handles.is_empty() {
                break;
            }
            let h = handles.swap_remove(rng.gen_range(0..handles.len()));
            bp.remove(h).unwrap();
            reference.remove(h).unwrap();
            assert!(bp.remove(h).is_err(), "{ctx}: double remove accepted");
        }
        let new: Vec<(Aabb, u64)> = (0..rng.gen_range(0..4))
            .map(|_| {
                next_user += 1;
                (random_box(scene, &mut rng, 1), next_user)
            })
            .collect();
        let hs = bp.insert_batch(&new).unwrap();
        assert_eq!(
            hs,
            reference.insert_batch(&new).unwrap(),
            "{ctx}: handles differ"
        );
        for (h, (_, u)) in hs.iter().zip(&new) {
            assert_eq!(bp.user_data(*h).unwrap(), *u);
        }
        handles.extend(hs);
        bp.validate()
            .unwrap_or_else(|e| panic!("{ctx}: validate after inserts: {e}"));
    }
    let ctx = format!("{kind} {scene:?} seed {seed} final");
    compare(&mut bp, &mut reference, &mut rng, &ctx);
}

fn run_all_scenes(make: &dyn Fn() -> AnyBroadPhase) {
    for (s, &scene) in SCENES.iter().enumerate() {
        for seed in 0..3u64 {
            let n = [40, 150, 400][seed as usize];
            run_scene(make, scene, 1000 * s as u64 + seed, n, 8);
        }
    }
}

fn run_kind(kind: BroadPhaseKind) {
    run_all_scenes(&|| AnyBroadPhase::new(kind));
}

#[test]
fn grid_equals_brute_force() {
    run_kind(BroadPhaseKind::Grid);
}

/// Fixed cell sizes: tiny cells put most proxies in the levels above the base, huge cells put many in one cell.
#[test]
fn grid_with_fixed_cell_sizes_equals_brute_force() {
    for c in [0.05, 0.7, 50.0] {
        run_all_scenes(&|| AnyBroadPhase::Grid(Grid::with_cell_size(c).unwrap()));
    }
    assert!(Grid::with_cell_size(0.0).is_err());
    assert!(Grid::with_cell_size(Real::NAN).is_err());
}

#[test]
fn sap_equals_brute_force() {
    run_kind(BroadPhaseKind::SweepAndPrune);
}

#[test]
fn bvh_equals_brute_force() {
    run_kind(BroadPhaseKind::Bvh);
}

/// The pair set does not depend on the rayon thread count (and matches across structures).
#[test]
fn pairs_independent_of_thread_count() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let items: Vec<(Aabb, u64)> = (0..3000)
        .map(|k| (random_box(Scene::SizesSpread100, &mut rng, k), k as u64))
        .collect();
    let mut first: Option<Vec<_>> = None;
    for kind in [
        BroadPhaseKind::Grid,
        BroadPhaseKind::SweepAndPrune,
        BroadPhaseKind::Bvh,
    ] {
        for threads in [1, 2, 3] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let mut bp = AnyBroadPhase::new(kind);
            bp.insert_batch(&items).unwrap();
            let mut pairs = Vec::new();
            pool.install(|| bp.find_pairs(&mut pairs));
            match &first {
                None => first = Some(pairs),
                Some(f) => assert_eq!(&pairs, f, "{kind} with {threads} threads"),
            }
        }
    }
}

/// Far-apart clusters make the occupied cell range too large for a dense array: the grid
/// switches to hashing and stays exact; a ground plane goes to a level above the base.
#[test]
fn grid_hashes_sparse_scenes_and_keeps_the_ground_out_of_the_cells() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut items: Vec<(Aabb, u64)> = (0..500)
        .map(|k| (random_box(Scene::Sparse, &mut rng, k), k as u64))
        .collect();
    let mut grid = Grid::new();
    grid_matches_brute_force(&mut grid, &items);
    assert_eq!(grid.mode(), GridMode::Hashed);

    let mut grid = Grid::new();
    items.truncate(0);
    items.push((random_box(Scene::OneHuge, &mut rng, 0), 0));
    items.extend((1..300).map(|k| (random_box(Scene::Uniform, &mut rng, k), k as u64)));
    grid_matches_brute_force(&mut grid, &items);
    assert_eq!(grid.mode(), GridMode::Dense);
    assert_eq!(grid.off_base_count(), 1);
}

/// Inserts `items` into `grid` and into a brute-force reference, checks that both find the
/// same pairs and that the grid is valid; returns the pairs and the reference.
fn grid_matches_brute_force(grid: &mut Grid, items: &[(Aabb, u64)]) -> (Vec<Pair>, AnyBroadPhase) {
    let mut reference = AnyBroadPhase::new(BroadPhaseKind::BruteForce);
    grid.insert_batch(items).unwrap();
    reference.insert_batch(items).unwrap();
    let (mut got, mut want) = (Vec::new(), Vec::new());
    grid.find_pairs(&mut got);
    reference.find_pairs(&mut want);
    assert_eq!(got, want);
    grid.validate().unwrap();
    (got, reference)
}

/// Regression (fuzz `grid_cell_of_overflow_far_negative`): point proxies make the automatic
/// cell tiny, and a far negative coordinate then overflowed the cell index's floor step.
#[test]
fn grid_cell_index_of_a_far_negative_point_does_not_overflow() {
    let point = |x: Real, y: Real, z: Real| {
        let p = Point::new(x, y, z);
        (Aabb::new(p, p).unwrap(), 0)
    };
    let items = vec![
        point(0.0, 0.0, 0.0),
        point(1.0e-6, 0.0, 0.0),
        point(0.0, 0.0, 0.0),
        point(-3.0e38, -1.0e30, 2.0e38),
        point(-3.0e38, -1.0e30, 2.0e38),
    ];
    for c in [None, Some(1.0e-30)] {
        let mut grid = match c {
            None => Grid::new(),
            Some(c) => Grid::with_cell_size(c).unwrap(),
        };
        let (pairs, reference) = grid_matches_brute_force(&mut grid, &items);
        assert_eq!(pairs.len(), 2);
        let (mut g, mut w) = (Vec::new(), Vec::new());
        let far = Point::new(-3.0e38, -1.0e30, 2.0e38);
        grid.query_point(&far, &mut g);
        reference.query_point(&far, &mut w);
        assert_eq!(g, w);
    }
}

/// Same bug, as the fuzz found it: 100 points 1 µm apart size the cells, then queries far away.
#[test]
fn grid_query_far_from_tiny_cells_finds_every_proxy() {
    let mut grid = Grid::new();
    let handles: Vec<ProxyHandle> = (0..100)
        .map(|i| {
            let p = Point::new(i as Real * 1e-6, 0.0, 0.0);
            grid.insert(Aabb::new(p, p).unwrap(), i).unwrap()
        })
        .collect();
    let mut pairs = Vec::new();
    grid.find_pairs(&mut pairs);
    let mut out = Vec::new();
    let everything = Aabb::new(Point::new(-1e6, -1e6, -1e6), Point::new(1e6, 1e6, 1e6)).unwrap();
    grid.query_aabb(&everything, &mut out);
    assert_eq!(out, handles);
    let far = Point::new(-1e6, 0.0, 0.0);
    grid.query_aabb(&Aabb::new(far, far).unwrap(), &mut out);
    assert!(out.is_empty());
    grid.query_point(&far, &mut out);
    assert!(out.is_empty());
    grid.validate().unwrap();
}

/// Scenes large enough for every parallel path of the grid and the pair sort (several
/// counting-sort chunks and prefix blocks, a pair sort over many partitions, batch updates
/// written in parallel, a ground plane in a level above the base): the pairs equal the brute
/// force's for 1, 2 and 3 threads, before and after a batch move, and `validate()` passes.
#[test]
fn large_scenes_equal_brute_force_on_any_thread_count() {
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    let (n, side) = (30_000, 60.0);
    let random = |rng: &mut ChaCha8Rng| {
        let c = rand_point(rng, 0.0, side);
        let h = Vector::new(
            rng.gen_range(0.1..0.6),
            rng.gen_range(0.1..0.6),
            rng.gen_range(0.1..0.6),
        );
        Aabb::new(c - h, c + h).unwrap()
    };
    let mut items: Vec<(Aabb, u64)> = (0..n).map(|k| (random(&mut rng), k as u64)).collect();
    items[7].0 = Aabb::new(
        Point::new(-1.0, -1.0, -1.0),
        Point::new(side + 1.0, 0.5, side + 1.0),
    )
    .unwrap();
    // The reference: the brute force's pairs before and after the move (most proxies, in
    // slot order: the parallel batch path).
    let mut brute = AnyBroadPhase::new(BroadPhaseKind::BruteForce);
    let handles = brute.insert_batch(&items).unwrap();
    let mut moves: Vec<(ProxyHandle, Aabb)> = Vec::new();
    for &h in &handles {
        if h != handles[7] && rng.gen_bool(0.9) {
            moves.push((h, random(&mut rng)));
        }
    }
    let mut expect = [Vec::new(), Vec::new()];
    brute.find_pairs(&mut expect[0]);
    brute.update_batch(&moves).unwrap();
    brute.find_pairs(&mut expect[1]);
    assert!(
        expect.iter().all(|e| e.len() > 4096),
        "{} pairs",
        expect[0].len()
    );
    for threads in [1, 2, 3] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        // The default cell size, and small cells (over 16 384 buckets).
        for grid in [Grid::new(), Grid::with_cell_size(1.5).unwrap()] {
            let mut grid = AnyBroadPhase::Grid(grid);
            assert_eq!(grid.insert_batch(&items).unwrap(), handles);
            let mut got = Vec::new();
            for (frame, expect) in expect.iter().enumerate() {
                pool.install(|| grid.find_pairs(&mut got));
                assert_eq!(&got, expect, "{threads} threads, frame {frame}");
                grid.validate().unwrap();
                pool.install(|| grid.update_batch(&moves)).unwrap();
            }
        }
    }
}

/// The measured scenes (`tumble_broadphase::scenes`: sizes over six decades, far coordinates,
/// specks beside boxes, dense piles) at small N: every structure reports the brute force's
/// pairs, in the same order, frame after frame, on 1, 2 and 3 threads, and passes `validate`.
#[test]
fn measured_scenes_equal_brute_force_on_any_thread_count() {
    use tumble_broadphase::scenes::{Scene, SceneKind};
    for scene_kind in SceneKind::ALL {
        for n in [300, 2000] {
            let mut brute = AnyBroadPhase::new(BroadPhaseKind::BruteForce);
            let mut scene = Scene::new(scene_kind, n, 7);
            let items: Vec<(Aabb, u64)> = scene.boxes().into_iter().map(|b| (b, 0)).collect();
            let handles = brute.insert_batch(&items).unwrap();
            let mut frames = Vec::new();
            for _ in 0..3 {
                let mut want = Vec::new();
                brute.find_pairs(&mut want);
                scene.advance();
                let moves: Vec<(ProxyHandle, Aabb)> =
                    handles.iter().copied().zip(scene.boxes()).collect();
                brute.update_batch(&moves).unwrap();
                frames.push((want, moves));
            }
            assert!(
                frames.iter().all(|f| !f.0.is_empty()),
                "{scene_kind:?} {n}: no pairs"
            );
            for kind in [
                BroadPhaseKind::Grid,
                BroadPhaseKind::SweepAndPrune,
                BroadPhaseKind::Bvh,
            ] {
                for threads in [1, 2, 3] {
                    let pool = rayon::ThreadPoolBuilder::new()
                        .num_threads(threads)
                        .build()
                        .unwrap();
                    let mut bp = AnyBroadPhase::new(kind);
                    assert_eq!(bp.insert_batch(&items).unwrap(), handles);
                    let mut got = Vec::new();
                    for (f, (want, moves)) in frames.iter().enumerate() {
                        pool.install(|| bp.find_pairs(&mut got));
                        let ctx =
                            format!("{kind} {scene_kind:?} n {n} {threads} threads frame {f}");
                        assert_eq!(&got, want, "{ctx}");
                        bp.validate().unwrap_or_else(|e| panic!("{ctx}: {e}"));
                        bp.update_batch(moves).unwrap();
                    }
                }
            }
        }
    }
}

mod property {
    use super::*;
    use proptest::prelude::*;

    /// A box of largest side anywhere from 10⁻⁴ m to 10³ m (or a point), near one of a few
    /// centres up to 3·10⁷ m from the origin.
    fn a_box() -> impl Strategy<Value = Aabb> {
        (
            0usize..4,
            [-50.0f32..50.0, -50.0f32..50.0, -50.0f32..50.0],
            prop_oneof![Just(0.0f32), -4.0f32..3.0],
            [0.2f32..1.0, 0.2f32..1.0, 0.2f32..1.0],
        )
            .prop_map(|(at, p, log_side, aspect)| {
                let centre = [0.0, 1.0e3, 3.0e7, -3.0e5][at];
                let side = if log_side == 0.0 {
                    0.0
                } else {
                    10f32.powf(log_side)
                };
                let c = Point::new(centre + p[0] * (1.0 + side), p[1], centre + p[2]);
                let h = Vector::new(aspect[0], aspect[1], aspect[2]) * (0.5 * side);
                Aabb::new(c - h, c + h).unwrap()
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Every structure reports the brute force's pairs on boxes of every size and place,
        /// and again after every box moved.
        #[test]
        fn every_structure_equals_brute_force(
            boxes in proptest::collection::vec(a_box(), 1..300),
            moved in proptest::collection::vec(a_box(), 300),
        ) {
            let items: Vec<(Aabb, u64)> = boxes.iter().map(|&b| (b, 0)).collect();
            let mut brute = AnyBroadPhase::new(BroadPhaseKind::BruteForce);
            let handles = brute.insert_batch(&items).unwrap();
            let moves: Vec<(ProxyHandle, Aabb)> =
                handles.iter().copied().zip(moved.iter().copied()).collect();
            let mut want = [Vec::new(), Vec::new()];
            brute.find_pairs(&mut want[0]);
            brute.update_batch(&moves).unwrap();
            brute.find_pairs(&mut want[1]);
            for kind in [BroadPhaseKind::Grid, BroadPhaseKind::SweepAndPrune, BroadPhaseKind::Bvh] {
                let mut bp = AnyBroadPhase::new(kind);
                bp.insert_batch(&items).unwrap();
                let mut got = Vec::new();
                bp.find_pairs(&mut got);
                prop_assert_eq!(&got, &want[0], "{}", kind);
                prop_assert!(bp.validate().is_ok(), "{}", kind);
                bp.update_batch(&moves).unwrap();
                bp.find_pairs(&mut got);
                prop_assert_eq!(&got, &want[1], "{} after the move", kind);
                prop_assert!(bp.validate().is_ok(), "{}", kind);
            }
        }
    }
}

//! The rayon plumbing shared by the step and the collision world: results gathered in item order
//! whatever the thread count ([`hits_in_order`], [`concat_into`]), and a step run on a pool's
//! thread with the pool kept awake ([`on_rayon_pool`]).
//!
//! Determinism rests here: every parallel section writes into slots fixed before it starts, or
//! hands back its results in item order, so the output never depends on how the work was split.

use std::mem::MaybeUninit;

/// Items per chunk of [`hits_in_order`] (candidates of the narrow phase): the smallest piece
/// the work is split into between threads, and the start of a run that another thread takes.
pub(crate) const CONTACT_CHUNK: usize = 256;

/// Copies of at most this many bytes are not split between threads.
const COPY_GRAIN_BYTES: usize = 1 << 17;

/// A buffer of a [`hits_in_order`] pass, one per chunk of `CONTACT_CHUNK` items (kept between
/// steps).
pub(crate) struct HitChunk<T> {
    /// When `taken`, the hits of the run of chunks starting at this one, in item order.
    hits: Vec<T>,
    /// A run of chunks starts here whose hits are not in the output yet (see
    /// [`hits_in_order`]).
    taken: bool,
}

impl<T> Default for HitChunk<T> {
    fn default() -> Self {
        Self {
            hits: Vec::new(),
            taken: false,
        }
    }
}

/// Runs `f` over `items` in parallel and replaces `out` by the hits in item order; returns
/// the number of items `f` could not handle (its return values summed). `f` must push, for a
/// slice of items, the hits of each item in turn (so that any split of the items gives the
/// same hits): the result then does not depend on the thread count.
///
/// The items are halved recursively down to chunks of `CONTACT_CHUNK` (as rayon's `join`
/// does), the second half of each split offered to the other threads while this one does the
/// first. Hits go straight into `out` as long as this thread meets them in item order; a half
/// that another thread took (rayon reports it migrated), and whatever follows it, starts a run
/// in the buffer of its first chunk. The runs are appended to `out` at the end, in order (the
/// copy split between threads when large). On two threads about half of the hits are copied
/// once, where writing every chunk to its own buffer copied all of them; on a one-thread pool
/// `f` runs once over all the items, straight into `out`.
pub(crate) fn hits_in_order<I: Sync, T: Copy + Send + Sync>(
    items: &[I],
    chunks: &mut Vec<HitChunk<T>>,
    out: &mut Vec<T>,
    f: impl Fn(&[I], &mut Vec<T>) -> usize + Sync,
) -> usize {
    out.clear();
    if tumble_broadphase::par::current_num_threads() == 1 || items.len() <= CONTACT_CHUNK {
        return f(items, out);
    }
    let n = items.len().div_ceil(CONTACT_CHUNK);
    if chunks.len() < n {
        chunks.resize_with(n, HitChunk::default);
    }
    let chunks = &mut chunks[..n];
    for c in chunks.iter_mut() {
        c.taken = false;
    }
    // The first chunk's buffer is never needed: `out` is the first run's.
    let (unsupported, _) = hits_of_run(&RayonJoin, items, &mut chunks[1..], out, &f);
    append_parts(chunks, |c| if c.taken { &c.hits[..] } else { &[] }, out);
    unsupported
}

/// How [`hits_of_run`] runs the two halves of a split: rayon's `join_context` in the engine,
/// a scripted order in the tests (which can make any half "taken").
trait Join: Sync {
    /// Runs `a`, and `b` told whether it runs on another thread than `a` (then possibly at
    /// the same time); returns both results.
    fn join<RA: Send, RB: Send>(
        &self,
        a: impl FnOnce() -> RA + Send,
        b: impl FnOnce(bool) -> RB + Send,
    ) -> (RA, RB);
}

/// [`Join`] by `rayon::join_context`: `b` is told whether another thread stole it.
struct RayonJoin;

impl Join for RayonJoin {
    fn join<RA: Send, RB: Send>(
        &self,
        a: impl FnOnce() -> RA + Send,
        b: impl FnOnce(bool) -> RB + Send,
    ) -> (RA, RB) {
        tumble_broadphase::par::join_context(|_| a(), |ctx| b(ctx.migrated()))
    }
}

/// One run of [`hits_in_order`]: the hits of `items` (`bufs.len() + 1` chunks of
/// `CONTACT_CHUNK`, the last one possibly shorter) pushed onto `out` in order, except for the
/// runs started in `bufs` (the buffers of the chunks after the first), marked `taken`. Returns
/// the number of items not handled, and whether a run was started (then `out` does not reach
/// the end of `items`, and whatever comes after must start a run too).
fn hits_of_run<I: Sync, T: Send>(
    join: &impl Join,
    items: &[I],
    bufs: &mut [HitChunk<T>],
    out: &mut Vec<T>,
    f: &(impl Fn(&[I], &mut Vec<T>) -> usize + Sync),
) -> (usize, bool) {
    if bufs.is_empty() {
        return (f(items, out), false);
    }
    // `mid ≥ 1` chunks on the left, `bufs.len() + 1 - mid ≥ 1` on the right.
    let mid = bufs.len().div_ceil(2);
    let (left, right) = items.split_at(mid * CONTACT_CHUNK);
    let (left_bufs, rest) = bufs.split_at_mut(mid - 1);
    let Some((first, right_bufs)) = rest.split_first_mut() else {
        unreachable!("the right half has at least one chunk");
    };
    let start_run = |first: &mut HitChunk<T>, right_bufs: &mut [HitChunk<T>]| {
        first.taken = true;
        first.hits.clear();
        hits_of_run(join, right, right_bufs, &mut first.hits, f).0
    };
    let ((u, started), taken) = join.join(
        || hits_of_run(join, left, left_bufs, out, f),
        |migrated| migrated.then(|| start_run(first, right_bufs)),
    );
    match taken {
        Some(v) => (u + v, true),
        // Not taken by another thread: this thread does it now, after the left half; in a run
        // of its own if the left half's hits stop short of it.
        None if started => (u + start_run(first, right_bufs), true),
        None => {
            let (v, started) = hits_of_run(join, right, right_bufs, out, f);
            (u + v, started)
        }
    }
}

/// Replaces the contents of `out` by the concatenation, in order, of `part(p)` for every `p`
/// in `parts`; large copies are split between threads.
pub(crate) fn concat_into<P: Sync, T: Copy + Send + Sync>(
    parts: &[P],
    part: impl Fn(&P) -> &[T] + Sync,
    out: &mut Vec<T>,
) {
    out.clear();
    append_parts(parts, part, out);
}

/// Appends to `out` the concatenation, in order, of `part(p)` for every `p` in `parts`; large
/// copies are split between threads.
fn append_parts<P: Sync, T: Copy + Send + Sync>(
    parts: &[P],
    part: impl Fn(&P) -> &[T] + Sync,
    out: &mut Vec<T>,
) {
    let total: usize = parts.iter().map(|p| part(p).len()).sum();
    out.reserve(total);
    let len = out.len();
    copy_range(parts, &part, 0, &mut out.spare_capacity_mut()[..total]);
    // SAFETY: `copy_range` initialised all of `spare_capacity_mut()[..total]`, the `total`
    // elements after the first `len`: its ranges cover `dst` (halves of halves), and each
    // range is filled or the copy panics before this line; `T: Copy` has no drop to run.
    unsafe { out.set_len(len + total) };
}

/// Copies elements `start..start + dst.len()` of the concatenation of `part(p)` for every `p`
/// of `parts` to `dst`; panics if the parts hold fewer. `dst` is halved between threads down
/// to `COPY_GRAIN_BYTES`, wherever the parts begin and end (one large part is split too).
fn copy_range<P: Sync, T: Copy + Send + Sync>(
    parts: &[P],
    part: &(impl Fn(&P) -> &[T] + Sync),
    start: usize,
    dst: &mut [MaybeUninit<T>],
) {
    if dst.len() > 1 && dst.len() * std::mem::size_of::<T>() > COPY_GRAIN_BYTES {
        let half = dst.len() / 2;
        let (l, r) = dst.split_at_mut(half);
        tumble_broadphase::par::join(
            || copy_range(parts, part, start, l),
            || copy_range(parts, part, start + half, r),
        );
        return;
    }
    let (mut skip, mut rest) = (start, dst);
    for p in parts {
        if rest.is_empty() {
            break;
        }
        let src = part(p);
        if skip >= src.len() {
            skip -= src.len();
            continue;
        }
        let src = &src[skip..src.len().min(skip + rest.len())];
        skip = 0;
        let (head, tail) = rest.split_at_mut(src.len());
        for (d, s) in head.iter_mut().zip(src) {
            d.write(*s);
        }
        rest = tail;
    }
    assert!(
        rest.is_empty(),
        "copy_range: the parts are shorter than the range"
    );
}

/// Runs `op` on a thread of a rayon pool, the pool's other threads kept awake meanwhile
/// ([`with_pool_awake`]). Called from a pool's thread, that is where it runs; called from
/// outside every pool, `op` is handed to the global pool once (`rayon::scope` runs its body
/// there) rather than each parallel section of a step crossing into the pool and waking the
/// caller back (a futex wake-up and a context switch each: about a sixth of a 10 000-ball step
/// on one thread, by alternating runs of the stress runner). Results are the same either way:
/// the parallel sections' outputs do not depend on the thread.
///
/// With `keep_awake` false the other threads are left to rayon's own idle loop (they sleep
/// between the step's parallel sections and leave their cores to the embedder's threads):
/// the same results, the step a little slower.
pub(crate) fn on_rayon_pool<R: Send>(keep_awake: bool, op: impl FnOnce() -> R + Send) -> R {
    let run = move || {
        if keep_awake {
            with_pool_awake(op)
        } else {
            op()
        }
    };
    if tumble_broadphase::par::current_thread_index().is_some() {
        run()
    } else {
        tumble_broadphase::par::scope(|_| run())
    }
}

/// Names of the threads that ran a keep-awake task (tests only: which pools were kept awake).
#[cfg(test)]
static KEPT_AWAKE: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

/// Runs `op` on the current thread (a thread of a rayon pool) while the pool's other threads
/// stay awake: each looks for work (`rayon::yield_now`, then an OS yield when there is none)
/// until `op` returns, instead of falling asleep after a few dozen idle rounds as rayon's own
/// idle loop does. A step alternates parallel sections with short serial ones (between them,
/// and inside the broad phase and the solver); a thread asleep at the start of a section joins
/// it only once woken (a futex wake-up, tens of microseconds on a virtual machine), and a
/// 10 000-ball step on two threads slept and was woken about seven times. The other threads
/// get the same work as before, only sooner: results do not change. One thread: just `op`.
///
/// The keep-awake tasks are the second halves of `rayon::join`s around `op` (on the stack, no
/// allocation): pushed before anything `op` pushes, they are the first work the other threads
/// steal (rayon steals oldest first). Should this thread ever pop one itself (while waiting
/// inside `op`), it returns at once.
fn with_pool_awake<R>(op: impl FnOnce() -> R + Send) -> R
where
    R: Send,
{
    use std::sync::atomic::{AtomicBool, Ordering};

    /// Sets the flag when dropped: the awake threads are released even if `op` panics (the
    /// `join`s around it wait for them before unwinding further).
    struct Release<'a>(&'a AtomicBool);
    impl Drop for Release<'_> {
        fn drop(&mut self) {
            self.0.store(true, Ordering::Release);
        }
    }

    /// Looks for work until `done`; returns at once on the thread running `op`.
    fn stay_awake(done: &AtomicBool, owner: Option<usize>) {
        if tumble_broadphase::par::current_thread_index() == owner {
            return;
        }
        #[cfg(test)]
        if let Some(name) = std::thread::current().name() {
            KEPT_AWAKE.lock().unwrap().push(name.to_string());
        }
        while !done.load(Ordering::Acquire) {
            if tumble_broadphase::par::yield_now() != Some(tumble_broadphase::par::Yield::Executed)
            {
                std::thread::yield_now();
            }
        }
    }

    /// `op` inside `awake` nested `join`s, each offering one keep-awake task.
    fn nest<R: Send>(
        awake: usize,
        done: &AtomicBool,
        owner: Option<usize>,
        op: impl FnOnce() -> R + Send,
    ) -> R {
        if awake == 0 {
            let _release = Release(done);
            return op();
        }
        tumble_broadphase::par::join(
            || nest(awake - 1, done, owner, op),
            || stay_awake(done, owner),
        )
        .0
    }

    let done = AtomicBool::new(false);
    let others = tumble_broadphase::par::current_num_threads().saturating_sub(1);
    nest(
        others,
        &done,
        tumble_broadphase::par::current_thread_index(),
        op,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use rayon::prelude::*;

    /// A deterministic scramble of `x` (splitmix64's finaliser).
    fn mix(mut x: u64) -> u64 {
        x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        x ^ (x >> 31)
    }

    /// Item `i` of seed `s` yields 0 to 3 hits `(i, k)`, is unsupported one time in seven, and
    /// costs a varying amount of work (so that threads steal at varying places).
    fn hits_of(items: &[u64], out: &mut Vec<(u64, u64)>, seed: u64) -> usize {
        let mut unsupported = 0;
        for &i in items {
            let h = mix(i ^ seed);
            let mut spin = h % 4000;
            while spin > 0 {
                spin = std::hint::black_box(spin - 1);
            }
            if h.is_multiple_of(7) {
                unsupported += 1;
                continue;
            }
            for k in 0..(h >> 8) % 4 {
                out.push((i, k));
            }
        }
        unsupported
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        /// `hits_in_order` gives the serial loop's hits and count whatever the thread count,
        /// with its buffers reused from a call of another size.
        #[test]
        fn hits_in_order_matches_the_serial_loop(
            n in 0usize..12 * CONTACT_CHUNK,
            before in 0usize..12 * CONTACT_CHUNK,
            seed in any::<u64>(),
        ) {
            let items: Vec<u64> = (0..n as u64).collect();
            let mut want = Vec::new();
            let want_unsupported = hits_of(&items, &mut want, seed);
            for threads in 1..=4 {
                let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
                let (mut chunks, mut out) = (Vec::new(), vec![(7, 7); 3]);
                let earlier: Vec<u64> = (0..before as u64).collect();
                pool.install(|| {
                    hits_in_order(&earlier, &mut chunks, &mut out, |it, o| hits_of(it, o, !seed));
                    let u = hits_in_order(&items, &mut chunks, &mut out, |it, o| {
                        hits_of(it, o, seed)
                    });
                    prop_assert_eq!(u, want_unsupported);
                    prop_assert_eq!(&out, &want);
                    Ok(())
                })?;
            }
        }
    }

    /// A [`Join`] that runs both halves on this thread, telling the second one it was taken
    /// by another thread when the next bit of `script` is set.
    struct ScriptedJoin(std::sync::atomic::AtomicU64);

    impl Join for ScriptedJoin {
        fn join<RA: Send, RB: Send>(
            &self,
            a: impl FnOnce() -> RA + Send,
            b: impl FnOnce(bool) -> RB + Send,
        ) -> (RA, RB) {
            use std::sync::atomic::Ordering::Relaxed;
            let ra = a();
            let bits = self
                .0
                .fetch_update(Relaxed, Relaxed, |x| Some(x.rotate_right(1)));
            (ra, b(bits.unwrap_or(0) & 1 == 1))
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Whichever halves are taken (including those that rayon's oldest-first stealing
        /// never leaves: a half left to this thread after a steal in the half before it), the
        /// runs appended in chunk order give the serial loop's hits.
        #[test]
        fn every_pattern_of_taken_halves_keeps_the_order(
            n in 0usize..40 * CONTACT_CHUNK,
            script in any::<u64>(),
            seed in any::<u64>(),
        ) {
            let items: Vec<u64> = (0..n as u64).collect();
            let f = |it: &[u64], o: &mut Vec<(u64, u64)>| {
                it.iter()
                    .map(|&i| {
                        let h = mix(i ^ seed);
                        o.extend((0..h % 3).map(|k| (i, k)));
                        usize::from(h.is_multiple_of(5))
                    })
                    .sum::<usize>()
            };
            let mut want = Vec::new();
            let want_unsupported = f(&items, &mut want);
            let chunks = n.div_ceil(CONTACT_CHUNK).max(1);
            let mut bufs: Vec<HitChunk<(u64, u64)>> = (0..chunks).map(|_| HitChunk::default()).collect();
            let mut out = Vec::new();
            let join = ScriptedJoin(std::sync::atomic::AtomicU64::new(script));
            let (u, _) = hits_of_run(&join, &items, &mut bufs[1..], &mut out, &f);
            append_parts(&bufs, |c| if c.taken { &c.hits[..] } else { &[] }, &mut out);
            prop_assert_eq!(u, want_unsupported);
            prop_assert_eq!(out, want);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// `append_parts` appends the parts in order, whatever their sizes (one part larger than
        /// all the others together included) and the thread count.
        #[test]
        fn append_parts_concatenates_in_order(
            lens in proptest::collection::vec(0usize..20_000, 0..12),
            big in 0usize..200_000,
            kept in 0usize..100,
        ) {
            let mut lens = lens;
            lens.push(big);
            let at = kept % lens.len();
            lens.rotate_right(at);
            let parts: Vec<Vec<u64>> = lens
                .iter()
                .enumerate()
                .map(|(p, &n)| (0..n as u64).map(|i| i << 8 | p as u64).collect())
                .collect();
            let mut want: Vec<u64> = (0..kept as u64).collect();
            want.extend(parts.iter().flatten());
            for threads in 1..=3 {
                let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
                let mut out: Vec<u64> = (0..kept as u64).collect();
                pool.install(|| append_parts(&parts, |p| &p[..], &mut out));
                prop_assert_eq!(&out, &want);
            }
        }
    }

    /// `with_pool_awake` returns `op`'s result on pools of 1 to 4 threads, also when `op` runs
    /// parallel work that itself keeps the pool awake (worlds stepped in parallel), and lets a
    /// panic of `op` through instead of hanging on the threads it kept awake.
    #[test]
    fn with_pool_awake_returns_nests_and_unwinds() {
        for threads in 1..=4 {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let sum = pool.install(|| {
                with_pool_awake(|| {
                    (0..64u64)
                        .into_par_iter()
                        .map(|i| with_pool_awake(|| (0..1000u64).into_par_iter().sum::<u64>() + i))
                        .sum::<u64>()
                })
            });
            assert_eq!(sum, 64 * 499_500 + 63 * 64 / 2);
            let caught = pool.install(|| {
                std::panic::catch_unwind(|| {
                    with_pool_awake(|| {
                        (0..100u32)
                            .into_par_iter()
                            .for_each(|i| assert!(i != 77, "boom"));
                    })
                })
            });
            assert!(caught.is_err());
            // The pool still works afterwards.
            assert_eq!(pool.install(|| on_rayon_pool(true, || 7)), 7);
        }
        assert_eq!(on_rayon_pool(true, || 8), 8);
    }

    /// A step run with `keep_awake` keeps the pool's other thread busy looking for work; one
    /// run without it never does (its threads are named, so other tests' pools do not count).
    #[test]
    #[cfg(feature = "parallel")]
    fn pool_is_kept_awake_only_when_asked() {
        for keep_awake in [true, false] {
            let prefix = format!("awake-{keep_awake}-");
            let name = prefix.clone();
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(2)
                .thread_name(move |i| format!("{name}{i}"))
                .build()
                .unwrap();
            let sum = pool.install(|| {
                on_rayon_pool(keep_awake, || {
                    std::thread::sleep(std::time::Duration::from_millis(50));
                    (0..10_000u64).into_par_iter().sum::<u64>()
                })
            });
            assert_eq!(sum, 49_995_000);
            let kept = KEPT_AWAKE
                .lock()
                .unwrap()
                .iter()
                .filter(|n| n.starts_with(&prefix))
                .count();
            assert_eq!(
                kept > 0,
                keep_awake,
                "keep_awake {keep_awake}: {kept} tasks"
            );
        }
    }

    /// On several threads, runs taken by other threads do happen (so the test above covers
    /// them), and the result is still the serial one.
    #[test]
    #[cfg(feature = "parallel")]
    fn hits_in_order_takes_runs_on_several_threads() {
        let items: Vec<u64> = (0..40 * CONTACT_CHUNK as u64).collect();
        let mut want = Vec::new();
        let want_unsupported = hits_of(&items, &mut want, 5);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(4)
            .build()
            .unwrap();
        let (mut chunks, mut out) = (Vec::new(), Vec::new());
        let mut taken = 0;
        for _ in 0..20 {
            let u = pool.install(|| {
                hits_in_order(&items, &mut chunks, &mut out, |it, o| hits_of(it, o, 5))
            });
            assert_eq!(u, want_unsupported);
            assert_eq!(out, want);
            taken += chunks.iter().filter(|c| c.taken).count();
        }
        assert!(taken > 0, "no run was ever taken by another thread");
    }
}

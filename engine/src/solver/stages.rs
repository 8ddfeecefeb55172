//! A sequence of parallel stages run inside one rayon region, after Box2D v3's solver stages
//! (`solver.c`, `b2SolverStage` and `b2ExecuteMainStage`).
//!
//! The solver's passes are a long chain of small steps (a pass over one colour, a conversion
//! of the angular velocities) where each step must see every write of the one before. A rayon
//! fork-join per step costs a wake-up and a join each time, more than a small colour's work;
//! here every thread of the pool joins once, and the threads walk the steps together.
//!
//! Each stage is split into blocks, claimed through the stage's `claimed` counter
//! (`fetch_add`: each block goes to exactly one thread). A thread runs the blocks it claims,
//! counting each in `done`, and when no block is left to claim it waits (spins, then yields)
//! until `done` reaches the stage's block count before it moves on to the next stage.
//!
//! **Visibility.** A block's writes precede its `done.fetch_add` (Release); a waiter's load of
//! `done` (Acquire) that reads the full count synchronises with every one of those increments
//! (each heads a release sequence that the later increments continue), so all the writes of
//! stage `s` happen before anything a thread does in stage `s + 1`. The thread that finishes a
//! stage's last block raises `current` (Release) past it; a thread that joins late starts from
//! `current` (Acquire), which carries the same guarantee for every stage before it.
//!
//! **No deadlock, whatever the pool is doing.** A thread only waits once every block of the
//! stage has been claimed, and a claimed block is being run by a thread that never waits in
//! the middle of it, so each wait ends. A helper the pool never starts holds no block: the
//! calling thread can run every stage alone (and then runs the helper, if rayon hands it back,
//! which finds nothing left to do). A block that panics still counts as done, so the other
//! threads finish and the panic reaches the caller when the region ends.

use std::sync::atomic::{AtomicUsize, Ordering};

/// Spins before a waiting thread starts yielding its core (each spin is one `pause`, tens of
/// nanoseconds: about the time of a small block).
const SPINS_BEFORE_YIELD: u32 = 1 << 10;

/// The counters of one stage, on a cache line of their own.
#[derive(Default)]
#[repr(align(64))]
struct StageSync {
    /// Blocks handed out (may run past the block count: those claims find nothing).
    claimed: AtomicUsize,
    /// Blocks finished.
    done: AtomicUsize,
}

/// A reusable list of stages, each a piece of work `T` split into a number of blocks.
pub(crate) struct Stages<T> {
    work: Vec<(T, usize)>,
    sync: Vec<StageSync>,
}

impl<T> Default for Stages<T> {
    fn default() -> Self {
        Self {
            work: Vec::new(),
            sync: Vec::new(),
        }
    }
}

impl<T: Sync> Stages<T> {
    /// Forgets every stage (keeps the buffers).
    pub fn clear(&mut self) {
        self.work.clear();
    }

    /// Appends a stage of `blocks` blocks (none: the stage is skipped).
    pub fn push(&mut self, work: T, blocks: usize) {
        if blocks > 0 {
            self.work.push((work, blocks));
        }
    }

    /// Runs every stage in order, `exec(work, block)` once for each block of each stage, on
    /// the calling thread and up to `threads − 1` helpers taken from the current rayon pool.
    /// Blocks of one stage may run at the same time, in any order and on any thread; every
    /// block of a stage finishes (and its writes are visible) before any block of the next
    /// one starts.
    pub fn run(&mut self, threads: usize, exec: impl Fn(&T, usize) + Sync) {
        let n = self.work.len();
        self.sync.truncate(n);
        self.sync.resize_with(n, StageSync::default);
        for s in &mut self.sync {
            *s.claimed.get_mut() = 0;
            *s.done.get_mut() = 0;
        }
        let widest = self.work.iter().map(|w| w.1).max().unwrap_or(0);
        let helpers = threads.min(widest).saturating_sub(1);
        let region = Region {
            work: &self.work,
            sync: &self.sync,
            current: AtomicUsize::new(0),
            exec: &exec,
        };
        if helpers == 0 {
            region.participate();
            return;
        }
        rayon::scope(|scope| {
            let region = &region;
            for _ in 0..helpers {
                scope.spawn(move |_| region.participate());
            }
            region.participate();
        });
    }
}

/// What the threads of one [`Stages::run`] share.
struct Region<'a, T, F> {
    work: &'a [(T, usize)],
    sync: &'a [StageSync],
    /// Every stage below this one is finished (see the module docs).
    current: AtomicUsize,
    exec: &'a F,
}

/// Counts a block as done when dropped (also when the block panics).
struct Finish<'a> {
    sync: &'a StageSync,
    blocks: usize,
    current: &'a AtomicUsize,
    stage: usize,
}

impl Drop for Finish<'_> {
    fn drop(&mut self) {
        if self.sync.done.fetch_add(1, Ordering::AcqRel) + 1 == self.blocks {
            self.current.fetch_max(self.stage + 1, Ordering::Release);
        }
    }
}

impl<T, F: Fn(&T, usize)> Region<'_, T, F> {
    /// Runs blocks of every stage from the first unfinished one to the end, waiting at the end
    /// of each stage until all its blocks are done.
    fn participate(&self) {
        let mut stage = self.current.load(Ordering::Acquire);
        while let (Some((work, blocks)), Some(sync)) = (self.work.get(stage), self.sync.get(stage))
        {
            let blocks = *blocks;
            loop {
                // Relaxed: the claim orders nothing; visibility comes from `done`.
                let block = sync.claimed.fetch_add(1, Ordering::Relaxed);
                if block >= blocks {
                    break;
                }
                let _finish = Finish {
                    sync,
                    blocks,
                    current: &self.current,
                    stage,
                };
                (self.exec)(work, block);
            }
            let mut spins = 0;
            while sync.done.load(Ordering::Acquire) < blocks {
                if spins < SPINS_BEFORE_YIELD {
                    spins += 1;
                    std::hint::spin_loop();
                } else {
                    std::thread::yield_now();
                }
            }
            stage += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU64;

    /// Stage `s` adds `s + 1` to each of its cells, reading the cell the previous stage wrote
    /// at another index: any block running before the previous stage finished, or a write not
    /// yet visible, gives a different total. Checked on pools of 1 to 4 threads, including a
    /// pool whose other threads are all busy (the caller runs every stage alone).
    fn chain(threads: usize, busy: bool) {
        const CELLS: usize = 1000;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let cells: Vec<AtomicU64> = (0..CELLS).map(|_| AtomicU64::new(0)).collect();
        let runs = AtomicUsize::new(0);
        let mut stages = Stages::default();
        for s in 0..40usize {
            // Varying block counts, one-block stages included.
            stages.push(s, 1 + (s * 7) % 13);
        }
        stages.push(99, 0);
        let expect = {
            let mut v = vec![0u64; CELLS];
            for s in 0..40usize {
                let prev = v.clone();
                for (i, x) in v.iter_mut().enumerate() {
                    *x = prev[(i + s) % CELLS] + s as u64 + 1;
                }
            }
            v
        };
        let scratch: Vec<AtomicU64> = (0..CELLS).map(|_| AtomicU64::new(0)).collect();
        pool.install(|| {
            let mut work = || {
                stages.run(threads, |&s, block| {
                    runs.fetch_add(1, Ordering::Relaxed);
                    let blocks = 1 + (s * 7) % 13;
                    let (from, to) = (block * CELLS / blocks, (block + 1) * CELLS / blocks);
                    // Even stages read `cells` and write `scratch`; odd ones the other way.
                    let (src, dst) = if s % 2 == 0 {
                        (&cells, &scratch)
                    } else {
                        (&scratch, &cells)
                    };
                    for i in from..to {
                        let x = src[(i + s) % CELLS].load(Ordering::Relaxed);
                        dst[i].store(x + s as u64 + 1, Ordering::Relaxed);
                    }
                })
            };
            if busy {
                // Every other thread of the pool spins until the stages are done.
                let finished = std::sync::atomic::AtomicBool::new(false);
                rayon::scope(|sc| {
                    for _ in 1..threads {
                        sc.spawn(|_| {
                            while !finished.load(Ordering::Acquire) {
                                std::hint::spin_loop();
                            }
                        });
                    }
                    work();
                    finished.store(true, Ordering::Release);
                });
            } else {
                work();
            }
        });
        let total: usize = (0..40usize).map(|s| 1 + (s * 7) % 13).sum();
        assert_eq!(runs.load(Ordering::Relaxed), total);
        // 40 stages: the last (odd) one wrote `cells`.
        let got: Vec<u64> = cells.iter().map(|c| c.load(Ordering::Relaxed)).collect();
        assert_eq!(got, expect);
    }

    #[test]
    fn stages_run_in_order_on_any_pool() {
        for threads in 1..=4 {
            for _ in 0..20 {
                chain(threads, false);
            }
            chain(threads, true);
        }
    }

    #[test]
    fn a_panicking_block_reaches_the_caller() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let mut stages = Stages::default();
        stages.push(0, 8);
        stages.push(1, 8);
        let r = pool.install(|| {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                stages.run(2, |&s, b| assert!(!(s == 0 && b == 3), "block 3"));
            }))
        });
        assert!(r.is_err());
    }
}

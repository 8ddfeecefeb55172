//! A sequence of parallel stages run inside one rayon region, after Box2D v3's solver stages
//! (`solver.c`, `b2SolverStage` and `b2ExecuteMainStage`).
//!
//! The solver's passes are a long chain of small steps (a pass over one colour, a conversion
//! of the angular velocities) where each step must see every write of the one before. A rayon
//! fork-join per step costs a wake-up and a join each time, more than a small colour's work;
//! here every thread of the pool joins once, and the threads walk the steps together.
//!
//! Each stage is split into blocks, each with a claim flag (`swap`: each block goes to exactly
//! one thread). As in Box2D, a thread starts at its own place in every stage (pool thread `i`
//! of `n` at block `i·blocks/n`), claims blocks forward (wrapping) until it meets a claimed
//! one, then backward from its start: with even blocks each thread runs the same part of every
//! colour in every pass, so it finds that part's data in its own cache. When it can claim no
//! more, a thread adds the number of blocks it ran to the stage's `done` and waits (spins,
//! then yields) until `done` reaches the stage's block count, then moves on to the next stage.
//! Every block gets claimed: next to an unclaimed block, a claimed one was taken by a thread
//! walking towards it, which tries it next.
//!
//! **Visibility.** A block's writes precede the `done.fetch_add` (Release) of its thread; a
//! waiter's load of `done` (Acquire) that reads the full count synchronises with every one of
//! those increments (each heads a release sequence that the later increments continue), so all
//! the writes of stage `s` happen before anything a thread does in stage `s + 1`. The thread
//! whose increment completes a stage raises `current` (Release) past it; a thread that joins
//! late starts from `current` (Acquire), which carries the same guarantee for every stage
//! before it.
//!
//! **No deadlock, whatever the pool is doing.** A thread only waits for blocks that running
//! threads have claimed or are about to claim (see above), and no thread waits in the middle of
//! a block or before its last claim, so each wait ends. A helper the pool never starts holds no
//! block: the calling thread can run every stage alone (and then runs the helper, if rayon
//! hands it back, which finds nothing left to do). A block that panics still counts as done, so
//! the other threads finish and the panic reaches the caller when the region ends.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Spins before a waiting thread starts yielding its core (each spin is one `pause`, tens of
/// nanoseconds: about the time of a small block).
const SPINS_BEFORE_YIELD: u32 = 1 << 10;

/// The completion count of one stage, on a cache line of its own.
#[derive(Default)]
#[repr(align(64))]
struct StageSync {
    /// Blocks finished.
    done: AtomicUsize,
}

/// One stage: its work, its number of blocks, and where its blocks' claim flags start.
struct Stage<T> {
    work: T,
    blocks: usize,
    first_flag: usize,
}

/// A reusable list of stages, each a piece of work `T` split into a number of blocks.
pub(crate) struct Stages<T> {
    stages: Vec<Stage<T>>,
    sync: Vec<StageSync>,
    /// Per block of every stage, whether a thread has claimed it.
    claimed: Vec<AtomicBool>,
    /// Total blocks of all stages.
    flags: usize,
}

impl<T> Default for Stages<T> {
    fn default() -> Self {
        Self {
            stages: Vec::new(),
            sync: Vec::new(),
            claimed: Vec::new(),
            flags: 0,
        }
    }
}

impl<T: Sync> Stages<T> {
    /// Forgets every stage (keeps the buffers).
    pub fn clear(&mut self) {
        self.stages.clear();
        self.flags = 0;
    }

    /// Appends a stage of `blocks` blocks (none: the stage is skipped).
    pub fn push(&mut self, work: T, blocks: usize) {
        if blocks > 0 {
            self.stages.push(Stage {
                work,
                blocks,
                first_flag: self.flags,
            });
            self.flags += blocks;
        }
    }

    /// Runs every stage in order, `exec(work, block)` once for each block of each stage, on
    /// the calling thread and up to `threads − 1` helpers taken from the current rayon pool.
    /// Blocks of one stage may run at the same time, in any order and on any thread; every
    /// block of a stage finishes (and its writes are visible) before any block of the next
    /// one starts.
    pub fn run(&mut self, threads: usize, exec: impl Fn(&T, usize) + Sync) {
        let n = self.stages.len();
        self.sync.truncate(n);
        self.sync.resize_with(n, StageSync::default);
        for s in &mut self.sync {
            *s.done.get_mut() = 0;
        }
        self.claimed.truncate(self.flags);
        for c in &mut self.claimed {
            *c.get_mut() = false;
        }
        self.claimed.resize_with(self.flags, AtomicBool::default);
        let threads = threads.max(1);
        let widest = self.stages.iter().map(|s| s.blocks).max().unwrap_or(0);
        let helpers = threads.min(widest).saturating_sub(1);
        let region = Region {
            stages: &self.stages,
            sync: &self.sync,
            claimed: &self.claimed,
            current: AtomicUsize::new(0),
            threads,
            exec: &exec,
        };
        if helpers == 0 {
            region.participate();
            return;
        }
        tumble_broadphase::par::scope(|scope| {
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
    stages: &'a [Stage<T>],
    sync: &'a [StageSync],
    claimed: &'a [AtomicBool],
    /// Every stage below this one is finished (see the module docs).
    current: AtomicUsize,
    /// Threads of the pool: thread `i` starts each stage at block `i·blocks/threads`.
    threads: usize,
    exec: &'a F,
}

/// Counts the blocks a thread ran in one stage, and adds them to the stage's `done` when
/// dropped: once, after the thread's last claim (also when a block panics).
struct Finish<'a> {
    sync: &'a StageSync,
    blocks: usize,
    current: &'a AtomicUsize,
    stage: usize,
    ran: usize,
}

impl Drop for Finish<'_> {
    fn drop(&mut self) {
        if self.ran > 0
            && self.sync.done.fetch_add(self.ran, Ordering::AcqRel) + self.ran == self.blocks
        {
            self.current.fetch_max(self.stage + 1, Ordering::Release);
        }
    }
}

impl<T, F: Fn(&T, usize)> Region<'_, T, F> {
    /// Runs blocks of every stage from the first unfinished one to the end, waiting at the end
    /// of each stage until all its blocks are done.
    fn participate(&self) {
        // The same pool thread starts at the same place in every stage of every region.
        let me = tumble_broadphase::par::current_thread_index().unwrap_or(0) % self.threads;
        let mut stage = self.current.load(Ordering::Acquire);
        while let (Some(st), Some(sync)) = (self.stages.get(stage), self.sync.get(stage)) {
            let blocks = st.blocks;
            let flags = self.claimed.get(st.first_flag..st.first_flag + blocks);
            let flags = flags.unwrap_or_default();
            // Relaxed: the claim orders nothing; visibility comes from `done`.
            let claim = |b: usize| {
                flags
                    .get(b)
                    .is_some_and(|f| !f.swap(true, Ordering::Relaxed))
            };
            let mut finish = Finish {
                sync,
                blocks,
                current: &self.current,
                stage,
                ran: 0,
            };
            let mut run = |b: usize| {
                finish.ran += 1;
                (self.exec)(&st.work, b);
            };
            let start = me * blocks / self.threads;
            // Forward from the start (wrapping), then backward from just before it.
            let mut b = start;
            while claim(b) {
                run(b);
                b = if b + 1 == blocks { 0 } else { b + 1 };
            }
            let mut b = start;
            loop {
                b = if b == 0 { blocks - 1 } else { b - 1 };
                if !claim(b) {
                    break;
                }
                run(b);
            }
            drop(finish);
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

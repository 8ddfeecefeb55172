//! The data-parallel toolkit of Tumble's crates (this one and the engine): with the `parallel`
//! feature, rayon's (its prelude and functions, re-exported); without it, sequential stand-ins
//! of the same names that run everything on the calling thread, in item order.
//!
//! The parallel code gives the same results on any number of threads, so the stand-ins, which
//! behave as a one-thread pool, give the results of the `parallel` build. They are a small
//! subset of rayon: what the crates call, with rayon's signatures where they differ from std's
//! (`par_iter`, `with_min_len`, `collect_into_vec`, `par_extend`, `par_sort_unstable_by`,
//! `join`, `scope`, ...). Rayon's `fold(identity, f)` and `reduce(identity, op)` would clash
//! with `Iterator::fold` and `Iterator::reduce`: the code calls them as
//! [`par_fold`](prelude::ParFoldReduce::par_fold) and
//! [`par_reduce`](prelude::ParFoldReduce::par_reduce), rayon's methods under other names in
//! the `parallel` build, and a fold of every item into one accumulator without it.
//!
//! Internal plumbing shared with the engine, not a stable interface.

#[cfg(feature = "parallel")]
pub use rayon::{
    current_num_threads, current_thread_index, join, join_context, scope, yield_now, FnContext,
    Scope, Yield,
};

#[cfg(not(feature = "parallel"))]
pub use sequential::{
    current_num_threads, current_thread_index, join, join_context, scope, yield_now, FnContext,
    Scope, Yield,
};

/// The traits behind the parallel iterator methods: rayon's prelude, or the sequential
/// stand-ins; and [`ParFoldReduce`](prelude::ParFoldReduce) in both builds.
pub mod prelude {
    #[cfg(feature = "parallel")]
    pub use rayon::prelude::*;

    #[cfg(not(feature = "parallel"))]
    pub use super::sequential::{
        CollectIntoVec, IntoParallelIterator, IntoParallelRefIterator, IntoParallelRefMutIterator,
        ParallelExtend, ParallelSlice, ParallelSliceMut, SplitLength,
    };

    /// Rayon's `fold(identity, f)` and `reduce(identity, op)` under names that std's
    /// `Iterator` does not have.
    #[cfg(feature = "parallel")]
    pub trait ParFoldReduce: rayon::iter::ParallelIterator {
        /// Rayon's `fold`: items folded into accumulators, each started by `identity()`.
        #[inline]
        fn par_fold<T, ID, F>(self, identity: ID, fold_op: F) -> rayon::iter::Fold<Self, ID, F>
        where
            T: Send,
            ID: Fn() -> T + Sync + Send,
            F: Fn(T, Self::Item) -> T + Sync + Send,
        {
            self.fold(identity, fold_op)
        }

        /// Rayon's `reduce`: the items combined by `op`, each group started by `identity()`.
        #[inline]
        fn par_reduce<ID, OP>(self, identity: ID, op: OP) -> Self::Item
        where
            ID: Fn() -> Self::Item + Sync + Send,
            OP: Fn(Self::Item, Self::Item) -> Self::Item + Sync + Send,
        {
            self.reduce(identity, op)
        }
    }

    #[cfg(feature = "parallel")]
    impl<I: rayon::iter::ParallelIterator> ParFoldReduce for I {}

    /// Rayon's `fold(identity, f)` and `reduce(identity, op)` on one thread: a single group.
    #[cfg(not(feature = "parallel"))]
    pub trait ParFoldReduce: Iterator + Sized {
        /// Every item folded into one accumulator started by `identity()`, as the one item
        /// of the result.
        #[inline]
        fn par_fold<T, ID, F>(self, identity: ID, fold_op: F) -> std::iter::Once<T>
        where
            ID: Fn() -> T,
            F: FnMut(T, Self::Item) -> T,
        {
            std::iter::once(self.fold(identity(), fold_op))
        }

        /// The items combined by `op` in order, starting from `identity()`.
        #[inline]
        fn par_reduce<ID, OP>(self, identity: ID, op: OP) -> Self::Item
        where
            ID: Fn() -> Self::Item,
            OP: FnMut(Self::Item, Self::Item) -> Self::Item,
        {
            self.fold(identity(), op)
        }
    }

    #[cfg(not(feature = "parallel"))]
    impl<I: Iterator> ParFoldReduce for I {}
}

/// The stand-ins: rayon's names on std's iterators and the calling thread.
#[cfg(not(feature = "parallel"))]
mod sequential {
    use std::marker::PhantomData;

    /// Always 1: the calling thread does everything.
    #[inline]
    pub fn current_num_threads() -> usize {
        1
    }

    /// `Some(0)`: the calling thread is the one thread of the "pool", so code that hands work
    /// to a pool when called from outside one runs it in place.
    #[inline]
    pub fn current_thread_index() -> Option<usize> {
        Some(0)
    }

    /// Runs `a`, then `b`.
    #[inline]
    pub fn join<A, B, RA, RB>(a: A, b: B) -> (RA, RB)
    where
        A: FnOnce() -> RA,
        B: FnOnce() -> RB,
    {
        let ra = a();
        (ra, b())
    }

    /// What [`join_context`] tells its closures: never migrated.
    #[derive(Debug)]
    pub struct FnContext(());

    impl FnContext {
        /// Always false: both closures run on the calling thread.
        #[inline]
        pub fn migrated(&self) -> bool {
            false
        }
    }

    /// Runs `a`, then `b`, each told it was not migrated.
    #[inline]
    pub fn join_context<A, B, RA, RB>(a: A, b: B) -> (RA, RB)
    where
        A: FnOnce(FnContext) -> RA,
        B: FnOnce(FnContext) -> RB,
    {
        let ra = a(FnContext(()));
        (ra, b(FnContext(())))
    }

    /// The scope of [`scope`]: spawned work runs at once, on the calling thread.
    #[derive(Debug)]
    pub struct Scope<'scope>(PhantomData<&'scope ()>);

    impl<'scope> Scope<'scope> {
        /// Runs `body` now.
        #[inline]
        pub fn spawn<F: FnOnce(&Scope<'scope>) + 'scope>(&self, body: F) {
            body(self)
        }
    }

    /// Runs `op` with a [`Scope`].
    #[inline]
    pub fn scope<'scope, OP, R>(op: OP) -> R
    where
        OP: FnOnce(&Scope<'scope>) -> R,
    {
        op(&Scope(PhantomData))
    }

    /// What [`yield_now`] did (rayon's `Yield`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Yield {
        /// Another job ran (never here).
        Executed,
        /// There was nothing else to do.
        Idle,
    }

    /// `None`, as rayon's `yield_now` outside a pool: there is no other work to run.
    #[inline]
    pub fn yield_now() -> Option<Yield> {
        None
    }

    /// `into_par_iter`: the std iterator.
    pub trait IntoParallelIterator: IntoIterator + Sized {
        /// The items in order.
        #[inline]
        fn into_par_iter(self) -> Self::IntoIter {
            self.into_iter()
        }
    }

    impl<C: IntoIterator> IntoParallelIterator for C {}

    /// `par_iter`: the std iterator over references.
    pub trait IntoParallelRefIterator<'data> {
        /// The iterator over `&'data` items.
        type Iter: Iterator;
        /// The items by reference, in order.
        fn par_iter(&'data self) -> Self::Iter;
    }

    impl<'data, C: ?Sized + 'data> IntoParallelRefIterator<'data> for C
    where
        &'data C: IntoIterator,
    {
        type Iter = <&'data C as IntoIterator>::IntoIter;
        #[inline]
        fn par_iter(&'data self) -> Self::Iter {
            self.into_iter()
        }
    }

    /// `par_iter_mut`: the std iterator over mutable references.
    pub trait IntoParallelRefMutIterator<'data> {
        /// The iterator over `&'data mut` items.
        type Iter: Iterator;
        /// The items by mutable reference, in order.
        fn par_iter_mut(&'data mut self) -> Self::Iter;
    }

    impl<'data, C: ?Sized + 'data> IntoParallelRefMutIterator<'data> for C
    where
        &'data mut C: IntoIterator,
    {
        type Iter = <&'data mut C as IntoIterator>::IntoIter;
        #[inline]
        fn par_iter_mut(&'data mut self) -> Self::Iter {
            self.into_iter()
        }
    }

    /// `par_chunks`: `chunks`.
    pub trait ParallelSlice<T> {
        /// The slice in chunks of `size` (the last one possibly shorter).
        fn par_chunks(&self, size: usize) -> std::slice::Chunks<'_, T>;
    }

    impl<T> ParallelSlice<T> for [T] {
        #[inline]
        fn par_chunks(&self, size: usize) -> std::slice::Chunks<'_, T> {
            self.chunks(size)
        }
    }

    /// `par_chunks_mut` and the unstable sorts: std's.
    pub trait ParallelSliceMut<T> {
        /// The slice in mutable chunks of `size` (the last one possibly shorter).
        fn par_chunks_mut(&mut self, size: usize) -> std::slice::ChunksMut<'_, T>;
        /// `sort_unstable_by`.
        fn par_sort_unstable_by<F>(&mut self, compare: F)
        where
            F: FnMut(&T, &T) -> std::cmp::Ordering;
        /// `sort_unstable_by_key`.
        fn par_sort_unstable_by_key<K: Ord, F>(&mut self, key: F)
        where
            F: FnMut(&T) -> K;
    }

    impl<T> ParallelSliceMut<T> for [T] {
        #[inline]
        fn par_chunks_mut(&mut self, size: usize) -> std::slice::ChunksMut<'_, T> {
            self.chunks_mut(size)
        }
        #[inline]
        fn par_sort_unstable_by<F>(&mut self, compare: F)
        where
            F: FnMut(&T, &T) -> std::cmp::Ordering,
        {
            self.sort_unstable_by(compare)
        }
        #[inline]
        fn par_sort_unstable_by_key<K: Ord, F>(&mut self, key: F)
        where
            F: FnMut(&T) -> K,
        {
            self.sort_unstable_by_key(key)
        }
    }

    /// Rayon's split-length hints: nothing to split here.
    pub trait SplitLength: Iterator + Sized {
        /// The iterator itself.
        #[inline]
        fn with_min_len(self, _min: usize) -> Self {
            self
        }
        /// The iterator itself.
        #[inline]
        fn with_max_len(self, _max: usize) -> Self {
            self
        }
    }

    impl<I: Iterator> SplitLength for I {}

    /// `collect_into_vec` and `unzip_into_vecs`: the vectors replaced by the items, their
    /// allocations reused.
    pub trait CollectIntoVec: Iterator + Sized {
        /// Replaces the contents of `out` by the items, in order.
        #[inline]
        fn collect_into_vec(self, out: &mut Vec<Self::Item>) {
            out.clear();
            out.extend(self);
        }

        /// Replaces the contents of `left` and `right` by the items' halves, in order.
        #[inline]
        fn unzip_into_vecs<A, B>(self, left: &mut Vec<A>, right: &mut Vec<B>)
        where
            Self: Iterator<Item = (A, B)>,
        {
            left.clear();
            right.clear();
            for (a, b) in self {
                left.push(a);
                right.push(b);
            }
        }
    }

    impl<I: Iterator> CollectIntoVec for I {}

    /// `par_extend`: `extend`.
    pub trait ParallelExtend<T> {
        /// Appends the items, in order.
        fn par_extend<I: IntoIterator<Item = T>>(&mut self, items: I);
    }

    impl<T> ParallelExtend<T> for Vec<T> {
        #[inline]
        fn par_extend<I: IntoIterator<Item = T>>(&mut self, items: I) {
            self.extend(items)
        }
    }
}

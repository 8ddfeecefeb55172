//! # tumble-broadphase
//!
//! Finds the pairs of proxies whose AABBs overlap, so the narrow phase only sees those.
//! Every structure reports exactly the pairs a brute-force test of all pairs reports.

#![warn(missing_docs)]

pub use tumble_narrowphase::{math, Aabb};

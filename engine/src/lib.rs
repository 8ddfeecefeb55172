//! # Tumble
//!
//! A deterministic, fixed-step rigid-body physics engine. This crate is the one users depend on;
//! it re-exports the narrow phase ([`narrowphase`]) and the broad phase ([`broadphase`]).

#![warn(missing_docs)]

pub use tumble_broadphase as broadphase;
pub use tumble_narrowphase as narrowphase;
pub use tumble_narrowphase::math;

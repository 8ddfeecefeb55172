//! Shared pieces of the peer harness: the seeded random recipe of the scene definitions
//! (`shared/peers/rapier-bench/README.md`, "Common definitions"), timing statistics and the
//! one-line JSON output of both binaries.

pub mod json;
pub mod recipe;
pub mod stats;

/// Versions of the measured crates, read from this crate's Cargo.lock by the build script.
pub const RAPIER_VERSION: &str = env!("PEERS_RAPIER3D_VERSION");
/// See [`RAPIER_VERSION`].
pub const PARRY_VERSION: &str = env!("PEERS_PARRY3D_VERSION");

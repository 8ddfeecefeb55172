//! The checks behind the fuzz targets of `/fuzz` (cargo-fuzz, libFuzzer) and the replay test
//! `tests/tests/fuzz_replay.rs`: each `check_*` takes raw bytes, builds a structured case
//! with [`arbitrary`], runs the code under test and **panics** when an oracle disagrees, so a
//! fuzz target is one line and every corpus or regression file replays through the same code.
//!
//! | check | target | what is checked |
//! |---|---|---|
//! | [`check_shapes`] | `shapes` | every constructor on any bits: accepts exactly what its doc accepts, keeps its invariants |
//! | [`check_narrowphase`] | `narrowphase` | `intersection_test` vs `contact` vs support-function SAT oracle, manifold conventions, minimal translation |
//! | [`check_cuboid_cuboid`] | `cuboid_cuboid` | the same on two boxes, where the corner-based 15-axis SAT is exact |
//! | [`check_broadphase`] | `broadphase` | four structures vs an all-pairs model under arbitrary insert/move/remove/batch/bad input, `validate()` |
//! | [`check_world`] | `world` | arbitrary world commands, `World::validate` after each, snapshot round trips |
//! | [`check_clock`] | `clock` | any `dt`, `max_frame_time`, `max_steps_per_frame`, `prediction_distance`: accepted iff within bounds; `advance` of any frame bounded, time accounted for, events and state equal to stepping |
//! | [`check_snapshot`] | `snapshot` | `World::restore` on arbitrary and mutated bytes: an edited snapshot is refused by its checksum; resealed, error or a valid world, never a panic |
//! | [`check_joint_graph`] | `joint_graph` | arbitrary joints between live, stale and equal handles with any numbers, body and joint removal, snapshots: typed refusals that change nothing, `validate()`, finite poses |

mod broad;
mod clock;
pub mod input;
mod joints;
mod narrow;
pub mod oracle;
mod shapes;
mod world;

pub use broad::check_broadphase;
pub use clock::check_clock;
pub use joints::{check_joint_graph, check_joint_graph_relaxed};
pub use narrow::{check_cuboid_cuboid, check_narrowphase, check_pair, skip_open_bugs, PairCase};
pub use shapes::check_shapes;
pub use world::{check_snapshot, check_world, seal_snapshot};

/// A check: raw fuzz bytes in, a panic when an oracle disagrees.
pub type Check = fn(&[u8]);

/// Every check with its fuzz target's name (the folder names under `fuzz/corpus/`).
pub const TARGETS: [(&str, Check); 8] = [
    ("shapes", check_shapes),
    ("narrowphase", check_narrowphase),
    ("cuboid_cuboid", check_cuboid_cuboid),
    ("broadphase", check_broadphase),
    ("world", check_world),
    ("snapshot", check_snapshot),
    ("clock", check_clock),
    ("joint_graph", check_joint_graph),
];

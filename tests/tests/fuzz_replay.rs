//! Replays every file of `fuzz/corpus/<target>/` and `fuzz/regressions/<target>/` through the
//! same check the fuzz target runs (`tumble_tests::fuzz_checks`), so the fuzzers' coverage is
//! part of the ordinary test suite and a fixed crash stays fixed.
//!
//! A counting global allocator records the largest single allocation of the current thread:
//! restoring any snapshot input must never ask for more than a bound proportional to the
//! input (a length read from the bytes is never trusted).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::path::{Path, PathBuf};
use tumble::World;
use tumble_tests::fuzz_checks::TARGETS;

/// The system allocator, recording the largest request of each thread.
struct Tracking;

thread_local! {
    static LARGEST: Cell<usize> = const { Cell::new(0) };
}

fn record(size: usize) {
    let _ = LARGEST.try_with(|l| l.set(l.get().max(size)));
}

unsafe impl GlobalAlloc for Tracking {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        record(layout.size());
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        record(new_size);
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static GLOBAL: Tracking = Tracking;

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz")
}

/// The files of `fuzz/<kind>/<target>/`, sorted (none when the folder is missing).
fn inputs(kind: &str, target: &str) -> Vec<PathBuf> {
    let Ok(dir) = std::fs::read_dir(fuzz_dir().join(kind).join(target)) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = dir
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

/// Runs every stored input of `target`; returns how many ran.
fn replay(target: &str) -> usize {
    let base = target.trim_start_matches("open/");
    let check = TARGETS
        .iter()
        .find(|(name, _)| *name == base)
        .map(|(_, f)| *f)
        .expect("unknown target");
    let mut n = 0;
    let kinds: &[&str] = if base == target {
        &["corpus", "regressions"]
    } else {
        &["regressions"]
    };
    for kind in kinds {
        for file in inputs(kind, target) {
            let data = std::fs::read(&file).expect("unreadable fuzz input");
            let outcome = std::panic::catch_unwind(|| check(&data));
            assert!(
                outcome.is_ok(),
                "{target}: {} fails its check",
                file.display()
            );
            n += 1;
        }
    }
    let corpus = fuzz_dir().join("corpus").join(target);
    assert!(
        n > 0 || !corpus.exists(),
        "{target}: corpus folder exists but nothing replayed"
    );
    n
}

#[test]
fn every_target_has_a_corpus_folder_or_none_at_all() {
    for (name, _) in TARGETS {
        let corpus = fuzz_dir().join("corpus").join(name);
        if corpus.exists() {
            assert!(corpus.is_dir(), "{} is not a folder", corpus.display());
        }
    }
}

/// Inputs of open (reported, unfixed) bugs in `fuzz/regressions/open/<target>/`: run with
/// `--ignored` to see whether a fix landed; then move them up to `fuzz/regressions/<target>/`.
#[test]
#[ignore = "open bugs: fails until the fixes named in tests/tests/regressions_*.rs land"]
fn replay_open_regressions() {
    for (name, _) in TARGETS {
        replay(&format!("open/{name}"));
    }
}

#[test]
fn replay_shapes() {
    replay("shapes");
}

#[test]
fn replay_narrowphase() {
    replay("narrowphase");
}

#[test]
fn replay_cuboid_cuboid() {
    replay("cuboid_cuboid");
}

#[test]
fn replay_broadphase() {
    replay("broadphase");
}

#[test]
fn replay_world() {
    replay("world");
}

#[test]
fn replay_clock() {
    replay("clock");
}

#[test]
fn replay_joint_graph() {
    replay("joint_graph");
}

/// As [`replay_snapshot_with_bounded_allocation`], with each stored input behind a header of
/// the current format whose length and checksum match it, so that the decoder reads it.
#[test]
fn sealed_snapshot_inputs_allocate_within_bounds() {
    let mut lying = vec![0xff; 64]; // every length prefix says "huge"
    lying.extend_from_slice(&[0x01; 8]);
    let stored: Vec<Vec<u8>> = ["corpus", "regressions"]
        .iter()
        .flat_map(|k| inputs(k, "snapshot"))
        .map(|f| std::fs::read(f).expect("unreadable fuzz input"))
        .collect();
    for data in stored.iter().chain(std::iter::once(&lying)) {
        let bytes = tumble_tests::fuzz_checks::seal_snapshot(data);
        LARGEST.with(|l| l.set(0));
        let refused = World::restore(&bytes).is_err();
        let largest = LARGEST.with(|l| l.get());
        let bound = (1 << 20) + 64 * bytes.len();
        assert!(
            !refused || largest <= bound,
            "refused input of {} B: largest single allocation {largest} B exceeds {bound} B",
            bytes.len()
        );
    }
}

/// Every snapshot input replays through its check; and `World::restore` of each input's raw
/// bytes (as is, and after a valid header) that fails allocates at most 1 MiB plus 64 times
/// the input in one request (measured on this thread only): a refused snapshot never
/// allocated from a length it read.
#[test]
fn replay_snapshot_with_bounded_allocation() {
    replay("snapshot");
    let mut lying = b"TUMBLSNP\x01\x00\x00\x00".to_vec();
    lying.extend_from_slice(&[0xff; 64]); // every length prefix says "huge"
    let stored: Vec<Vec<u8>> = ["corpus", "regressions"]
        .iter()
        .flat_map(|k| inputs(k, "snapshot"))
        .map(|f| std::fs::read(f).expect("unreadable fuzz input"))
        .collect();
    for data in stored.iter().chain(std::iter::once(&lying)) {
        let mut with_header = b"TUMBLSNP\x01\x00\x00\x00".to_vec();
        with_header.extend_from_slice(data);
        for bytes in [data, &with_header] {
            LARGEST.with(|l| l.set(0));
            let refused = World::restore(bytes).is_err();
            let largest = LARGEST.with(|l| l.get());
            let bound = (1 << 20) + 64 * bytes.len();
            assert!(
                !refused || largest <= bound,
                "refused input of {} B: largest single allocation {largest} B exceeds {bound} B",
                bytes.len()
            );
        }
    }
}

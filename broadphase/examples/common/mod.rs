//! What the broad-phase examples share.

/// CPU time (ns) used so far by every thread of this process (from /proc; 0 if unavailable),
/// so that figures stay meaningful on a loaded machine.
pub fn cpu_ns() -> u64 {
    let Ok(dir) = std::fs::read_dir("/proc/self/task") else {
        return 0;
    };
    dir.filter_map(|e| e.ok())
        .filter_map(|e| std::fs::read_to_string(e.path().join("schedstat")).ok())
        .filter_map(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .sum()
}

#!/usr/bin/env bash
# Runs every fuzz target (or those named after the time) for SECONDS each (default 60), one
# after the other, and prints executions and crashes per target.
#
#   fuzz/run.sh [SECONDS] [TARGET...]
#
# Toolchain: stable Rust only. `cargo install cargo-fuzz`, then `cargo fuzz build -s none`
# works on stable as is: `-s none` drops the sanitizer (AddressSanitizer needs nightly's -Z
# flags); libFuzzer's coverage instrumentation uses stable -C flags. Should a cargo-fuzz
# version still pass -Z flags, prefix the build with RUSTC_BOOTSTRAP=1. Panics (including
# integer overflow: the fuzz profile keeps overflow checks) are the crashes.
#
# Each target runs in libFuzzer's fork mode with -ignore_crashes=1 so one crash does not end
# the run: every crash input lands in fuzz/artifacts/<target>/. Replay one with
#   cargo test -p tumble-tests --test fuzz_replay  (after copying it to fuzz/regressions/<target>/)
# Corpora grow in fuzz/corpus/<target>/; shrink them before committing with
#   cargo fuzz cmin -s none <target>
set -euo pipefail
cd "$(dirname "$0")"
SECONDS_PER_TARGET="${1:-60}"
shift || true
ALL=(shapes narrowphase cuboid_cuboid broadphase world snapshot clock joint_graph)
TARGETS=("${@:-${ALL[@]}}")
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-/work/target-fuzz/fuzz}"

# Skip the signatures of open (reported, unfixed) bugs so the fuzzers explore past them;
# their inputs are kept in fuzz/regressions/open/<target>/ (see fuzz_checks::skip_open_bugs).
export TUMBLE_FUZZ_SKIP_OPEN="${TUMBLE_FUZZ_SKIP_OPEN-1}"

cargo fuzz build -s none >/dev/null
BIN="$CARGO_TARGET_DIR/$(rustc -vV | sed -n 's/^host: //p')/release"

printf '%-12s %8s %12s %8s %8s\n' target seconds executions crashes corpus
for t in "${TARGETS[@]}"; do
    mkdir -p "corpus/$t" "artifacts/$t"
    log="artifacts/$t/last-run.log"
    # The snapshot target must never allocate much, whatever the bytes say.
    extra=()
    if [ "$t" = snapshot ]; then extra=(-malloc_limit_mb=64); fi
    "$BIN/$t" "corpus/$t" -fork=1 -ignore_crashes=1 -max_len=2048 -rss_limit_mb=1024 \
        -max_total_time="$SECONDS_PER_TARGET" -artifact_prefix="artifacts/$t/" \
        "${extra[@]}" >"$log" 2>&1 || true
    # Fork mode prints "#<execs>: cov: .. crash: <oom>/<timeout>/<crash> .." lines.
    execs=$(grep -o '^#[0-9]*:' "$log" | tail -1 | tr -d '#:' || true)
    crashes=$(grep -o 'oom/timeout/crash: [0-9]*/[0-9]*/[0-9]*' "$log" | tail -1 | awk -F/ '{print $NF}' || true)
    printf '%-12s %8s %12s %8s %8s\n' "$t" "$SECONDS_PER_TARGET" "${execs:-0}" "${crashes:-0}" \
        "$(find "corpus/$t" -type f | wc -l)"
done

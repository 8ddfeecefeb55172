#!/usr/bin/env bash
# Two threads against one: runs `stress` on one thread and then on two, in turn, for each
# scene, ROUNDS times (default 7), and prints each round's ratio (1-thread ms ÷ 2-thread ms,
# median ms per step of each run) and the median ratio per scene. The machine drifts between
# runs by more than a change usually moves the step, so only the per-round ratios mean much.
#
# Usage, from the project's root:
#   benches/scripts/threads.sh                       # balls 10 000, boxes 10 000, gas 100 000
#   ROUNDS=3 benches/scripts/threads.sh balls:10000
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build -q --release -p tumble-benches --bin stress
stress=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')/release/stress
rounds=${ROUNDS:-7}
cases=("$@")
((${#cases[@]})) || cases=(balls:10000 boxes:10000 gas:100000)
median_ms() { sed -n 's/^ms per step: median \([0-9.]*\).*/\1/p'; }
declare -A ratios=()
for ((r = 1; r <= rounds; r++)); do
  for case in "${cases[@]}"; do
    scene=${case%%:*} n=${case##*:}
    t1=$("$stress" --scene "$scene" --n "$n" --threads 1 --no-out 2>&1 | median_ms)
    t2=$("$stress" --scene "$scene" --n "$n" --threads 2 --no-out 2>&1 | median_ms)
    ratio=$(python3 -c "print('%.3f' % ($t1 / $t2))")
    echo "round $r $scene $n: 1 thread $t1 ms, 2 threads $t2 ms, ratio $ratio"
    ratios[$case]+="$ratio "
  done
done
for case in "${cases[@]}"; do
  python3 -c 'import sys,statistics as s; r=sorted(float(x) for x in sys.argv[2].split()); print("%-14s median %.2fx  (sorted: %s)" % (sys.argv[1], s.median(r), " ".join("%.2f" % x for x in r)))' "$case" "${ratios[$case]}"
done

#!/usr/bin/env bash
# A diagnostic, not a benchmark of record: parry-micro and Tumble's micro in turn, ROUNDS times
# (default 3), under three settings, printing per query the median over rounds of each engine's
# ns per call and of the per-round ratio parry ÷ Tumble:
#   4k     as `../shared/peers/compare micro` runs them (10⁶ pairs, 64–104 MB per set, 4 KB pages);
#   huge   the same, with glibc's allocator asked for huge pages (GLIBC_TUNABLES=
#          glibc.malloc.hugetlb=1, which madvises transparent huge pages on its large
#          allocations: both harnesses' pair arrays);
#   cache  5·10³ pairs and 200 timed passes, so that each set stays in the core's 2 MB L2 cache
#          (at most 560 KB: parry's pairs take 96 / 80 / 112 bytes, Tumble's 80 / 64 / 104) and
#          the figures compare computation alone.
# SETTINGS picks some of them (default "4k huge cache").
#
# Needs the peer harness built by ../shared/peers/compare (PEER_TARGET, default
# /tmp/tumble-peers), and transparent huge pages in `madvise` or `always` mode for `huge`.
#
# Usage, from the project's root:
#   benches/scripts/micro_settings.sh
#   ROUNDS=5 SETTINGS="4k cache" benches/scripts/micro_settings.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
parry=${PEER_TARGET:-/tmp/tumble-peers}/release/parry-micro
[[ -x $parry ]] || { echo "no $parry: run ../shared/peers/compare micro once first" >&2; exit 2; }
cargo build -q --release -p tumble-benches --bin micro
micro=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')/release/micro
rounds=${ROUNDS:-3}
settings=${SETTINGS:-4k huge cache}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for ((r = 1; r <= rounds; r++)); do
  for setting in $settings; do
    tunable="" size=()
    case $setting in
      4k) ;;
      huge) tunable="glibc.malloc.hugetlb=1" ;;
      cache) size=(--pairs 5000 --reps 200) ;;
      *) echo "unknown setting $setting (4k, huge, cache)" >&2; exit 2 ;;
    esac
    GLIBC_TUNABLES=$tunable "$parry" "${size[@]}" | sed "s/^/$r $setting /" >>"$out"
    GLIBC_TUNABLES=$tunable "$micro" --json "${size[@]}" | sed "s/^/$r $setting /" >>"$out"
  done
done
python3 - "$out" <<'PY'
import json, statistics, sys
runs = {}
for line in open(sys.argv[1]):
    r, setting, text = line.split(" ", 2)
    j = json.loads(text)
    runs.setdefault((j["query"], j["shapes"], setting), {}).setdefault(r, {})[j["engine"]] = j["ns_per_call_median"]
print("%-22s %-16s %-7s %9s %9s %8s  %s" % ("query", "shapes", "setting", "parry ns", "tumble ns", "ratio", "rounds"))
for (query, shapes, setting), by_round in sorted(runs.items()):
    both = [v for v in by_round.values() if "tumble" in v and len(v) == 2]
    peer = next(e for e in both[0] if e != "tumble")
    ratios = [v[peer] / v["tumble"] for v in both]
    med = lambda k: statistics.median(v[k] for v in both)
    print("%-22s %-16s %-7s %9.2f %9.2f %7.2fx  %s" % (query[:22], shapes, setting, med(peer), med("tumble"),
          statistics.median(ratios), " ".join("%.2f" % x for x in ratios)))
PY

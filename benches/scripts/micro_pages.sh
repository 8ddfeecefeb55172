#!/usr/bin/env bash
# A diagnostic, not a benchmark of record: how much of each micro figure at 10⁶ pairs is the
# machine's 4 KB pages. Runs parry-micro and Tumble's micro in turn, ROUNDS times (default 3),
# once as `compare micro` does (4 KB pages) and once with glibc's allocator asked for huge pages
# (GLIBC_TUNABLES=glibc.malloc.hugetlb=1, which madvises transparent huge pages on its large
# allocations: both harnesses' pair arrays), and prints per query the median over rounds of each
# engine's ns per call and of the per-round ratio parry ÷ Tumble, for both settings.
#
# Needs the peer harness built by ../shared/peers/compare (PEER_TARGET, default
# /tmp/tumble-peers) and transparent huge pages in `madvise` or `always` mode.
#
# Usage, from the project's root:
#   benches/scripts/micro_pages.sh
#   ROUNDS=5 benches/scripts/micro_pages.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
parry=${PEER_TARGET:-/tmp/tumble-peers}/release/parry-micro
[[ -x $parry ]] || { echo "no $parry: run ../shared/peers/compare micro once first" >&2; exit 2; }
cargo build -q --release -p tumble-benches --bin micro
micro=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')/release/micro
rounds=${ROUNDS:-3}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for ((r = 1; r <= rounds; r++)); do
  for pages in 4k huge; do
    tunable=""
    [[ $pages == huge ]] && tunable="glibc.malloc.hugetlb=1"
    GLIBC_TUNABLES=$tunable "$parry" | sed "s/^/$r $pages /" >>"$out"
    GLIBC_TUNABLES=$tunable "$micro" --json | sed "s/^/$r $pages /" >>"$out"
  done
done
python3 - "$out" <<'EOF'
import json, statistics, sys
runs = {}
for line in open(sys.argv[1]):
    r, pages, text = line.split(" ", 2)
    j = json.loads(text)
    runs.setdefault((j["query"], j["shapes"], pages), {}).setdefault(r, {})[j["engine"]] = j["ns_per_call_median"]
print("%-22s %-16s %-5s %9s %9s %8s" % ("query", "shapes", "pages", "parry ns", "tumble ns", "ratio"))
for (query, shapes, pages), by_round in sorted(runs.items()):
    both = [v for v in by_round.values() if "tumble" in v and len(v) == 2]
    med = lambda k: statistics.median(v[k] for v in both)
    ratio = statistics.median(v[next(e for e in v if e != "tumble")] / v["tumble"] for v in both)
    parry = med(next(e for e in both[0] if e != "tumble"))
    print("%-22s %-16s %-5s %9.2f %9.2f %7.2fx" % (query[:22], shapes, pages, parry, med("tumble"), ratio))
EOF

#!/usr/bin/env bash
# Tumble against rapier3d / parry3d on the same scenes: runs the peer harness of benches/peers/
# (`rapier-scenes`, `parry-kernels`) and Tumble's `stress` / `micro` in turn, A B A B ..., so
# that a drift in the machine's speed hits both engines alike, and prints for every round the
# ratio peer ÷ Tumble of the two medians (above 1: Tumble is faster), then the median ratio.
#
# Usage, from the repository's root:
#   benches/scripts/compare.sh                                # balls:10000 boxes:10000 gas:100000
#   benches/scripts/compare.sh balls:10000 gas:100000 --rounds 5
#   benches/scripts/compare.sh pyramid:20:--no-sleep joint_grid:2500 terrain:10000:--terrain-mesh
#   benches/scripts/compare.sh micro                          # narrow-phase queries, ns per call
#
# A case is SCENE:N[:FLAG...]. Both engines get `--scene SCENE --n N` (settle: also
# `--warmup 600`); the FLAGs after N go to rapier-scenes only (`--gas-mode sensor`), except
# `--no-sleep`, which both engines get, and `--terrain-mesh`, which makes the case the scene
# `terrain_mesh` for both. `micro` runs parry-kernels and `micro --json` and pairs their lines by query and
# pair set. Scenes (benches/peers/README.md): balls boxes gas pyramid stacks joint_grid terrain
# terrain_mesh tumbler settle. A scene that Tumble's `stress` does not know prints
# `tumble: missing SCENE` with the peer's figure alone, and the next case runs. Where the
# peer's line gives `bodies` and Tumble's count of dynamic bodies (its `bodies`, else its `n`)
# differs, the case is flagged: the same name, another scene.
#
# Options and environment:
#   --rounds N      rounds per case (default 3)
#   TUMBLE_ARGS     extra flags for Tumble's stress, e.g. "--threads 1" (stress runs on every
#                   core by default; rapier-scenes on one thread); stress gets --no-out unless
#                   these flags name --out or --no-out
#   PEER_TARGET     cargo target folder of the peer harness (default target/peers, or
#                   target/peers-FEATURES with PEER_FEATURES)
#   PEER_FEATURES   cargo features of the peer harness, e.g. "parallel" (then also give
#                   `:--parallel` to the cases that should use it)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"

rounds=3
cases=()
while (($#)); do
  case $1 in
    --rounds)
      [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || { echo "compare: --rounds needs a positive integer" >&2; exit 2; }
      rounds=$2; shift 2 ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "compare: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) cases+=("$1"); shift ;;
  esac
done
((${#cases[@]})) || cases=(balls:10000 boxes:10000 gas:100000)

peer_target=${PEER_TARGET:-$root/target/peers}
peer_features=()
if [[ -n ${PEER_FEATURES:-} ]]; then
  peer_features=(--features "$PEER_FEATURES")
  # A build with other features keeps its own folder, so that the two do not rebuild each other.
  [[ -z ${PEER_TARGET:-} ]] && peer_target=$root/target/peers-${PEER_FEATURES//[^a-z0-9]/-}
fi
echo "building the peer harness (benches/peers: rapier3d, parry3d) into $peer_target ..." >&2
cargo build -q --release --locked --manifest-path benches/peers/Cargo.toml \
  --target-dir "$peer_target" "${peer_features[@]}" >&2
echo "building tumble-benches (stress, micro) ..." >&2
cargo build -q --release -p tumble-benches --bin stress --bin micro >&2
target_dir=$(cargo metadata --format-version 1 --no-deps |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
stress=$target_dir/release/stress
micro=$target_dir/release/micro
# stress writes no CSV or plot unless TUMBLE_ARGS says where (--out) or already says --no-out.
no_out=(--no-out)
[[ " ${TUMBLE_ARGS:-} " =~ \ --(no-)?out[\ =] ]] && no_out=()
rapier=$peer_target/release/rapier-scenes
parry=$peer_target/release/parry-kernels

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Runs a command; its last JSON line goes to stdout, its stderr to $work/err. Fails when the
# command fails or prints no JSON line.
last_json() {
  local out
  out=$("$@" 2>"$work/err") || return 1
  printf '%s\n' "$out" | grep '^{' | tail -n 1 | grep . || return 1
}
first_error() { grep -m 1 -i 'error' "$work/err" || tail -n 1 "$work/err" || true; }

# Summary of one case: the peer's and Tumble's JSON lines (one per round, in two files).
summarise_scene() { # label peer.jsonl tumble.jsonl note
  python3 - "$@" <<'PY'
import json, statistics, sys

label, peer_file, tumble_file, note = sys.argv[1:5]
def lines(path):
    try:
        with open(path) as f:
            return [json.loads(l) for l in f if l.startswith("{")]
    except FileNotFoundError:
        return []
peer, tumble = lines(peer_file), lines(tumble_file)
ms = lambda runs: [float(r["ms_per_step_median"]) for r in runs]
w = max(44, len(label) + 25)
print("%-*s %10s %10s   %s" % (w, label + " (ms per step, median)", "rapier", "tumble", "rapier/tumble"))
if not peer:
    print("%-*s %s" % (w, "", note or "rapier: no result"))
    sys.exit()
if not tumble:
    print("%-*s %10.4f %10s   %s" % (w, "", statistics.median(ms(peer)), "-", note or "tumble: no result"))
    sys.exit()
if min(ms(tumble)) <= 0.0:
    # A scene asleep in Tumble steps below the timer's 0.1 µs: no ratio to take.
    print("%-*s %10.4f %10.4f   no ratio: Tumble's median step is 0 ms (every body asleep)" % (
        w, "", statistics.median(ms(peer)), statistics.median(ms(tumble))))
else:
    ratios = [a / b for a, b in zip(ms(peer), ms(tumble))]
    print("%-*s %10.4f %10.4f   %6.2fx  (each round: %s)" % (
        w, "", statistics.median(ms(peer)), statistics.median(ms(tumble)),
        statistics.median(ratios), " ".join("%.2f" % r for r in ratios)))
if note:
    print("%-*s %s" % (w, "", note))
# Dynamic bodies: the peer's `bodies` (scenes beyond balls, boxes and gas), Tumble's `bodies`
# or else its `n` (which counts the dynamic bodies).
nb_peer = peer[-1].get("bodies")
nb_tumble = tumble[-1].get("bodies", tumble[-1].get("n"))
if nb_peer is not None and nb_tumble is not None and nb_peer != nb_tumble:
    print("%-*s scenes differ: rapier has %s bodies, tumble %s" % (w, "", nb_peer, nb_tumble))
PY
}

summarise_micro() { # parry.jsonl micro.jsonl
  python3 - "$@" <<'PY'
import json, statistics, sys

def runs(path):
    out = {}
    with open(path) as f:
        for l in f:
            if l.startswith("{"):
                d = json.loads(l)
                if "query" in d:
                    out.setdefault((d["query"], d["shapes"]), []).append(float(d["ns_per_call_median"]))
    return out
peer, tumble = runs(sys.argv[1]), runs(sys.argv[2])
print("%-44s %10s %10s   %s" % ("micro (ns per call, median)", "parry", "tumble", "parry/tumble"))
for key, a in peer.items():
    label = "%s %s" % key
    b = tumble.get(key)
    if not b:
        print("%-44s %10.3f %10s   tumble: missing" % (label, statistics.median(a), "-"))
        continue
    r = [x / y for x, y in zip(a, b)]
    print("%-44s %10.3f %10.3f   %6.2fx  (each round: %s)" % (
        label, statistics.median(a), statistics.median(b), statistics.median(r),
        " ".join("%.2f" % x for x in r)))
PY
}

run_micro() {
  : >"$work/parry.jsonl"
  : >"$work/micro.jsonl"
  for ((i = 0; i < rounds; i++)); do
    if ! "$parry" >>"$work/parry.jsonl" 2>"$work/err"; then
      echo "micro: parry-kernels failed: $(first_error)"; return
    fi
    if ! "$micro" --json >>"$work/micro.jsonl" 2>"$work/err"; then
      echo "micro: tumble micro failed: $(first_error)"; return
    fi
  done
  summarise_micro "$work/parry.jsonl" "$work/micro.jsonl"
}

run_scene() { # case
  local case=$1 parts scene n flag note=""
  IFS=: read -r -a parts <<<"$case"
  scene=${parts[0]} n=${parts[1]:-}
  if [[ -z $scene || ! $n =~ ^[0-9]+$ ]]; then
    echo "compare: case '$case' is not SCENE:N[:FLAG...]" >&2; return
  fi
  local both=() peer_only=()
  for flag in "${parts[@]:2}"; do
    if [[ $flag == --terrain-mesh ]]; then
      scene=terrain_mesh
    elif [[ $flag == --no-sleep ]]; then
      both+=("$flag")
    else
      peer_only+=("$flag")
    fi
  done
  [[ $scene == settle ]] && both+=(--warmup 600)
  local label="$scene N=$n${both[*]:+ ${both[*]}}${peer_only[*]:+ ${peer_only[*]}}"
  : >"$work/peer.jsonl"
  : >"$work/tumble.jsonl"
  local line tumble_done=""
  for ((i = 0; i < rounds; i++)); do
    if ! line=$(last_json "$rapier" --scene "$scene" --n "$n" "${both[@]}" "${peer_only[@]}"); then
      note="rapier: failed on $label: $(first_error)"; break
    fi
    echo "$line" >>"$work/peer.jsonl"
    [[ -n $tumble_done ]] && continue
    # shellcheck disable=SC2086 # TUMBLE_ARGS is a list of flags
    if ! line=$(last_json "$stress" --scene "$scene" --n "$n" "${both[@]}" --json "${no_out[@]}" ${TUMBLE_ARGS:-}); then
      if grep -q -- "invalid value '$scene'" "$work/err"; then
        note="tumble: missing $scene"
      else
        note="tumble: failed on $label: $(first_error)"
      fi
      : >"$work/tumble.jsonl"
      tumble_done=1
      continue
    fi
    echo "$line" >>"$work/tumble.jsonl"
  done
  summarise_scene "$label" "$work/peer.jsonl" "$work/tumble.jsonl" "$note"
}

for case in "${cases[@]}"; do
  if [[ $case == micro ]]; then run_micro; else run_scene "$case"; fi
done

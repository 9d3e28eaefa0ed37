#!/bin/bash
# Runs on the device machine: arms of the engine (STONELAB_KNOBS) against Rapfi, in parallel.
set -u
D=target/dev
T=${T:-500}
N=${N:-200}
LIMIT=${LIMIT:-500}
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
nproc > "$OUT/nproc.txt"; lscpu > "$OUT/lscpu.txt" 2>&1
"$D/pbrain-rapfi" < /dev/null > "$OUT/rapfi-smoke.txt" 2>&1 <<<'ABOUT
END'
run() {
  local name=$1 knobs=$2 jobs=$3
  timeout "$LIMIT" "$D/stonelab" gomoku match --a "env STONELAB_KNOBS=$knobs $D/pbrain-stonelab" \
    --b "$D/pbrain-rapfi" --games "$N" --size 15 --turn-ms "$T" \
    --openings docs/matches/openings-15-freestyle.txt --record "$OUT/$name.jsonl" --jobs "$jobs" \
    > "$OUT/$name.log" 2>&1 &
}
IFS=';' read -ra ARMS <<< "${ARMS:-ctl::4;bundle:reduce_second,reduce_important,lmp_all,prune_nothing,improving:4}"
for a in "${ARMS[@]}"; do
  IFS=':' read -r name knobs jobs <<< "$a"
  run "$name" "$knobs" "$jobs"
done
wait
pkill -f pbrain- 2>/dev/null
for f in "$OUT"/*.jsonl; do
  python3 - "$f" <<'PY' || true
import json, sys
L = [json.loads(l) for l in open(sys.argv[1])][1:]
w = sum(1 for g in L if g.get("winner") == "a"); l = sum(1 for g in L if g.get("winner") == "b")
print(sys.argv[1].split("/")[-1], len(L), f"{w}-{len(L)-w-l}-{l}", round((w + (len(L)-w-l)/2) / max(1, len(L)), 3))
PY
done

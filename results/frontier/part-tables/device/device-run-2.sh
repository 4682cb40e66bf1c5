#!/bin/bash
# The second device check of 2026-11-27: the pass in pieces of parts against whole parts.
set -u
export PYTHONUNBUFFERED=1
D=.dev
{
for b in 5x40 6x8; do
  echo "## $b pass: base (d71beac) against pieces, 16 threads"
  timeout 60 python3 scripts/ab --pairs 3 base="KNIGHTSTOUR_GRID=pass $D/ks-base" pieces="KNIGHTSTOUR_GRID=pass $D/ks-new" -- $b --all-starts --method frontier | tail -4
done
echo "## 5x40 pass: whole parts against pieces, 16 threads"
timeout 40 python3 scripts/ab --pairs 3 parts="KNIGHTSTOUR_GRID=pass $D/ks-parts" pieces="KNIGHTSTOUR_GRID=pass $D/ks-new" -- 5x40 --all-starts --method frontier | tail -4
echo "## the pass in pieces on 1 to 16 threads: 5x40"
C=/tmp/curve2; mkdir -p $C
KNIGHTSTOUR_GRID=pass timeout 60 python3 scripts/thread-curve --binary $D/knightstour --loader $D/lib/ld-linux-x86-64.so.2 --lib-dir $D/lib --out $C --threads 16,8,4,2,1 --expect tours=16593591906902408341172628948946170674165699700436 --label 5x40-pass-pieces -- 5x40 --all-starts --method frontier --memory 60G | grep -v "^ *$"
tar czf $OUT/curve2.tgz -C /tmp curve2
echo "## 6x12, both ways, one run each, 16 threads"
timeout 60 python3 scripts/grid-methods --binary $D/ks-new --repeat 1 6x12
} 2>&1 | tee $OUT/device-log-2.txt

#!/bin/bash
# The device check of 2026-11-27 (late): the pass back with part tables on 16 threads.
set -u
export PYTHONUNBUFFERED=1
D=.dev
lscpu > $OUT/lscpu.txt
echo "nproc $(nproc)"
{
echo "## grid methods, new binary, 16 threads, median of 3"
timeout 150 python3 scripts/grid-methods --binary $D/ks-new --repeat 3 4x40 5x40 6x7 6x8 6x12
echo "## grid methods, new binary, 16 threads, one run"
timeout 100 python3 scripts/grid-methods --binary $D/ks-new --repeat 1 6x20
echo "## pass: base (d71beac) against new, alternating, median of 3"
echo "| board | grid | base s | new s | new/base | new's grid | grids |"
echo "|---|---|---:|---:|---:|---|---|"
timeout 100 python3 $D/ab.py 3 pass 6x8 6x12 5x40
echo "## the pass alone on 1 to 16 threads: 5x40"
C=/tmp/curve; mkdir -p $C
KNIGHTSTOUR_GRID=pass timeout 100 python3 scripts/thread-curve --binary $D/knightstour --loader $D/lib/ld-linux-x86-64.so.2 --lib-dir $D/lib --out $C --threads 16,8,4,2,1 --expect tours=16593591906902408341172628948946170674165699700436 --label 5x40-pass -- 5x40 --all-starts --method frontier --memory 60G | grep -v "^ *$"
cat $C/*.md
tar czf $OUT/curve.tgz -C /tmp curve
echo "## 6x7 all starts: enumerator against frontier (auto), 16 threads, 3 each"
for i in 1 2 3; do
  $D/ks-new count 6x7 --all-starts --method dfs --json --progress 0 | python3 -c "import json,sys; d=json.load(sys.stdin); print('dfs', d['seconds'], d['tours'])"
  $D/ks-new count 6x7 --all-starts --method frontier --json --progress 0 | python3 -c "import json,sys; d=json.load(sys.stdin); print('frontier', d['seconds'], d['tours'], d['grid_method'])"
done
} 2>&1 | tee $OUT/device-log.txt

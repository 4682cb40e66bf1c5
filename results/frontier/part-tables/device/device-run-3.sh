#!/bin/bash
# The third device check of 2026-11-27: the pass on 1 to 16 threads, now that it keeps to --threads.
set -u
export PYTHONUNBUFFERED=1
D=.dev
C=/tmp/curve3; mkdir -p $C
{
echo "## the pass on 1 to 16 threads (grid forced to the pass): 5x40"
KNIGHTSTOUR_GRID=pass timeout 70 python3 scripts/thread-curve --binary $D/knightstour --loader $D/lib/ld-linux-x86-64.so.2 --lib-dir $D/lib --out $C --threads 16,8,4,2,1 --expect tours=16593591906902408341172628948946170674165699700436 --label 5x40-pass -- 5x40 --all-starts --method frontier --memory 60G | grep -v "^ *$"
echo "## the same, 6x8"
KNIGHTSTOUR_GRID=pass timeout 70 python3 scripts/thread-curve --binary $D/knightstour --loader $D/lib/ld-linux-x86-64.so.2 --lib-dir $D/lib --out $C --threads 16,8,4,2,1 --expect tours=49929787608 --label 6x8-pass -- 6x8 --all-starts --method frontier --memory 60G | grep -v "^ *$"
tar czf $OUT/curve3.tgz -C /tmp curve3
} 2>&1 | tee $OUT/device-log-3.txt

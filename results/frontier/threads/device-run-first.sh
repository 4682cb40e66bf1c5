#!/bin/bash
# Device thread curve: 7x8 closed whole at 16..1 threads, 8x8 closed whole at 16, and 8x8 closed
# for 45 s at 8..1 threads (compared on the steps every run began).
set -u
D=.dev
L="--binary $D/knightstour --loader $D/lib/ld-linux-x86-64.so.2 --lib-dir $D/lib"
C=/tmp/c; rm -rf $C; mkdir -p $C
OUTDIR=${OUT:-/tmp/out}; mkdir -p $OUTDIR
export PYTHONUNBUFFERED=1
(date -u; lscpu; nproc; free -g; uname -a; df -h /tmp; cat /proc/self/status | grep -i -E 'rss|vm') > $C/machine.txt 2>&1
S=${SMALL:-}
if [ -n "$S" ]; then
  timeout 60 python3 scripts/thread-curve $L --out $C --threads 2,1 --expect closed_cycles=4542 --label small -- 6x6 --closed --start a1 --method frontier
  timeout 60 python3 scripts/thread-curve $L --out $C --threads 2,1 --time-limit 2 --label small-tl -- 7x8 --closed --start a1 --method frontier
else
  timeout 130 python3 scripts/thread-curve $L --out $C --threads 16,8,4,2,1 --expect closed_cycles=34524432316 --label 7x8-closed -- 7x8 --closed --start a1 --method frontier --memory 60G
  timeout 130 python3 scripts/thread-curve $L --out $C --threads 16 --expect closed_cycles=13267364410532 --label 8x8-closed-16 -- 8x8 --closed --start a1 --method frontier --memory 100G
  timeout 200 python3 scripts/thread-curve $L --out $C --threads 8,4,2,1 --time-limit 45 --label 8x8-closed-45s -- 8x8 --closed --start a1 --method frontier --memory 100G
fi
cat $C/*.md
tar czf $OUTDIR/curve.tgz -C /tmp c

#!/bin/bash
# The second command, on the same warm machine minutes after device-run-first.sh.
D=.dev; L="--binary $D/knightstour --loader $D/lib/ld-linux-x86-64.so.2 --lib-dir $D/lib"; C=/tmp/c2; rm -rf $C; mkdir -p $C; export PYTHONUNBUFFERED=1
timeout 60 python3 scripts/thread-curve $L --out $C --threads 1,2,4,8,16 --expect closed_cycles=34524432316 --label 7x8-closed-again -- 7x8 --closed --start a1 --method frontier --memory 60G | grep threads
timeout 130 python3 scripts/thread-curve $L --out $C --threads 8 --expect closed_cycles=13267364410532 --label 8x8-closed-8 -- 8x8 --closed --start a1 --method frontier --memory 100G | grep threads
timeout 185 python3 scripts/thread-curve $L --out $C --threads 4 --time-limit 170 --expect closed_cycles=13267364410532 --label 8x8-closed-4 -- 8x8 --closed --start a1 --method frontier --memory 100G | grep threads
cat $C/*.md; tar czf $OUT/curve2.tgz -C /tmp c2

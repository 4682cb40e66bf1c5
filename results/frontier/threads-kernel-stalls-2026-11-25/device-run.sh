#!/bin/bash
# Thread curve of the frontier engine on the lent 16-core machine (kernel-stalls build, 5c43686).
set -u
mkdir -p $OUT/c
L=.dev/lib
T="python3 scripts/thread-curve --binary .dev/knightstour --loader $L/ld-linux-x86-64.so.2 --lib-dir $L --out $OUT/c"
pack() { (cd $OUT && tar czf curve.tgz c); }
lscpu > $OUT/c/machine.txt; nproc; free -g
$T --threads 16,8,4,2,1 --expect closed_cycles=34524432316 --label 7x8-closed -- 7x8 --closed --start a1 --method frontier --memory 60G; pack
$T --threads 16 --time-limit 280 --expect closed_cycles=13267364410532 --label 8x8-closed-16 -- 8x8 --closed --start a1 --method frontier --memory 100G; pack
$T --threads 16 --expect tours=165575218320 --label 7x7-all-starts-16 -- 7x7 --all-starts --method frontier --memory 60G; pack
$T --threads 16,8,4,2,1 --time-limit 30 --label 8x8-closed-30s -- 8x8 --closed --start a1 --method frontier --memory 100G; pack
cat $OUT/c/*.md

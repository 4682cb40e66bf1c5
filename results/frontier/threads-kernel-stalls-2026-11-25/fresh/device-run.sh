#!/bin/bash
# The 1-thread 8x8 anomaly: on a fresh machine, 1 thread first, then 2 and 16 (30 s each).
set -u
mkdir -p $OUT/c
L=.dev/lib
T="python3 scripts/thread-curve --binary .dev/knightstour --loader $L/ld-linux-x86-64.so.2 --lib-dir $L --out $OUT/c"
cat /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/transparent_hugepage/defrag
grep -E "thp_fault_alloc|thp_fault_fallback " /proc/vmstat
$T --threads 1,2,16,1 --time-limit 30 --label 8x8-closed-30s-fresh -- 8x8 --closed --start a1 --method frontier --memory 100G
grep -E "thp_fault_alloc|thp_fault_fallback " /proc/vmstat
(cd $OUT && tar czf fresh.tgz c && rm -rf c)

#!/bin/bash
# Device run 2026-11-26: 8x7 all starts on 16 threads, the unpinned 8x7 sweep as a cross-check,
# and the bit kernels A/B on this CPU.
set -u
L=.dev/lib; LD="$L/ld-linux-x86-64.so.2 --library-path $L"
KT="$LD .dev/knightstour"
R=$OUT/r; mkdir -p $R
pack() { (cd $OUT && tar czf r.tgz r); }
lscpu > $R/machine.txt; nproc; free -g | head -2
grep -o -w bmi2 /proc/cpuinfo | head -1
/usr/bin/time -v timeout 200 $KT count 8x7 --all-starts --method frontier --threads 16 --memory 100G --progress 15 --json > $R/8x7-all-starts-t16.json 2> $R/8x7-all-starts-t16.log
echo "8x7 rc $?"; tail -3 $R/8x7-all-starts-t16.log; pack
/usr/bin/time -v timeout 150 $LD .dev/vector_cost_probe 8 7 1 16 > $R/8x7-unpinned-t16.txt 2> $R/8x7-unpinned-t16.log
echo "probe rc $?"; cat $R/8x7-unpinned-t16.txt; pack
P="portable=KNIGHTSTOUR_BIT_KERNEL=portable $KT"; B="bmi2=KNIGHTSTOUR_BIT_KERNEL=bmi2 $KT"
timeout 50 python3 scripts/ab --pairs 3 --out $R/ab-7x8-closed-t16.md "$P" "$B" -- 7x8 --closed --start a1 --method frontier --threads 16; pack
timeout 110 python3 scripts/ab --pairs 2 --out $R/ab-7x8-closed-t1.md "$P" "$B" -- 7x8 --closed --start a1 --method frontier --threads 1; pack
ls -la $R

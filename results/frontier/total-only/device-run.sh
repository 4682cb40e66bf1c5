#!/bin/bash
set -u
L=.dev/lib; LD="$L/ld-linux-x86-64.so.2 --library-path $L"
R=$OUT/r; mkdir -p $R
/usr/bin/time -v timeout 150 $LD .dev/knightstour count 8x7 --all-starts --total-only --threads 16 --memory 100G --progress 15 --json > $R/8x7-total-only-device-16-threads.json 2> $R/8x7-total-only-device-16-threads.log
echo rc=$?; grep -E "Elapsed|Maximum resident" $R/8x7-total-only-device-16-threads.log
python3 -c "import json; d=json.load(open('$R/8x7-total-only-device-16-threads.json')); print(d['tours'], d['seconds'], d['cpu_seconds'], d['classes_expanded'], d['bit_kernel'])"

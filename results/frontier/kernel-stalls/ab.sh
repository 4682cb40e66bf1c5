#!/bin/bash
# usage: ab.sh OLD NEW PAIRS ARGS...   alternating runs: build, wall s, CPU s, CPU ns/class, tours
old=$1; new=$2; pairs=$3; shift 3
for i in $(seq $pairs); do
  for b in $old $new; do
    j=$($b count "$@" --json --progress 0 2>/dev/null)
    python3 -c "import json,sys; d=json.loads(sys.argv[1]); print(sys.argv[2], round(d['seconds'],3), round(d['cpu_seconds'],2), round(d['cpu_seconds']/d['classes_expanded']*1e9,1), d.get('tours'))" "$j" $(basename $b)
  done
done

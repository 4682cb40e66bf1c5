#!/bin/bash
# usage: ab.sh OLD NEW PAIRS ARGS...   alternating runs, prints wall and CPU ns/class per run
old=$1; new=$2; pairs=$3; shift 3
for i in $(seq $pairs); do
  for b in $old $new; do
    j=$($b count "$@" --json --progress 0 2>/dev/null)
    python3 -c "import json,sys; d=json.loads(sys.argv[1]); print(sys.argv[2], round(d['seconds'],3), round(d.get('cpu_seconds'),3), d.get('classes_expanded'), round(d['cpu_seconds']/d['classes_expanded']*1e9), d.get('tours'), d.get('peak_anonymous_bytes'))" "$j" $(basename $b)
  done
done

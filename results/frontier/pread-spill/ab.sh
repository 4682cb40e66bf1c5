#!/bin/bash
# usage: ab.sh ROUNDS args...   alternates /tmp/kt-old and /tmp/kt-new
rounds=$1; shift
for r in $(seq 1 $rounds); do
  for b in old new; do
    rm -rf /tmp/ab/spill; mkdir -p /tmp/ab/spill
    /usr/bin/time -v /tmp/kt-$b "$@" --spill-dir /tmp/ab/spill --json > /tmp/ab/$b-$r.json 2> /tmp/ab/$b-$r.time
    python3 - "$b" "$r" <<'PY'
import json,sys,re
b,r=sys.argv[1],sys.argv[2]
j=json.load(open(f"/tmp/ab/{b}-{r}.json"))
t=open(f"/tmp/ab/{b}-{r}.time").read()
g=lambda k: re.search(k+r": (\S+)",t).group(1)
print(b,r,"count",j.get("closed_cycles") or j.get("tours"),"wall",round(j["seconds"],2),"cpu",round(j["cpu_seconds"],1),"ns/class",round(j["cpu_seconds"]/j["classes_expanded"]*1e9),"user",g("User time \\(seconds\\)"),"sys",g("System time \\(seconds\\)"),"maxrssMB",int(g("Maximum resident set size \\(kbytes\\)"))//1024,"minflt",g("Minor \\(reclaiming a frame\\) page faults"),"peak_anon_MB",j.get("peak_anonymous_bytes",0)//2**20, "spilledGB", round(j["spilled_bytes"]/1e9,2), flush=True)
PY
  done
done

#!/bin/bash
# board truth-classes; each calibration, old (e1) then new (e2), classes_expanded+classes_left over truth
declare -A T=([6x7]=65017783 [6x9]=301723490 [5x12]=20743157 [8x6]=146049291 [7x7]=901532271 [8x7]=4940000000)
for b in 5x12 6x7 8x6 6x9 7x7 8x7; do
  for c in 0.5 1 2 5 10; do
    line="$b cal=$c"
    for n in e1 e2; do
      /tmp/pgo/knightstour-$n estimate $b --all-starts --calibrate $c --progress 0 --json > j.json 2>/dev/null
      r=$(python3 -c "import json;d=json.load(open('j.json'));print('exact' if d['exact'] else '%.2f'%((d['classes_expanded']+d['classes_left'])/${T[$b]}))")
      line="$line $n=$r"
    done
    echo "$line"
  done
done

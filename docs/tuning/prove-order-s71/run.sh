#!/bin/bash
# run.sh SET ORDER MAXSEC OUT : prove each position of SET with --order ORDER
set=$1; order=$2; max=$3; out=$4
: > $out
while IFS=$'\t' read -r line size; do
  r=$(echo "$line" | /work/runs/s71/stonelab-ord gomoku prove --size 15 --attacker black --max-seconds $max --order $order --no-certificate --format json 2>/dev/null)
  echo "{\"line\":\"$line\",\"cert\":$size,\"r\":$r}" >> $out
done < $set

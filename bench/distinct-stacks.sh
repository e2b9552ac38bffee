#!/usr/bin/env bash
# How time and memory grow with the number of distinct pinned stacks:
#
#   bench/distinct-stacks.sh [RUNS]
#
# Makes (once, in bench/work/) 256 MB recordings with bench/make-large-recording.sh whose pins come
# from 3, 1,024 and 65,536 distinct stacks (BENCH_PINNED_STACKS), then runs
# `./vtscope analyze --format json` and `./vtscope analyze` (text) RUNS times each (default 3) on
# each, and prints the pinned events and sites vtscope reports, the median wall time, the median
# peak resident memory (GNU time) and the size of the JSON report.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
runs=${1:-3}
work="$root/bench/work"
mkdir -p "$work"
[ -x /usr/bin/time ] || { echo "bench: needs GNU time (/usr/bin/time) for peak memory" >&2; exit 9; }
command -v python3 >/dev/null || { echo "bench: needs python3 to read the JSON report" >&2; exit 9; }
"$root/vtscope" --version >/dev/null

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

echo "machine: $(nproc) CPUs; $runs runs each; vtscope: $("$root/vtscope" --version | head -n 1)"
printf '%-16s %10s %8s %-6s %9s %9s %12s\n' "distinct stacks" "pinned" "sites" format "median s" "RSS MiB" "report MiB"
for stacks in 3 1024 65536; do
  file="$work/stacks-$stacks.jfr"
  [ -s "$file" ] || BENCH_PINNED_STACKS=$stacks "$root/bench/make-large-recording.sh" 256 "$file" >&2
  cat "$file" >/dev/null
  for format in json text; do
    : >"$work/t.txt"
    for _ in $(seq "$runs"); do
      /usr/bin/time -f '%e %M' -a -o "$work/t.txt" "$root/vtscope" analyze -q --format "$format" "$file" >"$work/report.$format"
    done
    if [ "$format" = json ]; then
      read -r pinned sites < <(python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["pinned"]; print(p["events"], len(p["sites"]))' "$work/report.json")
    fi
    t=$(cut -d' ' -f1 "$work/t.txt" | median)
    m=$(cut -d' ' -f2 "$work/t.txt" | median)
    printf '%-16s %10s %8s %-6s %9.2f %9.0f %12.1f\n' "$stacks" "$pinned" "$sites" "$format" "$t" "$(echo "$m / 1024" | bc -l)" "$(echo "$(stat -c %s "$work/report.$format") / 1048576" | bc -l)"
  done
done

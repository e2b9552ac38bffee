#!/usr/bin/env bash
# The reading engine against the JDK's own tool, side by side in one run:
#
#   bench/reading.sh [RUNS]
#
# For each input, RUNS times (default 3), interleaved: `vtscope analyze --format json` (its own
# reader), `vtscope analyze --reader jdk --format json` (jdk.jfr.consumer), `jfr view
# pinned-threads` of the newest JDK, and the floor: bench/RecordWalk.java, a bare walk of every
# record by its size that reads only the pinned events' fields, on the launcher's JVM with the
# launcher's JVM flags. Inputs: a 1 GB and a 4 GB recording made by bench/make-large-recording.sh
# (made once, kept in bench/work/), a 1 GB one whose events come from 16,384 distinct stacks
# (constant pools half the file, as in a service's recording), a 1 GB one of the allocation-heavy
# shape (BENCH_SHAPE=allocation: JDK 25, allocation events with stacks dominating), the 125 KB
# sample samples/jdk21/pinning-synchronized.jfr, and 8 recordings of 128 MB at once (one vtscope
# command; `jfr view` and the floor take one file, so their 8 runs are summed). Prints, per input
# and tool, the median wall time, the median peak resident memory and CPU use (100% = one core),
# the ratio to `jfr view` and the ratio of its time to the floor's. BENCH_SIZES="1024 4096" changes
# the large sizes (MB), BENCH_MANY_SIZES="1024" those of the recordings with many stacks,
# BENCH_ALLOCATION_SIZES="1024" those of the allocation-heavy shape (an empty value leaves a kind
# out); BENCH_TOOLS="vtscope jfr-view floor" leaves out the JDK's reader, BENCH_EIGHT=0 the eight
# files and BENCH_SAMPLE=0 the sample.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
# shellcheck source=../tools/find-jdk.sh
. "$root/tools/find-jdk.sh"
runs=${1:-3}
sizes=${BENCH_SIZES-1024 4096}
many_sizes=${BENCH_MANY_SIZES-1024}
allocation_sizes=${BENCH_ALLOCATION_SIZES-1024}
read -r -a tools <<<"${BENCH_TOOLS:-vtscope vtscope-jdk jfr-view floor}"

[ -x /usr/bin/time ] || { echo "bench: needs GNU time (/usr/bin/time) for peak memory" >&2; exit 9; }
vt_find_java 21 javac || { echo "bench: needs a JDK 21+" >&2; exit 9; }
VT_JAVA_HOME_BIN=$(dirname "$VT_JAVA")
jfr="$VT_JAVA_HOME_BIN/jfr"
[ -x "$jfr" ] || { echo "bench: no jfr tool next to $VT_JAVA" >&2; exit 9; }
"$root/vtscope" --version >/dev/null

work="$root/bench/work"
mkdir -p "$work"
make() { # SIZE_MB FILE [REQUEST_STACKS] [SHAPE]
  [ -s "$2" ] || BENCH_REQUEST_STACKS=${3:-0} BENCH_SHAPE=${4:-default} "$root/bench/make-large-recording.sh" "$1" "$2" >&2
}
inputs=()
for size in $sizes; do
  make "$size" "$work/large-${size}m.jfr"
  inputs+=("$work/large-${size}m.jfr")
done
for size in $many_sizes; do
  make "$size" "$work/many-stacks-${size}m.jfr" 16384
  inputs+=("$work/many-stacks-${size}m.jfr")
done
for size in $allocation_sizes; do
  make "$size" "$work/allocation-${size}m.jfr" 0 allocation
  inputs+=("$work/allocation-${size}m.jfr")
done
sample="$root/samples/jdk21/pinning-synchronized.jfr"
[ "${BENCH_SAMPLE:-1}" = 0 ] || inputs+=("$sample")
if [ "${BENCH_EIGHT:-1}" != 0 ]; then
  # eight runs of the generator, not copies of one: vtscope reads a chunk given twice only once
  mkdir -p "$work/eight"
  for i in 1 2 3 4 5 6 7 8; do
    make 128 "$work/eight/part-$i.jfr"
  done
  inputs+=("8 files")
fi

# The floor runs on the launcher's JVM with the launcher's JVM flags (bench/launcher-flags.sh).
"$VT_JAVA_HOME_BIN/javac" -d "$work/floor" "$root/bench/RecordWalk.java"
# shellcheck source=launcher-flags.sh
. "$root/bench/launcher-flags.sh"
flags_listed=$(launcher_flags "$root") || exit 9
read -r -a floor_flags <<<"$flags_listed"

files_of() { if [ "$1" = "8 files" ]; then printf '%s\n' "$work"/eight/part-*.jfr; else printf '%s\n' "$1"; fi; }

# One run of a tool on an input, appended to its results as "seconds kilobytes cpu%".
measure() { # TOOL INPUT OUT
  local files
  mapfile -t files < <(files_of "$2")
  case "$1" in
    vtscope) /usr/bin/time -f '%e %M %P' -o "$work/t.txt" "$root/vtscope" analyze --format json "${files[@]}" >/dev/null 2>"$work/err.txt" ;;
    vtscope-jdk) /usr/bin/time -f '%e %M %P' -o "$work/t.txt" "$root/vtscope" analyze --reader jdk --format json "${files[@]}" >/dev/null 2>"$work/err.txt" ;;
    jfr-view | floor)
      # jfr view and the floor read one file: the 8 files are 8 runs, their times summed, their
      # memory the peak
      local f s=0 m=0 c=0 ts tm tc
      for f in "${files[@]}"; do
        if [ "$1" = jfr-view ]; then
          /usr/bin/time -f '%e %M %P' -o "$work/t1.txt" "$jfr" view --width 200 pinned-threads "$f" >/dev/null 2>"$work/err.txt"
        else
          /usr/bin/time -f '%e %M %P' -o "$work/t1.txt" "$VT_JAVA_HOME_BIN/java" "${floor_flags[@]}" -cp "$work/floor" RecordWalk "$f" >/dev/null 2>"$work/err.txt"
        fi
        read -r ts tm tc <"$work/t1.txt"
        s=$(echo "$s + $ts" | bc -l); [ "$tm" -gt "$m" ] && m=$tm; c=${tc%\%}
      done
      echo "$s $m $c%" >"$work/t.txt" ;;
  esac || { echo "bench: $1 failed on $2: $(head -c 300 "$work/err.txt")" >&2; exit 1; }
  cat "$work/t.txt" >>"$3"
}
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

# Warm up: the launcher's class-data archive and the page cache.
"$root/vtscope" analyze --format json "$sample" >/dev/null
sleep 5
for input in "${inputs[@]}"; do mapfile -t fs < <(files_of "$input"); cat "${fs[@]}" >/dev/null; done

echo "JDK for jfr view: $("$jfr" --version 2>&1 | head -n 1); vtscope: $("$root/vtscope" --version | tr '\n' ' ')"
echo "machine: $(nproc) CPUs, $(awk '/MemTotal/{printf "%.0f GiB", $2/1048576}' /proc/meminfo); $runs runs each, interleaved"
printf '%-28s %-12s %9s %9s %6s %12s %12s\n' input tool "median s" "RSS MiB" "CPU" "jfr view / it" "it / floor"
for input in "${inputs[@]}"; do
  rm -f "$work"/{vtscope,vtscope-jdk,jfr-view,floor}.txt
  for tool in "${tools[@]}"; do : >"$work/$tool.txt"; done
  for _ in $(seq "$runs"); do
    for tool in "${tools[@]}"; do measure "$tool" "$input" "$work/$tool.txt"; done
  done
  name=$(basename "$input")
  [ "$input" = "8 files" ] && name="8 x 128 MB recordings"
  jfr_time=$(cut -d' ' -f1 "$work/jfr-view.txt" 2>/dev/null | median)
  floor_time=$(cut -d' ' -f1 "$work/floor.txt" 2>/dev/null | median)
  for tool in "${tools[@]}"; do
    t=$(cut -d' ' -f1 "$work/$tool.txt" | median)
    m=$(cut -d' ' -f2 "$work/$tool.txt" | median)
    c=$(cut -d' ' -f3 "$work/$tool.txt" | tr -d '%' | median)
    printf '%-28s %-12s %9.2f %9.0f %5.0f%% %11.2fx %11.2fx\n' "$name" "$tool" "$t" "$(echo "$m / 1024" | bc -l)" "$c" \
      "$(echo "${jfr_time:-0} / $t" | bc -l)" "$(echo "$t / ${floor_time:-$t}" | bc -l)"
  done
done

#!/usr/bin/env bash
# Two builds of vtscope on one command, in turn, as a user's launcher runs them:
#
#   bench/side-by-side.sh OLD.jar NEW.jar RUNS -- VTSCOPE ARGS...
#
# e.g. bench/side-by-side.sh before.jar cli/target/vtscope.jar 21 -- analyze -q --format json \
#        bench/work/allocation-1024m.jfr
# Runs `java [the launcher's JVM flags for the command] -jar JAR ARGS` (bench/launcher-flags.sh) RUNS times for each
# jar, OLD then NEW then OLD ..., each timed by /usr/bin/time, its output thrown away, after one
# unrecorded run of each. Prints each jar's medians (wall, CPU = user + system, peak RSS) and the
# medians of NEW's over OLD's, pair by pair: a pair's two runs meet the same state of a shared
# machine, whose speed drifts by a tenth and more within minutes.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
# shellcheck source=../tools/find-jdk.sh
. "$root/tools/find-jdk.sh"
# shellcheck source=launcher-flags.sh
. "$root/bench/launcher-flags.sh"
old=$(realpath "${1:?the jar to compare with}")
new=$(realpath "${2:?the jar to compare}")
runs=${3:?how many runs of each}
shift 3
[ "${1:-}" = -- ] && shift
[ $# -gt 0 ] || { echo "bench: no vtscope arguments after --" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench: needs GNU time (/usr/bin/time)" >&2; exit 9; }
vt_find_java 21 || { echo "bench: needs a JDK 21+" >&2; exit 9; }
flags_listed=$(launcher_flags "$root" "$1") || exit 9
read -r -a flags <<<"$flags_listed"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

run() { # JAR OUT
  /usr/bin/time -f '%e %U %S %M' -o "$work/t" "$VT_JAVA" "${flags[@]}" -jar "$1" "${@:3}" >/dev/null 2>"$work/err" \
    || { echo "bench: $1 failed:" >&2; cat "$work/err" >&2; exit 1; }
  [ "$2" = - ] || cat "$work/t" >>"$2"
}
run "$old" - "$@"
run "$new" - "$@"
for _ in $(seq "$runs"); do
  run "$old" "$work/old" "$@"
  run "$new" "$work/new" "$@"
done
awk '
  function median(a, n,   i, j, t) {
    for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  FNR == NR { ow[FNR] = $1; oc[FNR] = $2 + $3; om[FNR] = $4; n = FNR; next }
  { nw[FNR] = $1; nc[FNR] = $2 + $3; nm[FNR] = $4; rw[FNR] = $1 / ow[FNR]; rc[FNR] = ($2 + $3) / oc[FNR] }
  END {
    printf "%-5s %10s %10s %10s\n", "jar", "wall s", "CPU s", "peak MiB"
    printf "%-5s %10.2f %10.2f %10.0f\n", "old", median(ow, n), median(oc, n), median(om, n) / 1024
    printf "%-5s %10.2f %10.2f %10.0f\n", "new", median(nw, n), median(nc, n), median(nm, n) / 1024
    printf "new / old, the median of %d pairs: wall %.2f, CPU %.2f\n", n, median(rw, n), median(rc, n)
  }' "$work/old" "$work/new"

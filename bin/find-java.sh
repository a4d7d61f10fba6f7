# Sourced by the project's scripts: sets JAVA to a java binary of a JDK >= 21 and exports JAVA_HOME.
# Order: JAVA_HOME, then `java` on PATH, then the usual install folders. Prints one line and fails
# when there is none, because Maven and the CLI both need 21+ and the machine default may be 17.
#
# Every ./batchpipe command starts here, so the search forks as little as it can: bash's own
# expansions and `read` instead of dirname, sed and head (a fork and exec cost 3-10 ms each on a
# busy 2-core machine, and the search took ~150 ms of every command before; now ~10 ms).

batchpipe_java_major_of() { # sets BATCHPIPE_MAJOR_FOUND to the feature version of the java binary $1; fails if unknown
  BATCHPIPE_MAJOR_FOUND=""
  # The JDK's release file says it without starting a JVM (each start costs a few hundred ms).
  local release="${1%/bin/java}/release" line
  if [ -r "$release" ]; then
    while IFS= read -r line || [ -n "$line" ]; do
      case "$line" in
        JAVA_VERSION=\"[0-9]*)
          line="${line#JAVA_VERSION=\"}"
          BATCHPIPE_MAJOR_FOUND="${line%%[!0-9]*}"
          break ;;
      esac
    done < "$release"
  else
    BATCHPIPE_MAJOR_FOUND="$("$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = \([0-9][0-9]*\).*/\1/p' | head -n 1)"
  fi
  [ -n "$BATCHPIPE_MAJOR_FOUND" ]
}

batchpipe_find_java() {
  local home on_path="" found=0
  # JAVA_HOME first: when it is a JDK 21+ nothing else is looked at (no fork at all).
  if batchpipe_try_java_home "${JAVA_HOME:-}"; then
    found=1
  else
    on_path="$(command -v java 2>/dev/null)" && on_path="$(readlink -f "$on_path" 2>/dev/null)" && on_path="${on_path%/bin/java}"
    for home in "$on_path" \
        /usr/lib/jvm/* /usr/local/lib/jvm/* /opt/java/* /opt/jdk* /opt/homebrew/opt/openjdk*/libexec/openjdk.jdk/Contents/Home \
        /Library/Java/JavaVirtualMachines/*/Contents/Home "$HOME"/.sdkman/candidates/java/* "$HOME"/.jdks/*; do
      if batchpipe_try_java_home "$home"; then found=1; break; fi
    done
  fi
  if [ "$found" -ne 1 ]; then
    echo "batchpipe: no JDK 21 or newer found (looked at JAVA_HOME, PATH and /usr/lib/jvm); install one, e.g. 'apt-get install openjdk-21-jdk-headless' or Temurin 21, or set JAVA_HOME to it." >&2
    return 1
  fi
  # Maven's own libraries still call sun.misc.Unsafe; JDK 24+ warns about it on every run.
  if [ "$BATCHPIPE_JAVA_MAJOR" -ge 24 ]; then
    case " ${MAVEN_OPTS:-} " in
      *sun-misc-unsafe-memory-access*) ;;
      *) export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow" ;;
    esac
  fi
  return 0
}

batchpipe_try_java_home() { # uses JDK home $1 when it holds java and javac of version 21+
  local home="$1"
  [ -n "$home" ] && [ -x "$home/bin/java" ] && [ -x "$home/bin/javac" ] || return 1
  batchpipe_java_major_of "$home/bin/java" || return 1
  [ "$BATCHPIPE_MAJOR_FOUND" -ge 21 ] || return 1
  JAVA="$home/bin/java"
  BATCHPIPE_JAVA_MAJOR="$BATCHPIPE_MAJOR_FOUND"
  export JAVA_HOME="$home"
}

# Sourced by the project's scripts: sets JAVA to a java binary of a JDK >= 21 and exports JAVA_HOME.
# Order: JAVA_HOME, then `java` on PATH, then the usual install folders. Prints one line and fails
# when there is none, because Maven and the CLI both need 21+ and the machine default may be 17.

batchpipe_java_major() { # prints the feature version of the java binary $1, or nothing
  # The JDK's release file says it without starting a JVM (each start costs a few hundred ms).
  local release
  release="$(dirname "$(dirname "$1")")/release"
  if [ -r "$release" ]; then
    sed -n 's/^JAVA_VERSION="\([0-9][0-9]*\).*/\1/p' "$release" | head -n 1
    return
  fi
  "$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = \([0-9][0-9]*\).*/\1/p' | head -n 1
}

batchpipe_find_java() {
  local candidate major home
  for home in "${JAVA_HOME:-}" "$(dirname "$(dirname "$(readlink -f "$(command -v java 2>/dev/null || echo /nonexistent)")" 2>/dev/null)" 2>/dev/null)" \
      /usr/lib/jvm/* /usr/local/lib/jvm/* /opt/java/* /opt/jdk* /opt/homebrew/opt/openjdk*/libexec/openjdk.jdk/Contents/Home \
      /Library/Java/JavaVirtualMachines/*/Contents/Home "$HOME"/.sdkman/candidates/java/* "$HOME"/.jdks/*; do
    [ -n "$home" ] && [ -x "$home/bin/java" ] && [ -x "$home/bin/javac" ] || continue
    candidate="$home/bin/java"
    major=$(batchpipe_java_major "$candidate")
    if [ -n "$major" ] && [ "$major" -ge 21 ]; then
      JAVA="$candidate"
      BATCHPIPE_JAVA_MAJOR="$major"
      export JAVA_HOME="$home"
      # Maven's own libraries still call sun.misc.Unsafe; JDK 24+ warns about it on every run.
      if [ "$major" -ge 24 ]; then
        case " ${MAVEN_OPTS:-} " in
          *sun-misc-unsafe-memory-access*) ;;
          *) export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow" ;;
        esac
      fi
      return 0
    fi
  done
  echo "batchpipe: no JDK 21 or newer found (looked at JAVA_HOME, PATH and /usr/lib/jvm); install one, e.g. 'apt-get install openjdk-21-jdk-headless' or Temurin 21, or set JAVA_HOME to it." >&2
  return 1
}

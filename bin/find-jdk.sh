# Sourced by mvnw and the scripts in bin/: makes JAVA_HOME point at a JDK 25 or stops with a
# message saying what to install. JAVA_HOME wins when it holds a JDK 25; otherwise the usual
# system JVM directories are searched.
jmca_jdk_version() {
  # Prints the feature version of the JDK in $1 ("25"), or nothing.
  [ -x "$1/bin/javac" ] && [ -x "$1/bin/java" ] || return 0
  sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release" 2>/dev/null
}

jmca_find_jdk() {
  if [ -n "${JAVA_HOME-}" ] && [ "$(jmca_jdk_version "$JAVA_HOME")" = 25 ]; then
    return 0
  fi
  case $- in *f*) set +f; jmca_noglob=1 ;; esac  # mvnw runs with globbing off
  for candidate in /usr/lib/jvm/* /usr/java/* /opt/java/* /Library/Java/JavaVirtualMachines/*/Contents/Home; do
    if [ "$(jmca_jdk_version "$candidate")" = 25 ]; then
      [ -z "${JAVA_HOME-}" ] || echo "jmca: JAVA_HOME=$JAVA_HOME is not a JDK 25; using $candidate" >&2
      JAVA_HOME=$candidate
      export JAVA_HOME
      [ -z "${jmca_noglob-}" ] || set -f
      return 0
    fi
  done
  [ -z "${jmca_noglob-}" ] || set -f
  echo "jmca: no JDK 25 found (JAVA_HOME=${JAVA_HOME:-unset}; searched /usr/lib/jvm, /usr/java, /opt/java)." >&2
  echo "jmca: install one, e.g. 'apt-get install openjdk-25-jdk' or Temurin 25, or set JAVA_HOME to it." >&2
  return 1
}

jmca_find_jdk || exit 1

# Sourced by the commands in bin/: finds a JDK 25 (JAVA_HOME) and JMCA's jars (JMCA_LIB), and sets
# JMCA_HOME (whose etc/mca-params.conf is the system parameter file) unless it is set already.
jmca_bin=$(cd "$(dirname "$0")" && pwd)
. "$jmca_bin/find-jdk.sh"

if [ -d "$jmca_bin/../lib" ]; then
  # An installed distribution: bin/ and lib/ side by side.
  JMCA_LIB=$(cd "$jmca_bin/../lib" && pwd)
  : "${JMCA_HOME:=$(cd "$jmca_bin/.." && pwd)}"
else
  # A source checkout: the dist module gathers the jars.
  JMCA_LIB="$jmca_bin/../dist/target/jmca/lib"
  if [ ! -d "$JMCA_LIB" ]; then
    echo "jmca: JMCA is not built yet; run: $(cd "$jmca_bin/.." && pwd)/mvnw -q install -DskipTests" >&2
    exit 1
  fi
  JMCA_LIB=$(cd "$JMCA_LIB" && pwd)
  : "${JMCA_HOME:=$(cd "$jmca_bin/.." && pwd)}"
fi
export JMCA_HOME

# JMCA's jars, then the user's CLASSPATH (where third-party components go).
JMCA_CP="$JMCA_LIB/*${CLASSPATH:+:$CLASSPATH}"

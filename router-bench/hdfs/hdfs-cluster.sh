#!/usr/bin/env bash
# hdfs-cluster.sh start|stop|status|check [NN_PORT]     (NN_PORT default $HDFS_NN_PORT = 19820)
#
# A standalone one-JVM HDFS cluster (one NameNode + one DataNode) for benchmarks:
#   java -cp <classpath> org.apache.hadoop.test.MiniDFSClusterManager -format -datanodes 1
#     -nnport NN_PORT -httpport HTTP_PORT -writeDetails $HDFS_DIR/details.json
#     -D dfs.replication=1 -D hdfs.minidfs.basedir=$HDFS_DIR/data -D dfs.permissions.enabled=false
# from org.apache.hadoop:hadoop-client-minicluster:3.5.0 (+ junit-jupiter-api, which its
# MiniDFSClusterManager needs in 3.5.0, and slf4j-simple as the SLF4J binding).
#   - Classpath: resolved once by Maven from minicluster-pom.xml next to this script
#     (`./mvnw -q -B -f router-bench/hdfs/minicluster-pom.xml dependency:build-classpath`, under
#     `flock /tmp/mvn.lock`; offline when ~/.m2 has the jars) into $HDFS_DIR/classpath.txt;
#     re-resolved when the pom is newer or a jar is missing.
#   - Files: $HDFS_DIR/data (NameNode + DataNode storage, wiped at every start: -format;
#     DataNode block files under $HDFS_DIR/data/data/data{1,2}), $HDFS_DIR/run/hdfs.pid,
#     $HDFS_DIR/ports ("NN_PORT HTTP_PORT"), $HDFS_DIR/details.json, $HDFS_DIR/cluster.log.
#   - Every socket on 127.0.0.1: NameNode RPC NN_PORT, NameNode HTTP (WebHDFS, /jmx) HTTP_PORT
#     (default NN_PORT+50 = 19870), DataNode ports chosen by MiniDFSCluster (127.0.0.1:0).
#   - Ready = details.json written (MiniDFSClusterManager writes it after waitActive()) and
#     WebHDFS `GET /webhdfs/v1/?op=GETFILESTATUS` answers 200 and the NameNode's JMX says
#     NumLiveDataNodes >= 1 (FSNamesystemState) and not in safe mode (NameNodeInfo Safemode "").
#     ~10-15 s (Jetty unpacks webapps/ from the jar). `start` prints the file system URI
#     (hdfs://127.0.0.1:NN_PORT) on stdout; it is idempotent (already up: only the URI).
#   - `stop`: SIGTERM to the pid file's pid (exits in ~2 s), SIGKILL after 60 s; then deletes
#     $HDFS_DIR/data (HDFS_KEEP_DATA=1 keeps it; the next start formats anyway).
#   - `status`: "running pid N uri hdfs://127.0.0.1:P http http://127.0.0.1:H live_datanodes N"
#     (exit 0) or "not running" (exit 1).
#   - `check`: a WebHDFS round trip: CREATE a 1 MB file (curl -L, 2-step redirect to the
#     DataNode), GETCONTENTSUMMARY, OPEN and compare, DELETE. Exit 0 when all of it worked.
#
# Environment: HDFS_DIR (/tmp/hdfs-bench), HDFS_NN_PORT (19820), HDFS_HTTP_PORT (NN_PORT+50),
# HDFS_HEAP (1g: -Xms and -Xmx), HDFS_JAVA (java), HDFS_JAVA_OPTS (''), HDFS_LOG_LEVEL (warn:
# slf4j-simple's level for everything but MiniDFSClusterManager itself, which logs at info),
# HDFS_START_SECS (120), HDFS_KEEP_DATA (0), HDFS_EXTRA_CONF (more "key=value" pairs, space
# separated, passed as -D).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
HDFS_DIR=${HDFS_DIR:-/tmp/hdfs-bench}
HDFS_HEAP=${HDFS_HEAP:-1g}
HDFS_JAVA=${HDFS_JAVA:-java}
HDFS_JAVA_OPTS=${HDFS_JAVA_OPTS:-}
HDFS_LOG_LEVEL=${HDFS_LOG_LEVEL:-warn}
HDFS_START_SECS=${HDFS_START_SECS:-120}
HDFS_KEEP_DATA=${HDFS_KEEP_DATA:-0}
HDFS_EXTRA_CONF=${HDFS_EXTRA_CONF:-}
POM=$HERE/minicluster-pom.xml
CP_FILE=$HDFS_DIR/classpath.txt
PIDFILE=$HDFS_DIR/run/hdfs.pid

usage() { echo "usage: hdfs-cluster.sh start|stop|status|check [NN_PORT]" >&2; exit 2; }
cmd=${1:-}
[ -n "$cmd" ] || usage
nn_port=${2:-}
http_port=${HDFS_HTTP_PORT:-}
if [ -z "$nn_port" ] && [ "$cmd" != start ] && [ -s "$HDFS_DIR/ports" ]; then
  read -r nn_port http_port < "$HDFS_DIR/ports"
fi
nn_port=${nn_port:-${HDFS_NN_PORT:-19820}}
http_port=${http_port:-$((nn_port + 50))}
[[ $nn_port =~ ^[0-9]+$ && $http_port =~ ^[0-9]+$ ]] || usage
URI=hdfs://127.0.0.1:$nn_port
HTTP=http://127.0.0.1:$http_port

log() { echo "hdfs-cluster.sh: $*" >&2; }
hdfs_pid() { if [ -s "$PIDFILE" ]; then cat "$PIDFILE"; fi; }
alive() { local p; p=$(hdfs_pid); [ -n "$p" ] && kill -0 "$p" 2>/dev/null; }
# jmx_value BEAN NAME: one attribute of a NameNode MBean (numbers and strings), empty on failure
jmx_value() {
  curl -fsS -m 5 "$HTTP/jmx?qry=Hadoop:service=NameNode,name=$1" 2>/dev/null \
    | sed -n "s/^ *\"$2\" : \"\{0,1\}\([^\",]*\)\"\{0,1\},\{0,1\}$/\1/p" | head -1
}
live_datanodes() { local n; n=$(jmx_value FSNamesystemState NumLiveDataNodes); echo "${n:-0}"; }
ready() {
  [ -s "$HDFS_DIR/details.json" ] || return 1
  curl -fsS -m 5 -o /dev/null "$HTTP/webhdfs/v1/?op=GETFILESTATUS" 2>/dev/null || return 1
  (( $(live_datanodes) >= 1 )) || return 1
  # NameNodeInfo's Safemode is "" when the NameNode is out of safe mode
  local sm; sm=$(curl -fsS -m 5 "$HTTP/jmx?qry=Hadoop:service=NameNode,name=NameNodeInfo" 2>/dev/null \
    | grep -o '"Safemode" : "[^"]*"' || echo missing)
  [ "$sm" = '"Safemode" : ""' ]
}

# classpath: resolve it with Maven unless the cached one is current and complete
classpath() {
  local ok=1 jar
  if [ -s "$CP_FILE" ] && [ "$CP_FILE" -nt "$POM" ]; then
    IFS=: read -r -a jars < "$CP_FILE"
    for jar in "${jars[@]}"; do [ -f "$jar" ] || { ok=0; break; }; done
  else
    ok=0
  fi
  if [ "$ok" = 0 ]; then
    log "resolving the classpath with Maven ($POM)"
    mkdir -p "$HDFS_DIR"
    (cd "$REPO" && flock /tmp/mvn.lock ./mvnw -q -B -f "$POM" dependency:build-classpath \
       -Dmdep.outputFile="$CP_FILE.new") >&2
    mv "$CP_FILE.new" "$CP_FILE"
  fi
  cat "$CP_FILE"
}

start() {
  if alive; then
    local i
    for i in $(seq 60); do ready && break; sleep 1; done
    if ready; then
      log "already running (pid $(hdfs_pid)) on $URI"
      echo "$URI"; return 0
    fi
    log "pid $(hdfs_pid) is alive but not ready; stop it first (hdfs-cluster.sh stop)"; exit 4
  fi
  local p
  for p in "$nn_port" "$http_port"; do
    if ss -ltnH "( sport = :$p )" | grep -q .; then log "port $p is already in use"; exit 3; fi
  done
  local cp; cp=$(classpath)
  rm -rf "$HDFS_DIR/data" "$HDFS_DIR/details.json"
  mkdir -p "$HDFS_DIR/data" "$HDFS_DIR/run"
  echo "$nn_port $http_port" > "$HDFS_DIR/ports"
  local -a dopts=(-D dfs.replication=1 -D "hdfs.minidfs.basedir=$HDFS_DIR/data" -D dfs.permissions.enabled=false)
  local kv
  for kv in $HDFS_EXTRA_CONF; do dopts+=(-D "$kv"); done
  log "starting HDFS (MiniDFSClusterManager, 1 datanode) heap $HDFS_HEAP, $URI, $HTTP, data $HDFS_DIR/data"
  local t0=$SECONDS
  # setsid: its own session, so a Ctrl-C in the caller's terminal does not reach it. In a
  # background job setsid execs java in place: $! is the JVM's pid.
  # shellcheck disable=SC2086
  (cd "$HDFS_DIR" && exec setsid "$HDFS_JAVA" -Xms"$HDFS_HEAP" -Xmx"$HDFS_HEAP" $HDFS_JAVA_OPTS \
      -Dorg.slf4j.simpleLogger.defaultLogLevel="$HDFS_LOG_LEVEL" \
      -Dorg.slf4j.simpleLogger.log.org.apache.hadoop.test.MiniDFSClusterManager=info \
      -Dorg.slf4j.simpleLogger.showDateTime=true \
      -Dtest.build.data="$HDFS_DIR/data" \
      -cp "$cp" org.apache.hadoop.test.MiniDFSClusterManager \
      -format -datanodes 1 -nnport "$nn_port" -httpport "$http_port" \
      -writeDetails "$HDFS_DIR/details.json" "${dopts[@]}") \
    > "$HDFS_DIR/cluster.log" 2>&1 < /dev/null &
  echo $! > "$PIDFILE"
  local i
  for i in $(seq $((HDFS_START_SECS * 2))); do
    if ready; then
      log "ready in $((SECONDS - t0)) s, pid $(hdfs_pid), live datanodes $(live_datanodes)"
      echo "$URI"; return 0
    fi
    alive || break
    sleep 0.5
  done
  log "not ready after $((SECONDS - t0)) s; last lines of $HDFS_DIR/cluster.log:"
  tail -n 40 "$HDFS_DIR/cluster.log" >&2 || true
  stop >&2
  exit 5
}

stop() {
  if ! alive; then echo "hdfs-cluster.sh: not running"; rm -f "$PIDFILE"; return 0; fi
  local pid i; pid=$(hdfs_pid)
  kill -TERM "$pid"
  for i in $(seq 600); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then log "pid $pid still alive after 60 s, SIGKILL"; kill -KILL "$pid" || true; fi
  rm -f "$PIDFILE"
  if [ "$HDFS_KEEP_DATA" != 1 ]; then rm -rf "$HDFS_DIR/data"; fi
  echo "hdfs-cluster.sh: stopped pid $pid"
}

check() {
  alive && ready || { log "not running/ready"; exit 1; }
  local tmp u=${USER:-$(id -un)} f=/hdfs-cluster-check/check.txt
  tmp=$(mktemp -d /tmp/hdfs-check.XXXXXX)
  # shellcheck disable=SC2064
  trap "rm -rf '$tmp'" RETURN
  awk 'BEGIN { for (i = 0; i < 2500; i++) printf "check line %06d %0380d\n", i, 0 }' > "$tmp/in.txt"
  local code
  code=$(curl -sS -m 60 -L -X PUT -T "$tmp/in.txt" -o "$tmp/create.out" -w '%{http_code}' \
    "$HTTP/webhdfs/v1$f?op=CREATE&overwrite=true&user.name=$u")
  [ "$code" = 201 ] || { log "CREATE answered $code: $(cat "$tmp/create.out")"; return 1; }
  local len
  len=$(curl -fsS -m 30 "$HTTP/webhdfs/v1${f%/*}?op=GETCONTENTSUMMARY&user.name=$u" | grep -o '"length":[0-9]*' | cut -d: -f2)
  curl -fsS -m 60 -L "$HTTP/webhdfs/v1$f?op=OPEN&user.name=$u" -o "$tmp/out.txt"
  cmp -s "$tmp/in.txt" "$tmp/out.txt" || { log "OPEN returned different bytes"; return 1; }
  curl -fsS -m 30 -X DELETE "$HTTP/webhdfs/v1${f%/*}?op=DELETE&recursive=true&user.name=$u" | grep -q '"boolean":true' \
    || { log "DELETE failed"; return 1; }
  echo "hdfs-cluster.sh: WebHDFS round trip ok: wrote, listed ($len bytes) and read back $(wc -c < "$tmp/in.txt") bytes ($(wc -l < "$tmp/out.txt") lines), deleted"
}

case $cmd in
  start) start ;;
  stop) stop ;;
  status)
    if alive; then echo "running pid $(hdfs_pid) uri $URI http $HTTP live_datanodes $(live_datanodes)"; else echo "not running"; exit 1; fi ;;
  check) check ;;
  *) usage ;;
esac

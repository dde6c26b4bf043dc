#!/usr/bin/env bash
# es-server.sh start|stop|status [PORT]        (PORT default $ES_PORT = 19200)
#
# A single-node Elasticsearch 8.19.21 for benchmarks, from the Maven artifact
# org.elasticsearch.distribution.integ-test-zip:elasticsearch:8.19.21:zip (the zip in ~/.m2;
# fetched with the repository's Maven wrapper, `dependency:copy`, when it is missing).
#   - unpacked once into $ES_DIR/dist (default /tmp/es-bench/dist); the node's own files are
#     $ES_DIR/config (a writable copy of the zip's config/ + our elasticsearch.yml),
#     $ES_DIR/data, $ES_DIR/logs, $ES_DIR/run/es.pid, $ES_DIR/port, $ES_DIR/stdout.log.
#   - ES refuses to run as root: it runs as the system user $ES_USER (default esbench, created
#     with `useradd --system --no-create-home --shell /usr/sbin/nologin` when missing) through
#     `runuser -u $ES_USER -- env ES_JAVA_HOME=... ES_PATH_CONF=... ES_JAVA_OPTS=... bash
#     bin/elasticsearch -d -p $ES_DIR/run/es.pid` (runuser resets the environment, the zip may
#     lose exec bits: hence env + bash).
#   - elasticsearch.yml: HTTP on 127.0.0.1:PORT, transport on 127.0.0.1:PORT+100,
#     discovery.type single-node, xpack.security.enabled false, disk threshold off, absolute
#     path.data / path.logs. Heap -Xms$ES_HEAP -Xmx$ES_HEAP (default 1g).
#   - `start` is idempotent: if the node in $ES_DIR is already up it only prints its URL.
#     Ready = GET _cluster/health?wait_for_status=yellow (GET / answers 405 on this zip).
#     Prints the URL (http://127.0.0.1:PORT) on stdout, diagnostics on stderr.
#   - `stop` sends SIGTERM to the pid in run/es.pid and waits (SIGKILL after 60 s). Data stays
#     in $ES_DIR/data (benchmarks delete their indices through the API); `rm -rf $ES_DIR` by
#     hand to start from nothing.
#   - `status` prints "running pid N url URL" (exit 0) or "not running" (exit 1).
#
# Environment: ES_DIR (/tmp/es-bench), ES_PORT (19200), ES_HEAP (1g), ES_USER (esbench),
# ES_JAVA_HOME (the JDK of `java` on PATH, e.g. /usr/lib/jvm/java-17-openjdk-amd64),
# ES_ZIP (~/.m2/repository/org/elasticsearch/distribution/integ-test-zip/elasticsearch/8.19.21/
# elasticsearch-8.19.21.zip), ES_START_SECS (120).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
ES_VERSION=8.19.21
ES_DIR=${ES_DIR:-/tmp/es-bench}
ES_HEAP=${ES_HEAP:-1g}
ES_USER=${ES_USER:-esbench}
ES_START_SECS=${ES_START_SECS:-120}
M2_DIR=$HOME/.m2/repository/org/elasticsearch/distribution/integ-test-zip/elasticsearch/$ES_VERSION
ES_ZIP=${ES_ZIP:-$M2_DIR/elasticsearch-$ES_VERSION.zip}
if [ -z "${ES_JAVA_HOME:-}" ]; then
  ES_JAVA_HOME=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")
fi

usage() { echo "usage: es-server.sh start|stop|status [PORT]" >&2; exit 2; }
cmd=${1:-}
[ -n "$cmd" ] || usage
port=${2:-}
if [ -z "$port" ]; then
  if [ "$cmd" != start ] && [ -s "$ES_DIR/port" ]; then port=$(cat "$ES_DIR/port"); else port=${ES_PORT:-19200}; fi
fi
[[ $port =~ ^[0-9]+$ ]] || usage
url=http://127.0.0.1:$port
pidfile=$ES_DIR/run/es.pid

log() { echo "es-server.sh: $*" >&2; }
es_pid() { if [ -s "$pidfile" ]; then cat "$pidfile"; fi; }
alive() { local p; p=$(es_pid); [ -n "$p" ] && kill -0 "$p" 2>/dev/null; }
healthy() { curl -fsS -m 5 "$url/_cluster/health?wait_for_status=yellow&timeout=${1:-1}s" > /dev/null 2>&1; }

ensure_zip() {
  [ -f "$ES_ZIP" ] && return 0
  log "$ES_ZIP missing: fetching it with Maven (dependency:copy)"
  mkdir -p "$M2_DIR"
  (cd "$REPO" && flock /tmp/mvn.lock ./mvnw -q -B -N dependency:copy \
     -Dartifact=org.elasticsearch.distribution.integ-test-zip:elasticsearch:$ES_VERSION:zip \
     -DoutputDirectory="$M2_DIR")
  [ -f "$ES_ZIP" ] || { log "still no $ES_ZIP"; exit 3; }
}

ensure_user() {
  if ! id -u "$ES_USER" > /dev/null 2>&1; then
    log "creating system user $ES_USER"
    useradd --system --no-create-home --shell /usr/sbin/nologin "$ES_USER"
  fi
}

start() {
  if alive; then
    if healthy 60; then
      log "already running (pid $(es_pid)) on $(cat "$ES_DIR/port" 2>/dev/null || echo "$port")"
      echo "http://127.0.0.1:$(cat "$ES_DIR/port" 2>/dev/null || echo "$port")"
      return 0
    fi
    log "pid $(es_pid) is alive but not healthy; stop it first (es-server.sh stop)"; exit 4
  fi
  [ "$(id -u)" = 0 ] || { log "run as root (it creates a user and runs ES through runuser)"; exit 2; }
  local p
  for p in "$port" $((port + 100)); do
    if ss -ltnH "( sport = :$p )" | grep -q .; then log "port $p is already in use"; exit 3; fi
  done
  ensure_zip
  ensure_user
  mkdir -p "$ES_DIR"
  if [ ! -f "$ES_DIR/dist/bin/elasticsearch" ]; then
    log "unpacking $ES_ZIP into $ES_DIR/dist"
    rm -rf "$ES_DIR/dist" "$ES_DIR/unzip.tmp"
    mkdir -p "$ES_DIR/unzip.tmp"
    unzip -q "$ES_ZIP" -d "$ES_DIR/unzip.tmp"
    mv "$ES_DIR/unzip.tmp/elasticsearch-$ES_VERSION" "$ES_DIR/dist"
    rmdir "$ES_DIR/unzip.tmp"
  fi
  # a fresh config copy every start (ES writes its keystore into it)
  rm -rf "$ES_DIR/config"
  cp -r "$ES_DIR/dist/config" "$ES_DIR/config"
  mkdir -p "$ES_DIR/data" "$ES_DIR/logs" "$ES_DIR/run"
  cat > "$ES_DIR/config/elasticsearch.yml" <<EOF
# written by router-bench/elasticsearch/es-server.sh
cluster.name: esbench
node.name: esbench-1
network.host: 127.0.0.1
http.port: $port
transport.port: $((port + 100))
discovery.type: single-node
xpack.security.enabled: false
cluster.routing.allocation.disk.threshold_enabled: false
path.data: $ES_DIR/data
path.logs: $ES_DIR/logs
EOF
  echo "$port" > "$ES_DIR/port"
  chmod 755 "$ES_DIR"
  chown -R "$ES_USER" "$ES_DIR/config" "$ES_DIR/data" "$ES_DIR/logs" "$ES_DIR/run"
  rm -f "$pidfile"
  log "starting ES $ES_VERSION as $ES_USER, heap $ES_HEAP, java $ES_JAVA_HOME, $url"
  local t0=$SECONDS
  # -d returns once the node has started (or failed); the readiness wait below is the check
  if ! (cd "$ES_DIR/dist" && runuser -u "$ES_USER" -- env \
          ES_JAVA_HOME="$ES_JAVA_HOME" ES_PATH_CONF="$ES_DIR/config" \
          ES_JAVA_OPTS="-Xms$ES_HEAP -Xmx$ES_HEAP" \
          bash bin/elasticsearch -d -p "$pidfile") > "$ES_DIR/stdout.log" 2>&1 < /dev/null; then
    log "bin/elasticsearch failed:"; tail -n 40 "$ES_DIR/stdout.log" >&2
    tail -n 40 "$ES_DIR/logs/esbench.log" >&2 2>/dev/null || true
    exit 5
  fi
  local i
  for i in $(seq "$ES_START_SECS"); do
    if alive && healthy 1; then
      log "ready in $((SECONDS - t0)) s, pid $(es_pid)"
      echo "$url"
      return 0
    fi
    if [ -s "$pidfile" ] && ! alive; then break; fi
    sleep 1
  done
  log "not ready after ${ES_START_SECS}s:"
  tail -n 40 "$ES_DIR/logs/esbench.log" >&2 2>/dev/null || tail -n 40 "$ES_DIR/stdout.log" >&2
  stop
  exit 5
}

stop() {
  if ! alive; then echo "es-server.sh: not running"; rm -f "$pidfile"; return 0; fi
  local pid i; pid=$(es_pid)
  kill -TERM "$pid"
  for i in $(seq 600); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then log "pid $pid still alive after 60 s, SIGKILL"; kill -KILL "$pid" || true; fi
  rm -f "$pidfile"
  echo "es-server.sh: stopped pid $pid"
}

case $cmd in
  start) start ;;
  stop) stop ;;
  status)
    if alive; then echo "running pid $(es_pid) url $url"; else echo "not running"; exit 1; fi ;;
  *) usage ;;
esac

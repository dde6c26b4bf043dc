#!/usr/bin/env bash
# broker.sh start|stop|status DIR PORT
#
# A single-node KRaft Kafka broker (combined broker + controller) for benchmarks,
# from the Maven artifact org.apache.kafka:kafka_2.13:4.3.1, run as a plain JVM
# (no Kafka distribution, no scripts of its own):
#   - classpath: org.apache.kafka:kafka_2.13 (+ slf4j-simple) resolved by Maven from broker-pom.xml next to
#     this script (`./mvnw -q -B -f router-bench/kafka/broker-pom.xml dependency:build-classpath`, under
#     `flock /tmp/mvn.lock`): third-party artifacts only, so it works on a fresh clone where nothing of
#     this project was installed. Cached in $BROKER_CP (default /tmp/kafka-broker-cp.txt), re-resolved
#     when the pom is newer or a jar is missing. SINKS_CP=FILE uses FILE as the classpath as it is
#     (never regenerated; the old router-sinks test classpath file still works there).
#   - DIR/server.properties, DIR/data (log.dirs), DIR/broker.log, DIR/broker.pid.
#   - listens on 127.0.0.1:PORT (PLAINTEXT) and 127.0.0.1:PORT+1 (CONTROLLER) only.
#   - `start` formats the storage (kafka.tools.StorageTool format, fresh random cluster id)
#     unless DIR/data is already formatted, starts kafka.Kafka in the background and
#     returns once the log says "Kafka Server started" (max $BROKER_START_SECS, 60 s).
#   - `stop` sends SIGTERM to the pid in DIR/broker.pid and waits (SIGKILL after 30 s).
#
# Environment: JAVA (java), BROKER_HEAP (512m), BROKER_CP (/tmp/kafka-broker-cp.txt), SINKS_CP (unset),
# BROKER_START_SECS (60).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
JAVA=${JAVA:-java}
BROKER_HEAP=${BROKER_HEAP:-512m}
SINKS_CP=${SINKS_CP:-}
BROKER_CP=${BROKER_CP:-/tmp/kafka-broker-cp.txt}
POM=$HERE/broker-pom.xml
BROKER_START_SECS=${BROKER_START_SECS:-60}

usage() { echo "usage: broker.sh start|stop|status DIR PORT" >&2; exit 2; }
cmd=${1:-}; dir=${2:-}; port=${3:-}
[ -n "$cmd" ] && [ -n "$dir" ] || usage
case $cmd in start) [[ $port =~ ^[0-9]+$ ]] || usage ;; esac

# ensure_cp: sets CP_FILE to a classpath file holding kafka_2.13; resolves $BROKER_CP with Maven from
# broker-pom.xml unless it is current (newer than the pom) and every jar in it exists
ensure_cp() {
  CP_FILE=${SINKS_CP:-$BROKER_CP}
  if [ -z "$SINKS_CP" ]; then
    local ok=0 jar
    if [ -s "$CP_FILE" ] && [ "$CP_FILE" -nt "$POM" ]; then
      ok=1
      IFS=: read -r -a jars < "$CP_FILE" || true     # no newline at its end
      for jar in "${jars[@]}"; do [ -f "$jar" ] || { ok=0; break; }; done
    fi
    if [ "$ok" = 0 ]; then
      echo "broker.sh: resolving the broker's classpath with Maven ($POM)" >&2
      (cd "$REPO" && flock /tmp/mvn.lock ./mvnw -q -B -f "$POM" dependency:build-classpath \
          -Dmdep.outputFile="$CP_FILE.new") >&2
      mv "$CP_FILE.new" "$CP_FILE"
    fi
  fi
  [ -s "$CP_FILE" ] || { echo "broker.sh: no classpath file $CP_FILE" >&2; exit 3; }
  tr ':' '\n' < "$CP_FILE" | grep -q '/kafka_2.13-' || {
    echo "broker.sh: $CP_FILE has no kafka_2.13 jar" >&2; exit 3; }
}

alive() { [ -f "$dir/broker.pid" ] && kill -0 "$(cat "$dir/broker.pid")" 2>/dev/null; }

start() {
  ensure_cp
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  if alive; then echo "broker.sh: already running (pid $(cat "$dir/broker.pid"))" >&2; exit 1; fi
  local cport=$((port + 1)) p
  for p in "$port" "$cport"; do
    if ss -ltnH "( sport = :$p )" | grep -q .; then
      echo "broker.sh: port $p is already in use" >&2; exit 3
    fi
  done
  cat > "$dir/server.properties" <<EOF
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$cport
listeners=PLAINTEXT://127.0.0.1:$port,CONTROLLER://127.0.0.1:$cport
advertised.listeners=PLAINTEXT://127.0.0.1:$port
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
log.dirs=$dir/data
num.partitions=4
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=false
EOF
  local cp; cp=$(cat "$CP_FILE")
  if [ ! -f "$dir/data/meta.properties" ]; then
    # 16 random bytes, base64url without padding, must not start with '-'
    local id
    while :; do
      id=$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=')
      [ "${id:0:1}" != "-" ] && break
    done
    "$JAVA" -cp "$cp" kafka.tools.StorageTool format -t "$id" -c "$dir/server.properties" \
      > "$dir/format.log" 2>&1 || { echo "broker.sh: storage format failed:" >&2; cat "$dir/format.log" >&2; exit 4; }
  fi
  : > "$dir/broker.log"
  nohup "$JAVA" -Xms"$BROKER_HEAP" -Xmx"$BROKER_HEAP" -XX:+UseG1GC -Djava.awt.headless=true \
    -Dorg.slf4j.simpleLogger.defaultLogLevel=info \
    -cp "$cp" kafka.Kafka "$dir/server.properties" >> "$dir/broker.log" 2>&1 < /dev/null &
  echo $! > "$dir/broker.pid"
  local i
  for i in $(seq $((BROKER_START_SECS * 10))); do
    if grep -q 'Kafka Server started' "$dir/broker.log"; then
      echo "broker.sh: started pid $(cat "$dir/broker.pid") on 127.0.0.1:$port (log $dir/broker.log)"
      return 0
    fi
    alive || { echo "broker.sh: broker died at startup:" >&2; tail -n 30 "$dir/broker.log" >&2; exit 5; }
    sleep 0.1
  done
  echo "broker.sh: not started after ${BROKER_START_SECS}s; stopping it" >&2
  tail -n 30 "$dir/broker.log" >&2
  stop; exit 5
}

stop() {
  if ! alive; then echo "broker.sh: not running"; rm -f "$dir/broker.pid"; return 0; fi
  local pid i; pid=$(cat "$dir/broker.pid")
  kill -TERM "$pid"
  for i in $(seq 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then
    echo "broker.sh: pid $pid still alive after 30 s, SIGKILL" >&2; kill -KILL "$pid" || true
  fi
  rm -f "$dir/broker.pid"
  echo "broker.sh: stopped pid $pid"
}

case $cmd in
  start) start ;;
  stop) stop ;;
  status) if alive; then echo "running pid $(cat "$dir/broker.pid")"; else echo "not running"; exit 1; fi ;;
  *) usage ;;
esac

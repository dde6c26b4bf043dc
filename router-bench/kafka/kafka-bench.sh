#!/usr/bin/env bash
# kafka-bench.sh PEER [RUNS]      (RUNS default 3)
#
# TCP -> Kafka throughput, logrouter vs syslog-ng 3.38 kafka-c(), same broker, same run.
#   PEER: sng      syslog-ng 3.38 with kafka-c() (config: sng-kafka.conf next to this script)
#         lr       logrouter (java -jar $ROUTER_JAR run --config FILE), kafka sink
#         sng,lr   both, alternating run by run (sng r1, lr r1, sng r2, ...) on one broker
#
# An adapter of ../lib/bench-lib.sh (the shared harness: load, drain, CPU, medians, several runs under the
# lock); this script holds only the broker, the topic, how records are counted, and the peers' configs.
# KafkaTool (topic admin, record counter) runs from router-bench/target/router-bench.jar; the broker's
# classpath is broker.sh's (third-party artifacts only): nothing here needs an installed project artifact.
#
# Per run: a fresh topic bench-<peer>-r<i> (PARTITIONS=4, replication 1); the peer listens on
# 127.0.0.1:$PEER_PORT; optional warm-up (WARMUP_SECS of the same load into the same topic,
# waited for, its records counted and subtracted; default 10 s for lr — JIT — and 0 for
# sng); then loggen, as the shared kit's W2 (/work/shared/bench/common.sh):
#   loggen -S -r 100000000 -I 15 --active-connections=10 -s 400 127.0.0.1 PORT
# (LOADGEN=loadgen sends the same load with router-bench's loadgen: --connections 10 --size 400
# --duration 15); then the drain: `KafkaTool watch` polls the topic's record count (sum over
# partitions of end offset - beginning offset) every 100 ms and the harness waits until it has not
# grown for SETTLE_SECS (2 s) with every message in, or for STALL_SECS (10 s) while short, or
# MAX_DRAIN_SECS (120 s); then the peer is stopped with SIGTERM and the topic counted once more.
# Recorded (one CSV line per run in $RESULTS_DIR/kafka.csv):
#   sent      = the load generator's own count (loggen: count= on its stderr; loadgen: sent=)
#   records   = records in the topic after the peer stopped (minus the warm-up's)
#   lost      = sent - records (0 = zero loss; negative = duplicates)
#   load_s    = first send (the load's end minus the generator's own elapsed time) -> the first
#               poll that saw the final count
#   msgs_per_s = records / load_s
#   peer_cpu_s, peer_us_per_msg: the peer process' CPU (utime+stime+children, /proc/PID/stat)
#     over loggen start -> settled; broker_cpu_s / broker_us_per_msg the same for the broker;
#     loggen_cpu_s from /usr/bin/time.
# Medians per peer over this invocation's runs are printed at the end; exit 1 when a run failed.
# The broker (broker.sh, $KAFKA_DIR, 127.0.0.1:$KAFKA_PORT) is started if it is not running
# and stopped at the end if this script started it; KAFKA_BOOTSTRAP=host:port uses an
# external broker instead (its CPU is then not measured).
# Each run (peer start .. peer stop) holds `flock $LOCK` (default /tmp/cpu.lock); broker
# start/stop, topic creation/deletion and the content sample are outside it.
#
# Environment (defaults): RESULTS_DIR=/tmp/kbench/results WORK=/tmp/kbench KAFKA_PORT=19092
# KAFKA_DIR=$WORK/broker PEER_PORT=15530 PARTITIONS=4 LOAD_SECS=15 CONNS=10 MSG_SIZE=400
# RATE=100000000 (per connection) SETTLE_SECS=2 STALL_SECS=10 MAX_DRAIN_SECS=120
# WARMUP_SECS (lr 10, sng 0) COMPRESSION=none (none|gzip|snappy|lz4|zstd, both peers)
# KEY='${HOST}' (empty = no key, both peers) SNG_WORKERS=1 SNG_RETRIES=1000 SNG_QMAX=100000
# ROUTER_JAR=<repo>/router-server/target/logrouter.jar (else /work/main's) LR_PARSE_WORKERS=2 LR_WAIT_STRATEGY='' (router default) LR_BATCH_SIZE='' (the sink's default)
# LR_FLUSH_TIMEOUT=5ms LR_JAVA_OPTS='' KEEP_TOPICS=0 SAMPLE=1 (print 1 record per partition)
# LOADGEN=loggen|loadgen LOGGEN=/usr/bin/loggen (its path) BENCH_JAR=<repo>/router-bench/target/router-bench.jar
# (loadgen and KafkaTool) LOGGEN_GRACE_SECS=60 (the load is stopped that long past its end) MAVEN_WAIT_SECS=1800
# SINKS_CP / BROKER_CP: the broker's classpath file (broker.sh)
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib/bench-lib.sh"   # bench_main, bench_one_run, bench_load, bench_settle, ...
REPO=$(cd "$HERE/../.." && pwd)
WORK=${WORK:-/tmp/kbench}
RESULTS_DIR=${RESULTS_DIR:-$WORK/results}
KAFKA_PORT=${KAFKA_PORT:-19092}
KAFKA_DIR=${KAFKA_DIR:-$WORK/broker}
KAFKA_BOOTSTRAP=${KAFKA_BOOTSTRAP:-}
PEER_PORT=${PEER_PORT:-15530}
PARTITIONS=${PARTITIONS:-4}
LOAD_SECS=${LOAD_SECS:-15}
CONNS=${CONNS:-10}
MSG_SIZE=${MSG_SIZE:-400}
RATE=${RATE:-100000000}
SETTLE_SECS=${SETTLE_SECS:-2}
STALL_SECS=${STALL_SECS:-10}
MAX_DRAIN_SECS=${MAX_DRAIN_SECS:-120}
COMPRESSION=${COMPRESSION:-none}
KEY=${KEY-'${HOST}'}
TEMPLATE=${TEMPLATE:-'${ISODATE} ${HOST} ${MSGHDR}${MSG}'}
SNG_WORKERS=${SNG_WORKERS:-1}
SNG_RETRIES=${SNG_RETRIES:-1000}
SNG_QMAX=${SNG_QMAX:-100000}
ROUTER_JAR=${ROUTER_JAR:-$REPO/router-server/target/logrouter.jar}
# a worktree without a build of its own uses the main checkout's jar
[ -f "$ROUTER_JAR" ] || [ ! -f /work/main/router-server/target/logrouter.jar ] \
  || ROUTER_JAR=/work/main/router-server/target/logrouter.jar
LR_PARSE_WORKERS=${LR_PARSE_WORKERS:-2}
LR_WAIT_STRATEGY=${LR_WAIT_STRATEGY:-}   # empty: the router's default (backoff)
LR_BATCH_SIZE=${LR_BATCH_SIZE:-}   # empty: the sink's default batch-size
LR_FLUSH_TIMEOUT=${LR_FLUSH_TIMEOUT:-5ms}
LR_JAVA_OPTS=${LR_JAVA_OPTS:-}
LR_SINK_EXTRA=${LR_SINK_EXTRA:-}   # more YAML lines for the sink, e.g. $'batch-bytes: 1MiB\nack-interval: 1s'
KEEP_TOPICS=${KEEP_TOPICS:-0}
SAMPLE=${SAMPLE:-1}
LOCK=${LOCK:-/tmp/cpu.lock}
SINKS_CP=${SINKS_CP:-}
SYSLOG_NG=${SYSLOG_NG:-/usr/sbin/syslog-ng}
LOGGEN=${LOGGEN:-/usr/bin/loggen}
LOADGEN=${LOADGEN:-loggen}
BENCH_JAR=${BENCH_JAR:-$REPO/router-bench/target/router-bench.jar}
LOGGEN_GRACE_SECS=${LOGGEN_GRACE_SECS:-60}
JAVA=${JAVA:-java}
export WORK RESULTS_DIR KAFKA_PORT KAFKA_DIR KAFKA_BOOTSTRAP PEER_PORT PARTITIONS LOAD_SECS CONNS \
  MSG_SIZE RATE SETTLE_SECS STALL_SECS MAX_DRAIN_SECS COMPRESSION KEY TEMPLATE SNG_WORKERS SNG_RETRIES \
  SNG_QMAX ROUTER_JAR LR_PARSE_WORKERS LR_WAIT_STRATEGY LR_BATCH_SIZE LR_FLUSH_TIMEOUT LR_JAVA_OPTS LR_SINK_EXTRA KEEP_TOPICS SAMPLE \
  LOCK SINKS_CP SYSLOG_NG LOGGEN LOADGEN BENCH_JAR LOGGEN_GRACE_SECS JAVA

BOOT=${KAFKA_BOOTSTRAP:-127.0.0.1:$KAFKA_PORT}
CSV=$RESULTS_DIR/kafka.csv
# the harness's settings (../lib/bench-lib.sh); WARM is per peer (peer_prepare)
LOGGEN_BIN=$LOGGEN LG_SIZE=$MSG_SIZE LG_FORMAT=rfc3164 LG_RATE=$((RATE * CONNS)) LG_TLS=0 LG_UNIT=secs
LOAD=$LOAD_SECS LG_GRACE_SECS=$LOGGEN_GRACE_SECS STARTUP_SECS=30 STOP_SECS=60 POLL_SECS=0.1 DAEMON_LOG=daemon.log
# ktool ARGS: KafkaTool (topic admin, record counter) from router-bench.jar
ktool() { "$JAVA" -cp "$BENCH_JAR" -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
            dev.logrouter.bench.kafka.KafkaTool "$BOOT" "$@"; }

# ---- the adapter's hooks (../lib/bench-lib.sh) ------------------------------------------------
KWPID=""
# peer_prepare TOPIC: the warm-up per peer, the broker's pid (SPID; none with KAFKA_BOOTSTRAP)
peer_prepare() {
  TOPIC=$1
  WARM=${WARMUP_SECS:-}
  if [ -z "$WARM" ]; then if [ "$PEER" = lr ]; then WARM=10; else WARM=0; fi; fi
  if [ -z "$KAFKA_BOOTSTRAP" ]; then SPID=$(cat "$KAFKA_DIR/broker.pid"); fi
}
peer_start() {
  case $PEER in
    sng)
      local sed_key=""; [ -n "$KEY" ] || sed_key='/key("@KEY@")/d'
      sed -e "${sed_key:-s|@KEY@|$KEY|}" -e "s|@PORT@|$PEER_PORT|g" -e "s|@BOOT@|$BOOT|g" \
          -e "s|@TOPIC@|$TOPIC|g" -e "s|@WORKERS@|$SNG_WORKERS|g" -e "s|@RETRIES@|$SNG_RETRIES|g" \
          -e "s|@COMPRESSION@|$COMPRESSION|g" -e "s|@QMAX@|$SNG_QMAX|g" -e "s|@TEMPLATE@|$TEMPLATE|g" \
          "$HERE/sng-kafka.conf" > "$RUN/daemon.conf"
      "$SYSLOG_NG" -F -e --no-caps -f "$RUN/daemon.conf" -p "$RUN/syslog-ng.pid" \
        -R "$RUN/syslog-ng.persist" -c "$RUN/syslog-ng.ctl" > "$RUN/daemon.log" 2>&1 &
      DPID=$! ;;
    lr) write_lr_config "$RUN/logrouter.yaml" "$TOPIC"; bench_start_router "$RUN/logrouter.yaml" ;;
    *) echo "unknown peer $PEER" >&2; return 2 ;;
  esac
}
peer_alive() {
  if [ -n "${SPID:-}" ] && ! kill -0 "$SPID" 2>/dev/null; then echo "  the broker (pid $SPID) is gone" >&2; return 1; fi
}
# the drain: one `KafkaTool watch` per drain polls the count every 100 ms and appends "COUNT FIRST_SEEN_US"
# to count.txt when it changed; the probe reads the last line (no JVM start per poll)
peer_settle_start() {
  : > "$RUN/count.txt"
  # a simple command in the background, so that KWPID is the JVM itself (a function would run in a subshell)
  "$JAVA" -cp "$BENCH_JAR" -Dorg.slf4j.simpleLogger.defaultLogLevel=warn dev.logrouter.bench.kafka.KafkaTool \
    "$BOOT" watch "$TOPIC" 100 >> "$RUN/count.txt" 2>> "$RUN/count.err" &
  KWPID=$!
}
peer_settle_stop() {
  if [ -n "$KWPID" ]; then kill -TERM "$KWPID" 2>/dev/null || true; wait "$KWPID" 2>/dev/null || true; KWPID=""; fi
}
peer_probe() {
  local n us
  if read -r n us < <(tail -n 1 "$RUN/count.txt" 2>/dev/null) && [[ $n =~ ^[0-9]+$ ]]; then
    P_LEVEL=$n; P_MTIME_US=$us
  fi
}
peer_warmed() { echo "warm-up ${WARM}s: sent $WSENT, records $B1" | tee -a "$RUN/warmup.err"; }
peer_drained() {
  case $PEER in
    sng) syslog-ng-ctl stats -c "$RUN/syslog-ng.ctl" > "$RUN/stats.txt" 2>&1 || true ;;
  esac
}
peer_final() {
  F_TOTAL=$(ktool count "$TOPIC") || { echo "cannot count the records in $TOPIC: run not recorded" >&2; return 1; }
}
peer_record() {
  local lgc=$LG_CPU row
  [ "$lgc" != - ] || lgc=0.00
  row="$SENT,$DELIVERED,$R_LOST,$R_SECONDS,$R_RATE,$R_MBS,$R_DCPU,$R_DUS,${R_BCPU:-0.00},${R_BUS:-0.000},$lgc,$R_AVG"
  bench_csv "ts,peer,run,topic,partitions,conns,load_secs,warmup_secs,compression,key,sent,records,lost,load_s,msgs_per_s,in_MB_per_s,peer_cpu_s,peer_us_per_msg,broker_cpu_s,broker_us_per_msg,loggen_cpu_s,avg_msg_bytes,loggen_rc,run_dir" \
    "$(date -u +%FT%TZ),$PEER,$TAG,$TOPIC,$PARTITIONS,$CONNS,$LOAD_SECS,$WARM,$COMPRESSION,${KEY:-none},$row,$LG_RC,$RUN"
  echo "$PEER $TAG: sent=$SENT records=$DELIVERED lost=$R_LOST load_s=$R_SECONDS msg/s=$R_RATE peer_cpu=${R_DCPU}s ($R_DUS us/msg) broker=${R_BUS:-0.000} us/msg"
}

# write_lr_config FILE TOPIC: logrouter's equivalent of sng-kafka.conf
write_lr_config() {
  local f=$1 topic=$2
  {
    echo "# written by router-bench/kafka/kafka-bench.sh"
    echo "sources:"
    echo "  - name: net"
    echo "    type: tcp"
    echo "    bind: 127.0.0.1:$PEER_PORT"
    echo "pipeline:"
    echo "  parse-workers: $LR_PARSE_WORKERS"
    [ -n "$LR_WAIT_STRATEGY" ] && echo "  wait-strategy: $LR_WAIT_STRATEGY"
    echo "routes:"
    echo "  - name: all"
    echo "    to: [bus]"
    echo "sinks:"
    echo "  - name: bus"
    echo "    type: kafka"
    echo "    bootstrap-servers: $BOOT"
    echo "    topic: \"$topic\""
    [ -n "$KEY" ] && echo "    key: \"$KEY\""
    echo "    template: \"$TEMPLATE\""
    [ -n "$LR_BATCH_SIZE" ] && echo "    batch-size: $LR_BATCH_SIZE"
    echo "    flush-timeout: $LR_FLUSH_TIMEOUT"
    echo "    compression: $COMPRESSION"
    if [ -n "$LR_SINK_EXTRA" ]; then printf '%s\n' "$LR_SINK_EXTRA" | sed 's/^/    /'; fi
  } > "$f"
}

if [ "${1:-}" = __lrconfig ]; then   # kafka-bench.sh __lrconfig FILE TOPIC: print/write the lr config only
  shift; write_lr_config "$@"; exit 0
fi
bench_dispatch "$@"                  # __run PEER TAG TOPIC: one run, under the lock

# ============================================================================
# main
# ============================================================================
[ -f "$BENCH_JAR" ] || { echo "missing $BENCH_JAR (KafkaTool; build it: ./mvnw -q -B package -DskipTests)" >&2; exit 2; }
peer_check() {
  case $1 in
    sng) ls /usr/lib/syslog-ng/*/libkafka.so > /dev/null 2>&1 \
           || { echo "syslog-ng kafka module missing: apt-get install -y syslog-ng-mod-rdkafka" >&2; exit 2; } ;;
    lr) [ -f "$ROUTER_JAR" ] || { echo "missing $ROUTER_JAR (set ROUTER_JAR)" >&2; exit 2; }
        mkdir -p "$WORK"; write_lr_config "$WORK/lr-check.yaml" bench-check
        bench_check_config "$WORK/lr-check.yaml" "$WORK/lr-check.log" ;;
    *) echo "unknown peer $1 (sng|lr|sng,lr)" >&2; exit 2 ;;
  esac
}
server_start() {
  if [ -z "$KAFKA_BOOTSTRAP" ]; then
    if ! "$HERE/broker.sh" status "$KAFKA_DIR" > /dev/null 2>&1; then
      rm -rf "$KAFKA_DIR"
      SERVER_STARTED=1
      "$HERE/broker.sh" start "$KAFKA_DIR" "$KAFKA_PORT"
    fi
  fi
  ktool describe
}
server_stop() { "$HERE/broker.sh" stop "$KAFKA_DIR" || true; }
run_before() {
  local topic=bench-$1-$2
  ktool create-topic "$topic" "$PARTITIONS" > /dev/null
  RUN_ARGS=("$topic")
}
run_after() {
  local topic=bench-$1-$2 d
  d=$( [ -s "$CSV" ] && tail -1 "$CSV" | awk -F, -v t="$topic" '$4 == t {print $NF}' || true)
  if [ -n "$d" ] && [ -d "$d" ]; then
    ktool counts "$topic" > "$d/partitions.txt" 2>&1 || true
    echo "  records per partition: $(grep -v total "$d/partitions.txt" | awk '{printf "p%s=%s ", $1, $2}')"
    if [ "$SAMPLE" = 1 ]; then
      ktool sample "$topic" 1 > "$d/sample.txt" 2>&1 && sed -n 1p "$d/sample.txt" | cut -c1-200
    fi
  fi
  [ "$KEEP_TOPICS" = 1 ] || ktool delete-topic "$topic" || true
}
# ---- medians of this invocation's runs --------------------------------------------------
summary() {
  bench_medians '
  { n[$2]++; k = $2 SUBSEP n[$2]; rate[k] = $15; lost[k] = $13; cpu[k] = $18; bcpu[k] = $20 }
  END {
    for (p in n) {
      runs = ""; tl = 0
      for (i = 1; i <= n[p]; i++) { runs = runs sprintf(" %d", rate[p SUBSEP i]); tl += lost[p SUBSEP i] }
      printf "%-4s runs=%d msg/s median=%.0f (each:%s)  lost total=%d  peer us/msg median=%.3f  broker us/msg median=%.3f\n",
        p, n[p], med(rate, p, n[p]), runs, tl, med(cpu, p, n[p]), med(bcpu, p, n[p])
    }
  }'
}
bench_main "${1:?usage: kafka-bench.sh sng|lr|sng,lr [RUNS]}" "${2:-3}"

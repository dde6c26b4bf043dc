#!/usr/bin/env bash
# kafka-bench.sh PEER [RUNS]      (RUNS default 3)
#
# TCP -> Kafka throughput, logrouter vs syslog-ng 3.38 kafka-c(), same broker, same run.
#   PEER: sng      syslog-ng 3.38 with kafka-c() (config: sng-kafka.conf next to this script)
#         lr       logrouter (java -jar $ROUTER_JAR run --config FILE), kafka sink
#         sng,lr   both, alternating run by run (sng r1, lr r1, sng r2, ...) on one broker
#
# Per run: a fresh topic bench-<peer>-r<i> (PARTITIONS=4, replication 1); the peer listens on
# 127.0.0.1:$PEER_PORT; optional warm-up (WARMUP_SECS of the same load into the same topic,
# waited for, its records counted and subtracted; default 10 s for lr — JIT — and 0 for
# sng); then loggen, as the shared kit's W2 (/work/shared/bench/common.sh):
#   loggen -S -r 100000000 -I 15 --active-connections=10 -s 400 127.0.0.1 PORT
# then KafkaTool settle polls the topic's record count (sum over partitions of end offset -
# beginning offset) every 100 ms until it has not grown for SETTLE_SECS (2 s) with every
# message in, or for STALL_SECS (10 s) while short, or MAX_DRAIN_SECS (120 s); then the peer
# is stopped with SIGTERM. Recorded (one CSV line per run in $RESULTS_DIR/kafka.csv):
#   sent      = loggen's own count (count= on its stderr)
#   records   = records in the topic (minus the warm-up's)
#   lost      = sent - records (0 = zero loss; negative = duplicates)
#   load_s    = loggen start -> first poll that saw the final count
#   msgs_per_s = records / load_s
#   peer_cpu_s, peer_us_per_msg: the peer process' CPU (utime+stime+children, /proc/PID/stat)
#     over loggen start -> settled; broker_cpu_s / broker_us_per_msg the same for the broker;
#     loggen_cpu_s from /usr/bin/time.
# Medians per peer over this invocation's runs are printed at the end.
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
# ROUTER_JAR=<repo>/router-server/target/logrouter.jar (else /work/main's) LR_PARSE_WORKERS=2 LR_BATCH_SIZE=5000
# LR_FLUSH_TIMEOUT=5ms LR_JAVA_OPTS='' KEEP_TOPICS=0 SAMPLE=1 (print 1 record per partition)
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib/bench-lib.sh"   # cputicks, stop_pid, stop_loggen, wait_for_build, MED_AWK
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
LR_BATCH_SIZE=${LR_BATCH_SIZE:-5000}
LR_FLUSH_TIMEOUT=${LR_FLUSH_TIMEOUT:-5ms}
LR_JAVA_OPTS=${LR_JAVA_OPTS:-}
LR_SINK_EXTRA=${LR_SINK_EXTRA:-}   # more YAML lines for the sink, e.g. $'batch-bytes: 1MiB\nack-interval: 1s'
KEEP_TOPICS=${KEEP_TOPICS:-0}
SAMPLE=${SAMPLE:-1}
LOCK=${LOCK:-/tmp/cpu.lock}
SINKS_CP=${SINKS_CP:-/tmp/sinks-cp.txt}
SYSLOG_NG=${SYSLOG_NG:-/usr/sbin/syslog-ng}
LOGGEN=${LOGGEN:-/usr/bin/loggen}
JAVA=${JAVA:-java}
export WORK RESULTS_DIR KAFKA_PORT KAFKA_DIR KAFKA_BOOTSTRAP PEER_PORT PARTITIONS LOAD_SECS CONNS \
  MSG_SIZE RATE SETTLE_SECS STALL_SECS MAX_DRAIN_SECS COMPRESSION KEY TEMPLATE SNG_WORKERS SNG_RETRIES \
  SNG_QMAX ROUTER_JAR LR_PARSE_WORKERS LR_BATCH_SIZE LR_FLUSH_TIMEOUT LR_JAVA_OPTS KEEP_TOPICS SAMPLE \
  LOCK SINKS_CP SYSLOG_NG LOGGEN JAVA

BOOT=${KAFKA_BOOTSTRAP:-127.0.0.1:$KAFKA_PORT}
CLASSES=$WORK/classes
CSV=$RESULTS_DIR/kafka.csv
ktool() { "$JAVA" -cp "$CLASSES:$(cat "$SINKS_CP")" -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
            KafkaTool "$BOOT" "$@"; }

# ============================================================================
# __run PEER RUN_TAG TOPIC: one timed run; called as `flock $LOCK kafka-bench.sh __run ...`
# ============================================================================
one_run() {
  local peer=$1 tag=$2 topic=$3
  local run=$WORK/runs/$peer-$tag-$(date -u +%Y%m%dT%H%M%S)
  local clk; clk=$(getconf CLK_TCK)
  mkdir -p "$run"
  local warm=${WARMUP_SECS:-}
  if [ -z "$warm" ]; then if [ "$peer" = lr ]; then warm=10; else warm=0; fi; fi
  if ss -ltnH "( sport = :$PEER_PORT )" | grep -q .; then
    echo "port $PEER_PORT is already in use; refusing to start" >&2; return 3
  fi

  # ---- config + peer start ----------------------------------------------------
  DPID=""
  case $peer in
    sng)
      local sed_key=""; [ -n "$KEY" ] || sed_key='/key("@KEY@")/d'
      sed -e "${sed_key:-s|@KEY@|$KEY|}" -e "s|@PORT@|$PEER_PORT|g" -e "s|@BOOT@|$BOOT|g" \
          -e "s|@TOPIC@|$topic|g" -e "s|@WORKERS@|$SNG_WORKERS|g" -e "s|@RETRIES@|$SNG_RETRIES|g" \
          -e "s|@COMPRESSION@|$COMPRESSION|g" -e "s|@QMAX@|$SNG_QMAX|g" -e "s|@TEMPLATE@|$TEMPLATE|g" \
          "$HERE/sng-kafka.conf" > "$run/daemon.conf"
      "$SYSLOG_NG" -F -e --no-caps -f "$run/daemon.conf" -p "$run/syslog-ng.pid" \
        -R "$run/syslog-ng.persist" -c "$run/syslog-ng.ctl" > "$run/daemon.log" 2>&1 &
      DPID=$! ;;
    lr)
      [ -f "$ROUTER_JAR" ] || { echo "missing $ROUTER_JAR (set ROUTER_JAR)" >&2; return 2; }
      write_lr_config "$run/logrouter.yaml" "$topic"
      (cd "$run" && exec "$JAVA" $LR_JAVA_OPTS -jar "$ROUTER_JAR" run --config "$run/logrouter.yaml") \
        > "$run/daemon.log" 2>&1 &
      DPID=$! ;;
    *) echo "unknown peer $peer" >&2; return 2 ;;
  esac
  trap 'stop_peer' EXIT
  local i
  for i in $(seq 300); do
    ss -ltnH "( sport = :$PEER_PORT )" | grep -q . && break
    kill -0 "$DPID" 2>/dev/null || { echo "peer died at startup:" >&2; cat "$run/daemon.log" >&2; return 5; }
    sleep 0.1
  done
  ss -ltnH "( sport = :$PEER_PORT )" | grep -q . || { echo "peer not listening on $PEER_PORT" >&2; cat "$run/daemon.log" >&2; return 5; }
  sleep 0.5

  local lg="$LOGGEN -S -r $RATE --active-connections=$CONNS -s $MSG_SIZE 127.0.0.1 $PEER_PORT"
  # ---- warm-up (not measured) ---------------------------------------------------
  local base=0 wsent=0
  if (( warm > 0 )); then
    $LOGGEN -S -r "$RATE" -I "$warm" --active-connections="$CONNS" -s "$MSG_SIZE" 127.0.0.1 "$PEER_PORT" \
      > "$run/warmup.out" 2> "$run/warmup.err" || true
    wsent=$(grep -o 'count=[0-9]*' "$run/warmup.err" | tail -1 | cut -d= -f2 || true); wsent=${wsent:-0}
    read -r base _ < <(ktool settle "$topic" "$wsent" $((SETTLE_SECS * 1000)) $((STALL_SECS * 1000)) $((MAX_DRAIN_SECS * 1000)))
    echo "warm-up ${warm}s: sent $wsent, records $base" | tee -a "$run/warmup.err"
  fi

  # ---- load ------------------------------------------------------------------------
  local bpid=""; [ -z "$KAFKA_BOOTSTRAP" ] && bpid=$(cat "$KAFKA_DIR/broker.pid")
  echo "${lg/-S / -S -I $LOAD_SECS }" > "$run/loggen.cmd"
  local a_t a_d a_b
  a_t=${EPOCHREALTIME/./}; a_d=$(cputicks "$DPID"); a_b=$(cputicks "$bpid")
  set +e
  /usr/bin/time -f "%U %S %e" -o "$run/loggen.time" \
    $LOGGEN -S -r "$RATE" -I "$LOAD_SECS" --active-connections="$CONNS" -s "$MSG_SIZE" 127.0.0.1 "$PEER_PORT" \
    > "$run/loggen.out" 2> "$run/loggen.err"
  local lg_rc=$?
  set -e
  local l_t=${EPOCHREALTIME/./}
  local sent; sent=$(grep -o 'count=[0-9]*' "$run/loggen.err" | tail -1 | cut -d= -f2 || true); sent=${sent:-0}

  # ---- drain: wait until the topic stops growing -----------------------------------
  local total last_us
  read -r total last_us < <(ktool settle "$topic" $((base + sent)) $((SETTLE_SECS * 1000)) \
                              $((STALL_SECS * 1000)) $((MAX_DRAIN_SECS * 1000)))
  local e_d e_b; e_d=$(cputicks "$DPID"); e_b=$(cputicks "$bpid")
  (( last_us < l_t )) && last_us=$l_t
  case $peer in
    sng) syslog-ng-ctl stats -c "$run/syslog-ng.ctl" > "$run/stats.txt" 2>&1 || true ;;
  esac
  trap - EXIT
  stop_peer

  # ---- record ------------------------------------------------------------------------
  local records=$((total - base))
  read -r lg_u lg_s _ < <(tail -1 "$run/loggen.time")
  local avg; avg=$(sed -n 's/.*msg size=\([0-9.]*\).*/\1/p' "$run/loggen.err" | tail -1)
  local row
  row=$(awk -v a="$a_t" -v e="$last_us" -v sent="$sent" -v rec="$records" -v d0="$a_d" -v d1="$e_d" \
    -v b0="${a_b:-0}" -v b1="${e_b:-0}" -v clk="$clk" -v lgu="$lg_u" -v lgs="$lg_s" -v avg="${avg:-0}" 'BEGIN {
      el = (e - a) / 1e6; if (el <= 0) el = 1e-9; rate = rec / el;
      dc = (d1 - d0) / clk; bc = (b1 - b0) / clk; n = (rec > 0) ? rec : 1;
      printf "%d,%d,%d,%.3f,%.0f,%.2f,%.2f,%.3f,%.2f,%.3f,%.2f,%.1f",
        sent, rec, sent - rec, el, rate, rate * avg / 1e6, dc, dc / n * 1e6, bc, bc / n * 1e6, lgu + lgs, avg }')
  mkdir -p "$RESULTS_DIR"
  [ -s "$CSV" ] || echo "ts,peer,run,topic,partitions,conns,load_secs,warmup_secs,compression,key,sent,records,lost,load_s,msgs_per_s,in_MB_per_s,peer_cpu_s,peer_us_per_msg,broker_cpu_s,broker_us_per_msg,loggen_cpu_s,avg_msg_bytes,loggen_rc,run_dir" > "$CSV"
  echo "$(date -u +%FT%TZ),$peer,$tag,$topic,$PARTITIONS,$CONNS,$LOAD_SECS,$warm,$COMPRESSION,${KEY:-none},$row,$lg_rc,$run" >> "$CSV"
  echo "$peer $tag: sent=$sent records=$records lost=$((sent - records)) $(echo "$row" | awk -F, '{printf "load_s=%s msg/s=%s peer_cpu=%ss (%s us/msg) broker=%s us/msg", $4, $5, $7, $8, $10}')"
}

stop_peer() {
  stop_pid "${DPID:-}" 60 peer
  DPID=""
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
    echo "    batch-size: $LR_BATCH_SIZE"
    echo "    flush-timeout: $LR_FLUSH_TIMEOUT"
    echo "    compression: $COMPRESSION"
    if [ -n "$LR_SINK_EXTRA" ]; then printf '%s\n' "$LR_SINK_EXTRA" | sed 's/^/    /'; fi
  } > "$f"
}

if [ "${1:-}" = __run ]; then
  shift; one_run "$@"; exit $?
fi
if [ "${1:-}" = __lrconfig ]; then   # kafka-bench.sh __lrconfig FILE TOPIC: print/write the lr config only
  shift; write_lr_config "$@"; exit 0
fi

# ============================================================================
# main
# ============================================================================
peers=${1:?usage: kafka-bench.sh sng|lr|sng,lr [RUNS]}; runs=${2:-3}
IFS=, read -r -a PEERS <<< "$peers"
for p in "${PEERS[@]}"; do
  case $p in
    sng) ls /usr/lib/syslog-ng/*/libkafka.so > /dev/null 2>&1 \
           || { echo "syslog-ng kafka module missing: apt-get install -y syslog-ng-mod-rdkafka" >&2; exit 2; } ;;
    lr) [ -f "$ROUTER_JAR" ] || { echo "missing $ROUTER_JAR (set ROUTER_JAR)" >&2; exit 2; }
        mkdir -p "$WORK"; write_lr_config "$WORK/lr-check.yaml" bench-check
        "$JAVA" -jar "$ROUTER_JAR" check-config --config "$WORK/lr-check.yaml" > "$WORK/lr-check.log" 2>&1 || { echo "logrouter rejects the config:" >&2; cat "$WORK/lr-check.log" >&2; exit 2; } ;;
    *) echo "unknown peer $p (sng|lr|sng,lr)" >&2; exit 2 ;;
  esac
done
mkdir -p "$WORK" "$RESULTS_DIR"

# the record counter, compiled once (outside any timing)
[ -s "$SINKS_CP" ] || (cd "$REPO" && flock /tmp/mvn.lock ./mvnw -o -q -B -pl router-sinks dependency:build-classpath \
    -Dmdep.outputFile="$SINKS_CP" -Dmdep.includeScope=test)
if [ ! -f "$CLASSES/KafkaTool.class" ] || [ "$HERE/KafkaTool.java" -nt "$CLASSES/KafkaTool.class" ]; then
  mkdir -p "$CLASSES"
  javac -nowarn -cp "$(cat "$SINKS_CP")" -d "$CLASSES" "$HERE/KafkaTool.java"
fi

started_broker=0
finish() {
  if [ "$started_broker" = 1 ]; then "$HERE/broker.sh" stop "$KAFKA_DIR" || true; fi
}
trap finish EXIT
if [ -z "$KAFKA_BOOTSTRAP" ]; then
  if ! "$HERE/broker.sh" status "$KAFKA_DIR" > /dev/null 2>&1; then
    rm -rf "$KAFKA_DIR"
    "$HERE/broker.sh" start "$KAFKA_DIR" "$KAFKA_PORT"
    started_broker=1
  fi
fi
ktool describe

first_line=$( [ -s "$CSV" ] && wc -l < "$CSV" || echo 1)
for i in $(seq "$runs"); do
  for p in "${PEERS[@]}"; do
    topic=bench-$p-r$i
    ktool create-topic "$topic" "$PARTITIONS" > /dev/null
    flock "$LOCK" "$0" __run "$p" "r$i" "$topic" || echo "run $p r$i failed (rc $?)" >&2
    d=$( [ -s "$CSV" ] && tail -1 "$CSV" | awk -F, -v t="$topic" '$4 == t {print $NF}' || true)
    if [ -n "$d" ] && [ -d "$d" ]; then
      ktool counts "$topic" > "$d/partitions.txt" 2>&1 || true
      echo "  records per partition: $(grep -v total "$d/partitions.txt" | awk '{printf "p%s=%s ", $1, $2}')"
      if [ "$SAMPLE" = 1 ]; then
        ktool sample "$topic" 1 > "$d/sample.txt" 2>&1 && sed -n 1p "$d/sample.txt" | cut -c1-200
      fi
    fi
    [ "$KEEP_TOPICS" = 1 ] || ktool delete-topic "$topic" || true
  done
done

# ---- medians of this invocation's runs --------------------------------------------------
echo
echo "medians over this invocation ($CSV):"
tail -n +$((first_line + 1)) "$CSV" | awk -F, "$MED_AWK"'
  { n[$2]++; k = $2 SUBSEP n[$2]; rate[k] = $15; lost[k] = $13; cpu[k] = $18; bcpu[k] = $20 }
  END {
    for (p in n) {
      runs = ""; tl = 0
      for (i = 1; i <= n[p]; i++) { runs = runs sprintf(" %d", rate[p SUBSEP i]); tl += lost[p SUBSEP i] }
      printf "%-4s runs=%d msg/s median=%.0f (each:%s)  lost total=%d  peer us/msg median=%.3f  broker us/msg median=%.3f\n",
        p, n[p], med(rate, p, n[p]), runs, tl, med(cpu, p, n[p]), med(bcpu, p, n[p])
    }
  }'

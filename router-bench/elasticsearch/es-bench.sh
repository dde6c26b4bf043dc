#!/usr/bin/env bash
# es-bench.sh PEER [RUNS]      (RUNS default 3)
#
# TCP -> Elasticsearch throughput, logrouter vs rsyslog 8.2302 omelasticsearch, same server,
# same run.
#   PEER: rs      rsyslog 8.2302 (private prefix of the shared kit) + omelasticsearch
#                 (config: rs-es.conf next to this script)
#         lr      logrouter (java -jar $ROUTER_JAR run --config FILE), elasticsearch sink
#         rs,lr   both, alternating run by run (rs r1, lr r1, rs r2, ...) into one ES node
#
# Per run: a fresh index bench-<peer>-r<i> created explicitly (SHARDS=1, REPLICAS=0,
# REFRESH_INTERVAL=1s, an explicit mapping of the 7 document fields, the same for both peers);
# the peer listens on 127.0.0.1:$PEER_PORT; optional warm-up (WARMUP_SECS of the same load into
# the same index, waited for, its documents subtracted; default 10 s for lr — JIT — and 0 for
# rs); then loggen:
#   loggen -S -P -r 100000000 -I 15 --active-connections=10 -s 400 127.0.0.1 PORT
# (-P = RFC 5424, octet-counted; LG_PROTO=3164 drops it, see README). Then the drain: the
# index's indexing.index_total (primaries, _stats; counts indexed operations without a
# refresh) is polled every POLL_SECS (0.2 s) until it has not grown for SETTLE_SECS (2 s) with
# every message in, or for STALL_SECS (30 s) while short, or MAX_DRAIN_SECS (600 s); then the
# peer is stopped (SIGTERM) and the index is _refresh'ed and _count'ed. Recorded (one CSV line
# per run in $RESULTS_DIR/es.csv):
#   sent      = loggen's own count (count= on its stderr)
#   indexed   = _count of the index after _refresh (minus the warm-up's documents)
#   lost      = sent - indexed (0 = zero loss; negative = duplicates)
#   seconds   = loggen start -> the first poll that saw the final index_total (drain end)
#   docs_per_s = indexed / seconds
#   router_cpu_s, router_us_per_doc: the peer process' CPU (utime+stime+children,
#     /proc/PID/stat) from loggen start to the drain end; es_cpu_s / es_us_per_doc the same for
#     the Elasticsearch JVM (pid from es-server.sh's pid file); loggen_cpu_s from /usr/bin/time.
#   peer_errors = lines in rsyslog's omelasticsearch errorfile (rs; empty for lr)
# Medians per peer over this invocation's runs and the lr/rs ratios are printed at the end.
# ES (es-server.sh, $ES_DIR, 127.0.0.1:$ES_PORT) is started if it is not running and stopped
# at the end if this script started it; ES_URL=http://host:port uses an external node instead
# (its CPU is then not measured).
# Each run (peer start .. peer stop) holds `flock $LOCK` (default /tmp/cpu.lock); ES
# start/stop, index creation/deletion and the document sample are outside it. Before each run
# the script waits while a Maven build runs (`pgrep -f maven`, at most MAVEN_WAIT_SECS).
#
# Environment (defaults): WORK=/tmp/esbench RESULTS_DIR=$WORK/results ES_DIR=/tmp/es-bench
# ES_PORT=19200 ES_HEAP=1g ES_URL='' PEER_PORT=15540 LOAD_SECS (or DURATION)=15 CONNS=10
# MSG_SIZE=400 RATE=100000000 (loggen -r, per connection) LG_PROTO=5424 (5424|3164)
# SETTLE_SECS=2 STALL_SECS=30 MAX_DRAIN_SECS=600 POLL_SECS=0.2 WARMUP_SECS (lr 10, rs 0)
# SHARDS=1 REPLICAS=0 REFRESH_INTERVAL=1s KEEP_INDICES=0 SAMPLE=1 MAVEN_WAIT_SECS=1800
# LOGGEN_GRACE_SECS=60 (loggen is stopped that long after its -I if still running)
# ES_WARMUP_DOCS=300000 (documents bulk-indexed into a scratch index before the first run, so
# that no peer gets a cold ES JVM; 0 = none)
# rsyslog: RSYSLOG_ROOT=/opt/peers/rsyslog-root RS_QUEUE_SIZE=500000 RS_BATCH=5000 RS_WORKERS=2
#   RS_MAXBYTES=5m
# logrouter: ROUTER_JAR=<repo>/router-server/target/logrouter.jar (else /work/main's)
#   LR_WORKERS=2 (pipeline parse-workers) LR_BATCH_SIZE=5000 LR_FLUSH_TIMEOUT=1s
#   LR_MAX_IN_FLIGHT=2 LR_JAVA_OPTS='' LR_SINK_EXTRA='' (YAML lines appended to the sink,
#   e.g. $'generate-id: false\ncompression: true')
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib/bench-lib.sh"   # cputicks, stop_pid, stop_loggen, wait_for_build, MED_AWK
REPO=$(cd "$HERE/../.." && pwd)
WORK=${WORK:-/tmp/esbench}
RESULTS_DIR=${RESULTS_DIR:-$WORK/results}
ES_DIR=${ES_DIR:-/tmp/es-bench}
ES_PORT=${ES_PORT:-19200}
ES_HEAP=${ES_HEAP:-1g}
ES_URL=${ES_URL:-}
PEER_PORT=${PEER_PORT:-15540}
LOAD_SECS=${LOAD_SECS:-${DURATION:-15}}
CONNS=${CONNS:-10}
MSG_SIZE=${MSG_SIZE:-400}
RATE=${RATE:-100000000}
LG_PROTO=${LG_PROTO:-5424}
SETTLE_SECS=${SETTLE_SECS:-2}
STALL_SECS=${STALL_SECS:-30}
MAX_DRAIN_SECS=${MAX_DRAIN_SECS:-600}
POLL_SECS=${POLL_SECS:-0.2}
SHARDS=${SHARDS:-1}
REPLICAS=${REPLICAS:-0}
REFRESH_INTERVAL=${REFRESH_INTERVAL:-1s}
KEEP_INDICES=${KEEP_INDICES:-0}
SAMPLE=${SAMPLE:-1}
MAVEN_WAIT_SECS=${MAVEN_WAIT_SECS:-1800}
LOGGEN_GRACE_SECS=${LOGGEN_GRACE_SECS:-60}
ES_WARMUP_DOCS=${ES_WARMUP_DOCS:-300000}
RSYSLOG_ROOT=${RSYSLOG_ROOT:-/opt/peers/rsyslog-root}
RSYSLOGD=${RSYSLOGD:-$RSYSLOG_ROOT/usr/sbin/rsyslogd}
RSYSLOG_MODDIR=${RSYSLOG_MODDIR:-$RSYSLOG_ROOT/usr/lib/x86_64-linux-gnu/rsyslog}
RS_QUEUE_SIZE=${RS_QUEUE_SIZE:-500000}
RS_BATCH=${RS_BATCH:-5000}
RS_WORKERS=${RS_WORKERS:-2}
RS_MAXBYTES=${RS_MAXBYTES:-5m}
ROUTER_JAR=${ROUTER_JAR:-$REPO/router-server/target/logrouter.jar}
# a worktree without a build of its own uses the main checkout's jar
[ -f "$ROUTER_JAR" ] || [ ! -f /work/main/router-server/target/logrouter.jar ] \
  || ROUTER_JAR=/work/main/router-server/target/logrouter.jar
LR_WORKERS=${LR_WORKERS:-${LR_PARSE_WORKERS:-2}}
LR_BATCH_SIZE=${LR_BATCH_SIZE:-5000}
LR_FLUSH_TIMEOUT=${LR_FLUSH_TIMEOUT:-1s}
LR_MAX_IN_FLIGHT=${LR_MAX_IN_FLIGHT:-2}
LR_JAVA_OPTS=${LR_JAVA_OPTS:-}
LR_SINK_EXTRA=${LR_SINK_EXTRA:-}
LOCK=${LOCK:-/tmp/cpu.lock}
LOGGEN=${LOGGEN:-/usr/bin/loggen}
JAVA=${JAVA:-java}
export WORK RESULTS_DIR ES_DIR ES_PORT ES_HEAP ES_URL PEER_PORT LOAD_SECS CONNS MSG_SIZE RATE LG_PROTO \
  SETTLE_SECS STALL_SECS MAX_DRAIN_SECS POLL_SECS SHARDS REPLICAS REFRESH_INTERVAL KEEP_INDICES SAMPLE \
  MAVEN_WAIT_SECS LOGGEN_GRACE_SECS ES_WARMUP_DOCS RSYSLOG_ROOT RSYSLOGD RSYSLOG_MODDIR RS_QUEUE_SIZE RS_BATCH RS_WORKERS RS_MAXBYTES \
  ROUTER_JAR LR_WORKERS LR_BATCH_SIZE LR_FLUSH_TIMEOUT LR_MAX_IN_FLIGHT LR_JAVA_OPTS LR_SINK_EXTRA \
  LOCK LOGGEN JAVA

ES=${ES_URL:-http://127.0.0.1:$ES_PORT}
ES=${ES%/}
if [[ $ES =~ ^https?://([^:/]+):([0-9]+)$ ]]; then ES_HOST=${BASH_REMATCH[1]}; ES_HPORT=${BASH_REMATCH[2]}
else echo "ES_URL must look like http://host:port (got $ES)" >&2; exit 2; fi
CSV=$RESULTS_DIR/es.csv
case $LG_PROTO in
  5424) LG_FMT=(-P) ;;
  3164) LG_FMT=() ;;
  *) echo "LG_PROTO must be 5424 or 3164" >&2; exit 2 ;;
esac

# ---- Elasticsearch helpers ------------------------------------------------------------------
# esq METHOD PATH [JSON BODY]: prints the response body; fails on HTTP >= 400
esq() {
  if [ $# -ge 3 ]; then
    curl -fsS -m 60 -X "$1" -H 'Content-Type: application/json' "$ES$2" -d "$3"
  else
    curl -fsS -m 60 -X "$1" "$ES$2"
  fi
}
es_pid() { if [ -z "$ES_URL" ] && [ -s "$ES_DIR/run/es.pid" ]; then cat "$ES_DIR/run/es.pid"; fi; }
# es_alive: the ES process we measure still exists (always true with an external ES_URL)
es_alive() { [ -z "${ESPID:-}" ] || kill -0 "$ESPID" 2>/dev/null; }

# create_index NAME: delete it if it exists, create it with the benchmark's settings + mapping
create_index() {
  local idx=$1
  curl -sS -m 60 -o /dev/null -X DELETE "$ES/$idx" || true
  esq PUT "/$idx" "$(cat <<EOF
{"settings": {"index": {"number_of_shards": $SHARDS, "number_of_replicas": $REPLICAS,
              "refresh_interval": "$REFRESH_INTERVAL"}},
 "mappings": {"properties": {
   "@timestamp": {"type": "date"},
   "host": {"type": "keyword"}, "program": {"type": "keyword"}, "pid": {"type": "keyword"},
   "severity": {"type": "keyword"}, "facility": {"type": "keyword"},
   "message": {"type": "text"}}}}
EOF
)" > /dev/null
  esq GET "/_cluster/health/$idx?wait_for_status=green&timeout=60s" > /dev/null
}

# index_total NAME: indexing.index_total of the primaries (indexed operations, no refresh
# needed); -1 when the request fails
index_total() {
  local r
  r=$(curl -sS -m 10 "$ES/$1/_stats/indexing?filter_path=_all.primaries.indexing.index_total" 2>/dev/null || true)
  if [[ $r =~ \"index_total\":([0-9]+) ]]; then echo "${BASH_REMATCH[1]}"; else echo -1; fi
}

# doc_count NAME: _refresh, then _count
doc_count() {
  esq POST "/$1/_refresh" > /dev/null
  local r; r=$(esq GET "/$1/_count")
  if [[ $r =~ \"count\":([0-9]+) ]]; then echo "${BASH_REMATCH[1]}"; else echo "bad _count reply: $r" >&2; return 1; fi
}

# settle NAME EXPECTED: poll index_total until it has not grown for SETTLE_SECS with
# >= EXPECTED, or for STALL_SECS while short, or MAX_DRAIN_SECS in all. Sets S_TOTAL (last
# value), S_LAST_US (epoch µs of the first poll that saw it) and S_D / S_B (peer / ES CPU ticks
# at that poll).
settle() {
  local idx=$1 expected=$2 v now last=-1
  local start=${EPOCHREALTIME/./} last_change
  local settle_us=$(( SETTLE_SECS * 1000000 )) stall_us=$(( STALL_SECS * 1000000 ))
  local max_us=$(( MAX_DRAIN_SECS * 1000000 ))
  last_change=$start; S_LAST_US=$start; S_D=$(cputicks "${DPID:-}"); S_B=$(cputicks "$ESPID")
  S_ES_DEAD=0
  while :; do
    if ! es_alive; then
      echo "  Elasticsearch (pid $ESPID) is gone: run aborted (see $ES_DIR/logs/)" >&2; S_ES_DEAD=1; break
    fi
    v=$(index_total "$idx")
    now=${EPOCHREALTIME/./}
    if (( v >= 0 && v != last )); then
      last=$v; last_change=$now; S_LAST_US=$now
      S_D=$(cputicks "${DPID:-}"); S_B=$(cputicks "$ESPID")
    fi
    if (( last >= expected )); then
      if (( now - last_change >= settle_us )); then break; fi
    elif (( now - last_change >= stall_us )); then
      echo "  index_total stalled at $last of $expected for ${STALL_SECS}s" >&2; break
    fi
    if (( now - start >= max_us )); then echo "  drain not finished after ${MAX_DRAIN_SECS}s" >&2; break; fi
    sleep "$POLL_SECS"
  done
  S_TOTAL=$last
}

# es_warmup: bulk-index ES_WARMUP_DOCS documents of the benchmark's shape (5000 per request)
# into the scratch index bench-warmup, then delete it. Run under the CPU lock.
es_warmup() {
  local n=$ES_WARMUP_DOCS body=$WORK/warmup-bulk.ndjson i t0=$SECONDS
  (( n > 0 )) || return 0
  create_index bench-warmup
  awk 'BEGIN { pad = sprintf("%300s", ""); gsub(/ /, "PADD", pad); pad = substr(pad, 1, 300)
    for (i = 0; i < 5000; i++) {
      print "{\"index\":{}}"
      printf "{\"@timestamp\":\"2026-01-01T00:00:00.000Z\",\"host\":\"localhost\",\"program\":\"prg00000\",\"pid\":\"1234\",\"severity\":\"info\",\"facility\":\"auth\",\"message\":\"seq: %010d, thread: 0000, runid: 1, %s\"}\n", i, pad
    } }' > "$body"
  for i in $(seq $(( (n + 4999) / 5000 ))); do
    curl -fsS -m 120 -o /dev/null -H 'Content-Type: application/x-ndjson' --data-binary "@$body" "$ES/bench-warmup/_bulk"
  done
  esq DELETE /bench-warmup > /dev/null
  echo "ES warm-up: $n documents bulk-indexed in $((SECONDS - t0)) s"
}

# ============================================================================
# __run PEER RUN_TAG INDEX: one timed run; called as `flock $LOCK es-bench.sh __run ...`
# ============================================================================
DPID=""; LGPID=""; ESPID=""
stop_peer() {
  stop_loggen
  LGPID=""
  stop_pid "${DPID:-}" 60 peer
  DPID=""
}

# run_loggen SECS OUTPREFIX: loggen in the background (so a trap can stop it), waited for;
# sets LG_RC. Watchdog: loggen only looks at its -I limit between sends, so a peer that stops
# reading (e.g. its queues are full and ES is gone) would block it forever; it is stopped
# after SECS + LOGGEN_GRACE_SECS, or as soon as the ES process is gone (LG_RC 124 / 125).
run_loggen() {
  local secs=$1 out=$2 why=0
  /usr/bin/time -f "%U %S %e" -o "$out.time" \
    "$LOGGEN" -S "${LG_FMT[@]}" -r "$RATE" -I "$secs" --active-connections="$CONNS" -s "$MSG_SIZE" \
    127.0.0.1 "$PEER_PORT" > "$out.out" 2> "$out.err" &
  LGPID=$!
  local deadline=$(( SECONDS + secs + LOGGEN_GRACE_SECS ))
  while kill -0 "$LGPID" 2>/dev/null; do
    if (( SECONDS > deadline )); then
      echo "  loggen still running $LOGGEN_GRACE_SECS s after its -I $secs: stopped (the peer stopped reading?)" >&2
      why=124; stop_loggen; break
    fi
    if ! es_alive; then
      echo "  Elasticsearch (pid $ESPID) is gone: loggen stopped" >&2
      why=125; stop_loggen; break
    fi
    sleep 0.5
  done
  LG_RC=0
  wait "$LGPID" || LG_RC=$?
  if (( why != 0 )); then LG_RC=$why; fi
  LGPID=""
}

one_run() {
  local peer=$1 tag=$2 idx=$3
  local run=$WORK/runs/$peer-$tag-$(date -u +%Y%m%dT%H%M%S)
  local clk; clk=$(getconf CLK_TCK)
  mkdir -p "$run"
  local warm=${WARMUP_SECS:-}
  if [ -z "$warm" ]; then if [ "$peer" = lr ]; then warm=10; else warm=0; fi; fi
  if ss -ltnH "( sport = :$PEER_PORT )" | grep -q .; then
    echo "port $PEER_PORT is already in use; refusing to start" >&2; return 3
  fi
  ESPID=$(es_pid)
  if ! es_alive || ! esq GET "/_cluster/health?wait_for_status=yellow&timeout=30s" > /dev/null; then
    echo "Elasticsearch at $ES is not running/healthy" >&2; return 6
  fi

  # ---- config + peer start ------------------------------------------------------------------
  trap 'stop_peer' EXIT
  trap 'exit 130' INT TERM
  case $peer in
    rs)
      sed -e "s|@RUN@|$run|g" -e "s|@PORT@|$PEER_PORT|g" -e "s|@ESHOST@|$ES_HOST|g" \
          -e "s|@ESPORT@|$ES_HPORT|g" -e "s|@INDEX@|$idx|g" -e "s|@QSIZE@|$RS_QUEUE_SIZE|g" \
          -e "s|@BATCH@|$RS_BATCH|g" -e "s|@WORKERS@|$RS_WORKERS|g" -e "s|@MAXBYTES@|$RS_MAXBYTES|g" \
          "$HERE/rs-es.conf" > "$run/daemon.conf"
      "$RSYSLOGD" -n -f "$run/daemon.conf" -i "$run/rsyslogd.pid" -M "$RSYSLOG_MODDIR" \
        > "$run/daemon.log" 2>&1 &
      DPID=$! ;;
    lr)
      [ -f "$ROUTER_JAR" ] || { echo "missing $ROUTER_JAR (set ROUTER_JAR)" >&2; return 2; }
      write_lr_config "$run/logrouter.yaml" "$idx"
      # shellcheck disable=SC2086
      (cd "$run" && exec "$JAVA" $LR_JAVA_OPTS -jar "$ROUTER_JAR" run --config "$run/logrouter.yaml") \
        > "$run/daemon.log" 2>&1 &
      DPID=$! ;;
    *) echo "unknown peer $peer" >&2; return 2 ;;
  esac
  local i
  for i in $(seq 300); do
    if ss -ltnH "( sport = :$PEER_PORT )" | grep -q .; then break; fi
    kill -0 "$DPID" 2>/dev/null || { echo "peer died at startup:" >&2; cat "$run/daemon.log" >&2; return 5; }
    sleep 0.1
  done
  ss -ltnH "( sport = :$PEER_PORT )" | grep -q . || { echo "peer not listening on $PEER_PORT" >&2; cat "$run/daemon.log" >&2; return 5; }
  sleep 0.5

  # ---- warm-up (not measured) -----------------------------------------------------------------
  local base_total=0 base_docs=0 wsent=0
  if (( warm > 0 )); then
    run_loggen "$warm" "$run/warmup"
    wsent=$(grep -o 'count=[0-9]*' "$run/warmup.err" | tail -1 | cut -d= -f2 || true); wsent=${wsent:-0}
    settle "$idx" "$wsent"
    if [ "$S_ES_DEAD" = 1 ]; then return 6; fi
    base_total=$S_TOTAL
    (( base_total >= 0 )) || base_total=0
    base_docs=$(doc_count "$idx")
    echo "  warm-up ${warm}s: sent $wsent, indexed $base_docs (index_total $base_total)" | tee -a "$run/warmup.err"
  fi

  # ---- load -----------------------------------------------------------------------------------
  echo "$LOGGEN -S ${LG_FMT[*]} -r $RATE -I $LOAD_SECS --active-connections=$CONNS -s $MSG_SIZE 127.0.0.1 $PEER_PORT" \
    > "$run/loggen.cmd"
  local a_t a_d a_b
  a_t=${EPOCHREALTIME/./}; a_d=$(cputicks "$DPID"); a_b=$(cputicks "$ESPID")
  run_loggen "$LOAD_SECS" "$run/loggen"
  local lg_rc=$LG_RC
  local l_t=${EPOCHREALTIME/./}
  local sent; sent=$(grep -o 'count=[0-9]*' "$run/loggen.err" | tail -1 | cut -d= -f2 || true); sent=${sent:-0}

  # ---- drain: wait until the index stops growing ----------------------------------------------
  settle "$idx" $(( base_total + sent ))
  if [ "$S_ES_DEAD" = 1 ]; then return 6; fi
  local last_us=$S_LAST_US e_d=$S_D e_b=$S_B
  if (( last_us < l_t )); then last_us=$l_t; fi
  local totals=$S_TOTAL
  if [ -f "$run/impstats.log" ]; then tail -n 40 "$run/impstats.log" > "$run/stats.txt"; fi
  trap - EXIT INT TERM
  stop_peer

  # ---- record ---------------------------------------------------------------------------------
  local docs
  docs=$(doc_count "$idx") || { echo "cannot count the documents in $idx: run not recorded" >&2; return 6; }
  local indexed=$(( docs - base_docs ))
  local errs=""
  if [ "$peer" = rs ]; then
    errs=0
    if [ -f "$run/es-errors.json" ]; then errs=$(wc -l < "$run/es-errors.json"); fi
  fi
  local lg_u lg_s
  read -r lg_u lg_s _ < <(tail -1 "$run/loggen.time")
  local avg; avg=$(sed -n 's/.*msg size=\([0-9.]*\).*/\1/p' "$run/loggen.err" | tail -1)
  local row
  row=$(awk -v a="$a_t" -v e="$last_us" -v sent="$sent" -v rec="$indexed" -v d0="$a_d" -v d1="$e_d" \
    -v b0="$a_b" -v b1="$e_b" -v clk="$clk" -v lgu="${lg_u:-0}" -v lgs="${lg_s:-0}" -v avg="${avg:-0}" 'BEGIN {
      el = (e - a) / 1e6; if (el <= 0) el = 1e-9; rate = rec / el;
      dc = (d1 - d0) / clk; bc = (b1 - b0) / clk; n = (rec > 0) ? rec : 1;
      printf "%d,%d,%d,%.3f,%.0f,%.2f,%.3f,%.2f,%.3f,%.2f,%.1f",
        sent, rec, sent - rec, el, rate, dc, dc / n * 1e6, bc, bc / n * 1e6, lgu + lgs, avg }')
  mkdir -p "$RESULTS_DIR"
  [ -s "$CSV" ] || echo "ts,peer,run,index,conns,msg_size,proto,load_secs,warmup_secs,sent,indexed,lost,seconds,docs_per_s,router_cpu_s,router_us_per_doc,es_cpu_s,es_us_per_doc,loggen_cpu_s,avg_msg_bytes,index_total,peer_errors,loggen_rc,run_dir" > "$CSV"
  echo "$(date -u +%FT%TZ),$peer,$tag,$idx,$CONNS,$MSG_SIZE,$LG_PROTO,$LOAD_SECS,$warm,$row,$((totals - base_total)),$errs,$lg_rc,$run" >> "$CSV"
  echo "$peer $tag: sent=$sent indexed=$indexed lost=$((sent - indexed)) $(echo "$row" | awk -F, '{printf "seconds=%s docs/s=%s router=%s us/doc es=%s us/doc", $4, $5, $7, $9}')${errs:+ errorfile_lines=$errs}"
  if [ "$lg_rc" != 0 ]; then echo "  (loggen exit code $lg_rc, see $run/loggen.err)" >&2; fi
  if (( sent != indexed )); then echo "  LOSS/DUPLICATES: sent $sent, indexed $indexed (run dir $run)" >&2; fi
  return 0
}

# write_lr_config FILE INDEX: logrouter's equivalent of rs-es.conf
write_lr_config() {
  local f=$1 idx=$2
  {
    echo "# written by router-bench/elasticsearch/es-bench.sh"
    echo "sources:"
    echo "  - name: net"
    echo "    type: tcp"
    echo "    bind: 127.0.0.1:$PEER_PORT"
    echo "pipeline:"
    echo "  parse-workers: $LR_WORKERS"
    echo "routes:"
    echo "  - name: all"
    echo "    to: [es]"
    echo "sinks:"
    echo "  - name: es"
    echo "    type: elasticsearch"
    echo "    hosts: [\"$ES\"]"
    echo "    index: \"$idx\""
    echo "    batch-size: $LR_BATCH_SIZE"
    echo "    flush-timeout: $LR_FLUSH_TIMEOUT"
    echo "    max-in-flight: $LR_MAX_IN_FLIGHT"
    if [ -n "$LR_SINK_EXTRA" ]; then printf '%s\n' "$LR_SINK_EXTRA" | sed 's/^/    /'; fi
  } > "$f"
}

if [ "${1:-}" = __run ]; then
  shift; one_run "$@"; exit $?
fi
if [ "${1:-}" = __eswarmup ]; then   # es-bench.sh __eswarmup: only the ES warm-up (under the lock)
  es_warmup; exit 0
fi
if [ "${1:-}" = __lrconfig ]; then   # es-bench.sh __lrconfig FILE INDEX: write the lr config only
  shift; write_lr_config "$@"; exit 0
fi

# ============================================================================
# main
# ============================================================================
peers=${1:?usage: es-bench.sh rs|lr|rs,lr [RUNS]}; runs=${2:-3}
[[ $runs =~ ^[0-9]+$ ]] || { echo "RUNS must be a number" >&2; exit 2; }
IFS=, read -r -a PEERS <<< "$peers"
mkdir -p "$WORK" "$RESULTS_DIR"
for p in "${PEERS[@]}"; do
  case $p in
    rs) [ -x "$RSYSLOGD" ] || { echo "no rsyslogd at $RSYSLOGD: run /work/shared/bench/install.sh" >&2; exit 2; }
        [ -f "$RSYSLOG_MODDIR/omelasticsearch.so" ] \
          || { echo "omelasticsearch missing: run $HERE/install-omelasticsearch.sh" >&2; exit 2; } ;;
    lr) [ -f "$ROUTER_JAR" ] || { echo "missing $ROUTER_JAR (set ROUTER_JAR)" >&2; exit 2; }
        write_lr_config "$WORK/lr-check.yaml" bench-check
        "$JAVA" -jar "$ROUTER_JAR" check-config --config "$WORK/lr-check.yaml" > "$WORK/lr-check.log" 2>&1 \
          || { echo "logrouter ($ROUTER_JAR) rejects the config $WORK/lr-check.yaml:" >&2; cat "$WORK/lr-check.log" >&2; exit 2; } ;;
    *) echo "unknown peer $p (rs|lr|rs,lr)" >&2; exit 2 ;;
  esac
done
[ -x "$LOGGEN" ] || { echo "no loggen at $LOGGEN (apt-get install syslog-ng-core)" >&2; exit 2; }

started_es=0
finish() {
  if [ "$started_es" = 1 ]; then ES_DIR=$ES_DIR "$HERE/es-server.sh" stop || true; fi
}
trap finish EXIT
trap 'exit 130' INT TERM
if [ -z "$ES_URL" ]; then
  if ! ES_DIR=$ES_DIR "$HERE/es-server.sh" status > /dev/null 2>&1; then
    started_es=1
    ES_DIR=$ES_DIR ES_HEAP=$ES_HEAP "$HERE/es-server.sh" start "$ES_PORT" > /dev/null
  fi
fi
esq GET "/_cluster/health?wait_for_status=yellow&timeout=60s" > /dev/null \
  || { echo "Elasticsearch at $ES is not healthy" >&2; exit 3; }
es_version=$(esq GET '/_nodes/_local?filter_path=nodes.*.version' | grep -o '"version":"[^"]*"' | head -1 | cut -d'"' -f4 || true)
echo "Elasticsearch $es_version at $ES (pid $(es_pid))"

wait_for_build
flock "$LOCK" "$0" __eswarmup

first_line=$( [ -s "$CSV" ] && wc -l < "$CSV" || echo 1)
failed=0
for i in $(seq "$runs"); do
  for p in "${PEERS[@]}"; do
    idx=bench-$p-r$i
    if ! esq GET "/_cluster/health?wait_for_status=yellow&timeout=30s" > /dev/null; then
      echo "Elasticsearch at $ES is gone: no more runs" >&2; failed=$((failed + 1)); break 2
    fi
    create_index "$idx"
    wait_for_build
    rc=0
    flock "$LOCK" "$0" __run "$p" "r$i" "$idx" || rc=$?
    if [ "$rc" != 0 ]; then echo "run $p r$i failed (rc $rc)" >&2; failed=$((failed + 1)); fi
    d=$( [ -s "$CSV" ] && tail -1 "$CSV" | awk -F, -v t="$idx" '$4 == t {print $NF}' || true)
    if [ "$SAMPLE" = 1 ] && [ -n "$d" ] && [ -d "$d" ]; then
      esq GET "/$idx/_search?size=1&filter_path=hits.hits._source" > "$d/sample.json" 2>&1 || true
      echo "  sample: $(cut -c1-240 "$d/sample.json")"
    fi
    if [ "$KEEP_INDICES" != 1 ]; then esq DELETE "/$idx" > /dev/null 2>&1 || true; fi
  done
done

# ---- medians of this invocation's runs -------------------------------------------------------
echo
echo "medians over this invocation ($CSV):"
tail -n +$((first_line + 1)) "$CSV" | awk -F, "$MED_AWK"'
  { n[$2]++; k = $2 SUBSEP n[$2]; rate[k] = $14; lost[k] = $12; cpu[k] = $16; bcpu[k] = $18 }
  END {
    for (p in n) {
      runs = ""; tl = 0
      for (i = 1; i <= n[p]; i++) { runs = runs sprintf(" %d", rate[p SUBSEP i]); tl += lost[p SUBSEP i] }
      mr[p] = med(rate, p, n[p]); mc[p] = med(cpu, p, n[p]); mb[p] = med(bcpu, p, n[p])
      printf "%-3s runs=%d docs/s median=%.0f (each:%s)  lost total=%d  router us/doc median=%.2f  es us/doc median=%.2f\n",
        p, n[p], mr[p], runs, tl, mc[p], mb[p]
    }
    if (("lr" in n) && ("rs" in n) && mr["rs"] > 0 && mc["rs"] > 0) {
      printf "lr/rs: docs/s %.2fx   router us/doc %.2fx   es us/doc %.2fx\n",
        mr["lr"] / mr["rs"], mc["lr"] / mc["rs"], (mb["rs"] > 0) ? mb["lr"] / mb["rs"] : 0
    }
  }'
if (( failed > 0 )); then echo "$failed run(s) failed" >&2; exit 1; fi

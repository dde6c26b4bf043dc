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
# An adapter of ../lib/bench-lib.sh (the shared harness: load, drain, CPU, medians, several runs under the
# lock); this script holds only the ES server, the index, how documents are counted, and the peers' configs.
#
# Per run: a fresh index bench-<peer>-r<i> created explicitly (SHARDS=1, REPLICAS=0,
# REFRESH_INTERVAL=1s, an explicit mapping of the 7 document fields, the same for both peers);
# the peer listens on 127.0.0.1:$PEER_PORT; optional warm-up (WARMUP_SECS of the same load into
# the same index, waited for, its documents subtracted; default 10 s for lr — JIT — and 0 for
# rs); then loggen:
#   loggen -S -P -r 100000000 -I 15 --active-connections=10 -s 400 127.0.0.1 PORT
# (-P = RFC 5424, octet-counted; LG_PROTO=3164 drops it, see README; LOADGEN=loadgen sends the same
# load with router-bench's loadgen: --connections 10 --size 400 --duration 15 --format rfc5424). Then the drain: the
# index's indexing.index_total (primaries, _stats; counts indexed operations without a
# refresh) is polled every POLL_SECS (0.2 s) until it has not grown for SETTLE_SECS (2 s) with
# every message in, or for STALL_SECS (30 s) while short, or MAX_DRAIN_SECS (600 s); then the
# peer is stopped (SIGTERM) and the index is _refresh'ed and _count'ed. Recorded (one CSV line
# per run in $RESULTS_DIR/es.csv):
#   sent      = the load generator's own count (loggen: count= on its stderr; loadgen: sent=)
#   indexed   = _count of the index after _refresh (minus the warm-up's documents)
#   lost      = sent - indexed (0 = zero loss; negative = duplicates)
#   seconds   = first send (the load's end minus the generator's own elapsed time) -> the first poll
#               that saw the final index_total (drain end)
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
# LOADGEN=loggen|loadgen LOGGEN=/usr/bin/loggen (its path) BENCH_JAR=<repo>/router-bench/target/router-bench.jar
# ES_WARMUP_DOCS=300000 (documents bulk-indexed into a scratch index before the first run, so
# that no peer gets a cold ES JVM; 0 = none)
# rsyslog: RSYSLOG_ROOT=/opt/peers/rsyslog-root RS_QUEUE_SIZE=500000 RS_BATCH=5000 RS_WORKERS=2
#   RS_MAXBYTES=5m
# logrouter: ROUTER_JAR=<repo>/router-server/target/logrouter.jar (else /work/main's)
#   LR_WORKERS=2 (pipeline parse-workers) LR_BATCH_SIZE=5000 LR_FLUSH_TIMEOUT=1s
#   LR_MAX_IN_FLIGHT=2 LR_JAVA_OPTS='' LR_SINK_EXTRA='' (YAML lines appended to the sink,
#   e.g. $'generate-id: false\ncompression: true') LR_PIPELINE_EXTRA='' (YAML lines appended to the
#   pipeline section, e.g. 'ring-size: 524288')
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib/bench-lib.sh"   # bench_main, bench_one_run, bench_load, bench_settle, ...
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
LR_PIPELINE_EXTRA=${LR_PIPELINE_EXTRA:-}
LOCK=${LOCK:-/tmp/cpu.lock}
LOGGEN=${LOGGEN:-/usr/bin/loggen}
LOADGEN=${LOADGEN:-loggen}
BENCH_JAR=${BENCH_JAR:-$REPO/router-bench/target/router-bench.jar}
JAVA=${JAVA:-java}
export WORK RESULTS_DIR ES_DIR ES_PORT ES_HEAP ES_URL PEER_PORT LOAD_SECS CONNS MSG_SIZE RATE LG_PROTO \
  SETTLE_SECS STALL_SECS MAX_DRAIN_SECS POLL_SECS SHARDS REPLICAS REFRESH_INTERVAL KEEP_INDICES SAMPLE \
  MAVEN_WAIT_SECS LOGGEN_GRACE_SECS ES_WARMUP_DOCS RSYSLOG_ROOT RSYSLOGD RSYSLOG_MODDIR RS_QUEUE_SIZE RS_BATCH RS_WORKERS RS_MAXBYTES \
  ROUTER_JAR LR_WORKERS LR_BATCH_SIZE LR_FLUSH_TIMEOUT LR_MAX_IN_FLIGHT LR_JAVA_OPTS LR_SINK_EXTRA LR_PIPELINE_EXTRA \
  LOCK LOGGEN LOADGEN BENCH_JAR JAVA

ES=${ES_URL:-http://127.0.0.1:$ES_PORT}
ES=${ES%/}
if [[ $ES =~ ^https?://([^:/]+):([0-9]+)$ ]]; then ES_HOST=${BASH_REMATCH[1]}; ES_HPORT=${BASH_REMATCH[2]}
else echo "ES_URL must look like http://host:port (got $ES)" >&2; exit 2; fi
CSV=$RESULTS_DIR/es.csv
case $LG_PROTO in
  5424) LG_FORMAT=rfc5424 ;;
  3164) LG_FORMAT=rfc3164 ;;
  *) echo "LG_PROTO must be 5424 or 3164" >&2; exit 2 ;;
esac
# the harness's settings (../lib/bench-lib.sh); WARM is per peer (peer_prepare)
LOGGEN_BIN=$LOGGEN LG_SIZE=$MSG_SIZE LG_RATE=$((RATE * CONNS)) LG_TLS=0 LG_UNIT=secs LOAD=$LOAD_SECS
LG_GRACE_SECS=$LOGGEN_GRACE_SECS STARTUP_SECS=30 STOP_SECS=60 DAEMON_LOG=daemon.log

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

# ---- the adapter's hooks (../lib/bench-lib.sh) ------------------------------------------------
ESPID=""
# peer_prepare INDEX: the warm-up per peer, the ES process (SPID) and its health
peer_prepare() {
  IDX=$1
  WARM=${WARMUP_SECS:-}
  if [ -z "$WARM" ]; then if [ "$PEER" = lr ]; then WARM=10; else WARM=0; fi; fi
  ESPID=$(es_pid); SPID=$ESPID
  if ! es_alive || ! esq GET "/_cluster/health?wait_for_status=yellow&timeout=30s" > /dev/null; then
    echo "Elasticsearch at $ES is not running/healthy" >&2; return 6
  fi
}
peer_start() {
  case $PEER in
    rs)
      sed -e "s|@RUN@|$RUN|g" -e "s|@PORT@|$PEER_PORT|g" -e "s|@ESHOST@|$ES_HOST|g" \
          -e "s|@ESPORT@|$ES_HPORT|g" -e "s|@INDEX@|$IDX|g" -e "s|@QSIZE@|$RS_QUEUE_SIZE|g" \
          -e "s|@BATCH@|$RS_BATCH|g" -e "s|@WORKERS@|$RS_WORKERS|g" -e "s|@MAXBYTES@|$RS_MAXBYTES|g" \
          "$HERE/rs-es.conf" > "$RUN/daemon.conf"
      "$RSYSLOGD" -n -f "$RUN/daemon.conf" -i "$RUN/rsyslogd.pid" -M "$RSYSLOG_MODDIR" \
        > "$RUN/daemon.log" 2>&1 &
      DPID=$! ;;
    lr) write_lr_config "$RUN/logrouter.yaml" "$IDX"; bench_start_router "$RUN/logrouter.yaml" ;;
    *) echo "unknown peer $PEER" >&2; return 2 ;;
  esac
}
peer_alive() {
  es_alive || { echo "  Elasticsearch (pid $ESPID) is gone: run aborted (see $ES_DIR/logs/)" >&2; return 1; }
}
# the drain polls indexing.index_total (counts indexed documents without a refresh): the count itself
peer_probe() { P_LEVEL=$(index_total "$IDX"); }
peer_warmed() {
  F_BASE=$(doc_count "$IDX")                          # the warm-up's documents, subtracted from _count
  echo "  warm-up ${WARM}s: sent $WSENT, indexed $F_BASE (index_total $B1)" | tee -a "$RUN/warmup.err"
}
peer_drained() { if [ -f "$RUN/impstats.log" ]; then tail -n 40 "$RUN/impstats.log" > "$RUN/stats.txt"; fi; }
peer_final() {
  F_TOTAL=$(doc_count "$IDX") || { echo "cannot count the documents in $IDX: run not recorded" >&2; return 1; }
}
peer_record() {
  local errs="" lgc=$LG_CPU row
  if [ "$PEER" = rs ]; then
    errs=0
    if [ -f "$RUN/es-errors.json" ]; then errs=$(wc -l < "$RUN/es-errors.json"); fi
  fi
  [ "$lgc" != - ] || lgc=0.00
  row="$SENT,$DELIVERED,$R_LOST,$R_SECONDS,$R_RATE,$R_DCPU,$R_DUS,${R_BCPU:-0.00},${R_BUS:-0.000},$lgc,$R_AVG"
  bench_csv "ts,peer,run,index,conns,msg_size,proto,load_secs,warmup_secs,sent,indexed,lost,seconds,docs_per_s,router_cpu_s,router_us_per_doc,es_cpu_s,es_us_per_doc,loggen_cpu_s,avg_msg_bytes,index_total,peer_errors,loggen_rc,run_dir" \
    "$(date -u +%FT%TZ),$PEER,$TAG,$IDX,$CONNS,$MSG_SIZE,$LG_PROTO,$LOAD_SECS,$WARM,$row,$((S_LEVEL - B1)),$errs,$LG_RC,$RUN"
  echo "$PEER $TAG: sent=$SENT indexed=$DELIVERED lost=$R_LOST seconds=$R_SECONDS docs/s=$R_RATE router=$R_DUS us/doc es=${R_BUS:-0.000} us/doc${errs:+ errorfile_lines=$errs}"
  if [ "$LG_RC" != 0 ]; then echo "  ($LOADGEN exit code $LG_RC, see $RUN/loggen.err)" >&2; fi
  if (( SENT != DELIVERED )); then echo "  LOSS/DUPLICATES: sent $SENT, indexed $DELIVERED (run dir $RUN)" >&2; fi
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
    if [ -n "$LR_PIPELINE_EXTRA" ]; then printf '%s\n' "$LR_PIPELINE_EXTRA" | sed 's/^/  /'; fi
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

if [ "${1:-}" = __eswarmup ]; then   # es-bench.sh __eswarmup: only the ES warm-up (under the lock)
  es_warmup; exit 0
fi
if [ "${1:-}" = __lrconfig ]; then   # es-bench.sh __lrconfig FILE INDEX: write the lr config only
  shift; write_lr_config "$@"; exit 0
fi
bench_dispatch "$@"                  # __run PEER TAG INDEX: one run, under the lock

# ============================================================================
# main
# ============================================================================
peer_check() {
  case $1 in
    rs) [ -x "$RSYSLOGD" ] || { echo "no rsyslogd at $RSYSLOGD: run /work/shared/bench/install.sh" >&2; exit 2; }
        [ -f "$RSYSLOG_MODDIR/omelasticsearch.so" ] \
          || { echo "omelasticsearch missing: run $HERE/install-omelasticsearch.sh" >&2; exit 2; } ;;
    lr) [ -f "$ROUTER_JAR" ] || { echo "missing $ROUTER_JAR (set ROUTER_JAR)" >&2; exit 2; }
        write_lr_config "$WORK/lr-check.yaml" bench-check
        bench_check_config "$WORK/lr-check.yaml" "$WORK/lr-check.log" ;;
    *) echo "unknown peer $1 (rs|lr|rs,lr)" >&2; exit 2 ;;
  esac
}
server_start() {
  if [ -z "$ES_URL" ]; then
    if ! ES_DIR=$ES_DIR "$HERE/es-server.sh" status > /dev/null 2>&1; then
      SERVER_STARTED=1
      ES_DIR=$ES_DIR ES_HEAP=$ES_HEAP "$HERE/es-server.sh" start "$ES_PORT" > /dev/null
    fi
  fi
  esq GET "/_cluster/health?wait_for_status=yellow&timeout=60s" > /dev/null \
    || { echo "Elasticsearch at $ES is not healthy" >&2; exit 3; }
  local es_version
  es_version=$(esq GET '/_nodes/_local?filter_path=nodes.*.version' | grep -o '"version":"[^"]*"' | head -1 | cut -d'"' -f4 || true)
  echo "Elasticsearch $es_version at $ES (pid $(es_pid))"
  wait_for_build
  flock "$LOCK" "$0" __eswarmup
}
server_stop() { ES_DIR=$ES_DIR "$HERE/es-server.sh" stop || true; }
run_before() {
  local idx=bench-$1-$2
  if ! esq GET "/_cluster/health?wait_for_status=yellow&timeout=30s" > /dev/null; then
    echo "Elasticsearch at $ES is gone: no more runs" >&2; return 1
  fi
  create_index "$idx"
  RUN_ARGS=("$idx")
}
run_after() {
  local idx=bench-$1-$2 d
  d=$( [ -s "$CSV" ] && tail -1 "$CSV" | awk -F, -v t="$idx" '$4 == t {print $NF}' || true)
  if [ "$SAMPLE" = 1 ] && [ -n "$d" ] && [ -d "$d" ]; then
    esq GET "/$idx/_search?size=1&filter_path=hits.hits._source" > "$d/sample.json" 2>&1 || true
    echo "  sample: $(cut -c1-240 "$d/sample.json")"
  fi
  if [ "$KEEP_INDICES" != 1 ]; then esq DELETE "/$idx" > /dev/null 2>&1 || true; fi
}
# ---- medians of this invocation's runs -------------------------------------------------------
summary() {
  bench_medians '
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
}
bench_main "${1:?usage: es-bench.sh rs|lr|rs,lr [RUNS]}" "${2:-3}"

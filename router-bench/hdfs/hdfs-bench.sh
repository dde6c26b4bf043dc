#!/usr/bin/env bash
# hdfs-bench.sh PEERS [RUNS]      (RUNS default 3)
#
# TCP -> HDFS throughput of logrouter, against the router's own TCP -> file rate in the same
# invocation (and, in the summary, against syslog-ng PE's published HDFS figure).
#   PEERS: file       logrouter with a file sink (local disk): the router's TCP -> file rate
#          hdfs       logrouter with the hdfs sink into a one-JVM HDFS cluster on this
#                     machine (hdfs-cluster.sh: one NameNode + one DataNode, replication 1)
#          file,hdfs  both, alternating run by run (file r1, hdfs r1, file r2, ...)
#
# An adapter of ../lib/bench-lib.sh (the shared harness: load, drain, CPU, medians, several runs under the
# lock); this script holds only the HDFS cluster, how the output is probed and counted, and the config.
#
# Per run: the router (java -jar $ROUTER_JAR run --config FILE, its own run directory) listens
# on 127.0.0.1:$PEER_PORT; warm-up WARMUP_SECS (10 s) of the same load into the same output,
# waited for, not measured; then the measured load:
#   loggen -S -r 100000000 -I 15 --active-connections=10 -s 400 127.0.0.1 PORT
# (RFC 3164 lines like the shared kit's W2; LG_PROTO=5424 adds -P; LOADGEN=loadgen sends the same
# load with router-bench's loadgen instead: --connections 10 --size 400 --duration 15). Then the drain: the output
# is polled every POLL_SECS (0.1 s) -- file: the bytes of the files under the run's out/;
# hdfs: the bytes of the DataNode's block files (blk_*, not .meta) under $HDFS_DIR/data/data,
# which grow as packets reach the DataNode (the NameNode's lengths, e.g. GETCONTENTSUMMARY,
# do not move while a file is open: they stay at the first block report until close) -- and
# once it has not changed for SETTLE_SECS (2 s) its lines are counted (file: the files;
# hdfs: the DataNode's block files, local reads); drained = every message in; else it keeps
# waiting (STALL_SECS 30 s without growth, MAX_DRAIN_SECS 600 s). Then SIGTERM, clean exit
# awaited (STOP_SECS), and the delivered lines counted for the record: file: wc -l of the
# files; hdfs: every file under the run's HDFS directory (recursive WebHDFS LISTSTATUS, OPEN
# with curl -L, wc -l) after the router closed them (no .tmp part may remain).
# Recorded (one CSV line per run in $RESULTS_DIR/hdfs.csv):
#   sent        the load generator's own count (loggen: count= on its stderr; loadgen: sent=), measured phase
#   delivered   lines in the output minus the warm-up's lines; lost = sent - delivered (must be 0)
#   seconds     first send -> drain end (the last growth of the output: newest mtime); the first send is
#               the load's end minus the generator's own elapsed time (so loadgen's JVM start is not counted)
#   msgs_per_s  delivered / seconds; mb_per_s = msgs_per_s x loggen's average message size / 10^6
#   router_cpu_s, router_us_per_msg: the router's utime+stime (/proc/PID/stat) over that window;
#   hdfs_cpu_s, hdfs_us_per_msg: the same for the HDFS JVM (also during file runs when the
#   cluster runs: its idle cost); loggen_cpu_s from /usr/bin/time; router_rss_mb = VmHWM.
# Medians per peer, the hdfs/file ratios and the comparison with PE_REF_MSGS are printed at the
# end. The HDFS cluster ($HDFS_DIR, 127.0.0.1:$HDFS_NN_PORT) is started when a hdfs run is
# asked for and it is not running, and stopped at the end if this script started it; before
# the first run it gets HDFS_WARMUP_MB of WebHDFS writes (JIT warm-up of its write path).
# Each run (router start .. output deleted) holds `flock $LOCK` (/tmp/cpu.lock); before each
# run the script waits while a Maven build runs (at most MAVEN_WAIT_SECS).
#
# Environment (defaults): WORK=/tmp/hdfsbench RESULTS_DIR=$WORK/results PEER_PORT=15545
# LOAD_SECS (or DURATION)=15 WARMUP_SECS=10 CONNS=10 MSG_SIZE=400 RATE=100000000 (loggen -r, per
# connection) LG_PROTO=3164 (3164|5424) SETTLE_SECS=2 STALL_SECS=30 MAX_DRAIN_SECS=600
# POLL_SECS=0.1 STOP_SECS=60 LOGGEN_GRACE_SECS=60 KEEP_OUTPUT=0 MAVEN_WAIT_SECS=1800
# LOCK=/tmp/cpu.lock PE_REF_MSGS=110000 LOADGEN=loggen|loadgen LOGGEN=/usr/bin/loggen (its path)
# BENCH_JAR=<repo>/router-bench/target/router-bench.jar (loadgen)
# HDFS: HDFS_DIR=/tmp/hdfs-bench HDFS_NN_PORT=19820 HDFS_HTTP_PORT=NN+50 HDFS_HEAP=1g
#   HDFS_WARMUP_MB=256 HDFS_ROOT=/bench (run directories: $HDFS_ROOT/<peer>-r<i>-<time>)
# logrouter: ROUTER_JAR=<repo>/router-server/target/logrouter.jar (else /work/main's)
#   LR_RING_SIZE=65536 LR_WORKERS=2 LR_WAIT_STRATEGY=blocking (the shared kit's peer-run.sh W2
#   settings) LR_BATCH_SIZE=5000 LR_BATCH_BYTES=4MiB LR_FLUSH_TIMEOUT=1s (both sinks)
#   HDFS_SYNC=hflush HDFS_ROLL_SIZE=128MiB HDFS_FILE=out.log (path under the run directory,
#   may hold macros, e.g. '${HOST}/out.log') LR_JAVA_OPTS='' LR_FILE_EXTRA='' LR_HDFS_EXTRA=''
#   (YAML lines appended to the file / hdfs sink, e.g. $'fsync: batch')
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib/bench-lib.sh"   # bench_main, bench_one_run, bench_load, bench_settle, ...
REPO=$(cd "$HERE/../.." && pwd)
WORK=${WORK:-/tmp/hdfsbench}
RESULTS_DIR=${RESULTS_DIR:-$WORK/results}
PEER_PORT=${PEER_PORT:-15545}
LOAD_SECS=${LOAD_SECS:-${DURATION:-15}}
WARMUP_SECS=${WARMUP_SECS:-10}
CONNS=${CONNS:-10}
MSG_SIZE=${MSG_SIZE:-400}
RATE=${RATE:-100000000}
LG_PROTO=${LG_PROTO:-3164}
SETTLE_SECS=${SETTLE_SECS:-2}
STALL_SECS=${STALL_SECS:-30}
MAX_DRAIN_SECS=${MAX_DRAIN_SECS:-600}
POLL_SECS=${POLL_SECS:-0.1}
STOP_SECS=${STOP_SECS:-60}
LOGGEN_GRACE_SECS=${LOGGEN_GRACE_SECS:-60}
KEEP_OUTPUT=${KEEP_OUTPUT:-0}
MAVEN_WAIT_SECS=${MAVEN_WAIT_SECS:-1800}
LOCK=${LOCK:-/tmp/cpu.lock}
PE_REF_MSGS=${PE_REF_MSGS:-110000}
HDFS_DIR=${HDFS_DIR:-/tmp/hdfs-bench}
HDFS_NN_PORT=${HDFS_NN_PORT:-19820}
HDFS_HTTP_PORT=${HDFS_HTTP_PORT:-$((HDFS_NN_PORT + 50))}
HDFS_HEAP=${HDFS_HEAP:-1g}
HDFS_WARMUP_MB=${HDFS_WARMUP_MB:-256}
HDFS_ROOT=${HDFS_ROOT:-/bench}
HDFS_SYNC=${HDFS_SYNC:-hflush}
HDFS_ROLL_SIZE=${HDFS_ROLL_SIZE:-128MiB}
HDFS_FILE=${HDFS_FILE:-out.log}
ROUTER_JAR=${ROUTER_JAR:-$REPO/router-server/target/logrouter.jar}
# a worktree without a build of its own uses the main checkout's jar
[ -f "$ROUTER_JAR" ] || [ ! -f /work/main/router-server/target/logrouter.jar ] \
  || ROUTER_JAR=/work/main/router-server/target/logrouter.jar
LR_RING_SIZE=${LR_RING_SIZE:-65536}
LR_WORKERS=${LR_WORKERS:-2}
LR_WAIT_STRATEGY=${LR_WAIT_STRATEGY:-blocking}
LR_BATCH_SIZE=${LR_BATCH_SIZE:-5000}
LR_BATCH_BYTES=${LR_BATCH_BYTES:-4MiB}
LR_FLUSH_TIMEOUT=${LR_FLUSH_TIMEOUT:-1s}
LR_JAVA_OPTS=${LR_JAVA_OPTS:-}
LR_FILE_EXTRA=${LR_FILE_EXTRA:-}
LR_HDFS_EXTRA=${LR_HDFS_EXTRA:-}
HDFS_PROPS=${HDFS_PROPS:-}
LOGGEN=${LOGGEN:-/usr/bin/loggen}
LOADGEN=${LOADGEN:-loggen}
BENCH_JAR=${BENCH_JAR:-$REPO/router-bench/target/router-bench.jar}
JAVA=${JAVA:-java}
export WORK RESULTS_DIR PEER_PORT LOAD_SECS WARMUP_SECS CONNS MSG_SIZE RATE LG_PROTO SETTLE_SECS STALL_SECS \
  MAX_DRAIN_SECS POLL_SECS STOP_SECS LOGGEN_GRACE_SECS KEEP_OUTPUT MAVEN_WAIT_SECS LOCK PE_REF_MSGS \
  HDFS_DIR HDFS_NN_PORT HDFS_HTTP_PORT HDFS_HEAP HDFS_WARMUP_MB HDFS_ROOT HDFS_SYNC HDFS_ROLL_SIZE HDFS_FILE \
  ROUTER_JAR LR_RING_SIZE LR_WORKERS LR_WAIT_STRATEGY LR_BATCH_SIZE LR_BATCH_BYTES LR_FLUSH_TIMEOUT \
  LR_JAVA_OPTS LR_FILE_EXTRA LR_HDFS_EXTRA HDFS_PROPS LOGGEN LOADGEN BENCH_JAR JAVA

HDFS_URI=hdfs://127.0.0.1:$HDFS_NN_PORT
NN_HTTP=http://127.0.0.1:$HDFS_HTTP_PORT
DN_DIR=$HDFS_DIR/data/data          # MiniDFSCluster's DataNode storage dirs (data1, data2)
HUSER=${USER:-$(id -un)}
CSV=$RESULTS_DIR/hdfs.csv
case $LG_PROTO in
  3164) LG_FORMAT=rfc3164 ;;
  5424) LG_FORMAT=rfc5424 ;;
  *) echo "LG_PROTO must be 3164 or 5424" >&2; exit 2 ;;
esac
for v in LOAD_SECS WARMUP_SECS CONNS MSG_SIZE RATE SETTLE_SECS STALL_SECS MAX_DRAIN_SECS STOP_SECS HDFS_WARMUP_MB; do
  [[ ${!v} =~ ^[0-9]+$ ]] || { echo "$v must be a whole number, got '${!v}'" >&2; exit 2; }
done
# the harness's settings (../lib/bench-lib.sh)
LOGGEN_BIN=$LOGGEN LG_SIZE=$MSG_SIZE LG_RATE=$((RATE * CONNS)) LG_TLS=0 LG_UNIT=secs LOAD=$LOAD_SECS
WARM=$WARMUP_SECS LG_GRACE_SECS=$LOGGEN_GRACE_SECS STARTUP_SECS=60 DAEMON_LOG=daemon.log

# ---- HDFS helpers ----------------------------------------------------------------------------
hdfs_pid() { if [ -s "$HDFS_DIR/run/hdfs.pid" ]; then cat "$HDFS_DIR/run/hdfs.pid"; fi; }
hdfs_alive() { [ -z "${HPID:-}" ] || kill -0 "$HPID" 2>/dev/null; }
hdfs_up() { curl -fsS -m 10 -o /dev/null "$NN_HTTP/webhdfs/v1/?op=GETFILESTATUS&user.name=$HUSER" 2>/dev/null; }
# webhdfs METHOD PATH OP [EXTRA QUERY]: prints the answer; fails on HTTP >= 400
webhdfs() { curl -fsS -m 60 -X "$1" "$NN_HTTP/webhdfs/v1$2?op=$3&user.name=$HUSER${4:+&$4}"; }
hdfs_delete() { webhdfs DELETE "$1" DELETE recursive=true > /dev/null 2>&1 || true; }

# hdfs_files DIR: every file below DIR (recursive LISTSTATUS), one "length path" per line
hdfs_files() {
  local dir=$1 out type len name
  out=$(webhdfs GET "$dir" LISTSTATUS) || return 1
  while read -r type len name; do
    [ -n "$type" ] || continue
    if [ "$type" = DIRECTORY ]; then hdfs_files "$dir/$name" || return 1
    else echo "$len $dir/$name"; fi
  done < <(jq -r '.FileStatuses.FileStatus[] | "\(.type) \(.length) \(.pathSuffix)"' <<< "$out")
}

# hdfs_count DIR: reads every file below DIR through WebHDFS (OPEN, curl -L to the DataNode)
# and sets C_LINES, C_BYTES (NameNode lengths: exact once the files are closed), C_FILES,
# C_TMP (files still named *.tmp). Returns 1 when a listing or a read fails.
hdfs_count() {
  local len path n
  C_LINES=0; C_BYTES=0; C_FILES=0; C_TMP=0
  local list; list=$(hdfs_files "$1") || return 1
  while read -r len path; do
    [ -n "$path" ] || continue
    n=$(set -o pipefail; curl -fsS -L -m 600 "$NN_HTTP/webhdfs/v1$path?op=OPEN&user.name=$HUSER" | wc -l) || return 1
    C_LINES=$((C_LINES + n)); C_BYTES=$((C_BYTES + len)); C_FILES=$((C_FILES + 1))
    if [[ $path == *.tmp ]]; then C_TMP=$((C_TMP + 1)); fi
  done <<< "$list"
}

# ---- output probes (the peer's storage) -----------------------------------------------------
# out_find: the files the current peer's output lives in (file: the run's out/ directory;
# hdfs: the DataNode's block files; .meta files hold checksums, not data)
out_find() {
  if [ "$PEER" = hdfs ]; then find "$DN_DIR" -type f -name 'blk_*' ! -name '*.meta' "$@" 2>/dev/null
  else find "$OUTDIR" -type f "$@" 2>/dev/null; fi
}
# probe: sets P_BYTES (total size) and P_MTIME_US (newest modification, epoch µs)
probe() {
  read -r P_BYTES P_MTIME_US < <(out_find -printf '%s %T@\n' \
    | awk '{ b += $1; if ($2 > m) m = $2 } END { printf "%.0f %.0f\n", b, m * 1e6 }')
}
# out_lines: lines in the output's files (local reads; hdfs: the block files hold the data as is)
out_lines() { local n; n=$(out_find -exec cat {} + | wc -l); echo "${n:-0}"; }

# wait_dn_below BYTES SECS: until the DataNode's block files hold at most BYTES (a deletion's
# blocks are removed asynchronously after the NameNode's next heartbeat answer)
wait_dn_below() {
  local limit=$1 secs=$2 t0=$SECONDS
  while :; do
    probe
    (( P_BYTES <= limit )) && return 0
    if (( SECONDS - t0 >= secs )); then
      echo "  the DataNode still holds $P_BYTES bytes of blocks after ${secs}s (expected <= $limit)" >&2; return 1
    fi
    sleep 0.5
  done
}

# write_config PEER FILE OUT: the router's config; OUT = the file sink's path or the hdfs sink's
write_config() {
  local peer=$1 f=$2 out=$3
  {
    echo "# written by router-bench/hdfs/hdfs-bench.sh"
    echo "sources:"
    echo "  - name: net"
    echo "    type: tcp"
    echo "    bind: 127.0.0.1:$PEER_PORT"
    echo "pipeline:"
    echo "  ring-size: $LR_RING_SIZE"
    echo "  parse-workers: $LR_WORKERS"
    echo "  wait-strategy: $LR_WAIT_STRATEGY"
    echo "routes:"
    echo "  - name: all"
    echo "    from: [net]"
    echo "    to: [out]"
    echo "sinks:"
    echo "  - name: out"
    case $peer in
      file)
        echo "    type: file"
        echo "    path: \"$out\"" ;;
      hdfs)
        echo "    type: hdfs"
        echo "    uri: \"$HDFS_URI\""
        echo "    path: \"$out\"" ;;
    esac
    echo "    template: \"\${MSG}\\n\""
    echo "    batch-size: $LR_BATCH_SIZE"
    echo "    batch-bytes: $LR_BATCH_BYTES"
    echo "    flush-timeout: $LR_FLUSH_TIMEOUT"
    case $peer in
      file)
        if [ -n "$LR_FILE_EXTRA" ]; then printf '%s\n' "$LR_FILE_EXTRA" | sed 's/^/    /'; fi ;;
      hdfs)
        echo "    sync: $HDFS_SYNC"
        echo "    roll-size: $HDFS_ROLL_SIZE"
        echo "    properties: { dfs.replication: \"1\"${HDFS_PROPS:+, $HDFS_PROPS} }"
        if [ -n "$LR_HDFS_EXTRA" ]; then printf '%s\n' "$LR_HDFS_EXTRA" | sed 's/^/    /'; fi ;;
    esac
  } > "$f"
}

# ---- the adapter's hooks (../lib/bench-lib.sh) ------------------------------------------------
HPID=""
# peer_prepare: the cluster (SPID, its CPU is measured also during file runs), the output's place
peer_prepare() {
  OUTDIR=$RUN/out
  HPID=$(hdfs_pid)
  if [ -n "$HPID" ] && ! kill -0 "$HPID" 2>/dev/null; then HPID=""; fi
  SPID=$HPID
  if [ "$PEER" = hdfs ]; then
    if [ -z "$HPID" ] || ! hdfs_up; then echo "the HDFS cluster ($NN_HTTP, $HDFS_DIR) is not running" >&2; return 6; fi
    if [ "$KEEP_OUTPUT" != 1 ]; then
      hdfs_delete "$HDFS_ROOT"                        # leftovers of an aborted run
      wait_dn_below 0 60 || true
    fi
    HDIR=$HDFS_ROOT/${RUN##*/}
    OUT=$HDIR/$HDFS_FILE
  else
    mkdir -p "$OUTDIR"
    OUT=$OUTDIR/out.log
  fi
}
peer_start() { write_config "$PEER" "$RUN/logrouter.yaml" "$OUT"; bench_start_router "$RUN/logrouter.yaml"; }
peer_alive() {
  if [ "$PEER" = hdfs ] && ! hdfs_alive; then echo "  the HDFS JVM (pid $HPID) is gone" >&2; return 1; fi
}
peer_probe() { probe; P_LEVEL=$P_BYTES; P_MTIME_US=$P_MTIME_US; }
peer_count() { out_lines; }
peer_base() { out_lines; }                            # 0 unless a deletion is still pending
peer_warmed() { echo "  warm-up ${WARMUP_SECS}s: sent $WSENT, written $((B1 - B0))" | tee -a "$RUN/warmup.err"; }
# peer_final: after the stop; hdfs: every file of the run through WebHDFS (no .tmp part may remain)
peer_final() {
  probe
  STOP_GROWTH=$((P_BYTES - S_LEVEL))
  if [ "$PEER" = hdfs ]; then
    if ! hdfs_count "$HDIR"; then echo "  cannot read $HDIR through WebHDFS: run not recorded" >&2; return 1; fi
    F_TOTAL=$C_LINES; BYTES=$C_BYTES; FILES=$C_FILES; TMPF=$C_TMP
  else
    F_TOTAL=$(out_lines); BYTES=$P_BYTES; FILES=$(out_find | wc -l); TMPF=0
  fi
}
peer_record() {
  local lgc=$LG_CPU sync="" row status=0
  [ "$lgc" != - ] || lgc=0.00
  row="$SENT,$DELIVERED,$R_LOST,$R_SECONDS,$R_RATE,$R_MBS,$R_DCPU,$R_DUS,$R_BCPU,$R_BUS,$lgc,$R_AVG"
  [ "$PEER" = hdfs ] && sync=$HDFS_SYNC
  bench_csv "ts,peer,run,conns,msg_size,proto,load_secs,warmup_secs,warm_sent,warm_written,sent,delivered,lost,seconds,msgs_per_s,mb_per_s,router_cpu_s,router_us_per_msg,hdfs_cpu_s,hdfs_us_per_msg,loggen_cpu_s,avg_msg_bytes,router_rss_mb,out_bytes,out_files,tmp_files,drained,stop_growth_bytes,router_rc,loggen_rc,sync,run_dir" \
    "$(date -u +%FT%TZ),$PEER,$TAG,$CONNS,$MSG_SIZE,$LG_PROTO,$LOAD_SECS,$WARMUP_SECS,$WSENT,$((B1 - B0)),$row,$((HWM_KB / 1024)),$BYTES,$FILES,$TMPF,$S_OK,$STOP_GROWTH,$ROUTER_RC,$LG_RC,$sync,$RUN"
  echo "$PEER $TAG: sent=$SENT delivered=$DELIVERED lost=$R_LOST seconds=$R_SECONDS msgs/s=$R_RATE MB/s=$R_MBS router=$R_DUS us/msg${R_BUS:+ hdfs=$R_BUS us/msg} files=$FILES"
  if (( SENT != DELIVERED )); then echo "  LOSS/DUPLICATES: sent $SENT, delivered $DELIVERED (run dir $RUN)" >&2; status=1; fi
  if (( TMPF > 0 )); then echo "  $TMPF .tmp part(s) left after the router stopped" >&2; status=1; fi
  if (( STOP_GROWTH > 0 )); then echo "  the output grew by $STOP_GROWTH bytes during the stop: the drain end came too early" >&2; fi
  if [ "$LG_RC" != 0 ]; then echo "  $LOADGEN exit code $LG_RC (see $RUN/loggen.err)" >&2; status=1; fi
  if [ "$ROUTER_RC" != 0 ]; then status=1; fi
  return $status
}
# peer_cleanup: free the space (output deleted, DataNode blocks gone before the next run)
peer_cleanup() {
  if [ "$KEEP_OUTPUT" != 1 ]; then
    if [ "$PEER" = hdfs ]; then hdfs_delete "$HDIR"; wait_dn_below 0 60 || true
    else rm -rf "$OUTDIR"; fi
  fi
}

# hdfs_warmup: HDFS_WARMUP_MB written through WebHDFS (4 files), read back, deleted; JIT warm-up
# of the NameNode/DataNode write path before the first run. Run under the CPU lock.
hdfs_warmup() {
  local mb=$HDFS_WARMUP_MB t0=$SECONDS f=$WORK/hdfs-warmup.txt i
  (( mb > 0 )) || return 0
  HPID=$(hdfs_pid)
  awk -v n=$((mb * 1000000 / 4 / 400)) 'BEGIN { for (i = 0; i < n; i++) printf "warm-up line %010d %0375d\n", i, 0 }' > "$f"
  for i in 1 2 3 4; do
    curl -fsS -m 300 -L -X PUT -T "$f" -o /dev/null "$NN_HTTP/webhdfs/v1$HDFS_ROOT/warmup/w$i.txt?op=CREATE&overwrite=true&user.name=$HUSER"
  done
  hdfs_count "$HDFS_ROOT/warmup" || { echo "HDFS warm-up: cannot read the files back" >&2; return 1; }
  hdfs_delete "$HDFS_ROOT/warmup"
  rm -f "$f"
  PEER=hdfs; wait_dn_below 0 60 || true
  echo "HDFS warm-up: $C_BYTES bytes ($C_LINES lines, $C_FILES files) written and read back through WebHDFS in $((SECONDS - t0)) s"
}

case ${1:-} in
  __hdfswarmup) hdfs_warmup; exit $? ;;
  __config) shift; write_config "$1" "$2" "$3"; exit 0 ;;   # __config PEER FILE OUT: only write a config
esac
bench_dispatch "$@"                                   # __run PEER TAG: one run, under the lock

# ============================================================================
# main
# ============================================================================
need_hdfs=0
# check_config PEER: does this jar accept the peer's config (e.g. does it have the hdfs sink)?
check_config() { write_config "$1" "$WORK/check-$1.yaml" "$WORK/check/out.log"; bench_check_config "$WORK/check-$1.yaml" "$WORK/check-$1.log"; }
peer_check() {
  [ -f "$ROUTER_JAR" ] || { echo "missing $ROUTER_JAR (build it: ./mvnw -q -B package -DskipTests)" >&2; exit 2; }
  case $1 in
    file) check_config file ;;
    hdfs) need_hdfs=1
          command -v jq > /dev/null || { echo "the hdfs peer needs jq (apt-get install jq)" >&2; exit 2; } ;;
    *) echo "unknown peer $1 (file|hdfs|file,hdfs)" >&2; exit 2 ;;
  esac
}
server_start() {
  if [ "$need_hdfs" = 1 ]; then
    if ! HDFS_DIR=$HDFS_DIR "$HERE/hdfs-cluster.sh" status > /dev/null 2>&1; then
      SERVER_STARTED=1
      HDFS_DIR=$HDFS_DIR HDFS_HEAP=$HDFS_HEAP HDFS_HTTP_PORT=$HDFS_HTTP_PORT "$HERE/hdfs-cluster.sh" start "$HDFS_NN_PORT" > /dev/null
    fi
    hdfs_up || { echo "HDFS at $NN_HTTP is not answering" >&2; exit 3; }
    check_config hdfs
    echo "HDFS $(curl -fsS "$NN_HTTP/jmx?qry=Hadoop:service=NameNode,name=NameNodeInfo" | grep -o '"Version" : "[^,"]*' | cut -d'"' -f4) at $HDFS_URI (pid $(hdfs_pid), heap $HDFS_HEAP)"
    wait_for_build
    flock "$LOCK" "$0" __hdfswarmup
  fi
  echo "logrouter: $ROUTER_JAR; $LOADGEN: ${CONNS} connections, ${MSG_SIZE} B, RFC $LG_PROTO, ${LOAD_SECS}s (+${WARMUP_SECS}s warm-up)"
}
server_stop() { HDFS_DIR=$HDFS_DIR "$HERE/hdfs-cluster.sh" stop || true; }
run_before() {
  if [ "$1" = hdfs ] && ! hdfs_up; then echo "HDFS at $NN_HTTP is gone: no more runs" >&2; return 1; fi
}
# ---- medians of this invocation's runs -------------------------------------------------------
summary() {
  bench_medians '
  { n[$2]++; k = $2 SUBSEP n[$2]; rate[k] = $15; mbs[k] = $16; lost[k] = $13; cpu[k] = $18; hcpu[k] = $20; hok[k] = ($20 != "") }
  END {
    printf "| peer | runs | msg/s median | (each) | MB/s median | router us/msg | HDFS JVM us/msg | lost (total) | vs %d msg/s |\n", ref
    printf "|---|---|---|---|---|---|---|---|---|\n"
    for (p in n) {
      runs = ""; tl = 0; h = 1
      for (i = 1; i <= n[p]; i++) { runs = runs sprintf(" %d", rate[p SUBSEP i]); tl += lost[p SUBSEP i]; h = h && hok[p SUBSEP i] }
      mr[p] = med(rate, p, n[p]); mc[p] = med(cpu, p, n[p])
      printf "| %s | %d | %.0f |%s | %.1f | %.2f | %s | %d | %.2fx |\n", p, n[p], mr[p], runs, med(mbs, p, n[p]), mc[p],
        h ? sprintf("%.2f", med(hcpu, p, n[p])) : "-", tl, mr[p] / ref
    }
    if (("hdfs" in n) && ("file" in n) && mr["file"] > 0 && mc["file"] > 0)
      printf "hdfs/file: msg/s %.2fx   router us/msg %.2fx\n", mr["hdfs"] / mr["file"], mc["hdfs"] / mc["file"]
    printf "(%d msg/s = syslog-ng PE'"'"'s published TCP -> HDFS figure: other hardware, other product; see README)\n", ref
  }' -v ref="$PE_REF_MSGS"
}
bench_main "${1:?usage: hdfs-bench.sh file|hdfs|file,hdfs [RUNS]}" "${2:-3}"

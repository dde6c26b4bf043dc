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
# Per run: the router (java -jar $ROUTER_JAR run --config FILE, its own run directory) listens
# on 127.0.0.1:$PEER_PORT; warm-up WARMUP_SECS (10 s) of the same load into the same output,
# waited for, not measured; then the measured load:
#   loggen -S -r 100000000 -I 15 --active-connections=10 -s 400 127.0.0.1 PORT
# (RFC 3164 lines like the shared kit's W2; LG_PROTO=5424 adds -P). Then the drain: the output
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
#   sent        loggen's own count (count= on its stderr), measured phase
#   delivered   lines in the output minus the warm-up's lines; lost = sent - delivered (must be 0)
#   seconds     loggen start -> drain end (the last growth of the output: newest mtime)
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
# LOCK=/tmp/cpu.lock PE_REF_MSGS=110000
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
. "$HERE/../lib/bench-lib.sh"   # cputicks, stop_pid, stop_loggen, wait_for_build, MED_AWK
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
LOGGEN=${LOGGEN:-/usr/bin/loggen}
JAVA=${JAVA:-java}
export WORK RESULTS_DIR PEER_PORT LOAD_SECS WARMUP_SECS CONNS MSG_SIZE RATE LG_PROTO SETTLE_SECS STALL_SECS \
  MAX_DRAIN_SECS POLL_SECS STOP_SECS LOGGEN_GRACE_SECS KEEP_OUTPUT MAVEN_WAIT_SECS LOCK PE_REF_MSGS \
  HDFS_DIR HDFS_NN_PORT HDFS_HTTP_PORT HDFS_HEAP HDFS_WARMUP_MB HDFS_ROOT HDFS_SYNC HDFS_ROLL_SIZE HDFS_FILE \
  ROUTER_JAR LR_RING_SIZE LR_WORKERS LR_WAIT_STRATEGY LR_BATCH_SIZE LR_BATCH_BYTES LR_FLUSH_TIMEOUT \
  LR_JAVA_OPTS LR_FILE_EXTRA LR_HDFS_EXTRA LOGGEN JAVA

HDFS_URI=hdfs://127.0.0.1:$HDFS_NN_PORT
NN_HTTP=http://127.0.0.1:$HDFS_HTTP_PORT
DN_DIR=$HDFS_DIR/data/data          # MiniDFSCluster's DataNode storage dirs (data1, data2)
HUSER=${USER:-$(id -un)}
CSV=$RESULTS_DIR/hdfs.csv
case $LG_PROTO in
  3164) LG_FMT=() ;;
  5424) LG_FMT=(-P) ;;
  *) echo "LG_PROTO must be 3164 or 5424" >&2; exit 2 ;;
esac
for v in LOAD_SECS WARMUP_SECS CONNS MSG_SIZE RATE SETTLE_SECS STALL_SECS MAX_DRAIN_SECS STOP_SECS HDFS_WARMUP_MB; do
  [[ ${!v} =~ ^[0-9]+$ ]] || { echo "$v must be a whole number, got '${!v}'" >&2; exit 2; }
done

now_us() { echo "${EPOCHREALTIME/./}"; }

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

# settle EXPECTED_LINES: poll the output until it has not changed for SETTLE_SECS and holds
# >= EXPECTED_LINES lines (counted only then), or STALL_SECS without growth, or MAX_DRAIN_SECS.
# Sets S_LINES (last count), S_OK (1 = all in), S_BYTES, S_LAST_US (newest mtime at the last
# growth), S_D / S_B (router / HDFS CPU ticks sampled at the poll that saw the last growth).
settle() {
  local expected=$1 start last=-1 last_change now counted_at=-1
  start=$(now_us); last_change=$start
  local settle_us=$((SETTLE_SECS * 1000000)) stall_us=$((STALL_SECS * 1000000)) max_us=$((MAX_DRAIN_SECS * 1000000))
  S_LINES=0; S_OK=0; S_BYTES=0; S_LAST_US=$start; S_D=$(cputicks "$DPID"); S_B=$(cputicks "${HPID:-}")
  while :; do
    if [ "$PEER" = hdfs ] && ! hdfs_alive; then echo "  the HDFS JVM (pid $HPID) is gone" >&2; S_HDFS_DEAD=1; return 0; fi
    probe; now=$(now_us)
    if (( P_BYTES != last )); then
      last=$P_BYTES; last_change=$now; S_BYTES=$P_BYTES
      S_LAST_US=$P_MTIME_US; (( S_LAST_US > 0 )) || S_LAST_US=$now
      S_D=$(cputicks "$DPID"); S_B=$(cputicks "${HPID:-}")
    elif (( now - last_change >= settle_us && counted_at != last )); then
      S_LINES=$(out_lines); counted_at=$last
      if (( S_LINES >= expected )); then S_OK=1; return 0; fi
    fi
    if (( now - last_change >= stall_us )); then
      S_LINES=$(out_lines); echo "  output stalled at $S_LINES of $expected lines for ${STALL_SECS}s" >&2; return 0
    fi
    if (( now - start >= max_us )); then
      S_LINES=$(out_lines); echo "  drain not finished after ${MAX_DRAIN_SECS}s ($S_LINES of $expected lines)" >&2; return 0
    fi
    if ! kill -0 "$DPID" 2>/dev/null; then
      S_LINES=$(out_lines); echo "  the router died ($S_LINES of $expected lines)" >&2; return 0
    fi
    sleep "$POLL_SECS"
  done
}

# ---- loggen + router -------------------------------------------------------------------------
DPID=""; LGPID=""; HPID=""; S_HDFS_DEAD=0
# stop_router: SIGTERM, wait STOP_SECS (then SIGKILL); sets ROUTER_RC
stop_router() {
  stop_pid "${DPID:-}" "$STOP_SECS" router
  ROUTER_RC=$STOP_RC
  DPID=""
}
abort_run() { stop_loggen; LGPID=""; stop_router; }

# run_loggen SECS OUTPREFIX: loggen in the background (so a trap can stop it), waited for;
# sets LG_RC. loggen only looks at its -I limit between sends, so a router that stops reading
# would block it forever: it is stopped after SECS + LOGGEN_GRACE_SECS (LG_RC 124), or as soon
# as the HDFS JVM is gone (125).
run_loggen() {
  local secs=$1 out=$2 why=0
  echo "$LOGGEN -S ${LG_FMT[*]} -r $RATE -I $secs --active-connections=$CONNS -s $MSG_SIZE 127.0.0.1 $PEER_PORT" > "$out.cmd"
  /usr/bin/time -f "%U %S %e" -o "$out.time" \
    "$LOGGEN" -S "${LG_FMT[@]}" -r "$RATE" -I "$secs" --active-connections="$CONNS" -s "$MSG_SIZE" \
    127.0.0.1 "$PEER_PORT" > "$out.out" 2> "$out.err" &
  LGPID=$!
  local deadline=$((SECONDS + secs + LOGGEN_GRACE_SECS))
  while kill -0 "$LGPID" 2>/dev/null; do
    if (( SECONDS > deadline )); then
      echo "  loggen still running ${LOGGEN_GRACE_SECS}s after its -I $secs: stopped (the router stopped reading?)" >&2
      why=124; stop_loggen; break
    fi
    if [ "$PEER" = hdfs ] && ! hdfs_alive; then echo "  the HDFS JVM (pid $HPID) is gone: loggen stopped" >&2; why=125; stop_loggen; break; fi
    sleep 0.2
  done
  LG_RC=0
  wait "$LGPID" || LG_RC=$?
  (( why == 0 )) || LG_RC=$why
  LGPID=""
}
loggen_sent() { local n; n=$(grep -o 'count=[0-9]*' "$1" | tail -1 | cut -d= -f2 || true); echo "${n:-0}"; }

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
        echo "    properties: { dfs.replication: \"1\" }"
        if [ -n "$LR_HDFS_EXTRA" ]; then printf '%s\n' "$LR_HDFS_EXTRA" | sed 's/^/    /'; fi ;;
    esac
  } > "$f"
}

# ============================================================================
# __run PEER TAG: one timed run; called as `flock $LOCK hdfs-bench.sh __run PEER TAG`
# ============================================================================
one_run() {
  PEER=$1; local tag=$2
  local stamp; stamp=$(date -u +%Y%m%dT%H%M%S)
  local run=$WORK/runs/$PEER-$tag-$stamp clk; clk=$(getconf CLK_TCK)
  local hdir=$HDFS_ROOT/$PEER-$tag-$stamp out
  mkdir -p "$run"
  OUTDIR=$run/out
  if ss -ltnH "( sport = :$PEER_PORT )" | grep -q .; then
    echo "port $PEER_PORT is already in use; refusing to start" >&2; return 3
  fi
  HPID=$(hdfs_pid)
  if [ -n "$HPID" ] && ! kill -0 "$HPID" 2>/dev/null; then HPID=""; fi
  if [ "$PEER" = hdfs ]; then
    if [ -z "$HPID" ] || ! hdfs_up; then echo "the HDFS cluster ($NN_HTTP, $HDFS_DIR) is not running" >&2; return 6; fi
    if [ "$KEEP_OUTPUT" != 1 ]; then
      hdfs_delete "$HDFS_ROOT"                        # leftovers of an aborted run
      wait_dn_below 0 60 || true
    fi
    out=$hdir/$HDFS_FILE
  else
    mkdir -p "$OUTDIR"
    out=$OUTDIR/out.log
  fi

  # ---- router start ---------------------------------------------------------------------------
  trap 'abort_run' EXIT
  trap 'exit 130' INT TERM
  [ -f "$ROUTER_JAR" ] || { echo "missing $ROUTER_JAR (set ROUTER_JAR)" >&2; return 2; }
  write_config "$PEER" "$run/logrouter.yaml" "$out"
  # shellcheck disable=SC2086
  (cd "$run" && exec "$JAVA" $LR_JAVA_OPTS -jar "$ROUTER_JAR" run --config "$run/logrouter.yaml") \
    > "$run/daemon.log" 2>&1 &
  DPID=$!
  local i
  for i in $(seq 600); do
    if ss -ltnH "( sport = :$PEER_PORT )" | grep -q .; then break; fi
    kill -0 "$DPID" 2>/dev/null || { echo "router died at startup:" >&2; tail -n 40 "$run/daemon.log" >&2; return 5; }
    sleep 0.1
  done
  ss -ltnH "( sport = :$PEER_PORT )" | grep -q . || { echo "router not listening on $PEER_PORT" >&2; tail -n 40 "$run/daemon.log" >&2; return 5; }
  sleep 0.5

  # ---- warm-up (not measured) -----------------------------------------------------------------
  local l0 l1 wsent=0
  l0=$(out_lines)                                     # 0 unless a deletion is still pending
  l1=$l0
  if (( WARMUP_SECS > 0 )); then
    run_loggen "$WARMUP_SECS" "$run/warmup"
    wsent=$(loggen_sent "$run/warmup.err")
    settle $((l0 + wsent))
    if [ "$S_HDFS_DEAD" = 1 ]; then return 6; fi
    l1=$S_LINES
    echo "  warm-up ${WARMUP_SECS}s: sent $wsent, written $((l1 - l0))" | tee -a "$run/warmup.err"
  fi

  # ---- measured load --------------------------------------------------------------------------
  local a_t a_d a_b
  a_t=$(now_us); a_d=$(cputicks "$DPID"); a_b=$(cputicks "${HPID:-}")
  run_loggen "$LOAD_SECS" "$run/loggen"
  local lg_rc=$LG_RC l_t; l_t=$(now_us)
  local sent; sent=$(loggen_sent "$run/loggen.err")

  # ---- drain ----------------------------------------------------------------------------------
  settle $((l1 + sent))
  if [ "$S_HDFS_DEAD" = 1 ]; then return 6; fi
  local last_us=$S_LAST_US e_d=$S_D e_b=$S_B settled_bytes=$S_BYTES drained=$S_OK
  (( last_us > a_t )) || last_us=$l_t                 # nothing written after loggen started
  local hwm; hwm=$(awk '/^VmHWM:/ { print $2 }' "/proc/$DPID/status" 2>/dev/null || echo 0)
  trap - EXIT INT TERM
  stop_router
  local router_rc=$ROUTER_RC
  if [ "$router_rc" != 0 ]; then echo "  router exited with $router_rc; last lines of its log:" >&2; tail -n 20 "$run/daemon.log" >&2; fi
  probe
  local stop_growth=$((P_BYTES - settled_bytes))

  # ---- count ----------------------------------------------------------------------------------
  local total bytes files tmp
  if [ "$PEER" = hdfs ]; then
    if ! hdfs_count "$hdir"; then echo "  cannot read $hdir through WebHDFS: run not recorded" >&2; return 6; fi
    total=$C_LINES; bytes=$C_BYTES; files=$C_FILES; tmp=$C_TMP
  else
    total=$(out_lines); bytes=$P_BYTES; files=$(out_find | wc -l); tmp=0
  fi
  local delivered=$((total - (l1 - l0)))
  local lg_u lg_s avg
  read -r lg_u lg_s _ < <(tail -1 "$run/loggen.time" 2>/dev/null || echo "0 0 0")
  avg=$(sed -n 's/.*msg size=\([0-9.]*\).*/\1/p' "$run/loggen.err" | tail -1)
  local row
  row=$(awk -v a="$a_t" -v e="$last_us" -v sent="$sent" -v rec="$delivered" -v d0="$a_d" -v d1="$e_d" \
    -v b0="$a_b" -v b1="$e_b" -v hp="${HPID:-}" -v clk="$clk" -v lgu="${lg_u:-0}" -v lgs="${lg_s:-0}" \
    -v avg="${avg:-$MSG_SIZE}" 'BEGIN {
      el = (e - a) / 1e6; if (el <= 0) el = 1e-9; rate = rec / el; n = (rec > 0) ? rec : 1
      dc = (d1 - d0) / clk; bc = (b1 - b0) / clk
      printf "%d,%d,%d,%.3f,%.0f,%.2f,%.2f,%.3f,", sent, rec, sent - rec, el, rate, rate * avg / 1e6, dc, dc / n * 1e6
      if (hp != "") printf "%.2f,%.3f,", bc, bc / n * 1e6; else printf ",,"
      printf "%.2f,%.1f", lgu + lgs, avg }')
  mkdir -p "$RESULTS_DIR"
  [ -s "$CSV" ] || echo "ts,peer,run,conns,msg_size,proto,load_secs,warmup_secs,warm_sent,warm_written,sent,delivered,lost,seconds,msgs_per_s,mb_per_s,router_cpu_s,router_us_per_msg,hdfs_cpu_s,hdfs_us_per_msg,loggen_cpu_s,avg_msg_bytes,router_rss_mb,out_bytes,out_files,tmp_files,drained,stop_growth_bytes,router_rc,loggen_rc,sync,run_dir" > "$CSV"
  local sync=""; [ "$PEER" = hdfs ] && sync=$HDFS_SYNC
  echo "$(date -u +%FT%TZ),$PEER,$tag,$CONNS,$MSG_SIZE,$LG_PROTO,$LOAD_SECS,$WARMUP_SECS,$wsent,$((l1 - l0)),$row,$((hwm / 1024)),$bytes,$files,$tmp,$drained,$stop_growth,$router_rc,$lg_rc,$sync,$run" >> "$CSV"
  echo "$PEER $tag: $(echo "$row" | awk -F, '{printf "sent=%s delivered=%s lost=%s seconds=%s msgs/s=%s MB/s=%s router=%s us/msg", $1, $2, $3, $4, $5, $6, $8}')$(echo "$row" | awk -F, '$10 != "" {printf " hdfs=%s us/msg", $10}') files=$files"
  local status=0
  if (( sent != delivered )); then echo "  LOSS/DUPLICATES: sent $sent, delivered $delivered (run dir $run)" >&2; status=1; fi
  if (( tmp > 0 )); then echo "  $tmp .tmp part(s) left after the router stopped" >&2; status=1; fi
  if (( stop_growth > 0 )); then echo "  the output grew by $stop_growth bytes during the stop: the drain end came too early" >&2; fi
  if [ "$lg_rc" != 0 ]; then echo "  loggen exit code $lg_rc (see $run/loggen.err)" >&2; status=1; fi
  if [ "$router_rc" != 0 ]; then status=1; fi

  # ---- free the space (output deleted, DataNode blocks gone before the next run) --------------
  if [ "$KEEP_OUTPUT" != 1 ]; then
    if [ "$PEER" = hdfs ]; then hdfs_delete "$hdir"; wait_dn_below 0 60 || true
    else rm -rf "$OUTDIR"; fi
  fi
  return $status
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
  __run) shift; one_run "$@"; exit $? ;;
  __hdfswarmup) hdfs_warmup; exit $? ;;
  __config) shift; write_config "$1" "$2" "$3"; exit 0 ;;   # __config PEER FILE OUT: only write a config
esac

# ============================================================================
# main
# ============================================================================
peers=${1:?usage: hdfs-bench.sh file|hdfs|file,hdfs [RUNS]}; runs=${2:-3}
[[ $runs =~ ^[0-9]+$ ]] || { echo "RUNS must be a number" >&2; exit 2; }
IFS=, read -r -a PEERS <<< "$peers"
need_hdfs=0
mkdir -p "$WORK" "$RESULTS_DIR"
[ -x "$LOGGEN" ] || { echo "no loggen at $LOGGEN (apt-get install syslog-ng-core)" >&2; exit 2; }
[ -f "$ROUTER_JAR" ] || { echo "missing $ROUTER_JAR (build it: ./mvnw -q -B package -DskipTests)" >&2; exit 2; }
for p in "${PEERS[@]}"; do
  case $p in
    file) ;;
    hdfs) need_hdfs=1
          command -v jq > /dev/null || { echo "the hdfs peer needs jq (apt-get install jq)" >&2; exit 2; } ;;
    *) echo "unknown peer $p (file|hdfs|file,hdfs)" >&2; exit 2 ;;
  esac
done
# check_config PEER: does this jar accept the peer's config (e.g. does it have the hdfs sink)?
check_config() {
  write_config "$1" "$WORK/check-$1.yaml" "$WORK/check/out.log"
  "$JAVA" -jar "$ROUTER_JAR" check-config --config "$WORK/check-$1.yaml" > "$WORK/check-$1.log" 2>&1 \
    || { echo "logrouter ($ROUTER_JAR) rejects the $1 config $WORK/check-$1.yaml:" >&2; cat "$WORK/check-$1.log" >&2; exit 2; }
}
for p in "${PEERS[@]}"; do [ "$p" = hdfs ] || check_config "$p"; done

started_hdfs=0
finish() {
  if [ "$started_hdfs" = 1 ]; then HDFS_DIR=$HDFS_DIR "$HERE/hdfs-cluster.sh" stop || true; fi
}
trap finish EXIT
trap 'exit 130' INT TERM
if [ "$need_hdfs" = 1 ]; then
  if ! HDFS_DIR=$HDFS_DIR "$HERE/hdfs-cluster.sh" status > /dev/null 2>&1; then
    started_hdfs=1
    HDFS_DIR=$HDFS_DIR HDFS_HEAP=$HDFS_HEAP HDFS_HTTP_PORT=$HDFS_HTTP_PORT "$HERE/hdfs-cluster.sh" start "$HDFS_NN_PORT" > /dev/null
  fi
  hdfs_up || { echo "HDFS at $NN_HTTP is not answering" >&2; exit 3; }
  check_config hdfs
  echo "HDFS $(curl -fsS "$NN_HTTP/jmx?qry=Hadoop:service=NameNode,name=NameNodeInfo" | grep -o '"Version" : "[^,"]*' | cut -d'"' -f4) at $HDFS_URI (pid $(hdfs_pid), heap $HDFS_HEAP)"
  wait_for_build
  flock "$LOCK" "$0" __hdfswarmup
fi
echo "logrouter: $ROUTER_JAR; loggen: ${CONNS} connections, ${MSG_SIZE} B, RFC $LG_PROTO, ${LOAD_SECS}s (+${WARMUP_SECS}s warm-up)"

first_line=$([ -s "$CSV" ] && wc -l < "$CSV" || echo 1)
failed=0
for i in $(seq "$runs"); do
  for p in "${PEERS[@]}"; do
    if [ "$p" = hdfs ] && ! hdfs_up; then echo "HDFS at $NN_HTTP is gone: no more runs" >&2; failed=$((failed + 1)); break 2; fi
    wait_for_build
    rc=0
    flock "$LOCK" "$0" __run "$p" "r$i" || rc=$?
    if [ "$rc" != 0 ]; then echo "run $p r$i failed (rc $rc)" >&2; failed=$((failed + 1)); fi
  done
done

# ---- medians of this invocation's runs -------------------------------------------------------
echo
echo "medians over this invocation ($CSV):"
tail -n +$((first_line + 1)) "$CSV" | awk -F, -v ref="$PE_REF_MSGS" "$MED_AWK"'
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
  }'
if (( failed > 0 )); then echo "$failed run(s) failed" >&2; exit 1; fi

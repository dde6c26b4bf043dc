# bench-lib.sh - the one end-to-end benchmark harness. e2e.sh (TCP -> file) and the Kafka, Elasticsearch
# and HDFS harnesses are adapters around it: each starts its own peer, says how to count what arrived and
# writes its router config; everything else is here. Sourced, not run:  . "$HERE/../lib/bench-lib.sh"
#
# One run (bench_one_run PEER TAG [ARGS]):
#   1. refuses a busy PEER_PORT; peer_prepare; peer_start (the router or the other peer, pid DPID);
#      waits until PEER_PORT listens (STARTUP_SECS);
#   2. warm-up, when WARM > 0: the same load (WARM seconds or messages), drained, not measured;
#   3. the measured load (LOAD seconds or messages): bench_load, loadgen or loggen under /usr/bin/time;
#   4. the drain, bench_settle: polls the destination until its count reaches what was sent and has been
#      still for SETTLE_SECS (or STALL_SECS without growth, or MAX_DRAIN_SECS in all); CPU ticks of the
#      router (DPID) and of the destination server (SPID) are sampled at the poll that saw the last growth;
#   5. peak RSS of DPID, SIGTERM to it (STOP_SECS, then SIGKILL), exit status in ROUTER_RC;
#   6. peer_final counts the run's messages in the destination (F_TOTAL); DELIVERED = F_TOTAL - F_BASE;
#   7. bench_metrics and bench_jvm_metrics (R_* below; a router's GC count and allocation are sampled with
#      router-bench's JvmSample just before the measured load and just after its drain); peer_record writes
#      the adapter's CSV row and result line; its status is the run's.
# Several runs (bench_main "PEERS" RUNS): peers x runs, alternating, each run as `flock $LOCK $0 __run PEER
# rN ARGS` (so one benchmark at a time), medians at the end (bench_medians).
#
# Settings the adapter sets before calling (its own environment names mapped onto these):
#   WORK RESULTS_DIR CSV LOCK PEER_PORT JAVA ROUTER_JAR (bench_start_router) STARTUP_SECS STOP_SECS
#   LOADGEN=loadgen|loggen  LOGGEN_BIN (loggen's path)  BENCH_JAR (loadgen's jar)
#   CONNS LG_SIZE LG_FORMAT=rfc3164|rfc5424 LG_RATE (total msg/s, 0 = unlimited) LG_TLS=0|1
#   LG_LOGGEN_ARGS (more loggen arguments, e.g. "-R file -l -d")  LG_UNIT=secs|count  LOAD WARM  LG_GRACE_SECS (the load is stopped that long past its planned end;
#     count mode: past LG_GRACE_SECS + 60 s in all)
#   POLL_SECS SETTLE_SECS STALL_SECS MAX_DRAIN_SECS (may be fractional)  SAY (message prefix, "  ")
#   DAEMON_LOG (the peer's log file name in the run directory, daemon.log)
#
# Hooks the adapter defines (functions):
#   peer_start [ARGS]   start the process under test for $PEER in $RUN, set DPID             (required)
#   peer_probe          set P_LEVEL, a number that grows while messages arrive (bytes written,
#                       records, documents; -1 = not known this time) and P_MTIME_US (epoch µs of
#                       the last write; empty = this poll's time)                             (required)
#   peer_record         write the run's result (CSV row, result line); returns the run's status (required)
#   peer_count          print the exact number of messages that arrived; called once the level was
#                       still for SETTLE_SECS (default: the level itself)
#   peer_final          after the stop: set F_TOTAL = this run's messages in the destination, warm-up
#                       included; non-zero = cannot count, the run is not recorded (rc 6)
#                       (default: peer_probe + peer_count)
#   peer_prepare [ARGS] checks before the start (e.g. the server is up); sets SPID, the destination
#                       server's pid for CPU (empty = not measured); non-zero = abort with that status
#   peer_alive          false (with a message) when the destination server is gone: the load is stopped
#                       (LG_RC 125), the drain ends, the run aborts (rc 6)           (default: true)
#   peer_base           print the count before the warm-up (default 0)
#   peer_warmed         after the warm-up drain (B0, B1 = counts before/after, WSENT); prints the warm-up
#                       line; may set F_BASE (what to subtract from F_TOTAL; default B1 - B0)
#   peer_settle_start / peer_settle_stop   around each drain (e.g. start / stop a counter process)
#   peer_drained        after the measured drain, the peer still running (e.g. save its statistics)
#   peer_cleanup        after peer_record (e.g. delete the output)
#   peer_exit           on every exit of a run, also an aborted one (e.g. remove a temp directory)
# and, for bench_main: peer_check P (refuse a peer that cannot run: exit 2), server_start (start the
#   destination server unless it runs; set SERVER_STARTED=1 when it started it), server_stop (called at
#   the end when SERVER_STARTED=1), run_before P TAG (before each run: set RUN_ARGS, the extra arguments of
#   `__run`; non-zero = no more runs), run_after P TAG, summary (print the medians).
#
# Results a run leaves for peer_record: PEER TAG RUN CLK SENT WSENT B0 B1 F_TOTAL F_BASE DELIVERED
#   LG_RC LG_CPU LG_AVG LG_CMD A_T E_T (epoch µs: load start -> drain end) S_OK (1 = everything arrived
#   before the drain ended) S_LEVEL ROUTER_RC HWM_KB, and bench_metrics':
#   R_SECONDS R_RATE R_MBS R_DCPU R_DUS R_BCPU R_BUS R_CORES R_AVG R_RSS_MB R_LOST (R_BCPU/R_BUS empty
#   without SPID), and bench_jvm_metrics' R_GC R_GC_MS R_ALLOC_MBS R_ALLOC_BPM R_ALLOC_SPLIT (GC and heap
#   allocation of a logrouter peer between the end of the warm-up and the end of the drain; "-" for others).

# ---- small things ---------------------------------------------------------------------------------
bench_now_us() { echo "${EPOCHREALTIME/./}"; }
bench_say() { echo "${SAY-  }$*" >&2; }
# bench_us SECS: SECS (may be fractional) in microseconds
bench_us() { awk -v s="$1" 'BEGIN { printf "%.0f", s * 1e6 }'; }
bench_listening() { ss -ltnH "( sport = :$1 )" 2>/dev/null | grep -q .; }
# bench_hook NAME [ARGS]: calls NAME when the adapter defines it (status 0 otherwise)
bench_hook() { if declare -F "$1" > /dev/null; then "$@"; fi; }

# cputicks PID: utime+stime+cutime+cstime of PID in clock ticks (0 when it is gone or not given)
cputicks() {
  if [ -z "${1:-}" ] || [ ! -r "/proc/$1/stat" ]; then echo 0; return 0; fi
  local s; s=$(< "/proc/$1/stat") || { echo 0; return 0; }
  s=${s##*) }                                       # fields after "(comm) "
  local -a F; read -r -a F <<< "$s"
  echo $(( F[11] + F[12] + F[13] + F[14] ))         # fields 14..17 of stat
}

# stop_pid PID SECS LABEL: SIGTERM, wait up to SECS (then SIGKILL), reap; sets STOP_RC to its exit
# status (empty without a PID). PID must be a child of this shell for the status.
stop_pid() {
  local pid=${1:-} secs=$2 label=$3 i
  STOP_RC=""
  [ -n "$pid" ] || return 0
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null || true
    for i in $(seq $((secs * 10))); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then
      echo "  $label $pid did not stop within ${secs}s of SIGTERM: SIGKILL" >&2; kill -KILL "$pid" 2>/dev/null || true
    fi
  fi
  STOP_RC=0; wait "$pid" 2>/dev/null || STOP_RC=$?
}

# stop_loggen: stops the load generator running in the background as LGPID (/usr/bin/time and its child)
stop_loggen() {
  if [ -n "${LGPID:-}" ] && kill -0 "$LGPID" 2>/dev/null; then
    pkill -TERM -P "$LGPID" 2>/dev/null || true      # loggen / loadgen's java, the child of /usr/bin/time
    kill -TERM "$LGPID" 2>/dev/null || true
  fi
}

# wait_for_build: waits while a Maven build runs (at most MAVEN_WAIT_SECS, default 1800)
wait_for_build() {
  local waited=0 limit=${MAVEN_WAIT_SECS:-1800}
  while pgrep -f 'plexus.classworlds.launcher' > /dev/null 2>&1; do
    if (( waited == 0 )); then echo "  a Maven build is running; waiting (max ${limit}s)" >&2; fi
    if (( waited >= limit )); then echo "  still building after ${limit}s; running anyway" >&2; break; fi
    sleep 5; waited=$((waited + 5))
  done
  return 0
}

# MED_AWK: an awk function med(arr, p, c): the median of arr[p SUBSEP 1..c]; prepend it to a program:
#   awk -F, "$MED_AWK"'{ ... } END { print med(rate, p, n[p]) }'
MED_AWK='
  function med(arr, p, c,   i, j, t, v) {
    for (i = 1; i <= c; i++) v[i] = arr[p SUBSEP i] + 0
    for (i = 1; i <= c; i++) for (j = i + 1; j <= c; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
    return (c % 2) ? v[(c + 1) / 2] : (v[c / 2] + v[c / 2 + 1]) / 2
  }
'

# bench_check_loadgen: the chosen load generator is there (exit 2 otherwise)
bench_check_loadgen() {
  case $LOADGEN in
    loadgen) [ -f "$BENCH_JAR" ] || { echo "missing $BENCH_JAR (build it: ./mvnw -q -B package -DskipTests)" >&2; exit 2; } ;;
    loggen) [ -x "$LOGGEN_BIN" ] \
              || { echo "no loggen at $LOGGEN_BIN (apt-get install syslog-ng-core; or LOADGEN=loadgen)" >&2; exit 2; } ;;
    *) echo "LOADGEN must be loadgen or loggen, got '$LOADGEN'" >&2; exit 2 ;;
  esac
}

# ---- the load ---------------------------------------------------------------------------------------
# bench_load N OUTPREFIX: sends N seconds (LG_UNIT=secs) or N messages (count) to 127.0.0.1:PEER_PORT
# with loadgen or loggen, under /usr/bin/time when it is there; waits for it. A watchdog stops it
# LG_GRACE_SECS past its planned end (LG_RC 124: loggen looks at its own limit only between sends, so a
# peer that stops reading would block it forever) or as soon as peer_alive fails (LG_RC 125).
# Files: OUTPREFIX.cmd (the command), .out, .err, .time ("%U %S %e"), .why (the watchdog's verdict).
# Sets LG_RC, LG_SENT (the generator's own count), LG_START_US, LG_END_US, LG_FIRST_US (its first send:
# end minus its own elapsed time, so a JVM's start-up is not counted; the start without one), LG_AVG
# (bytes per message on the wire: loggen's reported average, else LG_SIZE), LG_CPU (user+system seconds,
# "-" without /usr/bin/time), LG_OUT (its summary line), LG_CMD.
bench_load() {
  local n=$1 out=$2 limit per
  local -a cmd timed=()
  per=100000000                                        # loggen's "unlimited", per connection
  (( LG_RATE > 0 )) && per=$(( (LG_RATE + CONNS - 1) / CONNS ))
  if [ "$LOADGEN" = loadgen ]; then
    local rate=$LG_RATE
    (( per >= 100000000 )) && rate=0
    cmd=("$JAVA" -cp "$BENCH_JAR" dev.logrouter.bench.loadgen.LoadGen --host 127.0.0.1 --port "$PEER_PORT" --tcp
         --connections "$CONNS" --size "$LG_SIZE" --format "$LG_FORMAT" --rate "$rate" --timeout "$LG_GRACE_SECS")
    [ "$LG_TLS" = 1 ] && cmd+=(--tls)
    if [ "$LG_UNIT" = secs ]; then cmd+=(--duration "$n"); else cmd+=(--count "$n"); fi
  else
    cmd=("$LOGGEN_BIN")
    if [ "$LG_TLS" = 1 ]; then cmd+=(--use-ssl); else cmd+=(-S); fi   # the ssl plugin replaces the socket one
    [ "$LG_FORMAT" = rfc5424 ] && cmd+=(-P)
    cmd+=(-r "$per")
    # loggen's -n and -r are per connection; with -n, -I is only an upper bound
    if [ "$LG_UNIT" = secs ]; then cmd+=(-I "$n"); else cmd+=(-n $((n / CONNS)) -I $((LG_GRACE_SECS + 30))); fi
    cmd+=(--active-connections="$CONNS" -s "$LG_SIZE" ${LG_LOGGEN_ARGS:-} 127.0.0.1 "$PEER_PORT")
  fi
  if [ "$LG_UNIT" = secs ]; then limit=$((n + LG_GRACE_SECS)); else limit=$((LG_GRACE_SECS + 60)); fi
  LG_CMD="${cmd[*]}"
  echo "$LG_CMD" > "$out.cmd"
  rm -f "$out.time" "$out.why"
  [ -x /usr/bin/time ] && timed=(/usr/bin/time -f "%U %S %e" -o "$out.time")
  LG_START_US=$(bench_now_us)
  "${timed[@]}" "${cmd[@]}" > "$out.out" 2> "$out.err" &
  LGPID=$!
  # the watchdog: a subshell, so that the wait below returns the moment the generator ends
  (
    deadline=$((SECONDS + limit))
    while kill -0 "$LGPID" 2>/dev/null; do
      if (( SECONDS > deadline )); then
        bench_say "$LOADGEN still running ${LG_GRACE_SECS}s after its planned end: stopped (the peer stopped reading?)"
        echo 124 > "$out.why"; stop_loggen; exit 0
      fi
      if ! bench_hook peer_alive; then bench_say "$LOADGEN stopped"; echo 125 > "$out.why"; stop_loggen; exit 0; fi
      sleep 0.5
    done
  ) &
  local wd=$!
  LG_RC=0
  wait "$LGPID" || LG_RC=$?
  LG_END_US=$(bench_now_us)
  kill "$wd" 2>/dev/null || true
  wait "$wd" 2>/dev/null || true
  LGPID=""
  if [ -s "$out.why" ]; then LG_RC=$(< "$out.why"); fi
  local elapsed
  if [ "$LOADGEN" = loadgen ]; then
    LG_OUT=$(tail -n 1 "$out.out")
    LG_SENT=$(sed -n 's/.*sent=\([0-9]*\).*/\1/p' <<< "$LG_OUT")
    elapsed=$(sed -n 's/.*elapsed_s=\([0-9.]*\).*/\1/p' <<< "$LG_OUT")
    LG_AVG=$LG_SIZE
  else
    LG_OUT=$(tail -n 1 "$out.err")
    LG_SENT=$(grep -o 'count=[0-9]*' "$out.err" | tail -1 | cut -d= -f2 || true)
    elapsed=$(grep -o 'time=[0-9.]*' "$out.err" | tail -1 | cut -d= -f2 || true)
    # loggen's bytes per message on the wire (-P adds the octet count to -s)
    LG_AVG=$(sed -n 's/.*msg size=\([0-9.]*\).*/\1/p' "$out.err" | tail -1)
    LG_AVG=${LG_AVG:-$LG_SIZE}
  fi
  LG_SENT=${LG_SENT:-0}
  if [ -n "$elapsed" ]; then
    LG_FIRST_US=$(awk -v e="$LG_END_US" -v s="$elapsed" 'BEGIN { printf "%.0f", e - s * 1e6 }')
    (( LG_FIRST_US >= LG_START_US )) || LG_FIRST_US=$LG_START_US
  else
    LG_FIRST_US=$LG_START_US
  fi
  if [ -s "$out.time" ] && [ "$(wc -l < "$out.time")" -ge 1 ]; then
    LG_CPU=$(tail -n 1 "$out.time" | awk 'NF >= 2 && $1 ~ /^[0-9.]+$/ { printf "%.2f", $1 + $2; ok = 1 } END { if (!ok) print "-" }')
  else
    LG_CPU="-"
  fi
  return 0
}

# ---- the drain ---------------------------------------------------------------------------------------
# bench_settle EXPECTED: polls peer_probe every POLL_SECS until the level has been still for SETTLE_SECS
# and peer_count (counted once per still level) is >= EXPECTED; or until it has been still for
# STALL_SECS (short: loss or a stalled peer), MAX_DRAIN_SECS passed, the router (DPID) died or
# peer_alive failed (S_DEAD=1). Sets S_OK (1 = everything in), S_COUNT (the last count), S_LEVEL (the
# last level), S_LAST_US (P_MTIME_US, or the poll's time, at the poll that saw the last growth), S_D /
# S_B (CPU ticks of DPID / SPID sampled at that poll), S_DEAD.
bench_settle() {
  local expected=$1 start now last=-1 last_change counted_at=-1
  local settle_us stall_us max_us
  settle_us=$(bench_us "$SETTLE_SECS"); stall_us=$(bench_us "$STALL_SECS"); max_us=$(bench_us "$MAX_DRAIN_SECS")
  start=$(bench_now_us); last_change=$start
  S_OK=0; S_COUNT=0; S_LEVEL=-1; S_DEAD=0; S_LAST_US=$start
  S_D=$(cputicks "${DPID:-}"); S_B=$(cputicks "${SPID:-}")
  bench_hook peer_settle_start
  while :; do
    if ! bench_hook peer_alive; then S_DEAD=1; break; fi
    P_LEVEL=-1; P_MTIME_US=""
    peer_probe
    now=$(bench_now_us)
    if (( P_LEVEL >= 0 && P_LEVEL != last )); then
      last=$P_LEVEL; last_change=$now; S_LEVEL=$P_LEVEL
      S_LAST_US=${P_MTIME_US:-$now}; (( S_LAST_US > 0 )) || S_LAST_US=$now
      S_D=$(cputicks "${DPID:-}"); S_B=$(cputicks "${SPID:-}")
    elif (( last >= 0 && now - last_change >= settle_us && counted_at != last )); then
      S_COUNT=$(bench_count); counted_at=$last
      if (( S_COUNT >= expected )); then S_OK=1; break; fi
    fi
    if (( now - last_change >= stall_us )); then
      S_COUNT=$(bench_count); bench_say "output stalled at $S_COUNT of $expected for ${STALL_SECS}s"; break
    fi
    if (( now - start >= max_us )); then
      S_COUNT=$(bench_count); bench_say "drain not finished after ${MAX_DRAIN_SECS}s ($S_COUNT of $expected)"; break
    fi
    if ! kill -0 "$DPID" 2>/dev/null; then
      S_COUNT=$(bench_count); bench_say "the router died ($S_COUNT of $expected)"; break
    fi
    sleep "$POLL_SECS"
  done
  bench_hook peer_settle_stop
  return 0
}
# bench_count: peer_count, or the last level seen (never negative)
bench_count() {
  if declare -F peer_count > /dev/null; then peer_count; else echo $(( S_LEVEL > 0 ? S_LEVEL : 0 )); fi
}

# ---- the process under test ----------------------------------------------------------------------------
# bench_start_router CONFIG: java $LR_JAVA_OPTS -jar $ROUTER_JAR run --config CONFIG in the background,
# cwd = the run directory (relative defaults such as ./data/dead-letter stay in it), log DAEMON_LOG; sets DPID
bench_start_router() {
  [ -f "$ROUTER_JAR" ] || { echo "missing $ROUTER_JAR (set ROUTER_JAR)" >&2; return 2; }
  # shellcheck disable=SC2086
  (cd "$RUN" && exec "$JAVA" ${LR_JAVA_OPTS:-} -jar "$ROUTER_JAR" run --config "$1") > "$RUN/$DAEMON_LOG" 2>&1 &
  DPID=$!
}

# bench_check_config CONFIG LOG: does this router jar accept CONFIG (check-config)? exit 2 if not
bench_check_config() {
  "$JAVA" -jar "$ROUTER_JAR" check-config --config "$1" > "$2" 2>&1 \
    || { echo "logrouter ($ROUTER_JAR) rejects the config $1:" >&2; cat "$2" >&2; exit 2; }
}

# bench_wait_listening: until PEER_PORT listens (STARTUP_SECS); 5 when DPID died or it never listened
bench_wait_listening() {
  local i
  for i in $(seq $((STARTUP_SECS * 10))); do
    bench_listening "$PEER_PORT" && break
    kill -0 "$DPID" 2>/dev/null || { echo "peer died at startup:" >&2; tail -n 40 "$RUN/$DAEMON_LOG" >&2; return 5; }
    sleep 0.1
  done
  bench_listening "$PEER_PORT" \
    || { echo "peer not listening on 127.0.0.1:$PEER_PORT; its log:" >&2; tail -n 40 "$RUN/$DAEMON_LOG" >&2; return 5; }
  sleep 0.5
}

# bench_abort: the EXIT trap during a run: stops the load, the drain's helpers and the peer
bench_abort() {
  stop_loggen; LGPID=""
  bench_hook peer_settle_stop
  stop_pid "${DPID:-}" "$STOP_SECS" peer; DPID=""
  bench_hook peer_exit
}

# ---- one run -------------------------------------------------------------------------------------------
# bench_one_run PEER TAG [ARGS]: see the top. RUN may be preset (e2e.sh: its temp directory); otherwise
# $WORK/runs/PEER-TAG-<time>. ARGS go to peer_prepare and peer_start. Returns peer_record's status, or 2
# (peer_start failed), 3 (PEER_PORT busy), 5 (peer did not listen), 6 (destination gone / not countable).
bench_one_run() {
  PEER=$1; TAG=$2; shift 2
  RUN=${RUN:-$WORK/runs/$PEER-$TAG-$(date -u +%Y%m%dT%H%M%S)}
  mkdir -p "$RUN"
  CLK=$(getconf CLK_TCK)
  if bench_listening "$PEER_PORT"; then echo "port $PEER_PORT is already in use; refusing to start" >&2; return 3; fi
  SPID=""; DPID=""; LGPID=""; F_BASE=""
  bench_hook peer_prepare "$@" || return $?
  trap 'bench_abort' EXIT
  trap 'exit 130' INT TERM
  peer_start "$@" || return $?
  bench_wait_listening || return $?

  # ---- warm-up (not measured) ----
  B0=$(if declare -F peer_base > /dev/null; then peer_base; else echo 0; fi)
  B1=$B0; WSENT=0
  if (( WARM > 0 )); then
    bench_jvm_sample > /dev/null  # the router's JMX agent starts now, and its code runs once before the warm-up
    bench_load "$WARM" "$RUN/warmup"
    WSENT=$LG_SENT
    bench_say "$LOADGEN (warm-up): $LG_OUT"
    bench_settle $((B0 + WSENT))
    (( S_DEAD == 0 )) || return 6
    B1=$S_COUNT
    J0=$(bench_jvm_sample); J0_US=$(bench_now_us)
    bench_hook peer_warmed
  else
    J0=$(bench_jvm_sample); J0_US=$(bench_now_us)
  fi

  # ---- the measured load ----
  A_D=$(cputicks "$DPID"); A_B=$(cputicks "${SPID:-}")
  bench_load "$LOAD" "$RUN/loggen"
  SENT=$LG_SENT; A_T=$LG_FIRST_US
  bench_say "$LOADGEN: $LG_OUT"
  if (( LG_RC != 0 )); then bench_say "$LOADGEN failed (exit $LG_RC):"; tail -n 5 "$RUN/loggen.err" >&2; fi

  # ---- the drain ----
  bench_settle $((B1 + SENT))
  (( S_DEAD == 0 )) || return 6
  E_T=$S_LAST_US; E_D=$S_D; E_B=$S_B
  (( E_T > A_T )) || E_T=$LG_END_US                    # nothing written after the load started
  HWM_KB=$(awk '/^VmHWM:/ { print $2 }' "/proc/$DPID/status" 2>/dev/null || true); HWM_KB=${HWM_KB:-0}
  J1_US=$(bench_now_us); J1=$(bench_jvm_sample)
  bench_hook peer_drained

  # ---- stop ----
  trap - INT TERM
  trap 'bench_hook peer_exit' EXIT
  stop_pid "$DPID" "$STOP_SECS" router
  ROUTER_RC=$STOP_RC; DPID=""
  if [ "$ROUTER_RC" != 0 ]; then
    bench_say "router exited with $ROUTER_RC; last lines of its log:"; tail -n 20 "$RUN/$DAEMON_LOG" >&2
  fi

  # ---- count, record ----
  if declare -F peer_final > /dev/null; then
    peer_final || return 6
  else
    P_LEVEL=-1; peer_probe; S_LEVEL=$P_LEVEL; F_TOTAL=$(bench_count)
  fi
  F_BASE=${F_BASE:-$((B1 - B0))}
  DELIVERED=$((F_TOTAL - F_BASE))
  bench_metrics
  bench_jvm_metrics
  local status=0
  peer_record || status=$?
  bench_hook peer_cleanup
  return $status
}

# bench_metrics: from A_T E_T SENT DELIVERED A_D E_D A_B E_B SPID CLK LG_CPU LG_AVG HWM_KB:
#   R_SECONDS (%.3f) = load start -> drain end; R_RATE (%.0f msg/s) = DELIVERED / R_SECONDS;
#   R_MBS (%.2f) = R_RATE x LG_AVG / 10^6; R_DCPU (%.2f s) / R_DUS (%.3f µs per delivered message) /
#   R_CORES (%.2f) for DPID; R_BCPU / R_BUS the same for SPID (empty without SPID); R_AVG (%.1f);
#   R_RSS_MB (%.0f, VmHWM); R_LOST = SENT - DELIVERED
bench_metrics() {
  read -r R_SECONDS R_RATE R_MBS R_DCPU R_DUS R_BCPU R_BUS R_CORES R_AVG R_RSS_MB < <(
    awk -v a="$A_T" -v e="$E_T" -v rec="$DELIVERED" -v d0="$A_D" -v d1="$E_D" -v b0="${A_B:-0}" -v b1="${E_B:-0}" \
        -v sp="${SPID:-}" -v clk="$CLK" -v avg="$LG_AVG" -v hwm="${HWM_KB:-0}" 'BEGIN {
      el = (e - a) / 1e6; if (el <= 0) el = 1e-9; rate = rec / el; n = (rec > 0) ? rec : 1
      dc = (d1 - d0) / clk; bc = (b1 - b0) / clk
      printf "%.3f %.0f %.2f %.2f %.3f ", el, rate, rate * avg / 1e6, dc, dc / n * 1e6
      if (sp != "") printf "%.2f %.3f ", bc, bc / n * 1e6; else printf "- - "
      printf "%.2f %.1f %.0f\n", dc / el, avg, hwm / 1024 }')
  [ "$R_BCPU" != - ] || R_BCPU=""
  [ "$R_BUS" != - ] || R_BUS=""
  R_LOST=$((SENT - DELIVERED))
}

# bench_jvm_sample: one `JvmSample` line (gc_count= gc_ms= alloc_bytes= io= parse= sink= other=: GC and heap
# bytes allocated since the JVM started, the bytes split by thread group) of DPID when it is a router started from
# ROUTER_JAR and BENCH_JAR is there; nothing otherwise (another peer, e.g. syslog-ng). Local attach: the first one
# starts the router's local management agent, so with a warm-up one is taken before it (the agent's start and the
# JIT's work on its code then fall in the warm-up); the sample that opens the measured part is taken before the
# adapter's peer_warmed and the CPU baseline. Errors go to RUN/jvm-sample.err.
bench_jvm_sample() {
  [ -n "${DPID:-}" ] && [ -f "${BENCH_JAR:-}" ] && [ -r "/proc/$DPID/cmdline" ] || return 0
  tr '\0' ' ' < "/proc/$DPID/cmdline" | grep -qF -- "-jar $ROUTER_JAR" || return 0
  "$JAVA" -cp "$BENCH_JAR" dev.logrouter.bench.jvm.JvmSample "$DPID" 2>> "$RUN/jvm-sample.err" || true
}

# bench_jvm_metrics: from J0 / J1 (bench_jvm_sample before the measured load and after its drain), J0_US J1_US
# and DELIVERED: R_GC (collections in between), R_GC_MS (their time), R_ALLOC_MBS (MB/s of heap allocation over
# J0_US..J1_US, 1 MB = 10^6 B), R_ALLOC_BPM (bytes allocated per delivered message), R_ALLOC_SPLIT (the same
# per thread group: io:X,parse:X,sink:X,other:X B/msg); all "-" without both samples. Says them on stderr.
bench_jvm_metrics() {
  R_GC=- R_GC_MS=- R_ALLOC_MBS=- R_ALLOC_BPM=- R_ALLOC_SPLIT=-
  [ -n "${J0:-}" ] && [ -n "${J1:-}" ] || return 0
  read -r R_GC R_GC_MS R_ALLOC_MBS R_ALLOC_BPM R_ALLOC_SPLIT < <(
    awk -v a="$J0" -v b="$J1" -v t0="$J0_US" -v t1="$J1_US" -v n="$DELIVERED" 'BEGIN {
      split(a, x, " "); split(b, y, " ")
      for (i in x) { split(x[i], kv, "="); p[kv[1]] = kv[2] }
      for (i in y) { split(y[i], kv, "="); q[kv[1]] = kv[2] }
      if (n <= 0) n = 1; el = (t1 - t0) / 1e6; if (el <= 0) el = 1e-9
      al = q["alloc_bytes"] - p["alloc_bytes"]
      printf "%d %d %.2f %.1f io:%.1f,parse:%.1f,sink:%.1f,other:%.1f\n", q["gc_count"] - p["gc_count"],
        q["gc_ms"] - p["gc_ms"], al / el / 1e6, al / n, (q["io"] - p["io"]) / n, (q["parse"] - p["parse"]) / n,
        (q["sink"] - p["sink"]) / n, (q["other"] - p["other"]) / n }') || true
  bench_say "jvm: gc=$R_GC (${R_GC_MS} ms) alloc=${R_ALLOC_MBS} MB/s ${R_ALLOC_BPM} B/msg ($R_ALLOC_SPLIT B/msg)"
}

# bench_csv HEADER ROW: appends ROW to $CSV, writing HEADER first into a new file
bench_csv() {
  mkdir -p "$(dirname "$CSV")"
  [ -s "$CSV" ] || echo "$1" > "$CSV"
  echo "$2" >> "$CSV"
}

# ---- several runs ----------------------------------------------------------------------------------------
# bench_main PEERS RUNS: checks (LOADGEN, peer_check per peer), server_start, then RUNS x PEERS runs
# (alternating: p1 r1, p2 r1, p1 r2, ...), each `flock $LOCK $0 __run P rI RUN_ARGS...` after
# wait_for_build; summary; server_stop at exit when SERVER_STARTED=1. Exit 1 when a run failed.
bench_main() {
  local peers=$1 i p rc failed=0
  RUNS=$2
  [[ $RUNS =~ ^[0-9]+$ ]] || { echo "RUNS must be a number" >&2; exit 2; }
  IFS=, read -r -a PEERS <<< "$peers"
  mkdir -p "$WORK" "$RESULTS_DIR"
  bench_check_loadgen
  for p in "${PEERS[@]}"; do peer_check "$p"; done
  SERVER_STARTED=0
  trap 'bench_finish' EXIT
  trap 'exit 130' INT TERM
  bench_hook server_start
  FIRST_LINE=$([ -s "$CSV" ] && wc -l < "$CSV" || echo 1)
  for i in $(seq "$RUNS"); do
    for p in "${PEERS[@]}"; do
      RUN_ARGS=()
      if ! bench_hook run_before "$p" "r$i"; then failed=$((failed + 1)); break 2; fi
      wait_for_build
      rc=0
      flock "$LOCK" "$0" __run "$p" "r$i" "${RUN_ARGS[@]}" || rc=$?
      if [ "$rc" != 0 ]; then echo "run $p r$i failed (rc $rc)" >&2; failed=$((failed + 1)); fi
      bench_hook run_after "$p" "r$i"
    done
  done
  bench_hook summary
  if (( failed > 0 )); then echo "$failed run(s) failed" >&2; exit 1; fi
}
bench_finish() { if [ "${SERVER_STARTED:-0}" = 1 ]; then bench_hook server_stop || true; fi; }

# bench_medians AWK_PROGRAM [AWK OPTIONS]: "medians over this invocation ($CSV):" and AWK_PROGRAM (with
# MED_AWK's med() before it) over the CSV lines this invocation added
bench_medians() {
  local prog=$1; shift
  echo
  echo "medians over this invocation ($CSV):"
  tail -n +$((FIRST_LINE + 1)) "$CSV" | awk -F, "$@" "$MED_AWK$prog"
}

# bench_dispatch ARGS: runs `__run PEER TAG ARGS` (one run, called by bench_main under the lock) and exits;
# returns for anything else
bench_dispatch() {
  if [ "${1:-}" = __run ]; then shift; bench_one_run "$@"; exit $?; fi
}

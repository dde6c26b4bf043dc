# bench-lib.sh - functions shared by the end-to-end harnesses (kafka/, elasticsearch/, hdfs/).
# Sourced, not run:  . "$HERE/../lib/bench-lib.sh"

# cputicks PID: utime+stime+cutime+cstime of PID in clock ticks (0 when it is gone)
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

# stop_loggen: stops the loggen run in the background as LGPID (/usr/bin/time and its loggen child)
stop_loggen() {
  if [ -n "${LGPID:-}" ] && kill -0 "$LGPID" 2>/dev/null; then
    pkill -TERM -P "$LGPID" 2>/dev/null || true      # loggen, the child of /usr/bin/time
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

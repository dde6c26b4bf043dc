#!/usr/bin/env bash
# relp-bench.sh - a RELP receiver's throughput and CPU: rsyslog 8.2302's omrelp (window 128, one action)
# sends COUNT messages to the receiver, which writes each message's MSG as a line of a file.
#
#   relp-bench.sh RECEIVERS [RUNS]   RECEIVERS: comma-separated logrouter | rsyslog; RUNS (default 3) rounds,
#                                    alternating receiver by receiver, one result line per run, medians at the end
#
# Receivers:
#   logrouter  ROUTER_JAR (default router-server/target/logrouter.jar): `type: relp` source into a file sink
#              with `buffer: journal` (sync: SYNC, default interval; journal in the run directory) and template
#              "${MSG}\n"; pipeline LR_PIPELINE (a YAML flow map, default {ring-size: 65536}).
#   rsyslog    rsyslogd -n from RSYSLOG_ROOT (default /opt/peers/rsyslog-root, as .ci/run unpacks it): imrelp
#              into omfile with template "%msg%\n" (rsyslog's main queue in memory: imrelp acknowledges once
#              a message is queued, before it is written).
# One run:
#   1. writes COUNT lines "<13>Nov 26 10:00:00 h app: m N" with SIZE-byte padding (once, reused);
#   2. starts the receiver on a free port and the sender rsyslog (imtcp on another port -> omrelp,
#      queue.type LinkedList of 4M, action.resumeRetryCount -1), each in the run directory;
#   3. with WARMUP > 0, first pushes WARMUP other messages and waits for them (not measured: the JIT compiles
#      the path); then pushes the file into the sender's imtcp with socat (the sender queues what omrelp has
#      not sent yet);
#   4. waits until the receiver's file has COUNT lines (or STALL_SECS without growth);
#   5. rate = COUNT / (first measured line in the file -> last line), receiver CPU = utime+stime of the receiver
#      process (/proc/PID/stat) over the whole run, us_per_msg = CPU / COUNT; sender CPU likewise.
# Prints: receiver=R count=N delivered=N msgs_per_s=X recv_cpu_s=X us_per_msg=X sender_cpu_s=X
# Holds /tmp/cpu.lock around each run (other benchmarks take it too).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
ROUTER_JAR=${ROUTER_JAR:-$REPO/router-server/target/logrouter.jar}
RSYSLOG_ROOT=${RSYSLOG_ROOT:-/opt/peers/rsyslog-root}
COUNT=${COUNT:-1000000}
WARMUP=${WARMUP:-0}
SIZE=${SIZE:-200}
SYNC=${SYNC:-interval}
STALL_SECS=${STALL_SECS:-20}
LIBS="$RSYSLOG_ROOT/usr/lib/x86_64-linux-gnu"
RSYSLOGD="$RSYSLOG_ROOT/usr/sbin/rsyslogd"
WORK=$(mktemp -d /tmp/relp-bench.XXXXXX)
PIDS=()
cleanup() {
    for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill "$p" 2>/dev/null || true; done
    sleep 0.5
    for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill -9 "$p" 2>/dev/null || true; done
    [ "${KEEP:-0}" = 1 ] || rm -rf "$WORK"
}
trap cleanup EXIT

free_port() {
    local p
    for _ in $(seq 200); do
        p=$((20000 + RANDOM % 12768))
        ss -ltnH "( sport = :$p )" | grep -q . || { echo "$p"; return; }
    done
    return 1
}
wait_port() { for _ in $(seq 300); do ss -ltnH "( sport = :$1 )" | grep -q . && return 0; sleep 0.1; done; return 1; }
cpu_s() { awk '{printf "%.2f", ($14 + $15) / 100}' "/proc/$1/stat"; }

INPUT="$WORK/input.log"
pad=$(head -c "$SIZE" < /dev/zero | tr '\0' 'x')
awk -v n="$COUNT" -v pad="$pad" 'BEGIN { for (i = 0; i < n; i++) printf "<13>Nov 26 10:00:00 h app: m %d %s\n", i, pad }' > "$INPUT"
WARM="$WORK/warmup.log"
awk -v n="$WARMUP" -v pad="$pad" 'BEGIN { for (i = 0; i < n; i++) printf "<13>Nov 26 10:00:00 h app: w %d %s\n", i, pad }' > "$WARM"

run_one() { # receiver run-dir
    local recv=$1 dir=$2 relp tcp rpid spid out="$2/out.log"
    mkdir -p "$dir"
    relp=$(free_port); tcp=$(free_port)
    if [ "$recv" = logrouter ]; then
        local pipeline=${LR_PIPELINE:-"{ring-size: 65536}"}
        cat > "$dir/router.yaml" <<YAML
sources:
  - {name: relp, type: relp, bind: "127.0.0.1:$relp"}
pipeline: $pipeline
sinks:
  - {name: out, type: file, path: "$out", template: "\${MSG}\\n", buffer: journal,
     journal: {dir: "$dir/journal", sync: $SYNC, free-disk-reserve: 0}}
YAML
        java -jar "$ROUTER_JAR" run --config "$dir/router.yaml" > "$dir/router.log" 2>&1 &
    else
        mkdir -p "$dir/rx"
        cat > "$dir/rx.conf" <<CONF
global(workDirectory="$dir/rx" maxMessageSize="64k")
module(load="imrelp")
template(name="msgonly" type="string" string="%msg%\n")
input(type="imrelp" port="$relp" address="127.0.0.1")
action(type="omfile" file="$out" template="msgonly")
CONF
        LD_LIBRARY_PATH="$LIBS" "$RSYSLOGD" -n -f "$dir/rx.conf" -i "$dir/rx/pid" -M "$LIBS/rsyslog" \
            > "$dir/rx.out" 2>&1 &
    fi
    rpid=$!; PIDS+=("$rpid")
    wait_port "$relp"
    mkdir -p "$dir/tx"
    cat > "$dir/tx.conf" <<CONF
global(workDirectory="$dir/tx" maxMessageSize="64k")
module(load="imtcp")
module(load="omrelp")
input(type="imtcp" port="$tcp" address="127.0.0.1")
action(type="omrelp" target="127.0.0.1" port="$relp" template="RSYSLOG_SyslogRFC5424Format"
       windowSize="128" queue.type="LinkedList" queue.size="4000000" queue.dequeueBatchSize="128"
       action.resumeRetryCount="-1" action.resumeInterval="1")
CONF
    LD_LIBRARY_PATH="$LIBS" "$RSYSLOGD" -n -f "$dir/tx.conf" -i "$dir/tx/pid" -M "$LIBS/rsyslog" \
        > "$dir/tx.out" 2>&1 &
    spid=$!; PIDS+=("$spid")
    wait_port "$tcp"
    local rcpu0 scpu0 first="" last now lines prev=-1 still=0 total=$((WARMUP + COUNT))
    if [ "$WARMUP" -gt 0 ]; then # not measured: lets the JIT compile the path first
        socat -u "OPEN:$WARM" "TCP:127.0.0.1:$tcp"
        for _ in $(seq 1200); do
            [ "$( (wc -l < "$out") 2>/dev/null || echo 0)" -ge "$WARMUP" ] && break
            sleep 0.1
        done
    fi
    rcpu0=$(cpu_s "$rpid"); scpu0=$(cpu_s "$spid")
    socat -u "OPEN:$INPUT" "TCP:127.0.0.1:$tcp" &
    while true; do
        lines=$( (wc -l < "$out") 2>/dev/null || echo 0)
        now=$(date +%s.%N)
        [ -z "$first" ] && [ "$lines" -gt "$WARMUP" ] && first=$now
        if [ "$lines" != "$prev" ]; then last=$now; still=0; prev=$lines; else still=$((still + 1)); fi
        [ "$lines" -ge "$total" ] && break
        [ "$still" -ge $((STALL_SECS * 10)) ] && break
        sleep 0.1
    done
    local rcpu scpu
    rcpu=$(cpu_s "$rpid"); scpu=$(cpu_s "$spid")
    kill "$spid" "$rpid" 2>/dev/null || true
    wait "$spid" "$rpid" 2>/dev/null || true
    awk -v r="$recv" -v n="$COUNT" -v d="$((lines - WARMUP))" -v f="$first" -v l="$last" -v rc0="$rcpu0" -v rc="$rcpu" \
        -v sc0="$scpu0" -v sc="$scpu" 'BEGIN {
        t = l - f; if (t <= 0) t = 1e-9; c = rc - rc0
        printf "receiver=%s count=%d delivered=%d msgs_per_s=%.0f recv_cpu_s=%.2f us_per_msg=%.2f sender_cpu_s=%.2f\n",
            r, n, d, d / t, c, c * 1e6 / d, sc - sc0 }'
}

RECEIVERS=${1:-logrouter,rsyslog}
RUNS=${2:-3}
RESULTS="$WORK/results"
for r in $(seq "$RUNS"); do
    for recv in ${RECEIVERS//,/ }; do
        line=$(flock /tmp/cpu.lock bash -c "$(declare -f run_one free_port wait_port cpu_s); \
            LIBS='$LIBS' RSYSLOGD='$RSYSLOGD' INPUT='$INPUT' WARM='$WARM' WARMUP=$WARMUP COUNT=$COUNT SYNC=$SYNC STALL_SECS=$STALL_SECS \
            ROUTER_JAR='$ROUTER_JAR' LR_PIPELINE='${LR_PIPELINE:-}'; PIDS=(); run_one $recv '$WORK/run-$r-$recv'")
        echo "$line"
        echo "$line" >> "$RESULTS"
    done
done
echo "medians of $RUNS:"
for recv in ${RECEIVERS//,/ }; do
    rate=$(grep "receiver=$recv " "$RESULTS" | sed 's/.*msgs_per_s=\([0-9.]*\).*/\1/' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    us=$(grep "receiver=$recv " "$RESULTS" | sed 's/.*us_per_msg=\([0-9.]*\).*/\1/' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    echo "  $recv: msgs_per_s=$rate us_per_msg=$us"
done

#!/usr/bin/env bash
# e2e.sh - end-to-end throughput of logrouter (or syslog-ng: SERVER=syslog-ng): TCP syslog in, one file out.
#
# Builds nothing. Needs router-server/target/logrouter.jar and (for LOADGEN=loadgen)
# router-bench/target/router-bench.jar. One run:
#   1. writes a temp config (one tcp source on 127.0.0.1:<free port>, framing auto;
#      pipeline ring-size/parse-workers/wait-strategy; one file sink <tmp>/out.log with
#      template "${MSG}\n"; one route source -> sink),
#   2. starts `java -jar logrouter.jar run --config <tmp>` (cwd = the temp dir),
#      waits until the port listens,
#   3. optionally sends WARMUP messages and waits until they are written (JIT warm-up),
#   4. sends COUNT messages with LoadGen (or syslog-ng's loggen),
#   5. waits (DRAIN_SECS deadline) until out.log has as many lines as were sent,
#   6. samples the router's CPU (/proc/<pid>/stat utime+stime) and peak RSS (VmHWM),
#   7. SIGTERM, waits for exit code 0 (STOP_SECS deadline),
#   8. prints one line to stdout:
#      server=S sent=N delivered=N lost=N msgs_per_s=X mb_per_s=X router_cpu_s=X router_cores=X rss_mb=X
#      loadgen_cpu_s=X (the load generator's CPU for the measured run, "-" without /usr/bin/time)
# and exits 1 if delivered != sent, the router exits non-zero, or the load generator fails.
#
# Throughput is measured from the first send (load generator end minus its own elapsed
# time, so JVM start-up is not counted) to the last growth of out.log; mb_per_s is input
# bytes (SIZE per message, framing included; loggen: its reported average message size;
# 1 MB = 10^6 B) at that message rate.
#
# Settings (environment, or the equivalent flag, e.g. --conns 4 --size 200):
#   CONNS=10  SIZE=400  COUNT=1000000  FORMAT=rfc3164|rfc5424  RATE=0 (total msg/s, 0 = max)
#   TLS=0|1 (1: the source speaks TLS with a fresh self-signed EC P-256 certificate made by openssl,
#   TLS_PROTOCOL=TLSv1.3, TLS_PROVIDER=auto|jdk|openssl; loadgen --tls / loggen --use-ssl; handshakes happen
#   before the measured part)
#   LOADGEN=loadgen|loggen (LOGGEN_PATH=/usr/bin/loggen)   WARMUP=0 (messages first, not measured)
#   RING_SIZE=4096  PARSE_WORKERS=1  IO_THREADS=1  WAIT_STRATEGY=backoff  BATCH_SIZE=1000  FLUSH_TIMEOUT=250ms
#   ROUTER_JAVA_OPTS=""  ROUTER_JAR=router-server/target/logrouter.jar  BENCH_JAR=router-bench/target/router-bench.jar
#   STARTUP_SECS=60  DRAIN_SECS=120  STOP_SECS=60  KEEP=0 (1 = keep the temp dir)
#   LOCK=/tmp/cpu.lock: held for the whole run so no other benchmark overlaps (set LOCK=
#   when the caller already holds it, e.g. under `flock /tmp/cpu.lock router-bench/e2e.sh`).
#   SERVER=logrouter|syslog-ng (SYSLOG_NG_PATH=/usr/sbin/syslog-ng): syslog-ng 3.38 in place of the router, measured
#   the same way, for a ratio in the same session: network() source (syslog() for rfc5424; transport tcp, or tls with
#   the same certificate, TLS_PROTOCOL only, peer-verify(optional-untrusted)), max-connections(CONNS), the shared kit's tuned options (flush-lines(100), log-fifo-size(1000),
#   log-fetch-limit(100), log-iw-size(100)), flags(flow-control), file destination with template "$MSG\n".
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)

CONNS=${CONNS:-10}
SIZE=${SIZE:-400}
COUNT=${COUNT:-1000000}
FORMAT=${FORMAT:-rfc3164}
RATE=${RATE:-0}
LOADGEN=${LOADGEN:-loadgen}
TLS=${TLS:-0}
TLS_PROTOCOL=${TLS_PROTOCOL:-TLSv1.3}
TLS_PROVIDER=${TLS_PROVIDER:-auto}
WARMUP=${WARMUP:-0}
RING_SIZE=${RING_SIZE:-4096}
PARSE_WORKERS=${PARSE_WORKERS:-1}
IO_THREADS=${IO_THREADS:-1}
WAIT_STRATEGY=${WAIT_STRATEGY:-backoff}
BATCH_SIZE=${BATCH_SIZE:-1000}
FLUSH_TIMEOUT=${FLUSH_TIMEOUT:-250ms}
ROUTER_JAVA_OPTS=${ROUTER_JAVA_OPTS:-}
ROUTER_JAR=${ROUTER_JAR:-$ROOT/router-server/target/logrouter.jar}
BENCH_JAR=${BENCH_JAR:-$ROOT/router-bench/target/router-bench.jar}
LOGGEN_BIN=${LOGGEN_PATH:-/usr/bin/loggen}   # the loggen binary (LOADGEN=loggen)
STARTUP_SECS=${STARTUP_SECS:-60}
DRAIN_SECS=${DRAIN_SECS:-120}
STOP_SECS=${STOP_SECS:-60}
KEEP=${KEEP:-0}
LOCK=${LOCK-/tmp/cpu.lock}
SERVER=${SERVER:-logrouter}
SYSLOG_NG=${SYSLOG_NG_PATH:-/usr/sbin/syslog-ng}

usage() {
    sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//' >&2
    exit 2
}

# ---- flags (override the environment) -------------------------------------
while (($#)); do
    case $1 in
        --conns|--connections) CONNS=$2; shift 2 ;;
        --size) SIZE=$2; shift 2 ;;
        --count) COUNT=$2; shift 2 ;;
        --format) FORMAT=$2; shift 2 ;;
        --rate) RATE=$2; shift 2 ;;
        --loadgen) LOADGEN=$2; shift 2 ;;
        --warmup) WARMUP=$2; shift 2 ;;
        --keep) KEEP=1; shift ;;
        -h|--help) usage ;;
        *) echo "e2e: unknown argument $1" >&2; usage ;;
    esac
done
for v in CONNS SIZE COUNT RATE WARMUP RING_SIZE PARSE_WORKERS IO_THREADS BATCH_SIZE; do
    [[ ${!v} =~ ^[0-9]+$ ]] || { echo "e2e: $v must be a number, got '${!v}'" >&2; exit 2; }
done
((CONNS > 0 && COUNT > 0)) || { echo "e2e: CONNS and COUNT must be > 0" >&2; exit 2; }
case $FORMAT in rfc3164|rfc5424) ;; *) echo "e2e: FORMAT must be rfc3164 or rfc5424" >&2; exit 2 ;; esac
case $LOADGEN in loadgen|loggen) ;; *) echo "e2e: LOADGEN must be loadgen or loggen" >&2; exit 2 ;; esac
case $SERVER in
    logrouter) ;;
    syslog-ng) [ -x "$SYSLOG_NG" ] || { echo "e2e: syslog-ng not found at $SYSLOG_NG (bash /work/shared/bench/install.sh)" >&2; exit 2; } ;;
    *) echo "e2e: SERVER must be logrouter or syslog-ng" >&2; exit 2 ;;
esac

[ "$SERVER" = syslog-ng ] || [ -f "$ROUTER_JAR" ] || { echo "e2e: missing $ROUTER_JAR (build it: mvn -pl router-server -am package)" >&2; exit 2; }
if [ "$LOADGEN" = loadgen ]; then
    [ -f "$BENCH_JAR" ] || { echo "e2e: missing $BENCH_JAR (build it: mvn -pl router-bench -am package)" >&2; exit 2; }
else
    if [ ! -x "$LOGGEN_BIN" ]; then
        echo "e2e: loggen not found at $LOGGEN_BIN (bash /work/shared/bench/install.sh)" >&2; exit 2
    fi
    if ((COUNT % CONNS != 0 || WARMUP % CONNS != 0)); then
        # loggen's -n is per connection
        echo "e2e: with loggen, COUNT and WARMUP must be multiples of CONNS" >&2; exit 2
    fi
fi

# ---- one benchmark at a time on this machine --------------------------------
if [ -n "$LOCK" ]; then
    exec 9>>"$LOCK"
    flock -w 900 9 || { echo "e2e: could not get $LOCK within 900 s" >&2; exit 3; }
fi

TMP=$(mktemp -d /tmp/logrouter-e2e.XXXXXX)
OUT=$TMP/out.log
RPID=""

NAME=e2e
# shellcheck source=router-process.sh
. "$HERE/router-process.sh"
trap cleanup EXIT
trap 'exit 130' INT TERM

PORT=$(free_port)

# ---- config ------------------------------------------------------------------
TLS_YAML=""
if [ "$TLS" = 1 ]; then
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj /CN=localhost \
        -keyout "$TMP/server.key" -out "$TMP/server.pem" 2> "$TMP/openssl.err"
    TLS_YAML="    tls: {cert-file: \"$TMP/server.pem\", key-file: \"$TMP/server.key\", protocols: [$TLS_PROTOCOL], provider: $TLS_PROVIDER}"
fi
cat > "$TMP/router.yaml" <<EOF
# written by router-bench/e2e.sh
sources:
  - name: bench-in
    type: tcp
    bind: 127.0.0.1:$PORT
    framing: auto
$TLS_YAML
pipeline:
  ring-size: $RING_SIZE
  parse-workers: $PARSE_WORKERS
  io-threads: $IO_THREADS
  wait-strategy: $WAIT_STRATEGY
routes:
  - name: bench-route
    from: [bench-in]
    to: [bench-out]
sinks:
  - name: bench-out
    type: file
    path: "$OUT"
    template: "\${MSG}\n"
    batch-size: $BATCH_SIZE
    flush-timeout: $FLUSH_TIMEOUT
EOF

# ---- router (or syslog-ng) ------------------------------------------------------
if [ "$SERVER" = syslog-ng ]; then
    transport=tcp
    tls_opts=""
    if [ "$TLS" = 1 ]; then
        transport=tls
        # TLS_PROTOCOL as the only protocol syslog-ng offers (ssl-options() turns the others off)
        case $TLS_PROTOCOL in
            TLSv1.3) no_proto="no-sslv2, no-sslv3, no-tlsv1, no-tlsv11, no-tlsv12" ;;
            TLSv1.2) no_proto="no-sslv2, no-sslv3, no-tlsv1, no-tlsv11, no-tlsv13" ;;
            *) echo "e2e: SERVER=syslog-ng takes TLS_PROTOCOL TLSv1.3 or TLSv1.2" >&2; exit 2 ;;
        esac
        tls_opts="tls(key-file(\"$TMP/server.key\") cert-file(\"$TMP/server.pem\") peer-verify(optional-untrusted) ssl-options($no_proto))"
    fi
    # RFC 5424 comes octet-counted: syslog-ng reads that with syslog(), network() reads LF-framed RFC 3164
    driver=network
    [ "$FORMAT" = rfc5424 ] && driver=syslog
    cat > "$TMP/syslog-ng.conf" <<EOF
@version: 3.38
# written by router-bench/e2e.sh (SERVER=syslog-ng)
options { flush-lines(100); log-fifo-size(1000); stats-freq(0); };
source s_net { $driver(ip("127.0.0.1") port($PORT) transport("$transport") max-connections($CONNS)
                       log-fetch-limit(100) log-iw-size(100) $tls_opts); };
destination d_file { file("$OUT" template("\$MSG\n")); };
log { source(s_net); destination(d_file); flags(flow-control); };
EOF
    (cd "$TMP" && exec "$SYSLOG_NG" -F -e --no-caps -f "$TMP/syslog-ng.conf" -p "$TMP/syslog-ng.pid" \
        -R "$TMP/syslog-ng.persist" -c "$TMP/syslog-ng.ctl") > "$TMP/router.log" 2>&1 &
    RPID=$!
else
    # cwd = temp dir, so relative defaults (e.g. ./data/dead-letter) stay inside it
    # shellcheck disable=SC2086
    (cd "$TMP" && exec java $ROUTER_JAVA_OPTS -jar "$ROUTER_JAR" run --config "$TMP/router.yaml") \
        > "$TMP/router.log" 2>&1 &
    RPID=$!
fi
for _ in $(seq $((STARTUP_SECS * 10))); do
    tcp_listening "$PORT" && break
    kill -0 "$RPID" 2>/dev/null || break
    sleep 0.1
done
if ! tcp_listening "$PORT"; then
    echo "e2e: router is not listening on 127.0.0.1:$PORT; its log:" >&2
    tail -n 40 "$TMP/router.log" >&2
    exit 4
fi

CLK=$(getconf CLK_TCK)

# router_ticks: utime+stime of the router process (fields 14+15 of /proc/<pid>/stat)
router_ticks() {
    local stat rest
    local -a f
    stat=$(cat "/proc/$RPID/stat" 2>/dev/null) || { echo "${LAST_TICKS:-0}"; return 0; }
    rest=${stat##*) }            # drop "pid (comm) ", comm may contain spaces
    read -r -a f <<< "$rest"     # f[0] = field 3 (state)
    echo $((f[11] + f[12]))
}
now_us() { echo "${EPOCHREALTIME/./}"; }
out_size() { stat -c %s "$OUT" 2>/dev/null || echo 0; }
# out_mtime_us: last modification of out.log (= the router's last write), in microseconds
out_mtime_us() { local m; m=$(stat -c %.6Y "$OUT" 2>/dev/null) || m=$EPOCHREALTIME; echo "${m/./}"; }
out_lines() { if [ -f "$OUT" ]; then wc -l < "$OUT"; else echo 0; fi; }

# the load generator's own CPU (user+system seconds), when /usr/bin/time is there: on a 2-core machine the client's
# work (TLS encryption above all) limits what a receiver can show
TIMED=()
[ -x /usr/bin/time ] && TIMED=(/usr/bin/time -f "%U %S" -o "$TMP/loadgen.time")
loadgen_cpu() { [ -s "$TMP/loadgen.time" ] && awk 'END { printf "%.2f", $1 + $2 }' "$TMP/loadgen.time" || echo "-"; }

# send N: runs the load generator for N messages; sets SENT, FIRST_SEND_US, WIRE_SIZE, LOADGEN_CPU
send() {
    local n=$1 out rc end elapsed
    set +e
    if [ "$LOADGEN" = loadgen ]; then
        local tls_flag=""
        [ "$TLS" = 1 ] && tls_flag=--tls
        out=$("${TIMED[@]}" java -cp "$BENCH_JAR" dev.logrouter.bench.loadgen.LoadGen --host 127.0.0.1 --port "$PORT" $tls_flag \
            --tcp --connections "$CONNS" --size "$SIZE" --count "$n" --rate "$RATE" --format "$FORMAT" \
            --timeout "$DRAIN_SECS" 2>> "$TMP/loadgen.err")
        rc=$?
        end=$(now_us)
        SENT=$(sed -n 's/.*sent=\([0-9]*\).*/\1/p' <<< "$out")
        WIRE_SIZE=$SIZE
        elapsed=$(sed -n 's/.*elapsed_s=\([0-9.]*\).*/\1/p' <<< "$out")
    else
        local per_conn_rate=100000000 proto=""
        ((RATE > 0)) && per_conn_rate=$(((RATE + CONNS - 1) / CONNS))
        [ "$FORMAT" = rfc5424 ] && proto=-P
        # loggen: -n and -r are per connection; -I is only an upper bound here
        local stream=-S
        [ "$TLS" = 1 ] && stream=--use-ssl   # loggen: the ssl plugin replaces the socket plugin (-S)
        "${TIMED[@]}" timeout $((DRAIN_SECS + 60)) "$LOGGEN_BIN" $stream $proto -s "$SIZE" -n $((n / CONNS)) -r "$per_conn_rate" \
            -I $((DRAIN_SECS + 30)) --active-connections="$CONNS" 127.0.0.1 "$PORT" \
            > /dev/null 2> "$TMP/loggen.err"
        rc=$?
        end=$(now_us)
        cat "$TMP/loggen.err" >> "$TMP/loadgen.err"
        SENT=$(grep -o 'count=[0-9]*' "$TMP/loggen.err" | tail -1 | cut -d= -f2)
        elapsed=$(grep -o 'time=[0-9.]*' "$TMP/loggen.err" | tail -1 | cut -d= -f2)
        out=$(tail -1 "$TMP/loggen.err")
        # loggen's bytes per message on the wire (-P adds the octet count to -s)
        WIRE_SIZE=$(sed -n 's/.*msg size=\([0-9.]*\).*/\1/p' "$TMP/loggen.err" | tail -1)
        WIRE_SIZE=${WIRE_SIZE:-$SIZE}
    fi
    set -e
    LOADGEN_CPU=$(loadgen_cpu)
    echo "e2e: $LOADGEN: $out" >&2
    SENT=${SENT:-0}
    FIRST_SEND_US=$(awk -v e="$end" -v s="${elapsed:-0}" 'BEGIN { printf "%.0f", e - s * 1e6 }')
    if ((rc != 0)); then
        echo "e2e: $LOADGEN failed (exit $rc):" >&2
        tail -n 5 "$TMP/loadgen.err" >&2
        return 1
    fi
}

# await_lines TARGET: polls out.log's size (cheap: no reading) every 50 ms; once it has not
# grown for 0.5 s, counts lines (reads the file); returns once lines >= TARGET or after
# DRAIN_SECS. Sets LAST_GROWTH_US (out.log's mtime at the last growth seen), LAST_TICKS
# (router CPU ticks sampled at that growth), LINES.
await_lines() {
    local target=$1 size last=-1 t seen deadline settle_us=500000
    deadline=$(($(now_us) + DRAIN_SECS * 1000000))
    seen=$(now_us); LAST_GROWTH_US=$seen; LAST_TICKS=$(router_ticks); LINES=0
    while :; do
        size=$(out_size); t=$(now_us)
        if [ "$size" != "$last" ]; then
            last=$size; LAST_TICKS=$(router_ticks); LAST_GROWTH_US=$(out_mtime_us); seen=$t
        elif ((t - seen > settle_us)); then
            LINES=$(out_lines)
            ((LINES >= target)) && return 0
            settle_us=$((settle_us + 1000000))   # still short: look again later
        fi
        if ((t > deadline)); then
            LINES=$(out_lines)
            echo "e2e: drain deadline ($DRAIN_SECS s): $LINES of $target lines written" >&2
            return 0
        fi
        kill -0 "$RPID" 2>/dev/null || { LINES=$(out_lines); echo "e2e: router died" >&2; return 0; }
        sleep 0.05
    done
}

status=0
BASE=0
if ((WARMUP > 0)); then
    echo "e2e: warm-up: $WARMUP messages" >&2
    send "$WARMUP" || status=1
    await_lines "$SENT"
    BASE=$LINES
fi

# ---- measured run --------------------------------------------------------------
T0_TICKS=$(router_ticks)
if ! send "$COUNT"; then status=1; fi
await_lines $((BASE + SENT))
HWM_KB=$(awk '/^VmHWM:/ { print $2 }' "/proc/$RPID/status" 2>/dev/null || echo 0)

# ---- stop: SIGTERM, wait for a clean exit ---------------------------------------
kill -TERM "$RPID" 2>/dev/null || true
stop_deadline=$(($(now_us) + STOP_SECS * 1000000))
while kill -0 "$RPID" 2>/dev/null && (($(now_us) < stop_deadline)); do sleep 0.1; done
if kill -0 "$RPID" 2>/dev/null; then
    echo "e2e: router did not exit within $STOP_SECS s of SIGTERM; killing it" >&2
    kill -KILL "$RPID" 2>/dev/null || true
fi
router_rc=0
wait "$RPID" || router_rc=$?
RPID=""
if ((router_rc != 0)); then
    echo "e2e: router exited with $router_rc; last lines of its log:" >&2
    tail -n 20 "$TMP/router.log" >&2
    status=1
fi

# lines after the clean stop (a final flush may add the last ones)
DELIVERED=$(($(out_lines) - BASE))
LOST=$((SENT - DELIVERED))
if ((DELIVERED != SENT)); then
    echo "e2e: delivered $DELIVERED of $SENT messages" >&2
    status=1
fi
awk -v sent="$SENT" -v dl="$DELIVERED" -v lost="$LOST" -v t0="$FIRST_SEND_US" -v t1="$LAST_GROWTH_US" \
    -v c0="$T0_TICKS" -v c1="$LAST_TICKS" -v clk="$CLK" -v size="${WIRE_SIZE:-$SIZE}" -v hwm="${HWM_KB:-0}" -v server="$SERVER" -v lg="$LOADGEN_CPU" 'BEGIN {
    el = (t1 - t0) / 1e6; if (el <= 0) el = 1e-6
    rate = dl / el; cpu = (c1 - c0) / clk
    printf "server=%s sent=%.0f delivered=%.0f lost=%.0f msgs_per_s=%.0f mb_per_s=%.2f", server, sent, dl, lost, rate, rate * size / 1e6
    printf " router_cpu_s=%.2f router_cores=%.2f rss_mb=%.0f loadgen_cpu_s=%s\n", cpu, cpu / el, hwm / 1024, lg }'
exit "$status"

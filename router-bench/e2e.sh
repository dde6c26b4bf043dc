#!/usr/bin/env bash
# e2e.sh - end-to-end throughput of logrouter (or syslog-ng: SERVER=syslog-ng): TCP syslog in, one file out.
#
# Builds nothing. Needs router-server/target/logrouter.jar and (for LOADGEN=loadgen)
# router-bench/target/router-bench.jar. One run:
#   1. writes a temp config (one tcp source on 127.0.0.1:<free port>, framing auto;
#      pipeline ring-size/parse-workers/wait-strategy/idle-park; one file sink <tmp>/out.log with
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
#      loadgen_cpu_s=X (the load generator's CPU for the measured run, "-" without /usr/bin/time) jit_cpu_s=X
#      (the part of router_cpu_s spent by the JVM's C1/C2 compiler threads: JIT compilation still going on
#      in the measured part means the warm-up was too short for a steady-state figure) threads_cpu_s=io:X,parse:X,
#      sink:X,jit:X,other:X (the router's CPU by thread: event loops, parse workers, sinks, JIT, the rest; from
#      the end of the warm-up, WARMUP=0: from the start, to the end of the drain; "-" for syslog-ng) gc=N gc_ms=N
#      alloc_mb_per_s=X alloc_b_per_msg=X alloc_split=io:X,parse:X,sink:X,other:X (the router's garbage
#      collections, their time, and its heap allocation per second and per message, also per thread group, over the
#      same part: sampled with router-bench's JvmSample, so they need BENCH_JAR, also with LOADGEN=loggen; "-" for
#      syslog-ng)
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
#   WORKLOAD=w2|w2-kit|w4-json|w4-kv|w4-xml|w4-db: w2 is the config above; w2-kit is the shared kit's W2 as
#   peer-run.sh configures it (syslog-ng's file template "${DATE} ${HOST} ${MSGHDR}${MSG}\n"); a W4 workload takes the router config
#   peer-run.sh writes for it (the parser, the shared kit's template of parsed values, its pipeline settings from
#   this script's) and sends INPUT (default /tmp/peers-inputs/{json,kv,xml,pdb}.log, made by the shared kit's
#   gen_inputs.sh) with loggen -R INPUT -l -d; w4-db needs PDB (the kit's configs/patterndb.xml). W4 needs
#   LOADGEN=loggen and SERVER=logrouter (syslog-ng's W4 figures come from the shared kit).
#   RING_SIZE=4096  PARSE_WORKERS=1  IO_THREADS=1  WAIT_STRATEGY=backoff  IDLE_PARK= (empty: the default)
#   BATCH_SIZE=1000  FLUSH_TIMEOUT=250ms
#   ROUTER_JAVA_OPTS=""  ROUTER_JAR=router-server/target/logrouter.jar  BENCH_JAR=router-bench/target/router-bench.jar
#   STARTUP_SECS=60  DRAIN_SECS=120  STOP_SECS=60  KEEP=0 (1 = keep the temp dir)
#   PERF=0|1 (1: `perf record -g` of the router over the measured part only, into <tmp>/perf.data, with the JIT's
#   symbols (-XX:+DumpPerfMapAtExit: /tmp/perf-<pid>.map) and Netty's native libraries kept in <tmp> so that
#   perf names their functions; needs WARMUP > 0 and perf; implies KEEP=1; PERF_FREQ=999 samples/s)
#   JFR=0|1 (1: a JFR recording (settings=profile: allocation samples, CPU samples) of the router over the measured
#   part only, started and stopped with jcmd, into <tmp>/measured.jfr, then summarised with router-bench's
#   JfrAllocations: bytes allocated per message by thread group and the top allocation sites; needs WARMUP > 0 and a
#   JDK; implies KEEP=1; costs the router CPU, so its CPU figures are not comparable with a run without it;
#   JFR_SETTINGS=profile: jcmd's settings=, e.g. a .jfc enabling jdk.ObjectAllocationInNewTLAB and
#   jdk.ObjectAllocationOutsideTLAB with stack traces, for every allocated byte rather than samples)
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
IDLE_PARK=${IDLE_PARK:-}
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
WORKLOAD=${WORKLOAD:-w2}
INPUT=${INPUT:-}
PDB=${PDB:-}
PERF=${PERF:-0}
PERF_FREQ=${PERF_FREQ:-999}
JFR=${JFR:-0}
JFR_SETTINGS=${JFR_SETTINGS:-profile}
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
case $WORKLOAD in
    w2|w2-kit) ;;
    w4-json|w4-kv|w4-xml|w4-db)
        [ "$LOADGEN" = loggen ] && [ "$SERVER" = logrouter ] \
            || { echo "e2e: WORKLOAD=$WORKLOAD needs LOADGEN=loggen and SERVER=logrouter" >&2; exit 2; }
        if [ -z "$INPUT" ]; then
            case $WORKLOAD in w4-json) INPUT=json ;; w4-kv) INPUT=kv ;; w4-xml) INPUT=xml ;; w4-db) INPUT=pdb ;; esac
            INPUT=/tmp/peers-inputs/$INPUT.log
        fi
        [ -f "$INPUT" ] || { echo "e2e: missing $INPUT (bash /work/shared/bench/gen_inputs.sh)" >&2; exit 2; }
        [ "$WORKLOAD" != w4-db ] || [ -f "$PDB" ] || { echo "e2e: WORKLOAD=w4-db needs PDB (a ruleset)" >&2; exit 2; } ;;
    *) echo "e2e: WORKLOAD must be w2, w2-kit, w4-json, w4-kv, w4-xml or w4-db" >&2; exit 2 ;;
esac
if [ "$PERF" = 1 ]; then
    command -v perf > /dev/null || { echo "e2e: PERF=1 needs perf" >&2; exit 2; }
    ((WARMUP > 0)) || { echo "e2e: PERF=1 needs WARMUP > 0 (perf starts after the warm-up)" >&2; exit 2; }
    KEEP=1
fi
if [ "$JFR" = 1 ]; then
    command -v jcmd > /dev/null || { echo "e2e: JFR=1 needs jcmd (a JDK)" >&2; exit 2; }
    ((WARMUP > 0)) || { echo "e2e: JFR=1 needs WARMUP > 0 (the recording starts after the warm-up)" >&2; exit 2; }
    KEEP=1
fi
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

# shellcheck source=lib/bench-lib.sh
. "$HERE/lib/bench-lib.sh"
NAME=e2e
# shellcheck source=router-process.sh
. "$HERE/router-process.sh"     # free_port

TMP=$(mktemp -d /tmp/logrouter-e2e.XXXXXX)
OUT=$TMP/out.log
peer_exit() { if [ "$KEEP" = 1 ]; then echo "e2e: kept $TMP" >&2; else rm -rf "$TMP"; fi; }
trap peer_exit EXIT
trap 'exit 130' INT TERM

# ---- the harness's settings (lib/bench-lib.sh) ------------------------------------
RUN=$TMP DAEMON_LOG=router.log SAY="e2e: " JAVA=java
PEER_PORT=$(free_port)
LG_SIZE=$SIZE LG_FORMAT=$FORMAT LG_RATE=$RATE LG_TLS=$TLS LG_UNIT=count LOAD=$COUNT WARM=$WARMUP
LG_GRACE_SECS=$DRAIN_SECS                      # loadgen --timeout; loggen -I DRAIN_SECS+30, stopped at +60
POLL_SECS=0.05 SETTLE_SECS=0.5 STALL_SECS=$DRAIN_SECS MAX_DRAIN_SECS=$DRAIN_SECS

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
    bind: 127.0.0.1:$PEER_PORT
    framing: auto
$TLS_YAML
pipeline:
  ring-size: $RING_SIZE
  parse-workers: $PARSE_WORKERS
  io-threads: $IO_THREADS
  wait-strategy: $WAIT_STRATEGY
${IDLE_PARK:+  idle-park: $IDLE_PARK
}routes:
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

if [ "$WORKLOAD" != w2 ]; then
    # peer-run.sh's config for the workload (its file sink writes $TMP/w4/out.log), this script's pipeline settings
    PEER_WRITE_ONLY=1 PEER_RING_SIZE=$RING_SIZE PEER_PARSE_WORKERS=$PARSE_WORKERS PEER_IO_THREADS=$IO_THREADS \
        PEER_WAIT_STRATEGY=$WAIT_STRATEGY PEER_IDLE_PARK=$IDLE_PARK PEER_BATCH_SIZE=$BATCH_SIZE \
        PEER_FLUSH_TIMEOUT=$FLUSH_TIMEOUT ROUTER_JAR=$ROUTER_JAR \
        "$HERE/peer-run.sh" "$PEER_PORT" "$TMP/w4" "${WORKLOAD%-kit}" "$PDB" > /dev/null
    mv "$TMP/logrouter.yaml" "$TMP/router.yaml"
    OUT=$TMP/w4/out.log
    [ "$WORKLOAD" = w2-kit ] || LG_LOGGEN_ARGS="-R $INPUT -l -d"
fi

# ---- the adapter: the router (or syslog-ng), the count ------------------------------
peer_start() {
    if [ "$SERVER" = syslog-ng ]; then
        local transport=tcp tls_opts="" no_proto driver=network
        if [ "$TLS" = 1 ]; then
            transport=tls
            # TLS_PROTOCOL as the only protocol syslog-ng offers (ssl-options() turns the others off)
            case $TLS_PROTOCOL in
                TLSv1.3) no_proto="no-sslv2, no-sslv3, no-tlsv1, no-tlsv11, no-tlsv12" ;;
                TLSv1.2) no_proto="no-sslv2, no-sslv3, no-tlsv1, no-tlsv11, no-tlsv13" ;;
                *) echo "e2e: SERVER=syslog-ng takes TLS_PROTOCOL TLSv1.3 or TLSv1.2" >&2; return 2 ;;
            esac
            tls_opts="tls(key-file(\"$TMP/server.key\") cert-file(\"$TMP/server.pem\") peer-verify(optional-untrusted) ssl-options($no_proto))"
        fi
        # RFC 5424 comes octet-counted: syslog-ng reads that with syslog(), network() reads LF-framed RFC 3164
        [ "$FORMAT" = rfc5424 ] && driver=syslog
        cat > "$TMP/syslog-ng.conf" <<EOF
@version: 3.38
# written by router-bench/e2e.sh (SERVER=syslog-ng)
options { flush-lines(100); log-fifo-size(1000); stats-freq(0); };
source s_net { $driver(ip("127.0.0.1") port($PEER_PORT) transport("$transport") max-connections($CONNS)
                       log-fetch-limit(100) log-iw-size(100) $tls_opts); };
destination d_file { file("$OUT" template("\$MSG\n")); };
log { source(s_net); destination(d_file); flags(flow-control); };
EOF
        (cd "$TMP" && exec "$SYSLOG_NG" -F -e --no-caps -f "$TMP/syslog-ng.conf" -p "$TMP/syslog-ng.pid" \
            -R "$TMP/syslog-ng.persist" -c "$TMP/syslog-ng.ctl") > "$TMP/router.log" 2>&1 &
        DPID=$!
    else
        # cwd = temp dir, so relative defaults (e.g. ./data/dead-letter) stay inside it
        local opts=$ROUTER_JAVA_OPTS
        if [ "$PERF" = 1 ]; then
            opts="$opts -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit -XX:+PreserveFramePointer"
            opts="$opts -Dio.netty.native.workdir=$TMP -Dio.netty.native.deleteLibAfterLoading=false"
        fi
        LR_JAVA_OPTS=$opts bench_start_router "$TMP/router.yaml"
    fi
}
# thread_ticks: the router's CPU ticks so far by thread group, "io parse sink jit other" (io-*, parse-* and serial-*,
# sink-* and deliver-*, the C1/C2 compiler threads, the rest: the groups of JvmSample); a thread that exited is not
# counted
thread_ticks() {
    local t comm s io=0 parse=0 sink=0 jit=0 other=0 n
    for t in /proc/"$DPID"/task/*; do
        comm=$(cat "$t/comm" 2>/dev/null) || continue
        s=$(cat "$t/stat" 2>/dev/null) || continue
        s=${s##*) }
        local -a F; read -r -a F <<< "$s"
        n=$((F[11] + F[12]))
        case $comm in
            io-*) io=$((io + n)) ;;
            parse-*|serial-*) parse=$((parse + n)) ;;
            sink-*|deliver-*) sink=$((sink + n)) ;;
            "C1 Compiler"*|"C2 Compiler"*) jit=$((jit + n)) ;;
            *) other=$((other + n)) ;;
        esac
    done
    echo "$io $parse $sink $jit $other"
}
T0="0 0 0 0 0" T1="0 0 0 0 0" PERF_PID=""
peer_warmed() {
    if [ "$JFR" = 1 ] && [ "$SERVER" = logrouter ]; then
        jcmd "$DPID" JFR.start name=measured settings="$JFR_SETTINGS" > "$TMP/jfr.log" 2>&1
    fi
    [ "$SERVER" != logrouter ] || T0=$(thread_ticks)
    if [ "$PERF" = 1 ]; then
        perf record -g -F "$PERF_FREQ" -p "$DPID" -o "$TMP/perf.data" > "$TMP/perf.log" 2>&1 &
        PERF_PID=$!
    fi
}
peer_drained() {
    [ "$SERVER" != logrouter ] || T1=$(thread_ticks)
    if [ "$JFR" = 1 ] && [ "$SERVER" = logrouter ]; then
        jcmd "$DPID" JFR.stop name=measured filename="$TMP/measured.jfr" >> "$TMP/jfr.log" 2>&1
    fi
    if [ -n "$PERF_PID" ]; then
        kill -INT "$PERF_PID" 2>/dev/null || true
        wait "$PERF_PID" || true
        echo "e2e: perf profile of the measured part: perf report -i $TMP/perf.data (JIT symbols once the router" \
            "exited: /tmp/perf-$DPID.map)" >&2
    fi
}
# the drain polls out.log's size (cheap: no reading) and mtime (= the router's last write); its lines are
# counted only once the size has been still
peer_probe() {
    local s m
    if read -r s m < <(stat -c '%s %.6Y' "$OUT" 2>/dev/null); then P_LEVEL=$s; P_MTIME_US=${m/./}; else P_LEVEL=0; fi
}
peer_count() { if [ -f "$OUT" ]; then wc -l < "$OUT"; else echo 0; fi; }
peer_record() {
    local status=0
    ((LG_RC == 0)) || status=1
    ((ROUTER_RC == 0)) || status=1
    if ((DELIVERED != SENT)); then echo "e2e: delivered $DELIVERED of $SENT messages" >&2; status=1; fi
    local jit=- threads=-
    if [ "$SERVER" = logrouter ]; then
        read -r jit threads < <(awk -v a="$T0" -v b="$T1" -v c="$CLK" 'BEGIN {
            split(a, x, " "); split(b, y, " ")
            for (i = 1; i <= 5; i++) d[i] = (y[i] - x[i]) / c
            printf "%.2f io:%.2f,parse:%.2f,sink:%.2f,jit:%.2f,other:%.2f\n", d[4], d[1], d[2], d[3], d[4], d[5] }')
    fi
    if [ "$JFR" = 1 ] && [ -f "$TMP/measured.jfr" ]; then
        echo "e2e: JFR recording of the measured part: $TMP/measured.jfr; allocations:" >&2
        "$JAVA" -cp "$BENCH_JAR" dev.logrouter.bench.jvm.JfrAllocations "$TMP/measured.jfr" "$DELIVERED" >&2 || true
    fi
    printf 'server=%s sent=%s delivered=%s lost=%s msgs_per_s=%s mb_per_s=%s router_cpu_s=%s router_cores=%s rss_mb=%s loadgen_cpu_s=%s jit_cpu_s=%s threads_cpu_s=%s gc=%s gc_ms=%s alloc_mb_per_s=%s alloc_b_per_msg=%s alloc_split=%s\n' \
        "$SERVER" "$SENT" "$DELIVERED" "$R_LOST" "$R_RATE" "$R_MBS" "$R_DCPU" "$R_CORES" "$R_RSS_MB" "$LG_CPU" "$jit" "$threads" \
        "$R_GC" "$R_GC_MS" "$R_ALLOC_MBS" "$R_ALLOC_BPM" "$R_ALLOC_SPLIT"
    return $status
}

# ---- one run -------------------------------------------------------------------------
((WARMUP == 0)) || echo "e2e: warm-up: $WARMUP messages" >&2
status=0
bench_one_run "$SERVER" r1 || status=$?
((status != 5)) || status=4                    # not listening
exit "$status"

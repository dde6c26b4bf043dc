#!/usr/bin/env bash
# relay.sh - throughput and CPU of a syslog relay: TCP syslog in, forwarded over one TCP connection to a
# socat receiver. The relay is logrouter's `type: syslog` sink (SERVER=logrouter) or syslog-ng 3.38
# (SERVER=syslog-ng).
#
#   relay.sh                      one run of SERVER / FORMAT; prints one result line (below)
#   relay.sh PEERS [RUNS]         RUNS (default 3) rounds of PEERS, alternating run by run, each run under
#                                 the lock, one CSV row per run, medians and ratios at the end.
#                                 PEERS: comma-separated SERVER[:FORMAT] (FORMAT default: $FORMAT), e.g.
#                                 logrouter:rfc3164,syslog-ng:rfc3164,logrouter:rfc5424,syslog-ng:rfc5424
#                                 SERVER may name a buffer: logrouter-jnone, -jbatch, -jinterval (the sink with
#                                 `buffer: journal`, sync none/batch/interval), syslog-ng-reliable, -normal (its
#                                 destination with disk-buffer(reliable(yes|no))); plain logrouter / syslog-ng take
#                                 JOURNAL / SNG_DISKBUF, and the CSV and medians use the full name
#
# An adapter of lib/bench-lib.sh, as e2e.sh is. One run:
#   1. starts the receiver: socat -u TCP-LISTEN:<free port>,bind=127.0.0.1,reuseaddr,fork
#      OPEN:<run>/out,creat,append (a fresh file per run; socat logs each accepted connection);
#   2. writes the relay's config and starts it in the run directory (bench_start_router, or syslog-ng -F);
#      it listens on 127.0.0.1:<another free port>, framing auto, and forwards to the receiver:
#        logrouter: a `type: syslog` sink, hosts ["127.0.0.1:<receiver port>"], transport tcp, format
#          FORMAT, framing SINK_FRAMING; pipeline ring-size/parse-workers/io-threads/wait-strategy as e2e.sh;
#          with a journal (logrouter-jSYNC, JOURNAL=SYNC) also `buffer: journal` and `journal: {dir: <run>/journal,
#          free-disk-reserve: 0, sync: SYNC}` (the journal's other options at their defaults)
#        syslog-ng: network() source (syslog() for rfc5424), network() destination (syslog() for rfc5424,
#          i.e. octet-counted RFC 5424), transport tcp, flags(flow-control), options as e2e.sh's
#          SERVER=syslog-ng (SNG_TUNING=e2e) or as the shared kit's sng-w2.conf (SNG_TUNING=w2); with a disk
#          buffer (syslog-ng-reliable|-normal, SNG_DISKBUF=reliable|normal) the destination gets
#          disk-buffer(reliable(yes) dir(<run>) disk-buf-size(SNG_DISK_BUF_SIZE) mem-buf-size(SNG_MEM_BUF_SIZE))
#          or disk-buffer(reliable(no) dir(<run>) disk-buf-size(SNG_DISK_BUF_SIZE) mem-buf-length(SNG_MEM_BUF_LENGTH));
#   3. optionally WARMUP messages (drained, not measured), then COUNT messages from loggen (or loadgen),
#      CONNS connections x SIZE bytes: LF-framed RFC 3164 (FORMAT rfc3164, raw) or octet-counted RFC 5424
#      (FORMAT rfc5424, loggen -P); RECEIVER_DELAY=after-load: the receiver starts only once the load ended;
#   4. the drain: polls the receiver file's size and mtime until it has been still for SETTLE_SECS with
#      every message in (or STALL_SECS without growth, or MAX_DRAIN_SECS in all);
#   5. SIGTERM to the relay, then waits until the receiver's connections are closed, and counts the
#      messages in the receiver file by the output's framing: lines (lf) or RFC 6587 frames
#      (octet-counted: "LEN SP MSG" back to back; a malformed frame ends the count and is reported);
#   6. VERIFY=1: dups = the messages in the file (warm-up included) minus the distinct ones among them
#      (loggen's "seq: N, thread: N, runid: N", loadgen's "loadgen[PID]: seq=N conn=N"; "-" with VERIFY=0),
#      so a duplicate cannot hide a loss;
#   7. prints one line:
#      server=S format=F sent=N delivered=N lost=N msgs_per_s=X relay_cpu_s=X us_per_msg=X relay_cores=X
#      rss_mb=X dups=N receiver_conns=N log_warnings=N loadgen_cpu_s=X
#   and exits 1 if delivered != sent, dups != 0, the relay exited non-zero or the load generator
#   failed. RECEIVER_DELAY=after-load adds to it: load_msgs_per_s=X (sent / the load generator's time, the
#   relay buffering everything) reconnect_s=X (receiver start -> first bytes in its file) drain_msgs_per_s=X
#   drain_us_per_msg=X (first bytes -> last growth; the messages in that span from the file's size, the relay's
#   CPU over it); the CSV row keeps the whole span (first send -> last growth).
# Rate = delivered / (first send -> last growth of the receiver file); relay CPU = the relay process'
# utime+stime (/proc/PID/stat) over the same span, us_per_msg = that / delivered; receiver_conns = the
# connections socat accepted (1 = the relay used one connection and never reconnected); log_warnings =
# WARN/ERROR lines in the relay's log (logrouter) or its stderr lines other than connection and start/stop
# notices (syslog-ng), the first ones on stderr.
#
# FORMAT=rfc3164|rfc5424|raw   raw: logrouter only (the original bytes forwarded, framing lf); compare it with
#   syslog-ng:rfc3164. The load is RFC 3164 for rfc3164 and raw, RFC 5424 octet-counted for rfc5424.
# Settings (environment, or the flag):
#   SERVER=logrouter|syslog-ng (--server)  FORMAT=rfc3164 (--format)  CONNS=10 (--conns)  SIZE=400 (--size)
#   COUNT=2000000 (--count)  WARMUP=0 (--warmup, messages)  RATE=0 (total msg/s, 0 = max)
#   LOADGEN=loggen|loadgen (default loggen when LOGGEN_PATH=/usr/bin/loggen is there, else loadgen)
#   SINK_FRAMING (logrouter: lf for rfc3164/raw, octet-counted for rfc5424; the count follows it)
#   SINK_EXTRA (more YAML lines for logrouter's sink, e.g. $'batch-size: 500')
#   JOURNAL=none|batch|interval (logrouter's sink with `buffer: journal` and that sync; empty or memory = no journal)
#   SNG_DISKBUF=reliable|normal (syslog-ng's destination with disk-buffer(); empty = none)
#   SNG_DISK_BUF_SIZE=10737418240 (10 GiB, as the journal's max-size) SNG_MEM_BUF_SIZE=163840000 (reliable; syslog-ng's
#   default) SNG_MEM_BUF_LENGTH=10000 (normal; syslog-ng's default)
#   RECEIVER_DELAY=after-load (start the receiver once the load ended: the backlog drain; needs a journal or a disk
#   buffer big enough for COUNT messages, and WARMUP=0; STALL_SECS defaults to 60 then: the relay's reconnect
#   backoff grows while the receiver is down)
#   RING_SIZE=4096 PARSE_WORKERS=1 IO_THREADS=1 WAIT_STRATEGY=backoff ROUTER_JAVA_OPTS=""
#   ROUTER_JAR=<repo>/router-server/target/logrouter.jar  BENCH_JAR=<repo>/router-bench/target/router-bench.jar
#   SNG_TUNING=e2e|w2  SYSLOG_NG_PATH=/usr/sbin/syslog-ng  SOCAT=socat  RECEIVER_BUF=65536 (socat -b)
#   VERIFY=1  STARTUP_SECS=60 SETTLE_SECS=0.5 STALL_SECS=30 MAX_DRAIN_SECS=120 STOP_SECS=60
#   KEEP=0 (1 = keep the run directory with the receiver file)
#   LOCK=/tmp/cpu.lock: one run holds it (set LOCK= when the caller holds it already, e.g. under
#   `flock /tmp/cpu.lock router-bench/relay.sh`); with PEERS every run takes it (bench_main)
#   PEERS mode: WORK=/tmp/relay-bench (runs/ keeps each run's configs and logs; the receiver file is deleted
#   unless KEEP=1), RESULTS_DIR=$WORK/results (relay.csv); each run first waits while a Maven build runs
#   (MAVEN_WAIT_SECS=1800)
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)

SERVER=${SERVER:-logrouter}
FORMAT=${FORMAT:-rfc3164}
CONNS=${CONNS:-10}
SIZE=${SIZE:-400}
COUNT=${COUNT:-2000000}
WARMUP=${WARMUP:-0}
RATE=${RATE:-0}
LOGGEN_BIN=${LOGGEN_PATH:-/usr/bin/loggen}
if [ -z "${LOADGEN:-}" ]; then if [ -x "$LOGGEN_BIN" ]; then LOADGEN=loggen; else LOADGEN=loadgen; fi; fi
SINK_FRAMING=${SINK_FRAMING:-}
SINK_EXTRA=${SINK_EXTRA:-}
JOURNAL=${JOURNAL:-}
if [ "$JOURNAL" = memory ]; then JOURNAL=""; fi
SNG_DISKBUF=${SNG_DISKBUF:-}
SNG_DISK_BUF_SIZE=${SNG_DISK_BUF_SIZE:-10737418240}
SNG_MEM_BUF_SIZE=${SNG_MEM_BUF_SIZE:-163840000}
SNG_MEM_BUF_LENGTH=${SNG_MEM_BUF_LENGTH:-10000}
RECEIVER_DELAY=${RECEIVER_DELAY:-}
RING_SIZE=${RING_SIZE:-4096}
PARSE_WORKERS=${PARSE_WORKERS:-1}
IO_THREADS=${IO_THREADS:-1}
WAIT_STRATEGY=${WAIT_STRATEGY:-backoff}
ROUTER_JAVA_OPTS=${ROUTER_JAVA_OPTS:-}
ROUTER_JAR=${ROUTER_JAR:-$ROOT/router-server/target/logrouter.jar}
BENCH_JAR=${BENCH_JAR:-$ROOT/router-bench/target/router-bench.jar}
SNG_TUNING=${SNG_TUNING:-e2e}
SYSLOG_NG_PATH=${SYSLOG_NG_PATH:-/usr/sbin/syslog-ng}
SOCAT=${SOCAT:-socat}
RECEIVER_BUF=${RECEIVER_BUF:-65536}
VERIFY=${VERIFY:-1}
STARTUP_SECS=${STARTUP_SECS:-60}
SETTLE_SECS=${SETTLE_SECS:-0.5}
STALL_SECS=${STALL_SECS:-$([ "$RECEIVER_DELAY" = after-load ] && echo 60 || echo 30)}
MAX_DRAIN_SECS=${MAX_DRAIN_SECS:-120}
STOP_SECS=${STOP_SECS:-60}
KEEP=${KEEP:-0}
LOCK=${LOCK-/tmp/cpu.lock}
WORK=${WORK:-/tmp/relay-bench}
RESULTS_DIR=${RESULTS_DIR:-$WORK/results}

usage() {
    sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//' >&2
    exit 2
}

# ---- flags (override the environment); PEERS [RUNS] ---------------------------------
POS=()
if [ "${1:-}" != __run ]; then
    while (($#)); do
        case $1 in
            --server) SERVER=$2; shift 2 ;;
            --format) FORMAT=$2; shift 2 ;;
            --conns|--connections) CONNS=$2; shift 2 ;;
            --size) SIZE=$2; shift 2 ;;
            --count) COUNT=$2; shift 2 ;;
            --warmup) WARMUP=$2; shift 2 ;;
            --loadgen) LOADGEN=$2; shift 2 ;;
            --keep) KEEP=1; shift ;;
            -h|--help) usage ;;
            -*) echo "relay: unknown argument $1" >&2; usage ;;
            *) POS+=("$1"); shift ;;
        esac
    done
    ((${#POS[@]} <= 2)) || usage
fi
for v in CONNS SIZE COUNT RATE WARMUP RING_SIZE PARSE_WORKERS IO_THREADS RECEIVER_BUF SNG_DISK_BUF_SIZE SNG_MEM_BUF_SIZE \
         SNG_MEM_BUF_LENGTH; do
    [[ ${!v} =~ ^[0-9]+$ ]] || { echo "relay: $v must be a number, got '${!v}'" >&2; exit 2; }
done
((CONNS > 0 && COUNT > 0)) || { echo "relay: CONNS and COUNT must be > 0" >&2; exit 2; }
case $SNG_TUNING in e2e|w2) ;; *) echo "relay: SNG_TUNING must be e2e or w2" >&2; exit 2 ;; esac
case $RECEIVER_DELAY in '') ;; after-load) ((WARMUP == 0)) \
    || { echo "relay: RECEIVER_DELAY=after-load needs WARMUP=0 (the warm-up's drain needs the receiver)" >&2; exit 2; } ;;
    *) echo "relay: RECEIVER_DELAY must be empty or after-load" >&2; exit 2 ;; esac
command -v "$SOCAT" > /dev/null || { echo "relay: no $SOCAT (bash /work/shared/bench/install.sh)" >&2; exit 2; }
if [ "$LOADGEN" = loggen ] && ((COUNT % CONNS != 0 || WARMUP % CONNS != 0)); then
    echo "relay: with loggen, COUNT and WARMUP must be multiples of CONNS (its -n is per connection)" >&2; exit 2
fi
export SERVER FORMAT CONNS SIZE COUNT WARMUP RATE LOADGEN LOGGEN_PATH=$LOGGEN_BIN SINK_FRAMING SINK_EXTRA JOURNAL \
    SNG_DISKBUF SNG_DISK_BUF_SIZE SNG_MEM_BUF_SIZE SNG_MEM_BUF_LENGTH RECEIVER_DELAY RING_SIZE \
    PARSE_WORKERS IO_THREADS WAIT_STRATEGY ROUTER_JAVA_OPTS ROUTER_JAR BENCH_JAR SNG_TUNING SYSLOG_NG_PATH SOCAT \
    RECEIVER_BUF VERIFY STARTUP_SECS SETTLE_SECS STALL_SECS MAX_DRAIN_SECS STOP_SECS KEEP LOCK WORK RESULTS_DIR

# shellcheck source=lib/bench-lib.sh
. "$HERE/lib/bench-lib.sh"
NAME=relay
# shellcheck source=router-process.sh
. "$HERE/router-process.sh"     # free_port

# ---- the harness's settings (lib/bench-lib.sh) ---------------------------------------------
DAEMON_LOG=relay.log SAY="relay: " JAVA=${JAVA:-java}
LG_SIZE=$SIZE LG_RATE=$RATE LG_TLS=0 LG_UNIT=count LOAD=$COUNT WARM=$WARMUP
LG_GRACE_SECS=$MAX_DRAIN_SECS POLL_SECS=0.05
CSV=$RESULTS_DIR/relay.csv

# peer_split PEER: of "SERVER[:FORMAT]", the relay (P_SERVER: logrouter or syslog-ng), its buffer (P_JOURNAL:
# logrouter's journal sync, P_DISKBUF: syslog-ng's disk buffer; empty = memory), the peer's full name (P_NAME, e.g.
# logrouter-jnone) and FORMAT; the load's format (LG_FORMAT) and the framing of the relay's output (OUT_FRAMING);
# exit 2 for a combination that cannot run
peer_split() {
    P_NAME=${1%%:*}
    P_FORMAT=$FORMAT
    if [[ $1 == *:* ]]; then P_FORMAT=${1#*:}; fi
    P_JOURNAL="" P_DISKBUF=""
    case $P_NAME in
        logrouter) P_SERVER=logrouter P_JOURNAL=$JOURNAL ;;
        logrouter-j*) P_SERVER=logrouter P_JOURNAL=${P_NAME#logrouter-j} ;;
        syslog-ng) P_SERVER=syslog-ng P_DISKBUF=$SNG_DISKBUF ;;
        syslog-ng-*) P_SERVER=syslog-ng P_DISKBUF=${P_NAME#syslog-ng-} ;;
        *) echo "relay: SERVER must be logrouter[-jSYNC] or syslog-ng[-reliable|-normal], got '$P_NAME'" >&2; exit 2 ;;
    esac
    case $P_JOURNAL in memory) P_JOURNAL="" ;; ''|none|batch|interval) ;;
        *) echo "relay: the journal's sync must be none, batch or interval (logrouter-jSYNC, JOURNAL), got '$P_JOURNAL'" >&2; exit 2 ;;
    esac
    case $P_DISKBUF in ''|reliable|normal) ;;
        *) echo "relay: the disk buffer must be reliable or normal (syslog-ng-reliable|-normal, SNG_DISKBUF), got '$P_DISKBUF'" >&2; exit 2 ;;
    esac
    P_NAME=$P_SERVER${P_JOURNAL:+-j$P_JOURNAL}${P_DISKBUF:+-$P_DISKBUF}
    if [ "$RECEIVER_DELAY" = after-load ] && [ -z "$P_JOURNAL$P_DISKBUF" ]; then
        echo "relay: RECEIVER_DELAY=after-load needs a journal or a disk buffer ($P_NAME would hold the load)" >&2; exit 2
    fi
    if [ "$P_SERVER" = syslog-ng ] && [ ! -x "$SYSLOG_NG_PATH" ]; then
        echo "relay: syslog-ng not found at $SYSLOG_NG_PATH (bash /work/shared/bench/install.sh)" >&2; exit 2
    fi
    case $P_FORMAT in
        rfc3164|rfc5424) ;;
        raw) [ "$P_SERVER" = logrouter ] \
                 || { echo "relay: format raw is logrouter's only; compare it with syslog-ng:rfc3164" >&2; exit 2; } ;;
        *) echo "relay: FORMAT must be rfc3164, rfc5424 or raw, got '$P_FORMAT'" >&2; exit 2 ;;
    esac
    LG_FORMAT=rfc3164 OUT_FRAMING=lf
    if [ "$P_FORMAT" = rfc5424 ]; then LG_FORMAT=rfc5424 OUT_FRAMING=octet-counted; fi
    if [ "$P_SERVER" = logrouter ]; then
        OUT_FRAMING=${SINK_FRAMING:-$OUT_FRAMING}
        case $OUT_FRAMING in lf|octet-counted) ;; *) echo "relay: SINK_FRAMING must be lf or octet-counted" >&2; exit 2 ;; esac
    fi
}

# write_lr_config FILE PORT RECEIVER_PORT FORMAT FRAMING: logrouter as the relay
write_lr_config() {
    local jdir; jdir=$(dirname "$1")/journal
    {
        echo "# written by router-bench/relay.sh"
        echo "sources:"
        echo "  - name: relay-in"
        echo "    type: tcp"
        echo "    bind: 127.0.0.1:$2"
        echo "    framing: auto"
        echo "pipeline:"
        echo "  ring-size: $RING_SIZE"
        echo "  parse-workers: $PARSE_WORKERS"
        echo "  io-threads: $IO_THREADS"
        echo "  wait-strategy: $WAIT_STRATEGY"
        echo "routes:"
        echo "  - name: relay-route"
        echo "    from: [relay-in]"
        echo "    to: [relay-out]"
        echo "sinks:"
        echo "  - name: relay-out"
        echo "    type: syslog"
        echo "    hosts: [\"127.0.0.1:$3\"]"
        echo "    transport: tcp"
        echo "    format: $4"
        echo "    framing: $5"
        if [ -n "$SINK_EXTRA" ]; then printf '%s\n' "$SINK_EXTRA" | sed 's/^/    /'; fi
        if [ -n "$P_JOURNAL" ]; then            # in the run directory, next to the config
            echo "    buffer: journal"
            echo "    journal:"
            echo "      dir: $jdir"
            echo "      free-disk-reserve: 0"
            echo "      sync: $P_JOURNAL"
        fi
    } > "$1"
}

# write_sng_config FILE PORT RECEIVER_PORT FORMAT: syslog-ng as the relay
write_sng_config() {
    local driver=network opts src_opts dbuf="" dir
    dir=$(dirname "$1")                           # the disk buffer's file goes to the run directory
    if [ "$4" = rfc5424 ]; then driver=syslog; fi   # octet-counted RFC 5424 in and out
    if [ "$SNG_TUNING" = w2 ]; then             # the shared kit's configs/sng-w2.conf
        opts="threaded(yes); flush-lines(1000); log-fifo-size($((2 * CONNS * 1000))); stats-freq(0);"
        src_opts="log-fetch-limit(1000) log-iw-size($((CONNS * 1000)))"
    else                                          # as e2e.sh's SERVER=syslog-ng
        opts="flush-lines(100); log-fifo-size(1000); stats-freq(0);"
        src_opts="log-fetch-limit(100) log-iw-size(100)"
    fi
    case $P_DISKBUF in
        reliable) dbuf=" disk-buffer(reliable(yes) dir(\"$dir\") disk-buf-size($SNG_DISK_BUF_SIZE) mem-buf-size($SNG_MEM_BUF_SIZE))" ;;
        normal) dbuf=" disk-buffer(reliable(no) dir(\"$dir\") disk-buf-size($SNG_DISK_BUF_SIZE) mem-buf-length($SNG_MEM_BUF_LENGTH))" ;;
    esac
    cat > "$1" <<EOF
@version: 3.38
# written by router-bench/relay.sh (SERVER=$P_NAME, SNG_TUNING=$SNG_TUNING)
options { $opts };
source s_net { $driver(ip("127.0.0.1") port($2) transport("tcp") max-connections($CONNS) $src_opts); };
destination d_relay { $driver("127.0.0.1" port($3) transport("tcp")$dbuf); };
log { source(s_net); destination(d_relay); flags(flow-control); };
EOF
}

# ---- the adapter's hooks (lib/bench-lib.sh) -------------------------------------------------------
RCV_PID=""
# pick_ports: the relay's port (PEER_PORT, refused by bench_one_run when busy) and the receiver's
pick_ports() { PEER_PORT=$(free_port) && RCV_PORT=$(free_port "$PEER_PORT"); }
# peer_prepare: the receiver (socat, its pid in RCV_PID; SPID stays empty: socat's per-connection
# child is not the pid we started, so its CPU is not measured); RECEIVER_DELAY=after-load: later, when the
# measured drain starts (peer_settle_start)
peer_prepare() {
    peer_split "$PEER"
    SERVER=$P_SERVER FORMAT=$P_FORMAT
    OUT=$RUN/out
    case $OUT in *[:,!\ ]*) echo "relay: the run directory $RUN must not contain ':', ',', '!' or a space (socat address)" >&2; return 2 ;; esac
    rm -f "$OUT"
    RCV_START_US="" D_T0="" D_D0="" D_L0=""
    if [ "$RECEIVER_DELAY" != after-load ]; then start_receiver; fi
}
start_receiver() {
    "$SOCAT" -d -d -b "$RECEIVER_BUF" -u "TCP-LISTEN:$RCV_PORT,bind=127.0.0.1,reuseaddr,fork" "OPEN:$OUT,creat,append" \
        > "$RUN/receiver.log" 2>&1 &
    RCV_PID=$!
    local i
    for i in $(seq 100); do bench_listening "$RCV_PORT" && break; sleep 0.05; done
    bench_listening "$RCV_PORT" || { echo "relay: the receiver does not listen on $RCV_PORT:" >&2; cat "$RUN/receiver.log" >&2; return 2; }
}
# RECEIVER_DELAY=after-load (no warm-up then): the load ended, the relay holds it; the receiver starts
peer_settle_start() {
    if [ "$RECEIVER_DELAY" = after-load ] && [ -z "$RCV_PID" ]; then
        RCV_START_US=$(bench_now_us)
        bench_say "the receiver starts after the load"
        start_receiver
    fi
}
peer_start() {
    if [ "$SERVER" = syslog-ng ]; then
        write_sng_config "$RUN/syslog-ng.conf" "$PEER_PORT" "$RCV_PORT" "$FORMAT"
        (cd "$RUN" && exec "$SYSLOG_NG_PATH" -F -e --no-caps -f "$RUN/syslog-ng.conf" -p "$RUN/syslog-ng.pid" \
            -R "$RUN/syslog-ng.persist" -c "$RUN/syslog-ng.ctl") > "$RUN/$DAEMON_LOG" 2>&1 &
        DPID=$!
    else
        write_lr_config "$RUN/relay.yaml" "$PEER_PORT" "$RCV_PORT" "$FORMAT" "$OUT_FRAMING"
        LR_JAVA_OPTS=$ROUTER_JAVA_OPTS bench_start_router "$RUN/relay.yaml"
    fi
}
# peer_alive: the receiver runs and none of its connections failed (e.g. could not open the file)
peer_alive() {
    if [ -n "$RCV_PID" ] && ! kill -0 "$RCV_PID" 2>/dev/null; then echo "relay: the receiver (socat $RCV_PID) is gone" >&2; return 1; fi
    if grep -q '^[0-9/]* [0-9:]* socat\[[0-9]*\] E ' "$RUN/receiver.log" 2>/dev/null; then
        echo "relay: the receiver failed: $(grep -m1 ' E ' "$RUN/receiver.log")" >&2; return 1
    fi
}
# the drain polls the receiver file's size and mtime; the messages are counted only once it has been still
# (RECEIVER_DELAY=after-load: the first poll that sees bytes in the file starts the drain's span: D_T0, the
# relay's CPU ticks D_D0 and the file's size D_L0 then)
peer_probe() {
    local s m
    if read -r s m < <(stat -c '%s %.6Y' "$OUT" 2>/dev/null); then P_LEVEL=$s; P_MTIME_US=${m/./}; else P_LEVEL=0; fi
    if [ -n "$RCV_START_US" ] && [ -z "$D_T0" ] && ((P_LEVEL > 0)); then
        D_T0=$(bench_now_us) D_D0=$(cputicks "${DPID:-}") D_L0=$P_LEVEL
    fi
}
peer_count() {
    if [ ! -f "$OUT" ]; then echo 0; return 0; fi
    if [ "$OUT_FRAMING" = lf ]; then wc -l < "$OUT"; return 0; fi
    # RFC 6587 octet counting: "LEN SP MSG", back to back; an LF between frames is tolerated (and counted
    # in frames.txt). Prints the frames read; a malformed frame or a cut one at the end is reported.
    python3 - "$OUT" 2>> "$RUN/frames.txt" <<'PY'
import mmap, os, sys
path = sys.argv[1]
n = pos = stray = 0
size = os.path.getsize(path)
if size:
    with open(path, 'rb') as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
        while pos < size:
            c = m[pos]
            if c == 10:                                   # LF between frames
                stray += 1; pos += 1; continue
            sp = m.find(b' ', pos, pos + 12)
            if sp < 0 or not m[pos:sp].isdigit():
                print(f"malformed frame at byte {pos} of {size}: {m[pos:pos + 60]!r}", file=sys.stderr); break
            end = sp + 1 + int(m[pos:sp])
            if end > size:
                print(f"cut frame at byte {pos} of {size}: {m[pos:pos + 60]!r}", file=sys.stderr); break
            n += 1; pos = end
if stray:
    print(f"{stray} LF between frames", file=sys.stderr)
print(n)
PY
}
peer_warmed() { bench_say "warm-up: sent $WSENT, received $((B1 - B0))"; }
peer_drained() {
    if [ "$SERVER" = syslog-ng ]; then
        "$(dirname "$SYSLOG_NG_PATH")/syslog-ng-ctl" stats -c "$RUN/syslog-ng.ctl" > "$RUN/syslog-ng-stats.txt" 2>&1 || true
    fi
}
# peer_final: after the relay stopped, wait (10 s at most) until socat's connection children are gone, so
# that everything the relay sent is in the file, then count
peer_final() {
    local i
    for i in $(seq 100); do pgrep -P "$RCV_PID" > /dev/null 2>&1 || break; sleep 0.1; done
    P_LEVEL=-1; peer_probe; S_LEVEL=$P_LEVEL; F_TOTAL=$(peer_count)
}
# verify_unique: distinct load-generator messages in the receiver file, warm-up included (- when VERIFY=0,
# ? when it could not be counted). grep reads lines: octet-counted frames may come without any LF (one line of
# gigabytes exhausts grep's memory), so every '<' (the start of a message's PRI) becomes an LF first.
verify_unique() {
    if [ "$VERIFY" != 1 ] || [ ! -f "$OUT" ]; then echo -; return 0; fi
    local n
    if n=$(tr '<' '\n' < "$OUT" \
             | LC_ALL=C grep -aoE 'seq: [0-9]+, thread: [0-9]+, runid: [0-9]+|loadgen(\[[0-9]+\]:| [0-9]+ - -) seq=[0-9]+ conn=[0-9]+' \
             | LC_ALL=C sort -u -S 25% | wc -l); then
        echo "$n"
    else
        echo "?"
    fi
}
# syslog-ng's stderr lines that are not warnings (-e sends its internal notices there too)
SNG_NOTICES='^$|Accepting connections|syslog-ng starting up|syslog-ng shutting down|Syslog connection (established|accepted|closed)|[Dd]isk-buffer state (saved|loaded)'
peer_record() {
    local status=0 unique dups=- conns warns
    unique=$(verify_unique)
    case $unique in -) ;; '?') dups='?'; bench_say "could not count the distinct messages"; status=1 ;; *) dups=$((F_TOTAL - unique)) ;; esac
    conns=$(grep -c 'accepting connection' "$RUN/receiver.log" 2>/dev/null || true)
    if [ "$SERVER" = syslog-ng ]; then
        warns=$(grep -cvE "$SNG_NOTICES" "$RUN/$DAEMON_LOG" 2>/dev/null || true)
    else
        warns=$(grep -cE ' (WARN|ERROR) ' "$RUN/$DAEMON_LOG" 2>/dev/null || true)
    fi
    warns=${warns:-0}
    ((LG_RC == 0)) || status=1
    ((ROUTER_RC == 0)) || status=1
    if ((DELIVERED != SENT)); then bench_say "delivered $DELIVERED of $SENT messages"; status=1; fi
    if [[ $dups =~ ^-?[0-9]+$ ]] && ((dups != 0)); then
        bench_say "$unique distinct messages in the $F_TOTAL of the receiver file: $dups duplicates (or unrecognised)"; status=1
    fi
    [ "${conns:-0}" = 1 ] || bench_say "the receiver accepted ${conns:-0} connections (expected 1)"
    if ((warns > 0)); then
        bench_say "$warns warning/error line(s) in $RUN/$DAEMON_LOG, the first:"
        if [ "$SERVER" = syslog-ng ]; then grep -vE "$SNG_NOTICES" "$RUN/$DAEMON_LOG" | head -n 5 >&2; else grep -E ' (WARN|ERROR) ' "$RUN/$DAEMON_LOG" | head -n 5 >&2; fi
    fi
    if [ "$SERVER" = logrouter ]; then
        # the sink's own counters (the stats line at the stop): resends, reconnects, write failures; with a
        # journal also what its delivery thread sent, its failed sends and the backlog left
        local st jst=""; st=$(grep -o 'stats Sink relay-out: .*' "$RUN/$DAEMON_LOG" 2>/dev/null || true)
        [ -z "$P_JOURNAL" ] || jst="delivered=$F_TOTAL deliveryFailures=0 backlogRecords=0 .*"
        if [ -z "$st" ]; then
            bench_say "no 'stats Sink relay-out' line in $RUN/$DAEMON_LOG"
        elif ! grep -qE ' resent=0 connects=1 connectFailures=0 .* writeFailures=0 '"$jst"'written='"$F_TOTAL"' ' <<< "$st"; then
            bench_say "the sink's counters: $st"
        fi
    fi
    [ ! -s "$RUN/frames.txt" ] || { bench_say "the frame count said:"; sort "$RUN/frames.txt" | uniq -c | head -n 5 >&2; }
    local drain=""
    if [ -n "$RCV_START_US" ]; then             # RECEIVER_DELAY=after-load
        # shellcheck disable=SC2016  # an awk program
        drain=$(awk -v sent="$SENT" -v lg0="$LG_FIRST_US" -v lg1="$LG_END_US" -v r0="$RCV_START_US" -v t0="${D_T0:-0}" \
                    -v t1="$E_T" -v d0="${D_D0:-0}" -v d1="$E_D" -v clk="$CLK" -v l0="${D_L0:-0}" -v l1="$S_LEVEL" \
                    -v n="$DELIVERED" 'BEGIN {
            m = (l1 > 0) ? n * (l1 - l0) / l1 : 0; el = (t1 - t0) / 1e6; if (el <= 0) el = 1e-9; if (m <= 0) m = 1
            printf " load_msgs_per_s=%.0f reconnect_s=%.3f drain_msgs_per_s=%.0f drain_us_per_msg=%.3f", \
                sent / ((lg1 > lg0) ? (lg1 - lg0) / 1e6 : 1e-9), (t0 - r0) / 1e6, m / el, (d1 - d0) / clk / m * 1e6 }')
        [ -n "$D_T0" ] || { bench_say "no byte reached the receiver"; drain=""; }
    fi
    printf 'server=%s format=%s sent=%s delivered=%s lost=%s msgs_per_s=%s relay_cpu_s=%s us_per_msg=%s relay_cores=%s rss_mb=%s dups=%s receiver_conns=%s log_warnings=%s loadgen_cpu_s=%s%s\n' \
        "$P_NAME" "$FORMAT" "$SENT" "$DELIVERED" "$R_LOST" "$R_RATE" "$R_DCPU" "$R_DUS" "$R_CORES" "$R_RSS_MB" \
        "$dups" "${conns:-0}" "$warns" "$LG_CPU" "$drain"
    if [ "$MODE" = peers ]; then
        bench_csv "ts,server,format,run,conns,size,warmup,sent,delivered,lost,dups,seconds,msgs_per_s,relay_cpu_s,us_per_msg,relay_cores,rss_mb,receiver_conns,log_warnings,loadgen_cpu_s,relay_rc,loadgen_rc,status,run_dir" \
            "$(date -u +%FT%TZ),$P_NAME,$FORMAT,$TAG,$CONNS,$SIZE,$WARMUP,$SENT,$DELIVERED,$R_LOST,$dups,$R_SECONDS,$R_RATE,$R_DCPU,$R_DUS,$R_CORES,$R_RSS_MB,${conns:-0},$warns,$LG_CPU,$ROUTER_RC,$LG_RC,$status,$RUN"
    fi
    return $status
}
# the receiver file, the journal's segments and syslog-ng's disk-buffer file (up to gigabytes) go unless KEEP=1
peer_cleanup() { if [ "$KEEP" != 1 ]; then rm -rf "$OUT" "$RUN/journal" "$RUN"/syslog-ng-*.*qf; fi; }
peer_exit() {
    if [ -n "$RCV_PID" ]; then
        pkill -TERM -P "$RCV_PID" 2>/dev/null || true   # socat's connection children
        kill -TERM "$RCV_PID" 2>/dev/null || true
        wait "$RCV_PID" 2>/dev/null || true
        RCV_PID=""
    fi
    if [ "$MODE" = one ]; then
        if [ "$KEEP" = 1 ]; then echo "relay: kept $RUN" >&2; else rm -rf "$RUN"; fi
    elif [ "$KEEP" != 1 ] && [ -n "${OUT:-}" ]; then
        rm -rf "$OUT" "$RUN/journal" "$RUN"/syslog-ng-*.*qf
    fi
}

# ---- one run under bench_main's lock --------------------------------------------------------------
if [ "${1:-}" = __run ]; then
    MODE=peers
    trap 'peer_exit' EXIT
    pick_ports
    # the run directory without the peer's ':' (the receiver file is a socat address: ':' and ',' separate its parts)
    RUN=$WORK/runs/${2//:/-}-$3-$(date -u +%Y%m%dT%H%M%S)
    bench_dispatch "$@"
fi

# ---- checks ------------------------------------------------------------------------------------------
bench_check_loadgen
peer_check() {
    peer_split "$1"
    if [ "$P_SERVER" = logrouter ]; then
        [ -f "$ROUTER_JAR" ] || { echo "relay: missing $ROUTER_JAR (build it: ./mvnw -q -B -pl router-server -am package -DskipTests)" >&2; exit 2; }
        local d; d=$(mktemp -d /tmp/logrouter-relay-check.XXXXXX)
        write_lr_config "$d/relay.yaml" 20000 20001 "$P_FORMAT" "$OUT_FRAMING"
        local rc=0; (bench_check_config "$d/relay.yaml" "$d/check.log") || rc=$?
        rm -rf "$d"
        ((rc == 0)) || exit "$rc"
    fi
}

# ---- one run: SERVER / FORMAT ----------------------------------------------------------------------
if ((${#POS[@]} == 0)); then
    MODE=one
    peer_check "$SERVER:$FORMAT"
    if [ -n "$LOCK" ]; then
        exec 9>>"$LOCK"
        flock -w 900 9 || { echo "relay: could not get $LOCK within 900 s" >&2; exit 3; }
    fi
    RUN=$(mktemp -d /tmp/logrouter-relay.XXXXXX)
    trap 'peer_exit' EXIT
    trap 'exit 130' INT TERM
    ((WARMUP == 0)) || bench_say "warm-up: $WARMUP messages"
    pick_ports
    status=0
    bench_one_run "$SERVER:$FORMAT" r1 || status=$?
    exit "$status"
fi

# ---- PEERS [RUNS]: alternating runs, medians -----------------------------------------------------------
MODE=peers
[ -n "$LOCK" ] || { echo "relay: PEERS mode takes LOCK per run; do not set LOCK= (and do not run it under flock)" >&2; exit 2; }
summary() {
    # shellcheck disable=SC2016  # an awk program
    bench_medians '
    { p = $2 ":" $3; if (!(p in n)) order[++np] = p
      n[p]++; k = p SUBSEP n[p]; rate[k] = $13; us[k] = $15; lost[p] += $10
      if (!(p in lo) || $13 < lo[p]) lo[p] = $13; if ($13 > hi[p]) hi[p] = $13
      if (!(p in ulo) || $15 < ulo[p]) ulo[p] = $15; if ($15 > uhi[p]) uhi[p] = $15 }
    END {
      for (i = 1; i <= np; i++) {
        p = order[i]; mr[p] = med(rate, p, n[p]); mu[p] = med(us, p, n[p])
        printf "%-28s runs=%d msgs_per_s median=%.0f (%.0f..%.0f)  us_per_msg median=%.3f (%.3f..%.3f)  lost total=%d\n",
          p, n[p], mr[p], lo[p], hi[p], mu[p], ulo[p], uhi[p], lost[p]
      }
      # each logrouter peer against each syslog-ng peer of its format, and a journaled one against the memory one
      for (i = 1; i <= np; i++) {
        p = order[i]; split(p, a, ":"); if (a[1] !~ /^logrouter/) continue
        f = (a[2] == "raw") ? "rfc3164" : a[2]
        for (j = 1; j <= np; j++) {
          q = order[j]; split(q, b, ":")
          if (mr[q] == 0 || mu[p] == 0) continue
          if (b[1] ~ /^syslog-ng/ && b[2] == f)
            printf "ratio %s / %s: throughput x%.2f, us_per_msg x%.2f (syslog-ng uses %.2fx the CPU per message)\n",
              p, q, mr[p] / mr[q], mu[p] / mu[q], mu[q] / mu[p]
          else if (b[1] == "logrouter" && a[1] != "logrouter" && b[2] == a[2])
            printf "ratio %s / %s: throughput x%.2f, us_per_msg x%.2f (the journal'"'"'s cost)\n",
              p, q, mr[p] / mr[q], mu[p] / mu[q]
        }
      }
    }'
}
bench_main "${POS[0]}" "${POS[1]:-3}"

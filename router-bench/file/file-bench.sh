#!/usr/bin/env bash
# file-bench.sh - reading log files: logrouter's `type: file` source against syslog-ng 3.38's wildcard-file(), both
# writing each line's MSG to one output file, on the same input, alternating receiver by receiver.
#
#   file-bench.sh RECEIVERS [RUNS]   RECEIVERS: comma-separated logrouter | syslog-ng | syslog-ng:WINDOW (its
#                                    window per file, else SNG_WINDOW); RUNS (default 3)
#
# Environment:
#   SHAPES    comma-separated DIRSxFILES (default 1x1,1x10,10x10): files IN/d<k>/f<j>.log
#   MODE      prewritten (the files are complete before the receiver starts: read throughput) or appending (the
#             receiver starts on empty directories, then one `cat` per file appends it at full speed)
#   COUNT     lines per run over all files (default 1000000); SIZE line length with its newline (default 400)
#   WARMUP    lines of a file read first and not measured (default 500000; 0 = none): the JIT compiles the path,
#             as it has on a router that runs for hours
#   SNG_WINDOW syslog-ng's window per file (default 10000): log-iw-size = max-files x SNG_WINDOW, max-files = the
#             files + 1, log-fifo-size = twice log-iw-size (the vendor's tuning guideline: 1000 per connection)
#   ROUTER_JAR (default router-server/target/logrouter.jar), SYSLOG_NG (default /usr/sbin/syslog-ng)
# One run: starts the receiver on the warm-up file, waits until it was written out, then moves the complete files
# in (prewritten) or starts the writers (appending), polls the output's size every 50 ms until it
# holds COUNT lines (or STALL_SECS without growth), then checks every line arrived once (sort -u of the ids).
# rate = COUNT / (first output byte -> last), receiver CPU = utime+stime (/proc/PID/stat) over the same span,
# us_per_msg = CPU / COUNT. Prints one line per run, then the medians. Holds /tmp/cpu.lock around each run.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
ROUTER_JAR=${ROUTER_JAR:-$REPO/router-server/target/logrouter.jar}
SYSLOG_NG=${SYSLOG_NG:-/usr/sbin/syslog-ng}
SHAPES=${SHAPES:-1x1,1x10,10x10}
MODE=${MODE:-prewritten}
COUNT=${COUNT:-1000000}
SIZE=${SIZE:-400}
STALL_SECS=${STALL_SECS:-20}
WARMUP=${WARMUP:-500000}
SNG_WINDOW=${SNG_WINDOW:-10000}
WORK=${WORK:-$(mktemp -d /tmp/file-bench.XXXXXX)}
mkdir -p "$WORK"
RECEIVERS=${1:-logrouter,syslog-ng}
RUNS=${2:-3}
PIDS=()
cleanup() {
    for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill "$p" 2>/dev/null || true; done
    sleep 0.5
    for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill -9 "$p" 2>/dev/null || true; done
    [ "${KEEP:-0}" = 1 ] || rm -rf "$WORK"
}
trap cleanup EXIT
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
size_of() { stat -c %s "$1" 2>/dev/null || echo 0; }

# the content of every file of a shape: COUNT lines "f<file> <n> xxx..." of SIZE bytes, split over the files
make_sources() { # dirs files dest
    local dirs=$1 files=$2 dest=$3 total=$(($1 * $2)) k j i=0
    mkdir -p "$dest"
    for k in $(seq 0 $((dirs - 1))); do
        for j in $(seq 0 $((files - 1))); do
            awk -v id="$i" -v n=$((COUNT / total)) -v size="$SIZE" 'BEGIN {
                pad = sprintf("%*s", size, ""); gsub(/ /, "x", pad)
                for (x = 0; x < n; x++) { s = sprintf("f%d %09d ", id, x); print s substr(pad, 1, size - 1 - length(s)) } }' \
                > "$dest/d$k-f$j.src"
            i=$((i + 1))
        done
    done
}

place() { # src-dir in-dir dirs files mode: prewritten = complete files moved in (one rename per directory),
           # appending = one cat per file appending at full speed in the background
    local src=$1 in=$2 dirs=$3 files=$4 k j
    for k in $(seq 0 $((dirs - 1))); do
        if [ "$5" = prewritten ]; then
            mkdir -p "$in.stage/d$k"
            for j in $(seq 0 $((files - 1))); do
                cp "$src/d$k-f$j.src" "$in.stage/d$k/f$j.log"
            done
        else
            mkdir -p "$in/d$k"
            for j in $(seq 0 $((files - 1))); do
                cat "$src/d$k-f$j.src" >> "$in/d$k/f$j.log" &
            done
        fi
    done
    if [ "$5" = prewritten ]; then
        for k in $(seq 0 $((dirs - 1))); do mv "$in.stage/d$k" "$in/d$k"; done
    fi
}

run_one() { # receiver dirs files run-dir
    local recv=$1 dirs=$2 files=$3 dir=$4 in="$4/in" out="$4/out.log" pid
    local expect=$(( (COUNT / (dirs * files)) * dirs * files ))
    local want=$((expect * SIZE))
    local warm=$((WARMUP * SIZE)) base
    mkdir -p "$in/warm"
    [ "$WARMUP" -gt 0 ] && cp "$WARM" "$in/warm/w.log"
    if [ "$recv" = logrouter ]; then
        cat > "$dir/router.yaml" <<YAML
sources:
  - {name: files, type: file, paths: ["$in/*/*.log"], checkpoint-dir: "$dir/ckpt", max-line-size: 64KiB}
pipeline: {ring-size: 65536}
sinks:
  - {name: out, type: file, path: "$out", template: "\${MSG}\\n"}
YAML
        java -jar "$ROUTER_JAR" run --config "$dir/router.yaml" > "$dir/router.log" 2>&1 &
    else
        local maxfiles=$((dirs * files + 1)) # the measured files and the warm-up file: wildcard-file() divides
                                              # log-iw-size among max-files, so each file gets SNG_WINDOW
        case $recv in syslog-ng:*) SNG_WINDOW=${recv#syslog-ng:} ;; esac
        cat > "$dir/sng.conf" <<CONF
@version: 3.38
options { threaded(yes); flush_lines(1000); log_fifo_size($((2 * maxfiles * SNG_WINDOW))); stats_freq(0); };
source s_files { wildcard-file(base-dir("$in") filename-pattern("*.log") recursive(yes) flags(no-parse)
                 follow-freq(1) max-files($maxfiles) log-iw-size($((maxfiles * SNG_WINDOW))) log-fetch-limit(1000)
                 log-msg-size(65536)); };
destination d_out { file("$out" template("\$MSG\n")); };
log { source(s_files); destination(d_out); flags(flow-control); };
CONF
        "$SYSLOG_NG" -F -e --no-caps -f "$dir/sng.conf" -p "$dir/sng.pid" -R "$dir/sng.persist" \
            -c "$dir/sng.ctl" > "$dir/sng.log" 2>&1 &
    fi
    pid=$!; PIDS+=("$pid")
    for _ in $(seq 1200); do # the warm-up file is read (not measured), or the receiver is up
        [ "$(size_of "$out")" -ge "$warm" ] && [ -e "$out" -o "$WARMUP" -eq 0 ] && break
        sleep 0.1
    done
    [ "$WARMUP" -eq 0 ] && sleep 2
    base=$(size_of "$out")
    want=$((base + want))
    place "$SRC" "$in" "$dirs" "$files" "$MODE"
    local first="" last c0=0 c1 now s prev=-1 still=0
    while true; do
        s=$(size_of "$out")
        now=$(date +%s.%N)
        if [ -z "$first" ] && [ "$s" -gt "$base" ]; then first=$now; c0=$(cpu_ticks "$pid"); fi
        if [ "$s" != "$prev" ]; then last=$now; c1=$(cpu_ticks "$pid"); still=0; prev=$s; else still=$((still + 1)); fi
        [ "$s" -ge "$want" ] && break
        [ "$still" -ge $((STALL_SECS * 20)) ] && break
        sleep 0.05
    done
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    local lines uniq
    lines=$(grep -vc '^w' "$out" || true)
    uniq=$(grep -v '^w' "$out" | cut -d' ' -f1-2 | sort -u | wc -l)
    awk -v r="$recv" -v sh="${dirs}x$files" -v n="$expect" -v l="$lines" -v u="$uniq" -v f="$first" -v z="$last" \
        -v c0="$c0" -v c1="$c1" -v hz="$(getconf CLK_TCK)" 'BEGIN {
        t = z - f; if (t <= 0) t = 1e-9; c = (c1 - c0) / hz
        printf "receiver=%s shape=%s count=%d delivered=%d unique=%d lost=%d msgs_per_s=%.0f cpu_s=%.2f us_per_msg=%.2f\n",
            r, sh, n, l, u, n - u, u / t, c, c * 1e6 / u }'
    rm -rf "$in" "$in.stage" "$out"
}

RESULTS="$WORK/results"
: > "$RESULTS"
WARM="$WORK/warm.src"
awk -v n="$WARMUP" -v size="$SIZE" 'BEGIN { pad = sprintf("%*s", size, ""); gsub(/ /, "x", pad)
    for (x = 0; x < n; x++) { s = sprintf("w %09d ", x); print s substr(pad, 1, size - 1 - length(s)) } }' > "$WARM"
for shape in ${SHAPES//,/ }; do
    dirs=${shape%x*}; files=${shape#*x}
    SRC="$WORK/src-$shape"
    make_sources "$dirs" "$files" "$SRC"
    for r in $(seq "$RUNS"); do
        for recv in ${RECEIVERS//,/ }; do
            line=$(flock /tmp/cpu.lock bash -c "$(declare -f run_one place cpu_ticks size_of); \
                COUNT=$COUNT SIZE=$SIZE MODE=$MODE WARMUP=$WARMUP WARM='$WARM' SNG_WINDOW=$SNG_WINDOW STALL_SECS=$STALL_SECS ROUTER_JAR='$ROUTER_JAR' \
                SYSLOG_NG='$SYSLOG_NG' SRC='$SRC'; PIDS=(); run_one $recv $dirs $files '$WORK/run-$shape-$r-$recv'")
            echo "$line"
            echo "$line" >> "$RESULTS"
        done
    done
    rm -rf "$SRC"
done
echo "medians of $RUNS ($MODE, $COUNT lines of $SIZE bytes):"
for shape in ${SHAPES//,/ }; do
    for recv in ${RECEIVERS//,/ }; do
        sel=$(grep "receiver=$recv shape=$shape " "$RESULTS" || true)
        rate=$(echo "$sel" | sed 's/.*msgs_per_s=\([0-9.]*\).*/\1/' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
        us=$(echo "$sel" | sed 's/.*us_per_msg=\([0-9.]*\).*/\1/' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
        lost=$(echo "$sel" | sed 's/.*lost=\([0-9-]*\).*/\1/' | sort -n | tail -1)
        echo "  $shape $recv: msgs_per_s=$rate us_per_msg=$us max_lost=$lost"
    done
done

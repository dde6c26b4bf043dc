#!/usr/bin/env bash
# syslog-diff.sh - compare logrouter's syslog parse with syslog-ng 3.38's, using the
# syslog-diff harness (send.py / compare.py / expected/syslog-ng-3.38.1.json).
#
# usage: router-bench/syslog-diff.sh HARNESS_DIR [compare.py options, e.g. --only=b01,r07]
#
# Builds nothing; needs router-server/target/logrouter.jar (ROUTER_JAR= to override).
#   1. writes a temp config: four sources on 127.0.0.1 (free ports)
#        udp3164 (udp, rfc3164)   tcp3164 (tcp, framing lf, rfc3164)
#        udp5424 (udp, rfc5424)   tcp5424 (tcp, framing octet-counted, rfc5424)
#      pipeline time-zone UTC, one route from all four to one file sink
#      <out>/${SOURCE}.basic with the harness template
#      ${ISODATE}|${HOST}|${PROGRAM}|${PID}|${MSGID}|${SDATA}|${MSG}\n (flush-timeout 10ms),
#   2. starts `java -jar logrouter.jar run --config <tmp>` (TZ=UTC, cwd = temp dir) and
#      waits until all four ports are bound,
#   3. python3 HARNESS_DIR/send.py ... --receiver logrouter (result JSON in the temp dir),
#   4. python3 HARNESS_DIR/compare.py HARNESS_DIR/expected/syslog-ng-3.38.1.json <result>,
#   5. stops the router with SIGTERM and expects exit 0,
#   6. prints compare's output and exits with compare's status (3 if the router failed to
#      start or did not exit 0; 2 on a usage error).
# Settings: KEEP=1 keeps the temp dir (config, router.log, outputs, result.json);
#   STARTUP_SECS=60 STOP_SECS=30; ROUTER_JAVA_OPTS="".
set -euo pipefail

usage() { sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//' >&2; exit 2; }

(($# >= 1)) || usage
case $1 in -h|--help) usage ;; esac
HARNESS=$(cd "$1" 2>/dev/null && pwd) || { echo "syslog-diff: no such directory: $1" >&2; exit 2; }
shift
for f in send.py compare.py expected/syslog-ng-3.38.1.json; do
    [ -f "$HARNESS/$f" ] || { echo "syslog-diff: $HARNESS/$f missing (not a syslog-diff harness?)" >&2; exit 2; }
done

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
ROUTER_JAR=${ROUTER_JAR:-$ROOT/router-server/target/logrouter.jar}
STARTUP_SECS=${STARTUP_SECS:-60}
STOP_SECS=${STOP_SECS:-30}
ROUTER_JAVA_OPTS=${ROUTER_JAVA_OPTS:-}
KEEP=${KEEP:-0}
export TZ=UTC

[ -f "$ROUTER_JAR" ] || { echo "syslog-diff: missing $ROUTER_JAR (build it: mvn -pl router-server -am package)" >&2; exit 2; }

TMP=$(mktemp -d /tmp/logrouter-syslog-diff.XXXXXX)
OUT=$TMP/out
RESULT=$TMP/result.json
mkdir -p "$OUT"
RPID=""

NAME=syslog-diff
# shellcheck source=router-process.sh
. "$HERE/router-process.sh"
trap cleanup EXIT
trap 'exit 130' INT TERM

P_UDP3164=$(free_port)
P_TCP3164=$(free_port "$P_UDP3164")
P_UDP5424=$(free_port "$P_UDP3164" "$P_TCP3164")
P_TCP5424=$(free_port "$P_UDP3164" "$P_TCP3164" "$P_UDP5424")

cat > "$TMP/router.yaml" <<EOF
# written by router-bench/syslog-diff.sh
sources:
  - name: udp3164
    type: udp
    bind: 127.0.0.1:$P_UDP3164
    format: rfc3164
  - name: tcp3164
    type: tcp
    bind: 127.0.0.1:$P_TCP3164
    framing: lf
    format: rfc3164
  - name: udp5424
    type: udp
    bind: 127.0.0.1:$P_UDP5424
    format: rfc5424
  - name: tcp5424
    type: tcp
    bind: 127.0.0.1:$P_TCP5424
    framing: octet-counted
    format: rfc5424
pipeline: {time-zone: UTC}
routes:
  - name: all
    from: [udp3164, tcp3164, udp5424, tcp5424]
    to: [basic]
sinks:
  - name: basic
    type: file
    path: "$OUT/\${SOURCE}.basic"
    template: "\${ISODATE}|\${HOST}|\${PROGRAM}|\${PID}|\${MSGID}|\${SDATA}|\${MSG}\n"
    flush-timeout: 10ms
EOF

# ---- router -------------------------------------------------------------------
# shellcheck disable=SC2086
(cd "$TMP" && exec java $ROUTER_JAVA_OPTS -jar "$ROUTER_JAR" run --config "$TMP/router.yaml") \
    > "$TMP/router.log" 2>&1 &
RPID=$!
all_bound() {
    tcp_listening "$P_TCP3164" && tcp_listening "$P_TCP5424" && udp_bound "$P_UDP3164" && udp_bound "$P_UDP5424"
}
for _ in $(seq $((STARTUP_SECS * 10))); do
    all_bound && break
    kill -0 "$RPID" 2>/dev/null || break
    sleep 0.1
done
if ! all_bound; then
    echo "syslog-diff: router is not listening on all four ports; its log:" >&2
    tail -n 40 "$TMP/router.log" >&2
    exit 3
fi

# ---- send and compare ---------------------------------------------------------------
send_rc=0
python3 "$HARNESS/send.py" --outdir "$OUT" --result "$RESULT" --receiver logrouter \
    --udp3164 "$P_UDP3164" --tcp3164 "$P_TCP3164" --udp5424 "$P_UDP5424" --tcp5424 "$P_TCP5424" \
    2> "$TMP/send.log" || send_rc=$?
if ((send_rc != 0)); then
    echo "syslog-diff: send.py failed (exit $send_rc):" >&2
    tail -n 20 "$TMP/send.log" >&2
fi

cmp_rc=0
COMPARE_OUT=""
if [ -f "$RESULT" ]; then
    COMPARE_OUT=$(python3 "$HARNESS/compare.py" "$HARNESS/expected/syslog-ng-3.38.1.json" "$RESULT" "$@") || cmp_rc=$?
else
    cmp_rc=3
fi

# ---- stop: SIGTERM, expect exit 0 ----------------------------------------------------
kill -TERM "$RPID" 2>/dev/null || true
for _ in $(seq $((STOP_SECS * 10))); do kill -0 "$RPID" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$RPID" 2>/dev/null; then
    echo "syslog-diff: router did not exit within $STOP_SECS s of SIGTERM; killing it" >&2
    kill -KILL "$RPID" 2>/dev/null || true
fi
router_rc=0
wait "$RPID" || router_rc=$?
RPID=""
if ((router_rc != 0)); then
    echo "syslog-diff: router exited with $router_rc (expected 0); last lines of its log:" >&2
    tail -n 20 "$TMP/router.log" >&2
fi

[ -n "$COMPARE_OUT" ] && printf '%s\n' "$COMPARE_OUT"
if ((router_rc != 0 || send_rc != 0)) && ((cmp_rc == 0)); then cmp_rc=3; fi
exit "$cmp_rc"

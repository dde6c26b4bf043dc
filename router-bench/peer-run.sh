#!/usr/bin/env bash
# peer-run.sh PORT OUT_DIR [WORKLOAD] [PDB_XML]
#
# logrouter as the `cmd` peer of the shared side-by-side kit (/work/shared/bench):
#   PEER_CMD='/work/main/router-bench/peer-run.sh @PORT@ @OUT@ @WL@ @PDB@' \
#     WARMUP_SECS=10 /work/shared/bench/bench.sh cmd w2 3
# (@WL@ and @PDB@ are optional; without them every workload gets the W2 config.)
#
# Writes <OUT_DIR>/../logrouter.yaml (outside OUT_DIR: run_one.sh counts the lines of
# every file under OUT_DIR) equivalent to the kit's syslog-ng config for WORKLOAD:
#   - one tcp source on 127.0.0.1:PORT, framing auto (LF or RFC 6587 octet counting,
#     so W5 / loggen -P needs no other config);
#   - one file sink into OUT_DIR, one line per message, with syslog-ng's default file
#     layout "${ISODATE} ${HOST} ${PROGRAM}[${PID}]: ${MSG}\n" (W1, W2, W2f, W5),
#     one file per ${HOST}/${PROGRAM} (W3), or the parsed-value templates of
#     configs/sng-w4-*.conf (W4 json / kv / xml / db);
#   - one route from the source to the sink (with the W4 parser chain);
# then cds to OUT_DIR/.. (so relative defaults such as ./data/dead-letter stay in the
# run's scratch dir) and execs `java -jar logrouter.jar run --config ...`, so the kit's
# pid is the router's pid and its SIGTERM reaches the router directly.
#
# The jar is found relative to this script: ../router-server/target/logrouter.jar
# (override with ROUTER_JAR). Tuning (environment): PEER_RING_SIZE=65536
# PEER_PARSE_WORKERS=2 PEER_WAIT_STRATEGY=blocking PEER_BATCH_SIZE=1000
# PEER_FLUSH_TIMEOUT=250ms PEER_IDLE_PARK (pipeline.idle-park; empty: the default) PEER_TEMPLATE (W1/W2/W5
# template) PEER_JAVA_OPTS (JVM flags). PEER_WRITE_ONLY=1: write the config, print its path and exit (e2e.sh's
# WORKLOAD uses it).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROUTER_JAR=${ROUTER_JAR:-$HERE/../router-server/target/logrouter.jar}

port=${1:?usage: peer-run.sh PORT OUT_DIR [WORKLOAD] [PDB_XML]}
out=${2:?usage: peer-run.sh PORT OUT_DIR [WORKLOAD] [PDB_XML]}
wl=${3:-w2}
pdb=${4:-}

[[ $port =~ ^[0-9]+$ ]] || { echo "peer-run: bad port '$port'" >&2; exit 2; }
[ -f "$ROUTER_JAR" ] || { echo "peer-run: missing $ROUTER_JAR" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
run_dir=$(dirname "$out")
conf=$run_dir/logrouter.yaml

# Unsubstituted placeholders (PEER_CMD without @WL@ / @PDB@) mean "not given".
case $wl in @*@) wl=w2 ;; esac
case $pdb in @*@) pdb= ;; esac

# syslog-ng's default file template: ISODATE HOST MSGHDR MSG
default_template='${DATE} ${HOST} ${MSGHDR}${MSG}\n'
json_template='${ISODATE} ${HOST} ${PROGRAM}: user=${.json.user} action=${.json.action} status=${.json.status} bytes=${.json.bytes} ip=${.json.src.ip} req=${.json.req_id}\n'
kv_template='${ISODATE} ${HOST} ${PROGRAM}: user=${.kv.user} action=${.kv.action} status=${.kv.status} bytes=${.kv.bytes} ip=${.kv.src_ip} req=${.kv.req_id}\n'
xml_template='${ISODATE} ${HOST} ${PROGRAM}: user=${.xml.event.user} action=${.xml.event.action} status=${.xml.event.status} bytes=${.xml.event.bytes} ip=${.xml.event.src._ip} req=${.xml.event.req_id}\n'
db_template='${ISODATE} ${HOST} ${PROGRAM}: class=${.classifier.class} rule=${.classifier.rule_id} user=${p.user} ip=${p.ip} num=${p.num}\n'

# Per workload (see /work/shared/bench/common.sh and configs/sng-*.conf):
# file path, template, parser chain (YAML list items, empty = none), extra top-level YAML.
path="$out/out.log"
template=${PEER_TEMPLATE:-$default_template}
parser=""
extra=""
case $wl in
    w1-default|w1-tuned|w2|w2f|w2-100k|w2-pinned|w5) ;;
    w3) path="$out/\${HOST}/\${PROGRAM}.log" ;;
    w4-base) template=$json_template ;;
    w4-json) template=$json_template; parser='{ type: json, prefix: ".json." }' ;;
    w4-kv) template=$kv_template; parser='{ type: kv, prefix: ".kv." }' ;;
    w4-xml) template=$xml_template; parser='{ type: xml, prefix: ".xml." }' ;;
    w4-db)
        [ -f "$pdb" ] || { echo "peer-run: missing PatternDB ruleset $pdb" >&2; exit 2; }
        template=$db_template; parser='{ type: patterndb }'
        extra=$(printf 'patterndb:\n  files: ["%s"]\n' "$pdb") ;;
    *) echo "peer-run: unknown workload '$wl', using the W2 config" >&2 ;;
esac

# ---- the config (keys as in /work/shared/DESIGN.md) ---------------------------
{
    echo "# written by router-bench/peer-run.sh for workload $wl"
    echo "sources:"
    echo "  - name: bench-in"
    echo "    type: tcp"
    echo "    bind: 127.0.0.1:$port"
    echo "    framing: auto"
    echo "pipeline:"
    echo "  ring-size: ${PEER_RING_SIZE:-4096}"
    echo "  parse-workers: ${PEER_PARSE_WORKERS:-1}"
    echo "  wait-strategy: ${PEER_WAIT_STRATEGY:-backoff}"
    echo "  io-threads: ${PEER_IO_THREADS:-1}"
    [ -n "${PEER_IDLE_PARK:-}" ] && echo "  idle-park: $PEER_IDLE_PARK"
    if [ -n "$parser" ]; then
        echo "parsers:"
        echo "  bench-parser:"
        echo "    - $parser"
    fi
    [ -n "$extra" ] && echo "$extra"
    echo "routes:"
    echo "  - name: bench-route"
    echo "    from: [bench-in]"
    [ -n "$parser" ] && echo "    parsers: [bench-parser]"
    echo "    to: [bench-out]"
    echo "sinks:"
    echo "  - name: bench-out"
    echo "    type: file"
    echo "    path: \"$path\""
    echo "    template: \"$template\""
    echo "    batch-size: ${PEER_BATCH_SIZE:-1000}"
    echo "    flush-timeout: ${PEER_FLUSH_TIMEOUT:-250ms}"
} > "$conf"
if [ "${PEER_WRITE_ONLY:-0}" = 1 ]; then echo "$conf"; exit 0; fi

cd "$run_dir"
# shellcheck disable=SC2086
exec java ${PEER_JAVA_OPTS:-} -jar "$ROUTER_JAR" run --config "$conf"

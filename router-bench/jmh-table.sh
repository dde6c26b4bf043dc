#!/usr/bin/env bash
# jmh-table.sh [BENCHMARK_REGEX] — runs the per-parser, template and route JMH benchmarks with the GC
# profiler and prints one Markdown table: benchmark, payload shape, ops/s on one core, bytes
# allocated per op. JMH runs each benchmark on one thread, so ops/s is per core.
#
#   router-bench/jmh-table.sh                      # all parser/template/route benchmarks
#   router-bench/jmh-table.sh 'JsonParser|KvParser'
#
# Environment: JMH_ARGS (default "-f 1 -wi 3 -w 2s -i 5 -r 2s"), OUT (JSON result file,
# default /tmp/jmh-table.json). Holds /tmp/cpu.lock while it measures (the machine is shared).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
JAR=${BENCH_JAR:-$HERE/target/router-bench.jar}
PATTERN=${1:-'(Json|Kv|Xml|Csv|Regex)ParserBenchmark|TemplateBenchmark|RouteBenchmark|RewriteBenchmark'}
OUT=${OUT:-/tmp/jmh-table.json}
[ -f "$JAR" ] || { echo "jmh-table: build first: ./mvnw -pl router-bench -am package -DskipTests" >&2; exit 2; }
# shellcheck disable=SC2086
flock /tmp/cpu.lock java -jar "$JAR" "$PATTERN" ${JMH_ARGS:--f 1 -wi 3 -w 2s -i 5 -r 2s} -prof gc \
    -rf json -rff "$OUT" >&2
python3 - "$OUT" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))
print("| benchmark | params | ops/s (one core) | ± | B/op |")
print("|---|---|---:|---:|---:|")
for r in rows:
    name = r["benchmark"].rsplit(".", 2)
    bench = name[-2] + "." + name[-1]
    params = ", ".join(f"{k}={v}" for k, v in (r.get("params") or {}).items())
    pm = r["primaryMetric"]
    score = pm["score"]
    unit = pm["scoreUnit"]
    if unit == "ops/ms":
        score *= 1000
    elif unit == "ops/us":
        score *= 1e6
    elif unit != "ops/s":
        score = float("nan")
    err = pm.get("scoreError") or 0
    err *= score / pm["score"] if pm["score"] else 0
    alloc = r.get("secondaryMetrics", {}).get("gc.alloc.rate.norm", {}).get("score")
    print(f"| {bench} | {params} | {score:,.0f} | {err:,.0f} | {alloc:.1f} |" if alloc is not None
          else f"| {bench} | {params} | {score:,.0f} | {err:,.0f} | n/a |")
PY

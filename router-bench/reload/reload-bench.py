#!/usr/bin/env python3
"""reload-bench.py - throughput around live reloads under a saturating W2 load.

Starts the router (router-server/target/logrouter.jar) on a temp config: one TCP source, the W2 sink (one file,
template "${MSG}\\n") and a second sink whose filter takes none of loggen's messages (auth.info), and `monitoring.http` for the sampler. Runs syslog-ng's loggen
(CONNS connections, SIZE-byte RFC 3164 messages, unlimited rate) for SECS seconds and reads the sink's
`logrouter_sink_written_total` from GET /metrics every 100 ms (the same values as JMX). At the RELOADS times it
rewrites the config and sends SIGHUP:
  1. add a sink `extra` with its own route,
  2. change the filter of the second route,
  3. remove `extra` again (the configuration is then the starting one: same steady-state cost).
After the load it waits until everything loggen sent is in the W2 file (zero loss, checked line by line count),
stops the router with SIGTERM (exit 0 expected) and prints:
  - the median rate (msg/s, per 100 ms sample) before the first reload and after the last,
  - per reload: the router's own "reloaded in N ms", the lowest 100 ms rate from the reload to 3 s after it, and
    how long (ms) the rate stayed below 80 % of the median before,
and writes every sample to samples.csv in the work directory (printed).

Usage: flock /tmp/cpu.lock router-bench/reload/reload-bench.py [--secs 30] [--reloads 12,17,22] [--conns 10]
       [--size 400] [--jar router-server/target/logrouter.jar] [--loggen /usr/bin/loggen] [--keep]
"""
import argparse
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def config(work, port, hport, extra, second_filter):
    routes = ["  - {name: r-all, to: [all]}",
              "  - {name: r-second, filter: '%s', to: [second]}" % second_filter]
    sinks = ['  - {name: all, type: file, path: "%s/all.log", template: "${MSG}\\n"}' % work,
             '  - {name: second, type: file, path: "%s/second.log", template: "${MSG}\\n"}' % work]
    if extra:
        routes.append("  - {name: r-extra, filter: 'program(\"^no-such-program$\")', to: [extra]}")
        sinks.append('  - {name: extra, type: file, path: "%s/extra.log", template: "${MSG}\\n"}' % work)
    return "\n".join([
        "sources:",
        '  - {name: net, type: tcp, bind: "127.0.0.1:%d", max-connections: 100}' % port,
        "pipeline: {ring-size: 4096, parse-workers: 1}",
        "monitoring: {http: {bind: 127.0.0.1, port: %d}}" % hport,
        "routes:", *routes, "sinks:", *sinks, ""])


def written(hport):
    with urllib.request.urlopen("http://127.0.0.1:%d/metrics" % hport, timeout=2) as r:
        for line in r.read().decode().splitlines():
            if line.startswith('logrouter_sink_written_total{sink="all"}'):
                return int(float(line.split()[-1]))
    return None


def wait_listening(port, secs):
    deadline = time.time() + secs
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return True
        except OSError:
            time.sleep(0.1)
    return False


def count_lines(path):
    n = 0
    with open(path, "rb") as f:
        while True:
            b = f.read(1 << 20)
            if not b:
                return n
            n += b.count(b"\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--secs", type=int, default=30)
    ap.add_argument("--reloads", default="12,17,22")
    ap.add_argument("--conns", type=int, default=10)
    ap.add_argument("--size", type=int, default=400)
    ap.add_argument("--jar", default=os.path.join(ROOT, "router-server/target/logrouter.jar"))
    ap.add_argument("--loggen", default="/usr/bin/loggen")
    ap.add_argument("--keep", action="store_true")
    a = ap.parse_args()
    at = [float(x) for x in a.reloads.split(",")]
    work = tempfile.mkdtemp(prefix="reload-bench-")
    port, hport = free_port(), free_port()
    cfg = os.path.join(work, "router.yaml")
    # loggen's messages are auth.info: neither filter takes them, so the W2 file is the one sink writing, before,
    # between and after the reloads
    configs = [config(work, port, hport, True, 'level(err..emerg)'),
               config(work, port, hport, True, 'level(crit..emerg)'),
               config(work, port, hport, False, 'level(crit..emerg)')]
    with open(cfg, "w") as f:
        f.write(config(work, port, hport, False, 'level(err..emerg)'))
    log = open(os.path.join(work, "router.log"), "w")
    router = subprocess.Popen(["java", "-jar", a.jar, "run", "--config", cfg], cwd=work, stdout=log,
                              stderr=subprocess.STDOUT)
    rc = 1
    try:
        if not wait_listening(port, 60):
            sys.exit("router did not listen")
        lg = subprocess.Popen([a.loggen, "-S", "-r", "100000000", "-I", str(a.secs),
                               "--active-connections=%d" % a.conns, "-s", str(a.size), "127.0.0.1", str(port)],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        t0 = time.monotonic()
        samples = []
        done = []
        nxt = t0
        while lg.poll() is None:
            now = time.monotonic()
            if len(done) < len(at) and now - t0 >= at[len(done)]:
                with open(cfg, "w") as f:
                    f.write(configs[len(done)])
                router.send_signal(signal.SIGHUP)
                done.append(now - t0)
            samples.append((now - t0, written(hport)))
            nxt += 0.1
            time.sleep(max(0.0, nxt - time.monotonic()))
        out = lg.stdout.read()
        m = re.findall(r"average rate = .*count=(\d+)", out)
        sent = int(m[-1]) if m else None  # loggen's closing line has its total
        with open(os.path.join(work, "loggen.out"), "w") as f:
            f.write(out)
        deadline = time.time() + 120
        while time.time() < deadline and written(hport) != sent:
            time.sleep(0.2)
        delivered = written(hport)
        router.send_signal(signal.SIGTERM)
        rc = router.wait(120)
        in_file = count_lines(os.path.join(work, "all.log"))
        with open(os.path.join(work, "samples.csv"), "w") as f:
            f.write("t_s,written\n")
            for t, w in samples:
                f.write("%.3f,%s\n" % (t, w))
        rates = [((samples[i][0] + samples[i - 1][0]) / 2,
                  (samples[i][1] - samples[i - 1][1]) / (samples[i][0] - samples[i - 1][0]))
                 for i in range(1, len(samples)) if samples[i][1] is not None and samples[i - 1][1] is not None]
        before = statistics.median(r for t, r in rates if 5 <= t < done[0] - 0.2)  # after the JIT's warm-up
        after = statistics.median(r for t, r in rates if done[-1] + 2 <= t < a.secs - 0.5)
        with open(os.path.join(work, "router.log")) as f:
            applied = re.findall(r"reloaded in (\d+) ms", f.read())
        print("work dir: %s" % work)
        print("loggen: %d connections x %d B, %d s; sent %s, delivered %s, lines in the file %d, router exit %d"
              % (a.conns, a.size, a.secs, sent, delivered, in_file, rc))
        print("median rate before the first reload: %.0f msg/s; after the last: %.0f msg/s (ratio %.3f)"
              % (before, after, after / before))
        steady = [(t, r) for t, r in rates if 5 <= t < done[0] - 0.2]
        noise = 100.0 * sum(1 for t, r in steady if r < 0.8 * before) / len(steady)
        print("noise: %.0f %% of the 100 ms samples before the first reload (no reload) are below 80 %% of its median"
              % noise)

        def over(t1, t2):  # msg/s written between t1 and t2 (nearest samples)
            a1 = min(samples, key=lambda x: abs(x[0] - t1))
            a2 = min(samples, key=lambda x: abs(x[0] - t2))
            return (a2[1] - a1[1]) / (a2[0] - a1[0])

        for k, tr in enumerate(done):
            window = [(t, r) for t, r in rates if tr <= t <= tr + 3]
            low = min(r for t, r in window)
            below = sum(1 for t, r in window if r < 0.8 * before) * 100
            print("reload %d at %.1f s: applied in %s ms; rate over the 1 s after it %.2f of before, over 3 s %.2f "
                  "(the 3 s before it: %.2f); lowest 100 ms rate %.2f; %d ms of the 3 s below 80%%"
                  % (k + 1, tr, applied[k] if k < len(applied) else "?", over(tr, tr + 1) / before,
                     over(tr, tr + 3) / before, over(tr - 3, tr) / before, low / before, below))
        ok = sent is not None and sent == delivered == in_file and rc == 0 and len(applied) == len(at)
        print("result: %s" % ("ok (zero loss)" if ok else "FAILED"))
        return 0 if ok else 1
    finally:
        if router.poll() is None:
            router.kill()
        if not a.keep and rc == 0:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())

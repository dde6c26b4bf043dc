package dev.logrouter.bench.jvm;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/** JvmSample against this JVM's own MBeans: what a thread allocates shows in the total and in its group. */
class JvmSampleTest {

    private static Map<String, Long> parse(String line) {
        Map<String, Long> m = new HashMap<>();
        for (String kv : line.split(" ")) {
            String[] p = kv.split("=");
            m.put(p[0], Long.parseLong(p[1]));
        }
        return m;
    }

    @Test
    void bytesAThreadAllocatesCountInTheTotalAndInItsThreadGroup() throws Exception {
        Map<String, Long> before = parse(JvmSample.sample(ManagementFactory.getPlatformMBeanServer()));
        AtomicReference<byte[][]> keep = new AtomicReference<>();
        CountDownLatch allocated = new CountDownLatch(1);
        CountDownLatch sampled = new CountDownLatch(1);
        Thread parse = new Thread(() -> {
            byte[][] chunks = new byte[64][];
            for (int i = 0; i < chunks.length; i++) {
                chunks[i] = new byte[256 * 1024]; // 16 MiB in all
            }
            keep.set(chunks);
            allocated.countDown();
            try {
                sampled.await(30, TimeUnit.SECONDS); // alive while sampled: only live threads are split by name
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "parse-test");
        parse.setDaemon(true);
        parse.start();
        assertThat(allocated.await(30, TimeUnit.SECONDS)).isTrue();
        Map<String, Long> after;
        try {
            after = parse(JvmSample.sample(ManagementFactory.getPlatformMBeanServer()));
        } finally {
            sampled.countDown();
        }
        parse.join();

        assertThat(keep.get().length).isEqualTo(64);
        assertThat(after.get("alloc_bytes") - before.get("alloc_bytes")).isGreaterThanOrEqualTo(16L << 20);
        assertThat(after.get("parse") - before.get("parse")).isBetween(16L << 20, 17L << 20);
        assertThat(after.get("gc_count")).isGreaterThanOrEqualTo(before.get("gc_count"));
        assertThat(after.keySet()).containsExactlyInAnyOrder("gc_count", "gc_ms", "alloc_bytes", "io", "parse",
                "sink", "other");
    }

    @Test
    void threadNamesGroupAsTheHarnessGroupsCpu() {
        assertThat(JvmSample.group("io-tcp-1")).isEqualTo("io");
        assertThat(JvmSample.group("parse-0")).isEqualTo("parse");
        assertThat(JvmSample.group("serial-correlation")).isEqualTo("parse");
        assertThat(JvmSample.group("sink-out")).isEqualTo("sink");
        assertThat(JvmSample.group("deliver-out")).isEqualTo("sink");
        assertThat(JvmSample.group("main")).isEqualTo("other");
    }
}

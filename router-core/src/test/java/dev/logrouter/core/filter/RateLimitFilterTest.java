package dev.logrouter.core.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.util.Clock;

import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code rate-limit()} on events parsed from real syslog lines, with a manual clock: the burst, the refill, keys,
 * the bound on keys, the counters, and one bucket table shared by the filters of every worker thread.
 */
class RateLimitFilterTest {

    private final AtomicLong now = new AtomicLong(1_000_000_000_000L);
    private final Clock clock = now::get;
    private final MetricGroup metrics = new MetricGroup("Route", "limited");
    private ExecutorService pool;

    @AfterEach
    void stopPool() throws InterruptedException {
        if (pool != null) {
            pool.shutdownNow();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    private FilterExpression compile(String text) {
        return FilterExpression.compile(text, Map.of(), metrics, ZoneOffset.UTC, clock);
    }

    private void advanceMillis(long ms) {
        now.addAndGet(ms * 1_000_000L);
    }

    private static int passes(Filter f, LogEvent e, int tries) {
        int n = 0;
        for (int i = 0; i < tries; i++) {
            if (f.test(e)) {
                n++;
            }
        }
        return n;
    }

    @Test
    void aFullBucketOfRateTokensThenRateTokensPerSecond() {
        Filter f = compile("rate-limit(key(\"$HOST\") rate(3))").newFilter();
        LogEvent web1 = FilterExpressionTest.event(FilterExpressionTest.SSHD);
        assertThat(passes(f, web1, 10)).isEqualTo(3);
        advanceMillis(333);
        assertThat(passes(f, web1, 10)).as("0.999 tokens after 333 ms").isZero();
        advanceMillis(1);
        assertThat(passes(f, web1, 10)).as("one token after 334 ms").isEqualTo(1);
        advanceMillis(500); // 1.5 tokens: one now, the half is kept
        assertThat(passes(f, web1, 10)).isEqualTo(1);
        advanceMillis(167);
        assertThat(passes(f, web1, 10)).as("the kept half plus 0.5").isEqualTo(1);
        advanceMillis(60_000);
        assertThat(passes(f, web1, 10)).as("the burst is the rate, however long the pause").isEqualTo(3);
        assertThat(metrics.value(RateLimitFilter.PASSED)).isEqualTo(9);
        assertThat(metrics.value(RateLimitFilter.REJECTED)).isEqualTo(51);
        assertThat(metrics.value(RateLimitFilter.OVERFLOW)).isZero();
    }

    @Test
    void eachKeyHasItsOwnBucketAndNoKeyMeansOneBucket() {
        Filter byHost = compile("rate-limit(key(\"${HOST}\") rate(2))").newFilter();
        LogEvent web1 = FilterExpressionTest.event(FilterExpressionTest.SSHD);
        LogEvent db2 = FilterExpressionTest.event(FilterExpressionTest.POSTGRES);
        assertThat(passes(byHost, web1, 5)).isEqualTo(2);
        assertThat(passes(byHost, db2, 5)).isEqualTo(2);
        Filter shared = compile("throttle(rate(2))").newFilter();
        assertThat(passes(shared, web1, 5) + passes(shared, db2, 5)).isEqualTo(2);
        // a rendered template (syslog-ng's older template() spelling) is a key too
        Filter composite = compile("rate_limit(template(\"${HOST}/${PROGRAM}\") rate(1))").newFilter();
        assertThat(passes(composite, web1, 3)).isEqualTo(1);
        assertThat(passes(composite, db2, 3)).isEqualTo(1);
    }

    @Test
    void onlyEvaluatedRateLimitsTakeTokens() {
        Filter f = compile("program(postgres) and rate-limit(rate(1))").newFilter();
        LogEvent sshd = FilterExpressionTest.event(FilterExpressionTest.SSHD);
        LogEvent postgres = FilterExpressionTest.event(FilterExpressionTest.POSTGRES);
        assertThat(passes(f, sshd, 5)).isZero();
        assertThat(passes(f, postgres, 5)).isEqualTo(1);
        assertThat(metrics.value(RateLimitFilter.PASSED) + metrics.value(RateLimitFilter.REJECTED)).isEqualTo(5);
    }

    @Test
    void theFiltersOfEveryWorkerShareTheBuckets() throws Exception {
        FilterExpression x = compile("rate-limit(key(\"$HOST\") rate(1000))");
        int threads = 4;
        pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Integer>> results = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Filter f = x.newFilter();
            LogEvent e = FilterExpressionTest.event(FilterExpressionTest.SSHD);
            Callable<Integer> worker = () -> {
                start.await();
                return passes(f, e, 5_000);
            };
            results.add(pool.submit(worker));
        }
        start.countDown();
        int total = 0;
        for (Future<Integer> r : results) {
            total += r.get(30, TimeUnit.SECONDS);
        }
        assertThat(total).as("one bucket of 1000 tokens for all four workers (the clock stands still)")
                .isEqualTo(1000);
        assertThat(metrics.value(RateLimitFilter.REJECTED)).isEqualTo(threads * 5_000 - 1000);
    }

    @Test
    void keysBeyondMaxKeysShareTheOverflowBucketUntilIdleKeysAreForgotten() {
        FilterExpression x = compile("rate-limit(key(\"$HOST\") rate(2) max-keys(2))");
        Filter f = x.newFilter();
        LogEvent web1 = FilterExpressionTest.event(FilterExpressionTest.SSHD);
        LogEvent db2 = FilterExpressionTest.event(FilterExpressionTest.POSTGRES);
        LogEvent mx1 = FilterExpressionTest.event(FilterExpressionTest.POSTFIX);
        LogEvent fw1 = FilterExpressionTest.event(FilterExpressionTest.KERNEL);
        assertThat(passes(f, web1, 1)).isEqualTo(1);
        assertThat(passes(f, db2, 1)).isEqualTo(1);
        // the table is full: mx1 and fw1 share one overflow bucket of 2 tokens
        assertThat(passes(f, mx1, 3) + passes(f, fw1, 3)).isEqualTo(2);
        assertThat(metrics.value(RateLimitFilter.OVERFLOW)).isEqualTo(6);
        // the known keys keep their own buckets
        assertThat(passes(f, web1, 3)).isEqualTo(1);
        RateLimitTable table = ((RateLimitFilter) x.root()).table();
        assertThat(table.keys()).isEqualTo(2);
        // a second later web1 and db2 are idle (full buckets, like new ones): a new key sweeps them out
        advanceMillis(1000);
        assertThat(passes(f, mx1, 3)).isEqualTo(2);
        assertThat(table.keys()).isEqualTo(1);
        assertThat(metrics.value(RateLimitFilter.OVERFLOW)).isEqualTo(6);
        assertThat(passes(f, web1, 3)).as("a forgotten key starts with a full bucket").isEqualTo(2);
        assertThat(table.keys()).isEqualTo(2);
    }

    @Test
    void describeShowsTheOptions() {
        assertThat(compile("rate-limit(key(\"$HOST\") rate(5))").describe())
                .isEqualTo("rate-limit(key(\"$HOST\") rate(5))");
        assertThat(compile("throttle(rate(5) max-keys(7))").describe()).isEqualTo("rate-limit(rate(5) max-keys(7))");
    }

    @Test
    void badOptionsFailWithTheColumn() {
        fails("rate-limit(key(\"$HOST\"))", "column 24:", "rate-limit() needs rate(N)");
        fails("rate-limit(rate(0))", "column 17:", "rate() must be a whole number from 1 to 2147483647, found '0'");
        fails("rate-limit(rate(-5))", "column 17:", "found '-5'");
        fails("rate-limit(rate(1.5))", "column 17:", "found '1.5'");
        fails("rate-limit(rate(99999999999))", "column 17:", "rate() must be a whole number");
        fails("rate-limit(rate(5) max-keys(0))", "column 29:", "max-keys() must be a whole number");
        fails("rate-limit(rate(5) burst(9))", "column 20:", "unknown option 'burst' of rate-limit()");
        fails("rate-limit(rate(5) key(\"${HOST\"))", "column 24:", "bad key()");
        fails("rate-limit(rate(5)", "column 19:", "missing ')' for rate-limit(");
        fails("throttle(5)", "column 10:", "unexpected '5' in throttle()");
    }

    private void fails(String text, String... fragments) {
        var thrown = assertThatThrownBy(() -> compile(text)).isInstanceOf(IllegalArgumentException.class);
        for (String f : fragments) {
            thrown.hasMessageContaining(f);
        }
    }
}

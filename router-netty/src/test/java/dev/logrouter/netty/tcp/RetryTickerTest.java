package dev.logrouter.netty.tcp;

import dev.logrouter.core.testing.Conditions;
import io.netty.channel.DefaultEventLoop;
import io.netty.util.concurrent.EventExecutor;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** The per-event-loop retry clock on a real Netty event loop. */
class RetryTickerTest {

    private static DefaultEventLoop loop;

    @BeforeAll
    static void start() {
        loop = new DefaultEventLoop();
    }

    @AfterAll
    static void stop() {
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private static <T> T onLoop(Callable<T> c) throws Exception {
        return loop.submit(c).get(10, TimeUnit.SECONDS);
    }

    private static boolean ticking(EventExecutor l) throws Exception {
        return onLoop(() -> RetryTicker.of(l).ticking());
    }

    @Test
    void eachWaitingRetryRunsOnceATickUntilNoneAsksAgainThenTheClockStops() throws Exception {
        AtomicInteger a = new AtomicInteger();
        AtomicInteger b = new AtomicInteger();
        onLoop(() -> {
            RetryTicker t = RetryTicker.of(loop);
            assertThat(t).isSameAs(RetryTicker.of(loop)); // one per event loop
            t.next(a::incrementAndGet);
            t.next(new Runnable() { // asks for two more ticks
                @Override
                public void run() {
                    if (b.incrementAndGet() < 3) {
                        RetryTicker.of(loop).next(this);
                    }
                }
            });
            assertThat(t.ticking()).isTrue();
            return null;
        });
        assertThat(Conditions.await(() -> b.get() == 3, Duration.ofSeconds(10))).isTrue();
        assertThat(Conditions.await(() -> {
            try {
                return !ticking(loop);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, Duration.ofSeconds(10))).isTrue();
        assertThat(a.get()).isEqualTo(1);
        assertThat(b.get()).isEqualTo(3);
    }

    @Test
    void aRetryThatThrowsDoesNotStopTheOthersOrTheClock() throws Exception {
        AtomicInteger after = new AtomicInteger();
        AtomicInteger later = new AtomicInteger();
        onLoop(() -> {
            RetryTicker t = RetryTicker.of(loop);
            t.next(() -> {
                throw new IllegalStateException("a bug in a retry (expected by the test)");
            });
            t.next(() -> {
                if (after.incrementAndGet() == 1) {
                    RetryTicker.of(loop).next(after::incrementAndGet);
                }
            });
            return null;
        });
        assertThat(Conditions.await(() -> after.get() == 2, Duration.ofSeconds(10))).isTrue();
        onLoop(() -> {
            RetryTicker.of(loop).next(later::incrementAndGet);
            return null;
        });
        assertThat(Conditions.await(() -> later.get() == 1, Duration.ofSeconds(10))).isTrue();
    }
}

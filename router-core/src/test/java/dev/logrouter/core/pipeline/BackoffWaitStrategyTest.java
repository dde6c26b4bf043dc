package dev.logrouter.core.pipeline;

import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.SequenceBarrier;
import com.lmax.disruptor.TimeoutException;
import dev.logrouter.core.testing.Conditions;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The backoff strategy's two modes, on a real ring and barrier: a stage that had to park parks at once on its
 * next wait, and goes back to spinning first when a wait finds a full batch waiting. The test thread is the
 * waiting stage; a second thread publishes while it is parked.
 */
class BackoffWaitStrategyTest {

    private static final long TICK_MS = 5;

    private final BackoffWaitStrategy strategy = new BackoffWaitStrategy(TimeUnit.SECONDS.toNanos(30),
            TimeUnit.SECONDS.toNanos(30), TimeUnit.MILLISECONDS.toNanos(TICK_MS), TimeUnit.NANOSECONDS);
    private final RingBuffer<long[]> ring = RingBuffer.createMultiProducer(() -> new long[1], 1024, strategy);
    private final SequenceBarrier barrier = ring.newBarrier();

    @Test
    void aStageStartsBySpinningAndParksFirstOnceItHadToPark() throws Exception {
        assertThat(strategy.parksFirst()).isFalse();
        ring.publish(ring.next());
        assertThat(barrier.waitFor(0)).isEqualTo(0);
        assertThat(strategy.parksFirst()).as("work was there: no park").isFalse();

        assertThatThrownBy(() -> barrier.waitFor(1)).isInstanceOf(TimeoutException.class);
        assertThat(strategy.parksFirst()).as("the idle wait parked").isTrue();
    }

    @Test
    void aParkFirstWaitThatFindsAFullBatchGoesBackToSpinningFirst() throws Exception {
        becomeParkFirst();
        long found = waitWhileAnotherThreadPublishes(BackoffWaitStrategy.BUSY_BATCH);
        assertThat(found).isEqualTo(BackoffWaitStrategy.BUSY_BATCH);
        assertThat(strategy.parksFirst()).as("a full batch: spin first again").isFalse();
    }

    @Test
    void aParkFirstWaitThatFindsFewerEventsKeepsParkingFirst() throws Exception {
        becomeParkFirst();
        long found = waitWhileAnotherThreadPublishes(BackoffWaitStrategy.BUSY_BATCH - 1);
        assertThat(found).isEqualTo(BackoffWaitStrategy.BUSY_BATCH - 1);
        assertThat(strategy.parksFirst()).as("a small batch: keep parking first").isTrue();
    }

    @Test
    void aParkFirstStageThatFindsAFewEventsWithoutWaitingKeepsParkingFirst() throws Exception {
        becomeParkFirst();
        ring.publish(ring.next());
        assertThat(barrier.waitFor(1)).isEqualTo(1);
        assertThat(strategy.parksFirst()).isTrue();
    }

    @Test
    void withoutAnIdleParkAStageAlwaysSpinsFirst() {
        BackoffWaitStrategy spinning = new BackoffWaitStrategy(0, 10, TICK_MS, TimeUnit.MILLISECONDS);
        RingBuffer<long[]> r = RingBuffer.createMultiProducer(() -> new long[1], 64, spinning);
        assertThatThrownBy(() -> r.newBarrier().waitFor(0)).isInstanceOf(TimeoutException.class);
        assertThat(spinning.parksFirst()).isFalse();
    }

    /** An idle wait on sequence 1 (0 is published and consumed first): the thread then parks first. */
    private void becomeParkFirst() throws Exception {
        ring.publish(ring.next());
        barrier.waitFor(0);
        assertThatThrownBy(() -> barrier.waitFor(1)).isInstanceOf(TimeoutException.class);
        assertThat(strategy.parksFirst()).isTrue();
    }

    /**
     * Waits for sequence 1 while a second thread, once this one is parked in the wait, publishes {@code count}
     * events and unparks it; returns the number of events the wait found (sequence 1 onwards).
     */
    private long waitWhileAnotherThreadPublishes(int count) throws Exception {
        Thread waiter = Thread.currentThread();
        CompletableFuture<Void> published = new CompletableFuture<>();
        Thread publisher = new Thread(() -> {
            if (!Conditions.await(() -> waiter.getState() == Thread.State.TIMED_WAITING, Duration.ofSeconds(10))) {
                published.completeExceptionally(new AssertionError("the waiter never parked"));
                return;
            }
            long hi = ring.next(count);
            ring.publish(hi - count + 1, hi);
            LockSupport.unpark(waiter);
            published.complete(null);
        }, "publisher");
        publisher.setDaemon(true);
        publisher.start();
        long available = barrier.waitFor(1);
        published.get(10, TimeUnit.SECONDS);
        return available;
    }
}

package dev.logrouter.core.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * The pure flush decision of {@link FlushPolicy}, driven with clock readings chosen by the test.
 */
class FlushPolicyTest {

    /** 10 events, 1000 bytes, 50 ns of linger. */
    private final FlushPolicy policy = new FlushPolicy(10, 1000, 50);

    /** A clock reading far from zero, so that no test passes by accident around 0. */
    private static final long T0 = 1_000_000_000_000L;

    @Test
    void countLimit() {
        assertThat(policy.shouldFlush(9, 100, T0, T0, false)).isFalse();
        assertThat(policy.shouldFlush(10, 100, T0, T0, false)).isTrue();
        assertThat(policy.shouldFlush(11, 100, T0, T0, false)).isTrue();
    }

    @Test
    void bytesLimit() {
        assertThat(policy.shouldFlush(1, 999, T0, T0, false)).isFalse();
        assertThat(policy.shouldFlush(1, 1000, T0, T0, false)).isTrue();
        assertThat(policy.shouldFlush(1, 5000, T0, T0, false)).isTrue();
    }

    @Test
    void ageWithAManualClock() {
        long first = T0;
        assertThat(policy.shouldFlush(3, 30, first, first, false)).isFalse();
        assertThat(policy.shouldFlush(3, 30, first, first + 49, false)).isFalse();
        assertThat(policy.shouldFlush(3, 30, first, first + 50, false)).isTrue();
        assertThat(policy.shouldFlush(3, 30, first, first + 1_000, false)).isTrue();
        assertThat(policy.deadline(first)).isEqualTo(first + 50);
    }

    @Test
    void ageAcrossTheWrapOfNanoTime() {
        // System.nanoTime() may be negative and may wrap: only the difference counts
        long first = Long.MAX_VALUE - 10;
        assertThat(policy.shouldFlush(1, 1, first, first + 49, false)).isFalse();
        assertThat(policy.shouldFlush(1, 1, first, first + 50, false)).isTrue();
        assertThat(policy.shouldFlush(1, 1, -100, -60, false)).isFalse();
        assertThat(policy.shouldFlush(1, 1, -100, -50, false)).isTrue();
    }

    @Test
    void endOfBatchFlushesAnythingPending() {
        assertThat(policy.shouldFlush(1, 1, T0, T0, true)).isTrue();
        assertThat(policy.shouldFlush(1, 1, T0, T0, false)).isFalse();
    }

    @Test
    void zeroEventsNeverFlush() {
        assertThat(policy.shouldFlush(0, 0, T0, T0, true)).isFalse();
        assertThat(policy.shouldFlush(0, 5000, T0, T0 + 1_000_000, true)).isFalse();
    }

    @Test
    void limitsMustBePositive() {
        assertThatThrownBy(() -> new FlushPolicy(0, 1, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("batch-size must be >= 1, got 0");
        assertThatThrownBy(() -> new FlushPolicy(1, 0, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("batch-bytes must be >= 1, got 0");
    }
}

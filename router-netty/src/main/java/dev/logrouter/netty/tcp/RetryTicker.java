package dev.logrouter.netty.tcp;

import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.FastThreadLocal;
import io.netty.util.concurrent.ScheduledFuture;

import java.lang.System.Logger;
import java.util.ArrayList;
import java.util.concurrent.TimeUnit;

/**
 * The retry clock of the paused connections of one event loop: one periodic task that ticks every
 * {@value #TICK_MICROS} µs while some connection of that loop waits for room in the ring, and calls each waiting
 * connection's retry once per tick. One scheduled task per pause episode of the loop instead of one per connection
 * and retry: at full speed a source spends much of its time paused, and a task per 200 µs and connection was most
 * of the event loop's allocation (measured with e2e.sh {@code JFR=1}: {@code ScheduledFutureTask} from each retry).
 *
 * <p>Threads: one instance per event-loop thread ({@link #of}), used only on that thread.
 */
final class RetryTicker implements Runnable {

    /** How often a paused connection looks at the ring again. */
    static final long TICK_MICROS = 200;

    private static final Logger LOG = System.getLogger(RetryTicker.class.getName());
    private static final FastThreadLocal<RetryTicker> TICKERS = new FastThreadLocal<>();

    private final EventExecutor loop;
    /** Connections that want the next tick. */
    private ArrayList<Runnable> waiting = new ArrayList<>();
    /** The ones this tick is calling (swapped with {@link #waiting}, so a retry may ask for the next tick). */
    private ArrayList<Runnable> calling = new ArrayList<>();
    private ScheduledFuture<?> tick;

    private RetryTicker(EventExecutor loop) {
        this.loop = loop;
    }

    /** The ticker of {@code loop}, whose thread must be the caller's. */
    static RetryTicker of(EventExecutor loop) {
        RetryTicker t = TICKERS.get();
        if (t == null || t.loop != loop) {
            t = new RetryTicker(loop);
            TICKERS.set(t);
        }
        return t;
    }

    /** Calls {@code retry} once at the next tick (within {@value #TICK_MICROS} µs), starting the clock if stopped. */
    void next(Runnable retry) {
        waiting.add(retry);
        if (tick == null) {
            // with a fixed delay, not rate: after a stall the ticks do not run back to back to catch up
            tick = loop.scheduleWithFixedDelay(this, TICK_MICROS, TICK_MICROS, TimeUnit.MICROSECONDS);
        }
    }

    /** True while the clock runs (some connection waits for a tick). */
    boolean ticking() {
        return tick != null;
    }

    /** One tick: every waiting connection's retry; the clock stops when none asked for another. */
    @Override
    public void run() {
        ArrayList<Runnable> now = waiting;
        waiting = calling;
        calling = now;
        for (int i = 0; i < now.size(); i++) {
            try {
                now.get(i).run();
            } catch (RuntimeException | Error e) {
                // a bug; the other connections' retries and the clock go on (a periodic task that throws is not
                // run again by Netty, which would leave every paused connection of this loop waiting forever)
                LOG.log(Logger.Level.ERROR, "retry of a paused connection failed", e);
            }
        }
        now.clear();
        if (waiting.isEmpty() && tick != null) {
            tick.cancel(false);
            tick = null;
        }
    }
}

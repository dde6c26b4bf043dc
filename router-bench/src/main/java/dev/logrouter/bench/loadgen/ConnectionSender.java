package dev.logrouter.bench.loadgen;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.CountDownLatch;

/**
 * Sends the messages of one connection on its own thread: batch, stamp, pace, write, until its count or the
 * end time is reached, {@link #stop()} is called, or the connection fails.
 *
 * <p>Constructed (and connected) on the main thread, then run by exactly one sender thread. {@link #sent()},
 * {@link #error()} and {@link #finishedNanos()} may be read from any thread.
 */
abstract class ConnectionSender implements Runnable {

    private final MessageBatch batch;
    private final long count;
    private final double perSecond;
    private volatile long sent;
    private volatile Throwable error;
    private volatile boolean stopped;
    private volatile long finishedNanos;
    private CountDownLatch startSignal;
    private long startNanos;
    private long endNanos;

    /**
     * @param count     messages to send, 0 = until the end time
     * @param perSecond messages per second for this connection, 0 = unlimited
     */
    ConnectionSender(MessageBatch batch, long count, double perSecond) {
        this.batch = batch;
        this.count = count;
        this.perSecond = perSecond;
    }

    /** Sets when to start (after {@code startSignal}, at {@code startNanos}) and when to stop at the latest. */
    final void schedule(CountDownLatch startSignal, long startNanos, long endNanos) {
        this.startSignal = startSignal;
        this.startNanos = startNanos;
        this.endNanos = endNanos;
    }

    @Override
    public final void run() {
        long seq = 0;
        try {
            startSignal.await();
            Pacer pacer = new Pacer(perSecond, startNanos, System::nanoTime);
            while (!stopped) {
                int max = batch.capacity();
                if (count > 0) {
                    long remaining = count - seq;
                    if (remaining <= 0) {
                        break;
                    }
                    max = (int) Math.min(max, remaining);
                }
                if (System.nanoTime() - endNanos >= 0) {
                    break;
                }
                int n = pacer.await(seq, max, endNanos);
                if (n == 0) {
                    break;
                }
                write(batch.fill(seq, n, System.currentTimeMillis()), n, batch.frameSize());
                seq += n;
                sent = seq;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException | RuntimeException e) {
            if (!stopped) {
                error = e;
            }
        } finally {
            finishedNanos = System.nanoTime();
            closeQuietly();
        }
    }

    /** Writes all {@code n} frames of {@code frames} (position 0, limit {@code n * frameSize}). */
    abstract void write(ByteBuffer frames, int n, int frameSize) throws IOException;

    /** Closes the connection; a write blocked in another thread fails with an asynchronous-close error. */
    abstract void close() throws IOException;

    /** Asks the sender to stop and closes its connection (used on the hard timeout). */
    final void stop() {
        stopped = true;
        closeQuietly();
    }

    private void closeQuietly() {
        try {
            close();
        } catch (IOException ignored) {
            // nothing left to report: the connection is finished either way
        }
    }

    /** Messages fully handed to the kernel so far. */
    final long sent() {
        return sent;
    }

    /** The failure that ended this sender, or null. */
    final Throwable error() {
        return error;
    }

    /** {@code System.nanoTime()} when the sender finished, 0 while running. */
    final long finishedNanos() {
        return finishedNanos;
    }
}

package dev.logrouter.netty.relay;

import io.netty.channel.Channel;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One destination of a syslog sink and its connection: down (with the time of the next try, after a capped
 * exponential backoff), connecting, or up. A connection that the peer closed while idle is reconnected at once;
 * one that failed (connect, handshake, write) is tried again after the backoff, which doubles with each failure in a
 * row and starts afresh once a batch was written (not at a connect: a host that accepts and then fails every write
 * backs off too). Every failure is this host's own: {@link #poll} reports a failed connect as a checked
 * {@link ConnectFailure} (never an unchecked exception), and the host is then down until its backoff passed.
 * {@link #upSinceNanos} tells how long the host has been reachable without a failure (failover's failback waits
 * for it).
 *
 * <p>Threads: the sink's thread; {@link #describe()} from any (JMX).
 */
final class RelayHost {

    private final Destination destination;
    private final int index;
    private final long minDelayNanos;
    private final long maxDelayNanos;

    private Channel channel;
    private CompletableFuture<Channel> connecting;
    private long retryAtNanos;
    private long delayNanos;
    /** When the host last became reachable after a failure (a clean close by the peer keeps it); -1 while down. */
    private long upSinceNanos = -1;
    private volatile String state = "not connected";
    private volatile boolean up;

    RelayHost(Destination destination, int index, long minDelayNanos, long maxDelayNanos, long nowNanos) {
        this.destination = destination;
        this.retryAtNanos = nowNanos;
        this.index = index;
        this.minDelayNanos = minDelayNanos;
        this.maxDelayNanos = maxDelayNanos;
    }

    Destination destination() {
        return destination;
    }

    int index() {
        return index;
    }

    /** The open connection, or null (none yet, or the peer closed it: then it is due for a reconnect at once). */
    Channel channel(long nowNanos) {
        if (channel != null && !channel.isActive()) {
            Throwable cause = channel.attr(RelayConnector.CLOSE_CAUSE).get();
            channel = null;
            up = false;
            if (cause != null) { // a reset, a TLS alert, an ICMP unreachable: a failure, with backoff
                failed("closed by an error: " + describe(cause), nowNanos);
            } else {
                retryAtNanos = nowNanos; // a clean close while idle (the peer's idle timeout): reconnect now
                state = "closed by the peer; reconnecting";
            }
        }
        return channel;
    }

    boolean connecting() {
        return connecting != null;
    }

    /** True when a connect may start now: not up, not connecting, and the backoff has passed. */
    boolean due(long nowNanos) {
        return channel == null && connecting == null && nowNanos - retryAtNanos >= 0;
    }

    /** Starts connecting; counted in {@code connects} when it succeeds ({@link #poll}). */
    void startConnect(RelayConnector connector) {
        state = "connecting";
        connecting = connector.connect(destination);
    }

    /**
     * Waits up to {@code waitNanos} for a connect in progress. Returns the channel once up; null while still
     * connecting; throws the connect's failure (the host is then down, its retry scheduled).
     */
    Channel poll(long waitNanos, long nowNanos) throws ConnectFailure {
        if (connecting == null) {
            return channel;
        }
        Channel ch;
        try {
            if (waitNanos <= 0) {
                if (!connecting.isDone()) {
                    return null;
                }
                ch = connecting.get(); // done: returns or throws at once
            } else {
                ch = connecting.get(waitNanos, TimeUnit.NANOSECONDS);
            }
        } catch (TimeoutException e) {
            return null;
        } catch (ExecutionException | CancellationException e) {
            connecting = null;
            Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            String why = describe(cause);
            failed("connect failed: " + why, nowNanos);
            throw new ConnectFailure(destination + ": " + why, cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
        if (ch != null) {
            connecting = null;
            channel = ch;
            state = "up";
            up = true;
            if (upSinceNanos == -1) {
                upSinceNanos = nowNanos;
            }
            // for JMX at once; the sink's thread sees it at its next look (channel()). A host's next connection
            // starts only after this one closed, so this never marks a newer one down.
            ch.closeFuture().addListener(f -> up = false);
        }
        return ch;
    }

    /** When the host became reachable and has not failed since (clean closes by the peer do not count); -1: down. */
    long upSinceNanos() {
        return upSinceNanos;
    }

    /** A batch was written on this connection: the next failure starts the backoff afresh. */
    void wrote() {
        delayNanos = 0;
    }

    /** A write on the connection failed (or it was given up): closes it and schedules the next try. */
    void writeFailed(String why, long nowNanos) {
        closeChannel();
        failed("write failed: " + why, nowNanos);
    }

    private void failed(String why, long nowNanos) {
        upSinceNanos = -1;
        delayNanos = delayNanos == 0 ? minDelayNanos : Math.min(delayNanos * 2, maxDelayNanos);
        retryAtNanos = nowNanos + delayNanos;
        state = "down: " + why + " (next try " + TimeUnit.NANOSECONDS.toMillis(delayNanos) + " ms later)";
    }

    /** Closes the connection (not a failure: failback, or the sink closing). */
    void close(String why) {
        closeChannel();
        if (connecting != null) {
            CompletableFuture<Channel> c = connecting;
            connecting = null;
            c.thenAccept(Channel::close); // a connect that completes later closes at once
        }
        state = why;
    }

    private void closeChannel() {
        up = false;
        if (channel != null) {
            Channel ch = channel;
            channel = null;
            ch.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
    }

    /** True while the connection is open (as last seen by the sink's thread). Any thread. */
    boolean up() {
        return up;
    }

    /** The state for JMX: up, connecting, down with the reason and next try. Any thread. */
    String describe() {
        return destination + " " + state;
    }

    /** The exception and, when it has a cause, its root cause (a TLS handshake's "certificate not trusted"). */
    static String describe(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root == e ? String.valueOf(e) : e + " (" + root + ")";
    }

    /** A connect or TLS handshake that failed. */
    static final class ConnectFailure extends Exception {
        ConnectFailure(String message, Throwable cause) {
            super(message, cause);
        }
    }
}

package dev.logrouter.netty.tcp;

import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.netty.Peer;
import dev.logrouter.netty.RingPublisher;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.GlobalEventExecutor;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The connections of one stream listener, a TCP source or a unix-stream source: admission ({@link ConnectionLimiter}),
 * each connection's frame decoder ({@link FramingDetector}, {@link OctetCountingFrameDecoder} or
 * {@link LineFrameDecoder}) and {@link TcpPublishHandler}, their counters and gauges, and the clean stop: the listener
 * stays open until accepts go quiet, then open connections are read dry for as long as the sinks make room, up to the
 * router's {@code stop-timeout}; what is left then is closed and counted.
 *
 * <p>Threads: built on the thread that builds the source; {@link #acceptTracker()}'s handler and
 * {@link #initConnection} run on event loops; {@link #stopAccepting}, {@link #awaitPublished} and {@link #close} on
 * the controlling thread; the gauges on JMX threads.
 */
public final class StreamConnections {

    /** At a stop, the listener stays open until no connection was accepted for this long (at most ACCEPT_DRAIN_MAX). */
    static final long ACCEPT_QUIET_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
    static final long ACCEPT_DRAIN_MAX_NANOS = TimeUnit.SECONDS.toNanos(2);
    /** While the kernel says connections wait in the accept queue, the listener stays open at most this long. */
    static final long ACCEPT_QUEUE_MAX_NANOS = TimeUnit.SECONDS.toNanos(10);
    /** A connection that read nothing for this long during a clean stop has nothing more to give. */
    static final long QUIET_NANOS = TimeUnit.MILLISECONDS.toNanos(300);

    /** Set while a stop's quiet check of a connection waits on its event loop. */
    private static final AttributeKey<Boolean> QUIET_CHECK = AttributeKey.valueOf("logrouter.tcp.quietCheck");
    /** When a stop first looked at a connection, and its paused time then: the start of its drain-timeout. */
    /**
     * A connection that has not read a byte yet is quiet at a stop only after this long: a sender connects and then
     * writes, and a sender thread starved of CPU for a while between the two must not find its connection closed
     * with its data unread (which the kernel then drops with a reset, unseen by the sender).
     */
    static final long NEVER_READ_QUIET_NANOS = TimeUnit.SECONDS.toNanos(2);
    /** Set when a stop's check first found the connection quiet; it is closed only if the next check agrees. */
    private static final AttributeKey<Boolean> QUIET_SEEN = AttributeKey.valueOf("logrouter.tcp.quietSeen");
    private static final AttributeKey<long[]> DRAIN_START = AttributeKey.valueOf("logrouter.tcp.drainStart");

    /** When the last connection was accepted (System.nanoTime); written on the listener's event loop. */
    private volatile long lastAcceptNanos = System.nanoTime();
    /** The listener was closed (stopAccepting waits for queued connections only once). */
    private volatile boolean acceptStopped;
    /** Connections the listener accepted, and those that reached {@link #initConnection}: a stop waits for both. */
    private final AtomicLong acceptedByListener = new AtomicLong();
    private final AtomicLong initialized = new AtomicLong();
    /** A stop closed a connection that still had something to deliver. Written on event loops. */
    private volatile boolean abandonedAny;
    private final RingPublisher publisher;
    private final Framing framing;
    private final boolean nulEnds;
    private final int maxFrame;
    private final long idleNanos;
    private final long drainNanos;
    private final FramingCounters framingCounters;
    private final TcpSourceCounters counters;
    private final ConnectionLimiter limiter;
    private final TcpSourceState state = new TcpSourceState();
    private final ChannelGroup channels;

    /**
     * Registers the source's connection counters and gauges in {@code metrics}.
     *
     * @param kind           "TCP" or "Unix stream", for the counters' descriptions
     * @param maxPerIp       {@code max-connections-per-ip}; 0 = none; -1 = not applicable (a Unix socket has no
     *                       addresses), and {@code rejectedPerIpConnections} is not registered
     * @param nulEnds        with LF framing a NUL byte ends a frame too (unix-stream)
     * @param idleNanos      {@code idle-timeout}; 0 = none
     * @param drainNanos     {@code drain-timeout}
     */
    public StreamConnections(String kind, int maxConnections, int maxPerIp, Framing framing, boolean nulEnds,
                             int maxFrame, long idleNanos, long drainNanos, RingPublisher publisher,
                             MetricGroup metrics) {
        this.publisher = publisher;
        this.framing = framing;
        this.nulEnds = nulEnds;
        this.maxFrame = maxFrame;
        this.idleNanos = idleNanos;
        this.drainNanos = drainNanos;
        this.framingCounters = new FramingCounters(metrics);
        this.counters = new TcpSourceCounters(metrics, kind, maxPerIp >= 0);
        this.limiter = new ConnectionLimiter(maxConnections, Math.max(maxPerIp, 0), counters);
        this.channels = new DefaultChannelGroup(kind, GlobalEventExecutor.INSTANCE);
        metrics.gauge("connections", "Open " + kind + " connections.", limiter::open);
        metrics.gauge("pausedConnections", "Connections not reading now because the ring is nearly full "
                + "(flow control engaged).", state::pausedConnections);
        metrics.gauge("keptFrames", "Frames of closed connections waiting for ring space.", state::keptFrames);
    }

    /** The listener's handler: notes each accept, for the quiet wait of {@link #stopAccepting}. Sharable. */
    public ChannelHandler acceptTracker() {
        return new AcceptTracker();
    }

    /**
     * Builds the pipeline of an accepted connection: admits it (or closes it, counted, and returns false), then
     * {@code front} adds what comes before framing (TLS), then the frame decoder and the {@link TcpPublishHandler}
     * that publishes with {@code peer}. Called from a {@code ChannelInitializer}, on the connection's event loop.
     */
    public boolean initConnection(Channel ch, Peer peer, Consumer<ChannelPipeline> front) {
        if (!limiter.admit(ch)) {
            initialized.incrementAndGet();
            ch.close();
            return false;
        }
        channels.add(ch);
        initialized.incrementAndGet(); // after the add: a stop that sees the counts equal sees the connection
        ChannelPipeline p = ch.pipeline();
        TcpPublishHandler publish = new TcpPublishHandler(publisher, counters, state, peer, idleNanos);
        front.accept(p);
        switch (framing) {
            case octetCounted -> p.addLast("framing", new OctetCountingFrameDecoder(maxFrame, framingCounters, publish));
            case lf -> p.addLast("framing", new LineFrameDecoder(maxFrame, framingCounters, publish, nulEnds));
            default -> p.addLast("detect", new FramingDetector(maxFrame, framingCounters, publish, nulEnds));
        }
        p.addLast("publish", publish);
        return true;
    }

    /**
     * Closes the listener {@code server}: no new connections. Open connections go on until {@link #awaitPublished}.
     * Connections the kernel completed but the event loop has not accepted yet would be reset by the close, with
     * whatever their senders already wrote: so the listener first stays open until no connection was accepted for
     * 200 ms and the kernel's accept queue is empty (where Linux tells it: {@link KernelQueues}; at most 10 s, else
     * at most 2 s), whether or not flow control holds the source back; the ones it accepts are read dry like the
     * others.
     */
    public void stopAccepting(Channel server) {
        if (server != null && !acceptStopped) {
            acceptStopped = true;
            long start = System.nanoTime();
            while (!acceptQuiet(server, start)) {
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            server.close().syncUninterruptibly();
        }
    }

    /**
     * Whether no connection was accepted for {@link #ACCEPT_QUIET_NANOS} since {@code start} and none waits in the
     * kernel's accept queue (or the drain's maximum passed). Judged on the listener's event loop, which accepts what
     * the kernel queued before it runs a task: a loop too busy (or starved of CPU) to accept for a while does not
     * make the listener look quiet.
     */
    private boolean acceptQuiet(Channel server, long start) {
        try {
            boolean quiet = server.eventLoop().submit(() -> {
                long now = System.nanoTime();
                long accepted = lastAcceptNanos;
                long quietSince = accepted - start > 0 ? accepted : start;
                return now - quietSince >= ACCEPT_QUIET_NANOS || now - start >= ACCEPT_DRAIN_MAX_NANOS;
            }).get(ACCEPT_QUEUE_MAX_NANOS, TimeUnit.NANOSECONDS);
            if (!quiet) {
                return false;
            }
            // quiet by the clock: the kernel's accept queue must be empty too (read here, not on the event loop)
            long queued = KernelQueues.unread(server);
            if (queued > 0 && System.nanoTime() - start >= ACCEPT_QUEUE_MAX_NANOS) {
                counters.abandonedConnections.add(queued); // reset by the close, never read
                abandonedAny = true;
                return true;
            }
            return queued <= 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return true;
        } catch (ExecutionException | TimeoutException | RejectedExecutionException e) {
            return System.nanoTime() - start >= ACCEPT_DRAIN_MAX_NANOS;
        }
    }

    /**
     * Lets every open connection finish, then waits until everything read is in the ring, for at most
     * {@code timeout} (the router's {@code stop-timeout}). A connection is closed once the peer closed it or it has
     * been quiet (nothing read, not paused by flow control) for {@link #QUIET_NANOS}: what senders wrote before the
     * stop and sits in socket buffers is read and delivered. A connection that flow control holds back is not quiet
     * — it has unread data by definition — and waits as long as the sinks take to make room, up to {@code timeout}.
     * {@code drain-timeout} bounds only the time a connection spends reading (a sender that goes on writing after
     * the stop began): time paused does not count. What is still open at {@code timeout} is closed and counted
     * ({@code abandonedConnections}, {@code abandonedBytes}; its frames held back count as {@code abandoned} when the
     * source is closed).
     *
     * @return true when every connection finished and everything it read is in the ring, nothing abandoned
     */
    public boolean awaitPublished(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        long emptySince = 0;
        // a connection accepted just before the listener closed joins the group a little later: wait for it too
        // (at most 2 s: a child whose registration failed never does)
        while (System.nanoTime() - deadline < 0) {
            if (channels.isEmpty()) {
                long now = System.nanoTime();
                emptySince = emptySince == 0 ? now : emptySince;
                if (initialized.get() >= acceptedByListener.get() || now - emptySince > ACCEPT_DRAIN_MAX_NANOS) {
                    break;
                }
            } else {
                emptySince = 0;
            }
            for (Channel ch : channels) {
                // judged on the connection's own event loop, which reads what the socket holds before it runs a
                // task: a loop too busy (or starved of CPU) to read a connection for a while does not make that
                // connection look quiet and lose what its sender wrote (a check from this thread did, under load)
                if (ch.attr(QUIET_CHECK).compareAndSet(null, Boolean.TRUE)) { // one check queued per connection
                    ch.eventLoop().execute(() -> {
                        ch.attr(QUIET_CHECK).set(null);
                        closeIfDone(ch);
                    });
                }
            }
            Thread.sleep(10);
        }
        boolean clean = true;
        if (!channels.isEmpty()) {
            clean = false;
            java.util.Map<Long, Long> queues = KernelQueues.snapshot(); // once for all of them
            List<io.netty.util.concurrent.Future<?>> abandoned = new ArrayList<>();
            for (Channel ch : channels) {
                try {
                    abandoned.add(ch.eventLoop().submit(() -> abandon(ch, KernelQueues.unread(ch, queues))));
                } catch (RejectedExecutionException e) {
                    ch.close();
                }
            }
            long wait = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            for (io.netty.util.concurrent.Future<?> f : abandoned) {
                f.await(Math.max(1, TimeUnit.NANOSECONDS.toMillis(wait - System.nanoTime())));
            }
        }
        channels.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        while (!state.live().isEmpty()) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            channels.close(); // one accepted just before the listener closed registers late
            Thread.sleep(5);
        }
        return clean && !abandonedAny;
    }

    /**
     * On the connection's event loop, during a clean stop: closes it if it read nothing for {@link #QUIET_NANOS}
     * and flow control does not hold it back, or abandons it if it has been reading for {@code drain-timeout} since
     * the stop began (time paused not counted).
     */
    private void closeIfDone(Channel ch) {
        TcpPublishHandler h = ch.pipeline().get(TcpPublishHandler.class);
        long now = System.nanoTime();
        if (h == null) {
            ch.close();
            return;
        }
        if (h.isQuiet(now, h.hasRead() ? QUIET_NANOS : NEVER_READ_QUIET_NANOS)) {
            // quiet at two checks in a row: bytes that arrived after this loop last polled the socket (the check
            // runs after the loop's reads) are read in between, and then the connection is not quiet any more
            if (ch.attr(QUIET_SEEN).getAndSet(Boolean.TRUE) != null) {
                ch.close();
            }
            return;
        }
        ch.attr(QUIET_SEEN).set(null);
        long[] base = ch.attr(DRAIN_START).get();
        if (base == null) {
            ch.attr(DRAIN_START).set(new long[] {now, h.pausedNanos(now)});
            return;
        }
        long reading = (now - base[0]) - (h.pausedNanos(now) - base[1]);
        if (reading >= drainNanos) {
            abandon(ch, KernelQueues.unread(ch));
        }
    }

    /**
     * On the connection's event loop: closes a connection that still has something to deliver, counting it and the
     * bytes the kernel holds for it unread (where it can tell).
     */
    private void abandon(Channel ch, long unread) {
        if (!ch.isOpen()) {
            return;
        }
        TcpPublishHandler h = ch.pipeline().get(TcpPublishHandler.class);
        if (unread != 0 || (h != null && h.isPaused())) {
            abandonedAny = true;
            counters.abandonedConnections.inc();
            if (unread > 0) {
                counters.abandonedBytes.add(unread);
            }
        }
        ch.close();
    }

    /** Forced stop: closes every connection; frames that never reached the ring are released and counted as abandoned. */
    public void close() {
        channels.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        for (TcpPublishHandler h : state.live()) {
            h.abandonOnEventLoop();
        }
    }

    /** Notes each accept. Threads: the listener's event loop. */
    @ChannelHandler.Sharable
    private final class AcceptTracker extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object child) {
            lastAcceptNanos = System.nanoTime(); // the listener's event loop, at each accept
            acceptedByListener.incrementAndGet();
            ctx.fireChannelRead(child);
        }
    }
}

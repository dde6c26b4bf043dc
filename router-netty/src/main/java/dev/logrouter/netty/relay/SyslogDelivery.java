package dev.logrouter.netty.relay;

import dev.logrouter.core.metrics.Counter;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.sink.DeadLetterFile;
import dev.logrouter.core.sink.SinkDelivery;
import dev.logrouter.core.sink.SinkContext;
import dev.logrouter.core.template.ByteBuilder;
import dev.logrouter.core.util.Clock;
import dev.logrouter.netty.relay.SyslogSinkConfig.Mode;
import dev.logrouter.netty.relay.SyslogSinkConfig.Transport;
import dev.logrouter.netty.tls.ClientTls;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelPromise;
import io.netty.util.concurrent.PromiseCombiner;

import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The delivery half of the syslog sink: the pending batch of encoded, framed messages to one host's connection, with
 * one write and flush (UDP: one datagram per message, flushed together); {@link #flush} returns once the write
 * completed on the socket. Which host: in {@code failover} mode the first live one in list order; the hosts before
 * it are tried again on their own reconnect backoff, and one that has stayed reachable for {@code failback-after}
 * takes over again; in {@code round-robin} mode the next live one (a host that connects again is used from its next
 * batch). Each host has its own state ({@link RelayHost}): a failed connect, probe or write marks that host down
 * and never fails a batch while another host is live. A write that fails closes that connection,
 * schedules its host's reconnect (capped exponential backoff) and sends the whole batch again to the next live host
 * (counted {@code resent}: at least once, so the receiver may get part of the batch twice). With no live host
 * {@link #flush} throws and its caller retries it with backoff.
 *
 * <p>What plain TCP cannot promise: a write completes when the kernel took the bytes, not when the peer read them;
 * bytes the kernel accepted before the peer died are lost without an error (RELP closes that gap).
 *
 * <p>RELP ({@code transport: relp}): each connection is a RELP session ({@link RelpClientHandler}); {@link #flush}
 * sends the pending messages as {@code syslog} commands, at most {@code window} unanswered at a time, and returns
 * once every one was answered {@code rsp 200}: only then does a message count as written. When the session ends
 * first (the connection closed, {@code serverclose}, a protocol error, no answer within {@code write-timeout} of
 * the last one), the acknowledged messages leave the batch and only the others stay pending: they go again to the
 * next live host (or the same after its reconnect), counted in {@code resent} when they had been sent. A message
 * the receiver refused (an answer other than 200) is not sent again, as librelp does: it goes to the dead-letter
 * file with the answer, counted in {@code refused}, and the connection is closed so that the ones after it go again.
 * Closing the sink sends {@code close} and waits up to {@link #RELP_CLOSE_WAIT_MILLIS} for its answer.
 *
 * <p>Threads: every method but {@link #abort} runs on one thread (the sink's, {@code sink-<name>}, or a journaled
 * sink's delivery thread); the connections' I/O runs on the sink's own event loop ({@link RelayConnector});
 * {@link #abort} from any thread.
 */
final class SyslogDelivery implements SinkDelivery {

    private static final Logger LOG = System.getLogger(SyslogDelivery.class.getName());
    private static final long WAIT_SLICE_MILLIS = 100;
    /** RELP: the longest wait for the answer to {@code close} when a session ends. */
    static final long RELP_CLOSE_WAIT_MILLIS = 2000;

    private final String name;
    private final SyslogSinkConfig cfg;
    private final Clock clock;
    private final ClientTls tls;
    private final RelayHost[] hosts;
    private final boolean udp;
    private final boolean relp;
    private final DeadLetterFile deadLetters;
    /** RELP: messages sent and not yet answered, over all connections (the event loop changes it). */
    private final AtomicLong relpInFlight = new AtomicLong();
    /** RELP: the first this many pending messages were sent before, on a session that ended without their answer. */
    private int sentBefore;
    private final long failbackNanos;
    private volatile RelayConnector connector;

    /** The pending batch: the messages added since the last flush that took them. */
    private final ByteBuilder batch = new ByteBuilder(64 * 1024);
    /** End offset in {@link #batch} of each message. */
    private int[] ends = new int[1024];
    private int count;
    private final String target;
    /** A write of the pending batch failed: its next write is a resend (counted), whichever flush makes it. */
    private boolean unconfirmed;
    private RelayHost lastFailed;

    /** failover: index of the host batches go to, -1 before the first connect. */
    private int active = -1;
    /** round-robin: the host to try first for the next batch. */
    private int next;
    private volatile boolean aborted;

    private final Counter resent;
    private final Counter connects;
    private final Counter connectFailures;
    private final Counter failovers;
    private final Counter failbacks;
    private final Counter writeFailures;
    private final Counter refused;

    SyslogDelivery(SyslogSinkConfig cfg, SinkContext ctx) {
        this.name = ctx.name();
        this.cfg = cfg;
        this.clock = ctx.clock();
        this.tls = cfg.tls() == null ? null : new ClientTls(cfg.tls());
        this.udp = cfg.transport() == Transport.udp;
        this.relp = cfg.transport() == Transport.relp;
        this.deadLetters = ctx.deadLetters();
        this.failbackNanos = cfg.failbackAfter().nanos();
        this.target = String.join(",", cfg.hosts());
        long now = clock.nanoTime();
        List<String> specs = cfg.hosts();
        this.hosts = new RelayHost[specs.size()];
        for (int i = 0; i < hosts.length; i++) {
            hosts[i] = new RelayHost(Destination.parse(specs.get(i)), i, cfg.reconnectDelay().nanos(),
                    cfg.reconnectDelayMax().nanos(), now);
        }
        MetricGroup m = ctx.metrics();
        this.resent = m.counter("resent", "Messages sent again after a write failed (the whole batch goes to the "
                + "next live host; the receiver may get the part written before the failure twice). RELP: messages "
                + "sent again because the session ended before their answer (at most window per session).");
        this.connects = m.counter("connects", "Connections opened (TLS: handshake done).");
        this.connectFailures = m.counter("connectFailures", "Connects or TLS handshakes that failed (refused, "
                + "timed out, certificate not trusted); the host is tried again after its backoff.");
        this.failovers = m.counter("failovers", "Times batches moved to a later host of the list because the ones "
                + "before it failed (round-robin: a batch sent to another host after a failed write).");
        this.failbacks = m.counter("failbacks", "Times batches moved back to an earlier host that answered a probe "
                + "(failover mode, every failback-after).");
        this.writeFailures = m.counter("writeFailures", "Batch writes that failed on a connection (peer closed or "
                + "reset it, TLS error, ICMP unreachable); the batch is resent.");
        if (relp) {
            this.refused = m.counter("refused", "RELP: messages the receiver answered with an error (not 200): "
                    + "written to the dead-letter file with the answer and not sent again (as librelp does); the "
                    + "connection is closed and the unanswered messages after it are sent again.");
            m.gauge("unackedInFlight", "RELP: messages sent and not yet answered (at most window per connection).",
                    relpInFlight::get);
        } else {
            this.refused = null;
        }
        m.text("activeHost", "failover: the host batches go to now (empty while none is up); round-robin: the hosts "
                + "up now.", this::activeHost);
        m.text("hosts", "Each host's state: up, connecting, or down with the reason and the delay before its next "
                + "try.", this::hostStates);
        m.text("transport", "tcp, tls (with the provider: jdk or openssl) or udp, and the event loop kind.",
                () -> cfg.transport() + (tls == null ? "" : " " + tls.providerName())
                        + (connector == null ? "" : " (" + connector.kind() + ")"));
    }

    @Override
    public void start() {
        if (connector == null) {
            int window = cfg.window();
            connector = new RelayConnector(name, cfg.transport(), tls, (int) cfg.connectTimeout().millis(),
                    relp ? () -> new RelpClientHandler(window, relpInFlight, resent) : null);
        }
        long now = clock.nanoTime();
        // connect ahead of the first batch: the first host (failover) or all (round-robin)
        for (RelayHost h : hosts) {
            if (h.due(now)) {
                h.startConnect(connector);
            }
            if (cfg.mode() == Mode.failover) {
                break;
            }
        }
    }

    @Override
    public void add(byte[] record, int off, int len) {
        batch.append(record, off, len);
        if (count == ends.length) {
            ends = Arrays.copyOf(ends, count * 2);
        }
        ends[count++] = batch.length();
    }

    /** Writes the pending batch to one live host (the next one after a failed write) and empties it. */
    @Override
    public void flush() throws IOException {
        if (count == 0) {
            return;
        }
        if (relp) {
            flushRelp();
            return;
        }
        while (true) {
            RelayHost h = pick();
            if (unconfirmed) {
                resent.add(count);
                if (cfg.mode() == Mode.roundRobin && h != lastFailed) {
                    failovers.inc();
                }
            }
            String error = write(h);
            if (error == null) {
                h.wrote();
                clear();
                return;
            }
            writeFailures.inc();
            h.writeFailed(error, clock.nanoTime());
            LOG.log(Level.WARNING, "sink " + name + ": writing " + count + " messages to " + h.destination()
                    + " failed (" + error + "); sending the batch again");
            unconfirmed = true;
            lastFailed = h;
        }
    }

    /** Every message of the pending batch goes to the dead-letter file (target: the hosts); the batch is empty. */
    @Override
    public void deadLetterPending(DeadLetterFile deadLetters, String reason) {
        int start = 0;
        for (int i = 0; i < count; i++) {
            deadLetters.write(target, reason, null, batch.array(), start, ends[i] - start);
            start = ends[i];
        }
        clear();
    }

    private void clear() {
        batch.reset();
        count = 0;
        unconfirmed = false;
        lastFailed = null;
        sentBefore = 0;
    }

    /**
     * RELP: sends the pending messages to one live host after another until every one was answered; what a session
     * that ended had acknowledged (or got refused) leaves the batch, the rest goes to the next host.
     */
    private void flushRelp() throws IOException {
        while (true) {
            RelayHost h = pick();
            if (unconfirmed && cfg.mode() == Mode.roundRobin && h != lastFailed) {
                failovers.inc();
            }
            String error = transmit(h);
            if (error == null) {
                h.wrote();
                clear();
                return;
            }
            writeFailures.inc();
            h.writeFailed(error, clock.nanoTime());
            if (count == 0) { // every message was answered: taken, or refused and dead-lettered
                clear();
                return;
            }
            LOG.log(Level.WARNING, "sink " + name + ": RELP session with " + h.destination() + " ended (" + error
                    + "); " + count + " messages not acknowledged go again");
            unconfirmed = true;
            lastFailed = h;
            if (Thread.currentThread().isInterrupted()) {
                throw new IOException("interrupted while sending to " + h.destination());
            }
        }
    }

    /**
     * RELP: sends the pending messages over {@code h}'s session and waits for their answers (bounded by
     * write-timeout without progress); null when all were acknowledged, else the reason, with the batch cut down to
     * the messages still to send.
     */
    private String transmit(RelayHost h) {
        Channel ch = h.channel(clock.nanoTime());
        if (ch == null) {
            return "the connection closed";
        }
        RelpClientHandler session = ch.attr(RelpClientHandler.KEY).get();
        RelpClientHandler.Transmission t = new RelpClientHandler.Transmission(batch.array(), ends, count,
                sentBefore);
        session.send(t);
        String error = awaitAnswers(session, t);
        if (error == null) {
            return null;
        }
        // t.done completed: the event loop dropped t, its fields are final now and the batch may change
        int drop = t.acked;
        if (t.refused >= 0) {
            int start = drop == 0 ? 0 : ends[drop - 1];
            String reason = "refused by " + h.destination() + ": " + t.refusal;
            deadLetters.write(h.destination().toString(), Math.max(t.refusedStatus, 0), reason, null, batch.array(),
                    start, ends[drop] - start);
            refused.inc();
            LOG.log(Level.WARNING, "sink " + name + ": a message was " + reason + "; it went to the dead-letter file");
            drop++;
        }
        sentBefore = Math.max(sentBefore, t.next) - drop;
        removeFirst(drop);
        return error;
    }

    /** Waits until {@code t} ended; null when every message was acknowledged, else why not. */
    private String awaitAnswers(RelpClientHandler session, RelpClientHandler.Transmission t) {
        long timeout = cfg.writeTimeout().nanos();
        int seen = 0;
        long deadline = clock.nanoTime() + timeout;
        String cancelled = null;
        while (true) {
            try {
                t.done.get(WAIT_SLICE_MILLIS, TimeUnit.MILLISECONDS);
                return null;
            } catch (TimeoutException slice) {
                if (cancelled != null) {
                    continue; // the event loop ends t soon; wait for it before the batch changes
                }
                long now = clock.nanoTime();
                int acked = t.acked;
                if (aborted) {
                    cancelled = "sink stopping";
                } else if (acked != seen) {
                    seen = acked;
                    deadline = now + timeout;
                } else if (now - deadline > 0) {
                    cancelled = "no acknowledgement within write-timeout " + cfg.writeTimeout() + " ("
                            + (t.count - acked) + " messages unanswered)";
                }
                if (cancelled != null) {
                    session.cancel(t, cancelled);
                }
            } catch (ExecutionException e) {
                return cancelled != null ? cancelled : e.getCause().getMessage();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                cancelled = "interrupted";
                session.cancel(t, cancelled);
                try {
                    t.done.handle((v, x) -> null).get(5, TimeUnit.SECONDS);
                } catch (Exception ignored) {
                    // the event loop is gone or stuck: nothing more will read t
                }
                return cancelled;
            }
        }
    }

    /** Removes the first {@code n} messages from the pending batch. */
    private void removeFirst(int n) {
        if (n <= 0) {
            return;
        }
        if (n >= count) {
            batch.reset();
            count = 0;
            return;
        }
        int from = ends[n - 1];
        int len = batch.length() - from;
        byte[] a = batch.array();
        System.arraycopy(a, from, a, 0, len);
        batch.setLength(len);
        for (int i = n; i < count; i++) {
            ends[i - n] = ends[i] - from;
        }
        count -= n;
    }

    /** RELP: ends {@code h}'s session with {@code close}, waiting briefly for the answer. */
    private void endSession(RelayHost h) {
        if (!relp) {
            return;
        }
        Channel ch = h.channel(clock.nanoTime());
        RelpClientHandler session = ch == null ? null : ch.attr(RelpClientHandler.KEY).get();
        if (session != null) {
            try {
                session.closeSession().get(RELP_CLOSE_WAIT_MILLIS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | TimeoutException e) {
                // no answer in time: the channel is closed anyway
            }
        }
    }

    /** A host with an open connection for the next batch; throws when none is live (the handler retries). */
    private RelayHost pick() throws IOException {
        if (aborted) {
            throw new IOException("sink stopping: the batch was not sent");
        }
        long now = clock.nanoTime();
        return cfg.mode() == Mode.failover ? pickFailover(now) : pickRoundRobin(now);
    }

    private RelayHost pickFailover(long now) throws IOException {
        probeFailback(now);
        if (active >= 0 && hosts[active].channel(now) != null) {
            return hosts[active];
        }
        for (RelayHost h : hosts) {
            if (h.channel(now) == null && h.due(now)) {
                h.startConnect(connector);
            }
            if (h.channel(now) != null || (h.connecting() && awaitConnect(h) != null)) {
                activate(h.index(), now);
                return h;
            }
        }
        throw noLiveHost();
    }

    private RelayHost pickRoundRobin(long now) throws IOException {
        reconnectDue(now);
        for (int k = 0; k < hosts.length; k++) {
            RelayHost h = hosts[(next + k) % hosts.length];
            if (h.channel(now) != null) {
                next = (h.index() + 1) % hosts.length;
                return h;
            }
        }
        for (int k = 0; k < hosts.length; k++) { // none up: wait for the connects under way
            RelayHost h = hosts[(next + k) % hosts.length];
            if (h.connecting() && awaitConnect(h) != null) {
                next = (h.index() + 1) % hosts.length;
                return h;
            }
        }
        throw noLiveHost();
    }

    /**
     * round-robin: starts a connect to every host that is down and past its backoff, and looks (without waiting) at
     * the connects under way; a host that connected takes batches from the next one on. Never throws.
     */
    private void reconnectDue(long now) {
        for (RelayHost h : hosts) {
            reconnect(h, now);
        }
    }

    /**
     * Starts a connect to {@code h} when it is down and past its backoff, and looks (without waiting) at a connect
     * under way: its success or failure is {@code h}'s state from then on. Never throws.
     */
    private void reconnect(RelayHost h, long now) {
        if (h.channel(now) == null && h.due(now)) {
            h.startConnect(connector);
        }
        if (h.connecting()) {
            pollQuietly(h, 0);
        }
    }

    /**
     * failover, idle: a connection of the active host that closed (the peer's idle timeout, a reset) is opened
     * again without waiting for the next batch, so that {@code hosts} tells the truth. Never throws.
     */
    private void reconnectActive(long now) {
        if (active < 0) {
            return;
        }
        reconnect(hosts[active], now);
    }

    /** failover: makes host {@code i} the active one, counting a failover or failback. */
    private void activate(int i, long now) {
        if (i == active) {
            return;
        }
        int previous = active;
        active = i;
        if (previous >= 0 && i < previous) {
            failbacks.inc();
            LOG.log(Level.INFO, "sink " + name + ": failing back from " + hosts[previous].destination() + " to "
                    + hosts[i].destination());
            endSession(hosts[previous]);
            hosts[previous].close("standby (failed back to " + hosts[i].destination() + ")");
        } else if (i > 0) {
            failovers.inc();
            LOG.log(Level.WARNING, "sink " + name + ": failing over to " + hosts[i].destination()
                    + (previous >= 0 ? " from " + hosts[previous].destination() : "") + "; the hosts before it are "
                    + "tried again on their reconnect backoff and take over once up for "
                    + TimeUnit.NANOSECONDS.toMillis(failbackNanos) + " ms");
        }
    }

    /**
     * failover, while a later host is active: the hosts before it are tried again on their own backoff
     * (reconnect-delay doubling to reconnect-delay-max); a host that connected is held as a standby, and once it has
     * been reachable for failback-after without a failure it becomes the active one (its connection carries the
     * next batches). A failed try counts against that host only. Never throws.
     */
    private void probeFailback(long now) {
        if (cfg.mode() != Mode.failover || active <= 0) {
            return;
        }
        for (int i = 0; i < active; i++) {
            RelayHost h = hosts[i];
            reconnect(h, now);
            if (h.channel(now) != null && now - h.upSinceNanos() >= failbackNanos) {
                activate(i, now);
                return;
            }
        }
    }

    /** Waits for a connect under way until it ends (its connect-timeout and handshake-timeout bound it). */
    private Channel awaitConnect(RelayHost h) throws IOException {
        while (true) {
            if (aborted) {
                throw new IOException("sink stopping: the batch was not sent");
            }
            Channel ch;
            try {
                ch = h.poll(TimeUnit.MILLISECONDS.toNanos(WAIT_SLICE_MILLIS), clock.nanoTime());
            } catch (RelayHost.ConnectFailure f) {
                connectFailed(h, f);
                return null;
            }
            if (ch != null) {
                connected(h);
                return ch;
            }
        }
    }

    /** A non-blocking (or briefly blocking) look at a connect under way. */
    private Channel pollQuietly(RelayHost h, long waitNanos) {
        try {
            Channel ch = h.poll(waitNanos, clock.nanoTime());
            if (ch != null) {
                connected(h);
            }
            return ch;
        } catch (RelayHost.ConnectFailure f) {
            connectFailed(h, f);
            return null;
        }
    }

    private void connected(RelayHost h) {
        connects.inc();
        LOG.log(Level.INFO, "sink " + name + ": connected to " + h.destination() + " (" + cfg.transport() + ")");
    }

    private void connectFailed(RelayHost h, RelayHost.ConnectFailure f) {
        connectFailures.inc();
        LOG.log(Level.WARNING, "sink " + name + ": " + h.describe());
    }

    private IOException noLiveHost() {
        return new IOException("no live host: " + hostStates());
    }

    /** Writes the batch to {@code h}'s connection and waits for the write to complete; null or the failure. */
    private String write(RelayHost h) throws IOException {
        Channel ch = h.channel(clock.nanoTime());
        if (ch == null) {
            return "the connection closed";
        }
        ChannelFuture f;
        if (udp) {
            ChannelPromise all = ch.newPromise();
            byte[] a = batch.array();
            int n = count;
            int[] e = ends;
            ch.eventLoop().execute(() -> {
                PromiseCombiner combiner = new PromiseCombiner(ch.eventLoop());
                int start = 0;
                for (int i = 0; i < n; i++) {
                    combiner.add(ch.write(Unpooled.wrappedBuffer(a, start, e[i] - start)));
                    start = e[i];
                }
                ch.flush();
                combiner.finish(all);
            });
            f = all;
        } else {
            f = ch.writeAndFlush(Unpooled.wrappedBuffer(batch.array(), 0, ends[count - 1]));
        }
        long deadline = clock.nanoTime() + cfg.writeTimeout().nanos();
        try {
            while (!f.await(WAIT_SLICE_MILLIS, TimeUnit.MILLISECONDS)) {
                if (aborted) { // a forced stop: the batch's bytes must not be read after we return
                    ch.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
                    throw new IOException("sink stopping: the batch write to " + h.destination() + " did not end");
                }
                if (clock.nanoTime() - deadline > 0) { // closing fails the write: its bytes are not read after
                    ch.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
                    return "write not done after write-timeout " + cfg.writeTimeout() + " (the receiver stopped "
                            + "reading)";
                }
            }
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            ch.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
            throw new IOException("interrupted while writing to " + h.destination(), ie);
        }
        if (f.isSuccess()) {
            return null;
        }
        Throwable why = ch.attr(RelayConnector.CLOSE_CAUSE).get();
        return RelayHost.describe(why != null ? why : f.cause());
    }

    /**
     * Idle time: failback probes and reconnects go on while no batch comes. Never throws: a host's failure is that
     * host's state, not the sink's (the sink retries only when a batch finds no live host).
     */
    @Override
    public void tick() {
        try {
            long now = clock.nanoTime();
            if (cfg.mode() == Mode.failover) {
                probeFailback(now);
                reconnectActive(now);
            } else {
                reconnectDue(now);
            }
        } catch (RuntimeException e) { // a bug: say so, but let the sink go on delivering to the live hosts
            LOG.log(Level.ERROR, "sink " + name + ": failback probe failed: " + e, e);
        }
    }

    @Override
    public void abort() {
        aborted = true;
    }

    /** Closes the connections and the event loop. */
    @Override
    public void close() {
        for (RelayHost h : hosts) {
            endSession(h);
            h.close("closed");
        }
        if (connector != null) {
            connector.close();
        }
    }

    private String activeHost() {
        if (cfg.mode() == Mode.failover) {
            int a = active;
            return a >= 0 && hosts[a].up() ? hosts[a].destination().toString() : "";
        }
        StringBuilder sb = new StringBuilder();
        for (RelayHost h : hosts) {
            if (h.up()) {
                sb.append(sb.isEmpty() ? "" : ",").append(h.destination());
            }
        }
        return sb.toString();
    }

    private String hostStates() {
        StringBuilder sb = new StringBuilder();
        for (RelayHost h : hosts) {
            sb.append(sb.isEmpty() ? "" : "; ").append(h.describe());
        }
        return sb.toString();
    }
}

package dev.logrouter.host.journald;

import com.lmax.disruptor.RingBuffer;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.Counter;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.source.RingClaim;
import dev.logrouter.core.source.Source;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * Follows the systemd journal through {@code journalctl -o json --all --follow} and publishes each entry into the
 * ring as one {@link LogEvent#FORMAT_RAW} event: MESSAGE is the raw frame (so MSG), and HOST, PROGRAM, PID, PRI, the
 * stamp and the other fields (name-value pairs under {@code prefix}) are set here; the header parser leaves them.
 *
 * <p>Position: journalctl starts {@code --after-cursor} the cursor file's cursor (or per {@code start-at} when there
 * is none). Each publish batch records its highest ring sequence and its last entry's cursor ({@link CursorFile});
 * the cursor thread writes, every {@code cursor-interval}, the cursor of the newest batch the completed sequence has
 * passed (every sink made it durable), and {@link #close} once more after the ring drained. So a restart neither
 * loses nor repeats entries; after a crash at most the entries since the last write come again.
 *
 * <p>Flow control: entries are published without blocking; when the ring has no room the reader waits before
 * reading on, journalctl's stdout pipe fills and journalctl blocks in write: nothing is dropped. When journalctl
 * ends by itself (not found, a bad directory, a crash) the source counts it, logs its exit and standard error, and
 * starts it again after 1 s, doubling to 30 s while it keeps failing, from the cursor of the last entry published.
 * {@link #stopAccepting} and {@link #close} stop journalctl.
 *
 * <p>Threads: {@code journald-<name>} runs journalctl, reads and publishes (all parsing state is its own);
 * {@code journald-<name>-stderr} drains journalctl's standard error; {@code journald-<name>-cursor} writes the
 * cursor file; lifecycle calls come from the router's thread and only set flags, stop the process and wait.
 */
public final class JournaldSource implements Source {

    private static final Logger LOG = System.getLogger(JournaldSource.class.getName());
    static final int MAX_BATCH = 256;
    private static final long FIRST_BACKOFF_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** A journalctl that ran this long without ending worked: a failure after it starts a new failing period. */
    private static final long STABLE_RUN_NANOS = TimeUnit.SECONDS.toNanos(2);
    private static final long MAX_BACKOFF_NANOS = TimeUnit.SECONDS.toNanos(30);
    /** Jackson buffers a string value whole: longer ones lose their entry (counted). */
    private static final int MIN_STRING_LIMIT = 16 << 20;
    private static final int STDERR_LINES_KEPT = 20;
    private static final java.io.File DEV_NULL = new java.io.File("/dev/null");

    private final JournaldSourceConfig cfg;
    private final RingBuffer<LogEvent> ring;
    private final LongSupplier completed;
    private final int sourceId;
    private final byte[] sourceName;
    private final byte[] prefix;
    private final ZoneRules zone;
    private final CursorFile cursorFile;
    private final JournalJsonReader reader;
    private final JournalEntry[] pool = new JournalEntry[MAX_BATCH];
    private final byte[] buf = new byte[64 << 10];
    private int pending;

    private final CountDownLatch readerDone = new CountDownLatch(1);
    private final CountDownLatch cursorStop = new CountDownLatch(1);
    private Thread thread;
    private Thread cursorThread;
    private volatile boolean stopReading;
    private volatile boolean closing;
    private volatile Process process;
    /** Since when journalctl keeps failing (could not start, or ends by itself), nanoTime; 0 while it works. */
    private volatile long failingSinceNanos;
    /** When the running journalctl started, nanoTime; 0 while none runs. */
    private volatile long runningSinceNanos;
    private volatile String failure = "";
    /** The cursor journalctl starts after: the file's at start, then the last one published (reader thread). */
    private String lastCursor;
    private long readerErrorsSeen;
    // the zone offset of the stamps, valid for [offsetFrom, offsetTo) (reader thread)
    private long offsetFrom = Long.MAX_VALUE;
    private long offsetTo = Long.MIN_VALUE;
    private int offsetSeconds;

    private final Counter received;
    private final Counter bytes;
    private final Counter truncated;
    private final Counter restarts;
    private final Counter errors;
    private final Counter droppedUnpublished;

    public JournaldSource(JournaldSourceConfig cfg, RingBuffer<LogEvent> ring, LongSupplier completed, int sourceId,
                          ZoneId zone, MetricGroup metrics) {
        this.cfg = cfg;
        this.ring = ring;
        this.completed = completed;
        this.sourceId = sourceId;
        this.sourceName = cfg.name().getBytes(StandardCharsets.UTF_8);
        this.prefix = cfg.prefix().getBytes(StandardCharsets.UTF_8);
        this.zone = zone.getRules();
        this.cursorFile = new CursorFile(cfg.cursorFile());
        int maxValue = (int) cfg.maxMessageSize().bytes();
        this.reader = new JournalJsonReader(maxValue, Math.max(MIN_STRING_LIMIT, 4 * maxValue));
        for (int i = 0; i < MAX_BATCH; i++) {
            pool[i] = new JournalEntry();
        }
        this.received = metrics.counter("received", "Journal entries published into the ring.");
        this.bytes = metrics.counter("bytes", "Bytes of the messages (MESSAGE) published.");
        this.truncated = metrics.counter("truncated", "Entries with a MESSAGE (or another value) longer than "
                + "max-message-size, cut to it.");
        this.restarts = metrics.counter("restarts", "Times journalctl was started again after it ended by itself or "
                + "could not be started.");
        this.errors = metrics.counter("errors", "journalctl failures (could not start, or ended by itself) and "
                + "entries lost because journalctl's output could not be read (malformed, or a string value over "
                + "16 MiB); each logged.");
        this.droppedUnpublished = metrics.counter("droppedUnpublished", "Entries read but not published when the "
                + "router was forced to stop (their cursor was not saved: they are read again after the restart).");
        metrics.gauge("cursorLag", "Entries published whose cursor is not in the cursor file yet (waiting for the "
                + "sinks, or for the next cursor-interval).", cursorFile::lag);
    }

    @Override
    public String name() {
        return cfg.name();
    }

    /** Reads the cursor file (its directory is created) and starts the reader and cursor threads. */
    @Override
    public void start() throws IOException {
        lastCursor = cursorFile.load();
        if (lastCursor == null && cfg.startAt() == JournaldSourceConfig.StartAt.end) {
            // the very first start at the end: the journal's current last entry is the position, saved at once, so
            // that what is written while journalctl restarts or the router is down is not skipped by --lines=0
            lastCursor = tailCursor();
            if (lastCursor != null) {
                cursorFile.saveFirst(lastCursor);
            }
        }
        Thread t = new Thread(this::run, "journald-" + cfg.name());
        t.setDaemon(true);
        thread = t;
        Thread c = new Thread(this::cursorLoop, "journald-" + cfg.name() + "-cursor");
        c.setDaemon(true);
        cursorThread = c;
        t.start();
        c.start();
    }

    /** The cursor of the journal's last entry (any unit), or null when it is empty or journalctl fails. */
    String tailCursor() {
        List<String> cmd = new ArrayList<>(List.of(cfg.journalctl(), "--output=json", "--lines=1", "--no-pager"));
        if (cfg.directory() != null) {
            cmd.add("--directory=" + cfg.directory());
        }
        try {
            Process p = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.from(DEV_NULL))
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return null;
            }
            String last = null;
            for (String line : out.split("\n")) {
                if (!line.isBlank()) {
                    last = line;
                }
            }
            if (last == null) {
                return null;
            }
            com.fasterxml.jackson.databind.JsonNode c = new com.fasterxml.jackson.databind.ObjectMapper()
                    .readTree(last).get("__CURSOR");
            return c == null ? null : c.asText();
        } catch (IOException e) {
            return null; // the reader's start reports it
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** The journal read: the directory, or {@code system journal}. */
    @Override
    public String boundAddress() {
        return cfg.directory() != null ? cfg.directory() : "system journal";
    }

    /** The journalctl command line: after {@code cursor} when there is one, else per {@code start-at}. */
    List<String> command(String cursor) {
        List<String> cmd = new ArrayList<>(List.of(cfg.journalctl(), "--output=json", "--all", "--follow",
                "--no-pager"));
        if (cfg.directory() != null) {
            cmd.add("--directory=" + cfg.directory());
        }
        if (cursor != null) {
            cmd.add("--after-cursor=" + cursor);
        } else if (cfg.startAt() == JournaldSourceConfig.StartAt.beginning) {
            cmd.add("--lines=all");
        } else {
            cmd.add("--lines=0");
        }
        for (String u : cfg.units()) {
            cmd.add("--unit=" + u);
        }
        cmd.addAll(cfg.match());
        return cmd;
    }

    private void run() {
        long backoff = FIRST_BACKOFF_NANOS;
        try {
            while (!stopReading) {
                List<String> cmd = command(lastCursor);
                Process p;
                try {
                    p = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.from(DEV_NULL)).start();
                } catch (IOException e) {
                    errors.inc();
                    failed("cannot start " + cfg.journalctl() + ": " + e.getMessage());
                    LOG.log(Level.WARNING, "source " + cfg.name() + ": cannot start " + cfg.journalctl() + ": "
                            + e.getMessage() + "; trying again in " + TimeUnit.NANOSECONDS.toSeconds(backoff) + " s");
                    backoff = pause(backoff);
                    continue;
                }
                process = p;
                runningSinceNanos = System.nanoTime();
                if (stopReading) { // stopAccepting came while it started
                    p.destroy();
                }
                StderrTail stderr = new StderrTail(p.getErrorStream());
                long before = received.total();
                pump(p.getInputStream());
                int code = exitCode(p);
                stderr.join();
                process = null;
                if (stopReading) {
                    break;
                }
                errors.inc();
                failed(cfg.journalctl() + " exited with status " + code + stderr.text());
                if (received.total() > before) { // it worked for a while: start again soon
                    backoff = FIRST_BACKOFF_NANOS;
                }
                LOG.log(Level.WARNING, "source " + cfg.name() + ": journalctl exited with status " + code
                        + stderr.text() + "; starting it again in " + TimeUnit.NANOSECONDS.toSeconds(backoff)
                        + " s" + (lastCursor != null ? " after the last entry published" : ""));
                backoff = pause(backoff);
            }
        } catch (Throwable e) {
            errors.inc();
            LOG.log(Level.ERROR, "source " + cfg.name() + ": reader stopped: " + e, e);
        } finally {
            Process p = process;
            if (p != null) {
                p.destroyForcibly();
            }
            readerDone.countDown();
        }
    }

    /**
     * journalctl failed (reader thread): the failure goes on since the first failure after the last run that
     * lasted {@link #STABLE_RUN_NANOS}.
     */
    private void failed(String why) {
        long now = System.nanoTime();
        long ran = runningSinceNanos;
        runningSinceNanos = 0;
        failure = why;
        if (failingSinceNanos == 0 || (ran != 0 && now - ran >= STABLE_RUN_NANOS)) {
            failingSinceNanos = now;
        }
    }

    /**
     * Failing while journalctl cannot start or keeps ending by itself, for {@code staleNanos} or more; a journalctl
     * that has run for {@link #STABLE_RUN_NANOS} ends it.
     */
    @Override
    public String failing(long nowNanos, long staleNanos) {
        long since = failingSinceNanos;
        long running = runningSinceNanos;
        if (since == 0 || nowNanos - since < staleNanos
                || (running != 0 && nowNanos - running >= STABLE_RUN_NANOS)) {
            return null;
        }
        return "failing for " + TimeUnit.NANOSECONDS.toSeconds(nowNanos - since) + " s: " + failure;
    }

    /** Waits {@code backoff} (or until stopped) before a restart; returns the next backoff. */
    private long pause(long backoff) {
        long deadline = System.nanoTime() + backoff;
        while (!stopReading) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            LockSupport.parkNanos(Math.min(left, TimeUnit.MILLISECONDS.toNanos(50)));
        }
        if (!stopReading) {
            restarts.inc();
        }
        return Math.min(backoff * 2, MAX_BACKOFF_NANOS);
    }

    private static int exitCode(Process p) throws InterruptedException {
        if (!p.waitFor(5, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            p.waitFor(5, TimeUnit.SECONDS);
        }
        return p.isAlive() ? -1 : p.exitValue();
    }

    /**
     * Reads journalctl's output until it ends, publishing entries in batches: when a batch is full, or when the
     * pipe has nothing more right now. Publishing waits for room in the ring, and meanwhile nothing is read.
     */
    private void pump(InputStream in) {
        reader.reset();
        pending = 0;
        while (true) {
            int n;
            try {
                n = in.read(buf);
            } catch (IOException e) { // the process was stopped and its pipe closed
                n = -1;
            }
            if (n < 0) {
                break;
            }
            try {
                reader.feed(buf, 0, n);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            while (reader.next(pool[pending])) {
                if (++pending == MAX_BATCH && !publishPending()) {
                    return;
                }
            }
            countReaderErrors();
            if (pending > 0 && available(in) == 0 && !publishPending()) {
                return;
            }
        }
        reader.endOfInput();
        if (pending > 0) {
            publishPending();
        }
    }

    private static int available(InputStream in) {
        try {
            return in.available();
        } catch (IOException e) {
            return 0;
        }
    }

    private void countReaderErrors() {
        long e = reader.errors();
        if (e != readerErrorsSeen) {
            errors.add(e - readerErrorsSeen);
            readerErrorsSeen = e;
            LOG.log(Level.WARNING, "source " + cfg.name() + ": a journal entry could not be read and is lost: "
                    + reader.lastError());
        }
    }

    /**
     * Publishes the pending entries, waiting for room in the ring as long as the router is not forced to stop;
     * false when it was (the rest is dropped, and read again after the restart: its cursor was not saved).
     */
    private boolean publishPending() {
        int done = 0;
        long pause = 100_000;
        while (done < pending) {
            int n = RingClaim.size(ring, pending - done, MAX_BATCH);
            long hi = RingClaim.tryClaim(ring, n);
            if (hi < 0) {
                if (closing) {
                    droppedUnpublished.add(pending - done);
                    keepPartial();
                    return false;
                }
                LockSupport.parkNanos(pause);
                pause = Math.min(pause * 2, TimeUnit.MILLISECONDS.toNanos(10));
                continue;
            }
            pause = 100_000;
            long lo = hi - n + 1;
            long now = System.currentTimeMillis();
            long seq = lo;
            long sum = 0;
            int cut = 0;
            try {
                for (; seq <= hi; seq++) {
                    JournalEntry je = pool[done];
                    fill(ring.get(seq), je, now);
                    sum += je.has(JournalEntry.MESSAGE) ? je.length(JournalEntry.MESSAGE) : 0;
                    if (je.truncated) {
                        cut++;
                    }
                    done++;
                }
            } finally {
                RingClaim.publish(ring, lo, hi, seq);
            }
            received.add(n);
            bytes.add(sum);
            truncated.add(cut);
            String cursor = pool[done - 1].cursor();
            cursorFile.published(hi, cursor, n);
            if (cursor != null) {
                lastCursor = cursor;
            }
        }
        keepPartial();
        return true;
    }

    /** The pool is published: the entry being read (the holder after the pending ones) moves to its head. */
    private void keepPartial() {
        if (pending < MAX_BATCH) {
            JournalEntry partial = pool[pending];
            pool[pending] = pool[0];
            pool[0] = partial;
        }
        pending = 0;
    }

    /** Fills a claimed slot from an entry. */
    private void fill(LogEvent e, JournalEntry je, long now) {
        e.clear();
        if (je.has(JournalEntry.MESSAGE)) {
            e.setRaw(je.data, je.offset(JournalEntry.MESSAGE), je.length(JournalEntry.MESSAGE));
        }
        e.setSource(sourceId, sourceName, LogEvent.FORMAT_RAW, 0L);
        e.setReceivedMillis(now);
        copy(e, LogEvent.HOST, je, JournalEntry.HOSTNAME, -1);
        copy(e, LogEvent.PROGRAM, je, JournalEntry.SYSLOG_IDENTIFIER, JournalEntry.COMM);
        copy(e, LogEvent.PID, je, JournalEntry.PID, JournalEntry.SYSLOG_PID);
        e.setPri(pri(je));
        long us = je.number(JournalEntry.REALTIME);
        if (us >= 0) {
            long sec = us / 1_000_000;
            e.setStamp(sec, (int) (us % 1_000_000), offsetAt(sec), LogEvent.MAX_FRAC_DIGITS); // real microseconds
        }
        for (int i = 0; i < je.pairs; i++) {
            byte[] n = je.pairNames[i];
            e.fields().set(prefix, 0, prefix.length, n, 0, n.length, je.data, je.pairOff[i], je.pairLen[i], 0);
        }
    }

    private static void copy(LogEvent e, int header, JournalEntry je, int field, int fallback) {
        int f = je.has(field) ? field : fallback >= 0 && je.has(fallback) ? fallback : -1;
        if (f >= 0) {
            e.setFieldCopy(header, je.data, je.offset(f), je.length(f));
        }
    }

    /**
     * PRIORITY (severity; notice when absent or invalid) and SYSLOG_FACILITY (user when absent, as syslog-ng and
     * rsyslog's imjournal default; kern for an entry of {@code _TRANSPORT=kernel}, which never names one).
     */
    static int pri(JournalEntry je) {
        long sev = je.number(JournalEntry.PRIORITY);
        if (sev < 0 || sev > 7) {
            sev = LogEvent.DEFAULT_PRI & 7;
        }
        long fac = je.number(JournalEntry.SYSLOG_FACILITY);
        if (fac < 0 || fac > 23) {
            fac = je.is(JournalEntry.TRANSPORT, "kernel") ? 0 : 1;
        }
        return (int) (fac << 3 | sev);
    }

    /** The local zone's offset at {@code sec}, cached until the zone's next transition. */
    private int offsetAt(long sec) {
        if (sec < offsetFrom || sec >= offsetTo) {
            Instant at = Instant.ofEpochSecond(sec);
            offsetSeconds = zone.getOffset(at).getTotalSeconds();
            ZoneOffsetTransition next = zone.nextTransition(at);
            offsetFrom = sec;
            offsetTo = next == null ? Long.MAX_VALUE : next.toEpochSecond();
        }
        return offsetSeconds;
    }

    /** The cursor thread: writes the cursor file every cursor-interval until close. */
    private void cursorLoop() {
        boolean failing = false;
        try {
            while (!cursorStop.await(cfg.cursorInterval().nanos(), TimeUnit.NANOSECONDS)) {
                try {
                    cursorFile.save(completed.getAsLong());
                    failing = false;
                } catch (IOException e) {
                    errors.inc();
                    if (!failing) {
                        LOG.log(Level.WARNING, "source " + cfg.name() + ": cannot write the cursor file "
                                + cfg.cursorFile() + ": " + e);
                    }
                    failing = true;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops journalctl: what it wrote already is still read and published. */
    @Override
    public void stopAccepting() {
        stopReading = true;
        Process p = process;
        if (p != null) {
            p.destroy();
        }
    }

    @Override
    public boolean awaitPublished(long timeout, TimeUnit unit) throws InterruptedException {
        stopAccepting();
        return thread == null || readerDone.await(timeout, unit);
    }

    /**
     * Stops journalctl and the threads, then writes the cursor of the last entry the sinks made durable: called
     * after the ring drained, that is the last entry published. As the forced stop, entries not yet published are
     * dropped (and read again next time).
     */
    @Override
    public void close() {
        stopAccepting();
        closing = true;
        if (thread == null) {
            return;
        }
        try {
            if (!readerDone.await(10, TimeUnit.SECONDS)) {
                Process p = process;
                if (p != null) {
                    p.destroyForcibly();
                }
                readerDone.await(10, TimeUnit.SECONDS);
            }
            cursorStop.countDown();
            cursorThread.join(TimeUnit.SECONDS.toMillis(10));
            cursorFile.save(completed.getAsLong());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            errors.inc();
            LOG.log(Level.WARNING, "source " + cfg.name() + ": cannot write the cursor file " + cfg.cursorFile()
                    + " at stop: " + e);
        }
    }

    /**
     * Drains journalctl's standard error on its own thread (so journalctl never blocks on it), logs each line and
     * keeps the last ones for the exit message.
     */
    private final class StderrTail {

        private final ArrayDeque<String> lines = new ArrayDeque<>();
        private final Thread t;

        StderrTail(InputStream err) {
            t = new Thread(() -> drain(err), "journald-" + cfg.name() + "-stderr");
            t.setDaemon(true);
            t.start();
        }

        private void drain(InputStream err) {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(err, StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    LOG.log(Level.WARNING, "source " + cfg.name() + ": journalctl: " + line);
                    synchronized (lines) {
                        if (lines.size() == STDERR_LINES_KEPT) {
                            lines.pollFirst();
                        }
                        lines.add(line);
                    }
                }
            } catch (IOException e) {
                // the process is gone
            }
        }

        void join() throws InterruptedException {
            t.join(TimeUnit.SECONDS.toMillis(2));
        }

        /** ": <last lines>" or empty. */
        String text() {
            synchronized (lines) {
                return lines.isEmpty() ? "" : ": " + String.join(" | ", lines);
            }
        }
    }
}

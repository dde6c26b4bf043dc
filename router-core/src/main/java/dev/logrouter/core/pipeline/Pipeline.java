package dev.logrouter.core.pipeline;

import com.lmax.disruptor.BusySpinWaitStrategy;
import com.lmax.disruptor.EventHandler;
import com.lmax.disruptor.LiteTimeoutBlockingWaitStrategy;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.WaitStrategy;
import com.lmax.disruptor.YieldingWaitStrategy;
import com.lmax.disruptor.dsl.Disruptor;
import com.lmax.disruptor.dsl.ProducerType;
import dev.logrouter.core.config.PipelineConfig;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.Counter;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.metrics.MetricRegistry;
import dev.logrouter.core.parse.EventParser;
import dev.logrouter.core.sink.DeadLetterFile;
import dev.logrouter.core.util.Clock;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The ring and its stages:
 *
 * <pre>
 *  sources ──publish──▶ RingBuffer&lt;LogEvent&gt; (multi-producer)
 *                          ├─▶ parse-0 … parse-(n-1)   (sequence % n)
 *                          └──────────┬───────────────
 *                                     ▼
 *                      serial-&lt;name&gt; (optional: PatternDB correlation, one thread)
 *                                     ▼
 *                 sink-a   sink-b   …   (one thread each, after every parse worker)
 * </pre>
 *
 * Events are cleared by the publisher when it claims a slot (the slot's previous message is fully
 * consumed by then), so no extra clearing stage costs a thread.
 *
 * <p>Threads: built and started by the main thread; {@link #ring()} is used by source threads;
 * {@link #drainAndStop} by the thread that handles shutdown.
 */
public final class Pipeline {

    private final Disruptor<LogEvent> disruptor;
    /**
     * The sinks, each a processor of its own that this class runs (not the DSL's), so that a reload can add and
     * remove them while the ring runs. Written by the thread that starts, reconfigures and stops; read by any.
     */
    private final List<SinkStage> sinkStages = new CopyOnWriteArrayList<>();
    private final List<Thread> threads = new CopyOnWriteArrayList<>();
    private final ThreadFactory threadFactory;
    private final int ringSize;
    /** The stage before the sinks (the parse workers, or the serial stage): each sink's barrier. */
    private final com.lmax.disruptor.dsl.EventHandlerGroup<LogEvent> beforeSinks;
    /** The stage before the sinks' handlers: the last stage when there is no sink. */
    private final EventHandler<LogEvent>[] beforeSinksHandlers;
    private final CountingExceptionHandler exceptionHandler;
    /** Ring {@code abandoned}: events a forced stop left in the ring. */
    private final Counter ringAbandoned;
    private final MetricRegistry metrics;
    private final Clock clock;
    private volatile boolean started;
    private final SerialStageHandler serial;
    private final long tickMillis;
    private volatile Thread ticker;

    public Pipeline(PipelineConfig cfg, List<EventParser> workerParsers, List<SinkBinding> sinks,
                    MetricRegistry metrics, Clock clock) {
        this(cfg, workerParsers, null, 0, sinks, metrics, clock);
    }

    /**
     * @param serial a stage between the parse workers and the sinks, or null
     * @param tickMillis when {@code serial} is set and this is positive, a clock tick carrier is offered to
     *                   the ring this often (skipped when the ring has no free slot: events are flowing then)
     */
    public Pipeline(PipelineConfig cfg, List<EventParser> workerParsers, SerialStage serial, long tickMillis,
                    List<SinkBinding> sinks, MetricRegistry metrics, Clock clock) {
        if (workerParsers.size() != cfg.parseWorkers()) {
            throw new IllegalArgumentException("need one parser per parse worker");
        }
        this.ringSize = cfg.ringSize();
        this.metrics = metrics;
        this.clock = clock;
        ThreadFactory tf = r -> {
            Thread t = new Thread(r, "stage");
            t.setDaemon(false);
            threads.add(t);
            return t;
        };
        this.threadFactory = tf;
        disruptor = new Disruptor<>(LogEvent.FACTORY, ringSize, tf, ProducerType.MULTI,
                waitStrategy(cfg.waitStrategy(), cfg.idleParkOrDefault().nanos()));
        MetricGroup ringMetrics = metrics.group("Ring", "main");
        Counter stageErrors = ringMetrics.counter("stageErrors",
                "Unexpected exceptions caught in a stage (the stage went on with the next event).");
        exceptionHandler = new CountingExceptionHandler(stageErrors);
        ringAbandoned = ringMetrics.counter("abandoned", "Events still in the ring that a sink had not taken when a "
                + "stop gave up waiting (stop-timeout): lost to that sink, though other sinks may have had them. 0 "
                + "after a clean stop.");
        disruptor.setDefaultExceptionHandler(exceptionHandler);
        // the field limits live in each slot's table: set once here, checked per write without a lookup
        int maxFields = cfg.fieldCountLimit();
        int maxValue = cfg.fieldLengthLimit();
        for (int s = 0; s < ringSize; s++) {
            disruptor.getRingBuffer().get(s).fields().setLimits(maxFields, maxValue);
        }

        int n = cfg.parseWorkers();
        @SuppressWarnings("unchecked")
        EventHandler<LogEvent>[] workers = new EventHandler[n];
        for (int k = 0; k < n; k++) {
            workers[k] = new ParseWorker(k, n, workerParsers.get(k), metrics.group("Stage", "parse-" + k));
        }
        var afterWorkers = disruptor.handleEventsWith(workers);
        if (serial != null) {
            SerialStageHandler sh = new SerialStageHandler(serial, metrics.group("Stage", serial.name()));
            afterWorkers = afterWorkers.then(sh);
            this.serial = sh;
        } else {
            this.serial = null;
        }
        beforeSinks = afterWorkers;
        @SuppressWarnings("unchecked")
        EventHandler<LogEvent>[] last = this.serial != null ? new EventHandler[] {this.serial} : workers;
        beforeSinksHandlers = last;
        for (int i = 0; i < sinks.size(); i++) {
            addSink(sinks.get(i), i);
        }
        this.tickMillis = serial != null ? tickMillis : 0;
        RingBuffer<LogEvent> ring = disruptor.getRingBuffer();
        ringMetrics.gauge("capacity", "Slots in the ring.", () -> ringSize);
        ringMetrics.gauge("remaining", "Free slots in the ring now (low = stages are behind; sources pause "
                + "reading below a quarter).", ring::remainingCapacity);
        ringMetrics.gauge("published", "Events published into the ring since start.", () -> ring.getCursor() + 1);
    }

    private static WaitStrategy waitStrategy(PipelineConfig.WaitStrategyName name, long idleParkNanos) {
        return switch (name) {
            case backoff -> new BackoffWaitStrategy(idleParkNanos, PipelineConfig.MAX_PARK.nanos(),
                    TimeUnit.MILLISECONDS.toNanos(100), TimeUnit.NANOSECONDS);
            // with a timeout, so that idle stages get onTimeout (sink ticks, flush-timeout) as with backoff
            case blocking -> new LiteTimeoutBlockingWaitStrategy(100, TimeUnit.MILLISECONDS);
            case yielding -> new YieldingWaitStrategy();
            case busySpin -> new BusySpinWaitStrategy();
        };
    }

    /**
     * Adds a sink whose bit in the sink mask is {@code index}: before {@link #start()}, one of the initial sinks;
     * after it, a sink a reload added, whose handler joins the running ring at its current cursor and starts at
     * once (only messages routed after that, i.e. after the reload's carrier, can select it). Called by the thread
     * that starts and reconfigures the pipeline.
     */
    public SinkHandler addSink(SinkBinding b, int index) {
        MetricGroup group = metrics.group("Sink", b.name());
        SinkHandler h = new SinkHandler(b.name(), index, b.sink(), b.policy(), b.maxRetries(),
                b.deadLetters() != null ? b.deadLetters() : new DeadLetterFile(b.name(), null, group), clock, group);
        com.lmax.disruptor.BatchEventProcessor<LogEvent> p = new com.lmax.disruptor.BatchEventProcessorBuilder()
                .build(disruptor.getRingBuffer(), beforeSinks.asSequenceBarrier(), h);
        p.setExceptionHandler(exceptionHandler);
        // the ring sets the new gating sequence to its cursor: no slot this sink has not seen can be overwritten
        disruptor.getRingBuffer().addGatingSequences(p.getSequence());
        SinkStage stage = new SinkStage(h, p);
        if (started) {
            h.startAfter(p.getSequence().get());
            stage.start(threadFactory);
        }
        sinkStages.add(stage);
        return h;
    }

    /** One sink's handler, its processor and the thread that runs it. */
    private static final class SinkStage {
        final SinkHandler handler;
        final com.lmax.disruptor.BatchEventProcessor<LogEvent> processor;
        Thread thread;

        SinkStage(SinkHandler handler, com.lmax.disruptor.BatchEventProcessor<LogEvent> processor) {
            this.handler = handler;
            this.processor = processor;
        }

        void start(ThreadFactory tf) {
            thread = tf.newThread(processor);
            thread.start();
        }
    }

    /** What {@link #reconfigure} achieved. */
    public enum Reconfigured {
        /** The ring had no free slot for the carrier before the deadline: nothing was applied. */
        NOT_PUBLISHED,
        /**
         * The carrier is in the ring but a sink did not reach it in time (it is retrying a failure): every stage
         * applies it when it gets there; a removed sink's handler is taken off the ring at a later reconfiguration or
         * the stop.
         */
        PENDING,
        /** Every stage applied it; the removed sinks' handlers are gone. */
        APPLIED
    }

    /**
     * Applies {@code r} between two messages: publishes one control carrier (waiting for a free slot up to the
     * deadline), waits until every sink handled it (the removed sinks flushed and closed there, the replaced ones
     * restarted), then stops the removed sinks' handlers and takes them off the ring. Called by the thread that
     * reconfigures, never concurrently with itself or {@link #drainAndStop}.
     */
    public Reconfigured reconfigure(Reconfiguration r, long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        RingBuffer<LogEvent> ring = disruptor.getRingBuffer();
        long seq;
        while (true) {
            try {
                seq = ring.tryNext();
                break;
            } catch (com.lmax.disruptor.InsufficientCapacityException full) {
                if (System.nanoTime() - deadline >= 0) {
                    return Reconfigured.NOT_PUBLISHED;
                }
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
        }
        LogEvent carrier = ring.get(seq);
        carrier.clear();
        carrier.setControl(r);
        ring.publish(seq);
        boolean passed = true;
        for (SinkStage s : sinkStages) {
            while (s.processor.getSequence().get() < seq) {
                if (System.nanoTime() - deadline >= 0) {
                    passed = false;
                    break;
                }
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
        }
        removeRetired();
        return passed ? Reconfigured.APPLIED : Reconfigured.PENDING;
    }

    /** Stops the handlers of the sinks a reload removed that have reached its carrier, and takes them off the ring. */
    private void removeRetired() throws InterruptedException {
        for (SinkStage s : sinkStages) {
            if (s.handler.retired()) {
                remove(s);
            }
        }
    }

    private void remove(SinkStage s) throws InterruptedException {
        s.processor.halt();
        if (s.thread != null) {
            s.thread.join(TimeUnit.SECONDS.toMillis(10));
            threads.remove(s.thread);
        }
        disruptor.getRingBuffer().removeGatingSequence(s.processor.getSequence());
        sinkStages.remove(s);
    }

    /**
     * Takes a sink {@link #addSink added} for a reconfiguration that could not be applied off the ring again (no
     * message selected it: none was routed by the new routes); its handler closes the sink as at a stop.
     */
    public void removeSink(SinkHandler h) throws InterruptedException {
        for (SinkStage s : sinkStages) {
            if (s.handler == h) {
                remove(s);
            }
        }
    }

    /** Asks every sink to close and reopen its files after its current batch (SIGUSR1). Any thread. */
    public int requestReopen() {
        for (SinkStage s : sinkStages) {
            s.handler.requestReopen();
        }
        return sinkStages.size();
    }

    public void start() {
        disruptor.start();
        for (SinkStage s : sinkStages) {
            s.start(threadFactory);
        }
        started = true;
        if (tickMillis > 0) {
            Thread t = new Thread(this::tickLoop, "serial-ticker");
            t.setDaemon(true);
            ticker = t;
            t.start();
        }
    }

    /** Offers a clock tick to the serial stage every {@code tickMillis} until stopped (a non-stage thread). */
    private void tickLoop() {
        RingBuffer<LogEvent> ring = disruptor.getRingBuffer();
        while (ticker == Thread.currentThread()) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(tickMillis));
            if (ticker != Thread.currentThread()) {
                return;
            }
            try {
                long seq = ring.tryNext();
                fillCarrier(ring.get(seq), false);
                ring.publish(seq);
            } catch (com.lmax.disruptor.InsufficientCapacityException full) {
                // the ring is busy: the events flowing through it move the clock
            }
        }
    }

    private static void fillCarrier(LogEvent e, boolean fin) {
        e.clear();
        e.addFlag(LogEvent.FLAG_DISCARD | LogEvent.FLAG_CARRIER | (fin ? LogEvent.FLAG_FINAL : 0));
    }

    /** The ring sources publish into. */
    public RingBuffer<LogEvent> ring() {
        return disruptor.getRingBuffer();
    }

    public int ringSize() {
        return ringSize;
    }

    /**
     * The highest ring sequence up to which every event has been flushed by every sink that took it (for a Kafka
     * sink: acknowledged by the broker); without sinks, the sequence every stage has passed. A source that
     * acknowledges upstream (Kafka offsets) acknowledges only events up to this. Any thread.
     */
    public long completedSequence() {
        long min = Long.MAX_VALUE;
        for (SinkStage s : sinkStages) {
            if (!s.handler.retired()) { // a removed sink flushed all it had at the reload
                min = Math.min(min, s.handler.durableSequence());
            }
        }
        if (min == Long.MAX_VALUE) {
            return disruptor.getRingBuffer().getMinimumGatingSequence();
        }
        return min;
    }

    /** The sinks' handlers (not those of sinks a reload removed). Any thread. */
    public List<SinkHandler> sinkHandlers() {
        List<SinkHandler> l = new ArrayList<>();
        for (SinkStage s : sinkStages) {
            if (!s.handler.retired()) {
                l.add(s.handler);
            }
        }
        return l;
    }

    /**
     * Waits until every event published so far has passed every stage, then stops the stages; each
     * sink flushes and closes on its own thread. Call after the sources stopped publishing. Returns
     * false if the stages did not drain in time (then they are halted and sinks give up retrying).
     */
    public boolean drainAndStop(long timeout, TimeUnit unit) throws InterruptedException {
        long drainDeadline = System.nanoTime() + unit.toNanos(timeout);
        Thread tick = ticker;
        ticker = null;
        if (tick != null) {
            LockSupport.unpark(tick);
            tick.join(); // it never blocks (tryNext): no tick can follow the final carrier
        }
        boolean carried = true;
        if (serial != null) {
            // the serial stage flushes what it holds (e.g. open correlation contexts) before the ring drains;
            // a ring that stays full (a sink retrying forever) must not hold the stop past its deadline
            carried = publishFinalCarrier(drainDeadline);
        }
        // Disruptor.shutdown() only counts stages whose thread is already running, so right after start()
        // it would halt with the backlog unprocessed: wait on the last stage's sequences instead.
        boolean drained = carried && awaitConsumed(disruptor.getRingBuffer().getCursor(), drainDeadline);
        if (!drained) {
            sinkHandlers().forEach(SinkHandler::abort);
        }
        disruptor.halt();
        for (SinkStage s : sinkStages) {
            s.processor.halt();
        }
        // the sinks' last flush and close share the drain's deadline (at least a second: a drained ring's sinks
        // still close their files)
        long deadline = Math.max(drainDeadline - System.nanoTime(), TimeUnit.SECONDS.toNanos(1)) + System.nanoTime();
        for (Thread t : threads) {
            long left = deadline - System.nanoTime();
            if (left > 0) {
                t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            }
            if (t.isAlive()) {
                sinkHandlers().forEach(SinkHandler::abort);
                t.join(1000);
                drained &= !t.isAlive();
            }
        }
        if (!drained) {
            long left = disruptor.getRingBuffer().getCursor() - minConsumed();
            if (left > 0) {
                ringAbandoned.add(left);
            }
        }
        return drained;
    }

    private boolean publishFinalCarrier(long deadline) throws InterruptedException {
        RingBuffer<LogEvent> ring = disruptor.getRingBuffer();
        while (true) {
            try {
                long seq = ring.tryNext();
                fillCarrier(ring.get(seq), true);
                ring.publish(seq);
                return true;
            } catch (com.lmax.disruptor.InsufficientCapacityException full) {
                if (System.nanoTime() - deadline >= 0) {
                    return false;
                }
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
        }
    }

    /** The lowest sequence the last stages (the sinks, else the stage before them) have taken. */
    private long minConsumed() {
        long min = Long.MAX_VALUE;
        for (java.util.function.LongSupplier seq : lastStages()) {
            min = Math.min(min, seq.getAsLong());
        }
        return min == Long.MAX_VALUE ? disruptor.getRingBuffer().getCursor() : min;
    }

    private boolean awaitConsumed(long published, long deadline) throws InterruptedException {
        for (java.util.function.LongSupplier seq : lastStages()) {
            while (seq.getAsLong() < published) {
                if (System.nanoTime() - deadline >= 0) {
                    return false;
                }
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
        }
        return true;
    }

    private List<java.util.function.LongSupplier> lastStages() {
        List<java.util.function.LongSupplier> last = new ArrayList<>();
        for (SinkStage s : sinkStages) {
            last.add(s.processor.getSequence()::get);
        }
        if (last.isEmpty()) {
            for (EventHandler<LogEvent> h : beforeSinksHandlers) {
                last.add(() -> disruptor.getSequenceValueFor(h));
            }
        }
        return last;
    }

    /** Stage threads (tests check that they all stopped). */
    public List<Thread> threads() {
        return List.copyOf(threads);
    }
}

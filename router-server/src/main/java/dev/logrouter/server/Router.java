package dev.logrouter.server;

import dev.logrouter.core.config.RouterConfig;
import dev.logrouter.core.event.Tags;
import dev.logrouter.core.journal.JournalsConfig;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.metrics.MetricRegistry;
import dev.logrouter.core.parse.EventParser;
import dev.logrouter.core.parse.syslog.SyslogHeaderParser;
import dev.logrouter.core.pipeline.Pipeline;
import dev.logrouter.core.pipeline.SerialStage;
import dev.logrouter.core.pipeline.SinkBinding;
import dev.logrouter.core.pipeline.SinkHandler;
import dev.logrouter.core.route.RouteEvaluator;
import dev.logrouter.core.route.Routes;
import dev.logrouter.core.sink.DeadLetterFile;
import dev.logrouter.core.sink.Sink;
import dev.logrouter.core.sink.SinkConfig;
import dev.logrouter.core.sink.JournalSpace;
import dev.logrouter.core.sink.SinkContext;
import dev.logrouter.core.source.Source;
import dev.logrouter.core.source.SourceConfig;
import dev.logrouter.core.source.SourceContext;
import dev.logrouter.core.util.Clock;
import dev.logrouter.core.util.SharedResources;
import dev.logrouter.patterndb.stage.CorrelationStage;
import dev.logrouter.patterndb.stage.PatternDbConfig;
import dev.logrouter.patterndb.stage.PatternDbService;
import dev.logrouter.server.http.HttpConfig;
import dev.logrouter.server.http.MonitoringHttp;
import dev.logrouter.server.jmx.MonitoringConfig;
import dev.logrouter.server.jmx.RemoteJmx;

import java.lang.management.ManagementFactory;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The composition root: builds sources, ring, stages and sinks from a {@link RouterConfig}, starts
 * them in reverse data-flow order (sinks and stages first, sources last) and stops them in data-flow
 * order: every source stops accepting first, then open connections finish and everything read is
 * published, the ring drains, sinks flush and close.
 *
 * It also publishes the router's health, MBean {@code dev.logrouter:type=Router,name=main} (state, uptime,
 * {@code resetAllCounters}), and opens remote JMX when {@code monitoring.jmx.port} is set.
 *
 * <p>Threads: {@link #start()} and {@link #stop()} are called by the main thread or the signal
 * handler; {@link #stop()} is idempotent. {@link #state()} is read by JMX threads.
 */
public final class Router {

    /**
     * How long a clean stop waits for the sources to publish what they read, and then for the ring to drain and the
     * sinks to flush, before it gives up (and counts what it abandons): at most twice this in all.
     */
    public static final long STOP_TIMEOUT_SECONDS = 60;

    private final RouterConfig cfg;
    private final MetricRegistry metrics = new MetricRegistry();
    private final Pipeline pipeline;
    /** What the sources share (the network event loops), closed after them. */
    private final SharedResources shared = new SharedResources();
    private final List<Source> sources = new ArrayList<>();
    private boolean started;
    private boolean stopped;
    /** STARTING, RUNNING or STOPPING (DEGRADED is derived from the sinks when read). */
    private volatile String phase = "STARTING";
    private volatile long startMillis;
    private RemoteJmx remoteJmx;
    private MonitoringHttp http;

    public Router(RouterConfig cfg) {
        this.cfg = cfg;
        ZoneId zone = cfg.pipeline().zone();
        PatternDbService pdb = PatternDbService.forRouter(cfg, metrics);
        Routes routes = compileRoutes(cfg, metrics, pdb);
        // correlation is stateful: one stage after the parse workers, only when some rule needs it
        SerialStage serial = pdb != null && pdb.needsCorrelation()
                ? new CorrelationStage(pdb, routes.newEvaluator(), PatternDbConfig.of(cfg), metrics.group("PatternDb", "correlation"))
                : null;
        List<EventParser> parsers = new ArrayList<>();
        for (int i = 0; i < cfg.pipeline().parseWorkers(); i++) {
            SyslogHeaderParser header = new SyslogHeaderParser(zone);
            RouteEvaluator evaluator = routes.newEvaluator();
            parsers.add(event -> {
                header.parse(event);
                evaluator.parse(event);
            });
        }
        List<SinkBinding> sinks = new ArrayList<>();
        JournalSpace journals = cfg.section(JournalsConfig.KEY, JournalsConfig.class).space();
        for (SinkConfig sc : cfg.sinks()) {
            // one dead-letter file per sink, shared by the sink (items it can never write) and its handler (items
            // given up after max-retries)
            DeadLetterFile deadLetters = new DeadLetterFile(sc.name(), sc.deadLetter(), metrics.group("Sink", sc.name()));
            Sink sink = sc.create(new SinkContext(sc.name(), zone, Clock.SYSTEM, metrics.group("Sink", sc.name()),
                    deadLetters, journals));
            sinks.add(new SinkBinding(sc.name(), sc.flushPolicy(), sink, sc.maxRetries(), deadLetters));
        }
        if (journals.journals() > 0) { // only a router with journaled sinks has these
            MetricGroup journalMetrics = metrics.group("Journal", "all");
            journalMetrics.gauge("journalBytes", "Bytes of every journaled sink's segment files together.",
                    journals::used);
            journalMetrics.gauge("maxSizeBytes", "journal.max-size: the limit across journals (0: none).",
                    journals::maxTotal);
        }
        pipeline = new Pipeline(cfg.pipeline().resolveFieldLength(cfg.largestMessageSize()), parsers, serial,
                PatternDbConfig.of(cfg).tick().millis(), sinks, metrics, Clock.SYSTEM);
        try {
            for (int i = 0; i < cfg.sources().size(); i++) {
                SourceConfig sc = cfg.sources().get(i);
                sources.add(sc.create(new SourceContext(sc.name(), i, zone, metrics.group("Source", sc.name()),
                        pipeline.ring(), pipeline::completedSequence, cfg.pipeline().ioThreads(), shared)));
            }
        } catch (RuntimeException | Error e) {
            shared.close(); // the event loops an earlier source made
            throw e;
        }
        MetricGroup health = metrics.group("Router", "main");
        health.text("state", "STARTING, RUNNING, DEGRADED (a sink is retrying after a failure, or giving failing "
                + "items up after max-retries: see degradedBy), or STOPPING.", this::state);
        health.text("degradedBy", "The sinks retrying or giving up now and their last error, empty when none.",
                this::degradedBy);
        health.gauge("uptimeSeconds", "Seconds since the router started (0 before).",
                () -> startMillis == 0 ? 0 : (System.currentTimeMillis() - startMillis) / 1000);
        health.gauge("startTime", "When the router started, in milliseconds since the epoch (0 before).",
                () -> startMillis);
        health.gauge("tags", "Distinct tags registered (configuration and messages), of at most " + Tags.MAX + ".",
                Tags::count);
        health.gauge("tagsRefused", "Tags named by messages (the TAGS of a JSON envelope: Kafka, or a source with format: json) dropped since start because "
                + "messages had registered " + Tags.MAX_FROM_INPUT + " distinct ones already; each event that lost one "
                + "is tagged .limit.max-tags.", Tags::refused);
        health.operation("resetAllCounters", "Makes every counter of every logrouter MBean count from zero again "
                + "(like syslog-ng-ctl stats --reset); gauges and texts are current values and stay.",
                () -> "reset " + metrics.resetCounters() + " counters");
    }

    /** STARTING, RUNNING, DEGRADED or STOPPING. Any thread. */
    public String state() {
        String p = phase;
        if (p.equals("RUNNING")) {
            for (SinkHandler h : pipeline.sinkHandlers()) {
                if (h.degraded()) {
                    return "DEGRADED";
                }
            }
        }
        return p;
    }

    /** The sinks retrying or giving up now and their last error, empty when none. Any thread. */
    public String degradedBy() {
        StringBuilder b = new StringBuilder();
        for (SinkHandler h : pipeline.sinkHandlers()) {
            if (h.degraded()) {
                b.append(b.isEmpty() ? "" : "; ").append("sink ").append(h.name()).append(": ").append(h.lastError());
            }
        }
        return b.toString();
    }

    /**
     * Compiles the routes of {@code cfg} (filters, chains) against the router-wide PatternDB ({@code pdb}, null when
     * none is configured); throws IllegalArgumentException naming the culprit.
     */
    static Routes compileRoutes(RouterConfig cfg, MetricRegistry metrics, PatternDbService pdb) {
        return new Routes(cfg, cfg.pipeline().zone(), metrics, ComponentTypes.REGISTRY::stepTypeName,
                pdb == null ? Map.of() : Map.of(PatternDbService.class, pdb));
    }

    /** Loads the PatternDB rulesets and compiles the routes, as a start would (check-config). */
    static Routes compileRoutes(RouterConfig cfg, MetricRegistry metrics) {
        return compileRoutes(cfg, metrics, PatternDbService.forRouter(cfg, metrics));
    }

    /**
     * Registers the MBeans (state STARTING) and opens remote JMX and the monitoring HTTP listener when configured,
     * then starts sinks and
     * stages, then sources (state RUNNING).
     */
    public synchronized void start() throws Exception {
        metrics.registerJmx();
        if (MonitoringConfig.of(cfg).jmx().remote()) {
            try {
                remoteJmx = RemoteJmx.start(MonitoringConfig.of(cfg).jmx(), ManagementFactory.getPlatformMBeanServer());
            } catch (Exception e) {
                metrics.unregisterJmx();
                throw new java.io.IOException("remote JMX on " + MonitoringConfig.of(cfg).jmx().bind() + ":"
                        + MonitoringConfig.of(cfg).jmx().port() + ": " + e.getMessage(), e);
            }
        }
        HttpConfig httpCfg = MonitoringConfig.of(cfg).http();
        if (httpCfg != null) {
            try {
                http = MonitoringHttp.start(httpCfg, metrics, this::state, this::degradedBy);
            } catch (Exception e) {
                closeJmx();
                throw new java.io.IOException("monitoring HTTP on " + httpCfg.bind() + ":" + httpCfg.port() + ": "
                        + e.getMessage(), e);
            }
        }
        try {
            pipeline.start();
        } catch (RuntimeException | Error e) {
            closeJmx();
            throw e;
        }
        started = true;
        try {
            for (Source s : sources) {
                s.start();
            }
        } catch (Exception e) {
            stop();
            throw e;
        }
        startMillis = System.currentTimeMillis();
        phase = "RUNNING";
    }

    /** The remote JMX URL, or null when remote JMX is off. */
    public synchronized String remoteJmxUrl() {
        return remoteJmx == null ? null : remoteJmx.url().toString();
    }

    /** The monitoring HTTP listener's {@code http(s)://HOST:PORT}, or null when it is off. */
    public synchronized String httpUrl() {
        return http == null ? null : http.url();
    }

    /**
     * Clean stop: returns true when everything read was delivered to the sinks and they closed.
     */
    public synchronized boolean stop() throws InterruptedException {
        if (stopped || !started) {
            stopped = true;
            shared.close(); // never started (or a failed start): only the event loops the sources made
            closeJmx();
            return true;
        }
        stopped = true;
        phase = "STOPPING";
        boolean clean = true;
        for (Source s : sources) {
            s.stopAccepting();
        }
        // one deadline for all sources (they stopped accepting together), then the ring's own
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(STOP_TIMEOUT_SECONDS);
        for (Source s : sources) {
            if (!s.awaitPublished(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                clean = false;
                s.close(); // counts what it abandons
            }
        }
        try {
            clean &= pipeline.drainAndStop(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } finally {
            for (Source s : sources) {
                s.close(); // after the drain: a Kafka source commits what the sinks flushed
            }
        }
        shared.close();
        closeJmx();
        return clean;
    }

    private void closeJmx() {
        if (http != null) {
            http.close();
            http = null;
        }
        if (remoteJmx != null) {
            remoteJmx.close();
            remoteJmx = null;
        }
        metrics.unregisterJmx();
    }

    public MetricRegistry metrics() {
        return metrics;
    }

    public Pipeline pipeline() {
        return pipeline;
    }

    public List<Source> sources() {
        return List.copyOf(sources);
    }

    /** The bound address of a source by name (tests bind to port 0). */
    public String boundAddress(String sourceName) {
        return sources.stream().filter(s -> s.name().equals(sourceName)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no source " + sourceName)).boundAddress();
    }

    public RouterConfig config() {
        return cfg;
    }
}

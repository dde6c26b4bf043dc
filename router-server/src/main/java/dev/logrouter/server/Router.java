package dev.logrouter.server;

import dev.logrouter.core.config.RouterConfig;
import dev.logrouter.core.event.Tags;
import dev.logrouter.core.journal.JournalsConfig;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.metrics.MetricRegistry;
import dev.logrouter.core.parse.EventParser;
import dev.logrouter.core.parse.syslog.SyslogHeaderParser;
import dev.logrouter.core.pipeline.Pipeline;
import dev.logrouter.core.pipeline.Reconfiguration;
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

    private static final System.Logger LOG = System.getLogger(Router.class.getName());

    /**
     * How long a reload waits for a removed or changed source to publish what it read, and for its switch between two
     * messages. (A stop has its own single deadline, {@code pipeline.stop-timeout}.)
     */
    public static final long STOP_TIMEOUT_SECONDS = 60;

    /** The running configuration: replaced by a reload. */
    private volatile RouterConfig cfg;
    private final MetricRegistry metrics = new MetricRegistry();
    private final Pipeline pipeline;
    /** What the sources share (the network event loops), closed after them. */
    private final SharedResources shared = new SharedResources();
    /** The running sources, in start order (a reload replaces, removes and appends). */
    private final List<Source> sources = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** Each running source's number (its bit in routes' source sets) and each sink's (its bit in the sink mask). */
    private final Map<String, Integer> sourceIds = new java.util.HashMap<>();
    private final Map<String, Integer> sinkIds = new java.util.HashMap<>();
    private final JournalSpace journals;
    /** The router-wide PatternDB (null when none is configured); replaced by a reload. */
    private PatternDbService pdb;
    /** Whether the correlation stage runs (fixed at start: a reload that would add it needs a restart). */
    private final boolean correlation;
    /** Where {@link #reload()} reads the configuration again (the file the router started with). */
    private volatile java.util.concurrent.Callable<RouterConfig> configSource;
    private final dev.logrouter.core.metrics.Counter reloads;
    private final dev.logrouter.core.metrics.Counter reloadsRefused;
    private volatile String lastReload = "";
    /** How long a reload's switch may wait for a ring slot, then for every sink (tests shorten it). */
    private volatile long switchTimeoutSeconds = STOP_TIMEOUT_SECONDS;
    private boolean started;
    private boolean stopped;
    /** health.stale-after, in nanoseconds (a reload may change it). */
    private volatile long staleNanos;
    /** Configured sources that are not running, with why (a reload could not start them). */
    private final Map<String, String> notRunning = new java.util.concurrent.ConcurrentHashMap<>();
    /** STARTING, RUNNING or STOPPING (DEGRADED is derived from the sinks when read). */
    private volatile String phase = "STARTING";
    private volatile long startMillis;
    private RemoteJmx remoteJmx;
    private MonitoringHttp http;

    public Router(RouterConfig cfg) {
        this.cfg = cfg;
        this.staleNanos = HealthConfig.of(cfg).staleAfter().nanos();
        ZoneId zone = cfg.pipeline().zone();
        pdb = PatternDbService.forRouter(cfg, metrics);
        for (int i = 0; i < cfg.sources().size(); i++) {
            sourceIds.put(cfg.sources().get(i).name(), i);
        }
        for (int i = 0; i < cfg.sinks().size(); i++) {
            sinkIds.put(cfg.sinks().get(i).name(), i);
        }
        Routes routes = compileRoutes(cfg, metrics, pdb);
        // correlation is stateful: one stage after the parse workers, only when some rule needs it
        SerialStage serial = pdb != null && pdb.needsCorrelation()
                ? new CorrelationStage(pdb, routes.newEvaluator(), PatternDbConfig.of(cfg), metrics.group("PatternDb", "correlation"))
                : null;
        correlation = serial != null;
        List<EventParser> parsers = workerParsers(cfg, routes);
        List<SinkBinding> sinks = new ArrayList<>();
        journals = cfg.section(JournalsConfig.KEY, JournalsConfig.class).space();
        for (SinkConfig sc : cfg.sinks()) {
            sinks.add(binding(sc, cfg));
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
        health.text("state", "STARTING, RUNNING, DEGRADED (a sink is retrying after a failure or giving failing "
                + "items up after max-retries; a sink has delivered nothing for health.stale-after while it has a "
                + "backlog; a configured source is not running, or has failed for health.stale-after: see "
                + "degradedBy), or STOPPING.", this::state);
        health.text("degradedBy", "What makes the router DEGRADED now, one reason per sink or source, empty when "
                + "nothing does.", this::degradedBy);
        health.gauge("uptimeSeconds", "Seconds since the router started (0 before).",
                () -> startMillis == 0 ? 0 : (System.currentTimeMillis() - startMillis) / 1000);
        health.gauge("startTime", "When the router started, in milliseconds since the epoch (0 before).",
                () -> startMillis);
        health.gauge("tags", "Distinct tags registered (configuration and messages), of at most " + Tags.MAX + ".",
                Tags::count);
        health.gauge("tagsRefused", "Tags named by messages (the TAGS of a JSON envelope: Kafka, or a source with format: json) dropped since start because "
                + "messages had registered " + Tags.MAX_FROM_INPUT + " distinct ones already; each event that lost one "
                + "is tagged .limit.max-tags.", Tags::refused);
        reloads = health.counter("reloads", "Configuration reloads applied (SIGHUP, JMX reload, logrouter reload).");
        reloadsRefused = health.counter("reloadsRefused", "Reloads refused: an invalid file, or a change that needs a "
                + "restart (the running configuration went on unchanged; lastReload says why).");
        health.text("lastReload", "What the last reload did or why it was refused, empty before the first.",
                () -> lastReload);
        health.operation("reload", "Reads the configuration file again and applies the difference without losing or "
                + "repeating a message (like syslog-ng-ctl reload); an invalid file or a change that needs a restart is "
                + "refused and the running configuration goes on.", this::reload);
        health.operation("reopen", "Makes every file sink close and reopen its files after its current batch (like "
                + "syslog-ng-ctl reopen; logrotate's postrotate).", this::reopen);
        health.operation("resetAllCounters", "Makes every counter of every logrouter MBean count from zero again "
                + "(like syslog-ng-ctl stats --reset); gauges and texts are current values and stay.",
                () -> "reset " + metrics.resetCounters() + " counters");
    }

    /**
     * STARTING, RUNNING, DEGRADED (some sink or source is not doing its job: {@link #problems()}) or STOPPING. Any
     * thread.
     */
    public String state() {
        String p = phase;
        if (p.equals("RUNNING") && !problems().isEmpty()) {
            return "DEGRADED";
        }
        return p;
    }

    /** Why the router is DEGRADED ({@link #problems()} joined), empty when it is not. Any thread. */
    public String degradedBy() {
        return String.join("; ", problems());
    }

    /**
     * What keeps the router from doing its job now, one line per component, empty when nothing does: a sink that is
     * retrying or giving items up (at once: it holds the ring), a sink that has delivered nothing for
     * {@code health.stale-after} while it has a backlog, a configured source that is not running (a reload could not
     * start it), a source that has failed continuously for {@code health.stale-after}. Any thread; cheap (no I/O).
     */
    public List<String> problems() {
        long now = System.nanoTime();
        long stale = staleNanos;
        List<String> out = new ArrayList<>();
        for (SinkHandler h : pipeline.sinkHandlers()) {
            if (h.degraded()) {
                out.add("sink " + h.name() + ": " + h.lastError());
            } else {
                String why = h.stalled(now, stale);
                if (why != null) {
                    out.add("sink " + h.name() + ": " + why);
                }
            }
        }
        notRunning.forEach((name, why) -> out.add("source " + name + " is not running: " + why));
        for (Source s : sources) {
            String why = s.failing(now, stale);
            if (why != null) {
                out.add("source " + s.name() + ": " + why);
            }
        }
        return out;
    }

    /**
     * The router's and each component's state as JSON, for {@code /health?verbose} and {@code /status}: the state,
     * the problems, each configured source (running or not, and why) and each sink (its handler's state, last error,
     * and whether it is stalled). Any thread.
     */
    public String statusJson() {
        long now = System.nanoTime();
        long stale = staleNanos;
        Map<String, Object> root = new java.util.LinkedHashMap<>();
        root.put("state", state());
        root.put("problems", problems());
        root.put("staleAfterSeconds", TimeUnit.NANOSECONDS.toSeconds(stale));
        root.put("uptimeSeconds", startMillis == 0 ? 0 : (System.currentTimeMillis() - startMillis) / 1000);
        Map<String, Object> srcs = new java.util.LinkedHashMap<>();
        for (SourceConfig sc : cfg.sources()) {
            Map<String, Object> one = new java.util.LinkedHashMap<>();
            Source running = sources.stream().filter(s -> s.name().equals(sc.name())).findFirst().orElse(null);
            one.put("running", running != null);
            if (running != null) {
                one.put("address", running.boundAddress());
                one.put("failing", running.failing(now, stale));
            } else {
                one.put("why", notRunning.getOrDefault(sc.name(), phase));
            }
            srcs.put(sc.name(), one);
        }
        root.put("sources", srcs);
        Map<String, Object> snks = new java.util.LinkedHashMap<>();
        for (SinkHandler h : pipeline.sinkHandlers()) {
            Map<String, Object> one = new java.util.LinkedHashMap<>();
            one.put("state", h.state());
            one.put("lastError", h.lastError());
            one.put("stalled", h.stalled(now, stale));
            snks.put(h.name(), one);
        }
        root.put("sinks", snks);
        try {
            return new com.fasterxml.jackson.databind.ObjectMapper().writerWithDefaultPrettyPrinter()
                    .writeValueAsString(root) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** One parser per parse worker: the syslog header, then the routes (each worker its own instances). */
    private static List<EventParser> workerParsers(RouterConfig cfg, Routes routes) {
        List<EventParser> parsers = new ArrayList<>();
        for (int i = 0; i < cfg.pipeline().parseWorkers(); i++) {
            SyslogHeaderParser header = new SyslogHeaderParser(cfg.pipeline().zone());
            RouteEvaluator evaluator = routes.newEvaluator();
            parsers.add(event -> {
                header.parse(event);
                evaluator.parse(event);
            });
        }
        return parsers;
    }

    /**
     * Builds the sink of {@code sc} (not started) with its dead-letter file, shared by the sink (items it can never
     * write) and its handler (items given up after max-retries).
     */
    private SinkBinding binding(SinkConfig sc, RouterConfig in) {
        DeadLetterFile deadLetters = new DeadLetterFile(sc.name(), sc.deadLetter(), metrics.group("Sink", sc.name()));
        Sink sink = sc.create(new SinkContext(sc.name(), in.pipeline().zone(), Clock.SYSTEM,
                metrics.group("Sink", sc.name()), deadLetters, journals));
        return new SinkBinding(sc.name(), sc.flushPolicy(), sink, sc.maxRetries(), deadLetters);
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
                http = MonitoringHttp.start(httpCfg, metrics, this::state, this::degradedBy, this::statusJson);
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

    /**
     * Where {@link #reload()} reads the configuration again: the file the router was started with, loaded and
     * checked as at start (its errors name the line and column). Set once by the command line before start.
     */
    public void configSource(java.util.concurrent.Callable<RouterConfig> source) {
        this.configSource = source;
    }

    /**
     * SIGHUP, JMX {@code reload}, {@code logrouter reload}: reads the configuration again and applies it ({@link
     * #reload(RouterConfig)}); a file that does not load is refused. Returns what happened, for the operator. Any
     * thread.
     */
    public String reload() {
        java.util.concurrent.Callable<RouterConfig> source = configSource;
        if (source == null) {
            return refused("the router was not started from a configuration file");
        }
        RouterConfig next;
        try {
            next = source.call();
        } catch (Exception e) {
            return refused("invalid configuration: " + e.getMessage());
        }
        return reload(next);
    }

    /**
     * Applies {@code next} without losing or repeating a message:
     * <ol>
     *   <li>refused, with the running configuration going on, when it changes what needs a restart ({@code
     *       pipeline}, {@code monitoring}, {@code journal}, the PatternDB correlation stage) or a component cannot be
     *       built;</li>
     *   <li>added sinks join the ring; then one control carrier goes through it: the parse workers take the new routes
     *       (filters, parsers, rewrites, PatternDB) there, removed sinks flush and close there, changed sinks flush,
     *       close and start with their new options there (a journaled one reopens its journal, backlog included);
     *       a ring that stays full (a sink retrying) refuses the reload before anything changed;</li>
     *   <li>sources that are removed or changed stop accepting, their open connections finish (as at a stop) and what
     *       they read reaches the ring (routed by the new routes); they close once the sinks made it durable;
     *       sources whose options are unchanged keep their sockets and connections;</li>
     *   <li>added and changed sources bind and start.</li>
     * </ol>
     * Any thread (serialised with start and stop).
     */
    public synchronized String reload(RouterConfig next) {
        if (!"RUNNING".equals(phase)) {
            return refused("the router is " + phase);
        }
        String restart = needsRestart(cfg, next);
        if (restart != null) {
            return refused(restart + " changed: that needs a restart (nothing was applied)");
        }
        long t0 = System.nanoTime();
        RouterConfig old = cfg;
        // a source that failed to start at an earlier reload is not running: it counts as added again
        Map<String, SourceConfig> oldSources = byName(old.sources().stream()
                .filter(sc -> sources.stream().anyMatch(src -> src.name().equals(sc.name()))).toList(),
                SourceConfig::name);
        Map<String, SourceConfig> newSources = byName(next.sources(), SourceConfig::name);
        Map<String, SinkConfig> oldSinks = byName(old.sinks(), SinkConfig::name);
        Map<String, SinkConfig> newSinks = byName(next.sinks(), SinkConfig::name);
        // numbers: the ones that stay keep theirs; a new one takes a number neither configuration uses (messages
        // of a removed source, or for a removed sink, are still in the ring while the carrier passes)
        Map<String, Integer> nextSourceIds = ids(newSources.keySet(), sourceIds);
        Map<String, Integer> nextSinkIds = ids(newSinks.keySet(), sinkIds);
        if (nextSourceIds == null || nextSinkIds == null) {
            return refused("more than 64 sources or sinks, counting those removed by this reload: reload in two steps "
                    + "(remove first) or restart");
        }
        List<String> removedSources = new ArrayList<>();
        List<String> changedSources = new ArrayList<>();
        List<String> addedSources = new ArrayList<>();
        diff(oldSources, newSources, removedSources, changedSources, addedSources);
        List<String> removedSinks = new ArrayList<>();
        List<String> changedSinks = new ArrayList<>();
        List<String> addedSinks = new ArrayList<>();
        diff(oldSinks, newSinks, removedSinks, changedSinks, addedSinks);

        // build everything that can fail before anything changes
        PatternDbService nextPdb;
        Routes routes;
        List<EventParser> parsers;
        RouteEvaluator serialRouting;
        Map<String, SinkBinding> built = new java.util.LinkedHashMap<>();
        try {
            nextPdb = PatternDbService.forRouter(next, metrics); // the rulesets are read again, as syslog-ng does
            if (!correlation && nextPdb != null && nextPdb.needsCorrelation()) {
                return refused("patterndb: the new rulesets correlate messages and the running router has no "
                        + "correlation stage: that needs a restart (nothing was applied)");
            }
            if (correlation && nextPdb != null) {
                nextPdb.correlationStageRunning();
            }
            routes = new Routes(next, next.pipeline().zone(), metrics, ComponentTypes.REGISTRY::stepTypeName,
                    nextPdb == null ? Map.of() : Map.of(PatternDbService.class, nextPdb), nextSourceIds, nextSinkIds);
            parsers = workerParsers(next, routes);
            serialRouting = correlation ? routes.newEvaluator() : null;
            for (String n : changedSinks) {
                built.put(n, binding(newSinks.get(n), next));
            }
            for (String n : addedSinks) {
                built.put(n, binding(newSinks.get(n), next));
            }
        } catch (RuntimeException e) {
            for (SinkBinding b : built.values()) {
                closeQuietly(b);
            }
            return refused(e.getMessage());
        }

        // 1. new sinks join the ring; 2. the carrier: new routes, sinks stop or restart, between two messages
        Map<String, dev.logrouter.core.pipeline.SinkHandler> joined = new java.util.LinkedHashMap<>();
        for (String n : addedSinks) {
            joined.put(n, pipeline.addSink(built.get(n), nextSinkIds.get(n)));
        }
        Map<String, SinkBinding> replaced = new java.util.HashMap<>();
        for (String n : changedSinks) {
            replaced.put(n, built.get(n));
        }
        Reconfiguration plan = new Reconfiguration(parsers, serialRouting, replaced, java.util.Set.copyOf(removedSinks));
        Pipeline.Reconfigured outcome;
        try {
            outcome = pipeline.reconfigure(plan, switchTimeoutSeconds, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            outcome = Pipeline.Reconfigured.PENDING;
        }
        if (outcome == Pipeline.Reconfigured.NOT_PUBLISHED) {
            try {
                for (var h : joined.values()) {
                    pipeline.removeSink(h);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            for (String n : changedSinks) {
                closeQuietly(built.get(n));
            }
            for (String n : addedSinks) {
                removeGroup("Sink", n);
            }
            return refused("the ring stayed full for " + switchTimeoutSeconds + " s (" + degradedBy()
                    + "): nothing was applied");
        }
        cfg = next;
        staleNanos = HealthConfig.of(next).staleAfter().nanos();
        pdb = nextPdb;
        sinkIds.clear();
        sinkIds.putAll(nextSinkIds);
        sourceIds.clear();
        sourceIds.putAll(nextSourceIds);
        // 3. sources that go away or change stop accepting; their open connections finish and what they read
        // reaches the ring (after the carrier: the new routes take it); they close once the sinks made it durable
        // (a Kafka source commits it)
        List<Source> stopping = new ArrayList<>();
        for (Source src : sources) {
            if (removedSources.contains(src.name()) || changedSources.contains(src.name())) {
                src.stopAccepting();
                stopping.add(src);
            }
        }
        for (Source src : stopping) {
            try {
                if (!src.awaitPublished(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                    LOG.log(System.Logger.Level.WARNING, "reload: source " + src.name()
                            + " did not publish everything it read in time (counted as abandoned)");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        long published = pipeline.ring().getCursor();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(STOP_TIMEOUT_SECONDS);
        while (!stopping.isEmpty() && pipeline.completedSequence() < published && System.nanoTime() - deadline < 0
                && !Thread.currentThread().isInterrupted()) {
            java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
        }
        for (Source src : stopping) {
            src.close();
            sources.remove(src);
        }
        // 4. added and changed sources bind and start
        List<String> failed = new ArrayList<>();
        for (SourceConfig sc : next.sources()) {
            if (addedSources.contains(sc.name()) || changedSources.contains(sc.name())) {
                Source src = null;
                try {
                    src = sc.create(new SourceContext(sc.name(), nextSourceIds.get(sc.name()),
                            next.pipeline().zone(), metrics.group("Source", sc.name()), pipeline.ring(),
                            pipeline::completedSequence, next.pipeline().ioThreads(), shared));
                    src.start();
                    sources.add(src);
                    notRunning.remove(sc.name());
                } catch (Exception e) {
                    if (src != null) {
                        src.close(); // what it bound or started; the next reload tries it again (not running)
                    }
                    failed.add("source " + sc.name() + " did not start: " + e.getMessage());
                    notRunning.put(sc.name(), "did not start at the reload of " + java.time.Instant.now() + ": "
                            + e.getMessage());
                    LOG.log(System.Logger.Level.ERROR, "reload: source " + sc.name() + " did not start: " + e);
                }
            }
        }
        for (String n : removedSources) {
            notRunning.remove(n);
            removeGroup("Source", n);
        }
        for (String n : removedSinks) {
            if (outcome == Pipeline.Reconfigured.APPLIED) { // else the sink runs until it reaches the switch
                removeGroup("Sink", n);
            }
        }
        for (var r : old.routes()) {
            if (next.routes().stream().noneMatch(x -> x.name().equals(r.name()))) {
                removeGroup("Route", r.name());
            }
        }
        try {
            metrics.registerJmx(); // new groups; the others' attribute lists refreshed
        } catch (javax.management.JMException e) {
            failed.add("JMX registration: " + e.getMessage());
        }
        reloads.inc();
        String what = (failed.isEmpty() ? "reloaded in " : "partly reloaded in ") + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0) + " ms: sources "
                + summary(addedSources, changedSources, removedSources) + ", sinks "
                + summary(addedSinks, changedSinks, removedSinks) + ", " + next.routes().size() + " route(s)"
                + (outcome == Pipeline.Reconfigured.APPLIED ? "" : "; a sink did not reach the switch within "
                        + switchTimeoutSeconds + " s (" + degradedBy() + "): it applies it when it gets there")
                + (failed.isEmpty() ? "" : "; " + String.join("; ", failed));
        lastReload = what;
        LOG.log(failed.isEmpty() && outcome == Pipeline.Reconfigured.APPLIED ? System.Logger.Level.INFO : System.Logger.Level.ERROR, what);
        return what;
    }

    /** Shortens how long a reload's switch waits for the ring (tests). */
    void switchTimeout(long seconds) {
        switchTimeoutSeconds = seconds;
    }

    /** SIGUSR1, JMX {@code reopen}, {@code logrouter reopen}: every sink reopens its files after its batch. */
    public String reopen() {
        int n = pipeline.requestReopen();
        String what = "reopen asked of " + n + " sink(s): each closes and reopens its files after its current batch";
        LOG.log(System.Logger.Level.INFO, what);
        return what;
    }

    private String refused(String why) {
        reloadsRefused.inc();
        lastReload = "refused: " + why;
        LOG.log(System.Logger.Level.ERROR, "reload refused, the running configuration goes on: " + why);
        return lastReload;
    }

    /**
     * The sections of the configuration a running router cannot change (its ring, threads, monitoring and journal
     * quotas), named, or null when none changed.
     */
    static String needsRestart(RouterConfig now, RouterConfig next) {
        List<String> changed = new ArrayList<>();
        if (!now.pipeline().equals(next.pipeline())) {
            changed.add("pipeline (" + differingComponents(now.pipeline(), next.pipeline()) + ")");
        }
        if (!MonitoringConfig.of(now).equals(MonitoringConfig.of(next))) {
            changed.add("monitoring");
        }
        if (!now.section(JournalsConfig.KEY, JournalsConfig.class).equals(next.section(JournalsConfig.KEY,
                JournalsConfig.class))) {
            changed.add(JournalsConfig.KEY);
        }
        PatternDbConfig a = PatternDbConfig.of(now);
        PatternDbConfig b = PatternDbConfig.of(next);
        if (!java.util.Objects.equals(a.maxContexts(), b.maxContexts()) || !java.util.Objects.equals(a.tick(), b.tick())
                || !java.util.Objects.equals(a.expireOnStop(), b.expireOnStop())) {
            changed.add("patterndb options other than files");
        }
        return changed.isEmpty() ? null : String.join(", ", changed);
    }

    /** The record components of {@code a} and {@code b} that differ, by name (for the refusal). */
    private static String differingComponents(Record a, Record b) {
        List<String> names = new ArrayList<>();
        for (var c : a.getClass().getRecordComponents()) {
            try {
                if (!java.util.Objects.equals(c.getAccessor().invoke(a), c.getAccessor().invoke(b))) {
                    names.add(c.getName());
                }
            } catch (ReflectiveOperationException e) {
                names.add(c.getName());
            }
        }
        return String.join(", ", names);
    }

    private static <T> Map<String, T> byName(List<T> items, java.util.function.Function<T, String> name) {
        Map<String, T> m = new java.util.LinkedHashMap<>();
        for (T t : items) {
            m.put(name.apply(t), t);
        }
        return m;
    }

    private static <T> void diff(Map<String, T> old, Map<String, T> next, List<String> removed, List<String> changed,
                                 List<String> added) {
        for (String n : old.keySet()) {
            if (!next.containsKey(n)) {
                removed.add(n);
            } else if (!old.get(n).equals(next.get(n))) {
                changed.add(n);
            }
        }
        for (String n : next.keySet()) {
            if (!old.containsKey(n)) {
                added.add(n);
            }
        }
    }

    /** Numbers for {@code names}: the running ones keep theirs, new ones take the lowest free (null past 63). */
    private static Map<String, Integer> ids(java.util.Collection<String> names, Map<String, Integer> running) {
        Map<String, Integer> ids = new java.util.HashMap<>();
        java.util.BitSet used = new java.util.BitSet();
        running.values().forEach(used::set);
        for (String n : names) {
            Integer id = running.get(n);
            if (id == null) {
                id = used.nextClearBit(0);
                if (id > 63) {
                    return null;
                }
                used.set(id);
            }
            ids.put(n, id);
        }
        return ids;
    }

    private static String summary(List<String> added, List<String> changed, List<String> removed) {
        return "+" + added + " ~" + changed + " -" + removed;
    }

    private void removeGroup(String type, String name) {
        try {
            metrics.remove(type, name);
        } catch (javax.management.JMException e) {
            LOG.log(System.Logger.Level.WARNING, "reload: unregistering " + type + "/" + name + ": " + e);
        }
    }

    private static void closeQuietly(SinkBinding b) {
        try {
            b.sink().close();
        } catch (Exception | Error ignored) {
            // never started: nothing it holds matters more than the refusal
        }
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
        // one deadline for the whole stop (stop-timeout): sources read their connections dry for as long as the
        // sinks make room, then the ring drains and the sinks flush in what is left of it
        long timeout = cfg.pipeline().stopTimeoutOrDefault().nanos();
        long deadline = System.nanoTime() + timeout;
        // the sources read until a sixth of it is left (15 s of the default 90 s): senders that never stop writing
        // into a slow sink must not leave the ring, read before the stop, no time to drain
        long sourcesDeadline = deadline - timeout / 6;
        for (Source s : sources) {
            s.stopAccepting();
        }
        for (Source s : sources) {
            if (!s.awaitPublished(Math.max(0, sourcesDeadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                clean = false;
                s.close(); // counts what it abandons
            }
        }
        try {
            // the sinks' own close (a last flush, a journal's cursor) gets at least a second
            long left = Math.max(TimeUnit.SECONDS.toNanos(1), deadline - System.nanoTime());
            clean &= pipeline.drainAndStop(left, TimeUnit.NANOSECONDS);
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

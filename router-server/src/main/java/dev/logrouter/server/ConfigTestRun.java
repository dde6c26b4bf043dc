package dev.logrouter.server;

import dev.logrouter.core.config.RouteConfig;
import dev.logrouter.core.config.RouterConfig;
import dev.logrouter.core.config.PipelineConfig;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.metrics.MetricRegistry;
import dev.logrouter.core.parse.syslog.SyslogHeaderParser;
import dev.logrouter.core.route.RouteEvaluator;
import dev.logrouter.core.route.Routes;
import dev.logrouter.core.sink.SinkConfig;
import dev.logrouter.core.sink.SinkContext;
import dev.logrouter.core.sink.SinkEncoder;
import dev.logrouter.core.source.SourceConfig;
import dev.logrouter.core.template.ByteBuilder;
import dev.logrouter.core.util.Clock;
import dev.logrouter.patterndb.stage.PatternDbService;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The offline run behind {@code logrouter test}: sample messages through a configuration's parsing, routes and sink
 * encoders, without a ring, a thread, a socket or a file. Each message is filled as the chosen source fills what it
 * receives (its name and number, its format hint, peer 127.0.0.1, one receive time for all), parsed as a parse worker
 * parses it (the syslog header, then the routes' {@link RouteEvaluator} with their parser, PatternDB and rewrite
 * chains), and encoded by the encoder of every sink its sink mask selects ({@link SinkConfig#encoder}: no delivery is
 * built, so nothing connects, no file or journal is created), which {@link SinkEncoder#describe} shows as text.
 *
 * <p>Left out: the PatternDB correlation stage ({@link #correlationLeftOut()}: its contexts, actions and generated
 * messages), the source's framing and {@code max-message-size}, and what a sink's delivery decides (a path refused,
 * a record too large).
 *
 * <p>Threads: one instance belongs to one thread (the caller's); the encoders and the evaluator keep scratch state.
 */
final class ConfigTestRun {

    /** The sender address a sample message arrives from. */
    static final byte[] PEER = "127.0.0.1".getBytes(StandardCharsets.US_ASCII);

    /**
     * What became of one message: the routes that took it (in the order they were evaluated), and per sink its
     * mask selected, in configuration order, the record that sink would write as {@link SinkEncoder#describe}
     * shows it ({@code error} when its encoder threw). {@code discarded}: a step dropped the message.
     */
    record Result(int line, String input, List<String> routes, boolean discarded,
                  Map<String, Map<String, String>> sinks) {
    }

    private final RouterConfig cfg;
    private final MetricRegistry metrics = new MetricRegistry();
    private final SyslogHeaderParser header;
    private final RouteEvaluator evaluator;
    /** Routes in evaluation order (normal routes, then the fallbacks), with their {@code matched} counters. */
    private final List<String> routeNames = new ArrayList<>();
    private final List<MetricGroup> routeGroups = new ArrayList<>();
    private final long[] matchedBefore;
    private final SinkEncoder[] encoders;
    private final ByteBuilder record = new ByteBuilder(1024);
    private final LogEvent event = new LogEvent();
    private final int sourceId;
    private final byte[] sourceName;
    private final byte formatHint;
    private final long receivedMillis;
    private final boolean correlationLeftOut;

    /**
     * @param source         the source the messages arrive on (null: the first one)
     * @param receivedMillis the receive time of every message
     * @throws IllegalArgumentException when there is no such source (the message lists those there are)
     */
    ConfigTestRun(RouterConfig cfg, String source, long receivedMillis) {
        this.cfg = cfg;
        this.receivedMillis = receivedMillis;
        int id = -1;
        for (int i = 0; i < cfg.sources().size(); i++) {
            if (source == null || cfg.sources().get(i).name().equals(source)) {
                id = i;
                break;
            }
        }
        if (id < 0) {
            throw new IllegalArgumentException(cfg.sources().isEmpty() ? "the configuration has no source"
                    : "no source '" + source + "' (there are: "
                    + String.join(", ", cfg.sources().stream().map(SourceConfig::name).toList()) + ")");
        }
        SourceConfig sc = cfg.sources().get(id);
        this.sourceId = id; // its number as the router gives it: config order
        this.sourceName = sc.name().getBytes(StandardCharsets.UTF_8);
        this.formatHint = sc.formatHint();

        PatternDbService pdb = PatternDbService.forRouter(cfg, metrics);
        this.correlationLeftOut = pdb != null && pdb.needsCorrelation();
        Routes routes = Router.compileRoutes(cfg, metrics, pdb);
        this.evaluator = routes.newEvaluator();
        this.header = new SyslogHeaderParser(cfg.pipeline().zone());
        for (boolean fallback : new boolean[] {false, true}) {
            for (RouteConfig r : cfg.routes()) {
                if (Boolean.TRUE.equals(r.fallback()) == fallback) {
                    routeNames.add(r.name());
                    routeGroups.add(metrics.require("Route", r.name()));
                }
            }
        }
        this.matchedBefore = new long[routeNames.size()];
        PipelineConfig pipeline = cfg.pipeline().resolveFieldLength(cfg.largestMessageSize());
        event.fields().setLimits(pipeline.fieldCountLimit(), pipeline.fieldLengthLimit());

        encoders = new SinkEncoder[cfg.sinks().size()];
        for (int i = 0; i < encoders.length; i++) {
            SinkConfig sink = cfg.sinks().get(i);
            // no dead-letter file: an encoder never writes one (the delivery and the handler do)
            encoders[i] = sink.encoder(new SinkContext(sink.name(), cfg.pipeline().zone(), Clock.SYSTEM,
                    metrics.group("Sink", sink.name()), null));
        }
    }

    /** True when the PatternDB rulesets correlate messages or have actions: that stage is not run here. */
    boolean correlationLeftOut() {
        return correlationLeftOut;
    }

    /** Runs the message {@code message[off, off+len)} from input line {@code line}. */
    Result run(int line, byte[] message, int off, int len) {
        LogEvent e = event;
        e.clear();
        e.setRaw(message, off, len);
        e.setPeer(PEER, 0, PEER.length);
        e.setSource(sourceId, sourceName, formatHint, 0L);
        e.setReceivedMillis(receivedMillis);

        for (int i = 0; i < matchedBefore.length; i++) {
            matchedBefore[i] = routeGroups.get(i).value("matched");
        }
        header.parse(e);
        evaluator.parse(e);
        List<String> took = new ArrayList<>();
        for (int i = 0; i < matchedBefore.length; i++) {
            if (routeGroups.get(i).value("matched") != matchedBefore[i]) {
                took.add(routeNames.get(i));
            }
        }

        boolean discarded = e.hasFlag(LogEvent.FLAG_DISCARD);
        Map<String, Map<String, String>> sinks = new LinkedHashMap<>();
        for (int i = 0; i < encoders.length && !discarded; i++) {
            if ((e.sinkMask() & (1L << i)) == 0) {
                continue;
            }
            SinkConfig sink = cfg.sinks().get(i);
            if (encoders[i] == null) {
                sinks.put(sink.name(), Map.of("record", "(not shown: this sink type has no offline encoder)"));
                continue;
            }
            record.reset();
            try {
                encoders[i].encode(e, record);
                sinks.put(sink.name(), encoders[i].describe(record.array(), 0, record.length()));
            } catch (RuntimeException ex) {
                sinks.put(sink.name(), Map.of("error", String.valueOf(ex)));
            }
        }
        return new Result(line, new String(message, off, len, StandardCharsets.UTF_8), took, discarded, sinks);
    }
}

package dev.logrouter.server;

import dev.logrouter.core.config.ConfigLoader;
import dev.logrouter.core.config.SinkConfig;
import dev.logrouter.core.config.RouterConfig;
import dev.logrouter.core.config.SourceConfig;
import dev.logrouter.core.metrics.MetricRegistry;
import dev.logrouter.core.parse.ParserConfig;
import dev.logrouter.core.parse.ParserTypes;
import dev.logrouter.core.route.Routes;
import dev.logrouter.netty.tcp.TcpSourceConfig;
import dev.logrouter.patterndb.stage.PatternDbParserConfig;
import dev.logrouter.patterndb.stage.PatternDbService;
import dev.logrouter.netty.udp.UdpSourceConfig;
import dev.logrouter.sinks.elasticsearch.ElasticsearchSinkConfig;
import dev.logrouter.sinks.hdfs.HdfsSinkConfig;
import dev.logrouter.sinks.file.FileSinkConfig;
import dev.logrouter.sinks.kafka.KafkaSinkConfig;
import dev.logrouter.sinks.kafka.KafkaSourceConfig;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The source and sink types this build knows: the YAML {@code type:} names and their config records.
 *
 * <p>Threads: immutable.
 */
public final class ComponentTypes {

    public static final Map<String, Class<? extends SourceConfig>> SOURCES = new LinkedHashMap<>();
    public static final Map<String, Class<? extends SinkConfig>> SINKS = new LinkedHashMap<>();
    public static final Map<String, Class<? extends ParserConfig>> PARSERS = new LinkedHashMap<>();

    static {
        SOURCES.put("tcp", TcpSourceConfig.class);
        SOURCES.put("udp", UdpSourceConfig.class);
        SOURCES.put("kafka", KafkaSourceConfig.class);
        SINKS.put("file", FileSinkConfig.class);
        SINKS.put("kafka", KafkaSinkConfig.class);
        SINKS.put("elasticsearch", ElasticsearchSinkConfig.class);
        SINKS.put("hdfs", HdfsSinkConfig.class);
        PARSERS.putAll(ParserTypes.core());
        PARSERS.put("patterndb", PatternDbParserConfig.class);
    }

    private ComponentTypes() {
    }

    /** The reference tables of every option, as printed in the README. */
    public static String reference() {
        Map<String, Class<?>> sections = new LinkedHashMap<>();
        sections.put("top level", dev.logrouter.core.config.RouterConfig.class);
        SOURCES.forEach((name, type) -> sections.put("sources[] type: " + name, type));
        sections.put("sources[] type: tcp .tls", dev.logrouter.netty.tls.TlsConfig.class);
        sections.put("pipeline", dev.logrouter.core.config.PipelineConfig.class);
        sections.put("routes[]", dev.logrouter.core.config.RouteConfig.class);
        // either kind of step may stand in either kind of chain; the headings say where each is meant to go
        PARSERS.forEach((name, type) -> sections.put((type.getPackageName().endsWith(".rewrite")
                ? "rewrites.<chain>[] type: " : "parsers.<chain>[] type: ") + name, type));
        SINKS.forEach((name, type) -> sections.put("sinks[] type: " + name, type));
        sections.put("patterndb", dev.logrouter.core.config.PatternDbConfig.class);
        sections.put("monitoring.jmx", dev.logrouter.core.config.JmxConfig.class);
        sections.put("monitoring.jmx.tls", dev.logrouter.core.config.JmxTlsConfig.class);
        return dev.logrouter.core.config.ConfigReference.markdown(sections);
    }

    public static ConfigLoader loader() {
        return new ConfigLoader(SOURCES, SINKS, PARSERS);
    }

    /** The YAML type name of a parser-chain step record. */
    public static String parserTypeName(Class<? extends ParserConfig> type) {
        for (Map.Entry<String, Class<? extends ParserConfig>> e : PARSERS.entrySet()) {
            if (e.getValue() == type) {
                return e.getKey();
            }
        }
        throw new IllegalArgumentException("unregistered parser type " + type.getName());
    }

    /**
     * Compiles the routes of {@code cfg} (filters, chains) with the router-wide PatternDB ({@code pdb}, null when none
     * is configured): throws IllegalArgumentException naming the culprit.
     */
    public static Routes routes(RouterConfig cfg, MetricRegistry metrics, PatternDbService pdb) {
        return new Routes(cfg, cfg.pipeline().zone(), metrics, ComponentTypes::parserTypeName,
                pdb == null ? Map.of() : Map.of(PatternDbService.class, pdb));
    }

    /** Compiles the routes, loading the PatternDB rulesets first (check-config). */
    public static Routes routes(RouterConfig cfg, MetricRegistry metrics) {
        return routes(cfg, metrics, patternDb(cfg, metrics));
    }

    /**
     * Loads the rulesets of {@code patterndb.files}; null when none are configured. Throws
     * IllegalArgumentException with the file, line and reason when a file does not load.
     */
    public static PatternDbService patternDb(RouterConfig cfg, MetricRegistry metrics) {
        if (cfg.patterndb().files().isEmpty()) {
            return null;
        }
        try {
            return PatternDbService.load(cfg.patterndb(), cfg.pipeline().zone(), metrics.group("PatternDb", "main"));
        } catch (java.io.IOException | dev.logrouter.patterndb.ruleset.PdbLoadException e) {
            throw new IllegalArgumentException("patterndb.files: " + e.getMessage(), e);
        }
    }
}

package dev.logrouter.core.config;

import dev.logrouter.core.journal.JournalsConfig;
import dev.logrouter.core.parse.ParserConfig;
import dev.logrouter.core.parse.csv.CsvParserConfig;
import dev.logrouter.core.parse.json.JsonParserConfig;
import dev.logrouter.core.parse.kv.KvParserConfig;
import dev.logrouter.core.parse.regex.RegexParserConfig;
import dev.logrouter.core.parse.xml.XmlParserConfig;
import dev.logrouter.core.rewrite.ClearTagConfig;
import dev.logrouter.core.rewrite.SetConfig;
import dev.logrouter.core.rewrite.SetTagConfig;
import dev.logrouter.core.rewrite.SubstConfig;
import dev.logrouter.core.rewrite.UnsetConfig;

import java.util.Map;

/**
 * The core's chain steps ({@code type:} in {@code parsers:} and {@code rewrites:}): message parsers and rewrite
 * rules. Registered through {@code META-INF/services}; other modules (PatternDB) add theirs with providers of their own.
 *
 * <p>Threads: stateless.
 */
public final class CoreComponents implements ComponentProvider {

    @Override
    public int order() {
        return 0;
    }

    @Override
    public void register(ComponentRegistry r) {
        r.section(JournalsConfig.KEY, JournalsConfig.class, "What every journaled sink shares: the journals' "
                + "directory and their size limit together.");
        r.step("json", JsonParserConfig.class)
                .step("kv", KvParserConfig.class)
                .step("xml", XmlParserConfig.class)
                .step("csv", CsvParserConfig.class)
                .step("regex", RegexParserConfig.class)
                .step("set", SetConfig.class)
                .step("unset", UnsetConfig.class)
                .step("subst", SubstConfig.class)
                .step("set-tag", SetTagConfig.class)
                .step("clear-tag", ClearTagConfig.class);
    }

    /** The core's steps alone: YAML type name → config record, in documentation order (tests, benchmarks). */
    public static Map<String, Class<? extends ParserConfig>> steps() {
        ComponentRegistry r = new ComponentRegistry();
        new CoreComponents().register(r);
        return r.steps();
    }
}

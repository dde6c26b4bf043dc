package dev.logrouter.core.parse;

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


import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The parser-chain step types of the core ({@code type:} in {@code parsers:} and {@code rewrites:}):
 * message parsers and rewrite rules. Other modules (PatternDB) add theirs when the server assembles the
 * type registry.
 *
 * <p>Threads: immutable after class initialisation.
 */
public final class ParserTypes {

    private static final Map<String, Class<? extends ParserConfig>> TYPES = new LinkedHashMap<>();

    static {
        TYPES.put("json", JsonParserConfig.class);
        TYPES.put("kv", KvParserConfig.class);
        TYPES.put("xml", XmlParserConfig.class);
        TYPES.put("csv", CsvParserConfig.class);
        TYPES.put("regex", RegexParserConfig.class);
        TYPES.put("set", SetConfig.class);
        TYPES.put("unset", UnsetConfig.class);
        TYPES.put("subst", SubstConfig.class);
        TYPES.put("set-tag", SetTagConfig.class);
        TYPES.put("clear-tag", ClearTagConfig.class);
    }

    private ParserTypes() {
    }

    /** YAML type name → config record, in documentation order. */
    public static Map<String, Class<? extends ParserConfig>> core() {
        return java.util.Collections.unmodifiableMap(TYPES);
    }
}

package dev.logrouter.core.parse;

import dev.logrouter.core.parse.csv.CsvParserConfig;
import dev.logrouter.core.parse.regex.RegexParserConfig;
import dev.logrouter.core.parse.xml.XmlParserConfig;

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
        TYPES.put("xml", XmlParserConfig.class);
        TYPES.put("csv", CsvParserConfig.class);
        TYPES.put("regex", RegexParserConfig.class);
    }

    private ParserTypes() {
    }

    /** YAML type name → config record, in documentation order. */
    public static Map<String, Class<? extends ParserConfig>> core() {
        return java.util.Collections.unmodifiableMap(TYPES);
    }
}

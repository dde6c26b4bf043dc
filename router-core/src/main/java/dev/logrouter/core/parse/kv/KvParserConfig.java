package dev.logrouter.core.parse.kv;

import dev.logrouter.core.option.Option;
import dev.logrouter.core.parse.EventParser;
import dev.logrouter.core.parse.ParseContext;
import dev.logrouter.core.parse.ParserConfig;

/**
 * {@code type: kv}: {@code key=value} pairs in the message (or in a template's output), like syslog-ng's
 * {@code kv-parser()}.
 *
 * <p>Threads: immutable; {@link #create} runs on the configuring thread, once per parse worker.
 */
public record KvParserConfig(
        @Option(doc = "Step name for the counters (type=Parser,name=...); default <chain>.kv.",
                defaultValue = Option.NONE)
        String name,
        @Option(doc = "Prepended to every key, e.g. \".kv.\" (syslog-ng prefix(); default none, as there).",
                defaultValue = "\"\"")
        String prefix,
        @Option(doc = "What to parse: ${MSG} (read in place) or any template (syslog-ng template()).",
                defaultValue = "\"${MSG}\"")
        String template,
        @Option(doc = "The one ASCII character between a key and its value; not a space or a quote "
                + "(syslog-ng value-separator()).", defaultValue = "\"=\"")
        String valueSeparator,
        @Option(doc = "What ends an unquoted value besides the space heuristics (a space followed by another key= "
                + "or the end); a value that is a single space turns the heuristics off (syslog-ng "
                + "pair-separator()).", defaultValue = "\", \"")
        String pairSeparator,
        @Option(doc = "Field that receives the words that are not part of a pair, as a comma-separated list; not "
                + "prefixed; set (possibly empty) on every message (syslog-ng stray-words-value-name()). Default: "
                + "stray words are dropped.", defaultValue = Option.NONE)
        String strayWordsValueName) implements ParserConfig {

    public KvParserConfig {
        if (template != null && template.isEmpty()) {
            throw new IllegalArgumentException("template must not be empty; leave it out to parse ${MSG}");
        }
        if (valueSeparator != null) {
            if (valueSeparator.length() != 1 || valueSeparator.charAt(0) >= 0x80) {
                throw new IllegalArgumentException("value-separator must be exactly one ASCII character, got \""
                        + valueSeparator + "\"");
            }
            char c = valueSeparator.charAt(0);
            if (c == ' ' || c == '"' || c == '\'') {
                throw new IllegalArgumentException("value-separator cannot be a space or a quote, got \""
                        + valueSeparator + "\"");
            }
        }
        if (pairSeparator != null && pairSeparator.isEmpty()) {
            throw new IllegalArgumentException("pair-separator must not be empty; leave it out for \", \"");
        }
        if (strayWordsValueName != null && strayWordsValueName.isEmpty()) {
            throw new IllegalArgumentException("stray-words-value-name must not be empty; leave it out to drop "
                    + "stray words");
        }
    }

    @Override
    public EventParser create(ParseContext ctx) {
        return new KvFieldParser(this, ctx);
    }
}

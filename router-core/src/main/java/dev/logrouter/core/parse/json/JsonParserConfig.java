package dev.logrouter.core.parse.json;

import dev.logrouter.core.option.Option;
import dev.logrouter.core.parse.EventParser;
import dev.logrouter.core.parse.ParseContext;
import dev.logrouter.core.parse.ParserConfig;

/**
 * {@code type: json}: a JSON object in the message (or in a template's output) flattened into name-value pairs,
 * like syslog-ng's {@code json-parser()}.
 *
 * <p>Threads: immutable; {@link #create} runs on the configuring thread, once per parse worker.
 */
public record JsonParserConfig(
        @Option(doc = "Step name for the counters (type=Parser,name=...); default <chain>.json.",
                defaultValue = Option.NONE)
        String name,
        @Option(doc = "Prepended to every field name, e.g. \".json.\" (syslog-ng prefix(); default none, as there).",
                defaultValue = "\"\"")
        String prefix,
        @Option(doc = "What to parse: ${MSG} (read in place) or any template (syslog-ng template()).",
                defaultValue = "\"${MSG}\"")
        String template,
        @Option(doc = "Parse only what follows this text at the very start of the input, e.g. \"@cee:\"; whitespace "
                + "after it is skipped. Input without the marker is a parse failure (syslog-ng marker()).",
                defaultValue = Option.NONE)
        String marker,
        @Option(doc = "One character joining the names of nested objects: {\"a\":{\"b\":1}} gives a.b "
                + "(syslog-ng key-delimiter()).", defaultValue = "\".\"")
        String keyDelimiter,
        @Option(doc = "Deepest nesting of objects and arrays accepted (the top-level object counts as 1); deeper "
                + "input is a parse failure.", defaultValue = "64")
        Integer maxDepth,
        @Option(doc = "Longest string value or member name, in characters; a longer one is a parse failure.",
                defaultValue = "65536")
        Integer maxStringLength) implements ParserConfig {

    public JsonParserConfig {
        if (template != null && template.isEmpty()) {
            throw new IllegalArgumentException("template must not be empty; leave it out to parse ${MSG}");
        }
        if (marker != null && marker.isEmpty()) {
            throw new IllegalArgumentException("marker must not be empty; leave it out to parse the whole input");
        }
        if (keyDelimiter != null && keyDelimiter.length() != 1) {
            throw new IllegalArgumentException("key-delimiter must be exactly one character, got \""
                    + keyDelimiter + "\"");
        }
        if (maxDepth != null && (maxDepth < 1 || maxDepth > 10_000)) {
            throw new IllegalArgumentException("max-depth must be between 1 and 10000, got " + maxDepth);
        }
        if (maxStringLength != null && maxStringLength < 1) {
            throw new IllegalArgumentException("max-string-length must be >= 1, got " + maxStringLength);
        }
    }

    @Override
    public EventParser create(ParseContext ctx) {
        return new JsonFieldParser(this, ctx);
    }
}

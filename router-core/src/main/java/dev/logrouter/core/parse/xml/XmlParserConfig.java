package dev.logrouter.core.parse.xml;

import dev.logrouter.core.option.Option;
import dev.logrouter.core.parse.EventParser;
import dev.logrouter.core.parse.FieldParser;
import dev.logrouter.core.parse.ParseContext;
import dev.logrouter.core.parse.ParserConfig;

import java.util.List;

/**
 * {@code type: xml}: element text and attributes flattened to dotted names, like syslog-ng's {@code xml()}
 * parser ({@code <a><b id="1">x</b></a>} → {@code .xml.a.b = x}, {@code .xml.a.b._id = 1}).
 *
 * <p>Threads: immutable; {@link #create} is called on the configuring thread.
 */
public record XmlParserConfig(
        @Option(doc = "Name for the parser's counters (type=Parser,name=...); default <chain>.xml.",
                defaultValue = Option.NONE)
        String name,
        @Option(doc = "Prepended to every field name; a dot is added between the prefix and the first element "
                + "unless the prefix is empty or already ends with one.", defaultValue = "\".xml.\"")
        String prefix,
        @Option(doc = "What to parse: ${MSG} or any template (syslog-ng template()).", defaultValue = "\"${MSG}\"")
        String template,
        @Option(doc = "Strip leading and trailing whitespace from every text chunk and drop chunks that are only "
                + "whitespace (syslog-ng strip-whitespaces(yes)).", defaultValue = "false")
        Boolean stripWhitespaces,
        @Option(doc = "Glob patterns (* and ?) of element names whose whole subtree is skipped.",
                defaultValue = "[]")
        List<String> excludeTags,
        @Option(doc = "Most nested elements; deeper documents are a parse failure.", defaultValue = "32")
        Integer maxDepth,
        @Option(doc = "Also discard a message that fails to parse, so that no sink writes it (syslog-ng "
                + "drop-invalid(yes)); without it the message goes on, tagged .parse.xml.failed.",
                defaultValue = "false")
        Boolean dropInvalid) implements ParserConfig {

    /** The largest max-depth accepted. */
    public static final int DEPTH_LIMIT = 1000;

    public XmlParserConfig {
        if (maxDepth != null && (maxDepth < 1 || maxDepth > DEPTH_LIMIT)) {
            throw new IllegalArgumentException("max-depth must be between 1 and " + DEPTH_LIMIT + ", got " + maxDepth);
        }
        if (excludeTags != null) {
            for (String t : excludeTags) {
                if (t == null || t.isEmpty()) {
                    throw new IllegalArgumentException("exclude-tags: a pattern cannot be empty");
                }
            }
        }
        if (template != null && template.isEmpty()) {
            throw new IllegalArgumentException("template must not be empty (use \"${MSG}\" for the message)");
        }
    }

    /** A config with the defaults, for tests and benchmarks. */
    public static XmlParserConfig defaults() {
        return new XmlParserConfig(null, ".xml.", FieldParser.MSG_INPUT, false, List.of(), 32, false);
    }

    @Override
    public EventParser create(ParseContext ctx) {
        return new XmlParser(this, ctx);
    }
}

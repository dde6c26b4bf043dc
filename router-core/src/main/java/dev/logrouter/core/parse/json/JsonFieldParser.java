package dev.logrouter.core.parse.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.JsonTokenId;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.async.ByteArrayFeeder;
import com.fasterxml.jackson.core.io.NumberInput;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.parse.FieldParser;
import dev.logrouter.core.parse.ParseContext;
import dev.logrouter.core.template.ByteBuilder;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The {@code json} parser: reads one JSON object with Jackson's streaming parser (no tree, no data binding) and
 * writes every scalar member as a field, with syslog-ng 3.38 {@code json-parser()} naming and values:
 * <ul>
 *   <li>nested objects are flattened with the key delimiter: {@code {"a":{"b":1}}} → {@code a.b=1};</li>
 *   <li>array elements are named by index, recursively: {@code {"a":[1,{"b":2}]}} → {@code a[0]=1},
 *       {@code a[1].b=2};</li>
 *   <li>strings are stored unescaped (UTF-8), {@code true}/{@code false} as such, integers in decimal (clamped to
 *       the 64-bit range), numbers with a fraction or exponent as C's {@code %f} (six decimals), and {@code null}
 *       is not stored;</li>
 *   <li>input whose top level is not an object, broken or truncated JSON, anything but whitespace after the
 *       object, nesting deeper than {@code max-depth}, a string longer than {@code max-string-length} and, with a
 *       marker, input not starting with it, are failures: {@link FieldParser} rolls back what was written.</li>
 * </ul>
 * Single-quoted strings are accepted, as json-c (syslog-ng's parser) accepts them.
 *
 * <p>Most messages never reach Jackson: {@link JsonFastPath} reads the common subset (ASCII, double quotes,
 * standard escapes) straight from the bytes and hands everything else back, which is then rolled back and parsed
 * here, so behaviour and failures are Jackson's either way.
 *
 * <p>Jackson's blocking parser makes garbage per message (a parser object, its I/O context, read context and
 * symbol-table child). This class instead keeps one <em>non-blocking</em> byte-array parser and
 * feeds it each message as the next top-level value, so a warm instance allocates nothing per message: member names
 * come from the parser's symbol table as canonical Strings, values are read as char ranges. The parser is renewed
 * after any failure (its state is then mid-document) and after {@value #RENEW_AFTER_BYTES} bytes of input, which
 * bounds what an endless stream of distinct member names can make its symbol table hold.
 *
 * <p>Threads: one instance per parse worker, used by that worker only.
 */
public final class JsonFieldParser extends FieldParser {

    private static final byte[] TRUE = "true".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] FALSE = "false".getBytes(StandardCharsets.US_ASCII);
    /** Input fed to one parser before it is replaced by a fresh one (and its symbol table with it). */
    static final long RENEW_AFTER_BYTES = 1L << 20;
    private static final OutputStream DISCARD = OutputStream.nullOutputStream();

    private final JsonFactory factory;
    private final byte[] marker;
    private final byte[] keyDelimiter;
    /** Per open container (index = depth): the name length to return to, and the next array index (-1: object). */
    private final int[] nameMark;
    private final int[] nextIndex;
    private JsonParser parser;
    private ByteArrayFeeder feeder;
    private long fedToParser;
    private final JsonFastPath fastPath;
    private boolean fastPathEnabled = true;

    JsonFieldParser(JsonParserConfig cfg, ParseContext ctx) {
        super(cfg.prefix(), cfg.template(), ctx);
        this.factory = JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder()
                        .maxNestingDepth(cfg.maxDepth())
                        .maxStringLength(cfg.maxStringLength())
                        .maxNameLength(cfg.maxStringLength())
                        .build())
                .enable(JsonReadFeature.ALLOW_SINGLE_QUOTES)
                .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
                .disable(JsonFactory.Feature.INTERN_FIELD_NAMES)
                .recyclerPool(JsonRecyclerPools.threadLocalPool())
                .build();
        this.marker = cfg.marker() == null ? null : cfg.marker().getBytes(StandardCharsets.UTF_8);
        this.keyDelimiter = cfg.keyDelimiter().getBytes(StandardCharsets.UTF_8);
        this.nameMark = new int[cfg.maxDepth() + 2];
        this.nextIndex = new int[cfg.maxDepth() + 2];
        this.fastPath = new JsonFastPath(out, keyDelimiter, cfg.maxDepth(), cfg.maxStringLength());
    }

    /** For tests: every message through Jackson, to compare the two paths. */
    void disableFastPath() {
        fastPathEnabled = false;
    }

    @Override
    protected boolean parse(byte[] in, int off, int len, LogEvent event) {
        int start = off;
        int end = off + len;
        if (marker != null) {
            if (len < marker.length || !Arrays.equals(in, off, off + marker.length, marker, 0, marker.length)) {
                return false;
            }
            start += marker.length;
            while (start < end && isCSpace(in[start])) {
                start++;
            }
        }
        if (fastPathEnabled) {
            if (fastPath.parse(in, start, end) == JsonFastPath.DONE) {
                return true;
            }
            // outside the fast path's subset: undo its writes and let Jackson read the message
            discardOutput();
        }
        boolean ok = false;
        try {
            if (parser == null || fedToParser > RENEW_AFTER_BYTES) {
                renewParser();
            }
            fedToParser += end - start;
            feeder.feedInput(in, start, end);
            ok = readObject(parser, in, end);
        } catch (IOException e) {
            // syntax error or a StreamReadConstraints limit: a failure, counted by the caller
            ok = false;
        } finally {
            if (!ok) {
                // stopped mid-document, also when a RuntimeException (the output budget spent) is on its way to
                // the caller: the next message needs a fresh parser
                closeParser();
            }
        }
        return ok;
    }

    private void renewParser() throws IOException {
        closeParser();
        parser = factory.createNonBlockingByteArrayParser();
        feeder = (ByteArrayFeeder) parser.getNonBlockingInputFeeder();
        fedToParser = 0;
    }

    private void closeParser() {
        if (parser != null) {
            try {
                parser.close();
            } catch (IOException e) {
                // nothing to release that matters: the parser reads from memory
            }
            parser = null;
            feeder = null;
        }
    }

    /** Walks the token stream of one top-level object, writing each scalar; false when the input is not one. */
    private boolean readObject(JsonParser p, byte[] in, int end) throws IOException {
        if (p.nextToken() != JsonToken.START_OBJECT) {
            return false;
        }
        ByteBuilder name = out.name();
        int depth = 0;
        nameMark[0] = name.length();
        nextIndex[0] = -1;
        while (true) {
            JsonToken t = p.nextToken();
            if (t == null || t == JsonToken.NOT_AVAILABLE) {
                // the input ended inside the object (the non-blocking parser waits for more; there is none).
                // currentTokenId() would still report the previous token here, so test the returned one.
                return false;
            }
            switch (t.id()) {
                case JsonTokenId.ID_FIELD_NAME: {
                    out.truncateName(nameMark[depth]);
                    String key = p.currentName(); // canonical instance from Jackson's symbol table
                    name.appendUtf8(key, 0, key.length());
                    break;
                }
                case JsonTokenId.ID_START_OBJECT:
                    elementName(depth);
                    name.append(keyDelimiter);
                    depth++;
                    nameMark[depth] = name.length();
                    nextIndex[depth] = -1;
                    break;
                case JsonTokenId.ID_START_ARRAY:
                    elementName(depth);
                    depth++;
                    nameMark[depth] = name.length();
                    nextIndex[depth] = 0;
                    break;
                case JsonTokenId.ID_END_OBJECT:
                case JsonTokenId.ID_END_ARRAY:
                    if (depth == 0) {
                        return onlyWhitespaceFollows(p, in, end);
                    }
                    depth--;
                    break;
                case JsonTokenId.ID_STRING:
                    elementName(depth);
                    out.setUtf8(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
                    break;
                case JsonTokenId.ID_NUMBER_INT:
                    elementName(depth);
                    writeInteger(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
                    break;
                case JsonTokenId.ID_NUMBER_FLOAT: {
                    elementName(depth);
                    double d = NumberInput.parseDouble(p.getTextCharacters(), p.getTextOffset(), p.getTextLength(),
                            true);
                    ByteBuilder v = out.scratchValue();
                    FixedDecimal.appendFixed6(v, d);
                    out.set(v.array(), 0, v.length());
                    break;
                }
                case JsonTokenId.ID_TRUE:
                    elementName(depth);
                    out.set(TRUE, 0, TRUE.length);
                    break;
                case JsonTokenId.ID_FALSE:
                    elementName(depth);
                    out.set(FALSE, 0, FALSE.length);
                    break;
                case JsonTokenId.ID_NULL:
                    elementName(depth); // takes an array index, but nothing is stored (syslog-ng 3.38)
                    break;
                default:
                    return false;
            }
        }
    }

    /** After the top-level object: true when the rest of the input is JSON whitespace, which is then consumed. */
    private static boolean onlyWhitespaceFollows(JsonParser p, byte[] in, int end) throws IOException {
        int left = p.releaseBuffered(DISCARD); // reports the unread byte count, reads nothing
        for (int i = end - left; i < end; i++) {
            byte b = in[i];
            if (b != ' ' && b != '\t' && b != '\n' && b != '\r') {
                return false;
            }
        }
        return p.nextToken() == JsonToken.NOT_AVAILABLE;
    }

    /** Inside an array, names the next element {@code <array name>[i]}; inside an object the name is the key's. */
    private void elementName(int depth) {
        int i = nextIndex[depth];
        if (i >= 0) {
            out.truncateName(nameMark[depth]);
            out.name().append((byte) '[').appendDecimal(i).append((byte) ']');
            nextIndex[depth] = i + 1;
        }
    }

    /** Writes a JSON integer in decimal, clamped to the signed 64-bit range as json-c's int64 accessor does. */
    private void writeInteger(char[] c, int off, int len) {
        int i = off;
        int end = off + len;
        boolean negative = c[i] == '-';
        if (negative) {
            i++;
        }
        long v = 0; // accumulated negatively so that Long.MIN_VALUE fits
        boolean overflow = false;
        for (; i < end; i++) {
            int digit = c[i] - '0';
            if (v < (Long.MIN_VALUE + digit) / 10) {
                overflow = true;
                break;
            }
            v = v * 10 - digit;
        }
        long value;
        if (overflow) {
            value = negative ? Long.MIN_VALUE : Long.MAX_VALUE;
        } else if (negative) {
            value = v;
        } else {
            value = v == Long.MIN_VALUE ? Long.MAX_VALUE : -v;
        }
        ByteBuilder b = out.scratchValue();
        b.appendDecimal(value);
        out.set(b.array(), 0, b.length());
    }

    /** C's isspace() in the "C" locale: what syslog-ng skips after the marker. */
    private static boolean isCSpace(byte b) {
        return b == ' ' || (b >= '\t' && b <= '\r');
    }
}

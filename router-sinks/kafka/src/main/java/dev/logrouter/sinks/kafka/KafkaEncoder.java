package dev.logrouter.sinks.kafka;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.sink.SinkEncoder;
import dev.logrouter.core.template.ByteBuilder;
import dev.logrouter.core.template.Template;

import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The encoder half of the Kafka sink: one event to one Kafka record, rendered from the topic, key, header and value
 * templates, in a framing {@link KafkaDelivery} reads back (and a journal keeps across restarts):
 * <pre>
 *   u8  topic length (1..249)   topic bytes (made a valid topic name: see {@link #topic})
 *   i32 key length (-1: no key)  key bytes
 *   u8  header count            per header: u16 name length, name (UTF-8), i32 value length, value
 *   value bytes (the rest of the record)
 * </pre>
 * Integers are big-endian. A key that renders empty is no key; a header whose value renders empty is left out.
 *
 * <p>Threads: the sink's thread ({@code sink-<name>}); keeps scratch state.
 */
final class KafkaEncoder implements SinkEncoder {

    /** Longest topic name Kafka accepts. */
    static final int MAX_TOPIC = 249;
    /** Most headers a record carries (the count is one byte). */
    static final int MAX_HEADERS = 255;

    private final Template topicTemplate;
    private final Template keyTemplate;
    private final Template valueTemplate;
    private final byte[][] headerNames;
    private final Template[] headerTemplates;

    KafkaEncoder(KafkaSinkConfig cfg, ZoneId zone) {
        this.topicTemplate = Template.compile(cfg.topic(), zone);
        this.keyTemplate = cfg.key() == null ? null : Template.compile(cfg.key(), zone);
        this.valueTemplate = Template.compile(cfg.template(), zone);
        Map<String, String> headers = cfg.headers();
        if (headers.size() > MAX_HEADERS) {
            throw new IllegalArgumentException("at most " + MAX_HEADERS + " headers, got " + headers.size());
        }
        this.headerNames = new byte[headers.size()][];
        this.headerTemplates = new Template[headers.size()];
        int i = 0;
        for (Map.Entry<String, String> h : headers.entrySet()) {
            headerNames[i] = h.getKey().getBytes(java.nio.charset.StandardCharsets.UTF_8);
            if (headerNames[i].length > 0xFFFF) {
                throw new IllegalArgumentException("header name longer than 65535 bytes");
            }
            headerTemplates[i++] = Template.compile(h.getValue(), zone);
        }
    }

    @Override
    public void encode(LogEvent event, ByteBuilder out) {
        int topicAt = out.length();
        out.append((byte) 0);
        topicTemplate.render(event, out);
        out.ensure(1); // room for the "_" of an empty name
        out.setLength(topicAt + 1 + topic(out.array(), topicAt + 1, out.length() - topicAt - 1));
        out.array()[topicAt] = (byte) (out.length() - topicAt - 1);

        int keyAt = out.length();
        out.appendInt(-1);
        if (keyTemplate != null) {
            keyTemplate.render(event, out);
            int n = out.length() - keyAt - 4;
            if (n > 0) {
                ByteBuilder.setInt(out.array(), keyAt, n);
            }
        }

        int countAt = out.length();
        out.append((byte) 0);
        int count = 0;
        for (int i = 0; i < headerTemplates.length; i++) {
            int at = out.length();
            byte[] name = headerNames[i];
            out.append((byte) (name.length >>> 8)).append((byte) name.length).append(name);
            int valueAt = out.length();
            out.appendInt(0);
            headerTemplates[i].render(event, out);
            int n = out.length() - valueAt - 4;
            if (n == 0) {
                out.setLength(at); // empty values are left out
            } else {
                ByteBuilder.setInt(out.array(), valueAt, n);
                count++;
            }
        }
        out.array()[countAt] = (byte) count;

        valueTemplate.render(event, out);
    }

    /**
     * Makes {@code b[off, off+len)} a valid topic name in place: bytes outside {@code a-z A-Z 0-9 . _ -} become
     * {@code _}, the name is cut at 249 bytes, an empty name is {@code _} and {@code .}/{@code ..} become
     * {@code _}/{@code _.}. Returns the new length (at least 1; {@code b} must have room for one byte).
     */
    static int topic(byte[] b, int off, int len) {
        int n = Math.min(len, MAX_TOPIC);
        for (int i = off; i < off + n; i++) {
            byte c = b[i];
            if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_'
                    || c == '-')) {
                b[i] = '_';
            }
        }
        if (n == 0) {
            b[off] = '_';
            n = 1;
        } else if (n <= 2 && b[off] == '.' && (n == 1 || b[off + 1] == '.')) {
            b[off] = '_'; // "." and ".." are not topic names
        }
        return n;
    }
    /**
     * {@code topic}; {@code key} when the record has one; {@code header.NAME} per header; {@code value}.
     */
    @Override
    public Map<String, String> describe(byte[] r, int off, int len) {
        Map<String, String> parts = new LinkedHashMap<>();
        int topic = r[off] & 0xFF;
        parts.put("topic", new String(r, off + 1, topic, StandardCharsets.UTF_8));
        int p = off + 1 + topic;
        int keyLen = ByteBuilder.getInt(r, p);
        p += 4;
        if (keyLen >= 0) {
            parts.put("key", new String(r, p, keyLen, StandardCharsets.UTF_8));
            p += keyLen;
        }
        int headers = r[p++] & 0xFF;
        for (int i = 0; i < headers; i++) {
            int nameLen = (r[p] & 0xFF) << 8 | (r[p + 1] & 0xFF);
            String name = new String(r, p + 2, nameLen, StandardCharsets.UTF_8);
            p += 2 + nameLen;
            int valueLen = ByteBuilder.getInt(r, p);
            parts.put("header." + name, new String(r, p + 4, valueLen, StandardCharsets.UTF_8));
            p += 4 + valueLen;
        }
        parts.put("value", new String(r, p, off + len - p, StandardCharsets.UTF_8));
        return parts;
    }

    /** The key and the value (as the producer's record size counts them, headers aside). */
    @Override
    public int payloadLength(byte[] r, int off, int len) {
        int p = off + 1 + (r[off] & 0xFF);
        int keyLen = ByteBuilder.getInt(r, p);
        p += 4 + Math.max(0, keyLen);
        int headers = r[p++] & 0xFF;
        for (int i = 0; i < headers; i++) {
            p += 2 + ((r[p] & 0xFF) << 8 | (r[p + 1] & 0xFF));
            p += 4 + ByteBuilder.getInt(r, p);
        }
        return Math.max(0, keyLen) + off + len - p;
    }
}

package dev.logrouter.core.parse.syslog;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.event.SyslogNames;
import dev.logrouter.core.event.Tags;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads back an event from the JSON object a {@code kafka} sink writes by default,
 * {@code $(format-json --scope rfc5424 --scope all-nv-pairs --key ISODATE --key USEC --key TAGS --key SOURCEIP)}, so that
 * routers reading Kafka see the event the edge router saw:
 * <ul>
 *   <li>{@code HOST}, {@code PROGRAM}, {@code PID}, {@code MSGID}, {@code MESSAGE} → the header fields;</li>
 *   <li>{@code FACILITY} and {@code PRIORITY} (names or numbers) → PRI (user.notice when absent);</li>
 *   <li>{@code ISODATE} → the stamp (the receive time when absent or unreadable), with {@code USEC} as its
 *       microseconds (ISODATE has whole seconds); {@code DATE} is ignored;</li>
 *   <li>{@code TAGS} (comma-separated) → tags; {@code SOURCEIP} → the peer address ({@code $SOURCEIP});</li>
 *   <li>every other member → a name-value pair; objects are flattened with dots ({@code {"a":{"b":1}}} →
 *       {@code a.b}), arrays as {@code name[i]}, and a top-level name starting with {@code _} gets its leading
 *       dot back ({@code _SDATA.x} → {@code .SDATA.x}, {@code _json.user} → {@code .json.user}): format-json
 *       wrote {@code .}-names that way. Numbers and booleans keep their JSON text; nulls are skipped.</li>
 * </ul>
 * A frame that is not one JSON object (or is cut) is left to the syslog parsers ({@link #parse} returns false,
 * after undoing what it wrote).
 *
 * <p>Threads: a parse worker thread; one instance per {@link SyslogHeaderParser}, not thread-safe.
 */
final class JsonEnvelopeParser {

    private static final JsonFactory FACTORY = JsonFactory.builder().build();
    private static final int MAX_DEPTH = 64;

    private final StampResolver stamps;
    private final StringBuilder name = new StringBuilder(64);
    private final Map<String, Integer> tagIds = new HashMap<>();

    JsonEnvelopeParser(StampResolver stamps) {
        this.stamps = stamps;
    }

    /** Parses {@code b[off, end)} into {@code e}; false (and {@code e}'s parsed part untouched) when it is not JSON. */
    boolean parse(LogEvent e, byte[] b, int off, int end) {
        int facility = -1;
        int severity = -1;
        String isodate = null;
        String sourceIp = null;
        int usec = -1;
        e.fields().beginTransaction();
        try (JsonParser p = FACTORY.createParser(b, off, end - off)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return undo(e);
            }
            for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                String key = p.currentName();
                JsonToken v = p.nextToken();
                int header = LogEvent.headerField(key);
                if (header >= 0 && v.isScalarValue()) {
                    byte[] text = p.getText().getBytes(StandardCharsets.UTF_8);
                    e.setFieldCopy(header, text, 0, text.length);
                } else if (key.equals("FACILITY") && v.isScalarValue()) {
                    facility = number(p, v, true);
                } else if (key.equals("PRIORITY") && v.isScalarValue()) {
                    severity = number(p, v, false);
                } else if (key.equals("ISODATE") && v == JsonToken.VALUE_STRING) {
                    isodate = p.getText();
                } else if (key.equals("USEC") && v.isScalarValue()) {
                    usec = micros(p.getText());
                } else if (key.equals("TAGS") && v == JsonToken.VALUE_STRING) {
                    for (String tag : p.getText().split(",")) {
                        if (!tag.isEmpty()) {
                            e.addTag(tagIds.computeIfAbsent(tag, Tags::id));
                        }
                    }
                } else if (key.equals("SOURCEIP") && v == JsonToken.VALUE_STRING) {
                    sourceIp = p.getText();
                } else if (!key.equals("DATE")) {
                    name.setLength(0);
                    name.append(key.startsWith("_") ? "." + key.substring(1) : key);
                    value(e, p, v, 0);
                }
            }
            if (p.currentToken() != JsonToken.END_OBJECT || p.nextToken() != null) {
                return undo(e);
            }
        } catch (IOException ex) {
            return undo(e); // not JSON, or cut
        }
        e.fields().commit();
        if (sourceIp != null) {
            byte[] ip = sourceIp.getBytes(StandardCharsets.UTF_8);
            e.setPeer(ip, 0, ip.length);
        }
        // a missing facility or severity takes user.notice's part, as a message without PRI
        e.setPri(((facility < 0 ? LogEvent.DEFAULT_PRI >> 3 : facility) << 3)
                | (severity < 0 ? LogEvent.DEFAULT_PRI & 7 : severity));
        if (!stamp(e, isodate, usec)) {
            stamps.setReceiveTime(e);
        }
        return true;
    }

    /** Undoes a partial parse (fields, header fields, tags are left to the fallback's writes): false. */
    private static boolean undo(LogEvent e) {
        e.fields().rollback();
        for (int f = LogEvent.HOST; f <= LogEvent.MSG; f++) {
            e.unsetField(f);
        }
        while (e.tagCount() > 0) {
            e.removeTag(e.tagAt(0));
        }
        return false;
    }

    /** Writes the value at the parser's current token under {@link #name}, flattening containers. */
    private void value(LogEvent e, JsonParser p, JsonToken v, int depth) throws IOException {
        switch (v) {
            case START_OBJECT -> {
                int at = name.length();
                for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                    name.setLength(at);
                    name.append('.').append(p.currentName());
                    JsonToken inner = p.nextToken();
                    if (depth >= MAX_DEPTH) {
                        p.skipChildren();
                    } else {
                        value(e, p, inner, depth + 1);
                    }
                }
                name.setLength(at);
            }
            case START_ARRAY -> {
                int at = name.length();
                int i = 0;
                for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken(), i++) {
                    name.setLength(at);
                    name.append('[').append(i).append(']');
                    if (depth >= MAX_DEPTH) {
                        p.skipChildren();
                    } else {
                        value(e, p, t, depth + 1);
                    }
                }
                name.setLength(at);
            }
            case VALUE_NULL -> {
            }
            default -> e.fields().set(name.toString(), p.getText());
        }
    }

    private static int number(JsonParser p, JsonToken v, boolean facility) throws IOException {
        if (v == JsonToken.VALUE_NUMBER_INT) {
            int n = p.getIntValue();
            return facility ? (n >= 0 && n < 24 ? n : -1) : (n >= 0 && n < 8 ? n : -1);
        }
        String s = p.getText();
        return facility ? SyslogNames.facilityNumber(s) : SyslogNames.severityNumber(s);
    }

    private static int micros(String s) {
        if (s.isEmpty() || s.length() > 6) {
            return -1;
        }
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            n = n * 10 + (c - '0');
        }
        return n;
    }

    private static boolean stamp(LogEvent e, String isodate, int usec) {
        if (isodate == null) {
            return false;
        }
        try {
            OffsetDateTime t = OffsetDateTime.parse(isodate);
            int micros = t.getNano() != 0 || usec < 0 ? t.getNano() / 1000 : usec;
            e.setStamp(t.toEpochSecond(), micros, t.getOffset().getTotalSeconds());
            return true;
        } catch (DateTimeParseException ex) {
            return false;
        }
    }
}

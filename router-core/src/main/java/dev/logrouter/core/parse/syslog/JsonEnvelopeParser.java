package dev.logrouter.core.parse.syslog;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.logrouter.core.event.FieldTable;
import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.event.StructuredData;
import dev.logrouter.core.event.SyslogNames;
import dev.logrouter.core.event.Tags;
import dev.logrouter.core.parse.FieldParser;
import dev.logrouter.core.template.ByteBuilder;

import java.io.IOException;

/**
 * Reads back an event from the JSON object a {@code kafka} sink writes by default,
 * {@code $(format-json --scope rfc5424 --scope all-nv-pairs --key ISODATE --key USEC --key TAGS --key SOURCEIP)}, so that
 * routers reading Kafka see the event the edge router saw:
 * <ul>
 *   <li>{@code HOST}, {@code PROGRAM}, {@code PID}, {@code MSGID}, {@code MESSAGE} → the header fields;</li>
 *   <li>{@code FACILITY} and {@code PRIORITY} (names or numbers) → PRI (user.notice when absent);</li>
 *   <li>{@code ISODATE} → the stamp (the receive time when absent or unreadable), with {@code USEC} as its
 *       microseconds (ISODATE has whole seconds) and then 6 fraction digits (else those ISODATE had); {@code DATE}
 *       is ignored;</li>
 *   <li>{@code TAGS} (comma-separated) → tags; {@code SOURCEIP} → the peer address ({@code $SOURCEIP});</li>
 *   <li>every other member → a name-value pair; objects are flattened with dots ({@code {"a":{"b":1}}} →
 *       {@code a.b}), arrays as {@code name[i]}, and a top-level name starting with {@code _} gets its leading
 *       dot back ({@code _SDATA.x} → {@code .SDATA.x}, {@code _json.user} → {@code .json.user}): format-json
 *       wrote {@code .}-names that way. Numbers and booleans keep their JSON text; nulls are skipped.</li>
 * </ul>
 * A frame that is not one JSON object (or is cut, or would flatten into more name-value bytes than
 * {@link FieldParser#outputBudget} allows for its size) is left to the syslog parsers ({@link #parse} returns false,
 * after undoing what it wrote). ISODATE is read by the syslog parsers' own {@link SyslogTimestampScanner} (a stamp
 * without zone is in the receiver's zone, as theirs).
 *
 * <p>Allocation: Jackson's parser object per message; names, values and the known members are read from Jackson's
 * character buffer into the event's tables and scratch buffers, without a String per member.
 *
 * <p>Threads: a parse worker thread; one instance per {@link SyslogHeaderParser}, not thread-safe.
 */
final class JsonEnvelopeParser {

    private static final JsonFactory FACTORY = JsonFactory.builder().build();
    private static final int MAX_DEPTH = 64;

    private final StampResolver stamps;
    private final SyslogTimestampScanner timestamp;
    /** The name of the member being written (UTF-8), built segment by segment. */
    private final ByteBuilder name = new ByteBuilder(64);
    /** A member's text as UTF-8, for the header fields and the members read here. */
    private final ByteBuilder text = new ByteBuilder(256);
    /** The last TAGS value seen and its tag ids: a source's messages mostly carry the same tags. */
    private final ByteBuilder lastTags = new ByteBuilder(64);
    private int[] lastTagIds = new int[0];
    /** How many names of the last TAGS value the registry refused, and the registry's size then. */
    private int lastRefused;
    private int lastRegistryCount;
    /** How many tags the registry refused for the event being parsed. */
    private int refusedTags;

    JsonEnvelopeParser(StampResolver stamps, SyslogTimestampScanner timestamp) {
        this.stamps = stamps;
        this.timestamp = timestamp;
    }

    /** Parses {@code b[off, end)} into {@code e}; false (and {@code e}'s parsed part untouched) when it is not JSON. */
    boolean parse(LogEvent e, byte[] b, int off, int end) {
        int facility = -1;
        int severity = -1;
        int usec = -1;
        boolean stamped = false;
        int peerAt = -1;
        int peerLen = 0;
        refusedTags = 0;
        e.fields().beginTransaction(FieldParser.outputBudget(end - off)); // bounded as the message parsers' output
        try (JsonParser p = FACTORY.createParser(b, off, end - off)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return undo(e);
            }
            for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                String key = p.currentName(); // canonical: from Jackson's symbol table
                JsonToken v = p.nextToken();
                int header = LogEvent.headerField(key);
                Member member = header >= 0 ? null : Member.of(key);
                if (v.isScalarValue() && v != JsonToken.VALUE_NULL && (header >= 0 || member != null)) {
                    utf8(p);
                    if (header >= 0) {
                        e.setFieldCopy(header, text.array(), 0, text.length());
                        continue;
                    }
                    switch (member) {
                        case FACILITY -> facility = SyslogNames.facilityNumber(text.array(), 0, text.length());
                        case PRIORITY -> severity = SyslogNames.severityNumber(text.array(), 0, text.length());
                        case ISODATE -> stamped = timestamp.scanIso(text.array(), 0, text.length()) == text.length();
                        case USEC -> usec = micros(text.array(), text.length());
                        case TAGS -> tags(e);
                        case SOURCEIP -> {
                            peerAt = e.auxAppend(text.array(), 0, text.length());
                            peerLen = text.length();
                        }
                        case DATE -> {
                            // redundant with ISODATE
                        }
                        default -> throw new IllegalStateException();
                    }
                } else {
                    name.reset();
                    if (key.startsWith("_")) {
                        name.append((byte) '.'); // format-json wrote a leading dot as _
                        name.appendUtf8(key, 1, key.length() - 1);
                    } else {
                        name.appendUtf8(key, 0, key.length());
                    }
                    value(e, p, v, 0);
                }
            }
            if (p.currentToken() != JsonToken.END_OBJECT || p.nextToken() != null) {
                return undo(e);
            }
        } catch (IOException | FieldTable.OverBudgetException ex) {
            return undo(e); // not JSON, or cut, or flattening into far more than its size
        }
        e.fields().commit();
        if (refusedTags > 0) {
            Tags.countRefused(refusedTags);
            e.addTag(LogEvent.TAG_MAX_TAGS);
        }
        if (peerAt >= 0) {
            e.setPeer(e.aux(), peerAt, peerLen);
        }
        // a missing facility or severity takes user.notice's part, as a message without PRI
        e.setPri(((facility < 0 ? LogEvent.DEFAULT_PRI >> 3 : facility) << 3)
                | (severity < 0 ? LogEvent.DEFAULT_PRI & 7 : severity));
        if (stamped) {
            if (usec >= 0) {
                if (timestamp.micros == 0) {
                    timestamp.micros = usec; // ISODATE has whole seconds: USEC carries the rest
                }
                timestamp.fracDigits = LogEvent.MAX_FRAC_DIGITS; // microseconds: 6 digits, as a relay writes them
            }
            stamps.setScanned(e, timestamp);
        } else {
            stamps.setReceiveTime(e);
        }
        return true;
    }

    /** The members read into the header, PRI, stamp, tags and peer rather than the name-value table. */
    private enum Member {
        FACILITY, PRIORITY, ISODATE, USEC, TAGS, SOURCEIP, DATE;

        static Member of(String key) {
            return switch (key) {
                case "FACILITY" -> FACILITY;
                case "PRIORITY" -> PRIORITY;
                case "ISODATE" -> ISODATE;
                case "USEC" -> USEC;
                case "TAGS" -> TAGS;
                case "SOURCEIP" -> SOURCEIP;
                case "DATE" -> DATE;
                default -> null;
            };
        }
    }

    /** The current token's text as UTF-8 in {@link #text}. */
    private void utf8(JsonParser p) throws IOException {
        text.reset();
        text.appendUtf8(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
    }

    /**
     * Adds the comma-separated tags in {@link #text}, registering names only when the value changed. Names the
     * registry refuses ({@link Tags#fromInput}: too many came from messages) are dropped, counted and the event is
     * tagged {@link LogEvent#TAG_MAX_TAGS}. Names are registered as they are read, so a frame that turns out not to
     * be an envelope may still have used some of the messages' share (which stays bounded).
     */
    private void tags(LogEvent e) {
        if (!lastTags.contentEquals(text.array(), 0, text.length())
                || lastRefused > 0 && Tags.count() != lastRegistryCount) { // the configuration may have added one
            lastTags.reset();
            lastTags.append(text.array(), 0, text.length());
            String[] names = lastTags.toString().split(",");
            int[] ids = new int[names.length];
            int n = 0;
            int refused = 0;
            for (String tag : names) {
                if (!tag.isEmpty()) {
                    int id = Tags.fromInput(tag);
                    if (id >= 0) {
                        ids[n++] = id;
                    } else {
                        refused++;
                    }
                }
            }
            lastTagIds = java.util.Arrays.copyOf(ids, n);
            lastRefused = refused;
            lastRegistryCount = Tags.count();
        }
        for (int id : lastTagIds) {
            e.addTag(id);
        }
        refusedTags += lastRefused; // counted once the parse is committed (a repeated TAGS member adds up)
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
                    String key = p.currentName();
                    name.append((byte) '.').appendUtf8(key, 0, key.length());
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
                    name.append((byte) '[').appendDecimal(i).append((byte) ']');
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
            default -> {
                // a structured-data entry (_SDATA.id.param) carries its SD-ID's length, as the syslog parser's do
                int i = e.fields().begin(name.array(), 0, name.length(),
                        StructuredData.sdIdLength(name.array(), 0, name.length()));
                e.fields().appendUtf8ToValue(i, p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
            }
        }
    }

    /** USEC's digits (at most 6), or -1. */
    private static int micros(byte[] s, int len) {
        if (len == 0 || len > 6) {
            return -1;
        }
        int n = 0;
        for (int i = 0; i < len; i++) {
            byte c = s[i];
            if (c < '0' || c > '9') {
                return -1;
            }
            n = n * 10 + (c - '0');
        }
        return n;
    }
}

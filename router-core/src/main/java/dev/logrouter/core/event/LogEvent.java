package dev.logrouter.core.event;

import java.util.Arrays;

/**
 * One syslog message in a ring slot. Created once per slot by {@link #FACTORY} and mutated in place
 * for every message that passes through the slot: nothing here is allocated per message.
 *
 * <p>Threads: a source thread (Netty event loop) fills the receive part ({@link #setRaw}, peer, source)
 * while it owns the claimed sequence; then exactly one parse worker fills the header part; then the
 * sink handlers read it. The Disruptor's sequence barriers give the happens-before edges, so there is no
 * locking here.
 *
 * <p>Header fields ({@link #HOST}, {@link #PROGRAM}, ...) are spans: an offset and a length in one of
 * three byte arrays the event owns: the raw frame ({@link #IN_RAW}), an auxiliary buffer for
 * composed values ({@link #IN_AUX}), or the sender address text ({@link #IN_PEER}). Use
 * {@link #fieldArray(int)}, {@link #fieldOffset(int)} and {@link #fieldLength(int)}; the array
 * returned is owned by the event and valid only until the slot is reused.
 */
public final class LogEvent {

    /** Ring slot factory: one event per slot, created when the ring is built. */
    public static final com.lmax.disruptor.EventFactory<LogEvent> FACTORY = LogEvent::new;

    /** Field ids. */
    public static final int HOST = 0;
    public static final int PROGRAM = 1;
    public static final int PID = 2;
    public static final int MSGID = 3;
    public static final int MSG = 4;
    private static final int FIELD_COUNT = 5;

    /**
     * The header field a configured name denotes ({@code HOST}, {@code PROGRAM}, {@code PID}, {@code MSGID},
     * {@code MSG} or {@code MESSAGE}), or -1 when the name is a field of the name-value table.
     */
    public static int headerField(String name) {
        return switch (name) {
            case "HOST" -> HOST;
            case "PROGRAM" -> PROGRAM;
            case "PID" -> PID;
            case "MSGID" -> MSGID;
            case "MSG", "MESSAGE" -> MSG;
            default -> -1;
        };
    }

    /** Where a field's bytes live. */
    public static final byte IN_RAW = 0;
    public static final byte IN_AUX = 1;
    public static final byte IN_PEER = 2;

    /** PRI used when a message has none (user.notice), as RFC 3164 and syslog-ng do. */
    public static final int DEFAULT_PRI = 13;

    /** Format hints a source gives the parser. */
    public static final byte FORMAT_AUTO = 0;
    public static final byte FORMAT_RFC3164 = 1;
    public static final byte FORMAT_RFC5424 = 2;

    /** Flag: the syslog header could not be parsed; MSG holds a replacement text built from the raw bytes. */
    public static final int FLAG_PARSE_ERROR = 1;
    /** Flag: the slot holds no message to deliver (a claimed slot that could not be filled). */
    public static final int FLAG_DISCARD = 1 << 2;

    private static final int INITIAL_CAPACITY = 512;

    private byte[] raw = new byte[INITIAL_CAPACITY];
    private int rawLength;
    private byte[] aux = new byte[INITIAL_CAPACITY];
    private int auxLength;
    private final byte[] peer = new byte[64];
    private int peerLength;

    private final int[] fieldOff = new int[FIELD_COUNT];
    private final int[] fieldLen = new int[FIELD_COUNT];
    private final byte[] fieldWhere = new byte[FIELD_COUNT];
    private int fieldSetMask;

    private final FieldTable fields = new FieldTable();
    private int[] tags = new int[4];
    private int tagCount;

    private byte formatHint;
    private int sourceId;
    private byte[] sourceName = EMPTY;
    private long sinkMask;
    private int flags;

    private int pri = DEFAULT_PRI;
    private long receivedMillis;
    private boolean stampSet;
    private long stampEpochSecond;
    private int stampMicros;
    private int stampOffsetSeconds;

    private static final byte[] EMPTY = new byte[0];

    /** Resets everything about the previous message; the buffers are kept. Called before a slot is refilled. */
    public void clear() {
        rawLength = 0;
        auxLength = 0;
        peerLength = 0;
        fieldSetMask = 0;
        fields.clear();
        tagCount = 0;
        formatHint = FORMAT_AUTO;
        sourceId = 0;
        // sourceName is kept: setSource overwrites it, and not storing a reference per message spares
        // the garbage collector's write barrier (the event lives in the old generation)
        sinkMask = 0;
        flags = 0;
        pri = DEFAULT_PRI;
        receivedMillis = 0;
        stampSet = false;
        stampEpochSecond = 0;
        stampMicros = 0;
        stampOffsetSeconds = 0;
    }

    // ---------------------------------------------------------------- receive side (source thread)

    /** Copies a frame into the event's own buffer, growing it if needed. */
    public void setRaw(byte[] src, int off, int len) {
        ensureRawCapacity(len);
        System.arraycopy(src, off, raw, 0, len);
        rawLength = len;
    }

    /** Makes room for {@code len} raw bytes and returns the buffer, for sources that copy directly into it. */
    public byte[] ensureRawCapacity(int len) {
        if (raw.length < len) {
            raw = new byte[Math.max(len, raw.length * 2)];
        }
        return raw;
    }

    /** Sets the raw length after a direct copy into {@link #ensureRawCapacity(int)}. */
    public void setRawLength(int len) {
        this.rawLength = len;
    }

    /** Copies the sender address text (an IP literal, at most 64 bytes). */
    public void setPeer(byte[] src, int off, int len) {
        int n = Math.min(len, peer.length);
        System.arraycopy(src, off, peer, 0, n);
        peerLength = n;
    }

    public void setSource(int id, byte[] name, byte formatHint, long sinkMask) {
        this.sourceId = id;
        if (this.sourceName != name) {
            this.sourceName = name;
        }
        this.formatHint = formatHint;
        this.sinkMask = sinkMask;
    }

    public void setReceivedMillis(long millis) {
        this.receivedMillis = millis;
    }

    public byte[] raw() {
        return raw;
    }

    public int rawLength() {
        return rawLength;
    }

    public byte[] peer() {
        return peer;
    }

    public int peerLength() {
        return peerLength;
    }

    public int sourceId() {
        return sourceId;
    }

    public byte[] sourceName() {
        return sourceName;
    }

    public byte formatHint() {
        return formatHint;
    }

    public long sinkMask() {
        return sinkMask;
    }

    public void setSinkMask(long mask) {
        this.sinkMask = mask;
    }

    public long receivedMillis() {
        return receivedMillis;
    }

    // ---------------------------------------------------------------- header (parse worker)

    public int pri() {
        return pri;
    }

    public void setPri(int pri) {
        this.pri = pri;
    }

    /** Facility number: {@code pri >> 3} (may exceed 23 for out-of-range PRIs, as syslog-ng keeps them). */
    public int facility() {
        return pri >> 3;
    }

    public int severity() {
        return pri & 7;
    }

    public int flags() {
        return flags;
    }

    public void addFlag(int flag) {
        flags |= flag;
    }

    public boolean hasFlag(int flag) {
        return (flags & flag) != 0;
    }

    /** Sets a field to a span of the raw frame. */
    public void setField(int field, int off, int len) {
        setFieldIn(field, IN_RAW, off, len);
    }

    /** Sets a field to a span of one of the event's buffers ({@link #IN_RAW}, {@link #IN_AUX}, {@link #IN_PEER}). */
    public void setFieldIn(int field, byte where, int off, int len) {
        fieldWhere[field] = where;
        fieldOff[field] = off;
        fieldLen[field] = len;
        fieldSetMask |= 1 << field;
    }

    /** Sets HOST to the sender address, as syslog-ng does when the message names no host. */
    public void setHostFromPeer() {
        setFieldIn(HOST, IN_PEER, 0, peerLength);
    }

    public void unsetField(int field) {
        fieldSetMask &= ~(1 << field);
    }

    public boolean isFieldSet(int field) {
        return (fieldSetMask & (1 << field)) != 0;
    }

    /** The array holding the field's bytes; an empty field has length 0. */
    public byte[] fieldArray(int field) {
        if (!isFieldSet(field)) {
            return EMPTY;
        }
        switch (fieldWhere[field]) {
            case IN_AUX:
                return aux;
            case IN_PEER:
                return peer;
            default:
                return raw;
        }
    }

    public int fieldOffset(int field) {
        return isFieldSet(field) ? fieldOff[field] : 0;
    }

    public int fieldLength(int field) {
        return isFieldSet(field) ? fieldLen[field] : 0;
    }

    /** Appends bytes to the auxiliary buffer and returns their offset there. */
    public int auxAppend(byte[] src, int off, int len) {
        ensureAux(len);
        System.arraycopy(src, off, aux, auxLength, len);
        int at = auxLength;
        auxLength += len;
        return at;
    }

    /** Appends one byte to the auxiliary buffer and returns its offset. */
    public int auxAppend(byte b) {
        ensureAux(1);
        aux[auxLength] = b;
        return auxLength++;
    }

    /** Current end of the auxiliary buffer: compose with several appends, then span from a mark to here. */
    public int auxLength() {
        return auxLength;
    }

    public byte[] aux() {
        return aux;
    }

    private void ensureAux(int extra) {
        if (auxLength + extra > aux.length) {
            aux = Arrays.copyOf(aux, Math.max(auxLength + extra, aux.length * 2));
        }
    }

    /** Parsed name-value pairs (structured data, parser output). */
    public FieldTable fields() {
        return fields;
    }

    // ---------------------------------------------------------------- tags

    /** Adds a tag (an id from {@link Tags#id}); returns false when the event already had it. */
    public boolean addTag(int tagId) {
        if (hasTag(tagId)) {
            return false;
        }
        if (tagCount == tags.length) {
            tags = Arrays.copyOf(tags, tagCount * 2);
        }
        tags[tagCount++] = tagId;
        return true;
    }

    /** Removes a tag (order of the others kept); returns false when the event did not have it. */
    public boolean removeTag(int tagId) {
        for (int i = 0; i < tagCount; i++) {
            if (tags[i] == tagId) {
                System.arraycopy(tags, i + 1, tags, i, tagCount - i - 1);
                tagCount--;
                return true;
            }
        }
        return false;
    }

    public boolean hasTag(int tagId) {
        for (int i = 0; i < tagCount; i++) {
            if (tags[i] == tagId) {
                return true;
            }
        }
        return false;
    }

    /** Number of tags on the event; {@link #tagAt} reads them in the order they were added. */
    public int tagCount() {
        return tagCount;
    }

    public int tagAt(int i) {
        return tags[i];
    }

    // ---------------------------------------------------------------- timestamp

    /** True once the parser has set the stamp (the message's own, or the receive time when it had none). */
    public boolean isStampSet() {
        return stampSet;
    }

    public void setStamp(long epochSecond, int micros, int offsetSeconds) {
        this.stampSet = true;
        this.stampEpochSecond = epochSecond;
        this.stampMicros = micros;
        this.stampOffsetSeconds = offsetSeconds;
    }

    /** Seconds since the epoch of the message's own timestamp (receive time when it had none and the parser set it so). */
    public long stampEpochSecond() {
        return stampEpochSecond;
    }

    public int stampMicros() {
        return stampMicros;
    }

    /** The zone offset the timestamp was written in (or the receiver's zone when it had none). */
    public int stampOffsetSeconds() {
        return stampOffsetSeconds;
    }
}

package dev.logrouter.core.event;

import dev.logrouter.core.util.Utf8Encoder;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A reusable table of name-value pairs owned by one {@link LogEvent}: structured data
 * ({@code .SDATA.id.param}) and, in later stages, parser output. Names and values are bytes copied into
 * one growing buffer; {@link #clear()} forgets them without freeing anything, so a warm table allocates
 * nothing per message.
 *
 * <p>Setting a name that is already present replaces its value (the last value wins, as in syslog-ng).
 * Entries keep their first insertion order. Each entry carries an {@code int} tag free for the writer's
 * use; structured data stores the SD-ID length and the element it came in there ({@link StructuredData}), so that
 * {@code ${SDATA}} can be re-serialised.
 *
 * <p>Names are found through an open-addressing hash index (linear probing over entry numbers, at most half
 * full). Its slots carry the generation they were written in, so {@link #clear()} forgets the whole index by
 * bumping the generation instead of wiping it; {@link #rollback()} and {@link #unset} rebuild it from the
 * entries that remain.
 *
 * <p>Limits ({@link #setLimits}, {@code pipeline.max-fields} and {@code pipeline.max-field-length} on ring slots):
 * a name that would be entry number {@code maxFields + 1} is dropped (its set and appends write nothing and return
 * or take entry {@code -1}), and a value longer than {@code maxValueLength} bytes is cut to at most that many, at a
 * UTF-8 character boundary (the rest of a value composed with {@link #begin} is dropped once it is cut). Each table
 * counts its hits since {@link #clear()} ({@link #fieldsDropped()}, {@link #valuesTruncated()}); the stage that
 * wrote the event adds them to its counters, so no shared counter is touched per write. The checks are one
 * comparison per new name and one per value or appended chunk. A fresh table has no limits.
 *
 * <p>Threads: written in turn by the source thread that fills the event (connection fields such as {@code .tls.*}),
 * the one parse worker that owns the event and the serial stage, when there is one; read afterwards by sinks; never
 * shared concurrently (the ring's sequence barriers order these).
 */
public final class FieldTable {

    /**
     * Names under this prefix are the connection's (a TLS source's peer certificate subject): only a
     * {@link FieldName} can set them; a name built from message content with this prefix is dropped (not counted,
     * not tagged), so that content can neither forge nor replace them.
     */
    public static final String RESERVED_PREFIX = ".tls.";
    /**
     * Reserved like {@link #RESERVED_PREFIX}: the peer credentials a unix-stream source sets ({@code .unix.pid},
     * {@code .unix.uid}, {@code .unix.gid}), which routes may trust.
     */
    public static final String RESERVED_UNIX_PREFIX = ".unix.";

    private byte[] data = new byte[256];
    private int dataLength;
    private int[] nameOff = new int[8];
    private int[] nameLen = new int[8];
    private int[] valOff = new int[8];
    private int[] valLen = new int[8];
    private int[] tag = new int[8];
    /** The {@link #hash} of each entry's name, compared before the bytes so that a probe rarely touches them. */
    private int[] nameHash = new int[8];
    private int count;

    // the index: slot s is used when slotGen[s] == generation, and then holds entry slotEntry[s]
    private int[] slotGen = new int[16];
    private int[] slotEntry = new int[16];
    private int slotMask = 15;
    private int generation = 1;

    // an open transaction (see begin/commit/rollback): the state to go back to, and the old values of
    // entries that existed before it and were overwritten since
    private boolean inTransaction;
    private int markCount;
    private int markData;
    private int[] undo = new int[16];
    private int undoLength;
    private int markDropped;
    private int markTruncated;

    // limits, and what hit them since clear()
    private int maxFields = Integer.MAX_VALUE;
    private int maxValueLength = Integer.MAX_VALUE;
    /** Bytes the value begun last may still take; -1 once it was cut, or when its field was dropped. */
    private int valueRoom = Integer.MAX_VALUE;
    private int fieldsDropped;
    private int valuesTruncated;
    /** How far {@link #dataLength} may grow in the open transaction (no limit outside one). */
    private long dataLimit = Long.MAX_VALUE;

    /**
     * Thrown, as one shared instance without a stack trace, when a write would take a transaction past the byte
     * budget given to {@link #beginTransaction(int)}; the table is then as it was before the write, and
     * {@link #rollback()} undoes the transaction.
     */
    public static final class OverBudgetException extends RuntimeException {

        private static final long serialVersionUID = 1L;
        public static final OverBudgetException INSTANCE = new OverBudgetException();

        private OverBudgetException() {
            super("the field table's byte budget for this transaction is spent", null, false, false);
        }
    }

    public void clear() {
        dataLength = 0;
        count = 0;
        inTransaction = false;
        fieldsDropped = 0;
        valuesTruncated = 0;
        dataLimit = Long.MAX_VALUE;
        forgetIndex();
    }

    /**
     * Limits what this table keeps: at most {@code maxFields} entries and {@code maxValueLength} bytes per value
     * (see the class comment). Set once per ring slot when the pipeline is built, not per message; kept by
     * {@link #clear()}.
     */
    public void setLimits(int maxFields, int maxValueLength) {
        if (maxFields < 0 || maxValueLength < 0) {
            throw new IllegalArgumentException("limits must not be negative: " + maxFields + ", " + maxValueLength);
        }
        this.maxFields = maxFields;
        this.maxValueLength = maxValueLength;
    }

    /** The most entries this table keeps ({@link Integer#MAX_VALUE} when unlimited). */
    public int maxFields() {
        return maxFields;
    }

    /** The longest value in bytes this table keeps ({@link Integer#MAX_VALUE} when unlimited). */
    public int maxValueLength() {
        return maxValueLength;
    }

    /** New names dropped because the table held {@link #maxFields()} entries, since {@link #clear()}. */
    public int fieldsDropped() {
        return fieldsDropped;
    }

    /** Values cut to {@link #maxValueLength()}, since {@link #clear()}. */
    public int valuesTruncated() {
        return valuesTruncated;
    }

    /**
     * Makes this table a copy of {@code src} (names, values, tags and order, and its limits; no open transaction),
     * reusing its arrays when large enough. The copy's hit counts start at zero: they were counted on {@code src}.
     * Cold path: correlation copies whole events.
     */
    public void copyFrom(FieldTable src) {
        if (src == this) {
            return;
        }
        setLimits(src.maxFields, src.maxValueLength);
        fieldsDropped = 0;
        valuesTruncated = 0;
        if (data.length < src.dataLength) {
            data = new byte[src.dataLength];
        }
        System.arraycopy(src.data, 0, data, 0, src.dataLength);
        dataLength = src.dataLength;
        int n = src.count;
        if (nameOff.length < n) {
            int cap = src.nameOff.length;
            nameOff = new int[cap];
            nameLen = new int[cap];
            valOff = new int[cap];
            valLen = new int[cap];
            tag = new int[cap];
            nameHash = new int[cap];
        }
        System.arraycopy(src.nameOff, 0, nameOff, 0, n);
        System.arraycopy(src.nameLen, 0, nameLen, 0, n);
        System.arraycopy(src.valOff, 0, valOff, 0, n);
        System.arraycopy(src.valLen, 0, valLen, 0, n);
        System.arraycopy(src.tag, 0, tag, 0, n);
        System.arraycopy(src.nameHash, 0, nameHash, 0, n);
        count = n;
        inTransaction = false;
        if (slotGen.length < src.slotGen.length) {
            slotGen = new int[src.slotGen.length];
            slotEntry = new int[src.slotGen.length];
            slotMask = src.slotMask;
            generation = 1;
        }
        rebuildIndex();
    }

    /** Empties the index in O(1): slots of older generations count as free. */
    private void forgetIndex() {
        if (++generation == 0) { // wrapped after 2^32 clears: old stamps could look current again
            Arrays.fill(slotGen, 0);
            generation = 1;
        }
    }

    /** Indexes entries {@code [0, count)} afresh (after entries were removed or the index grew). */
    private void rebuildIndex() {
        forgetIndex();
        for (int i = 0; i < count; i++) {
            insertSlot(nameHash[i], i);
        }
    }

    private void insertSlot(int h, int entry) {
        int s = h & slotMask;
        while (slotGen[s] == generation) {
            s = (s + 1) & slotMask;
        }
        slotGen[s] = generation;
        slotEntry[s] = entry;
    }

    /**
     * Opens a transaction: everything set from now on can be undone with {@link #rollback()}, so a parser
     * that fails half-way leaves the table as it found it. One transaction at a time; not for
     * {@link #unset}.
     */
    public void beginTransaction() {
        beginTransaction(Integer.MAX_VALUE);
    }

    /**
     * As {@link #beginTransaction()}, and the names and values written in the transaction may take at most
     * {@code maxBytes} bytes (dead values overwritten in it included): a write past that throws
     * {@link OverBudgetException}, so that input which names many fields after one long path cannot make the
     * table grow without bound before the writer notices.
     */
    public void beginTransaction(int maxBytes) {
        inTransaction = true;
        markCount = count;
        markData = dataLength;
        markDropped = fieldsDropped;
        markTruncated = valuesTruncated;
        undoLength = 0;
        dataLimit = (long) dataLength + maxBytes;
    }

    /** Keeps what was set since {@link #beginTransaction()}. */
    public void commit() {
        inTransaction = false;
        dataLimit = Long.MAX_VALUE;
    }

    /**
     * Forgets what was set since {@link #beginTransaction()}: new entries go, overwritten values return, and limit
     * hits since then are no longer counted (nothing they cut is kept).
     */
    public void rollback() {
        if (!inTransaction) {
            return;
        }
        fieldsDropped = markDropped;
        valuesTruncated = markTruncated;
        for (int u = undoLength - 4; u >= 0; u -= 4) {
            int i = undo[u];
            valOff[i] = undo[u + 1];
            valLen[i] = undo[u + 2];
            tag[i] = undo[u + 3];
        }
        boolean removed = count != markCount;
        count = markCount;
        dataLength = markData;
        inTransaction = false;
        dataLimit = Long.MAX_VALUE;
        if (removed) {
            rebuildIndex();
        }
    }

    private void saveForUndo(int i) {
        if (!inTransaction || i >= markCount) {
            return;
        }
        if (undoLength + 4 > undo.length) {
            undo = Arrays.copyOf(undo, undo.length * 2);
        }
        undo[undoLength++] = i;
        undo[undoLength++] = valOff[i];
        undo[undoLength++] = valLen[i];
        undo[undoLength++] = tag[i];
    }

    /** Removes the entry for {@code name} if present (later entries move up one); returns whether it was there. */
    public boolean unset(byte[] name, int nOff, int nLen) {
        return unsetEntry(indexOf(name, nOff, nLen));
    }

    /** As {@link #unset(byte[], int, int)} for a name resolved at configuration time. */
    public boolean unset(FieldName name) {
        return unsetEntry(indexOf(name));
    }

    private boolean unsetEntry(int i) {
        if (inTransaction) {
            throw new IllegalStateException("unset inside a transaction");
        }
        if (i < 0) {
            return false;
        }
        int tail = count - i - 1;
        System.arraycopy(nameOff, i + 1, nameOff, i, tail);
        System.arraycopy(nameLen, i + 1, nameLen, i, tail);
        System.arraycopy(valOff, i + 1, valOff, i, tail);
        System.arraycopy(valLen, i + 1, valLen, i, tail);
        System.arraycopy(tag, i + 1, tag, i, tail);
        System.arraycopy(nameHash, i + 1, nameHash, i, tail);
        count--;
        rebuildIndex();
        return true;
    }

    public int size() {
        return count;
    }

    /**
     * Sets {@code name} to {@code value}; returns the entry index, or -1 when the name was new and the table full.
     */
    public int set(byte[] name, int nOff, int nLen, byte[] value, int vOff, int vLen, int entryTag) {
        return put(entry(name, nOff, nLen, name, 0, 0), value, vOff, vLen, entryTag);
    }

    /** Stores a value (cut to the limit) in entry {@code i}; nothing when {@code i} is -1 (a dropped field). */
    private int put(int i, byte[] value, int vOff, int vLen, int entryTag) {
        if (i < 0) {
            return i;
        }
        if (vLen > maxValueLength) {
            vLen = Utf8Encoder.prefixLength(value, vOff, maxValueLength);
            valuesTruncated++;
        }
        saveForUndo(i);
        valOff[i] = append(value, vOff, vLen);
        valLen[i] = vLen;
        tag[i] = entryTag;
        return i;
    }

    /**
     * Sets the name made of {@code head} followed by {@code tail} (a parser's prefix and a key, say) to
     * {@code value}, without the caller joining them first; returns the entry index.
     */
    public int set(byte[] head, int hOff, int hLen, byte[] tail, int tOff, int tLen,
            byte[] value, int vOff, int vLen, int entryTag) {
        return put(entry(head, hOff, hLen, tail, tOff, tLen), value, vOff, vLen, entryTag);
    }

    /** As {@link #set(byte[], int, int, byte[], int, int, int)} for a name resolved at configuration time. */
    public int set(FieldName name, byte[] value, int vOff, int vLen, int entryTag) {
        byte[] n = name.bytes();
        ensureData(n.length);
        System.arraycopy(n, 0, data, dataLength, n.length);
        return put(entryAt(dataLength, n.length, name.hash()), value, vOff, vLen, entryTag);
    }

    /** Convenience for tests and cold paths. */
    public int set(String name, String value) {
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        byte[] v = value.getBytes(StandardCharsets.UTF_8);
        return set(n, 0, n.length, v, 0, v.length, 0);
    }

    /**
     * Starts a value that the caller composes byte by byte with {@link #appendToValue}; returns the entry, or -1
     * when the name was new and the table full (appends to -1 write nothing).
     */
    public int begin(byte[] name, int nOff, int nLen, int entryTag) {
        int i = entry(name, nOff, nLen, name, 0, 0);
        if (i < 0) {
            valueRoom = -1;
            return i;
        }
        valueRoom = maxValueLength;
        saveForUndo(i);
        valOff[i] = dataLength;
        valLen[i] = 0;
        tag[i] = entryTag;
        return i;
    }

    /**
     * Appends one byte to the value of entry {@code i}, which must be the last one started by {@link #begin}
     * with nothing else appended since.
     */
    public void appendToValue(int i, byte b) {
        ensureData(1);
        data[dataLength] = b;
        if (valueRoom < 1) {
            cutOpenValue(i);
            return;
        }
        valueRoom--;
        dataLength++;
        valLen[i]++;
    }

    /** Appends bytes to the value of entry {@code i}, under the same rule as {@link #appendToValue(int, byte)}. */
    public void appendToValue(int i, byte[] src, int off, int len) {
        int room = valueRoom;
        if (len > room) {
            if (room >= 0) {
                // what fits, and the first byte that does not (to find a character boundary)
                ensureData(room + 1);
                System.arraycopy(src, off, data, dataLength, room + 1);
                cutOpenValue(i);
            }
            return;
        }
        valueRoom = room - len;
        ensureData(len);
        System.arraycopy(src, off, data, dataLength, len);
        dataLength += len;
        valLen[i] += len;
    }

    /**
     * Ends the value being composed in entry {@code i} at the limit: called when the bytes after its end in the data
     * hold at least {@link #valueRoom} + 1 new ones (what would fit and the first byte that does not), or when its
     * field was dropped or its value already cut ({@code valueRoom < 0}: nothing is kept). Cold: once per value.
     */
    private void cutOpenValue(int i) {
        int room = valueRoom;
        if (room < 0) {
            return;
        }
        int v = valOff[i];
        int kept = Utf8Encoder.prefixLength(data, v, valLen[i] + room);
        valLen[i] = kept;
        dataLength = v + kept;
        valueRoom = -1;
        valuesTruncated++;
    }

    /** Takes {@code n} bytes just encoded after the end of the value of entry {@code i}, or cuts the value there. */
    private void encoded(int i, int n) {
        if (n > valueRoom) {
            cutOpenValue(i);
            return;
        }
        valueRoom -= n;
        valLen[i] += n;
        dataLength += n;
    }

    /**
     * Appends {@code n} chars of {@code c} encoded as UTF-8 to the value of entry {@code i}, under the same rule as
     * {@link #appendToValue(int, byte)}: the encoding lands in the table directly, with no scratch copy.
     */
    public void appendUtf8ToValue(int i, char[] c, int off, int n) {
        ensureData(Utf8Encoder.maxBytes(n));
        encoded(i, Utf8Encoder.encode(c, off, n, data, dataLength) - dataLength);
    }

    /** As {@link #appendUtf8ToValue(int, char[], int, int)}, from a {@link CharSequence}. */
    public void appendUtf8ToValue(int i, CharSequence c, int off, int n) {
        ensureData(Utf8Encoder.maxBytes(n));
        encoded(i, Utf8Encoder.encode(c, off, n, data, dataLength) - dataLength);
    }

    /** Appends one char encoded as UTF-8 to the value of entry {@code i} (same rule as the others). */
    public void appendUtf8ToValue(int i, char c) {
        ensureData(Utf8Encoder.maxBytes(1));
        encoded(i, Utf8Encoder.encode(c, data, dataLength) - dataLength);
    }

    /**
     * The entry for the name {@code head + tail}, added (name kept, value empty) when it is new. The name is
     * copied to the end of the data first and hashed and compared there; when it is already present that copy
     * is left as scratch space that the value then overwrites.
     */
    private int entry(byte[] head, int hOff, int hLen, byte[] tail, int tOff, int tLen) {
        int nLen = hLen + tLen;
        ensureData(nLen);
        byte[] d = data;
        int at = dataLength;
        System.arraycopy(head, hOff, d, at, hLen);
        if (tLen > 0) {
            System.arraycopy(tail, tOff, d, at + hLen, tLen);
        }
        if (nLen > 5 && d[at] == '.' && reserved(d, at + 1, nLen - 1)) {
            return -1; // RESERVED_PREFIX or RESERVED_UNIX_PREFIX: content must not forge or replace them
        }
        return entryAt(at, nLen, hash(d, at, nLen));
    }

    /** Whether {@code d[p, p + left)}, the name after its leading dot, goes on with {@code tls.} or {@code unix.}. */
    private static boolean reserved(byte[] d, int p, int left) {
        if (d[p] == 't') {
            return d[p + 1] == 'l' && d[p + 2] == 's' && d[p + 3] == '.';
        }
        return left > 5 && d[p] == 'u' && d[p + 1] == 'n' && d[p + 2] == 'i' && d[p + 3] == 'x' && d[p + 4] == '.';
    }

    /**
     * The entry for the name just copied to {@code data[at, at + nLen)}, whose hash is {@code h}; -1 (counted) when it
     * is new and the table holds {@link #maxFields} entries.
     */
    private int entryAt(int at, int nLen, int h) {
        byte[] d = data;
        int[] gens = slotGen;
        int gen = generation;
        int mask = slotMask;
        int s = h & mask;
        while (gens[s] == gen) {
            int i = slotEntry[s];
            if (nameHash[i] == h && nameLen[i] == nLen
                    && Arrays.equals(d, nameOff[i], nameOff[i] + nLen, d, at, at + nLen)) {
                return i;
            }
            s = (s + 1) & mask;
        }
        int i = count;
        if (i >= maxFields) {
            fieldsDropped++;
            return -1;
        }
        ensureEntries(i + 1);
        nameOff[i] = at;
        nameLen[i] = nLen;
        nameHash[i] = h;
        dataLength = at + nLen;
        count = i + 1;
        if (2 * count > mask + 1) {
            growIndex(); // indexes the new entry too
        } else {
            gens[s] = gen;
            slotEntry[s] = i;
        }
        return i;
    }

    private void growIndex() {
        int slots = 2 * (slotMask + 1);
        slotGen = new int[slots];
        slotEntry = new int[slots];
        slotMask = slots - 1;
        generation = 1;
        for (int i = 0; i < count; i++) {
            insertSlot(nameHash[i], i);
        }
    }

    /** The entry number of {@code name}, or -1. */
    public int indexOf(byte[] name, int nOff, int nLen) {
        return indexOf(name, nOff, nLen, hash(name, nOff, nLen));
    }

    /** The entry number of a name resolved at configuration time, or -1 (no hashing per call). */
    public int indexOf(FieldName name) {
        byte[] b = name.bytes();
        return indexOf(b, 0, b.length, name.hash());
    }

    /** As {@link #indexOf(byte[], int, int)}, for a caller that keeps {@code h = hash(name, nOff, nLen)}. */
    public int indexOf(byte[] name, int nOff, int nLen, int h) {
        int[] gens = slotGen;
        int gen = generation;
        int mask = slotMask;
        for (int s = h & mask; gens[s] == gen; s = (s + 1) & mask) {
            int i = slotEntry[s];
            if (nameHash[i] == h && nameLen[i] == nLen
                    && Arrays.equals(data, nameOff[i], nameOff[i] + nLen, name, nOff, nOff + nLen)) {
                return i;
            }
        }
        return -1;
    }

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class,
            ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class,
            ByteOrder.LITTLE_ENDIAN);

    /**
     * The hash the index uses for a name. Names are short, so it reads them a word at a time, overlapping at the
     * end (a 12-byte name is bytes 0-7 and 4-11), with few multiplications; the result's low bits (the slot)
     * depend on every byte. A name looked up per message is resolved once into a {@link FieldName}.
     */
    public static int hash(byte[] b, int off, int len) {
        long h = len * 0x9E3779B97F4A7C15L;
        if (len >= 8) {
            int last = off + len - 8;
            for (int i = off; i < last; i += 8) {
                h = Long.rotateLeft((h ^ (long) LONGS.get(b, i)) * 0xC2B2AE3D27D4EB4FL, 31);
            }
            h ^= (long) LONGS.get(b, last) * 0x165667B19E3779F9L;
        } else if (len >= 4) {
            long lo = (int) INTS.get(b, off) & 0xFFFFFFFFL;
            long hi = (int) INTS.get(b, off + len - 4) & 0xFFFFFFFFL;
            h ^= (lo | (hi << 32)) * 0x165667B19E3779F9L;
        } else if (len > 0) {
            long v = (b[off] & 0xFF) | ((b[off + (len >> 1)] & 0xFF) << 8) | ((b[off + len - 1] & 0xFF) << 16);
            h ^= v * 0x165667B19E3779F9L;
        }
        h ^= h >>> 29;
        h *= 0xD6E8FEB86659FD93L;
        return (int) (h ^ (h >>> 32));
    }

    public int indexOf(byte[] name) {
        return indexOf(name, 0, name.length);
    }

    /** The shared buffer that names and values point into; valid until the next write. */
    public byte[] data() {
        return data;
    }

    public int nameOffset(int i) {
        return nameOff[i];
    }

    public int nameLength(int i) {
        return nameLen[i];
    }

    public int valueOffset(int i) {
        return valOff[i];
    }

    public int valueLength(int i) {
        return valLen[i];
    }

    public int tag(int i) {
        return tag[i];
    }

    /** Cold path: the name of entry {@code i} as a String (tests, diagnostics). */
    public String name(int i) {
        return new String(data, nameOff[i], nameLen[i], StandardCharsets.UTF_8);
    }

    /** Cold path: the value of entry {@code i} as a String (tests, diagnostics). */
    public String value(int i) {
        return new String(data, valOff[i], valLen[i], StandardCharsets.UTF_8);
    }

    /** Cold path: the value for {@code name}, or null. */
    public String get(String name) {
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        int i = indexOf(n, 0, n.length);
        return i < 0 ? null : value(i);
    }

    private int append(byte[] src, int off, int len) {
        ensureData(len);
        System.arraycopy(src, off, data, dataLength, len);
        int at = dataLength;
        dataLength += len;
        return at;
    }

    private void ensureData(int extra) {
        if ((long) dataLength + extra > dataLimit) {
            throw OverBudgetException.INSTANCE;
        }
        if (dataLength + extra > data.length) {
            data = Arrays.copyOf(data, Math.max(dataLength + extra, data.length * 2));
        }
    }

    private void ensureEntries(int n) {
        if (n > nameOff.length) {
            int cap = nameOff.length * 2;
            nameOff = Arrays.copyOf(nameOff, cap);
            nameLen = Arrays.copyOf(nameLen, cap);
            valOff = Arrays.copyOf(valOff, cap);
            valLen = Arrays.copyOf(valLen, cap);
            tag = Arrays.copyOf(tag, cap);
            nameHash = Arrays.copyOf(nameHash, cap);
        }
    }
}

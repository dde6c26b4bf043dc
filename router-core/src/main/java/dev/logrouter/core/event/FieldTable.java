package dev.logrouter.core.event;

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
 * use; structured data stores the SD-ID length there so that {@code ${SDATA}} can be re-serialised.
 *
 * <p>Threads: written by the one parse worker that owns the event, read afterwards by sinks; never shared
 * concurrently.
 */
public final class FieldTable {

    private byte[] data = new byte[256];
    private int dataLength;
    private int[] nameOff = new int[8];
    private int[] nameLen = new int[8];
    private int[] valOff = new int[8];
    private int[] valLen = new int[8];
    private int[] tag = new int[8];
    /** A hash of each entry's name, compared before the bytes so that a lookup rarely touches them. */
    private int[] nameHash = new int[8];
    private int count;

    // an open transaction (see begin/commit/rollback): the state to go back to, and the old values of
    // entries that existed before it and were overwritten since
    private boolean inTransaction;
    private int markCount;
    private int markData;
    private int[] undo = new int[16];
    private int undoLength;

    public void clear() {
        dataLength = 0;
        count = 0;
        inTransaction = false;
    }

    /**
     * Opens a transaction: everything set from now on can be undone with {@link #rollback()}, so a parser
     * that fails half-way leaves the table as it found it. One transaction at a time; not for
     * {@link #unset}.
     */
    public void beginTransaction() {
        inTransaction = true;
        markCount = count;
        markData = dataLength;
        undoLength = 0;
    }

    /** Keeps what was set since {@link #beginTransaction()}. */
    public void commit() {
        inTransaction = false;
    }

    /** Forgets what was set since {@link #beginTransaction()}: new entries go, overwritten values return. */
    public void rollback() {
        if (!inTransaction) {
            return;
        }
        for (int u = undoLength - 4; u >= 0; u -= 4) {
            int i = undo[u];
            valOff[i] = undo[u + 1];
            valLen[i] = undo[u + 2];
            tag[i] = undo[u + 3];
        }
        count = markCount;
        dataLength = markData;
        inTransaction = false;
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
        if (inTransaction) {
            throw new IllegalStateException("unset inside a transaction");
        }
        int i = indexOf(name, nOff, nLen);
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
        return true;
    }

    public int size() {
        return count;
    }

    /**
     * Sets {@code name} to {@code value}; returns the entry index.
     */
    public int set(byte[] name, int nOff, int nLen, byte[] value, int vOff, int vLen, int entryTag) {
        int i = entry(name, nOff, nLen);
        saveForUndo(i);
        valOff[i] = append(value, vOff, vLen);
        valLen[i] = vLen;
        tag[i] = entryTag;
        return i;
    }

    /** Convenience for tests and cold paths. */
    public int set(String name, String value) {
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        byte[] v = value.getBytes(StandardCharsets.UTF_8);
        return set(n, 0, n.length, v, 0, v.length, 0);
    }

    /** Starts a value that the caller composes byte by byte with {@link #appendToValue}; returns the entry. */
    public int begin(byte[] name, int nOff, int nLen, int entryTag) {
        int i = entry(name, nOff, nLen);
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
        data[dataLength++] = b;
        valLen[i]++;
    }

    /** Appends bytes to the value of entry {@code i}, under the same rule as {@link #appendToValue(int, byte)}. */
    public void appendToValue(int i, byte[] src, int off, int len) {
        ensureData(len);
        System.arraycopy(src, off, data, dataLength, len);
        dataLength += len;
        valLen[i] += len;
    }

    /** The entry for a name, added (name copied, value empty) when it is new. */
    private int entry(byte[] name, int nOff, int nLen) {
        int h = hash(name, nOff, nLen);
        int i = indexOf(name, nOff, nLen, h);
        if (i < 0) {
            i = count;
            ensureEntries(count + 1);
            nameOff[i] = append(name, nOff, nLen);
            nameLen[i] = nLen;
            nameHash[i] = h;
            count++;
        }
        return i;
    }

    public int indexOf(byte[] name, int nOff, int nLen) {
        return indexOf(name, nOff, nLen, hash(name, nOff, nLen));
    }

    private int indexOf(byte[] name, int nOff, int nLen, int h) {
        int[] hashes = nameHash;
        for (int i = 0, n = count; i < n; i++) {
            if (hashes[i] == h && nameLen[i] == nLen
                    && Arrays.equals(data, nameOff[i], nameOff[i] + nLen, name, nOff, nOff + nLen)) {
                return i;
            }
        }
        return -1;
    }

    private static int hash(byte[] b, int off, int len) {
        int h = len;
        for (int i = off, end = off + len; i < end; i++) {
            h = 31 * h + b[i];
        }
        return h;
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

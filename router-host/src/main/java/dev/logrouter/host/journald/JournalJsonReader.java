package dev.logrouter.host.journald;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.async.ByteArrayFeeder;
import dev.logrouter.core.util.Utf8Encoder;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads the output of {@code journalctl -o json --all}, one JSON object per entry, into {@link JournalEntry}s with
 * Jackson's non-blocking (push) parser: the bytes are fed as they come from the pipe, so an entry may span any number
 * of reads and nothing waits on the pipe while holding ring slots. A field's value is a string (UTF-8), null (no
 * value), an array of byte values (a binary value: not UTF-8, or with control characters) or, for a field the entry
 * has more than once, an array of such values (the first one is kept). Every value is cut to {@code maxValue} bytes
 * (a string at a UTF-8 character boundary) and the entry marked truncated; binary values are cut as they stream, so
 * a core dump's megabytes never sit in memory. A string value longer than {@code maxString} characters (Jackson
 * buffers a string whole) or any malformed input loses its entry: the reader counts it ({@link #errors()}), skips to
 * the next line and goes on.
 *
 * <p>Threads: the source's reader thread only.
 */
final class JournalJsonReader {

    private static final int MAX_CACHED_NAMES = 4096;
    private static final byte[] EMPTY = new byte[0];

    private final JsonFactory factory;
    private final int maxValue;
    private final Map<String, byte[]> names = new HashMap<>();

    private JsonParser parser;
    /** Bytes fed to {@link #parser} before the current input, and in all. */
    private long fedBefore;
    private long fedTotal;
    private byte[] input;
    private int inputStart;
    private int inputEnd;
    /** After an error: input is dropped up to and including the next newline. */
    private boolean skipping;
    private long errors;
    private String lastError;

    // where the token stream is: 0 between entries, 1 in an entry, 2 in a field's array, 3 in an array in that array
    private int depth;
    private String field;
    private int wellKnown;
    /** Start of the value being read in the entry's data; -1 when the value is already taken (or to be ignored). */
    private int valueStart;
    private boolean valueBinary;

    /**
     * @param maxValue  longest value kept, in bytes
     * @param maxString longest string Jackson may buffer, in characters (longer: the entry is lost and counted)
     */
    JournalJsonReader(int maxValue, int maxString) {
        this.maxValue = maxValue;
        this.factory = JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder().maxStringLength(maxString).build())
                .build();
        newParser();
    }

    /** Entries lost to malformed input or over-long strings since this reader was made. */
    long errors() {
        return errors;
    }

    /** The last such error, or null. */
    String lastError() {
        return lastError;
    }

    /** Starts over on a new stream (a restarted journalctl): what was half read is forgotten. */
    void reset() {
        newParser();
        skipping = false;
    }

    private void newParser() {
        try {
            if (parser != null) {
                parser.close();
            }
            parser = factory.createNonBlockingByteArrayParser();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        fedBefore = 0;
        fedTotal = 0;
        depth = 0;
        valueStart = -1;
        input = null;
        inputStart = inputEnd = 0;
    }

    /**
     * Gives the reader {@code b[off, end)}; the array must stay untouched until {@link #next} returned false. Call
     * only after {@link #next} returned false (or before the first call).
     */
    void feed(byte[] b, int off, int end) throws IOException {
        input = b;
        inputStart = off;
        inputEnd = end;
        if (skipping) {
            skipLine();
            return;
        }
        fedBefore = fedTotal;
        fedTotal += end - off;
        ((ByteArrayFeeder) parser.getNonBlockingInputFeeder()).feedInput(b, off, end);
    }

    /** Closes the input: at end of stream, what is half read is dropped. */
    void endOfInput() {
        reset();
    }

    /**
     * Reads on into {@code e}: true when {@code e} now holds a whole entry (the next call starts filling another,
     * which is cleared first), false when the input fed is used up (feed more; {@code e} keeps what it has).
     */
    boolean next(JournalEntry e) {
        while (true) {
            if (skipping) {
                return false;
            }
            JsonToken t;
            try {
                t = parser.nextToken();
                if (t == null || t == JsonToken.NOT_AVAILABLE) {
                    return false;
                }
                if (token(t, e)) {
                    return true;
                }
            } catch (IOException | RuntimeException ex) {
                lost(ex);
            }
        }
    }

    /** Handles one token; true when it ended an entry. */
    private boolean token(JsonToken t, JournalEntry e) throws IOException {
        switch (t) {
            case START_OBJECT -> {
                if (depth != 0) {
                    throw new IOException("journalctl's JSON nests an object in an entry");
                }
                e.clear();
                depth = 1;
                valueStart = -1;
            }
            case END_OBJECT -> {
                depth = 0;
                return true;
            }
            case FIELD_NAME -> {
                field = parser.currentName();
                wellKnown = JournalEntry.wellKnown(field);
            }
            case START_ARRAY -> {
                if (depth == 1) { // binary, or several values
                    depth = 2;
                    valueStart = e.dataLength;
                    valueBinary = false;
                } else if (depth == 2) { // one binary value of several
                    depth = 3;
                    valueBinary = true;
                } else {
                    throw new IOException("journalctl's JSON nests arrays three deep");
                }
            }
            case END_ARRAY -> {
                if (depth == 3) {
                    depth = 2;
                    endValue(e);
                } else {
                    depth = 1;
                    if (valueStart >= 0 && valueBinary) { // a binary value that ends here
                        endValue(e);
                    }
                    valueStart = -1;
                }
            }
            case VALUE_NUMBER_INT -> {
                if (depth == 2 && !valueBinary && valueStart >= 0 && valueStart == e.dataLength) {
                    valueBinary = true; // the first element decides: bytes
                }
                if (valueStart >= 0 && valueBinary) {
                    if (e.dataLength - valueStart < maxValue) {
                        e.ensure(1);
                        e.data[e.dataLength++] = (byte) parser.getIntValue();
                    } else {
                        e.truncated = true;
                    }
                }
            }
            case VALUE_STRING -> {
                if (depth == 1) {
                    valueStart = e.dataLength;
                    string(e);
                    endValue(e);
                    valueStart = -1;
                } else if (depth == 2 && valueStart >= 0 && !valueBinary) {
                    string(e); // the first of several values
                    endValue(e);
                }
            }
            case VALUE_NULL -> {
                // no value (journalctl prints null for a field it did not read in full; --all avoids it)
            }
            default -> throw new IOException("unexpected " + t + " in journalctl's JSON");
        }
        return false;
    }

    /** Appends the current string token as UTF-8, cut to maxValue at a character boundary. */
    private void string(JournalEntry e) throws IOException {
        char[] c = parser.getTextCharacters();
        int off = parser.getTextOffset();
        int n = parser.getTextLength();
        int chars = Math.min(n, maxValue); // maxValue chars are at least maxValue bytes
        e.ensure(Utf8Encoder.maxBytes(chars) + 1);
        int end = Utf8Encoder.encode(c, off, chars, e.data, e.dataLength);
        int len = end - e.dataLength;
        if (len > maxValue) {
            e.data[end] = 0; // prefixLength reads the first byte that does not fit
            len = Utf8Encoder.prefixLength(e.data, e.dataLength, maxValue);
            e.truncated = true;
        } else if (chars < n) {
            e.truncated = true;
        }
        e.dataLength += len;
    }

    /** The value from {@link #valueStart} to the end of the data is complete: file it under its field. */
    private void endValue(JournalEntry e) {
        int off = valueStart;
        int len = e.dataLength - off;
        valueStart = -1; // a later value of the same field is ignored
        if (wellKnown >= 0) {
            e.setSpan(wellKnown, off, len);
            if (!JournalEntry.alsoPair(wellKnown)) {
                return;
            }
        }
        if (field.startsWith("__")) { // the entry's address (__MONOTONIC_TIMESTAMP, __SEQNUM...), not its data
            return;
        }
        e.addPair(nameBytes(field), off, len);
    }

    private byte[] nameBytes(String name) {
        byte[] b = names.get(name);
        if (b == null) {
            b = name.isEmpty() ? EMPTY : name.getBytes(StandardCharsets.UTF_8);
            if (names.size() < MAX_CACHED_NAMES) {
                names.put(name, b);
            }
        }
        return b;
    }

    /** An entry is lost: count it, then drop the input up to the end of its line and start a new parser. */
    private void lost(Exception ex) {
        errors++;
        lastError = ex.getMessage() == null ? ex.toString() : ex.getMessage().lines().findFirst().orElse("");
        long consumed = parser.currentLocation().getByteOffset();
        int at = inputStart;
        if (consumed >= 0) {
            at = (int) Math.min(inputEnd, Math.max(inputStart, inputStart + (consumed - fedBefore)));
        }
        byte[] b = input;
        int end = inputEnd;
        newParser();
        skipping = true;
        if (b != null) {
            input = b;
            inputStart = at;
            inputEnd = end;
            skipLine();
        }
    }

    /** Drops the input up to and including a newline; feeds what follows it to the (new) parser. */
    private void skipLine() {
        for (int i = inputStart; i < inputEnd; i++) {
            if (input[i] == '\n') {
                skipping = false;
                inputStart = i + 1;
                fedBefore = fedTotal;
                fedTotal += inputEnd - inputStart;
                try {
                    ((ByteArrayFeeder) parser.getNonBlockingInputFeeder()).feedInput(input, inputStart, inputEnd);
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
                return;
            }
        }
        inputStart = inputEnd;
    }
}

package dev.logrouter.patterndb.radix;

import dev.logrouter.core.util.BoundedCharSequence;
import dev.logrouter.core.util.Latin1CharSequence;

import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One thread's reusable state for {@link RadixTree#lookup}: the captures of the last lookup (value-name index,
 * offset and length in the looked-up buffer, in match order), the search flags, and one {@link Matcher} per PCRE
 * node met so far with the zero-copy views it reads through. Arrays grow and are kept, so a warm scratch makes a
 * lookup allocation-free.
 *
 * <p>Threads: one instance per thread; it may serve several trees (a PCRE matcher is re-created when a slot is
 * found holding another pattern).
 */
public final class RadixScratch {

    private int[] capName = new int[16];
    private int[] capOff = new int[16];
    private int[] capLen = new int[16];
    int captureCount;

    boolean requireComplete;
    boolean partialFound;
    /** Where the looked-up input starts in its buffer (the EMAIL scanner looks one byte back). */
    int inputStart;
    /** Set by a successful {@link PatternParser#parse}: value slice relative to the parse position. */
    int valueStart;
    int valueLength;

    private Matcher[] matchers = new Matcher[0];
    final Latin1CharSequence latin1 = new Latin1CharSequence();
    final BoundedCharSequence bounded = new BoundedCharSequence();

    /** Captures of the last successful lookup (0 after a miss). */
    public int captureCount() {
        return captureCount;
    }

    /** Value-name index (see {@link RadixTree#captureName}) of capture {@code i}. */
    public int captureName(int i) {
        return capName[i];
    }

    /** Offset of capture {@code i} in the buffer given to the lookup. */
    public int captureOffset(int i) {
        return capOff[i];
    }

    public int captureLength(int i) {
        return capLen[i];
    }

    void push(int name, int off, int len) {
        if (captureCount == capName.length) {
            int n = captureCount * 2;
            capName = Arrays.copyOf(capName, n);
            capOff = Arrays.copyOf(capOff, n);
            capLen = Arrays.copyOf(capLen, n);
        }
        capName[captureCount] = name;
        capOff[captureCount] = off;
        capLen[captureCount] = len;
        captureCount++;
    }

    Matcher matcher(int slot, Pattern pattern) {
        if (slot >= matchers.length) {
            matchers = Arrays.copyOf(matchers, Math.max(slot + 1, matchers.length * 2));
        }
        Matcher m = matchers[slot];
        if (m == null || m.pattern() != pattern) {
            m = pattern.matcher("");
            matchers[slot] = m;
        }
        return m;
    }
}

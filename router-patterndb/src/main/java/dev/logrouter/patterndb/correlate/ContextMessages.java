package dev.logrouter.patterndb.correlate;

import dev.logrouter.core.event.LogEvent;

/**
 * A context's messages, oldest first, in a growable circular array: adding at the end and dropping the oldest (a
 * context at its message cap, once per message) are O(1), where a list would shift every message.
 *
 * <p>Threads: owned by the correlation thread.
 */
final class ContextMessages {

    private LogEvent[] ring = new LogEvent[4];
    private int head;
    private int size;

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** The {@code i}-th message, 0 = the oldest. */
    LogEvent get(int i) {
        return ring[(head + i) & (ring.length - 1)];
    }

    void set(int i, LogEvent e) {
        ring[(head + i) & (ring.length - 1)] = e;
    }

    void add(LogEvent e) {
        if (size == ring.length) {
            LogEvent[] bigger = new LogEvent[ring.length * 2];
            for (int i = 0; i < size; i++) {
                bigger[i] = get(i);
            }
            ring = bigger;
            head = 0;
        }
        ring[(head + size) & (ring.length - 1)] = e;
        size++;
    }

    void removeFirst() {
        ring[head] = null;
        head = (head + 1) & (ring.length - 1);
        size--;
    }

    void removeLast() {
        set(size - 1, null);
        size--;
    }

    /** The index of {@code e} (the same object), searching from the newest; -1 when absent. */
    int lastIndexOf(LogEvent e) {
        for (int i = size - 1; i >= 0; i--) {
            if (get(i) == e) {
                return i;
            }
        }
        return -1;
    }
}

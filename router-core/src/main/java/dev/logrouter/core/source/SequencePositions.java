package dev.logrouter.core.source;

/**
 * The upstream positions a source published, by the ring sequence that carries them, oldest first: how a source
 * that acknowledges upstream (Kafka offsets, file checkpoints) learns how far it may acknowledge. It adds (last
 * sequence of a publish batch, position after it) as it publishes, and pops everything at or below the pipeline's
 * completed sequence ({@link SourceContext#completedSequence()}); the position of the last popped entry is where
 * every sink has made the input durable. Primitive arrays in a ring that doubles when full: nothing per entry.
 *
 * <p>Threads: the source's publishing thread; {@link #size()} may be read by a gauge (a racy but harmless read).
 */
public final class SequencePositions {

    private long[] seqs = new long[16];
    private long[] positions = new long[16];
    private int head;
    private int size;
    private long lastDonePosition = -1;

    /** Records that the input up to {@code position} is carried by ring sequences up to {@code seq}. */
    public void add(long seq, long position) {
        if (size == seqs.length) {
            long[] s = new long[size * 2];
            long[] p = new long[size * 2];
            for (int i = 0; i < size; i++) {
                s[i] = seqs[(head + i) & (seqs.length - 1)];
                p[i] = positions[(head + i) & (seqs.length - 1)];
            }
            seqs = s;
            positions = p;
            head = 0;
        }
        int at = (head + size) & (seqs.length - 1);
        seqs[at] = seq;
        positions[at] = position;
        size++;
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    /** The newest sequence recorded; only when not empty. */
    public long lastSeq() {
        return seqs[(head + size - 1) & (seqs.length - 1)];
    }

    /** Removes the entries whose sequence is at or below {@code completed}; returns how many. */
    public int popDone(long completed) {
        int n = 0;
        while (size > 0 && seqs[head] <= completed) {
            lastDonePosition = positions[head];
            head = (head + 1) & (seqs.length - 1);
            size--;
            n++;
        }
        return n;
    }

    /** The position of the last entry {@link #popDone} removed; -1 before the first. */
    public long lastDonePosition() {
        return lastDonePosition;
    }
}

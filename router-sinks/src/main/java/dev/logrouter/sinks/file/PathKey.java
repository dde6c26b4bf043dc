package dev.logrouter.sinks.file;

import java.util.Arrays;

/**
 * Bytes of a rendered path as a hash key. The sink keeps one mutable probe instance to look files up
 * without allocating; keys stored in the cache are immutable copies.
 *
 * <p>Threads: owned by the sink thread.
 */
final class PathKey {

    private byte[] bytes;
    private int length;
    private int hash;

    PathKey(byte[] bytes, int length) {
        set(bytes, length);
    }

    void set(byte[] src, int len) {
        this.bytes = src;
        this.length = len;
        int h = 1;
        for (int i = 0; i < len; i++) {
            h = 31 * h + src[i];
        }
        this.hash = h;
    }

    PathKey copy() {
        return new PathKey(Arrays.copyOf(bytes, length), length);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PathKey k && k.length == length && k.hash == hash
                && Arrays.equals(bytes, 0, length, k.bytes, 0, k.length);
    }
}

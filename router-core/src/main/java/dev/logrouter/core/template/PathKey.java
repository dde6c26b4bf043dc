package dev.logrouter.core.template;

import java.util.Arrays;

/**
 * Bytes of a rendered path as a hash key. A sink keeps one mutable probe instance to look its open files
 * up without allocating; keys stored in its cache are immutable copies.
 *
 * <p>Threads: owned by one sink's thread.
 */
public final class PathKey {

    private byte[] bytes;
    private int length;
    private int hash;

    public PathKey(byte[] bytes, int length) {
        set(bytes, length);
    }

    public void set(byte[] src, int len) {
        this.bytes = src;
        this.length = len;
        int h = 1;
        for (int i = 0; i < len; i++) {
            h = 31 * h + src[i];
        }
        this.hash = h;
    }

    public PathKey copy() {
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

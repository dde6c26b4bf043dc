package dev.logrouter.core.filter;

/**
 * Parses an IP address literal held as ASCII bytes (the sender text of a {@link dev.logrouter.core.event.LogEvent},
 * or an address in a {@code netmask()} argument) into numbers, without allocating: an IPv4 address
 * ({@code 192.0.2.7}) into {@link #v4}, an IPv6 address ({@code 2001:db8::1}, {@code 0:0:0:0:0:0:0:1},
 * {@code ::ffff:192.0.2.7}, with or without a {@code %scope} suffix) into {@link #hi} and {@link #lo}. Host names
 * and anything else are not addresses ({@link #NONE}).
 *
 * <p>Threads: a mutable scratch object; each instance belongs to one thread (a filter instance, or the compiling
 * thread).
 */
final class InetText {

    static final int NONE = 0;
    static final int V4 = 4;
    static final int V6 = 6;

    /** What the last {@link #parse} found: {@link #NONE}, {@link #V4} or {@link #V6}. */
    int family;
    /** The IPv4 address, most significant octet first, when {@link #family} is {@link #V4}. */
    int v4;
    /** The IPv6 address's first and last 64 bits, when {@link #family} is {@link #V6}. */
    long hi;
    long lo;

    private final int[] groups = new int[8];

    /** Parses {@code a[off, off + len)}; returns true and sets {@link #family} when it is an address literal. */
    boolean parse(byte[] a, int off, int len) {
        family = NONE;
        int end = off + len;
        boolean colon = false;
        for (int i = off; i < end; i++) {
            if (a[i] == '%') {
                end = i; // an IPv6 zone (fe80::1%eth0): not part of the address
                break;
            }
            if (a[i] == ':') {
                colon = true;
            }
        }
        if (colon) {
            return parse6(a, off, end);
        }
        long v = parse4(a, off, end);
        if (v < 0) {
            return false;
        }
        v4 = (int) v;
        family = V4;
        return true;
    }

    /** True when the last parse found an IPv4-mapped IPv6 address ({@code ::ffff:a.b.c.d}). */
    boolean isV4Mapped() {
        return family == V6 && hi == 0 && (lo >>> 32) == 0xFFFFL;
    }

    /** A dotted quad of decimal octets (1–3 digits, 0–255) as an unsigned 32-bit value, or -1. */
    static long parse4(byte[] a, int from, int end) {
        long value = 0;
        int parts = 0;
        int i = from;
        while (true) {
            int octet = 0;
            int digits = 0;
            while (i < end && a[i] >= '0' && a[i] <= '9' && digits < 4) {
                octet = octet * 10 + (a[i] - '0');
                digits++;
                i++;
            }
            if (digits == 0 || digits > 3 || octet > 255) {
                return -1;
            }
            value = value << 8 | octet;
            parts++;
            if (i == end) {
                return parts == 4 ? value : -1;
            }
            if (a[i] != '.' || parts == 4) {
                return -1;
            }
            i++;
        }
    }

    private boolean parse6(byte[] a, int from, int end) {
        int[] g = groups;
        int n = 0;
        int gap = -1; // index in g where '::' stands
        int i = from;
        if (end - from >= 2 && a[i] == ':' && a[i + 1] == ':') {
            gap = 0;
            i += 2;
            if (i == end) {
                hi = 0;
                lo = 0;
                family = V6;
                return true;
            }
        } else if (i < end && a[i] == ':') {
            return false;
        }
        while (true) {
            int start = i;
            int v = 0;
            while (i < end && i - start < 5) {
                int d = Character.digit(a[i], 16); // -1 for a byte that is no ASCII hex digit
                if (d < 0) {
                    break;
                }
                v = v << 4 | d;
                i++;
            }
            int digits = i - start;
            if (i < end && a[i] == '.') { // a trailing IPv4 address: two groups
                if (n > 6) {
                    return false;
                }
                long v4tail = parse4(a, start, end);
                if (v4tail < 0) {
                    return false;
                }
                g[n++] = (int) (v4tail >>> 16);
                g[n++] = (int) (v4tail & 0xFFFF);
                break;
            }
            if (digits == 0 || digits > 4 || n == 8) {
                return false;
            }
            g[n++] = v;
            if (i == end) {
                break;
            }
            if (a[i] != ':') {
                return false;
            }
            i++;
            if (i < end && a[i] == ':') {
                if (gap >= 0) {
                    return false;
                }
                gap = n;
                i++;
                if (i == end) {
                    break;
                }
            } else if (i == end) {
                return false; // a trailing single ':'
            }
        }
        if (gap < 0 ? n != 8 : n > 7) {
            return false;
        }
        long h = 0;
        long l = 0;
        int missing = 8 - n;
        for (int k = 0, src = 0; k < 8; k++) {
            int value;
            if (gap >= 0 && k >= gap && k < gap + missing) {
                value = 0;
            } else {
                value = g[src++];
            }
            if (k < 4) {
                h = h << 16 | value;
            } else {
                l = l << 16 | value;
            }
        }
        hi = h;
        lo = l;
        family = V6;
        return true;
    }
}

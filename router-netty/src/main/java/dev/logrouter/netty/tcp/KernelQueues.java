package dev.logrouter.netty.tcp;

import io.netty.channel.Channel;
import io.netty.channel.unix.UnixChannel;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the kernel holds for a TCP socket that the router has not read: the bytes in a connection's receive queue, or
 * the connections in a listener's accept queue. Linux reports both as {@code rx_queue} in {@code /proc/net/tcp} and
 * {@code /proc/net/tcp6}, found by the socket's inode (from {@code /proc/self/fd}). Only native epoll channels expose
 * their descriptor; for any other channel, a Unix socket, or where {@code /proc} cannot be read, the answer is
 * {@link #UNKNOWN}. A clean stop uses it to keep a listener open while connections wait in its queue, and to count
 * the bytes a forced stop leaves unread.
 *
 * <p>Threads: any; reads {@code /proc} on every call (a stop's rare path, never per message).
 */
final class KernelQueues {

    /** The kernel's count could not be read. */
    static final long UNKNOWN = -1;

    private static final Path[] TABLES = {Path.of("/proc/net/tcp"), Path.of("/proc/net/tcp6")};

    private KernelQueues() {
    }

    /**
     * For a connection: the bytes received and not yet read. For a listener: the connections completed and not
     * yet accepted. {@link #UNKNOWN} when it cannot be told.
     */
    static long unread(Channel ch) {
        long inode = inode(ch);
        return inode <= 0 ? UNKNOWN : rxQueue(inode);
    }

    /** {@link #unread} from a {@link #snapshot} taken once for many channels. */
    static long unread(Channel ch, java.util.Map<Long, Long> snapshot) {
        long inode = inode(ch);
        Long q = inode <= 0 ? null : snapshot.get(inode);
        return q == null ? UNKNOWN : q;
    }

    /** Every TCP socket's rx_queue by inode, read once (a stop abandoning many connections reads the tables once). */
    static java.util.Map<Long, Long> snapshot() {
        java.util.Map<Long, Long> m = new java.util.HashMap<>();
        for (Path table : TABLES) {
            try (BufferedReader r = Files.newBufferedReader(table, StandardCharsets.US_ASCII)) {
                r.readLine();
                for (String line; (line = r.readLine()) != null; ) {
                    String[] f = line.trim().split("\\s+");
                    int colon = f.length > 9 ? f[4].indexOf(':') : -1;
                    if (colon >= 0) {
                        m.put(Long.parseLong(f[9]), Long.parseLong(f[4], colon + 1, f[4].length(), 16));
                    }
                }
            } catch (IOException | RuntimeException e) {
                // no such table
            }
        }
        return m;
    }

    private static long inode(Channel ch) {
        if (!(ch instanceof UnixChannel u) || !u.fd().isOpen()) {
            return UNKNOWN;
        }
        try {
            String link = Files.readSymbolicLink(Path.of("/proc/self/fd/" + u.fd().intValue())).toString();
            if (!link.startsWith("socket:[") || !link.endsWith("]")) {
                return UNKNOWN;
            }
            return Long.parseLong(link, 8, link.length() - 1, 10);
        } catch (IOException | UnsupportedOperationException | NumberFormatException | SecurityException e) {
            return UNKNOWN;
        }
    }

    /** The rx_queue of the socket with {@code inode}, from the kernel's tables. */
    static long rxQueue(long inode) {
        String wanted = Long.toString(inode);
        for (Path table : TABLES) {
            try (BufferedReader r = Files.newBufferedReader(table, StandardCharsets.US_ASCII)) {
                r.readLine(); // header
                for (String line; (line = r.readLine()) != null; ) {
                    // sl local rem st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode ...
                    String[] f = line.trim().split("\\s+");
                    if (f.length > 9 && f[9].equals(wanted)) {
                        String queues = f[4];
                        int colon = queues.indexOf(':');
                        return colon < 0 ? UNKNOWN : Long.parseLong(queues, colon + 1, queues.length(), 16);
                    }
                }
            } catch (IOException | RuntimeException e) {
                // no such table (no IPv6, not Linux): try the next
            }
        }
        return UNKNOWN;
    }
}

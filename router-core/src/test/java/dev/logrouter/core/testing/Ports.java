package dev.logrouter.core.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Free TCP ports on the loopback address for the servers tests start (a broker, a search node) and for addresses
 * nothing listens on. Shared with the other modules' tests through router-core's test jar.
 *
 * <p>The ports come from below the kernel's ephemeral range ({@code net.ipv4.ip_local_port_range}), which
 * {@code bind(0)} and outgoing connections draw from. A port found free there stays free until someone binds it
 * by number: a client reconnecting to a stopped broker cannot be given it as its own source port and hold it
 * when the broker restarts on it.
 *
 * <p>Threads: any.
 */
public final class Ports {

    private static final int LOWEST = 15_000;
    /** Ports already handed out in this JVM: two servers started together never get the same one. */
    private static final Set<Integer> GIVEN = ConcurrentHashMap.newKeySet();

    private Ports() {
    }

    /** A port nothing listened on a moment ago, outside the ephemeral range when there is room below it. */
    public static int freeLoopbackPort() {
        int below = ephemeralLow();
        if (below - LOWEST >= 1000) {
            for (int attempt = 0; attempt < 100; attempt++) {
                int port = ThreadLocalRandom.current().nextInt(LOWEST, below);
                if (GIVEN.contains(port)) {
                    continue;
                }
                try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                    if (GIVEN.add(port)) {
                        return port;
                    }
                } catch (IOException taken) {
                    // try another
                }
            }
        }
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int ephemeralLow() {
        try {
            String range = Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).trim();
            return Integer.parseInt(range.split("\\s+")[0]);
        } catch (IOException | RuntimeException notLinux) {
            return 32_768;
        }
    }
}

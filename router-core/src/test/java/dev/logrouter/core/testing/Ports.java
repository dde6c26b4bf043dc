package dev.logrouter.core.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/**
 * Free TCP ports on the loopback address for the servers tests start (a broker, a search node) and for addresses
 * nothing listens on. Shared with the other modules' tests through router-core's test jar.
 *
 * <p>Threads: any.
 */
public final class Ports {

    private Ports() {
    }

    /** A port nothing listened on a moment ago. */
    public static int freeLoopbackPort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package dev.logrouter.core.template;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;

/**
 * The name of the machine the router runs on, for {@code ${LOGHOST}} and the HOST of messages from local sources
 * (the unix sockets, as syslog-ng names them): the short host name (the part before
 * the first dot, as syslog-ng prints it with its default {@code use-fqdn(no)}), looked up once on first use.
 * Falls back to the {@code HOSTNAME} environment variable, then to {@code localhost}.
 *
 * <p>Threads: any; the name is computed once (class initialisation is thread-safe) and shared: do not modify
 * the returned array.
 */
public final class LocalHostName {

    private static final byte[] NAME = lookUp().getBytes(StandardCharsets.UTF_8);

    private LocalHostName() {
    }

    /** The name as UTF-8 (shared: do not modify). */
    public static byte[] get() {
        return NAME;
    }

    private static String lookUp() {
        String name;
        try {
            name = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException | SecurityException e) {
            name = System.getenv("HOSTNAME");
        }
        if (name == null || name.isEmpty()) {
            return "localhost";
        }
        boolean numeric = name.chars().allMatch(ch -> Character.isDigit(ch) || ch == '.' || ch == ':');
        int dot = name.indexOf('.');
        return numeric || dot <= 0 ? name : name.substring(0, dot);
    }
}

package dev.logrouter.bench.loadgen;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Set;

/**
 * Parsed, validated command line of {@link LoadGen}.
 *
 * <p>Immutable; built once on the main thread by {@link #parse(String[])} and read by every sender thread.
 *
 * @param address     resolved loopback address to connect to
 * @param port        destination port
 * @param udp         true for UDP datagrams, false for TCP streams
 * @param connections number of parallel connections (one sender thread each)
 * @param size        bytes of one message on the wire, framing included
 * @param rate        total messages per second over all connections, 0 = unlimited
 * @param count       total messages over all connections, 0 = bounded by {@code durationNanos} only
 * @param durationNanos how long to send, 0 = bounded by {@code count} only
 * @param format      syslog header format
 * @param timeoutNanos hard limit past the planned end (count mode: past the start) before giving up
 * @param progress    print a per-second rate line to stderr
 * @param tls         TCP over TLS (RFC 5425), trusting any server certificate (loopback benchmarks only)
 */
public record LoadGenOptions(InetAddress address, int port, boolean udp, int connections, int size, long rate,
                             long count, long durationNanos, SyslogFormat format, long timeoutNanos,
                             boolean progress, boolean tls) {

    /** Duration used when neither {@code --count} nor {@code --duration} is given. */
    static final long DEFAULT_DURATION_SECONDS = 10;

    private static final Set<String> VALUE_OPTIONS = Set.of("--host", "-H", "--port", "-p", "--connections",
            "--active-connections", "-c", "-P", "--size", "-s", "--rate", "-r", "--count", "-n", "--duration",
            "--interval", "-d", "-I", "--format", "-f", "--timeout");

    static final String USAGE = String.join("\n",
            "usage: LoadGen --port N [options]",
            "  --host ADDR          loopback address to connect to (127.0.0.0/8, ::1, localhost) [127.0.0.1]",
            "  --port N, -p N       destination port (required)",
            "  --tcp | --udp        transport [tcp]",
            "  --tls                TCP over TLS (RFC 5425), any server certificate accepted (loopback only)",
            "  --connections N, -c N  parallel connections, one thread each [1]",
            "  --size BYTES, -s N   message size on the wire incl. framing (LF or octet count) [256]",
            "  --rate N, -r N       total messages per second, 0 = unlimited [0]",
            "  --count N, -n N      total messages over all connections",
            "  --duration S, -d S   seconds to send (default 10 without --count; with both, the first to end)",
            "  --format F, -f F     rfc3164 (LF framed) | rfc5424 (RFC 6587 octet counted) [rfc3164]",
            "  --timeout S          give up this many seconds after the planned end [300]",
            "  --progress           print a rate line per second to stderr",
            "stdout: one line 'sent=N elapsed_s=X rate_msgs=Y rate_mbs=Z'; exit 1 on connection errors");

    /**
     * Parses {@code args}; accepts {@code --name value}, {@code --name=value} and the short forms.
     *
     * @throws IllegalArgumentException with a message for the user on any bad or missing option
     */
    public static LoadGenOptions parse(String[] args) {
        String host = "127.0.0.1";
        int port = -1;
        boolean udp = false;
        int connections = 1;
        int size = 256;
        long rate = 0;
        long count = 0;
        double duration = 0;
        SyslogFormat format = SyslogFormat.RFC3164;
        double timeout = 300;
        boolean progress = false;
        boolean tls = false;
        for (int i = 0; i < args.length; i++) {
            String name = args[i];
            String inline = null;
            int eq = name.indexOf('=');
            if (name.startsWith("--") && eq > 0) {
                inline = name.substring(eq + 1);
                name = name.substring(0, eq);
            }
            switch (name) {
                case "--tcp", "-t" -> udp = false;
                case "--udp", "-u" -> udp = true;
                case "--progress" -> progress = true;
                case "--tls" -> tls = true;
                case "--help", "-h" -> throw new IllegalArgumentException("");
                default -> {
                    if (!name.startsWith("-") || !VALUE_OPTIONS.contains(name)) {
                        throw new IllegalArgumentException("unknown option " + name);
                    }
                    String value = inline;
                    if (value == null) {
                        if (i + 1 >= args.length) {
                            throw new IllegalArgumentException("option " + name + " needs a value");
                        }
                        value = args[++i];
                    }
                    switch (name) {
                        case "--host", "-H" -> host = value;
                        case "--port", "-p" -> port = (int) number(name, value, 1, 65535);
                        case "--connections", "--active-connections", "-c", "-P" ->
                                connections = (int) number(name, value, 1, 10_000);
                        case "--size", "-s" -> size = (int) number(name, value, 1, 1 << 20);
                        case "--rate", "-r" -> rate = number(name, value, 0, Long.MAX_VALUE);
                        case "--count", "-n" -> count = number(name, value, 1, Long.MAX_VALUE);
                        case "--duration", "--interval", "-d", "-I" -> duration = seconds(name, value);
                        case "--format", "-f" -> format = SyslogFormat.of(value);
                        case "--timeout" -> timeout = seconds(name, value);
                        default -> throw new IllegalArgumentException("unknown option " + name);
                    }
                }
            }
        }
        if (port < 0) {
            throw new IllegalArgumentException("--port is required");
        }
        if (tls && udp) {
            throw new IllegalArgumentException("--tls needs TCP");
        }
        if (count == 0 && duration == 0) {
            duration = DEFAULT_DURATION_SECONDS;
        }
        return new LoadGenOptions(loopback(host), port, udp, connections, size, rate, count,
                (long) (duration * 1e9), format, (long) (timeout * 1e9), progress, tls);
    }

    /** Resolves {@code host} without DNS and refuses anything that is not a loopback address. */
    static InetAddress loopback(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        boolean literal = h.matches("[0-9.]+") || h.contains(":");
        if (!literal && !h.equals("localhost")) {
            throw new IllegalArgumentException("--host must be a loopback IP literal or localhost, got " + host);
        }
        try {
            InetAddress address = h.equals("localhost") ? InetAddress.getLoopbackAddress() : InetAddress.getByName(h);
            if (!address.isLoopbackAddress()) {
                throw new IllegalArgumentException("refusing non-loopback --host " + host
                        + " (only 127.0.0.0/8 and ::1 are allowed)");
            }
            return address;
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("bad --host " + host + ": " + e.getMessage());
        }
    }

    private static long number(String name, String value, long min, long max) {
        long v;
        try {
            v = Long.parseLong(value.replace("_", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + ": not a number: " + value);
        }
        if (v < min || v > max) {
            throw new IllegalArgumentException(name + " must be in " + min + ".." + max + ", got " + v);
        }
        return v;
    }

    private static double seconds(String name, String value) {
        double v;
        try {
            v = Double.parseDouble(value.endsWith("s") ? value.substring(0, value.length() - 1) : value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + ": not a number of seconds: " + value);
        }
        if (!(v > 0) || v > 86_400) {
            throw new IllegalArgumentException(name + " must be > 0 and <= 86400 seconds, got " + value);
        }
        return v;
    }

    /** Messages connection {@code index} must send in count mode (the total split evenly), else 0. */
    long countFor(int index) {
        if (count == 0) {
            return 0;
        }
        return count / connections + (index < count % connections ? 1 : 0);
    }

    /** Messages per second for connection {@code index} (the total split evenly), 0 = unlimited. */
    double rateFor(int index) {
        return rate == 0 ? 0 : (double) rate / connections;
    }
}

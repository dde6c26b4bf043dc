package dev.logrouter.server;

import dev.logrouter.netty.HostPort;

import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A burst as loggen sends one: {@code connections} TCP connections at once, each writing {@code perConnection} RFC 3164
 * lines ({@code ... app: c=C n=N pad...}) as fast as the router takes them, then closing. {@link #send} returns when
 * every sender wrote its last byte and closed — the data is then in the kernel's buffers or the router — which is
 * the moment an operator's SIGTERM lands in the stop tests.
 *
 * <p>Threads: {@link #send} runs one thread per connection and joins them.
 */
final class Burst {

    private static final Pattern ID = Pattern.compile("c=(\\d+) n=(\\d+)");

    private Burst() {
    }

    /** What every line ends with (a line cut by a kill does not). */
    static final String PAD = "pad".repeat(14);

    /** Sends the burst; fails the test if a sender failed. */
    static void send(String address, int connections, int perConnection) throws InterruptedException {
        send(address, connections, perConnection, 0);
    }

    /** Sends the burst from connections numbered {@code first}, {@code first + 1}, ... */
    static void send(String address, int connections, int perConnection, int first) throws InterruptedException {
        List<Thread> threads = new ArrayList<>();
        List<Throwable> errors = new ArrayList<>();
        for (int c = first; c < first + connections; c++) {
            int conn = c;
            Thread t = new Thread(() -> {
                StringBuilder sb = new StringBuilder(perConnection * 90);
                for (int i = 0; i < perConnection; i++) {
                    sb.append("<13>Mar  1 10:00:00 host").append(conn).append(" app: c=").append(conn).append(" n=")
                            .append(i).append(' ').append(PAD).append('\n');
                }
                try (Socket s = new Socket()) {
                    s.connect(HostPort.parse(address));
                    OutputStream out = new BufferedOutputStream(s.getOutputStream(), 1 << 16);
                    out.write(sb.toString().getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                } catch (Exception e) {
                    synchronized (errors) {
                        errors.add(e);
                    }
                }
            }, "burst-" + c);
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) {
            t.join();
        }
        assertThat(errors).isEmpty();
    }

    /** The distinct {@code c=C n=N} ids found in {@code texts}; fails on a repeat when {@code once}. */
    static Set<String> ids(Iterable<String> texts, boolean once) {
        Set<String> seen = new HashSet<>();
        for (String t : texts) {
            Matcher m = ID.matcher(t);
            while (m.find()) {
                boolean added = seen.add(m.group());
                if (once) {
                    assertThat(added).as("%s delivered once", m.group()).isTrue();
                }
            }
        }
        return seen;
    }
}

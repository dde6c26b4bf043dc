package dev.logrouter.bench.jvm;

import com.sun.tools.attach.VirtualMachine;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * One sample of a running JVM's garbage collection and heap allocation, for the benchmark harness
 * ({@code router-bench/lib/bench-lib.sh}), which takes one before and one after the measured load and prints the
 * difference: GC count and time, bytes allocated in the window, per message and per second.
 *
 * <pre>
 * java -cp router-bench/target/router-bench.jar dev.logrouter.bench.jvm.JvmSample PID
 * </pre>
 *
 * <p>stdout gets one line, {@code gc_count=N gc_ms=N alloc_bytes=N io=N parse=N sink=N other=N}: collections and
 * their time summed over every collector, then the bytes allocated on the heap since the JVM started (the JDK's
 * {@code com.sun.management.ThreadMXBean} total, terminated threads included) and that total split by thread
 * name as the harness groups CPU: {@code io-*}, {@code parse-*} and {@code serial-*}, {@code sink-*} and
 * {@code deliver-*}, the rest (live threads only, so the four may sum to less than the total). Attaches
 * locally (same user; needs a JDK) and starts the target's local management agent, as {@code jconsole} does;
 * exit status 1 with the reason on stderr when it cannot.
 *
 * <p>Threads: the caller's (a command-line tool).
 */
public final class JvmSample {

    private static final ObjectName THREADING = name("java.lang:type=Threading");
    private static final ObjectName COLLECTORS = name("java.lang:type=GarbageCollector,name=*");

    private JvmSample() {
    }

    /** Entry point: one argument, the pid. */
    public static void main(String[] args) {
        if (args.length != 1 || !args[0].matches("[0-9]+")) {
            System.err.println("usage: JvmSample PID");
            System.exit(2);
        }
        try {
            System.out.println(sample(args[0]));
        } catch (Exception e) {
            System.err.println("jvm-sample: pid " + args[0] + ": " + e);
            System.exit(1);
        }
    }

    /** Attaches to {@code pid} and returns the line the class comment describes. */
    static String sample(String pid) throws Exception {
        VirtualMachine vm = VirtualMachine.attach(pid);
        String address;
        try {
            address = vm.startLocalManagementAgent();
        } finally {
            vm.detach();
        }
        try (JMXConnector c = JMXConnectorFactory.connect(new JMXServiceURL(address))) {
            return sample(c.getMBeanServerConnection());
        }
    }

    /** The line for the JVM behind {@code jmx}. */
    static String sample(MBeanServerConnection jmx) throws Exception {
        long gcCount = 0;
        long gcMillis = 0;
        for (ObjectName gc : jmx.queryNames(COLLECTORS, null)) {
            gcCount += Math.max(0, (Long) jmx.getAttribute(gc, "CollectionCount"));
            gcMillis += Math.max(0, (Long) jmx.getAttribute(gc, "CollectionTime"));
        }
        long total = (Long) jmx.getAttribute(THREADING, "TotalThreadAllocatedBytes");
        long[] ids = (long[]) jmx.getAttribute(THREADING, "AllThreadIds");
        long[] bytes = (long[]) jmx.invoke(THREADING, "getThreadAllocatedBytes", new Object[] {ids},
                new String[] {long[].class.getName()});
        CompositeData[] infos = (CompositeData[]) jmx.invoke(THREADING, "getThreadInfo", new Object[] {ids},
                new String[] {long[].class.getName()});
        Map<String, Long> groups = new TreeMap<>(Map.of("io", 0L, "parse", 0L, "sink", 0L, "other", 0L));
        for (int i = 0; i < ids.length; i++) {
            if (infos[i] != null && bytes[i] > 0) {
                groups.merge(group((String) infos[i].get("threadName")), bytes[i], Long::sum);
            }
        }
        return String.format(Locale.ROOT, "gc_count=%d gc_ms=%d alloc_bytes=%d io=%d parse=%d sink=%d other=%d",
                gcCount, gcMillis, total, groups.get("io"), groups.get("parse"), groups.get("sink"),
                groups.get("other"));
    }

    /** The harness's thread group of a thread name. */
    static String group(String thread) {
        if (thread.startsWith("io-")) {
            return "io";
        }
        if (thread.startsWith("parse-") || thread.startsWith("serial-")) {
            return "parse";
        }
        if (thread.startsWith("sink-") || thread.startsWith("deliver-")) {
            return "sink";
        }
        return "other";
    }

    private static ObjectName name(String s) {
        try {
            return new ObjectName(s);
        } catch (javax.management.MalformedObjectNameException e) {
            throw new IllegalArgumentException(s, e);
        }
    }
}

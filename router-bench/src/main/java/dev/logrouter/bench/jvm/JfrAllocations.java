package dev.logrouter.bench.jvm;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where a router allocates: the allocation events of a JFR recording (e2e.sh {@code JFR=1} records the measured
 * part only) summed by site. With {@code jdk.ObjectAllocationInNewTLAB} and {@code jdk.ObjectAllocationOutsideTLAB}
 * in the recording (a .jfc that enables them: e2e.sh {@code JFR_SETTINGS}), every heap byte is counted, charged to
 * the allocation that took a new TLAB or went outside one; otherwise the {@code jdk.ObjectAllocationSample}
 * events of {@code settings=profile}, summed by their weight (the JVM's estimate of the bytes the thread
 * allocated since its previous sample: a rough split).
 *
 * <pre>
 * java -cp router-bench/target/router-bench.jar dev.logrouter.bench.jvm.JfrAllocations FILE.jfr [MESSAGES] [TOP]
 * </pre>
 *
 * <p>Prints the total, the total per thread group ({@link JvmSample#group}), then the TOP (default 15) allocation
 * sites: bytes, thread group, class, and the first five frames of the stack. With MESSAGES (the messages the
 * recording covers), bytes are also given per message.
 *
 * <p>Threads: the caller's (a command-line tool).
 */
public final class JfrAllocations {

    private static final int FRAMES = 5;

    private JfrAllocations() {
    }

    /** One allocation site's sum. */
    record Site(String group, String type, String stack, long bytes) {
    }

    /** Entry point; see the class comment. */
    public static void main(String[] args) throws IOException {
        if (args.length < 1 || args.length > 3) {
            System.err.println("usage: JfrAllocations FILE.jfr [MESSAGES] [TOP]");
            System.exit(2);
        }
        long messages = args.length > 1 ? Long.parseLong(args[1]) : 0;
        int top = args.length > 2 ? Integer.parseInt(args[2]) : 15;
        print(sites(Path.of(args[0])), messages, top, System.out);
    }

    /** The recording's allocation samples summed by thread group, class and top frames, largest first. */
    static List<Site> sites(Path jfr) throws IOException {
        Map<List<String>, Long> samples = new HashMap<>();
        Map<List<String>, Long> tlabs = new HashMap<>();
        try (RecordingFile f = new RecordingFile(jfr)) {
            while (f.hasMoreEvents()) {
                RecordedEvent e = f.readEvent();
                String event = e.getEventType().getName();
                Map<List<String>, Long> into;
                long bytes;
                switch (event) {
                    case "jdk.ObjectAllocationSample" -> {
                        into = samples;
                        bytes = e.getLong("weight");
                    }
                    case "jdk.ObjectAllocationInNewTLAB" -> {
                        into = tlabs;
                        bytes = e.getLong("tlabSize");
                    }
                    case "jdk.ObjectAllocationOutsideTLAB" -> {
                        into = tlabs;
                        bytes = e.getLong("allocationSize");
                    }
                    default -> {
                        continue;
                    }
                }
                RecordedThread t = e.getThread("eventThread");
                String group = JvmSample.group(t == null || t.getJavaName() == null ? "" : t.getJavaName());
                String type = e.getClass("objectClass").getName();
                into.merge(List.of(group, type, stack(e.getStackTrace())), bytes, Long::sum);
            }
        }
        // TLAB events (a custom .jfc enabling them) cover every byte; samples (settings=profile) are an estimate
        Map<List<String>, Long> sum = tlabs.isEmpty() ? samples : tlabs;
        List<Site> sites = new ArrayList<>();
        sum.forEach((k, v) -> sites.add(new Site(k.get(0), k.get(1), k.get(2), v)));
        sites.sort((a, b) -> Long.compare(b.bytes(), a.bytes()));
        return sites;
    }

    private static String stack(RecordedStackTrace st) {
        if (st == null) {
            return "";
        }
        StringBuilder b = new StringBuilder();
        List<RecordedFrame> frames = st.getFrames();
        for (int i = 0; i < Math.min(FRAMES, frames.size()); i++) {
            String cls = frames.get(i).getMethod().getType().getName();
            b.append(i == 0 ? "" : " < ").append(cls.substring(cls.lastIndexOf('.') + 1)).append('.')
                    .append(frames.get(i).getMethod().getName()).append(':').append(frames.get(i).getLineNumber());
        }
        return b.toString();
    }

    /** The summary the class comment describes. */
    static void print(List<Site> sites, long messages, int top, PrintStream out) {
        long total = sites.stream().mapToLong(Site::bytes).sum();
        Map<String, Long> groups = new java.util.TreeMap<>();
        sites.forEach(s -> groups.merge(s.group(), s.bytes(), Long::sum));
        java.util.StringJoiner byGroup = new java.util.StringJoiner(", ", "  (", ")");
        groups.forEach((group, bytes) -> byGroup.add(group + " " + amount(bytes, messages)));
        out.println("allocated " + amount(total, messages) + byGroup);
        for (Site s : sites.subList(0, Math.min(top, sites.size()))) {
            out.println(String.format(Locale.ROOT, "%-24s %-6s %s  %s", amount(s.bytes(), messages), s.group(),
                    s.type(), s.stack()));
        }
    }

    private static String amount(long bytes, long messages) {
        String mb = String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
        return messages > 0 ? mb + String.format(Locale.ROOT, " (%.2f B/msg)", (double) bytes / messages) : mb;
    }
}

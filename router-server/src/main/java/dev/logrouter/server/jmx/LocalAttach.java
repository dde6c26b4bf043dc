package dev.logrouter.server.jmx;

import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;
import com.sun.tools.attach.VirtualMachineDescriptor;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.remote.JMXServiceURL;

/**
 * Local attach for {@code stats --pid} and {@code stats} without a target. The only class that names
 * {@code jdk.attach} types: a JRE lacks that module, and linking this class there throws
 * {@link NoClassDefFoundError}, which {@link StatsCommand#localUrl} turns into an error message, while
 * {@code stats --jmx} never loads it.
 *
 * <p>Threads: the caller's.
 */
final class LocalAttach {

    private static final Pattern ROUTER_COMMAND = Pattern.compile(
            "(logrouter\\.jar|dev\\.logrouter\\.server\\.Main)\\s+run(\\s.*)?");

    /** {@code some.jar run ...}: group 1 is the jar as the command line gave it. */
    private static final Pattern JAR_RUN = Pattern.compile("(\\S+\\.jar)\\s+run(\\s.*)?");
    private static final String MAIN_CLASS = "dev.logrouter.server.Main";

    private LocalAttach() {
    }

    /** The local connector address of a JVM by pid, starting its local management agent if needed. */
    static JMXServiceURL url(String pid) throws IOException {
        if (pid == null) {
            pid = findLocalRouter();
        }
        try {
            VirtualMachine vm = VirtualMachine.attach(pid);
            try {
                return new JMXServiceURL(vm.startLocalManagementAgent());
            } finally {
                vm.detach();
            }
        } catch (AttachNotSupportedException e) {
            throw new IOException("cannot attach to pid " + pid + " (is it a JVM running as this user?): "
                    + e.getMessage(), e);
        }
    }

    /**
     * True when a JVM's command line ({@code displayName}: the main class or jar and the arguments) runs a router:
     * {@code logrouter.jar run}, {@code dev.logrouter.server.Main run}, or {@code run} of any other jar whose
     * manifest names {@code dev.logrouter.server.Main} (a renamed or versioned jar). A relative jar path is
     * resolved against {@code cwd}, the JVM's working directory ({@code /proc/PID/cwd} on Linux).
     */
    static boolean isRouter(String displayName, Path cwd) {
        if (ROUTER_COMMAND.matcher(displayName).find()) {
            return true;
        }
        Matcher m = JAR_RUN.matcher(displayName);
        if (!m.matches()) {
            return false;
        }
        try {
            Path jar = cwd.resolve(m.group(1));
            try (JarFile f = new JarFile(jar.toFile())) {
                Manifest mf = f.getManifest();
                return mf != null && MAIN_CLASS.equals(mf.getMainAttributes().getValue(Attributes.Name.MAIN_CLASS));
            }
        } catch (IOException | RuntimeException e) {
            return false; // gone, unreadable, another user's directory: not one we can attach to anyway
        }
    }

    /** The pid of the one local JVM running a router ({@link #isRouter}); throws when there are none or several. */
    private static String findLocalRouter() throws IOException {
        String self = Long.toString(ProcessHandle.current().pid());
        List<VirtualMachineDescriptor> routers = VirtualMachine.list().stream()
                .filter(d -> !d.id().equals(self))
                .filter(d -> isRouter(d.displayName(), Path.of("/proc", d.id(), "cwd")))
                .toList();
        if (routers.isEmpty()) {
            throw new IOException("no local logrouter process of this user found; give --pid PID or --jmx HOST:PORT");
        }
        if (routers.size() > 1) {
            StringBuilder b = new StringBuilder("several local logrouter processes; give --pid:");
            routers.forEach(d -> b.append(' ').append(d.id()).append(" (").append(d.displayName()).append(')'));
            throw new IOException(b.toString());
        }
        return routers.get(0).id();
    }
}

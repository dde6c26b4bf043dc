package dev.logrouter.server.jmx;

import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;
import com.sun.tools.attach.VirtualMachineDescriptor;

import java.io.IOException;
import java.util.List;
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

    /** The pid of the one local JVM running {@code logrouter.jar run}; throws when there are none or several. */
    private static String findLocalRouter() throws IOException {
        String self = Long.toString(ProcessHandle.current().pid());
        List<VirtualMachineDescriptor> routers = VirtualMachine.list().stream()
                .filter(d -> !d.id().equals(self))
                .filter(d -> ROUTER_COMMAND.matcher(d.displayName()).find())
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

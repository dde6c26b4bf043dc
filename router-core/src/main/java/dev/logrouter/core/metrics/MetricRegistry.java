package dev.logrouter.core.metrics;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * All metric groups of one router, and their registration as MBeans under the domain
 * {@value #DOMAIN} on the platform MBean server (where local attach and the remote connector find them).
 *
 * <p>Threads: groups are added while the router is assembled (one thread); JMX reads from any thread.
 */
public final class MetricRegistry {

    public static final String DOMAIN = "dev.logrouter";

    private final List<MetricGroup> groups = new ArrayList<>();
    private final List<ObjectName> registered = new ArrayList<>();

    public synchronized MetricGroup group(String type, String name) {
        for (MetricGroup g : groups) {
            if (g.type().equals(type) && g.name().equals(name)) {
                return g;
            }
        }
        MetricGroup g = new MetricGroup(type, name);
        groups.add(g);
        return g;
    }

    public synchronized List<MetricGroup> groups() {
        return Collections.unmodifiableList(new ArrayList<>(groups));
    }

    /** Cold path: looks up a group or throws. */
    public synchronized MetricGroup require(String type, String name) {
        for (MetricGroup g : groups) {
            if (g.type().equals(type) && g.name().equals(name)) {
                return g;
            }
        }
        throw new IllegalArgumentException("no metrics for " + type + "/" + name);
    }

    /**
     * Drops the group {@code type}/{@code name} (a component a reload removed) and its MBean, if registered. Any
     * thread.
     */
    public synchronized void remove(String type, String name) throws JMException {
        groups.removeIf(g -> g.type().equals(type) && g.name().equals(name));
        ObjectName on = objectName(type, name);
        if (registered.remove(on)) {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            if (server.isRegistered(on)) {
                server.unregisterMBean(on);
            }
        }
    }

    /** Resets the counters of every group (JMX {@code resetAllCounters}); returns how many. Any thread. */
    public int resetCounters() {
        int n = 0;
        for (MetricGroup g : groups()) {
            n += g.resetCounters();
        }
        return n;
    }

    public static ObjectName objectName(String type, String name) throws JMException {
        // '*' and '?' would make the name a pattern, which cannot be registered
        String plain = name.replace('*', '_').replace('?', '_');
        return new ObjectName(DOMAIN + ":type=" + type + ",name=" + ObjectName.quote(plain).replace("\"", "")
                .replace(",", "_").replace("=", "_").replace(":", "_"));
    }

    /**
     * Registers every group on the platform MBean server, replacing stale registrations of the same name; called
     * again after a reload, it registers the new groups and refreshes the others' attribute lists.
     */
    public synchronized void registerJmx() throws JMException {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        for (MetricGroup g : groups) {
            ObjectName on = objectName(g.type(), g.name());
            if (server.isRegistered(on)) {
                server.unregisterMBean(on);
            }
            server.registerMBean(new MetricGroupMBean(g), on);
            if (!registered.contains(on)) {
                registered.add(on);
            }
        }
    }

    public synchronized void unregisterJmx() {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        for (ObjectName on : registered) {
            try {
                server.unregisterMBean(on);
            } catch (JMException ignored) {
                // already gone
            }
        }
        registered.clear();
    }
}

package dev.logrouter.core.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.AttributeNotFoundException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link MetricRegistry}: groups, values, and their JMX view on the platform MBean server.
 */
class MetricRegistryTest {

    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    private final MetricRegistry registry = new MetricRegistry();

    @AfterEach
    void unregister() {
        registry.unregisterJmx();
    }

    @Test
    void attributesAreReadThroughThePlatformMBeanServer() throws Exception {
        MetricGroup g = registry.group("Sink", "x");
        Counter written = g.counter("written", "Events written.");
        AtomicLong pending = new AtomicLong(7);
        g.gauge("pending", "Events waiting.", pending::get);
        written.add(41);
        written.inc();

        registry.registerJmx();
        ObjectName name = new ObjectName("dev.logrouter:type=Sink,name=x");
        assertThat(server.isRegistered(name)).isTrue();
        assertThat(server.getAttribute(name, "written")).isEqualTo(42L);
        assertThat(server.getAttribute(name, "pending")).isEqualTo(7L);

        written.add(8);
        pending.set(0);
        assertThat(server.getAttribute(name, "written")).isEqualTo(50L);
        assertThat(server.getAttribute(name, "pending")).isEqualTo(0L);
        assertThat(server.getAttributes(name, new String[] {"written", "nope"}).asList())
                .extracting(a -> a.getName() + "=" + a.getValue())
                .containsExactly("written=50");
        assertThatThrownBy(() -> server.getAttribute(name, "nope")).isInstanceOf(AttributeNotFoundException.class);

        MBeanAttributeInfo[] attrs = server.getMBeanInfo(name).getAttributes();
        assertThat(Arrays.stream(attrs).map(a -> a.getName() + ":" + a.getType() + ":" + a.getDescription() + ":"
                + a.getDescriptor().getFieldValue("metricType")))
                .containsExactly("written:long:Events written.:counter", "pending:long:Events waiting.:gauge");

        registry.unregisterJmx();
        assertThat(server.isRegistered(name)).isFalse();
    }

    @Test
    void resetCountersRestartsCountersOnlyAndKeepsTheirTotals() throws Exception {
        MetricGroup g = registry.group("Source", "net");
        Counter received = g.counter("received", "Messages.");
        AtomicLong connections = new AtomicLong(3);
        g.gauge("connections", "Open now.", connections::get);
        g.text("lastError", "The last error.", () -> "IOException: gone");
        g.operation("hello", "Says hello.", () -> "hello");
        g.operation("broken", "Fails.", () -> {
            throw new IllegalStateException("no such thing");
        });
        received.add(10);
        registry.registerJmx();
        ObjectName name = new ObjectName("dev.logrouter:type=Source,name=net");

        assertThat(server.getAttribute(name, "lastError")).isEqualTo("IOException: gone");
        assertThat(Arrays.stream(server.getMBeanInfo(name).getAttributes())
                .map(a -> a.getName() + ":" + a.getType() + ":" + a.getDescriptor().getFieldValue("metricType")))
                .containsExactly("received:long:counter", "connections:long:gauge", "lastError:java.lang.String:text");
        assertThat(Arrays.stream(server.getMBeanInfo(name).getOperations()).map(o -> o.getName()))
                .containsExactly("resetCounters", "hello", "broken");

        assertThat(server.invoke(name, "resetCounters", null, null)).isEqualTo("reset 1 counters of Source net");
        assertThat(server.getAttribute(name, "received")).isEqualTo(0L);
        assertThat(received.total()).isEqualTo(10);
        assertThat(server.getAttribute(name, "connections")).isEqualTo(3L);
        received.add(2);
        assertThat(server.getAttribute(name, "received")).isEqualTo(2L);
        assertThat(received.total()).isEqualTo(12);

        assertThat(server.invoke(name, "hello", null, null)).isEqualTo("hello");
        assertThatThrownBy(() -> server.invoke(name, "broken", null, null))
                .isInstanceOf(javax.management.MBeanException.class).hasMessage("broken failed: no such thing");
        assertThatThrownBy(() -> server.invoke(name, "nope", null, null))
                .isInstanceOf(javax.management.ReflectionException.class);
        assertThatThrownBy(() -> server.setAttribute(name, new javax.management.Attribute("received", 0L)))
                .isInstanceOf(AttributeNotFoundException.class);

        registry.group("Sink", "out").counter("written", "W.").add(5);
        assertThat(registry.resetCounters()).isEqualTo(2);
        assertThat(registry.require("Sink", "out").value("written")).isZero();
    }

    @Test
    void groupsAreLookedUpByTypeAndName() {
        MetricGroup a = registry.group("Stage", "parse-0");
        assertThat(registry.group("Stage", "parse-0")).isSameAs(a);
        assertThat(registry.group("Stage", "parse-1")).isNotSameAs(a);
        assertThat(registry.require("Stage", "parse-0")).isSameAs(a);
        assertThatThrownBy(() -> registry.require("Sink", "parse-0"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no metrics for Sink/parse-0");
        a.counter("parsed", "Parsed.").add(3);
        assertThat(a.value("parsed")).isEqualTo(3);
        assertThatThrownBy(() -> a.value("nope")).hasMessage("no metric nope in Stage/parse-0");
        assertThat(registry.groups()).hasSize(2);
    }

    @Test
    void registeringAgainReplacesAStaleRegistration() throws Exception {
        MetricRegistry old = new MetricRegistry();
        old.group("Sink", "replaced").counter("written", "Old.").add(1);
        old.registerJmx();
        registry.group("Sink", "replaced").counter("written", "New.").add(2);
        registry.registerJmx();
        assertThat(server.getAttribute(new ObjectName("dev.logrouter:type=Sink,name=replaced"), "written"))
                .isEqualTo(2L);
    }

    @Test
    void namesWithObjectNameSyntaxAreNeutralised() throws Exception {
        ObjectName on = MetricRegistry.objectName("Sink", "es,prod=eu:1");
        assertThat(on.getKeyProperty("type")).isEqualTo("Sink");
        assertThat(on.getKeyProperty("name")).isEqualTo("es_prod_eu_1");
        assertThat(MetricRegistry.objectName("Sink", "a*b").getKeyProperty("name")).isEqualTo("a_b");
        assertThat(MetricRegistry.objectName("Sink", "what?").getKeyProperty("name")).isEqualTo("what_");
        String[] hostile = {"a*b", "what?", "quo\"te", "back\\slash", "new\nline"};
        for (String h : hostile) {
            ObjectName n = MetricRegistry.objectName("Sink", h);
            assertThat(n.isPattern()).as(h).isFalse();
            registry.group("Sink", h).counter("written", "W.").add(h.length());
        }
        registry.registerJmx();
        for (String h : hostile) {
            assertThat(server.getAttribute(MetricRegistry.objectName("Sink", h), "written")).as(h)
                    .isEqualTo((long) h.length());
        }
    }
}

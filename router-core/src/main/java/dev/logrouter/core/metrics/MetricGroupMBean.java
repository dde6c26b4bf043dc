package dev.logrouter.core.metrics;

import java.util.ArrayList;
import java.util.List;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.DynamicMBean;
import javax.management.ImmutableDescriptor;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanException;
import javax.management.MBeanInfo;
import javax.management.MBeanOperationInfo;
import javax.management.MBeanParameterInfo;
import javax.management.ReflectionException;

/**
 * JMX view of a {@link MetricGroup}: one read-only {@code long} attribute per metric and one {@code String}
 * attribute per text, each with its description; the group's operations plus {@value #RESET}, which every
 * group with counters has. Each attribute's descriptor carries {@value #METRIC_TYPE} ({@code counter},
 * {@code gauge} or {@code text}), which the {@code stats} command uses to type its Prometheus output.
 *
 * <p>Threads: called by JMX threads; attribute reads are lock-free on the component's side.
 */
final class MetricGroupMBean implements DynamicMBean {

    /** Descriptor field with the kind of an attribute: counter, gauge or text. */
    static final String METRIC_TYPE = "metricType";
    static final String RESET = "resetCounters";

    private final MetricGroup group;

    MetricGroupMBean(MetricGroup group) {
        this.group = group;
    }

    @Override
    public Object getAttribute(String attribute) throws AttributeNotFoundException {
        for (Metric m : group.metrics()) {
            if (m.name().equals(attribute)) {
                return m.value().getAsLong();
            }
        }
        for (MetricGroup.Text t : group.texts()) {
            if (t.name().equals(attribute)) {
                String v = t.value().get();
                return v == null ? "" : v;
            }
        }
        throw new AttributeNotFoundException(attribute);
    }

    @Override
    public void setAttribute(Attribute attribute) throws AttributeNotFoundException {
        throw new AttributeNotFoundException("metrics are read-only: " + attribute.getName());
    }

    @Override
    public AttributeList getAttributes(String[] attributes) {
        AttributeList list = new AttributeList();
        for (String a : attributes) {
            try {
                list.add(new Attribute(a, getAttribute(a)));
            } catch (AttributeNotFoundException | RuntimeException ignored) {
                // JMX contract: missing attributes are left out; one failing gauge must not hide all the others
            }
        }
        return list;
    }

    @Override
    public AttributeList setAttributes(AttributeList attributes) {
        return new AttributeList();
    }

    @Override
    public Object invoke(String actionName, Object[] params, String[] signature)
            throws MBeanException, ReflectionException {
        if (params != null && params.length > 0) {
            throw new ReflectionException(new NoSuchMethodException(actionName + " takes no parameters"));
        }
        if (actionName.equals(RESET) && hasCounters()) {
            return "reset " + group.resetCounters() + " counters of " + group.type() + " " + group.name();
        }
        for (MetricGroup.Operation op : group.operations()) {
            if (op.name().equals(actionName)) {
                try {
                    return op.action().get();
                } catch (RuntimeException e) {
                    // plain exception types only: a remote JMX client may not have our classes
                    throw new MBeanException(new Exception(e.getMessage()), actionName + " failed: " + e.getMessage());
                }
            }
        }
        throw new ReflectionException(new NoSuchMethodException("no operation " + actionName + " on "
                + group.type() + " " + group.name()));
    }

    private boolean hasCounters() {
        return group.metrics().stream().anyMatch(Metric::counter);
    }

    @Override
    public MBeanInfo getMBeanInfo() {
        List<MBeanAttributeInfo> attrs = new ArrayList<>();
        for (Metric m : group.metrics()) {
            String kind = m.counter() ? "counter" : "gauge";
            attrs.add(new MBeanAttributeInfo(m.name(), "long", m.description(), true, false, false,
                    new ImmutableDescriptor(METRIC_TYPE + "=" + kind)));
        }
        for (MetricGroup.Text t : group.texts()) {
            attrs.add(new MBeanAttributeInfo(t.name(), "java.lang.String", t.description(), true, false, false,
                    new ImmutableDescriptor(METRIC_TYPE + "=text")));
        }
        List<MBeanOperationInfo> ops = new ArrayList<>();
        if (hasCounters()) {
            ops.add(new MBeanOperationInfo(RESET, "Makes every counter of this MBean count from zero again "
                    + "(gauges and texts are current values and stay).", new MBeanParameterInfo[0],
                    "java.lang.String", MBeanOperationInfo.ACTION));
        }
        for (MetricGroup.Operation op : group.operations()) {
            ops.add(new MBeanOperationInfo(op.name(), op.description(), new MBeanParameterInfo[0],
                    "java.lang.String", MBeanOperationInfo.ACTION));
        }
        return new MBeanInfo(MetricGroup.class.getName(), group.type() + " " + group.name(),
                attrs.toArray(MBeanAttributeInfo[]::new), null, ops.toArray(MBeanOperationInfo[]::new), null);
    }
}

package dev.logrouter.core.metrics;

import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.DynamicMBean;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;
import javax.management.MBeanOperationInfo;

/**
 * Read-only JMX view of a {@link MetricGroup}: one {@code long} attribute per metric, with the metric's
 * description.
 *
 * <p>Threads: called by JMX threads; reads are lock-free.
 */
final class MetricGroupMBean implements DynamicMBean {

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
        throw new AttributeNotFoundException(attribute);
    }

    @Override
    public void setAttribute(Attribute attribute) {
        throw new UnsupportedOperationException("metrics are read-only");
    }

    @Override
    public AttributeList getAttributes(String[] attributes) {
        AttributeList list = new AttributeList();
        for (String a : attributes) {
            try {
                list.add(new Attribute(a, getAttribute(a)));
            } catch (AttributeNotFoundException ignored) {
                // JMX contract: missing attributes are left out
            }
        }
        return list;
    }

    @Override
    public AttributeList setAttributes(AttributeList attributes) {
        return new AttributeList();
    }

    @Override
    public Object invoke(String actionName, Object[] params, String[] signature) {
        throw new UnsupportedOperationException("no operations");
    }

    @Override
    public MBeanInfo getMBeanInfo() {
        MBeanAttributeInfo[] attrs = group.metrics().stream()
                .map(m -> new MBeanAttributeInfo(m.name(), "long",
                        (m.counter() ? "[counter] " : "[gauge] ") + m.description(), true, false, false))
                .toArray(MBeanAttributeInfo[]::new);
        return new MBeanInfo(MetricGroup.class.getName(), group.type() + " " + group.name(), attrs, null,
                new MBeanOperationInfo[0], null);
    }
}

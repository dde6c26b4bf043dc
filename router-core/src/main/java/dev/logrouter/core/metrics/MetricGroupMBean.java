package dev.logrouter.core.metrics;

import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.DynamicMBean;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;
import javax.management.MBeanException;
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
    public Object invoke(String actionName, Object[] params, String[] signature) throws MBeanException {
        for (MetricGroup.Operation op : group.operations()) {
            if (op.name().equals(actionName) && (params == null || params.length == 0)) {
                try {
                    return op.action().get();
                } catch (RuntimeException e) {
                    // plain exception types only: a remote JMX client may not have our classes
                    throw new MBeanException(new Exception(e.getMessage()), actionName + " failed: " + e.getMessage());
                }
            }
        }
        throw new UnsupportedOperationException("no operation " + actionName + " on " + group.type() + "/"
                + group.name());
    }

    @Override
    public MBeanInfo getMBeanInfo() {
        MBeanAttributeInfo[] attrs = group.metrics().stream()
                .map(m -> new MBeanAttributeInfo(m.name(), "long",
                        (m.counter() ? "[counter] " : "[gauge] ") + m.description(), true, false, false))
                .toArray(MBeanAttributeInfo[]::new);
        return new MBeanInfo(MetricGroup.class.getName(), group.type() + " " + group.name(), attrs, null,
                group.operations().stream()
                        .map(op -> new MBeanOperationInfo(op.name(), op.description(),
                                new javax.management.MBeanParameterInfo[0], "java.lang.String", MBeanOperationInfo.ACTION))
                        .toArray(MBeanOperationInfo[]::new), null);
    }
}

/**
 * Counters and gauges declared once per component and published as MBeans
 * {@code dev.logrouter:type=<Source|Ring|Stage|Sink>,name=<name>}; striped counters, no locks on the hot path.
 */
package dev.logrouter.core.metrics;

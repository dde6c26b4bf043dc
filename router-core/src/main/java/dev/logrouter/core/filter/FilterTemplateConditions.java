package dev.logrouter.core.filter;

import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.template.TemplateCondition;

import java.time.ZoneId;
import java.util.Map;

/**
 * Compiles the conditions of template functions ({@code $(if)}, {@code $(grep)}) as filter expressions without named
 * filters. Listed in {@code META-INF/services/dev.logrouter.core.template.TemplateCondition$Compiler}.
 *
 * <p>Threads: stateless; called when templates are compiled.
 */
public final class FilterTemplateConditions implements TemplateCondition.Compiler {

    @Override
    public TemplateCondition compile(String expression, MetricGroup metrics, ZoneId zone) {
        FilterExpression fe = FilterExpression.compile(expression, Map.of(), metrics, zone);
        return () -> fe.newFilter()::test;
    }
}

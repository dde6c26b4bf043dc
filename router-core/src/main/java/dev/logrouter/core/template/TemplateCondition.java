package dev.logrouter.core.template;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.MetricGroup;

import java.time.ZoneId;
import java.util.function.Predicate;

/**
 * The condition of a template function ({@code $(if)}, {@code $(grep)}): a filter expression. Filters read templates,
 * so templates cannot import filters; the filter package provides the {@link Compiler}, found with
 * {@link java.util.ServiceLoader} ({@code META-INF/services/dev.logrouter.core.template.TemplateCondition$Compiler}).
 *
 * <p>Threads: immutable; each thread that renders gets its own test from {@link #newTest()}.
 */
public interface TemplateCondition {

    /** A fresh test with its own scratch state (regex matchers), for the one thread that owns the template. */
    Predicate<LogEvent> newTest();

    /** Compiles a filter expression; throws IllegalArgumentException when it does not compile. */
    static TemplateCondition compile(String expression, MetricGroup metrics, ZoneId zone) {
        return ConditionCompiler.get().compile(expression, metrics, zone);
    }

    /** Compiles filter expressions for template functions. */
    interface Compiler {
        TemplateCondition compile(String expression, MetricGroup metrics, ZoneId zone);
    }
}

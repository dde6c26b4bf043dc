package dev.logrouter.core.template;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.metrics.MetricGroup;

import java.time.ZoneId;
import java.util.List;
import java.util.function.Predicate;

/**
 * syslog-ng's {@code $(if (CONDITION) THEN ELSE)}: CONDITION is a filter expression ({@code dev.logrouter.core.filter.FilterExpression},
 * usually in parentheses), THEN and ELSE are templates; renders THEN when the filter matches the event, else
 * ELSE. Over a context (see {@link dev.logrouter.core.event.EventContext}) the filter's comparisons and both
 * templates see the whole context, as {@code filter_expr_eval_with_context} does.
 *
 * <p>Threads: an instance owns its filter and template copies and belongs to one thread ({@link #copy()}).
 */
final class IfFunction implements TemplateFunction {

    static final String NAME = "if";

    private final TemplateCondition condition;
    private final Predicate<LogEvent> filter;
    private final Template then;
    private final Template otherwise;

    private IfFunction(TemplateCondition condition, Template then, Template otherwise) {
        this.condition = condition;
        this.filter = condition.newTest();
        this.then = then;
        this.otherwise = otherwise;
    }

    static IfFunction compile(List<String> args, ZoneId zone) {
        if (args.size() != 3) {
            throw new IllegalArgumentException("$(if) takes three arguments, (CONDITION) THEN ELSE, got "
                    + args.size() + ": " + args);
        }
        return new IfFunction(compileCondition(NAME, args.get(0), zone), Template.compile(args.get(1), zone),
                Template.compile(args.get(2), zone));
    }

    /** Compiles the filter argument of a conditional function, naming the function when it does not compile. */
    static TemplateCondition compileCondition(String function, String text, ZoneId zone) {
        try {
            return TemplateCondition.compile(text, new MetricGroup("TemplateFunction", function), zone);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("$(" + function + ") condition does not compile: " + e.getMessage(), e);
        }
    }

    @Override
    public void render(LogEvent e, ByteBuilder out) {
        (filter.test(e) ? then : otherwise).render(e, out);
    }

    @Override
    public TemplateFunction copy() {
        return new IfFunction(condition, then.copy(), otherwise.copy());
    }
}

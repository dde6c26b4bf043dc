package dev.logrouter.core.filter;

import dev.logrouter.core.event.LogEvent;

import java.util.List;

/**
 * The boolean operators: {@code and} and {@code or} over any number of operands (evaluated left to right,
 * stopping at the first operand that decides, as syslog-ng does), and {@code not}.
 *
 * <p>Threads: the nodes are immutable; each {@link Filter} they build belongs to one thread, like its operands.
 */
final class LogicFilters {

    private LogicFilters() {
    }

    /** {@code a and b and ...}. */
    static FilterNode and(List<FilterNode> operands) {
        return operands.size() == 1 ? operands.get(0) : new Node(operands.toArray(new FilterNode[0]), true);
    }

    /** {@code a or b or ...}. */
    static FilterNode or(List<FilterNode> operands) {
        return operands.size() == 1 ? operands.get(0) : new Node(operands.toArray(new FilterNode[0]), false);
    }

    static FilterNode not(FilterNode operand) {
        return new FilterNode() {
            @Override
            public Filter newFilter() {
                return new Not(operand.newFilter());
            }

            @Override
            public String describe() {
                return "not " + operand.describe();
            }
        };
    }

    private record Node(FilterNode[] operands, boolean isAnd) implements FilterNode {
        @Override
        public Filter newFilter() {
            Filter[] fs = new Filter[operands.length];
            for (int i = 0; i < fs.length; i++) {
                fs[i] = operands[i].newFilter();
            }
            return isAnd ? new And(fs) : new Or(fs);
        }

        @Override
        public String describe() {
            StringBuilder sb = new StringBuilder("(");
            for (int i = 0; i < operands.length; i++) {
                if (i > 0) {
                    sb.append(isAnd ? " and " : " or ");
                }
                sb.append(operands[i].describe());
            }
            return sb.append(')').toString();
        }
    }

    private static final class And implements Filter {
        private final Filter[] operands;

        And(Filter[] operands) {
            this.operands = operands;
        }

        @Override
        public boolean test(LogEvent event) {
            for (Filter f : operands) {
                if (!f.test(event)) {
                    return false;
                }
            }
            return true;
        }
    }

    private static final class Or implements Filter {
        private final Filter[] operands;

        Or(Filter[] operands) {
            this.operands = operands;
        }

        @Override
        public boolean test(LogEvent event) {
            for (Filter f : operands) {
                if (f.test(event)) {
                    return true;
                }
            }
            return false;
        }
    }

    private static final class Not implements Filter {
        private final Filter operand;

        Not(Filter operand) {
            this.operand = operand;
        }

        @Override
        public boolean test(LogEvent event) {
            return !operand.test(event);
        }
    }
}

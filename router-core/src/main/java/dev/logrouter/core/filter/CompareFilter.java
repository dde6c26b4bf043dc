package dev.logrouter.core.filter;

import dev.logrouter.core.event.LogEvent;

import java.util.Arrays;

/**
 * A comparison of two templates, as syslog-ng's {@code filter-cmp}: {@code ==  !=  <  <=  >  >=} compare the
 * rendered values as numbers (see {@link NumericValue}: {@code atoi}-like, text without a number is 0),
 * {@code eq ne lt le gt ge} compare them as byte strings ({@code strcmp}: unsigned bytes, a prefix sorts first).
 * A side that is a single reference ({@code "${.json.status}"}) is read in place; a constant is precomputed.
 *
 * <p>Threads: the node is immutable; each {@link Filter} it builds belongs to one thread.
 */
final class CompareFilter implements FilterNode {

    static final int EQ = 1;
    static final int LT = 2;
    static final int GT = 4;

    private final ValueRef left;
    private final ValueRef right;
    private final int accept;
    private final boolean numeric;
    private final String operator;

    /**
     * @param accept   which outcomes make the filter true: a mask of {@link #EQ}, {@link #LT}, {@link #GT}
     * @param numeric  compare as numbers rather than strings
     * @param operator the operator as written, for diagnostics
     */
    CompareFilter(ValueRef left, ValueRef right, int accept, boolean numeric, String operator) {
        this.left = left;
        this.right = right;
        this.accept = accept;
        this.numeric = numeric;
        this.operator = operator;
    }

    @Override
    public Filter newFilter() {
        return new Instance(left.newReader(), right.newReader(), accept, numeric);
    }

    @Override
    public String describe() {
        return "\"" + left.text() + "\" " + operator + " \"" + right.text() + "\"";
    }

    private static final class Instance implements Filter {
        private final ValueRef.Reader left;
        private final ValueRef.Reader right;
        private final int accept;
        private final boolean numeric;
        private final NumericValue l = new NumericValue();
        private final NumericValue r = new NumericValue();

        /** A constant side is read (and, for numbers, parsed) once here instead of per message. */
        private final boolean leftConstant;
        private final boolean rightConstant;

        Instance(ValueRef.Reader left, ValueRef.Reader right, int accept, boolean numeric) {
            this.left = left;
            this.right = right;
            this.accept = accept;
            this.numeric = numeric;
            this.leftConstant = left.readConstant();
            this.rightConstant = right.readConstant();
            if (numeric && leftConstant) {
                l.parse(left.array, left.offset, left.length);
            }
            if (numeric && rightConstant) {
                r.parse(right.array, right.offset, right.length);
            }
        }

        @Override
        public boolean test(LogEvent event) {
            ValueRef.Reader a = left;
            ValueRef.Reader b = right;
            if (!leftConstant) {
                a.read(event);
            }
            if (!rightConstant) {
                b.read(event);
            }
            int cmp;
            if (numeric) {
                if (!leftConstant) {
                    l.parse(a.array, a.offset, a.length);
                }
                if (!rightConstant) {
                    r.parse(b.array, b.offset, b.length);
                }
                cmp = NumericValue.compare(l, r);
            } else {
                cmp = Arrays.compareUnsigned(a.array, a.offset, a.offset + a.length,
                        b.array, b.offset, b.offset + b.length);
            }
            int outcome = cmp == 0 ? EQ : cmp < 0 ? LT : GT;
            return (accept & outcome) != 0;
        }
    }
}

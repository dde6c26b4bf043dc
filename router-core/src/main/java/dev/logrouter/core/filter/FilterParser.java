package dev.logrouter.core.filter;

import dev.logrouter.core.event.LogEvent;
import dev.logrouter.core.event.SyslogNames;
import dev.logrouter.core.event.Tags;
import dev.logrouter.core.filter.FilterLexer.Kind;
import dev.logrouter.core.filter.FilterLexer.Token;
import dev.logrouter.core.metrics.Counter;
import dev.logrouter.core.metrics.MetricGroup;
import dev.logrouter.core.util.Clock;

import java.io.IOException;
import java.time.ZoneId;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * Recursive-descent parser for syslog-ng's filter expression language, building the {@link FilterNode} tree.
 * Grammar (keywords case-insensitive; {@code ;} joins like {@code and} with the lowest precedence, as in
 * syslog-ng, and may end the expression):
 *
 * <pre>
 *   expr    := or (';' or?)*
 *   or      := and ('or' and)*
 *   and     := unary ('and' unary)*
 *   unary   := 'not' unary | primary
 *   primary := '(' expr ')' | operand OP operand | NAME '(' args ')'
 *   operand := "template" | 'template' | number
 *   OP      := == != &lt; &lt;= &gt; &gt;= | eq ne lt le gt ge
 * </pre>
 *
 * Every error is an {@link IllegalArgumentException} naming the 1-based column and a fix.
 *
 * <p>Threads: used once per compilation, on the configuring thread.
 */
final class FilterParser {

    private static final String FUNCTIONS = "facility(), level()/priority()/severity(), program(), host(), "
            + "message(), source(), match(), tags(), filter(), exists(), netmask(), netmask6(), in-list(), "
            + "rate-limit()";

    private final List<Token> tokens;
    private final Map<String, String> named;
    private final Deque<String> compiling;
    private final Map<String, FilterNode> compiled;
    private final ZoneId zone;
    private final Counter budgetExceeded;
    private final MetricGroup metrics;
    private final Clock clock;
    private int pos;

    private FilterParser(String text, Map<String, String> named, Deque<String> compiling,
                         Map<String, FilterNode> compiled, ZoneId zone, Counter budgetExceeded, MetricGroup metrics,
                         Clock clock) {
        this.tokens = FilterLexer.tokenize(text);
        this.named = named;
        this.compiling = compiling;
        this.compiled = compiled;
        this.zone = zone;
        this.budgetExceeded = budgetExceeded;
        this.metrics = metrics;
        this.clock = clock;
    }

    /**
     * Parses a whole expression; {@code named} holds the {@code filters:} section for {@code filter(name)};
     * {@code metrics} receives the counters of rate limits, whose buckets refill by {@code clock}.
     */
    static FilterNode parse(String text, Map<String, String> named, ZoneId zone, Counter budgetExceeded,
                            MetricGroup metrics, Clock clock) {
        return new FilterParser(text, named, new ArrayDeque<>(), new HashMap<>(), zone, budgetExceeded, metrics,
                clock).parseAll();
    }

    private FilterNode parseAll() {
        if (peek().kind() == Kind.END || peek().kind() == Kind.SEMICOLON && tokens.size() == 2) {
            throw FilterExpression.error(1, "empty filter expression",
                    "write a condition such as program(\"app\"), or leave 'filter' out to take every message");
        }
        FilterNode n = expr();
        Token t = peek();
        if (t.kind() != Kind.END) {
            if (t.kind() == Kind.RPAREN) {
                throw FilterExpression.error(t.column(), "unbalanced ')'", "remove it or add the matching '('");
            }
            throw FilterExpression.error(t.column(), "unexpected " + t.describe() + " after a complete condition",
                    "join conditions with 'and' or 'or'");
        }
        return n;
    }

    // ------------------------------------------------------------------ expressions

    private FilterNode expr() {
        List<FilterNode> parts = new ArrayList<>();
        parts.add(or());
        while (peek().kind() == Kind.SEMICOLON) {
            next();
            Kind k = peek().kind();
            if (k == Kind.END || k == Kind.RPAREN || k == Kind.SEMICOLON) {
                continue;
            }
            parts.add(or());
        }
        return LogicFilters.and(parts);
    }

    private FilterNode or() {
        List<FilterNode> parts = new ArrayList<>();
        parts.add(and());
        while (peek().isWord("or")) {
            next();
            parts.add(and());
        }
        return LogicFilters.or(parts);
    }

    private FilterNode and() {
        List<FilterNode> parts = new ArrayList<>();
        parts.add(unary());
        while (peek().isWord("and")) {
            next();
            parts.add(unary());
        }
        return LogicFilters.and(parts);
    }

    private FilterNode unary() {
        if (peek().isWord("not")) {
            next();
            return LogicFilters.not(unary());
        }
        return primary();
    }

    private FilterNode primary() {
        Token t = peek();
        switch (t.kind()) {
            case LPAREN: {
                next();
                if (peek().kind() == Kind.RPAREN) {
                    throw FilterExpression.error(peek().column(), "empty parentheses", "put a condition inside");
                }
                FilterNode n = expr();
                Token close = peek();
                if (close.kind() != Kind.RPAREN) {
                    throw FilterExpression.error(close.column(), "expected ')' to close the '(' at column "
                            + t.column() + ", found " + close.describe(), "add the ')' or join with 'and'/'or'");
                }
                next();
                return n;
            }
            case STRING:
                return comparison();
            case WORD:
                if (peekAt(1).kind() == Kind.LPAREN) {
                    return function();
                }
                if (isNumber(t.text()) && isOperator(peekAt(1))) {
                    return comparison();
                }
                if (t.isWord("and") || t.isWord("or")) {
                    throw FilterExpression.error(t.column(), "'" + t.text() + "' needs a condition before it",
                            "write e.g. program(\"a\") " + t.text().toLowerCase(Locale.ROOT) + " level(err)");
                }
                throw FilterExpression.error(t.column(), "unexpected word '" + t.text() + "'",
                        "filter functions take parentheses (" + FUNCTIONS + "); compare values as "
                                + "\"${NAME}\" == \"10\"");
            case END:
                throw FilterExpression.error(t.column(), "the expression ends where a condition is expected",
                        "add a condition after the last 'and'/'or'/'not', or remove the operator");
            default:
                throw FilterExpression.error(t.column(), "unexpected " + t.describe() + " where a condition is "
                        + "expected", "write a condition such as program(\"app\")");
        }
    }

    private FilterNode comparison() {
        Token lt = next();
        ValueRef left = operand(lt);
        Token op = next();
        if (!isOperator(op)) {
            throw FilterExpression.error(op.column(), "expected a comparison operator after " + lt.describe()
                    + ", found " + op.describe(), "use == != < <= > >= (numbers) or eq ne lt le gt ge (strings)");
        }
        Token rt = next();
        if (rt.kind() != Kind.STRING && !(rt.kind() == Kind.WORD && isNumber(rt.text()))) {
            throw FilterExpression.error(rt.column(), "expected a quoted template or a number after '"
                    + op.text() + "', found " + rt.describe(), "quote the right-hand side, e.g. \"10\"");
        }
        ValueRef right = operand(rt);
        String o = op.text().toLowerCase(Locale.ROOT);
        int accept;
        boolean numeric = true;
        switch (o) {
            case "==":
                accept = CompareFilter.EQ;
                break;
            case "!=":
                accept = CompareFilter.LT | CompareFilter.GT;
                break;
            case "<":
                accept = CompareFilter.LT;
                break;
            case "<=":
                accept = CompareFilter.LT | CompareFilter.EQ;
                break;
            case ">":
                accept = CompareFilter.GT;
                break;
            case ">=":
                accept = CompareFilter.GT | CompareFilter.EQ;
                break;
            default:
                numeric = false;
                accept = switch (o) {
                    case "eq" -> CompareFilter.EQ;
                    case "ne" -> CompareFilter.LT | CompareFilter.GT;
                    case "lt" -> CompareFilter.LT;
                    case "le" -> CompareFilter.LT | CompareFilter.EQ;
                    case "gt" -> CompareFilter.GT;
                    default -> CompareFilter.GT | CompareFilter.EQ;
                };
        }
        return new CompareFilter(left, right, accept, numeric, o);
    }

    private ValueRef operand(Token t) {
        if (t.kind() == Kind.WORD) {
            return ValueRef.constant(t.text());
        }
        try {
            return ValueRef.template(t.text(), zone);
        } catch (IllegalArgumentException e) {
            throw FilterExpression.error(t.column(), "bad template " + t.describe() + ": " + e.getMessage(), null);
        }
    }

    private static boolean isOperator(Token t) {
        if (t.kind() != Kind.WORD) {
            return false;
        }
        switch (t.text().toLowerCase(Locale.ROOT)) {
            case "==": case "!=": case "<": case "<=": case ">": case ">=":
            case "eq": case "ne": case "lt": case "le": case "gt": case "ge":
                return true;
            default:
                return false;
        }
    }

    private static boolean isNumber(String s) {
        int i = s.startsWith("-") || s.startsWith("+") ? 1 : 0;
        if (i >= s.length()) {
            return false;
        }
        for (; i < s.length(); i++) {
            char c = s.charAt(i);
            if ((c < '0' || c > '9') && c != '.') {
                return false;
            }
        }
        return true;
    }

    // ------------------------------------------------------------------ functions

    private FilterNode function() {
        Token nameTok = next();
        Token open = next();
        String fn = nameTok.text().toLowerCase(Locale.ROOT).replace('_', '-');
        FilterNode node;
        switch (fn) {
            case "facility":
                node = priorities(fn, true, open);
                break;
            case "level":
            case "priority":
            case "severity":
                node = priorities(fn, false, open);
                break;
            case "program":
                node = match(fn, ValueRef.header(LogEvent.PROGRAM, "PROGRAM"), open);
                break;
            case "host":
                node = match(fn, ValueRef.header(LogEvent.HOST, "HOST"), open);
                break;
            case "message":
                node = match(fn, ValueRef.header(LogEvent.MSG, "MESSAGE"), open);
                break;
            case "source":
                node = match(fn, ValueRef.named("SOURCE", zone), open);
                break;
            case "match":
                node = match(fn, null, open);
                break;
            case "tags":
                node = tags(open);
                break;
            case "filter":
                node = reference(open);
                break;
            case "exists":
                node = exists(open);
                break;
            case "netmask":
            case "netmask6":
                node = netmask(fn, open);
                break;
            case "in-list":
                node = inList(open);
                break;
            case "rate-limit":
            case "throttle":
                node = rateLimit(fn, open);
                break;
            default:
                throw FilterExpression.error(nameTok.column(), "unknown filter function '" + nameTok.text() + "'",
                        "use one of " + FUNCTIONS);
        }
        return node;
    }

    private FilterNode priorities(String fn, boolean facility, Token open) {
        long mask = 0;
        StringBuilder text = new StringBuilder(fn).append('(');
        while (peek().kind() != Kind.RPAREN) {
            Token a = value(fn, open, "a " + (facility ? "facility" : "severity") + " name");
            int from = priority(a, facility);
            int to = from;
            text.append(text.charAt(text.length() - 1) == '(' ? "" : " ").append(a.text());
            if (peek().kind() == Kind.DOTDOT) {
                next();
                Token b = value(fn, open, "the end of the range");
                to = priority(b, facility);
                text.append("..").append(b.text());
            }
            for (int i = Math.min(from, to); i <= Math.max(from, to); i++) {
                mask |= 1L << i;
            }
        }
        if (mask == 0) {
            throw FilterExpression.error(open.column(), fn + "() needs at least one "
                    + (facility ? "facility" : "severity"), facility ? "e.g. facility(mail, local0..local7)"
                    : "e.g. " + fn + "(warning..emerg)");
        }
        next();
        return new PriorityFilter(facility, mask, text.append(')').toString());
    }

    private static int priority(Token t, boolean facility) {
        String s = t.text().toLowerCase(Locale.ROOT);
        int n = facility ? SyslogNames.facilityNumber(s) : SyslogNames.severityNumber(s);
        if (n >= 0) {
            return n;
        }
        int max = facility ? 23 : 7;
        if (!s.isEmpty() && s.chars().allMatch(c -> c >= '0' && c <= '9') && s.length() <= 2
                && Integer.parseInt(s) <= max) {
            return Integer.parseInt(s);
        }
        if (facility) {
            throw FilterExpression.error(t.column(), "unknown facility '" + t.text() + "'",
                    "use kern, user, mail, daemon, auth, syslog, lpr, news, uucp, cron, authpriv, ftp, ntp, "
                            + "security, console, solaris-cron, local0..local7, or a number 0..23");
        }
        throw FilterExpression.error(t.column(), "unknown severity '" + t.text() + "'",
                "use emerg, alert, crit, err, warning, notice, info, debug, or a number 0..7");
    }

    private FilterNode match(String fn, ValueRef fixedValue, Token open) {
        Token pattern = peek();
        if (pattern.kind() != Kind.STRING && pattern.kind() != Kind.WORD) {
            throw FilterExpression.error(pattern.column(), fn + "() needs a pattern first, found "
                    + pattern.describe(), "e.g. " + fn + "(\"sshd\")");
        }
        next();
        int type = fn.equals("source") ? MatchSpec.STRING : MatchSpec.PCRE; // syslog-ng's source() compares strings
        boolean ignoreCase = false;
        boolean prefix = false;
        boolean substring = false;
        boolean utf8 = false;
        ValueRef value = fixedValue;
        while (peek().kind() != Kind.RPAREN) {
            if (peek().kind() == Kind.END) {
                throw FilterExpression.error(peek().column(), "missing ')' for " + fn + "( at column "
                        + open.column(), "close the parenthesis");
            }
            Token opt = next();
            if (opt.kind() != Kind.WORD || peek().kind() != Kind.LPAREN) {
                throw FilterExpression.error(opt.column(), "unexpected " + opt.describe() + " in " + fn + "()",
                        "options are written name(value): type(), flags()"
                                + (fixedValue == null ? ", value(), template()" : "") + "; close with ')'");
            }
            Token optOpen = next();
            String name = opt.text().toLowerCase(Locale.ROOT);
            switch (name) {
                case "type": {
                    Token v = value(name, optOpen, "a matcher type");
                    switch (v.text().toLowerCase(Locale.ROOT)) {
                        case "pcre":
                        case "posix":
                            type = MatchSpec.PCRE;
                            break;
                        case "string":
                            type = MatchSpec.STRING;
                            break;
                        case "glob":
                            type = MatchSpec.GLOB;
                            break;
                        default:
                            throw FilterExpression.error(v.column(), "unknown matcher type '" + v.text() + "'",
                                    "use type(pcre), type(string) or type(glob)");
                    }
                    close(name, optOpen);
                    break;
                }
                case "flags":
                    while (peek().kind() != Kind.RPAREN) {
                        Token f = value(name, optOpen, "a flag");
                        switch (f.text().toLowerCase(Locale.ROOT).replace('_', '-')) {
                            case "ignore-case":
                            case "icase":
                                ignoreCase = true;
                                break;
                            case "prefix":
                                prefix = true;
                                break;
                            case "substring":
                                substring = true;
                                break;
                            case "utf8":
                            case "unicode":
                                utf8 = true;
                                break;
                            case "global":
                            case "newline":
                            case "disable-jit":
                            case "dupnames":
                                break; // no effect on a filter's yes/no answer (see docs/configuration/filters.md)
                            case "store-matches":
                                throw FilterExpression.error(f.column(), "flags(store-matches) is not supported: "
                                        + "logrouter filters never change the message",
                                        "extract values with a regex parser in the route's parsers");
                            default:
                                throw FilterExpression.error(f.column(), "unknown flag '" + f.text() + "'",
                                        "use ignore-case, prefix, substring (type(string)) or utf8");
                        }
                    }
                    next();
                    break;
                case "value":
                case "template": {
                    if (fixedValue != null) {
                        throw FilterExpression.error(opt.column(), fn + "() has no " + name + "() option",
                                "use match(\"pattern\" " + name + "(...)) to match another value");
                    }
                    Token v = value(name, optOpen, name.equals("value") ? "a value name" : "a template");
                    try {
                        if (name.equals("value")) {
                            if (v.text().startsWith("(") || v.text().indexOf('$', 1) >= 0) {
                                throw new IllegalArgumentException("value() names one value, not a template");
                            }
                            value = ValueRef.named(v.text(), zone);
                        } else {
                            value = ValueRef.template(v.text(), zone);
                        }
                    } catch (IllegalArgumentException e) {
                        throw FilterExpression.error(v.column(), "bad " + name + "(): " + e.getMessage(),
                                "write value(\"NAME\") or template(\"${A} ${B}\")");
                    }
                    close(name, optOpen);
                    break;
                }
                default:
                    throw FilterExpression.error(opt.column(), "unknown option '" + opt.text() + "' of " + fn + "()",
                            "use type(), flags()" + (fixedValue == null ? ", value(), template()" : ""));
            }
        }
        next();
        if (value == null) {
            value = ValueRef.legacyMatch();
        }
        int column = pattern.kind() == Kind.STRING ? pattern.contentColumn() : pattern.column();
        MatchSpec spec = new MatchSpec(pattern.text(), type, ignoreCase, prefix, substring, utf8, column,
                budgetExceeded);
        return new MatchFilter(fn, value, spec);
    }

    private FilterNode tags(Token open) {
        List<Integer> ids = new ArrayList<>();
        StringBuilder text = new StringBuilder("tags(");
        while (peek().kind() != Kind.RPAREN) {
            Token t = value("tags", open, "a tag name");
            if (t.text().isEmpty()) {
                throw FilterExpression.error(t.column(), "empty tag name", "remove the \"\" or name a tag");
            }
            ids.add(Tags.id(t.text()));
            text.append(ids.size() > 1 ? ", \"" : "\"").append(t.text()).append('"');
        }
        if (ids.isEmpty()) {
            throw FilterExpression.error(open.column(), "tags() needs at least one tag name",
                    "e.g. tags(\".parse.json.failed\")");
        }
        next();
        int[] a = ids.stream().mapToInt(Integer::intValue).toArray();
        return new TagsFilter(a, text.append(')').toString());
    }

    private FilterNode exists(Token open) {
        Token t = value("exists", open, "a value name");
        close("exists", open);
        try {
            return new ExistsFilter(ValueRef.named(t.text(), zone));
        } catch (IllegalArgumentException e) {
            throw FilterExpression.error(t.column(), "bad exists(): " + e.getMessage(),
                    "write exists(\".json.user\") or exists(\"PID\")");
        }
    }

    private FilterNode netmask(String fn, Token open) {
        Token t = value(fn, open, "a network such as " + (fn.equals("netmask") ? "\"10.0.0.0/8\"" : "\"fd00::/8\""));
        close(fn, open);
        int column = t.kind() == Kind.STRING ? t.contentColumn() : t.column();
        return fn.equals("netmask") ? NetmaskFilter.ipv4(t.text(), column) : NetmaskFilter.ipv6(t.text(), column);
    }

    private FilterNode inList(Token open) {
        Token file = value("in-list", open, "the path of the list file");
        if (file.text().isEmpty()) {
            throw FilterExpression.error(file.column(), "in-list() needs the path of a file",
                    "e.g. in-list(\"/etc/logrouter/hosts.list\", value(\"HOST\"))");
        }
        Token name;
        if (peek().kind() == Kind.WORD && peek().isWord("value") && peekAt(1).kind() == Kind.LPAREN) {
            next();
            Token valueOpen = next();
            name = value("value", valueOpen, "a value name");
            close("value", valueOpen);
        } else if (peek().kind() == Kind.RPAREN || peek().kind() == Kind.END) {
            throw FilterExpression.error(peek().column(), "in-list() needs the value to look up after the file",
                    "e.g. in-list(\"" + file.text() + "\", value(\"HOST\"))");
        } else {
            name = value("in-list", open, "value(\"NAME\")");
        }
        close("in-list", open);
        ValueRef ref;
        try {
            if (name.text().startsWith("(") || name.text().indexOf('$', 1) >= 0) {
                throw new IllegalArgumentException("value() names one value, not a template");
            }
            ref = ValueRef.named(name.text(), zone);
        } catch (IllegalArgumentException e) {
            throw FilterExpression.error(name.column(), "bad in-list() value: " + e.getMessage(),
                    "write value(\"HOST\") or value(\".json.user\")");
        }
        try {
            return InListFilter.load(file.text(), ref);
        } catch (IOException | RuntimeException e) {
            String why = e instanceof java.nio.file.NoSuchFileException ? "no such file"
                    : e instanceof java.nio.file.AccessDeniedException ? "permission denied"
                    : e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
            throw FilterExpression.error(file.kind() == Kind.STRING ? file.contentColumn() : file.column(),
                    "in-list(): cannot read the list file '" + file.text() + "' (" + why + ")",
                    "create the file (one value per line), or fix the path (relative paths start at the working "
                            + "directory)");
        }
    }

    private FilterNode rateLimit(String fn, Token open) {
        ValueRef key = null;
        String keyText = null;
        long rate = 0;
        long maxKeys = RateLimitFilter.DEFAULT_MAX_KEYS;
        while (peek().kind() != Kind.RPAREN) {
            if (peek().kind() == Kind.END) {
                throw FilterExpression.error(peek().column(), "missing ')' for " + fn + "( at column "
                        + open.column(), "close the parenthesis");
            }
            Token opt = next();
            if (opt.kind() != Kind.WORD || peek().kind() != Kind.LPAREN) {
                throw FilterExpression.error(opt.column(), "unexpected " + opt.describe() + " in " + fn + "()",
                        "options are written name(value): key(), rate(), max-keys(); close with ')'");
            }
            Token optOpen = next();
            String name = opt.text().toLowerCase(Locale.ROOT).replace('_', '-');
            switch (name) {
                case "key":
                case "template": {
                    Token v = value(name, optOpen, "a template");
                    try {
                        key = ValueRef.template(v.text(), zone);
                        keyText = v.text();
                    } catch (IllegalArgumentException e) {
                        throw FilterExpression.error(v.column(), "bad " + name + "(): " + e.getMessage(),
                                "write key(\"${HOST}\") or key(\"${HOST}/${PROGRAM}\")");
                    }
                    close(name, optOpen);
                    break;
                }
                case "rate":
                    rate = positive(name, optOpen, "messages per second, e.g. rate(1000)");
                    break;
                case "max-keys":
                    maxKeys = positive(name, optOpen, "the most keys with their own bucket, e.g. max-keys(10000)");
                    break;
                default:
                    throw FilterExpression.error(opt.column(), "unknown option '" + opt.text() + "' of " + fn + "()",
                            "use key(), rate(), max-keys()");
            }
        }
        if (rate == 0) {
            throw FilterExpression.error(peek().column(), fn + "() needs rate(N), the messages per second per key",
                    "e.g. " + fn + "(key(\"${HOST}\") rate(1000))");
        }
        next();
        RateLimitTable table = new RateLimitTable((int) rate, (int) maxKeys, clock,
                metrics.counter(RateLimitFilter.PASSED, RateLimitFilter.PASSED_DOC),
                metrics.counter(RateLimitFilter.REJECTED, RateLimitFilter.REJECTED_DOC),
                metrics.counter(RateLimitFilter.OVERFLOW, RateLimitFilter.OVERFLOW_DOC));
        return new RateLimitFilter(key, keyText, (int) rate, (int) maxKeys, table);
    }

    /** A positive integer option value (at most {@link Integer#MAX_VALUE}), closing the option. */
    private long positive(String option, Token optOpen, String what) {
        Token v = value(option, optOpen, what);
        String s = v.text();
        boolean digits = !s.isEmpty() && s.length() <= 10;
        for (int i = 0; i < s.length() && digits; i++) {
            digits = s.charAt(i) >= '0' && s.charAt(i) <= '9';
        }
        long n = digits ? Long.parseLong(s) : -1;
        if (n <= 0 || n > Integer.MAX_VALUE) {
            throw FilterExpression.error(v.column(), option + "() must be a whole number from 1 to "
                    + Integer.MAX_VALUE + ", found '" + s + "'", what);
        }
        close(option, optOpen);
        return n;
    }

    private FilterNode reference(Token open) {
        Token t = value("filter", open, "the name of a filter under filters:");
        close("filter", open);
        String name = t.text();
        FilterNode done = compiled.get(name);
        if (done != null) {
            return done;
        }
        if (compiling.contains(name)) {
            List<String> chain = new ArrayList<>(compiling);
            java.util.Collections.reverse(chain);
            chain.add(name);
            throw FilterExpression.error(t.column(), "filter '" + name + "' refers to itself: "
                    + String.join(" -> ", chain), "remove one of the filter() references to break the cycle");
        }
        String text = named.get(name);
        if (text == null) {
            throw FilterExpression.error(t.column(), "no filter named '" + name + "' under filters:",
                    named.isEmpty() ? "define it under filters:" : "use one of " + new TreeSet<>(named.keySet()));
        }
        compiling.push(name);
        FilterNode node;
        try {
            node = new FilterParser(text, named, compiling, compiled, zone, budgetExceeded, metrics, clock)
                    .parseAll();
        } catch (IllegalArgumentException e) {
            throw FilterExpression.error(t.column(), "in filters." + name + ": " + e.getMessage(), null);
        } finally {
            compiling.pop();
        }
        compiled.put(name, node);
        return node;
    }

    // ------------------------------------------------------------------ tokens

    /** The next token as a value (a word or a string) inside {@code fn(...)}. */
    private Token value(String fn, Token open, String what) {
        Token t = peek();
        if (t.kind() == Kind.WORD || t.kind() == Kind.STRING) {
            return next();
        }
        if (t.kind() == Kind.END) {
            throw FilterExpression.error(t.column(), "missing ')' for " + fn + "( at column " + open.column(),
                    "close the parenthesis");
        }
        throw FilterExpression.error(t.column(), "expected " + what + " in " + fn + "(), found " + t.describe(),
                "e.g. " + fn + "(\"...\")");
    }

    private void close(String fn, Token open) {
        Token t = peek();
        if (t.kind() != Kind.RPAREN) {
            throw FilterExpression.error(t.column(), "expected ')' to close " + fn + "( at column " + open.column()
                    + ", found " + t.describe(), fn + "() takes one value; close it with ')'");
        }
        next();
    }

    private Token peek() {
        return tokens.get(pos);
    }

    private Token peekAt(int ahead) {
        return tokens.get(Math.min(pos + ahead, tokens.size() - 1));
    }

    private Token next() {
        Token t = tokens.get(pos);
        if (pos < tokens.size() - 1) {
            pos++;
        }
        return t;
    }
}

package dev.logrouter.patterndb.ruleset;

/**
 * A rule's {@code <action>}: trigger, optional filter {@code condition} (null = always), rate limit
 * {@code rateCount}/{@code rateSeconds} ({@code rateCount} 0 = unlimited), and exactly one of
 * {@code message} / {@code createContext} (both null = the action does nothing, as in the reference).
 *
 * <p>Threads: immutable.
 */
public record ActionDef(Trigger trigger, String condition, int rateCount, int rateSeconds, MessageDef message,
                        CreateContextDef createContext, int line) {
}

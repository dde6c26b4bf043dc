/**
 * Rewrite rules, steps of the {@code rewrites:} chains that routes run with {@code rewrite: [...]}, after their
 * parsers, in the parse workers:
 * <pre>
 *   parse worker: header parser → RouteEvaluator → route's parser chains → route's rewrite chains
 *                 (set, unset, subst, set-tag, clear-tag) → sinks read the rewritten event
 * </pre>
 * Each rule changes one field ({@link dev.logrouter.core.event.EventField}: a header field such as HOST or
 * MSG, or a name-value field) or one tag in place, allocating nothing per message once warm.
 */
package dev.logrouter.core.rewrite;

package dev.logrouter.core.rewrite;

import dev.logrouter.core.parse.ParserConfig;

/**
 * Configuration of one rewrite step ({@code set}, {@code unset}, {@code subst}, {@code set-tag}, {@code clear-tag}):
 * a chain step that changes the event instead of parsing its message. Rewrite steps are meant for
 * {@code rewrites:} chains (the reference lists them there), though either kind of step may stand in either kind
 * of chain.
 *
 * <p>Threads: immutable; {@link #create} is called on the configuring thread, once per parse worker.
 */
public interface RewriteConfig extends ParserConfig {
}

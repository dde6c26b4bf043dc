/**
 * syslog-ng's filter expression language, compiled once per route into a tree of per-thread {@link
 * dev.logrouter.core.filter.Filter}s that the route evaluator runs in the parse workers:
 *
 * <pre>
 *   parse worker k:  syslog header → route 1 filter? → parsers → route 2 filter? → ... → sink mask
 * </pre>
 *
 * Entry point: {@link dev.logrouter.core.filter.FilterExpression#compile}.
 */
package dev.logrouter.core.filter;

/**
 * Routes: compiled once from the configuration ({@link dev.logrouter.core.route.Routes}), evaluated once per
 * message in its parse worker ({@link dev.logrouter.core.route.RouteEvaluator}: sources, filter, parser and
 * rewrite chains, final, fallback), which stamps the message's sinks on the event as a 64-bit mask.
 */
package dev.logrouter.core.route;

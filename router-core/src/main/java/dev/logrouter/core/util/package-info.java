/**
 * Small reusable building blocks shared by stages: zero-copy and decoding {@link java.lang.CharSequence} views
 * of byte ranges and the one strict UTF-8 decoder behind them, the step-bounded sequence that keeps a regex from
 * backtracking without end, the GLib-style glob used by filters, value-pairs and the xml parser, the injected
 * monotonic {@link dev.logrouter.core.util.Clock}, and {@link dev.logrouter.core.util.SharedResources}, what the
 * components of one router share.
 */
package dev.logrouter.core.util;
